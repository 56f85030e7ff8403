//! Text forms of moves and positions.
//!
//! Moves are written as in the Sanmill app: a placement `d6`, a slide or fly `a1-a4`, either
//! with the removal it makes `d6xg7`, `a1-a4xg7`, and (split convention) a lone removal `xg7`.
//!
//! Positions use Sanmill's position string ("FEN"), described in `RULES.md`:
//!
//! ```text
//! ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1
//! ```
//!
//! board groups, side to move, phase, action, six counts (white on board, white in hand, black
//! on board, black in hand, white to remove, black to remove), four last-mill squares, the
//! formed-mills bitmask, plies since the last removal or placement, the full-move number and
//! optional suffixes. The keyword `start` stands for the variant's initial position.

use crate::movegen::{self, Convention, Outcome};
use crate::position::{Color, Move, Position};
use crate::rules::{Board, NO_SQUARE, Variant};
use std::fmt;

/// The keyword that [`parse_position`] reads as the variant's initial position.
pub const START: &str = "start";

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

/// Read a move (`d6`, `a1-a4`, `d6xg7`, `a1-a4xg7` or `xg7`) on the variant's board. Upper
/// case letters are accepted. Legality is not checked: see [`parse_legal_move`].
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
    let (body, removal) = match lower.split_once('x') {
        Some((body, removal)) => (body, Some(removal)),
        None => (lower.as_str(), None),
    };
    let remove = match removal {
        None => NO_SQUARE,
        Some("") => return Err(malformed("no square after 'x'")),
        Some(r) if r.contains('x') => return Err(malformed("more than one 'x'")),
        Some(r) if r.contains('-') => return Err(malformed("'-' after the removal")),
        Some(r) => square(board, r)?,
    };
    if body.is_empty() {
        return Ok(Move::removal(remove));
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
    Ok(mv.with_removal(remove))
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
    if mv.removes() {
        s.push('x');
        s.push_str(board.name(mv.remove));
    }
    s
}

/// Read a move and check that it is legal in `pos` under `conv`; the error of an illegal move
/// says why it is illegal. In the combined convention a move that closes a mill carries its
/// removal (`d6xg7`); in the split convention it does not, and the removal follows as its own
/// move (`xg7`) from the remove-pending position.
pub fn parse_legal_move(
    variant: &Variant,
    pos: &Position,
    text: &str,
    conv: Convention,
) -> Result<Move, MoveError> {
    let mv = parse_move(variant, text)?;
    if movegen::is_legal(variant, pos, mv, conv) {
        return Ok(mv);
    }
    Err(MoveError::Illegal {
        text: format_move(variant, mv),
        reason: illegal_reason(variant, pos, mv, conv),
    })
}

