//! Answers to probes as JSON and as text, written in one place for `millbase probe` / `pv`
//! and the explorer's API (`millbase serve`), so that both speak the same schema.
//!
//! `probe` answers `{"value", "plies", "dtr", "rule": {"n", "counter"}, "moves": [{"move",
//! "value", "plies", "dtr"}, ...]}` and `pv` answers `{"value", "plies", "dtr", "rule",
//! "line": ["move", ...], "end"}` (and `"repeats"` when the line ended by repetition). `"value"` is one of `"win"`, `"cursed-win"`, `"draw"`,
//! `"blessed-loss"`, `"loss"` (the side to move's, or for a move the mover's); the distance
//! is `"plies"` (to the end of the game) for tables without the N-move rule and `"dtr"` for
//! tables under it, the other one being `null`. In a directory holding WDL files only both
//! are `null`.

use millbase::format::FileKind;
use millbase::notation::format_move;
use millbase::tables::TableDir;
use millbase::{
    MoveRuleValue, MoveWdl, NMoveRule, Position, ProbeError, PvEnd, RuleValue, TableError,
    Tablebase, Variant, Wdl,
};
use serde_json::{Map, Value as Json, json};
use std::fmt;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Why a probe could not be answered.
#[derive(Debug)]
pub enum AnswerError {
    /// The probe failed (a missing or damaged table, or an impossible position).
    Probe(ProbeError),
    /// Under an N-move rule the value at a counter above 0 needs the distance (DTR) files,
    /// and the directory holds WDL files only.
    NeedsDistances {
        /// The counter asked for.
        counter: u32,
        /// The N-move rule in force at the position (the tables' rule, or the variant's
        /// lower endgame N while a side has three stones on the board: `Tablebase::rule_at`).
        rule: NMoveRule,
        /// The table directory.
        dir: PathBuf,
    },
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Probe(e) => e.fmt(f),
            AnswerError::NeedsDistances { counter, rule, dir } => write!(
                f,
                "the value at counter {counter} under the {rule} needs the DTR files (.mbd) of \
                 {}, which holds WDL files only (they give values at counter 0)",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for AnswerError {}

impl From<ProbeError> for AnswerError {
    fn from(e: ProbeError) -> Self {
        AnswerError::Probe(e)
    }
}

/// The answer to a probe: the position's value and every legal move's, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeAnswer {
    /// Values with distances, exact under the tables' N-move rule at the given counter.
    Exact {
        /// The position's value for the side to move.
        value: RuleValue,
        /// The N-move rule in force at the position (the tables' rule, or the variant's
        /// lower endgame N while a side has three stones on the board: `Tablebase::rule_at`).
        rule: NMoveRule,
        /// The N-move counter of the position.
        counter: u32,
        /// Every legal move with its value for the mover, best first.
        moves: Vec<MoveRuleValue>,
    },
    /// Win, draw or loss only: the directory holds WDL files without distance files.
    Wdl {
        /// The position's outcome for the side to move.
        value: Wdl,
        /// The N-move rule in force at the position (the tables' rule, or the variant's
        /// lower endgame N while a side has three stones on the board: `Tablebase::rule_at`).
        rule: NMoveRule,
        /// The N-move counter of the position (0 under a rule: WDL files give counter 0).
        counter: u32,
        /// Every legal move with its outcome for the mover, best first.
        moves: Vec<MoveWdl>,
    },
}

/// Is this the error of a directory that holds WDL files but no distance files?
fn distances_missing(e: &ProbeError) -> bool {
    matches!(
        e,
        ProbeError::Table(TableError::Missing {
            kind: FileKind::Distance,
            ..
        })
    )
}

/// Does the tables' directory hold WDL files and no distance file at all?
fn wdl_only(tb: &Tablebase) -> bool {
    TableDir::scan(tb.tables().dir()).is_ok_and(|t| t.wdl_only())
}

/// Probe a position at N-move counter `counter`: its value and every move's, best first.
/// A directory without distance files is answered with win/draw/loss only.
pub fn probe(tb: &Tablebase, pos: &Position, counter: u32) -> Result<ProbeAnswer, AnswerError> {
    probe_with(tb, pos, counter, true)
}

/// [`probe`] without the moves: the position's value only, the answer's `moves` being
/// empty (`millbase probe --batch` without `--moves`: one or two table reads instead of
/// one per legal move).
pub fn probe_value(
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
) -> Result<ProbeAnswer, AnswerError> {
    probe_with(tb, pos, counter, false)
}

fn probe_with(
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
    with_moves: bool,
) -> Result<ProbeAnswer, AnswerError> {
    let value = match tb.value_at(pos, counter) {
        // A directory with no distance file at all is WDL-only; anywhere else a missing
        // distance file is an error naming it.
        Err(e) if distances_missing(&e) && wdl_only(tb) => {
            return probe_wdl(tb, pos, counter, with_moves);
        }
        other => other?,
    };
    Ok(ProbeAnswer::Exact {
        value,
        rule: tb.rule_at(pos),
        counter,
        moves: if with_moves {
            tb.move_values_at(pos, counter)?
        } else {
            Vec::new()
        },
    })
}

fn probe_wdl(
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
    with_moves: bool,
) -> Result<ProbeAnswer, AnswerError> {
    let rule = tb.rule_at(pos);
    if rule.is_active() && counter > 0 {
        return Err(AnswerError::NeedsDistances {
            counter,
            rule,
            dir: tb.tables().dir().to_path_buf(),
        });
    }
    Ok(ProbeAnswer::Wdl {
        value: tb.wdl(pos)?,
        rule,
        counter,
        moves: if with_moves {
            tb.move_wdls(pos)?
        } else {
            Vec::new()
        },
    })
}

/// `"win"`, `"draw"` or `"loss"`.
pub fn wdl_name(w: Wdl) -> &'static str {
    match w {
        Wdl::Win => "win",
        Wdl::Draw => "draw",
        Wdl::Loss => "loss",
    }
}

