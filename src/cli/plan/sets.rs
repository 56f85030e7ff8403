//! `millbase plan --rule-sets`: one line per named rule set with the figures of its whole
//! game and of its default endgame set, and what its tables refuse.

use super::RATES_NOTE;
use super::marks::{MACHINE, Marks};
use super::refusal::{Refusal, reason, refusal, tables_word};
use millbase::Variant;
use millbase::plan::{Cost, bytes, duration, plan};
use millbase::sectors::{moving_sectors_up_to, reachable_sectors};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The most stones on the board in the default set of `generate` (its moving phase).
const DEFAULT_SET_STONES: u8 = 10;

/// The figures of one named rule set.
pub struct SetFigures {
    /// The name `--variant` takes.
    pub name: &'static str,
    /// Its rules.
    pub variant: Variant,
    /// The whole game: every sector a game from the start position reaches.
    pub whole: Cost,
    /// What the whole game's tables refuse.
    pub refusal: Option<Refusal>,
    /// The default set of `generate` (the moving phase, at most 10 stones on the board).
    pub default_set: Cost,
    /// What the default set's tables refuse (every table, or nothing).
    pub default_refusal: Option<Refusal>,
}

/// The figures of every name `--variant` takes, in the order of `millbase rules --list`.
pub fn all_sets() -> Vec<SetFigures> {
    Variant::names()
        .into_iter()
        .filter_map(|name| Variant::by_name(name).map(|v| (name, v)))
        .map(|(name, v)| {
            let whole = plan(&v, &reachable_sectors(&v));
            let default = plan(&v, &moving_sectors_up_to(&v, DEFAULT_SET_STONES));
            SetFigures {
                name,
                variant: v,
                whole: Cost::of(&v, &whole),
                refusal: refusal(&v, &whole, 1.0),
                default_set: Cost::of(&v, &default),
                default_refusal: refusal(&v, &default, 1.0),
            }
        })
        .collect()
}

impl SetFigures {
    /// The whole game's figures with marks as state (`placing-mill=mark`), if any.
    pub fn marks(&self) -> Option<&Marks> {
        self.refusal.as_ref().and_then(|r| r.marks.as_ref())
    }
}

/// The "tables" entry of a set: what its tables can be and what refuses the rest.
fn tables_text(f: &SetFigures) -> String {
    let mut t = tables_word(f.refusal.as_ref()).to_string();
    if let Some(r) = &f.refusal {
        let _ = write!(t, " (refused: {})", r.rules.join(", "));
    }
    if f.name != f.variant.name {
        let _ = write!(t, "; = {}", f.variant.name);
    }
    t
}

/// The table of `plan --rule-sets`.
pub fn text(sets: &[SetFigures]) -> String {
    let width = sets.iter().map(|f| f.name.len()).max().unwrap_or(3).max(3);
    let mut t = format!(
        "{:<width$}  {:>7} {:>15} {:>9} {:>10} {:>10}  {:>7} {:>11} {:>8}  {}\n",
        "set",
        "sectors",
        "positions",
        "time",
        "memory",
        "disk",
        "default",
        "positions",
        "time",
        "tables"
    );
    for f in sets {
        let _ = writeln!(
            t,
            "{:<width$}  {:>7} {:>15} {:>9} {:>10} {:>10}  {:>7} {:>11} {:>8}  {}",
            f.name,
            f.whole.sectors,
            f.whole.positions,
            duration(f.whole.seconds),
            bytes(f.whole.peak_memory),
            bytes(f.whole.disk),
            f.default_set.sectors,
            f.default_set.positions,
            duration(f.default_set.seconds),
            tables_text(f)
        );
    }
    let _ = writeln!(
        t,
        "sectors .. disk: the whole game (every sector a game from the start position reaches); \
         default: the default set of `generate --variant NAME` (the moving phase, at most {} \
         stones on the board), its sectors, positions and time",
        DEFAULT_SET_STONES
    );
    let _ = writeln!(t, "{RATES_NOTE}");
    let marked: Vec<(&SetFigures, &Marks)> = sets
        .iter()
        .filter_map(|f| f.marks().map(|m| (f, m)))
        .collect();
    if !marked.is_empty() {
        let _ = writeln!(
            t,
            "with marks as state (placing-mill=mark: one marked point per stone taken while \
             placing), the whole game and its placing phase, at the same rates, against this \
             machine ({MACHINE}):"
        );
        let _ = writeln!(
            t,
            "  {:<width$}  {:>16} {:>11} {:>10} {:>11}  {:>16} {:>11} {:>10}  fits",
            "set", "positions", "time", "memory", "disk", "placing phase", "time", "memory"
        );
        for (f, m) in marked {
            let _ = writeln!(
                t,
                "  {:<width$}  {:>16} {:>11} {:>10} {:>11}  {:>16} {:>11} {:>10}  {}",
                f.name,
                m.whole.positions,
                duration(m.whole.seconds),
                bytes(m.whole.peak_memory),
                bytes(m.whole.disk),
                m.placing.positions,
                duration(m.placing.seconds),
                bytes(m.placing.peak_memory),
                if m.fits() { "yes" } else { "no" }
            );
        }
    }
    let mut refused: Vec<&str> = Vec::new();
    for f in sets {
        for r in f.refusal.iter().flat_map(|r| &r.rules) {
            if !refused.contains(&r.as_str()) {
                refused.push(r);
            }
        }
    }
    if !refused.is_empty() {
        let _ = writeln!(t, "refused options:");
        for r in refused {
            let _ = writeln!(t, "  {r}: {}", reason(r));
        }
    }
    if sets
        .iter()
        .any(|f| f.refusal.as_ref().is_some_and(Refusal::approximate))
    {
        let _ = writeln!(
            t,
            "the whole-game figures of sets refusing placing-mill=mark are approximate: the \
             sector graph places as under placing-mill=remove and counts stones only"
        );
    }
    t
}

/// The JSON of `plan --rule-sets`: an array of {"name", "variant", "same_as", "whole_game",
/// "default_set", "tables", "refused", "default_set_refused", "marks" (the whole game with marks as state, [`Marks::json`], or null), "estimates"}.
pub fn json(sets: &[SetFigures]) -> String {
    let items: Vec<Value> = sets
        .iter()
        .map(|f| {
            json!({
                "name": f.name,
                "variant": f.variant.label(),
                "same_as": (f.name != f.variant.name).then_some(f.variant.name),
                "whole_game": f.whole.json(),
                "default_set": f.default_set.json(),
                "tables": tables_word(f.refusal.as_ref()),
                "refused": f.refusal.as_ref().map(Refusal::json),
                "default_set_refused": f.default_refusal.as_ref().map(Refusal::json),
                "marks": f.marks().map(Marks::json),
                "estimates": RATES_NOTE,
            })
        })
        .collect();
    format!("{}\n", Value::Array(items))
}