/// Why the removal of `r` by the side to move is not allowed, if it is not.
fn removal_problem(variant: &Variant, pos: &Position, r: u8) -> Option<String> {
    let board = variant.board();
    let opp = pos.to_move.other();
    let them = pos.them();
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
    if pos.pending_removal {
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
    let closes = board.in_mill(after, mv.to);
    let plain = format_move(
        variant,
        Move {
            remove: NO_SQUARE,
            ..mv
        },
    );
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

/// Why a position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text was empty.
    Empty,
    /// Fewer than the 17 required space-separated fields.
    FieldCount {
        /// Number of fields found.
        found: usize,
    },
    /// The board field has the wrong number of `/`-separated groups.
    BoardGroups {
        /// Groups found.
        found: usize,
        /// Groups of the variant's board.
        expected: usize,
    },
    /// A board group has the wrong length.
    GroupLength {
        /// 1-based group number.
        group: usize,
        /// Characters found.
        found: usize,
        /// Points in that group.
        expected: usize,
    },
    /// A character other than `O`, `@`, `*` or `X` in the board field.
    BoardChar {
        /// The character.
        ch: char,
        /// 1-based group number.
        group: usize,
    },
    /// A blocked point (`X`); no supported variant has them.
    BlockedPoint {
        /// The square.
        square: &'static str,
    },
    /// A field with a value outside its allowed set (side, phase, action, suffix).
    BadValue {
        /// The field's name.
        field: &'static str,
        /// The value found.
        found: String,
        /// What the field may be.
        expected: &'static str,
    },
    /// A numeric field that is not a number in range.
    BadNumber {
        /// The field's name.
        field: &'static str,
        /// The value found.
        found: String,
        /// What the field may be.
        expected: String,
    },
    /// A stated on-board count that disagrees with the board field.
    OnBoardMismatch {
        /// Whose count.
        color: Color,
        /// The count in the string.
        stated: u32,
        /// Stones of that colour on the board field.
        counted: u32,
    },
    /// More stones (on board plus in hand) than the variant gives a side.
    TooManyStones {
        /// Whose stones.
        color: Color,
        /// Stones on board.
        on_board: u32,
        /// Stones in hand.
        in_hand: u32,
        /// Stones per side in the variant.
        max: u8,
        /// The variant's name.
        variant: &'static str,
    },
    /// Removal counts and action disagree or are unsupported.
    Removal {
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => write!(f, "empty position string"),
            PositionError::FieldCount { found } => write!(
                f,
                "position string has {found} field(s), expected at least 17: board, side, \
                 phase, action, 6 counts, 4 last-mill squares, mills bitmask, plies since \
                 removal or placement, full-move number (or the keyword 'start')"
            ),
            PositionError::BoardGroups { found, expected } => write!(
                f,
                "board field: {found} '/'-separated group(s), expected {expected}"
            ),
            PositionError::GroupLength {
                group,
                found,
                expected,
            } => write!(
                f,
                "board field: group {group} has {found} character(s), expected {expected}"
            ),
            PositionError::BoardChar { ch, group } => write!(
                f,
                "board field: unknown character '{ch}' in group {group} (expected O white, \
                 @ black, * empty)"
            ),
            PositionError::BlockedPoint { square } => write!(
                f,
                "board field: blocked point (X) on {square}: no supported variant has \
                 blocked points"
            ),
            PositionError::BadValue {
                field,
                found,
                expected,
            } => write!(f, "{field}: '{found}', expected {expected}"),
            PositionError::BadNumber {
                field,
                found,
                expected,
            } => write!(f, "{field}: '{found}', expected {expected}"),
            PositionError::OnBoardMismatch {
                color,
                stated,
                counted,
            } => write!(
                f,
                "{color} on board: the string says {stated} but the board field has {counted} \
                 {color} stone(s)"
            ),
            PositionError::TooManyStones {
                color,
                on_board,
                in_hand,
                max,
                variant,
            } => write!(
                f,
                "{color} has {on_board} on board and {in_hand} in hand, more than the {max} \
                 stones of variant {variant}"
            ),
            PositionError::Removal { message } => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Names of the numeric fields after the action, in order.
const NUMBER_FIELDS: [&str; 13] = [
    "white on board",
    "white in hand",
    "black on board",
    "black in hand",
    "white to remove",
    "black to remove",
    "white last-mill from square",
    "white last-mill to square",
    "black last-mill from square",
    "black last-mill to square",
    "formed-mills bitmask",
    "plies since last removal or placement",
    "full-move number",
];

/// Fields before the suffixes: board, side, phase, action and the numbers.
const REQUIRED_FIELDS: usize = 4 + NUMBER_FIELDS.len();

/// Parse an unsigned decimal number (digits only) of at most `max`.
fn number(field: &'static str, text: &str, max: u64) -> Result<u64, PositionError> {
    let bad = || PositionError::BadNumber {
        field,
        found: text.to_string(),
        expected: format!("a whole number from 0 to {max}"),
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match text.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(bad()),
    }
}

/// Parse a signed decimal number (optional leading `-`, then digits).
fn signed(field: &'static str, text: &str, expected: &str) -> Result<i64, PositionError> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let value = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        text.parse::<i64>().ok()
    } else {
        None
    };
    value.ok_or_else(|| PositionError::BadNumber {
        field,
        found: text.to_string(),
        expected: expected.to_string(),
    })
}

/// Read a Sanmill position string (or the keyword `start`) for the variant.
///
/// Liberal where Sanmill's own strings vary: the phase and the actions `p`/`s` are accepted
/// in any combination (the phase follows from the stones in hand); only action `r` matters,
/// making the side to move remove a stone next. Strict about what cannot be a position:
/// field counts, board characters and group lengths, counts that disagree with the board or
/// exceed the variant's stones, numbers and square ids out of range, unknown suffixes.
pub fn parse_position(variant: &Variant, text: &str) -> Result<Position, PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(PositionError::Empty);
    }
    if fields.len() == 1 && fields[0] == START {
        return Ok(Position::start(variant));
    }
    if fields.len() < REQUIRED_FIELDS {
        return Err(PositionError::FieldCount {
            found: fields.len(),
        });
    }
    let board = variant.board();
    let stones = parse_board(board, fields[0])?;

    let to_move = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(PositionError::BadValue {
                field: "side to move",
                found: other.to_string(),
                expected: "w (white) or b (black)",
            });
        }
    };
    if !matches!(fields[2], "r" | "p" | "m" | "o") {
        return Err(PositionError::BadValue {
            field: "phase",
            found: fields[2].to_string(),
            expected: "r (ready), p (placing), m (moving) or o (game over)",
        });
    }
    let pending_removal = match fields[3] {
        "p" | "s" => false,
        "r" => true,
        other => {
            return Err(PositionError::BadValue {
                field: "action",
                found: other.to_string(),
                expected: "p (place), s (select/move) or r (remove)",
            });
        }
    };

    // Suffixes first: `ids:nodes` decides how the square ids read.
    let mut node_ids = false;
    for &suffix in &fields[REQUIRED_FIELDS..] {
        if suffix == "ids:nodes" {
            node_ids = true;
        } else if !["c:", "i:", "l:", "p:"]
            .iter()
            .any(|prefix| suffix.starts_with(prefix))
        {
            return Err(PositionError::BadValue {
                field: "suffix",
                found: suffix.to_string(),
                expected: "a token starting with c:, i:, l: or p:, or the marker ids:nodes",
            });
        }
    }

    let num = &fields[4..REQUIRED_FIELDS];
    let max = u64::from(variant.stones);
    let mut counts = [0u32; 4];
    for (i, count) in counts.iter_mut().enumerate() {
        *count = number(NUMBER_FIELDS[i], num[i], max)? as u32;
    }
    let mut remove = [0i64; 2];
    for (i, r) in remove.iter_mut().enumerate() {
        *r = signed(NUMBER_FIELDS[4 + i], num[4 + i], "0 or 1")?;
    }
    let n = board.len() as i64;
    let (none, first, range) = if node_ids {
        (-1, 0, format!("-1 (none) or a node id from 0 to {}", n - 1))
    } else {
        (
            0,
            8,
            format!(
                "0 (none) or a legacy id from 8 to {} (node ids need the marker ids:nodes)",
                n + 7
            ),
        )
    };
    for i in 6..10 {
        let id = signed(NUMBER_FIELDS[i], num[i], &range)?;
        if id != none && !(first..first + n).contains(&id) {
            return Err(PositionError::BadNumber {
                field: NUMBER_FIELDS[i],
                found: num[i].to_string(),
                expected: range,
            });
        }
    }
    number(NUMBER_FIELDS[10], num[10], u64::MAX)?;
    number(NUMBER_FIELDS[11], num[11], u64::from(u32::MAX))?;
    let full_move = number(NUMBER_FIELDS[12], num[12], u64::from(u32::MAX))?;
    if full_move == 0 {
        return Err(PositionError::BadNumber {
            field: NUMBER_FIELDS[12],
            found: num[12].to_string(),
            expected: "a whole number of at least 1".to_string(),
        });
    }

    let in_hand = [counts[1] as u8, counts[3] as u8];
    for color in [Color::White, Color::Black] {
        let i = color.index();
        let counted = stones[i].count_ones();
        let stated = counts[2 * i];
        if stated != counted {
            return Err(PositionError::OnBoardMismatch {
                color,
                stated,
                counted,
            });
        }
        if counted + u32::from(in_hand[i]) > u32::from(variant.stones) {
            return Err(PositionError::TooManyStones {
                color,
                on_board: counted,
                in_hand: u32::from(in_hand[i]),
                max: variant.stones,
                variant: variant.name,
            });
        }
    }

    let pos = Position {
        stones,
        in_hand,
        to_move,
        pending_removal,
    };
    check_removal(&pos, remove)?;
    Ok(pos)
}