/// The JSON fields of a value: `"value"`, and the distance as `"plies"` (to the end of the
/// game, tables without the N-move rule) or `"dtr"` (tables under the rule).
pub fn value_fields(v: RuleValue, rule: NMoveRule) -> Map<String, Json> {
    let (plies, dtr) = distances(Some(v), rule);
    let (plies, dtr) = (
        plies.map_or(Json::Null, Json::from),
        dtr.map_or(Json::Null, Json::from),
    );
    let mut m = Map::new();
    m.insert("value".into(), v.kind().into());
    m.insert("plies".into(), plies);
    m.insert("dtr".into(), dtr);
    m
}

/// (plies, dtr) of a value: the distance goes to `plies` without a rule and to `dtr` under
/// one; neither for a draw, a cursed win, a blessed loss, or a WDL-only answer (`None`).
fn distances(v: Option<RuleValue>, rule: NMoveRule) -> (Option<u16>, Option<u16>) {
    let d = v.and_then(RuleValue::distance);
    if rule.is_active() {
        (None, d)
    } else {
        (d, None)
    }
}

fn push_number(out: &mut String, n: Option<u16>) {
    match n {
        Some(n) => {
            let _ = write!(out, "{n}");
        }
        None => out.push_str("null"),
    }
}

/// Write `s` as a JSON string.
fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `{"n": N, "counter": c}`.
pub fn rule_json(rule: NMoveRule, counter: u32) -> Json {
    json!({"n": rule.n(), "counter": counter})
}

/// A value in words: `win in 7 plies`, or under a rule `win, DTR 7`; cursed wins and
/// blessed losses as such.
pub fn value_text(v: RuleValue, rule: NMoveRule) -> String {
    match v {
        RuleValue::Win(n) if rule.is_active() => format!("win, DTR {n}"),
        RuleValue::Loss(n) if rule.is_active() => format!("loss, DTR {n}"),
        RuleValue::Win(n) => format!("win in {n} plies"),
        RuleValue::Loss(n) => format!("loss in {n} plies"),
        RuleValue::CursedWin => "cursed win, drawn by the rule".into(),
        RuleValue::BlessedLoss => "blessed loss, drawn by the rule".into(),
        RuleValue::Draw => "draw".into(),
    }
}

