//! Positions with moves: `'FEN moves d6 f4 xd6'` or `'start moves d6 f4 xd6'`, one text for
//! a position reached by a line of moves from a position string.

use super::fen::{PositionError, PositionInfo, parse_position_info};
use super::moves::{MoveError, parse_legal_move, parse_move};
use crate::game::movegen::{Convention, play};
use crate::game::position::{Move, Position};
use crate::game::rules::Variant;
use std::fmt;

/// The word that separates the position from its moves in a line.
pub const MOVES: &str = "moves";

/// A position string followed by moves, read and played: every position along the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// What the position string says beyond the position (its counter and move number).
    pub info: PositionInfo,
    /// The moves, as matched against the legal moves (lone removals for split ones).
    pub moves: Vec<Move>,
    /// The start position, then the position after each move (one more than `moves`).
    pub positions: Vec<Position>,
    /// The N-move counter at each of `positions`: the position string's at the start, then
    /// reset by a placement, a removal or a capture (fewer stones), one more otherwise.
    pub counters: Vec<u32>,
}

impl Line {
    /// The position the line starts from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position at the end of the line.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a line has its start position")
    }

    /// The N-move counter at the end of the line.
    pub fn counter(&self) -> u32 {
        *self.counters.last().expect("a line has its start counter")
    }
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The position string before `moves` is not valid.
    Position(PositionError),
    /// A move of the line could not be read or is not legal where it stands.
    Move {
        /// 0-based index of the move in the line.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it could not be played.
        error: MoveError,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Position(e) => e.fmt(f),
            LineError::Move { index, text, error } => {
                write!(f, "move {} '{text}' of the line: {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for LineError {}

impl From<PositionError> for LineError {
    fn from(e: PositionError) -> Self {
        LineError::Position(e)
    }
}

/// Read a position with moves: a position string (or `start`), optionally followed by the
/// word `moves` and moves separated by spaces. Each move is accepted in either convention:
/// it is matched against the legal moves of the split convention first (`d6`, then `xg7`),
/// then of the combined one (`d6xg7`).
///
/// # Errors
///
/// [`LineError::Position`] for an invalid position string (see
/// [`super::parse_position`]); [`LineError::Move`] with the index of the first move that
/// cannot be read or is not legal in the position it is played from, and the reason.
pub fn parse_line(variant: &Variant, text: &str) -> Result<Line, LineError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let split = words.iter().position(|&w| w == MOVES);
    let (fen, tokens) = match split {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let (start, info) = parse_position_info(variant, &fen.join(" "))?;
    let mut line = Line {
        info,
        moves: Vec::with_capacity(tokens.len()),
        positions: vec![start],
        counters: vec![info.counter],
    };
    for (index, &token) in tokens.iter().enumerate() {
        let pos = *line.position();
        let mv = legal_in_either(variant, &pos, token).map_err(|error| LineError::Move {
            index,
            text: token.to_string(),
            error,
        })?;
        let next = play(variant, &pos, mv);
        let counter = next_counter(&pos, &next, mv, line.counter());
        line.moves.push(mv);
        line.positions.push(next);
        line.counters.push(counter);
    }
    Ok(line)
}

/// The legal move `token` names in `pos`: split convention first, then combined. The error
/// is the one of the convention the move is written in (combined when it carries removals).
fn legal_in_either(variant: &Variant, pos: &Position, token: &str) -> Result<Move, MoveError> {
    let written = parse_move(variant, token)?;
    let split = parse_legal_move(variant, pos, token, Convention::Split);
    if split.is_ok() {
        return split;
    }
    let combined = parse_legal_move(variant, pos, token, Convention::Combined);
    if combined.is_ok() || (written.removes() && !written.is_lone_removal()) {
        combined
    } else {
        split
    }
}

/// The counter after `mv` led from `pos` to `next`: 0 after a placement, a removal or a
/// capture (a side has fewer stones), one more otherwise.
fn next_counter(pos: &Position, next: &Position, mv: Move, counter: u32) -> u32 {
    if mv.is_place() || mv.removes() || pos.resets_counter(next) {
        0
    } else {
        counter.saturating_add(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::movegen::legal_moves;
    use crate::game::notation::{format_move, format_position_info, parse_position};
    use crate::game::position::Color;

    fn std() -> Variant {
        Variant::standard()
    }

    #[test]
    fn start_with_placements() {
        let line = parse_line(&std(), "start moves d6 f4").unwrap();
        assert_eq!(line.moves.len(), 2);
        assert_eq!(line.positions.len(), 3);
        assert_eq!(*line.start(), Position::start(&std()));
        let p = line.position();
        assert_eq!(p.in_hand, [8, 8]);
        assert_eq!(p.to_move, Color::White);
        assert_eq!(line.counters, [0, 0, 0]);
        // No moves: the position itself.
        let plain = parse_line(&std(), "start").unwrap();
        assert_eq!(plain.positions, [Position::start(&std())]);
        assert_eq!(parse_line(&std(), "start moves").unwrap(), plain);
    }

    #[test]
    fn both_conventions_reach_the_same_position() {
        let v = std();
        let split = parse_line(&v, "start moves a7 a1 d7 b2 g7 xa1").unwrap();
        let combined = parse_line(&v, "start moves a7 a1 d7 b2 g7xa1").unwrap();
        assert_eq!(split.moves.len(), 6);
        assert_eq!(combined.moves.len(), 5);
        assert_eq!(split.position(), combined.position());
        assert_eq!(split.position().on_board(Color::Black), 1);
        assert_eq!(split.position().to_move, Color::Black);
        assert_eq!(format_move(&v, combined.moves[4]), "g7xa1");
    }

    #[test]
    fn slides_count_and_the_string_counter_starts() {
        let v = std();
        // Both hands empty, no mill anywhere: white a7 d6 f4, black g1 b4 d2; counter 5.
        let b = v.board();
        let bits = |names: &[&str]| names.iter().fold(0, |m, n| m | 1 << b.point(n).unwrap());
        let pos = Position::new(
            [bits(&["a7", "d6", "f4"]), bits(&["g1", "b4", "d2"])],
            [0, 0],
            Color::White,
        );
        let info = PositionInfo {
            counter: 5,
            full_move: 30,
        };
        let fen = format_position_info(&v, &pos, info);
        let slide = legal_moves(&v, &pos, Convention::Split)
            .into_iter()
            .find(|m| !m.is_place())
            .unwrap();
        let text = format!("{fen} moves {}", format_move(&v, slide));
        let line = parse_line(&v, &text).unwrap();
        assert_eq!(line.counters, [5, 6]);
        assert_eq!(line.info, info);
        assert_eq!(*line.start(), parse_position(&v, &fen).unwrap());
    }

    #[test]
    fn a_bad_move_is_named_with_its_index() {
        let v = std();
        let e = parse_line(&v, "start moves d6 d6").unwrap_err();
        match &e {
            LineError::Move { index, text, error } => {
                assert_eq!((*index, text.as_str()), (1, "d6"));
                assert!(matches!(error, MoveError::Illegal { .. }), "{error:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(
            e.to_string()
                .starts_with("move 2 'd6' of the line: illegal move d6"),
            "{e}"
        );
        let e = parse_line(&v, "start moves d6 zz9").unwrap_err();
        assert!(matches!(
            e,
            LineError::Move {
                index: 1,
                error: MoveError::UnknownSquare { .. },
                ..
            }
        ));
        // A removal written with a move that closes no mill: the combined reason.
        let e = parse_line(&v, "start moves d6xg7").unwrap_err();
        assert!(matches!(e, LineError::Move { index: 0, .. }), "{e}");
        let e = parse_line(&v, "nonsense moves d6").unwrap_err();
        assert!(matches!(e, LineError::Position(_)), "{e}");
    }

    #[test]
    fn a_capture_resets_the_counter() {
        let v = Variant::by_name("mul-mulan").unwrap();
        let b = v.board();
        let bits = |names: &[&str]| names.iter().fold(0, |m, n| m | 1 << b.point(n).unwrap());
        // White slides d5-d6 between black b6 and f6: both are captured.
        let pos = Position::new(
            [
                bits(&["d5", "a1", "g1"]),
                bits(&["b6", "f6", "a4", "g4", "c3"]),
            ],
            [0, 0],
            Color::White,
        );
        let info = PositionInfo {
            counter: 7,
            full_move: 40,
        };
        let fen = format_position_info(&v, &pos, info);
        let line = parse_line(&v, &format!("{fen} moves d5-d6")).unwrap();
        assert_eq!(line.position().on_board(Color::Black), 3);
        assert_eq!(line.counters, [7, 0]);
    }
}
