//! Sanmill position strings ("FEN"): reading and writing whole positions.

use crate::game::movegen::settle;
use crate::game::position::{Color, NO_SLIDE, Position};
use crate::game::rules::{Bits, Board, BoardFull, NO_SQUARE, PlacingMill, Stalemate, Variant};
use std::fmt;

/// The keyword that [`parse_position`] reads as the variant's initial position.
pub const START: &str = "start";

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
    /// A marked point (`X`) where the rules have none: marks exist only under
    /// `placing-mill=mark`, while stones are still in hand.
    BlockedPoint {
        /// The square.
        square: &'static str,
        /// Why it cannot be there.
        reason: &'static str,
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
    /// The last-mill square fields mix the two numberings (without the marker `ids:nodes`):
    /// one field can only be a node id, another only a legacy id.
    MixedSquareIds {
        /// The field holding a node id.
        node_field: &'static str,
        /// Its value.
        node_id: i64,
        /// The field holding a legacy id.
        legacy_field: &'static str,
        /// Its value.
        legacy_id: i64,
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
            PositionError::BlockedPoint { square, reason } => {
                write!(f, "board field: marked point (X) on {square}: {reason}")
            }
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
            PositionError::MixedSquareIds {
                node_field,
                node_id,
                legacy_field,
                legacy_id,
            } => write!(
                f,
                "last-mill squares mix two numberings: {node_field} {node_id} is a node id \
                 (-1 for none) but {legacy_field} {legacy_id} a legacy id (0 for none, node + 8)"
            ),
            PositionError::Removal { message } => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// The suffix saying that the last-mill squares are node ids (-1 for none), which Sanmill
/// writes at the end of its position strings.
const NODE_IDS_MARKER: &str = "ids:nodes";

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
///
/// Both numberings of the four last-mill squares are read. With the marker `ids:nodes`
/// among the suffixes they are node ids (-1 for none, 0 up to the board's size − 1).
/// Without it they are legacy ids (0 for none, point + 8) unless a field can only be a node
/// id: -1, or 1 to 7, which no legacy id is; then all four are node ids. A field that can
/// only be a legacy id (from the board's size to size + 7) together with one that can only
/// be a node id is an error; fields that fit both (0, and 8 up to size − 1) keep the
/// legacy reading. (The squares only have to be valid: a [`Position`] does not keep them.)
///
/// # Errors
///
/// A [`PositionError`] saying what is wrong, by field: [`PositionError::Empty`] for an empty text,
/// [`PositionError::FieldCount`] for fewer than 17 fields; [`PositionError::BoardGroups`],
/// [`PositionError::GroupLength`], [`PositionError::BoardChar`] or [`PositionError::BlockedPoint`]
/// for the board field; [`PositionError::BadValue`] or [`PositionError::BadNumber`] for a field
/// outside its range; [`PositionError::OnBoardMismatch`] or [`PositionError::TooManyStones`] for
/// counts that disagree with the board or exceed the variant's stones;
/// [`PositionError::MixedSquareIds`] for last-mill squares in two numberings;
/// [`PositionError::Removal`] for removal counts and an action that disagree.
pub fn parse_position(variant: &Variant, text: &str) -> Result<Position, PositionError> {
    parse_position_info(variant, text).map(|(pos, _)| pos)
}

/// What a position string says beyond the position itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionInfo {
    /// Plies since the last removal or placement: the N-move rule's counter.
    pub counter: u32,
    /// The full-move number (1 at the start of the game).
    pub full_move: u32,
}

impl Default for PositionInfo {
    fn default() -> Self {
        PositionInfo {
            counter: 0,
            full_move: 1,
        }
    }
}

/// [`parse_position`], also returning the N-move counter and the full-move number
/// (`start` has counter 0 and move 1).
///
/// # Errors
///
/// As [`parse_position`].
pub fn parse_position_info(
    variant: &Variant,
    text: &str,
) -> Result<(Position, PositionInfo), PositionError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(PositionError::Empty);
    }
    if fields.len() == 1 && fields[0] == START {
        return Ok((Position::start(variant), PositionInfo::default()));
    }
    if fields.len() < REQUIRED_FIELDS {
        return Err(PositionError::FieldCount {
            found: fields.len(),
        });
    }
    let board = variant.board();
    let (stones, marks) = parse_board(board, fields[0])?;

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
    let removing = match fields[3] {
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
    let (mut again, mut adjacent_removal) = (false, false);
    for &suffix in &fields[REQUIRED_FIELDS..] {
        if suffix == NODE_IDS_MARKER {
            node_ids = true;
        } else if let Some(flags) = suffix.strip_prefix(STATE_SUFFIX) {
            for flag in flags.split('+') {
                match flag {
                    "again" => again = true,
                    "adjacent" => adjacent_removal = true,
                    _ => {
                        return Err(PositionError::BadValue {
                            field: "suffix",
                            found: suffix.to_string(),
                            expected: "x: followed by again, adjacent or again+adjacent",
                        });
                    }
                }
            }
        } else if !["c:", "i:", "l:", "p:"]
            .iter()
            .any(|prefix| suffix.starts_with(prefix))
        {
            return Err(PositionError::BadValue {
                field: "suffix",
                found: suffix.to_string(),
                expected: "a token starting with c:, i:, l:, p: or x:, or the marker ids:nodes",
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
        *r = signed(
            NUMBER_FIELDS[4 + i],
            num[4 + i],
            "a whole number (negative: own stones)",
        )?;
    }
    let mut squares = [0i64; 4];
    for (k, id) in squares.iter_mut().enumerate() {
        let i = 6 + k;
        let shown = node_ids.then_some(SquareIds::Nodes);
        *id = signed(NUMBER_FIELDS[i], num[i], &square_range(board.len(), shown))?;
    }
    let ids = read_square_ids(board.len(), node_ids, squares)?;
    let point = |id: i64| match ids {
        SquareIds::Nodes if id >= 0 => id as u8,
        SquareIds::Legacy if id >= 8 => (id - 8) as u8,
        _ => NO_SQUARE,
    };
    let slide = |k: usize| match (point(squares[k]), point(squares[k + 1])) {
        (NO_SQUARE, _) | (_, NO_SQUARE) => NO_SLIDE,
        pair => pair,
    };
    let mills_mask = number(NUMBER_FIELDS[10], num[10], u64::MAX)?;
    let counter = number(NUMBER_FIELDS[11], num[11], u64::from(u32::MAX))? as u32;
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

    let removal_stated = removing || remove != [0, 0];
    check_marks(variant, board, marks, in_hand, removal_stated)?;
    let mut pos = Position {
        stones,
        in_hand,
        to_move,
        marks,
        again,
        adjacent_removal,
        ..Position::start(variant)
    };
    if variant.repeated_mills_restricted {
        pos.last_mill_slide = [slide(0), slide(2)];
    }
    if variant.one_time_mill {
        let side = |half: u64| from_square_bits(board, half as Bits);
        pos.used_mill_points = [side(mills_mask >> 32), side(mills_mask & 0xFFFF_FFFF)];
    }
    pos.removals = check_removal(variant, &pos, removing, remove)?;
    let pos = settle(variant, &pos);
    let info = PositionInfo {
        counter,
        full_move: full_move as u32,
    };
    Ok((pos, info))
}

/// How the four last-mill square fields number the points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SquareIds {
    /// Legacy ids: 0 for none, point + 8 for a point.
    Legacy,
    /// Node ids: -1 for none, the point's number (0 up) in the board's ring order.
    Nodes,
}

impl SquareIds {
    /// Is `id` a square id (or "none") of this numbering on a board of `points` points?
    fn fits(self, points: usize, id: i64) -> bool {
        let n = points as i64;
        match self {
            SquareIds::Legacy => id == 0 || (8..8 + n).contains(&id),
            SquareIds::Nodes => id == -1 || (0..n).contains(&id),
        }
    }
}

/// What a square field may be: in one numbering, or in either (`None`).
fn square_range(points: usize, ids: Option<SquareIds>) -> String {
    let legacy = format!("0 (none) or a legacy id from 8 to {}", points + 7);
    let nodes = format!("-1 (none) or a node id from 0 to {}", points - 1);
    match ids {
        Some(SquareIds::Legacy) => legacy,
        Some(SquareIds::Nodes) => nodes,
        None => format!("{legacy}, or {nodes}"),
    }
}

/// Decide how the four last-mill square fields are numbered and check them.
///
/// With the marker `ids:nodes` they are node ids. Without it, a field that can only be a node
/// id (-1, or 1 to 7) makes them node ids and one that can only be a legacy id (from the
/// board's size to size + 7) keeps them legacy ids; both kinds at once are an error. Fields
/// that fit both (0 and 8 up to size − 1) read as legacy ids, the documented default.
fn read_square_ids(
    points: usize,
    marker: bool,
    squares: [i64; 4],
) -> Result<SquareIds, PositionError> {
    let field = |k: usize| NUMBER_FIELDS[6 + k];
    let only = |ids: SquareIds, other: SquareIds| {
        (0..4).find(|&k| ids.fits(points, squares[k]) && !other.fits(points, squares[k]))
    };
    let ids = if marker {
        SquareIds::Nodes
    } else {
        let node_only = only(SquareIds::Nodes, SquareIds::Legacy);
        let legacy_only = only(SquareIds::Legacy, SquareIds::Nodes);
        if let (Some(a), Some(b)) = (node_only, legacy_only) {
            return Err(PositionError::MixedSquareIds {
                node_field: field(a),
                node_id: squares[a],
                legacy_field: field(b),
                legacy_id: squares[b],
            });
        }
        if node_only.is_some() {
            SquareIds::Nodes
        } else {
            SquareIds::Legacy
        }
    };
    for (k, &id) in squares.iter().enumerate() {
        if !ids.fits(points, id) {
            return Err(PositionError::BadNumber {
                field: field(k),
                found: id.to_string(),
                expected: square_range(points, marker.then_some(SquareIds::Nodes)),
            });
        }
    }
    Ok(ids)
}

/// The suffix of a position string that carries the state of a turn that the Sanmill fields
/// do not: `x:again` (the last side to remove moves again), `x:adjacent` (a stalemate
/// removal: next to the remover's stones, mill protection ignored), or both joined by `+`.
const STATE_SUFFIX: &str = "x:";

/// Sanmill's square bits (bit `point + 8`) as a point set.
fn from_square_bits(board: &Board, bits: Bits) -> Bits {
    (bits >> 8) & board.full()
}

/// A point set as Sanmill's square bits (bit `point + 8`).
fn to_square_bits(set: Bits) -> u64 {
    u64::from(set) << 8
}

/// Check marked points against the rules: only under `placing-mill=mark`, only while stones
/// are in hand or the turn that emptied both hands still has removals pending (`removing`:
/// the string states a removal; marks vanish when that turn ends, as in the Sanmill app).
fn check_marks(
    variant: &Variant,
    board: &Board,
    marks: Bits,
    in_hand: [u8; 2],
    removing: bool,
) -> Result<(), PositionError> {
    if marks == 0 {
        return Ok(());
    }
    let square = board.name(marks.trailing_zeros() as u8);
    let reason = if variant.placing_mill != PlacingMill::Mark {
        "marks occur only under placing-mill=mark"
    } else if in_hand == [0, 0] && !removing {
        "marks vanish when placing ends, and no stone is in hand"
    } else {
        return Ok(());
    };
    Err(PositionError::BlockedPoint { square, reason })
}

/// Check the removal counts against the action, the rules and the stones; the counts.
fn check_removal(
    variant: &Variant,
    pos: &Position,
    removing: bool,
    remove: [i64; 2],
) -> Result<[i8; 2], PositionError> {
    let err = |message: String| Err(PositionError::Removal { message });
    let me = pos.to_move;
    let by_counts = variant.placing_mill == PlacingMill::ByMillCounts;
    let sequences = by_counts
        || matches!(
            variant.board_full,
            BoardFull::WhiteThenBlack | BoardFull::BlackThenWhite
        )
        || variant.stalemate == Stalemate::BothRemove;
    let most = if by_counts {
        i64::from(variant.stones)
    } else if variant.multiple_removals {
        3
    } else {
        1
    };
    for color in [Color::White, Color::Black] {
        let r = remove[color.index()];
        if r < 0 && !(by_counts && r == -1) {
            return err(format!(
                "{color} to remove: {r}; a side removes its own stone (-1) only under \
                 placing-mill=by-mill-counts"
            ));
        }
        if r > most {
            return err(format!(
                "{color} to remove: {r}, but these rules remove at most {most} stone(s) at \
                 a time"
            ));
        }
        if r != 0 && color != me && !sequences {
            return err(format!(
                "{color} to remove: {r}, but it is {me} to move; under these rules only the \
                 side to move can have a removal pending"
            ));
        }
    }
    let mine = remove[me.index()];
    if removing && mine == 0 {
        return err(format!(
            "action r (remove) needs {me} to remove to be non-zero, found 0"
        ));
    }
    if !removing && mine != 0 {
        return err(format!(
            "{me} to remove: {mine}, but the action is not r (remove)"
        ));
    }
    if removing && mine > 0 && pos.them() == 0 {
        return err(format!(
            "action r (remove): {} has no stone on the board to remove",
            me.other()
        ));
    }
    Ok([remove[0] as i8, remove[1] as i8])
}

/// Read the board field into white and black stone sets and the marked points.
fn parse_board(board: &Board, field: &str) -> Result<([u32; 2], Bits), PositionError> {
    let groups: Vec<&str> = field.split('/').collect();
    let sizes = board.group_sizes();
    if groups.len() != sizes.len() {
        return Err(PositionError::BoardGroups {
            found: groups.len(),
            expected: sizes.len(),
        });
    }
    let mut stones = [0u32; 2];
    let mut marks = 0;
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
                'X' => marks |= 1 << point,
                _ => return Err(PositionError::BoardChar { ch, group: g + 1 }),
            }
            point += 1;
        }
    }
    Ok((stones, marks))
}