/// Check the removal counts against the action and the stones.
fn check_removal(pos: &Position, remove: [i64; 2]) -> Result<(), PositionError> {
    let err = |message: String| Err(PositionError::Removal { message });
    let me = pos.to_move;
    for color in [Color::White, Color::Black] {
        let r = remove[color.index()];
        if r < 0 {
            return err(format!(
                "{color} to remove: {r}, expected 0 or 1 (negative counts are not supported)"
            ));
        }
        if r > 1 {
            return err(format!(
                "{color} to remove: {r}, but removing {r} stones at once is not supported: \
                 these rules remove one stone per move, however many mills it closes"
            ));
        }
        if r == 1 && color != me {
            return err(format!(
                "{color} to remove: 1, but it is {me} to move; only the side to move can have \
                 a removal pending"
            ));
        }
    }
    let mine = remove[me.index()];
    if pos.pending_removal && mine != 1 {
        return err(format!(
            "action r (remove) needs {me} to remove to be 1, found {mine}"
        ));
    }
    if !pos.pending_removal && mine != 0 {
        return err(format!(
            "{me} to remove: {mine}, but the action is not r (remove)"
        ));
    }
    if pos.pending_removal && pos.them() == 0 {
        return err(format!(
            "action r (remove): {} has no stone on the board to remove",
            me.other()
        ));
    }
    Ok(())
}

