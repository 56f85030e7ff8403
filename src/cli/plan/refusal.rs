//! What a plan's tables are refused under its rules, and why: every table
//! ([`Variant::unsupported_by_tables`]) or those of the placing phase
//! ([`Variant::unsupported_in_placing`], per sector [`unsupported_in`]). The plan still gives
//! the figures of the whole game; this says which of its sectors `generate` would refuse.

use super::marks::{Marks, marks, scaled};
use crate::cli::common::count;
use millbase::Variant;
use millbase::plan::{Cost, PlanEntry};
use millbase::sectors::unsupported_in;
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Which tables are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every table: no table follows these rules.
    All,
    /// The placing phase's (stones in hand, or a board filled by placing).
    Placing,
}

/// The refused part of a plan.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// Every table or the placing phase's.
    pub scope: Scope,
    /// The options, as `key=value` (as `millbase rules` names them).
    pub rules: Vec<String>,
    /// The figures of the plan's refused components.
    pub refused: Cost,
    /// The figures of the rest, whose tables `generate` makes.
    pub allowed: Cost,
    /// Under `placing-mill=mark`: the figures with the marks as state, which the reason
    /// cites.
    pub marks: Option<Marks>,
}

/// Does a component of the plan have a sector whose tables are refused under `v`?
pub fn is_refused(v: &Variant, e: &PlanEntry) -> bool {
    e.component
        .sectors()
        .iter()
        .any(|&s| !unsupported_in(v, s).is_empty())
}

/// The options refusing the tables of a component's sectors (empty: none refused).
pub fn refused_rules(v: &Variant, e: &PlanEntry) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &s in e.component.sectors() {
        for r in unsupported_in(v, s) {
            if !out.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

/// What of `entries` (a plan under `v`) is refused, or `None` when every table can be made;
/// its times multiplied by `factor` (a calibration of the solve rates, 1 without).
pub fn refusal(v: &Variant, entries: &[PlanEntry], factor: f64) -> Option<Refusal> {
    let all = v.unsupported_by_tables();
    let (scope, rules) = if all.is_empty() {
        (Scope::Placing, v.unsupported_in_placing())
    } else {
        (Scope::All, all)
    };
    if rules.is_empty() {
        return None;
    }
    let (refused, allowed): (Vec<PlanEntry>, Vec<PlanEntry>) =
        entries.iter().cloned().partition(|e| is_refused(v, e));
    if refused.is_empty() {
        return None;
    }
    Some(Refusal {
        scope,
        rules,
        refused: scaled(Cost::of(v, &refused), factor),
        allowed: scaled(Cost::of(v, &allowed), factor),
        marks: marks(v, entries, factor),
    })
}

/// Why tables do not follow the option `rule` (`key=value`) yet, in a few words.
pub fn reason(rule: &str) -> &'static str {
    let (key, value) = rule.split_once('=').unwrap_or((rule, ""));
    match (key, value) {
        ("one-time-mill", _) => {
            "a mill's removal depends on every mill of the game so far, which a position does \
             not hold"
        }
        ("stalemate", "pass") => {
            "a blocked side that passes is followed in the moving phase without \
             repeated-mills=restricted; while placing, or with the restriction, it is not \
             checked against an oracle yet"
        }
        ("stalemate", _) => {
            "a side blocked while its opponent still places (move-while-placing) is not checked \
             against an oracle yet"
        }
        ("placing-mill", "mark") => {
            "a marked point is state beyond the stones, a third kind of point (one per stone \
             taken while placing)"
        }
        ("placing-mill", "from-hand" | "from-hand-again") => {
            "removals from hand are followed with one removal a move, no captures, White moving \
             first, no move-while-placing, no stalemate removals and no \
             repeated-mills=restricted; this combination is not checked against an oracle yet"
        }
        ("placing-mill", "by-mill-counts") | ("board-full", _) => {
            "a full board's removals are followed unless a side may slide while placing \
             (move-while-placing): that combination is not checked against an oracle yet"
        }
        ("moving-first", _) => {
            "with move-while-placing the stones in hand do not tell who places the last stone \
             and moves first"
        }
        _ => "not followed by the tables yet",
    }
}

/// Does the sector graph model the option `rule`? Where it does not (marks), the figures of
/// the refused sectors are approximate: the graph places as under `placing-mill=remove` and
/// counts stones only.
pub fn graph_models(rule: &str) -> bool {
    rule != "placing-mill=mark"
}

/// "supported", "moving phase only" or "none": which tables a set's whole game can have.
pub fn tables_word(r: Option<&Refusal>) -> &'static str {
    match r.map(|r| r.scope) {
        None => "supported",
        Some(Scope::Placing) => "moving phase only",
        Some(Scope::All) => "none",
    }
}