/// Write a position as a Sanmill position string in the form Sanmill writes by default: node
/// square ids, ending with the marker `ids:nodes`.
///
/// The phase is `p` while either side has stones in hand, else `m`; the action is `r` when a
/// removal is pending, else `p` if the side to move has stones in hand, else `s`. The four
/// last-mill squares are written as -1 (none) and the mills bitmask as 0, the ply counter as 0
/// and the full-move number as 1, since a [`Position`] does not keep them
/// ([`format_position_info`] writes the last two):
///
/// ```text
/// ********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes
/// ```
pub fn format_position(variant: &Variant, pos: &Position) -> String {
    format_position_info(variant, pos, PositionInfo::default())
}

/// [`format_position`] with the N-move counter and the full-move number of `info`.
pub fn format_position_info(variant: &Variant, pos: &Position, info: PositionInfo) -> String {
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
            } else if pos.marks & bit != 0 {
                'X'
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
    let action = if pos.pending_removal() {
        'r'
    } else if pos.in_hand[pos.to_move.index()] > 0 {
        'p'
    } else {
        's'
    };
    let id = |p: u8| if p == NO_SQUARE { -1 } else { i32::from(p) };
    let [(wf, wt), (bf, bt)] = pos.last_mill_slide;
    let mills =
        to_square_bits(pos.used_mill_points[0]) << 32 | to_square_bits(pos.used_mill_points[1]);
    s.push_str(&format!(
        " {side} {phase} {action} {} {} {} {} {} {} {} {} {} {} {mills} {} {} {NODE_IDS_MARKER}",
        pos.on_board(Color::White),
        pos.in_hand[0],
        pos.on_board(Color::Black),
        pos.in_hand[1],
        pos.removals[0],
        pos.removals[1],
        id(wf),
        id(wt),
        id(bf),
        id(bt),
        info.counter,
        info.full_move,
    ));
    let flags: Vec<&str> = [(pos.again, "again"), (pos.adjacent_removal, "adjacent")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, name)| name)
        .collect();
    if !flags.is_empty() {
        s.push_str(&format!(" {STATE_SUFFIX}{}", flags.join("+")));
    }
    s
}