/// Read the board field into white and black stone sets.
fn parse_board(board: &Board, field: &str) -> Result<[u32; 2], PositionError> {
    let groups: Vec<&str> = field.split('/').collect();
    let sizes = board.group_sizes();
    if groups.len() != sizes.len() {
        return Err(PositionError::BoardGroups {
            found: groups.len(),
            expected: sizes.len(),
        });
    }
    let mut stones = [0u32; 2];
    let mut point = 0u8;
    for (g, (group, &size)) in groups.iter().zip(sizes).enumerate() {
        let found = group.chars().count();
        if found != size {
            return Err(PositionError::GroupLength {
                group: g + 1,
                found,
                expected: size,
            });
        }
        for ch in group.chars() {
            match ch {
                'O' => stones[0] |= 1 << point,
                '@' => stones[1] |= 1 << point,
                '*' => {}
                'X' => {
                    return Err(PositionError::BlockedPoint {
                        square: board.name(point),
                    });
                }
                _ => return Err(PositionError::BoardChar { ch, group: g + 1 }),
            }
            point += 1;
        }
    }
    Ok(stones)
}

/// Write a position as a Sanmill position string, with legacy square ids (all "none").
///
/// The phase is `p` while either side has stones in hand, else `m`; the action is `r` when a
/// removal is pending, else `p` if the side to move has stones in hand, else `s`. Last-mill
/// squares, mills bitmask and ply counter are written as zero and the full-move number as 1,
/// since a [`Position`] does not keep them.
pub fn format_position(variant: &Variant, pos: &Position) -> String {
    let board = variant.board();
    let mut s = String::new();
    let mut point = 0u8;
    for (g, &size) in board.group_sizes().iter().enumerate() {
        if g > 0 {
            s.push('/');
        }
        for _ in 0..size {
            let bit = 1 << point;
            s.push(if pos.stones[0] & bit != 0 {
                'O'
            } else if pos.stones[1] & bit != 0 {
                '@'
            } else {
                '*'
            });
            point += 1;
        }
    }
    let side = match pos.to_move {
        Color::White => 'w',
        Color::Black => 'b',
    };
    let phase = if pos.in_hand.iter().any(|&h| h > 0) {
        'p'
    } else {
        'm'
    };
    let action = if pos.pending_removal {
        'r'
    } else if pos.in_hand[pos.to_move.index()] > 0 {
        'p'
    } else {
        's'
    };
    let remove = |c: Color| u8::from(pos.pending_removal && pos.to_move == c);
    s.push_str(&format!(
        " {side} {phase} {action} {} {} {} {} {} {} 0 0 0 0 0 0 1",
        pos.on_board(Color::White),
        pos.in_hand[0],
        pos.on_board(Color::Black),
        pos.in_hand[1],
        remove(Color::White),
        remove(Color::Black),
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{legal_moves, play};

    fn std() -> Variant {
        Variant::standard()
    }

    fn pt(name: &str) -> u8 {
        std().board().point(name).unwrap()
    }

    fn set(names: &[&str]) -> u32 {
        names.iter().fold(0, |m, n| m | 1 << pt(n))
    }

    const EMPTY: &str = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";
    const MOVING: &str = "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

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
            ("d6xg7xa1", "more than one 'x'"),
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
        let moving = Position {
            stones: [
                set(&["a1", "a4", "b6", "d2"]),
                set(&["d7", "g7", "g4", "e4"]),
            ],
            in_hand: [0, 0],
            to_move: Color::White,
            pending_removal: false,
        };
        assert!(illegal(&moving, "d6", c).contains("white has no stones in hand"));
        assert!(illegal(&moving, "d1-d2", c).contains("d1 has no white stone"));
        assert!(illegal(&moving, "a1-a4", c).contains("a4 is occupied"));
        assert!(illegal(&moving, "a1-g1", c).contains("a1 and g1 are not adjacent"));
        // a4-a7 closes a7-a4-a1? no: a4 leaves. b6-b4 closes nothing either.
        assert!(illegal(&moving, "a1-d1xg7", c).contains("closes no mill"));

        // White a1, a4 and d1: d1-... let white close a1-a4-a7 by b6-a7? not adjacent.
        let mill = Position {
            stones: [
                set(&["a1", "a4", "d7", "b4"]),
                set(&["g7", "g4", "g1", "e4"]),
            ],
            in_hand: [0, 0],
            to_move: Color::White,
            pending_removal: false,
        };
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
        assert!(pending.pending_removal);
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
        let over = Position {
            stones: [set(&["a1", "a4"]), set(&["d7", "g7", "g4"])],
            in_hand: [0, 0],
            to_move: Color::White,
            pending_removal: false,
        };
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

    #[test]
    fn rules_examples() {
        let v = std();
        let start = parse_position(&v, EMPTY).unwrap();
        assert_eq!(start, Position::start(&v));
        assert_eq!(format_position(&v, &start), EMPTY);
        assert_eq!(parse_position(&v, "start"), Ok(start));

        let pos = parse_position(&v, MOVING).unwrap();
        assert_eq!(pos.to_move, Color::Black);
        assert_eq!(pos.in_hand, [0, 0]);
        assert!(!pos.pending_removal);
        assert_eq!(pos.stones[0], set(&["e3", "b6", "d7", "g7", "a7"]));
        assert_eq!(pos.stones[1], set(&["c4", "d6", "b2", "g4", "a4"]));
        let printed = format_position(&v, &pos);
        assert_eq!(
            printed,
            "***O**@*/@****@*O/OO@***@O b m s 5 0 5 0 0 0 0 0 0 0 0 0 1"
        );
        assert_eq!(parse_position(&v, &printed), Ok(pos));
    }

    #[test]
    fn liberal_forms() {
        let v = std();
        // Extra spaces, phase r/o, action p while moving, suffix tokens, legacy squares.
        let texts = [
            "  ********/********/********   w  r p 0 9 0 9 0 0 0 0 0 0 0 0 1 ",
            "***O**@*/@****@*O/OO@***@O b o p 5 0 5 0 0 0 8 31 0 0 0 0 1",
            "***O**@*/@****@*O/OO@***@O b m s 5 0 5 0 0 0 0 0 0 0 0 0 1 c:1 i:0 l:x p:3",
            "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 23 0 -1 -1 255 12 40 ids:nodes",
        ];
        for t in texts {
            assert!(
                parse_position(&v, t).is_ok(),
                "{t}: {:?}",
                parse_position(&v, t)
            );
        }
    }

    #[test]
    fn remove_pending() {
        let v = std();
        // White has just placed a7, closing a7-d7-g7, and must remove a black stone.
        let text = "**O**O**/**@*@*@@/OO*****O w p r 5 4 4 5 1 0 0 0 0 0 0 0 1";
        let pos = parse_position(&v, text).unwrap();
        assert!(pos.pending_removal);
        assert_eq!(pos.to_move, Color::White);
        assert_eq!(format_position(&v, &pos), text);
        let moves = legal_moves(&v, &pos, Convention::Split);
        let names: Vec<String> = moves.iter().map(|&m| format_move(&v, m)).collect();
        assert_eq!(names, ["xf4", "xd2", "xb4", "xb6"]);
        let black = "**O**O**/**@*@*@@/OO*****O b p r 5 4 4 5 0 1 0 0 0 0 0 0 1";
        let pos = parse_position(&v, black).unwrap();
        assert_eq!((pos.to_move, pos.pending_removal), (Color::Black, true));
    }

    #[test]
    fn other_variants() {
        let six = Variant::by_name("six").unwrap();
        let start = Position::start(&six);
        let text = format_position(&six, &start);
        assert_eq!(text, "********/******** w p p 0 6 0 6 0 0 0 0 0 0 0 0 1");
        assert_eq!(parse_position(&six, &text), Ok(start));
        let three = Variant::by_name("three").unwrap();
        let text = "O*@/*O*/@** b p p 2 1 2 1 0 0 0 0 0 0 0 0 1";
        let pos = parse_position(&three, text).unwrap();
        assert_eq!(format_position(&three, &pos), text);
        let e = parse_position(&three, "O*@/*O*/@** b p p 2 1 2 1 0 0 17 0 0 0 0 0 1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("from 8 to 16"), "{e}");
        let twelve = Variant::by_name("twelve").unwrap();
        assert_eq!(
            format_position(&twelve, &Position::start(&twelve)),
            "********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1"
        );
    }

    #[test]
    fn malformed_positions() {
        let v = std();
        let cases: &[(&str, &str)] = &[
            ("", "empty position string"),
            ("begin", "1 field(s), expected at least 17"),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0",
                "16 field(s)",
            ),
            (
                "********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "board field: 2 '/'-separated group(s), expected 3",
            ),
            (
                "********/*******/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "group 2 has 7 character(s), expected 8",
            ),
            (
                "********/********/*********w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "16 field(s)",
            ),
            (
                "****o***/********/******** w p p 1 8 0 9 0 0 0 0 0 0 0 0 1",
                "unknown character 'o' in group 1",
            ),
            (
                "********/**X*****/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "blocked point (X) on f4",
            ),
            (
                "********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "side to move: 'x', expected w (white) or b (black)",
            ),
            (
                "********/********/******** w q p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "phase: 'q'",
            ),
            (
                "********/********/******** w p z 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "action: 'z'",
            ),
            (
                "********/********/******** w p p 0 x 0 9 0 0 0 0 0 0 0 0 1",
                "white in hand: 'x', expected a whole number from 0 to 9",
            ),
            (
                "********/********/******** w p p 0 10 0 9 0 0 0 0 0 0 0 0 1",
                "white in hand: '10', expected a whole number from 0 to 9",
            ),
            (
                "********/********/******** w p p 0 9 0 -1 0 0 0 0 0 0 0 0 1",
                "black in hand: '-1'",
            ),
            (
                "********/********/******** w p p 0 9 0 +9 0 0 0 0 0 0 0 0 1",
                "black in hand: '+9'",
            ),
            (
                "O*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "white on board: the string says 0 but the board field has 1",
            ),
            (
                "********/********/@******* b p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "black on board: the string says 0 but the board field has 1",
            ),
            (
                "O*******/********/******** b p p 1 9 0 9 0 0 0 0 0 0 0 0 1",
                "white has 1 on board and 9 in hand, more than the 9 stones of variant std",
            ),
            (
                "********/********/******** w p p 0 9 0 9 2 0 0 0 0 0 0 0 1",
                "removing 2 stones at once is not supported",
            ),
            (
                "********/********/******** w p p 0 9 0 9 -1 0 0 0 0 0 0 0 1",
                "negative counts are not supported",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 x 0 0 0 0 0 0 1",
                "black to remove: 'x', expected 0 or 1",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 1 0 0 0 0 0 0 1",
                "only the side to move can have a removal pending",
            ),
            (
                "********/********/******** w p r 0 9 0 9 0 0 0 0 0 0 0 0 1",
                "action r (remove) needs white to remove to be 1, found 0",
            ),
            (
                "********/********/******** w p p 0 9 0 9 1 0 0 0 0 0 0 0 1",
                "white to remove: 1, but the action is not r",
            ),
            (
                "O*******/********/******** w p r 1 8 0 9 1 0 0 0 0 0 0 0 1",
                "black has no stone on the board to remove",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 7 0 0 0 0 0 1",
                "white last-mill from square: '7', expected 0 (none) or a legacy id from 8 to 31",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 32 0 0 0 0 1",
                "white last-mill to square: '32'",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 0 -1 0 0 0 1",
                "black last-mill from square: '-1'",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 24 0 0 1 ids:nodes",
                "black last-mill to square: '24', expected -1 (none) or a node id from 0 to 23",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -2 0 0 1 ids:nodes",
                "black last-mill to square: '-2'",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 -3 0 1",
                "formed-mills bitmask: '-3'",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 a 1",
                "plies since last removal or placement: 'a'",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 0",
                "full-move number: '0', expected a whole number of at least 1",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 q:2",
                "suffix: 'q:2'",
            ),
            (
                "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 ids:legacy",
                "suffix: 'ids:legacy'",
            ),
        ];
        for (text, fragment) in cases {
            let err = parse_position(&v, text).unwrap_err().to_string();
            assert!(
                err.contains(fragment),
                "{text:?}:\n  got: {err}\n want: {fragment}"
            );
        }
    }

    #[test]
    fn too_many_on_board_for_small_variants() {
        let three = Variant::by_name("three").unwrap();
        let e = parse_position(&three, "OOO/O**/@@@ w m s 4 0 3 0 0 0 0 0 0 0 0 0 1")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("white on board: '4', expected a whole number from 0 to 3"),
            "{e}"
        );
        let e = parse_position(&three, "OOO/***/@@@ w m s 3 1 3 0 0 0 0 0 0 0 0 0 1")
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than the 3 stones of variant three"), "{e}");
    }
}