/// The first line of `probe` and `pv`: the value, and under a rule the rule and counter
/// (`win, DTR 7 (100-move rule, counter 12)`).
pub fn headline(v: RuleValue, rule: NMoveRule, counter: u32) -> String {
    if rule.is_active() {
        format!("{} ({rule}, counter {counter})", value_text(v, rule))
    } else {
        value_text(v, rule)
    }
}

impl ProbeAnswer {
    /// The JSON object of `millbase probe --json` and of the explorer's `/api/probe`.
    #[cfg(test)]
    pub fn json(&self, v: &Variant) -> Json {
        serde_json::from_str(&self.json_text(v)).expect("the probe JSON is well formed")
    }

    /// The JSON object of `millbase probe --json` and of the explorer's `/api/probe`, as text
    /// written directly (the explorer's hot path: a position
    /// has up to a few hundred moves, and a map per move costs more than the probe).
    pub fn json_text(&self, v: &Variant) -> String {
        let n = match self {
            ProbeAnswer::Exact { moves, .. } => moves.len(),
            ProbeAnswer::Wdl { moves, .. } => moves.len(),
        };
        let mut out = String::with_capacity(96 + 64 * n);
        out.push('{');
        self.write_json_fields(v, true, &mut out);
        out.push('}');
        out
    }

    /// The fields of [`ProbeAnswer::json_text`] without the enclosing braces, appended to
    /// `out` (`"dtr":…,"moves":[…],"plies":…,"rule":{…},"value":…`), so that a caller can
    /// add fields of its own (`millbase probe --batch` puts `"input"` first). Without
    /// `with_moves` the `"moves"` field is left out.
    pub fn write_json_fields(&self, v: &Variant, with_moves: bool, out: &mut String) {
        let (value, rule, counter) = match self {
            ProbeAnswer::Exact {
                value,
                rule,
                counter,
                ..
            } => (Some(*value), *rule, *counter),
            ProbeAnswer::Wdl { rule, counter, .. } => (None, *rule, *counter),
        };
        // Keys in sorted order, as serde_json writes its maps.
        out.push_str("\"dtr\":");
        let (plies, dtr) = distances(value, rule);
        push_number(out, dtr);
        if with_moves {
            self.write_moves(v, out);
        }
        out.push_str(",\"plies\":");
        push_number(out, plies);
        let _ = write!(
            out,
            ",\"rule\":{{\"counter\":{counter},\"n\":{}}},\"value\":",
            rule.n()
        );
        let kind = match self {
            ProbeAnswer::Exact { value, .. } => value.kind(),
            ProbeAnswer::Wdl { value, .. } => wdl_name(*value),
        };
        push_string(out, kind);
    }

    /// `,"moves":[…]`.
    fn write_moves(&self, v: &Variant, out: &mut String) {
        out.push_str(",\"moves\":[");
        let mut push_move = |i: usize, text: String, kind: &str, plies, dtr| {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"dtr\":");
            push_number(out, dtr);
            out.push_str(",\"move\":");
            push_string(out, &text);
            out.push_str(",\"plies\":");
            push_number(out, plies);
            out.push_str(",\"value\":");
            push_string(out, kind);
            out.push('}');
        };
        match self {
            ProbeAnswer::Exact { moves, rule, .. } => {
                for (i, m) in moves.iter().enumerate() {
                    let (plies, dtr) = distances(Some(m.value), *rule);
                    push_move(i, format_move(v, m.mv), m.value.kind(), plies, dtr);
                }
            }
            ProbeAnswer::Wdl { moves, .. } => {
                for (i, m) in moves.iter().enumerate() {
                    push_move(i, format_move(v, m.mv), wdl_name(m.wdl), None, None);
                }
            }
        }
        out.push(']');
    }

    /// The text of `millbase probe`: the headline, then one line per move.
    pub fn text(&self, v: &Variant) -> String {
        match self {
            ProbeAnswer::Exact {
                value,
                rule,
                counter,
                moves,
            } => {
                let mut t = format!("{}\n", headline(*value, *rule, *counter));
                for m in moves {
                    let _ = writeln!(
                        t,
                        "{:<12} {}",
                        format_move(v, m.mv),
                        value_text(m.value, *rule)
                    );
                }
                t
            }
            ProbeAnswer::Wdl { value, moves, .. } => {
                let mut t = format!("{} (no distance tables)\n", wdl_name(*value));
                for m in moves {
                    let _ = writeln!(t, "{:<12} {}", format_move(v, m.mv), wdl_name(m.wdl));
                }
                t
            }
        }
    }
}

