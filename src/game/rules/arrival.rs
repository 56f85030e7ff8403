//! What a stone move takes from the opponent, on bare stone sets: the view of the solver, the
//! verifier and the table readers, which index positions by the two sides' stones alone.
//!
//! A stone of the side to move arrives on a point (a placement, slide or fly). Under
//! `capture=intervention` it first captures the two opponent stones flanking it on each line
//! whose middle point it is; then the mills through it give their removals (one, or one per
//! mill under `multiple-removals`), each a choice among the opponent's removable stones with
//! the mill protection re-checked before each (docs/RULE-SETS.md, "How a turn goes"). A move
//! that takes nothing is *quiet*: it neither captures nor closes a mill.

use super::{Bits, Board, Capture, PlacingMill, Variant};

/// The effect of a stone arriving on a point ([`Variant::arrival`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// The opponent's stones after the captures (before the removals).
    pub them: Bits,
    /// Stones captured by intervention.
    pub captured: u8,
    /// Removals the move's mills give, at most the stones left to remove.
    pub removals: u8,
}

impl Arrival {
    /// Stones the move takes from the opponent's board in all (captures and removals).
    #[inline]
    pub fn taken(&self) -> u8 {
        self.captured + self.removals
    }
}

impl Variant {
    /// What a stone of the side to move arriving on `to` does, with `moved` its stones after
    /// the move (holding `to`) and `them` the opponent's; `placement` for a stone from hand.
    /// Follows `capture`, `multiple-removals` and, for placements, whether a placing mill
    /// removes from the board (`placing-mill=remove` or `mark`); the marks themselves, hands
    /// taken from and history options are beyond bare stone sets.
    #[inline]
    pub fn arrival(
        &self,
        board: &Board,
        moved: Bits,
        to: u8,
        them: Bits,
        placement: bool,
    ) -> Arrival {
        let mut left = them;
        if self.capture == Capture::Intervention {
            for &ends in board.flanks(to) {
                if left & ends == ends {
                    left &= !ends;
                }
            }
        }
        let removals = if placement && self.placing_mill == PlacingMill::ByMillCounts {
            0
        } else if self.multiple_removals {
            board.mills_at(moved, to)
        } else {
            board.in_mill(moved, to) as u32
        };
        Arrival {
            them: left,
            captured: (them.count_ones() - left.count_ones()) as u8,
            removals: removals.min(left.count_ones()) as u8,
        }
    }

    /// Could a stone of `stones` standing on `to` have arrived there by a quiet move (no
    /// capture, no mill), the opponent holding `opponent`? The un-move generators' test: a
    /// stone in a mill, or between two opponent stones under intervention capture, came with
    /// a removal or a capture.
    #[inline]
    pub fn arrived_quietly(&self, board: &Board, stones: Bits, to: u8, opponent: Bits) -> bool {
        if board.in_mill(stones, to) {
            return false;
        }
        self.capture != Capture::Intervention
            || board.flanks(to).iter().all(|&ends| opponent & ends != ends)
    }

    /// The most stones one move can take from the opponent's board (captures and removals):
    /// the number of removal sectors a sector's moves can lead to.
    pub fn max_taken(&self) -> u8 {
        let board = self.board();
        let points = 0..board.len() as u8;
        let mills = if self.multiple_removals {
            points
                .clone()
                .map(|p| board.mills_at(board.full(), p))
                .max()
                .unwrap_or(0)
        } else {
            1
        };
        let captures = match self.capture {
            Capture::Intervention => points.map(|p| 2 * board.flanks(p).len()).max().unwrap_or(0),
            Capture::None => 0,
        };
        (mills as usize + captures) as u8
    }

    /// Is every move's effect on the opponent a single removal at most (the standard game's
    /// rule): no captures, one removal per move?
    #[inline]
    pub fn takes_one_at_most(&self) -> bool {
        self.capture == Capture::None && !self.multiple_removals
    }

    /// Does every mill remove exactly one stone and nothing else take any: the fast paths of
    /// the solver and verifier (a mill by placing too, unlike `placing-mill=by-mill-counts`,
    /// whose placements remove nothing)?
    #[inline]
    pub fn one_removal_per_mill(&self) -> bool {
        self.takes_one_at_most() && self.placing_mill != PlacingMill::ByMillCounts
    }
}

/// Call `f` with every set the opponent's stones `them` can be left as after `k` removals
/// (each chosen among the stones removable at that point: protection re-checked before each,
/// unless `from_mills`), until `f` returns true; returns whether it did. The same set may
/// come more than once (removals in another order).
pub fn for_each_removal_set(
    board: &Board,
    from_mills: bool,
    them: Bits,
    k: u8,
    f: &mut impl FnMut(Bits) -> bool,
) -> bool {
    if k == 0 || them == 0 {
        return f(them);
    }
    let mut r = board.removable(them, from_mills);
    while r != 0 {
        let p = r.trailing_zeros();
        r &= r - 1;
        if for_each_removal_set(board, from_mills, them & !(1 << p), k - 1, f) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(b: &Board, names: &[&str]) -> Bits {
        names.iter().fold(0, |m, n| m | 1 << b.point(n).unwrap())
    }

    #[test]
    fn intervention_captures_both_flanks_and_mills_remove_per_mill() {
        let v = Variant::by_name("mul-mulan").unwrap();
        let b = v.board();
        let d2 = b.point("d2").unwrap();
        // d2 is the middle of d1-d2-d3 and of b2-d2-f2.
        let them = set(b, &["d1", "d3", "b2", "f2", "a7"]);
        let a = v.arrival(b, 1 << d2, d2, them, false);
        assert_eq!(a.them, set(b, &["a7"]));
        assert_eq!((a.captured, a.removals, a.taken()), (4, 0, 4));
        assert!(!v.arrived_quietly(b, 1 << d2, d2, them));
        assert!(v.arrived_quietly(b, 1 << d2, d2, set(b, &["d1", "b2"])));
        let std = Variant::by_name("std").unwrap();
        assert_eq!(std.arrival(b, 1 << d2, d2, them, false).taken(), 0);
        assert_eq!((std.max_taken(), v.max_taken()), (1, 5));

        let da = Variant::by_name("da-san-qi").unwrap();
        let db = da.board();
        let mine = set(db, &["a7", "d7", "g7", "a4", "a1"]);
        let a7 = db.point("a7").unwrap();
        let a = da.arrival(db, mine, a7, set(db, &["b4", "c4"]), false);
        assert_eq!((a.captured, a.removals), (0, 2));
        // Only one stone left to remove: the second removal lapses.
        assert_eq!(
            da.arrival(db, mine, a7, set(db, &["b4"]), false).removals,
            1
        );
        // a7 lies on a row, a column and a diagonal of the diagonal board.
        assert_eq!(da.max_taken(), 3);
    }

    #[test]
    fn removal_sets_recheck_the_protection() {
        let b = Variant::by_name("std").unwrap().board();
        let them = set(b, &["a7", "d7", "g7", "b4"]);
        let mut seen = Vec::new();
        for_each_removal_set(b, false, them, 2, &mut |left| {
            seen.push(left);
            false
        });
        seen.sort_unstable();
        seen.dedup();
        // b4 first (the only stone outside the mill); then all three stand in a mill, so any
        // of them.
        let want: Vec<Bits> = {
            let mut w: Vec<Bits> = ["a7", "d7", "g7"]
                .iter()
                .map(|n| set(b, &["a7", "d7", "g7"]) & !set(b, &[n]))
                .collect();
            w.sort_unstable();
            w
        };
        assert_eq!(seen, want);
    }
}
