//! Square and move notation: reading, writing and legality-checking moves.

use crate::game::movegen::{self, Convention, Outcome};
use crate::game::position::{Move, Position};
use crate::game::rules::{Board, NO_SQUARE, Variant};
use std::fmt;

/// Why a move could not be read or played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text was empty.
    Empty,
    /// A square name that the variant's board does not have.
    UnknownSquare {
        /// The offending square name as written.
        square: String,
        /// Short name of the board.
        board: &'static str,
        /// The board's square names, sorted.
        squares: String,
    },
    /// The text does not have the shape of a move.
    Malformed {
        /// The whole text.
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A well-formed move that is not legal in the position.
    Illegal {
        /// The move as written.
        text: String,
        /// Why it is not legal.
        reason: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "empty move: expected d6, a1-a4, d6xg7, a1-a4xg7 or xg7"),
            MoveError::UnknownSquare {
                square,
                board,
                squares,
            } => write!(
                f,
                "unknown square '{square}': the {board} board has the squares {squares}"
            ),
            MoveError::Malformed { text, reason } => write!(
                f,
                "malformed move '{text}': {reason}; expected d6, a1-a4, d6xg7, a1-a4xg7 or xg7"
            ),
            MoveError::Illegal { text, reason } => write!(f, "illegal move {text}: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

fn square(board: &Board, name: &str) -> Result<u8, MoveError> {
    board.point(name).ok_or_else(|| {
        let mut names: Vec<&str> = board.names().to_vec();
        names.sort_unstable();
        MoveError::UnknownSquare {
            square: name.to_string(),
            board: board.name,
            squares: names.join(" "),
        }
    })
}

/// Read a move (`d6`, `a1-a4`, `d6xg7`, `a1-a4xg7`, up to three removals as in `a1-a4xg7xd5`, or
/// `xg7`) on the variant's board. Upper
/// case letters are accepted. Legality is not checked: see [`parse_legal_move`].
///
/// # Errors
///
/// [`MoveError::Empty`] for an empty text, [`MoveError::UnknownSquare`] for a square the variant's
/// board does not have (the error lists the board's squares), [`MoveError::Malformed`] for text
/// that is not shaped like a move.
pub fn parse_move(variant: &Variant, text: &str) -> Result<Move, MoveError> {
    let board = variant.board();
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(MoveError::Empty);
    }
    let lower = trimmed.to_ascii_lowercase();
    let malformed = |reason| MoveError::Malformed {
        text: trimmed.to_string(),
        reason,
    };
    if lower.chars().any(char::is_whitespace) {
        return Err(malformed("it contains spaces"));
    }
    let mut parts = lower.split('x');
    let body = parts.next().unwrap_or_default();
    let mut removals = Vec::new();
    for r in parts {
        match r {
            "" => return Err(malformed("no square after 'x'")),
            r if r.contains('-') => return Err(malformed("'-' after the removal")),
            r => removals.push(square(board, r)?),
        }
    }
    if removals.len() > 3 {
        return Err(malformed("more than three removals"));
    }
    if body.is_empty() {
        return match removals[..] {
            [r] => Ok(Move::removal(r)),
            _ => Err(malformed("more than one 'x' in a lone removal")),
        };
    }
    let mv = match body.split_once('-') {
        None => Move::place(square(board, body)?),
        Some(("", _)) => return Err(malformed("no square before '-'")),
        Some((_, "")) => return Err(malformed("no square after '-'")),
        Some((_, to)) if to.contains('-') => return Err(malformed("more than one '-'")),
        Some((from, to)) => {
            let (from, to) = (square(board, from)?, square(board, to)?);
            if from == to {
                return Err(malformed("a stone cannot move to the square it stands on"));
            }
            Move::slide(from, to)
        }
    };
    Ok(removals.into_iter().fold(mv, Move::with_removal))
}

/// Write a move in Sanmill notation (`d6`, `a1-a4`, `d6xg7`, `a1-a4xg7`, `xg7`).
pub fn format_move(variant: &Variant, mv: Move) -> String {
    let board = variant.board();
    let mut s = String::new();
    if mv.from != NO_SQUARE {
        s.push_str(board.name(mv.from));
        s.push('-');
    }
    if mv.to != NO_SQUARE {
        s.push_str(board.name(mv.to));
    }
    for r in mv.removals() {
        s.push('x');
        s.push_str(board.name(r));
    }
    s
}

/// Read a move and check that it is legal in `pos` under `conv`; the error of an illegal move
/// says why it is illegal. In the combined convention a move that closes a mill carries its
/// removal (`d6xg7`); in the split convention it does not, and the removal follows as its own
/// move (`xg7`) from the remove-pending position.
///
/// # Errors
///
/// The errors of [`parse_move`], and [`MoveError::Illegal`] with the reason for a well-formed move
/// that is not legal in `pos` under `conv`.
pub fn parse_legal_move(
    variant: &Variant,
    pos: &Position,
    text: &str,
    conv: Convention,
) -> Result<Move, MoveError> {
    let mv = parse_move(variant, text)?;
    // Several removals of one move may be written in any order that is legal.
    let sorted = |m: &Move| {
        let mut r: Vec<u8> = m.removals().collect();
        r.sort_unstable();
        r
    };
    let legal = movegen::legal_moves(variant, pos, conv);
    if let Some(&found) = legal.iter().find(|&&m| {
        m == mv || (m.without_removals() == mv.without_removals() && sorted(&m) == sorted(&mv))
    }) {
        return Ok(found);
    }
    Err(MoveError::Illegal {
        text: format_move(variant, mv),
        reason: illegal_reason(variant, pos, mv, conv),
    })
}

/// Why the removal of `r` by the side to move is not allowed, if it is not.
fn removal_problem(variant: &Variant, pos: &Position, r: u8) -> Option<String> {
    let board = variant.board();
    let me = pos.to_move;
    let opp = me.other();
    let them = pos.them();
    if pos.removals[me.index()] < 0 {
        if pos.us() & (1 << r) == 0 {
            return Some(format!(
                "{} has no {me} stone to remove (own stone)",
                board.name(r)
            ));
        }
        return None;
    }
    if pos.adjacent_removal && movegen::removable(variant, pos) & (1 << r) == 0 {
        return Some(format!(
            "{} is not a {opp} stone next to a {me} stone (a blocked side removes one)",
            board.name(r)
        ));
    }
    if them & (1 << r) == 0 {
        return Some(format!("{} has no {opp} stone to remove", board.name(r)));
    }
    if board.removable(them, variant.remove_from_mills) & (1 << r) == 0 {
        return Some(format!(
            "{} stands in a {opp} mill and {opp} has stones outside mills",
            board.name(r)
        ));
    }
    None
}

/// A human-readable reason why `mv` is not legal in `pos`.
fn illegal_reason(variant: &Variant, pos: &Position, mv: Move, conv: Convention) -> String {
    let board = variant.board();
    let me = pos.to_move;
    let opp = me.other();
    match movegen::outcome(variant, pos) {
        Some(Outcome::Loss) => return format!("the game is over: {me} has lost"),
        Some(Outcome::Win) => return format!("the game is over: {opp} has lost"),
        Some(Outcome::Draw) => return "the game is over: drawn".to_string(),
        None => {}
    }
    if pos.pending_removal() {
        if !mv.is_lone_removal() {
            return format!(
                "{me} has closed a mill and must first remove a {opp} stone (x<square>)"
            );
        }
        return removal_problem(variant, pos, mv.remove)
            .unwrap_or_else(|| "not legal in this position".to_string());
    }
    if mv.is_lone_removal() {
        return match conv {
            Convention::Split => "no removal is pending: a lone removal follows a move that \
                                  closes a mill"
                .to_string(),
            Convention::Combined => "a lone removal is a move of its own only in the split \
                                     convention; write the removal with the move that closes \
                                     the mill, e.g. d6xg7"
                .to_string(),
        };
    }
    let hand = pos.in_hand[me.index()];
    let us = pos.us();
    let occupied = pos.stones[0] | pos.stones[1];
    let to = board.name(mv.to);
    let after = if mv.is_place() {
        if hand == 0 {
            return format!("{me} has no stones in hand to place");
        }
        us | 1 << mv.to
    } else {
        let from = board.name(mv.from);
        if !variant.may_move(hand) {
            return format!("{me} still has stones in hand and must place one");
        }
        if us & (1 << mv.from) == 0 {
            return format!("{from} has no {me} stone");
        }
        if occupied & (1 << mv.to) == 0
            && !variant.flies(us.count_ones() as u8, hand)
            && board.adjacent(mv.from) & (1 << mv.to) == 0
        {
            return format!("{from} and {to} are not adjacent");
        }
        (us & !(1 << mv.from)) | 1 << mv.to
    };
    if occupied & (1 << mv.to) != 0 {
        return format!("{to} is occupied");
    }
    if pos.marks & (1 << mv.to) != 0 {
        return format!("{to} is marked: no stone may be placed there until placing ends");
    }
    let closes = board.in_mill(after, mv.to);
    let plain = format_move(variant, mv.without_removals());
    if mv.removes() {
        if !closes {
            return format!("{plain} closes no mill, so it removes no stone");
        }
        if conv == Convention::Split {
            return format!(
                "in the split convention the removal is a move of its own: play {plain}, then x{}",
                board.name(mv.remove)
            );
        }
        if let Some(problem) = removal_problem(variant, pos, mv.remove) {
            return problem;
        }
    } else if closes && conv == Convention::Combined && pos.them() != 0 {
        let removable = board.removable(pos.them(), variant.remove_from_mills);
        let example = board.name(removable.trailing_zeros() as u8);
        return format!(
            "{plain} closes a mill and must remove a {opp} stone, e.g. {plain}x{example}"
        );
    }
    "not legal in this position".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::movegen::{legal_moves, play};
    use crate::game::notation::tests::{pt, set, std};
    use crate::game::position::Color;

    #[test]
    fn moves_parse_and_print() {
        let v = std();
        let cases = [
            ("d6", Move::place(pt("d6"))),
            ("a1-a4", Move::slide(pt("a1"), pt("a4"))),
            ("d6xg7", Move::place(pt("d6")).with_removal(pt("g7"))),
            (
                "a1-a4xg7",
                Move::slide(pt("a1"), pt("a4")).with_removal(pt("g7")),
            ),
            ("xg7", Move::removal(pt("g7"))),
        ];
        for (text, mv) in cases {
            assert_eq!(parse_move(&v, text), Ok(mv), "{text}");
            assert_eq!(format_move(&v, mv), text);
        }
        assert_eq!(parse_move(&v, " D6XG7 "), Ok(cases[2].1));
    }

    #[test]
    fn moves_on_other_boards() {
        let three = Variant::by_name("three").unwrap();
        let b = three.board();
        let mv = parse_move(&three, "b2-c2").unwrap();
        assert_eq!(
            mv,
            Move::slide(b.point("b2").unwrap(), b.point("c2").unwrap())
        );
        let err = parse_move(&three, "d6").unwrap_err().to_string();
        assert!(err.contains("unknown square 'd6'"), "{err}");
        assert!(err.contains("a1 a2 a3 b1 b2 b3 c1 c2 c3"), "{err}");
        let six = Variant::by_name("six").unwrap();
        assert!(parse_move(&six, "d5").is_err());
        assert!(parse_move(&six, "d6").is_ok());
    }

    #[test]
    fn malformed_moves() {
        let v = std();
        let cases = [
            ("", "empty move"),
            ("   ", "empty move"),
            ("h9", "unknown square 'h9'"),
            ("d6x", "no square after 'x'"),
            ("xd6xg7", "more than one 'x' in a lone removal"),
            ("a1-a4xd6xg7xb4xb6", "more than three removals"),
            ("-a4", "no square before '-'"),
            ("a1-", "no square after '-'"),
            ("a1-a4-a7", "more than one '-'"),
            ("a1-a1", "cannot move to the square it stands on"),
            ("a1 a4", "contains spaces"),
            ("d6xg7-a1", "'-' after the removal"),
            ("a1-z4", "unknown square 'z4'"),
            ("d6xq1", "unknown square 'q1'"),
            ("x", "no square after 'x'"),
            ("d", "unknown square 'd'"),
        ];
        for (text, fragment) in cases {
            let err = parse_move(&v, text).unwrap_err().to_string();
            assert!(err.contains(fragment), "{text:?}: {err}");
        }
    }

    fn illegal(pos: &Position, text: &str, conv: Convention) -> String {
        match parse_legal_move(&std(), pos, text, conv) {
            Err(e @ MoveError::Illegal { .. }) => e.to_string(),
            other => panic!("{text}: expected an illegal-move error, got {other:?}"),
        }
    }

    #[test]
    fn legality_with_reasons() {
        let v = std();
        let start = Position::start(&v);
        let c = Convention::Combined;
        assert_eq!(
            parse_legal_move(&v, &start, "d6", c),
            Ok(Move::place(pt("d6")))
        );
        let e = illegal(&start, "a1-a4", c);
        assert!(e.starts_with("illegal move a1-a4: "), "{e}");
        assert!(
            e.contains("white still has stones in hand and must place"),
            "{e}"
        );
        assert!(illegal(&start, "d6xg7", c).contains("closes no mill"));
        assert!(illegal(&start, "xg7", Convention::Split).contains("no removal is pending"));
        assert!(illegal(&start, "xg7", c).contains("only in the split convention"));

        // Moving phase: white a1, a4 (b6, d2 elsewhere), black d7, g7, g4.
        let moving = Position::new(
            [
                set(&["a1", "a4", "b6", "d2"]),
                set(&["d7", "g7", "g4", "e4"]),
            ],
            [0, 0],
            Color::White,
        );
        assert!(illegal(&moving, "d6", c).contains("white has no stones in hand"));
        assert!(illegal(&moving, "d1-d2", c).contains("d1 has no white stone"));
        assert!(illegal(&moving, "a1-a4", c).contains("a4 is occupied"));
        assert!(illegal(&moving, "a1-g1", c).contains("a1 and g1 are not adjacent"));
        // a4-a7 closes a7-a4-a1? no: a4 leaves. b6-b4 closes nothing either.
        assert!(illegal(&moving, "a1-d1xg7", c).contains("closes no mill"));

        // White a1, a4 and d1: d1-... let white close a1-a4-a7 by b6-a7? not adjacent.
        let mill = Position::new(
            [
                set(&["a1", "a4", "d7", "b4"]),
                set(&["g7", "g4", "g1", "e4"]),
            ],
            [0, 0],
            Color::White,
        );
        // d7-a7 closes a1-a4-a7; black's g7, g4, g1 form a mill, e4 is free.
        let e = illegal(&mill, "d7-a7", c);
        assert!(
            e.contains("closes a mill and must remove a black stone, e.g. d7-a7xe4"),
            "{e}"
        );
        let e = illegal(&mill, "d7-a7xg4", c);
        assert!(e.contains("g4 stands in a black mill"), "{e}");
        assert!(illegal(&mill, "d7-a7xd1", c).contains("d1 has no black stone"));
        assert!(parse_legal_move(&v, &mill, "d7-a7xe4", c).is_ok());
        let split = Convention::Split;
        let e = illegal(&mill, "d7-a7xe4", split);
        assert!(e.contains("play d7-a7, then xe4"), "{e}");
        let mv = parse_legal_move(&v, &mill, "d7-a7", split).unwrap();
        let pending = play(&v, &mill, mv);
        assert!(pending.pending_removal());
        assert!(illegal(&pending, "b4-c4", split).contains("must first remove"));
        assert!(illegal(&pending, "xg7", split).contains("g7 stands in a black mill"));
        assert_eq!(
            parse_legal_move(&v, &pending, "xe4", split),
            Ok(Move::removal(pt("e4")))
        );

        // Flying: black with three stones may fly.
        let fly = Position {
            to_move: Color::Black,
            ..moving
        };
        let fly = Position {
            stones: [fly.stones[0], set(&["d7", "g7", "e4"])],
            ..fly
        };
        assert!(parse_legal_move(&v, &fly, "e4-c3", c).is_ok());

        // Game over.
        let over = Position::new(
            [set(&["a1", "a4"]), set(&["d7", "g7", "g4"])],
            [0, 0],
            Color::White,
        );
        assert!(illegal(&over, "a1-d1", c).contains("the game is over: white has lost"));
    }

    #[test]
    fn every_illegal_move_gets_a_reason() {
        // Reasons are never empty and legal moves are never rejected.
        let v = std();
        let mut pos = Position::start(&v);
        for step in 0..30 {
            for conv in [Convention::Combined, Convention::Split] {
                let legal = legal_moves(&v, &pos, conv);
                for mv in &legal {
                    let text = format_move(&v, *mv);
                    assert_eq!(parse_legal_move(&v, &pos, &text, conv), Ok(*mv));
                }
            }
            let legal = legal_moves(&v, &pos, Convention::Combined);
            if legal.is_empty() {
                break;
            }
            pos = play(&v, &pos, legal[(step * 7) % legal.len()]);
        }
    }
}
