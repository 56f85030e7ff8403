//! Positions: stones of both colours as bitboards, stones in hand, side to move, the stones
//! each side must still remove (Sanmill's split move convention), and the state some rule
//! options add: marked points, the mills a side has used, the slide that closed its last mill.

pub use crate::game::rules::Color;
use crate::game::rules::{Bits, MIN_STONES, NO_SQUARE, Variant};

/// A position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones on the board, indexed by [`Color::index`].
    pub stones: [Bits; 2],
    /// Stones in hand, indexed by [`Color::index`].
    pub in_hand: [u8; 2],
    /// The side to move.
    pub to_move: Color,
    /// Stones each side must still remove, indexed by [`Color::index`]: positive, the
    /// opponent's; negative, its own. The side to move removes first; a side that closed a
    /// mill has 1 here (split convention), or k for k mills under `multiple-removals`.
    pub removals: [i8; 2],
    /// After the pending removals, the last side to remove moves again (instead of its
    /// opponent): `stalemate=remove-and-move`, `placing-mill=from-hand-again`.
    pub again: bool,
    /// The pending removal is a stalemate removal: an opponent stone next to one of the
    /// remover's own, mill protection ignored.
    pub adjacent_removal: bool,
    /// Marked points (`placing-mill=mark`): no stone may be placed there until placing ends.
    pub marks: Bits,
    /// Points that stood in mills of each side so far (`one-time-mill`; 0 otherwise).
    pub used_mill_points: [Bits; 2],
    /// The slide `(from, to)` by which each side closed a mill on its last move, or
    /// `(NO_SQUARE, NO_SQUARE)` (`repeated-mills=restricted`; none otherwise).
    pub last_mill_slide: [(u8, u8); 2],
}

/// `(NO_SQUARE, NO_SQUARE)`: no slide.
pub const NO_SLIDE: (u8, u8) = (NO_SQUARE, NO_SQUARE);

impl Position {
    /// The variant's initial position: empty board, all stones in hand, white to move.
    pub fn start(variant: &Variant) -> Position {
        Position {
            stones: [0, 0],
            in_hand: [variant.stones; 2],
            to_move: Color::White,
            removals: [0, 0],
            again: false,
            adjacent_removal: false,
            marks: 0,
            used_mill_points: [0, 0],
            last_mill_slide: [NO_SLIDE; 2],
        }
    }

    /// A position of the standard game's kind: these stones, stones in hand and side to
    /// move, no removal pending and none of the extra state.
    pub fn new(stones: [Bits; 2], in_hand: [u8; 2], to_move: Color) -> Position {
        Position {
            stones,
            in_hand,
            to_move,
            ..Position::start(&crate::game::rules::Variant::standard())
        }
    }

    /// Must the side to move remove a stone now (split convention)?
    #[inline]
    pub fn pending_removal(&self) -> bool {
        self.removals[self.to_move.index()] != 0
    }

    /// The same position with the side to move having closed one mill and about to remove
    /// one opponent stone (`true`), or with no removal pending (`false`).
    pub fn with_pending_removal(mut self, pending: bool) -> Position {
        self.removals = [0, 0];
        self.again = false;
        self.adjacent_removal = false;
        if pending {
            self.removals[self.to_move.index()] = 1;
        }
        self
    }

    /// Does the position carry state beyond stones, hands, side to move and a single
    /// pending removal of the side to move (marks, removals of both sides, used mills, ...)?
    pub fn has_extra_state(&self) -> bool {
        let me = self.to_move.index();
        self.removals[1 - me] != 0
            || !(0..=1).contains(&self.removals[me])
            || self.again
            || self.adjacent_removal
            || self.marks != 0
            || self.used_mill_points != [0, 0]
            || self.last_mill_slide != [NO_SLIDE; 2]
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

    /// Does the ply from this position to `next` reset the N-move counter: a stone placed,
    /// removed or captured, or taken from a hand (fewer stones on a side's board, or another
    /// count in hand)?
    #[inline]
    pub fn resets_counter(&self, next: &Position) -> bool {
        (0..2).any(|c| next.stones[c].count_ones() < self.stones[c].count_ones())
            || next.in_hand != self.in_hand
    }

    /// Stones on board plus in hand of `c`.
    #[inline]
    pub fn total(&self, c: Color) -> u8 {
        self.on_board(c) + self.in_hand[c.index()]
    }

    /// Empty points (neither a stone nor a mark).
    #[inline]
    pub fn empty(&self, variant: &Variant) -> Bits {
        variant.board().full() & !(self.stones[0] | self.stones[1] | self.marks)
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
            removals: [self.removals[1], self.removals[0]],
            used_mill_points: [self.used_mill_points[1], self.used_mill_points[0]],
            last_mill_slide: [self.last_mill_slide[1], self.last_mill_slide[0]],
            ..*self
        }
    }

    /// Apply board symmetry `sym` of the variant's board.
    pub fn transformed(&self, variant: &Variant, sym: usize) -> Position {
        let b = variant.board();
        let point = |p: u8| {
            if p == NO_SQUARE {
                p
            } else {
                b.symmetries()[sym][p as usize]
            }
        };
        let slide = |(from, to): (u8, u8)| (point(from), point(to));
        Position {
            stones: [
                b.transform(sym, self.stones[0]),
                b.transform(sym, self.stones[1]),
            ],
            marks: b.transform(sym, self.marks),
            used_mill_points: [
                b.transform(sym, self.used_mill_points[0]),
                b.transform(sym, self.used_mill_points[1]),
            ],
            last_mill_slide: [
                slide(self.last_mill_slide[0]),
                slide(self.last_mill_slide[1]),
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
    /// Stone removed (the opponent's, or the mover's own when it must remove its own);
    /// [`NO_SQUARE`] if none.
    pub remove: u8,
    /// Further stones removed by the same move (combined convention, a move that closes
    /// several mills under `multiple-removals`); [`NO_SQUARE`] where none.
    pub more: [u8; 2],
}

impl Move {
    /// Place a stone on `to`.
    pub fn place(to: u8) -> Move {
        Move {
            from: NO_SQUARE,
            to,
            remove: NO_SQUARE,
            more: [NO_SQUARE; 2],
        }
    }

    /// Slide or fly from `from` to `to`.
    pub fn slide(from: u8, to: u8) -> Move {
        Move {
            from,
            to,
            remove: NO_SQUARE,
            more: [NO_SQUARE; 2],
        }
    }

    /// A lone removal (split convention).
    pub fn removal(sq: u8) -> Move {
        Move {
            from: NO_SQUARE,
            to: NO_SQUARE,
            remove: sq,
            more: [NO_SQUARE; 2],
        }
    }

    /// The same move with a removal of `sq` (after those it already has).
    pub fn with_removal(mut self, sq: u8) -> Move {
        if self.remove == NO_SQUARE {
            self.remove = sq;
        } else if let Some(slot) = self.more.iter_mut().find(|s| **s == NO_SQUARE) {
            *slot = sq;
        }
        self
    }

    /// The stones the move removes, in order.
    pub fn removals(&self) -> impl Iterator<Item = u8> + '_ {
        std::iter::once(self.remove)
            .chain(self.more)
            .filter(|&s| s != NO_SQUARE)
    }

    /// The same move without its removals.
    pub fn without_removals(self) -> Move {
        Move {
            remove: NO_SQUARE,
            more: [NO_SQUARE; 2],
            ..self
        }
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
