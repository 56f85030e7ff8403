//! Positions: stones of both colours as bitboards, stones in hand, side to move, and the
//! "must remove a stone now" state of Sanmill's split move convention.

use crate::game::rules::{Bits, MIN_STONES, NO_SQUARE, Variant};
use std::fmt;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones on the board, indexed by [`Color::index`].
    pub stones: [Bits; 2],
    /// Stones in hand, indexed by [`Color::index`].
    pub in_hand: [u8; 2],
    /// The side to move.
    pub to_move: Color,
    /// The side to move has just closed a mill and must now remove a stone (split convention).
    pub pending_removal: bool,
}

impl Position {
    /// The variant's initial position: empty board, all stones in hand, white to move.
    pub fn start(variant: &Variant) -> Position {
        Position {
            stones: [0, 0],
            in_hand: [variant.stones; 2],
            to_move: Color::White,
            pending_removal: false,
        }
    }

    /// Stones of the side to move.
    #[inline]
    pub fn us(&self) -> Bits {
        self.stones[self.to_move.index()]
    }

    /// Stones of the opponent.
    #[inline]
    pub fn them(&self) -> Bits {
        self.stones[self.to_move.other().index()]
    }

    /// Stones on board of `c`.
    #[inline]
    pub fn on_board(&self, c: Color) -> u8 {
        self.stones[c.index()].count_ones() as u8
    }

    /// Stones on board plus in hand of `c`.
    #[inline]
    pub fn total(&self, c: Color) -> u8 {
        self.on_board(c) + self.in_hand[c.index()]
    }

    /// Empty points.
    #[inline]
    pub fn empty(&self, variant: &Variant) -> Bits {
        variant.board().full() & !(self.stones[0] | self.stones[1])
    }

    /// Has `c` lost by having fewer than three stones?
    #[inline]
    pub fn too_few(&self, c: Color) -> bool {
        self.total(c) < MIN_STONES
    }

    /// The same position with colours swapped (white becomes black and the reverse).
    pub fn color_flipped(&self) -> Position {
        Position {
            stones: [self.stones[1], self.stones[0]],
            in_hand: [self.in_hand[1], self.in_hand[0]],
            to_move: self.to_move.other(),
            pending_removal: self.pending_removal,
        }
    }

    /// Apply board symmetry `sym` of the variant's board.
    pub fn transformed(&self, variant: &Variant, sym: usize) -> Position {
        let b = variant.board();
        Position {
            stones: [
                b.transform(sym, self.stones[0]),
                b.transform(sym, self.stones[1]),
            ],
            ..*self
        }
    }
}

/// One ply: a placement, slide or fly, with the removal it makes when it closes a mill; or, in
/// the split convention, a removal on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Point the stone leaves; [`NO_SQUARE`] for a placement or a lone removal.
    pub from: u8,
    /// Point the stone arrives on; [`NO_SQUARE`] for a lone removal.
    pub to: u8,
    /// Opponent stone removed; [`NO_SQUARE`] if none.
    pub remove: u8,
}

impl Move {
    /// Place a stone on `to`.
    pub fn place(to: u8) -> Move {
        Move {
            from: NO_SQUARE,
            to,
            remove: NO_SQUARE,
        }
    }

    /// Slide or fly from `from` to `to`.
    pub fn slide(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            remove: NO_SQUARE,
        }
    }

    /// A lone removal (split convention).
    pub fn removal(sq: u8) -> Move {
        Move {
            from: NO_SQUARE,
            to: NO_SQUARE,
            remove: sq,
        }
    }

    /// The same move with a removal of `sq`.
    pub fn with_removal(self, sq: u8) -> Move {
        Move { remove: sq, ..self }
    }

    /// Is this a placement?
    pub fn is_place(&self) -> bool {
        self.from == NO_SQUARE && self.to != NO_SQUARE
    }

    /// Is this a lone removal?
    pub fn is_lone_removal(&self) -> bool {
        self.to == NO_SQUARE
    }

    /// Does the move remove a stone?
    pub fn removes(&self) -> bool {
        self.remove != NO_SQUARE
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}