/// The longest line `pv` and the explorer show: a longer `max_plies` is capped to it.
pub const MAX_PV_PLIES: usize = 1000;

/// How a line shown by `pv` ended: why the tables' line ended ([`PvEnd`]), and whether the
/// limit it reached was [`MAX_PV_PLIES`] rather than the `max_plies` asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PvStop {
    /// Why the line ended.
    pub end: PvEnd,
    /// The plies the line could have at most: `max_plies`, or [`MAX_PV_PLIES`] if less.
    pub limit: usize,
    /// `max_plies` was above [`MAX_PV_PLIES`].
    pub capped: bool,
}

impl PvStop {
    /// The `"end"` field of `pv --json`: `"game-over"`, `"n-move-rule"`, `"repetition"`,
    /// `"max-plies"` or `"cap"`.
    pub fn name(&self) -> &'static str {
        match self.end {
            PvEnd::GameOver => "game-over",
            PvEnd::NMoveRule => "n-move-rule",
            PvEnd::Repetition { .. } => "repetition",
            PvEnd::MaxPlies if self.capped => "cap",
            PvEnd::MaxPlies => "max-plies",
        }
    }

    /// The line of `pv`'s text saying why the line stopped before the end of the game
    /// (`None` when it reached the end of the game).
    pub fn text(&self, rule: NMoveRule) -> Option<String> {
        let why = match self.end {
            PvEnd::GameOver => return None,
            PvEnd::NMoveRule => format!(
                "the {rule} draws here ({} plies without a removal or placement)",
                rule.n()
            ),
            PvEnd::Repetition { ply: 0 } => "the last move brings back the position the line \
                 started from: best play goes round in circles, a draw"
                .to_string(),
            PvEnd::Repetition { ply } => format!(
                "the last move brings back the position after ply {ply}: best play goes round \
                 in circles, a draw"
            ),
            PvEnd::MaxPlies if self.capped => format!(
                "{} plies, the longest line shown (a longer --max-plies is capped)",
                self.limit
            ),
            PvEnd::MaxPlies => format!("{} plies, the --max-plies asked for", self.limit),
        };
        Some(format!("stopped: {why}"))
    }
}

/// The answer of `pv`: the position's value and the principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvAnswer {
    /// The position's value for the side to move.
    pub value: RuleValue,
    /// The N-move rule in force at the position (`Tablebase::rule_at`).
    pub rule: NMoveRule,
    /// The N-move counter of the position.
    pub counter: u32,
    /// The line: best moves with their values for their movers.
    pub line: Vec<MoveRuleValue>,
    /// Why the line ended.
    pub stop: PvStop,
}

/// The principal variation from a position at counter `counter`, at most `max_plies` moves
/// and at most [`MAX_PV_PLIES`] ([`Tablebase::principal_variation_with`]).
pub fn principal_variation(
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
    max_plies: usize,
) -> Result<PvAnswer, ProbeError> {
    let value = tb.value_at(pos, counter)?;
    let mut line = Vec::new();
    let stop = walk_principal_variation(tb, pos, counter, max_plies, |m| line.push(*m))?;
    Ok(PvAnswer {
        value,
        rule: tb.rule_at(pos),
        counter,
        line,
        stop,
    })
}