impl Refusal {
    /// Why tables do not follow `rule`: [`reason`], or under marks the reason with the
    /// figures of the placing phase with marks ([`Marks::reason`]).
    pub fn reason_of(&self, rule: &str) -> String {
        match &self.marks {
            Some(m) if rule == "placing-mill=mark" => m.reason(),
            _ => reason(rule).to_string(),
        }
    }

    /// The refusal as JSON: `{"scope": "all"|"placing", "rules": [...], "reasons": {rule:
    /// why}, "approximate": bool, "refused": Cost, "allowed": Cost, "marks": Marks or null}`
    /// (`approximate`: the refused sectors' figures follow a sector graph that does not
    /// model the rules; `marks`: [`Marks::json`]).
    pub fn json(&self) -> Value {
        let reasons: serde_json::Map<String, Value> = self
            .rules
            .iter()
            .map(|r| (r.clone(), Value::String(self.reason_of(r))))
            .collect();
        json!({
            "scope": match self.scope {
                Scope::All => "all",
                Scope::Placing => "placing",
            },
            "rules": self.rules,
            "reasons": reasons,
            "approximate": self.approximate(),
            "refused": self.refused.json(),
            "allowed": self.allowed.json(),
            "marks": self.marks.as_ref().map(Marks::json),
        })
    }

    /// Are the refused sectors' figures approximate ([`graph_models`])?
    pub fn approximate(&self) -> bool {
        self.rules.iter().any(|r| !graph_models(r))
    }

    /// The lines `plan` prints below its total: the figures with marks as state (under
    /// `placing-mill=mark`), what is refused and why, what can be made, and whether the
    /// refused figures are approximate.
    pub fn text(&self) -> String {
        let why: Vec<String> = self
            .rules
            .iter()
            .map(|r| format!("{r} ({})", self.reason_of(r)))
            .collect();
        let mut t = self.marks.as_ref().map(Marks::text).unwrap_or_default();
        match self.scope {
            Scope::All => {
                let _ = writeln!(
                    t,
                    "refused: no tables under these rules (every component, marked *): {}",
                    why.join("; ")
                );
            }
            Scope::Placing => {
                let _ = writeln!(
                    t,
                    "refused: the placing phase's tables ({}, {} of this plan, marked *): {}",
                    count(self.refused.sectors as u64, "sector", "sectors"),
                    count(self.refused.positions, "position", "positions"),
                    why.join("; ")
                );
                let _ = writeln!(t, "tables that can be made: {}", self.allowed);
            }
        }
        if self.approximate() {
            let rules: Vec<&str> = self
                .rules
                .iter()
                .filter(|r| !graph_models(r))
                .map(String::as_str)
                .collect();
            let _ = writeln!(
                t,
                "note: the refused sectors' figures are approximate: the sector graph does not \
                 model {} (it places as under placing-mill=remove and counts stones only){}",
                rules.join(", "),
                if self.marks.is_some() {
                    "; the figures with marks as state count the marks"
                } else {
                    ""
                }
            );
        }
        t
    }
}
