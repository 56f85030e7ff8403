//! The blunder meter's answer key: the judge's value of every legal move of each position of
//! a fixed set, written once from the whole game's tables and kept as text, so that the meter
//! can judge an engine's moves without those tables (an hour to generate, 2 GB on disk).
//!
//! A key file is UTF-8 text. Lines starting with `#` are comments, except the one header line
//!
//! ```text
//! #key variant std n-move-rule 100 distances dtr
//! ```
//!
//! which names the variant, the N-move rule the values are exact under (0: none) and what the
//! distances count (`dtr`: plies to the next reset of the N-move counter, as the tables under
//! an N-move rule store them; `end`: plies to the end of the game). Every other non-blank line
//! is a position line of the positions file (a Sanmill position string or `startpos`,
//! optionally followed by `moves ...`), a tab, and its legal moves (combined convention, Sanmill
//! notation) each with its value for the side making it, separated by spaces:
//!
//! ```text
//! ********/********/******** w p p 9 0 9 0 0 0 0 0 0 0 1\ta1:D d6:D ... g7xa1:W31
//! ```
//!
//! A value is `W<n>` (a win in n plies), `L<n>` (a loss in n plies) or `D` (a draw).

use crate::game::notation::{format_move, parse_move};
use crate::game::rules::Variant;
use crate::game::value::{NMoveRule, Value};
use crate::probe::MoveValue;
use std::fmt;

/// The header of a key: what its values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyHeader {
    /// The N-move rule the values are exact under.
    pub n_move: NMoveRule,
    /// Distances are DTR (tables under an N-move rule) rather than plies to the end.
    pub dtr: bool,
}

/// What is wrong with a key's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError(String);

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KeyError {}

/// The header line of a key for `variant` under `header`.
pub fn format_header(variant: &Variant, header: KeyHeader) -> String {
    format!(
        "#key variant {} n-move-rule {} distances {}",
        variant.label(),
        header.n_move.n(),
        if header.dtr { "dtr" } else { "end" }
    )
}

/// Read a header line: `None` when `line` is not one (it does not start with `#key `); the
/// variant's label and the header otherwise.
///
/// # Errors
///
/// A `#key` line that is not shaped like [`format_header`]'s.
pub fn parse_header(line: &str) -> Option<Result<(String, KeyHeader), KeyError>> {
    let rest = line.strip_prefix("#key ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let bad = || {
        KeyError(format!(
            "malformed key header '{line}' (want '#key variant NAME n-move-rule N distances dtr|end')"
        ))
    };
    Some(match words[..] {
        ["variant", name, "n-move-rule", n, "distances", d] => {
            let n_move = n.parse::<u16>().ok().and_then(NMoveRule::new);
            let dtr = match d {
                "dtr" => Some(true),
                "end" => Some(false),
                _ => None,
            };
            match (n_move, dtr) {
                (Some(n_move), Some(dtr)) => Ok((name.to_string(), KeyHeader { n_move, dtr })),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    })
}

/// A value as the key writes it: `W12`, `L7`, `D`.
pub fn format_value(v: Value) -> String {
    match v {
        Value::Win(n) => format!("W{n}"),
        Value::Loss(n) => format!("L{n}"),
        Value::Draw => "D".to_string(),
    }
}

/// Read a value written by [`format_value`].
///
/// # Errors
///
/// Text that is not `W<n>`, `L<n>` or `D`.
pub fn parse_value(text: &str) -> Result<Value, KeyError> {
    let bad = || KeyError(format!("'{text}' is not a value (W<plies>, L<plies> or D)"));
    let number = |s: &str| s.parse::<u16>().map_err(|_| bad());
    match text.as_bytes().first() {
        Some(b'D') if text.len() == 1 => Ok(Value::Draw),
        Some(b'W') => Ok(Value::Win(number(&text[1..])?)),
        Some(b'L') => Ok(Value::Loss(number(&text[1..])?)),
        _ => Err(bad()),
    }
}

/// The moves part of a key line: `move:value` pairs separated by spaces.
pub fn format_move_values(variant: &Variant, values: &[MoveValue]) -> String {
    values
        .iter()
        .map(|m| format!("{}:{}", format_move(variant, m.mv), format_value(m.value)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Read the moves part of a key line.
///
/// # Errors
///
/// A pair without `:`, a malformed move or value, a move twice, or no moves at all.
pub fn parse_move_values(variant: &Variant, text: &str) -> Result<Vec<MoveValue>, KeyError> {
    let mut out: Vec<MoveValue> = Vec::new();
    for pair in text.split_whitespace() {
        let (mv, value) = pair
            .split_once(':')
            .ok_or_else(|| KeyError(format!("'{pair}' is not move:value")))?;
        let mv = parse_move(variant, mv).map_err(|e| KeyError(format!("'{pair}': {e}")))?;
        if out.iter().any(|m| m.mv == mv) {
            return Err(KeyError(format!("'{pair}': the move is listed twice")));
        }
        out.push(MoveValue {
            mv,
            value: parse_value(value)?,
        });
    }
    if out.is_empty() {
        return Err(KeyError("no moves".to_string()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Move;

    #[test]
    fn values_and_moves_round_trip() {
        let v = Variant::by_name("std").unwrap();
        for value in [Value::Win(1), Value::Win(231), Value::Loss(0), Value::Draw] {
            assert_eq!(parse_value(&format_value(value)), Ok(value));
        }
        for bad in ["", "d", "W", "L-1", "W70000", "DD", "X3"] {
            assert!(parse_value(bad).is_err(), "{bad}");
        }
        let values = vec![
            MoveValue {
                mv: Move::place(0),
                value: Value::Draw,
            },
            MoveValue {
                mv: Move::slide(1, 2).with_removal(5),
                value: Value::Win(17),
            },
        ];
        let text = format_move_values(&v, &values);
        assert_eq!(parse_move_values(&v, &text), Ok(values));
        assert!(parse_move_values(&v, "").is_err());
        assert!(parse_move_values(&v, "a1").is_err());
        assert!(parse_move_values(&v, "a1:D a1:W3").is_err());
        assert!(parse_move_values(&v, "z9:D").is_err());
    }

    #[test]
    fn headers_round_trip_and_reject_the_malformed() {
        let v = Variant::by_name("std").unwrap();
        let header = KeyHeader {
            n_move: NMoveRule::new(100).unwrap(),
            dtr: true,
        };
        let line = format_header(&v, header);
        assert_eq!(
            parse_header(&line),
            Some(Ok((v.label().to_string(), header)))
        );
        assert_eq!(parse_header("# a comment"), None);
        assert_eq!(parse_header("#keyboard"), None);
        assert!(matches!(parse_header("#key variant std"), Some(Err(_))));
        assert!(matches!(
            parse_header("#key variant std n-move-rule x distances dtr"),
            Some(Err(_))
        ));
    }
}