/// [`principal_variation`] move by move: `each` gets every move as soon as it is found
/// (`pv` prints them as they come); returns how the line stopped.
pub fn walk_principal_variation(
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
    max_plies: usize,
    each: impl FnMut(&MoveRuleValue),
) -> Result<PvStop, ProbeError> {
    let limit = max_plies.min(MAX_PV_PLIES);
    let end = tb.principal_variation_with(pos, counter, limit, each)?;
    Ok(PvStop {
        end,
        limit,
        capped: max_plies > MAX_PV_PLIES,
    })
}

impl PvAnswer {
    /// The moves of the line in Sanmill notation.
    pub fn moves(&self, v: &Variant) -> Vec<String> {
        self.line.iter().map(|m| format_move(v, m.mv)).collect()
    }

    /// The JSON object of `millbase pv --json` and of the explorer's `/api/pv` (which adds
    /// the positions along the line): the value fields, `"rule"`, `"line"`, `"end"` (see
    /// [`PvStop::name`]) and, when the line ended by repetition, `"repeats"`: the ply after
    /// which the repeated position first stood (0: the position the line started from).
    pub fn json(&self, v: &Variant) -> Json {
        let mut o = value_fields(self.value, self.rule);
        o.insert("rule".into(), rule_json(self.rule, self.counter));
        o.insert("line".into(), self.moves(v).into());
        o.insert("end".into(), self.stop.name().into());
        if let PvEnd::Repetition { ply } = self.stop.end {
            o.insert("repeats".into(), ply.into());
        }
        Json::Object(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use millbase::Move;
    use millbase::{MoveRuleValue, MoveWdl};

    fn v() -> Variant {
        Variant::standard()
    }

    #[test]
    fn probe_json_without_a_rule_has_plies() {
        let a = ProbeAnswer::Exact {
            value: RuleValue::Win(7),
            rule: NMoveRule::NONE,
            counter: 3,
            moves: vec![
                MoveRuleValue {
                    mv: Move::slide(0, 3),
                    value: RuleValue::Win(7),
                },
                MoveRuleValue {
                    mv: Move::place(9).with_removal(1),
                    value: RuleValue::Draw,
                },
                MoveRuleValue {
                    mv: Move::removal(2),
                    value: RuleValue::Loss(12),
                },
            ],
        };
        let expected = json!({"value": "win", "plies": 7, "dtr": null,
            "rule": {"n": 0, "counter": 3}, "moves": [
                {"move": "d5-e3", "value": "win", "plies": 7, "dtr": null},
                {"move": "f6xe5", "value": "draw", "plies": null, "dtr": null},
                {"move": "xe4", "value": "loss", "plies": 12, "dtr": null}]});
        assert_eq!(a.json(&v()), expected);
        // Byte for byte what serde_json writes for the same object.
        assert_eq!(a.json_text(&v()), expected.to_string());
        assert!(
            a.text(&v())
                .starts_with("win in 7 plies\nd5-e3        win in 7 plies\n")
        );
    }

    #[test]
    fn probe_json_under_a_rule_has_dtr_and_the_five_classes() {
        let rule = NMoveRule::new(100).unwrap();
        let a = ProbeAnswer::Exact {
            value: RuleValue::CursedWin,
            rule,
            counter: 94,
            moves: vec![
                MoveRuleValue {
                    mv: Move::slide(0, 3),
                    value: RuleValue::CursedWin,
                },
                MoveRuleValue {
                    mv: Move::slide(4, 5),
                    value: RuleValue::BlessedLoss,
                },
                MoveRuleValue {
                    mv: Move::slide(4, 6),
                    value: RuleValue::Loss(3),
                },
            ],
        };
        let expected = json!({"value": "cursed-win", "plies": null, "dtr": null,
            "rule": {"n": 100, "counter": 94}, "moves": [
                {"move": "d5-e3", "value": "cursed-win", "plies": null, "dtr": null},
                {"move": "d3-c3", "value": "blessed-loss", "plies": null, "dtr": null},
                {"move": "d3-c4", "value": "loss", "plies": null, "dtr": 3}]});
        assert_eq!(a.json(&v()), expected);
        assert_eq!(a.json_text(&v()), expected.to_string());
        assert_eq!(
            headline(RuleValue::Win(7), rule, 12),
            "win, DTR 7 (100-move rule, counter 12)"
        );
    }

    #[test]
    fn fields_without_moves_leave_the_moves_out() {
        let a = ProbeAnswer::Exact {
            value: RuleValue::Loss(4),
            rule: NMoveRule::NONE,
            counter: 0,
            moves: vec![],
        };
        let mut out = String::from("{\"input\":\"x\",");
        a.write_json_fields(&v(), false, &mut out);
        out.push('}');
        let expected = json!({"input": "x", "value": "loss", "plies": 4, "dtr": null,
            "rule": {"n": 0, "counter": 0}});
        assert_eq!(serde_json::from_str::<Json>(&out).unwrap(), expected);
        let mut with = String::from("{");
        a.write_json_fields(&v(), true, &mut with);
        with.push('}');
        assert_eq!(with, a.json_text(&v()));
        assert!(with.contains("\"moves\":[]"));
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        for s in [
            "d5-e3",
            "a \"quoted\" \\ back",
            "tab\tnew\nline\u{1}",
            "é ✓",
        ] {
            let mut out = String::new();
            push_string(&mut out, s);
            assert_eq!(serde_json::from_str::<String>(&out).unwrap(), s);
        }
    }

    #[test]
    fn wdl_answers_have_no_distances() {
        let a = ProbeAnswer::Wdl {
            value: Wdl::Loss,
            rule: NMoveRule::NONE,
            counter: 0,
            moves: vec![MoveWdl {
                mv: Move::place(0),
                wdl: Wdl::Loss,
            }],
        };
        let expected = json!({"value": "loss", "plies": null, "dtr": null,
            "rule": {"n": 0, "counter": 0},
            "moves": [{"move": "d5", "value": "loss", "plies": null, "dtr": null}]});
        assert_eq!(a.json_text(&v()), expected.to_string());
        assert_eq!(
            a.text(&v()),
            "loss (no distance tables)\nd5           loss\n"
        );
    }

    #[test]
    fn a_line_says_why_it_stopped_before_the_end_of_the_game() {
        let rule = NMoveRule::new(100).unwrap();
        let stop = |end, limit, capped| PvStop { end, limit, capped };
        let over = stop(PvEnd::GameOver, 100, false);
        assert_eq!((over.name(), over.text(rule)), ("game-over", None));
        let cases = [
            (
                stop(PvEnd::NMoveRule, 100, false),
                "n-move-rule",
                "stopped: the 100-move rule draws here (100 plies without a removal or \
                 placement)",
            ),
            (
                stop(PvEnd::Repetition { ply: 0 }, MAX_PV_PLIES, true),
                "repetition",
                "stopped: the last move brings back the position the line started from: best \
                 play goes round in circles, a draw",
            ),
            (
                stop(PvEnd::Repetition { ply: 3 }, 100, false),
                "repetition",
                "stopped: the last move brings back the position after ply 3: best play goes \
                 round in circles, a draw",
            ),
            (
                stop(PvEnd::MaxPlies, 12, false),
                "max-plies",
                "stopped: 12 plies, the --max-plies asked for",
            ),
            (
                stop(PvEnd::MaxPlies, MAX_PV_PLIES, true),
                "cap",
                "stopped: 1000 plies, the longest line shown (a longer --max-plies is capped)",
            ),
        ];
        for (s, name, text) in cases {
            assert_eq!(s.name(), name, "{s:?}");
            assert_eq!(s.text(rule).as_deref(), Some(text), "{s:?}");
        }
    }
}
