//! Removal "don't care" (flag bit 1, docs/FORMAT.md): Syzygy's capture trick for mills.
//!
//! Where a removing move already reaches a position's win/draw/loss at counter 0, the WDL
//! file may store a lower symbol there, and a reader takes the better of the stored symbol
//! and the best removal. The removals lead to sectors with fewer stones, so the look-ups
//! recurse only a few levels deep, and the values there are read the same way.
//!
//! Ranks: win 1, draw 0 (symbols 0 and, under a rule, 3), loss −1. A reader resolves a stored
//! symbol `s` with the best removal rank `r` to `s` if `rank(s) ≥ r`, otherwise to the plain
//! symbol of `r` (1 for a win, 0 for a draw). So a writer may lower a win to any symbol, and
//! a plain draw (symbol 0) to a loss, exactly where a removal reaches the true rank; symbols
//! 2 and 3 are never lowered (a removal cannot recover symbol 3 from a lower one).

use super::{SYMBOL_DRAW, SYMBOL_LOSS, SYMBOL_WIN, TableError, TableSet, Wdl};
use crate::game::rules::{Bits, MIN_STONES, Variant, for_each_removal_set};
use crate::sector::graph::{MoveSectors, can_slide};
use crate::sector::index::Sector;

/// Header flag: WDL symbols where a removal reaches the value may be lower than the value
/// (this module); readers resolve them.
pub const FLAG_REMOVAL_DONT_CARE: u8 = 2;

/// In a per-slot array of best removal ranks: the position has no removing move.
pub(crate) const NO_REMOVAL: i8 = i8::MIN;

/// Rank of a WDL symbol for the side to move: win 1, draw 0 (symbols 0 and 3), loss −1.
#[inline]
pub(crate) fn symbol_rank(symbol: u8) -> i8 {
    match symbol {
        SYMBOL_WIN => 1,
        SYMBOL_LOSS => -1,
        _ => 0,
    }
}

/// Rank of a win/draw/loss.
#[inline]
pub(crate) fn wdl_rank(w: Wdl) -> i8 {
    match w {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

/// The symbol a reader takes for stored symbol `stored` when the best removal of the
/// position has rank `best_removal` (`None`: no removing move).
#[inline]
pub(crate) fn resolve_symbol(stored: u8, best_removal: Option<i8>) -> u8 {
    match best_removal {
        Some(r) if r > symbol_rank(stored) => {
            if r > 0 {
                SYMBOL_WIN
            } else {
                SYMBOL_DRAW
            }
        }
        _ => stored,
    }
}

/// May the writer store `candidate` at a slot whose true symbol is `truth`, given that a
/// removal reaches the true rank there (`reached`)? Exactly when the reader resolves it back
/// to `truth`.
#[inline]
pub(crate) fn may_store(candidate: u8, truth: u8, reached: bool) -> bool {
    candidate == truth
        || (reached
            && (truth == SYMBOL_WIN || truth == SYMBOL_DRAW)
            && symbol_rank(candidate) < symbol_rank(truth))
}

/// Every removing move of the position (`us`, `them`) of sector `s` (a slide, fly or
/// placement that closes a mill, with each removable stone of the opponent; under rules that
/// take several stones or capture, every move that takes stones with each choice of its
/// removals), as the position
/// it leads to seen from the opponent: `f(to, next_us, next_them)` with `to` the sector
/// (`None` when the opponent is left with fewer than three stones: a lost game). Stops when
/// `f` returns true. The moves are those of the combined convention of `legal_moves`.
pub(crate) fn for_each_removal(
    v: &Variant,
    s: Sector,
    us: Bits,
    them: Bits,
    mut f: impl FnMut(Option<Sector>, Bits, Bits) -> bool,
) {
    if them == 0 {
        return;
    }
    let board = v.board();
    let empty = board.full() & !us & !them;
    let general = !v.one_removal_per_mill();
    // A mill needs two stones of ours and an empty point: most positions have none.
    if !general
        && !board
            .mills()
            .iter()
            .any(|&m| (us & m).count_ones() == 2 && m & empty != 0)
    {
        return;
    }
    let moves = MoveSectors::of(v, s);
    let live = |t: Option<Sector>| t.filter(|t| t.w + t.wf >= MIN_STONES);
    let (after_slide, after_place) = (live(moves.slide_removal()), live(moves.place_removal()));
    let removable = board.removable(them, v.remove_from_mills);
    let mut visit = |moved: Bits, to: u8, placed: bool| -> bool {
        if general {
            // Captures and several removals: the sector follows the number of stones taken.
            let a = v.arrival(board, moved, to, them, placed);
            if a.taken() == 0 {
                return false;
            }
            let by_taken = if placed {
                &moves.place_taking
            } else {
                &moves.slide_taking
            };
            let target = live(by_taken[a.taken() as usize - 1]);
            let from_mills = v.remove_from_mills;
            return for_each_removal_set(board, from_mills, a.them, a.removals, &mut |left| {
                f(target, left, moved)
            });
        }
        if !board.in_mill(moved, to) {
            return false;
        }
        let target = if placed { after_place } else { after_slide };
        let mut r = removable;
        while r != 0 {
            let p = r.trailing_zeros();
            r &= r - 1;
            if f(target, them & !(1 << p), moved) {
                return true;
            }
        }
        false
    };
    if can_slide(v, s) {
        let flies = v.flies(s.w, s.wf);
        let mut from_set = us;
        while from_set != 0 {
            let from = from_set.trailing_zeros();
            from_set &= from_set - 1;
            let mut targets = board.step_targets(from as u8, empty, flies);
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                if visit(us & !(1 << from) | 1 << to, to as u8, false) {
                    return;
                }
            }
        }
    }
    if s.wf > 0 {
        let mut targets = empty;
        while targets != 0 {
            let to = targets.trailing_zeros();
            targets &= targets - 1;
            if visit(us | 1 << to, to as u8, true) {
                return;
            }
        }
    }
}

impl TableSet {
    /// The best rank (win 1, draw 0, loss −1) for the side to move among the removing moves
    /// of the position (`us`, `them`) of `sector`, at counter 0 under the tables' rule (a
    /// removal resets the counter); `None` if it has no removing move. Reads the tables of
    /// the sectors the removals lead to (resolving their stored symbols the same way).
    pub(crate) fn best_removal(
        &self,
        sector: Sector,
        us: Bits,
        them: Bits,
    ) -> Result<Option<i8>, TableError> {
        let v = *self.variant();
        let mut best: Option<i8> = None;
        let mut failed = None;
        for_each_removal(&v, sector, us, them, |to, next_us, next_them| {
            let rank = match to {
                None => 1,
                Some(to) => {
                    let read = self.index(to).and_then(|index| {
                        let slot = index.slot(next_us, next_them);
                        self.wdl(to, slot)?.ok_or_else(|| {
                            TableError::InvalidInput(format!(
                                "slot {slot} of sector {to}, reached by a removal, is unused"
                            ))
                        })
                    });
                    match read {
                        Ok(theirs) => -wdl_rank(theirs),
                        Err(e) => {
                            failed = Some(e);
                            return true;
                        }
                    }
                }
            };
            best = Some(best.map_or(rank, |b| b.max(rank)));
            rank == 1
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(best),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::SYMBOL_RULE_DRAW;
    use super::*;

    const ALL: [u8; 4] = [SYMBOL_DRAW, SYMBOL_WIN, SYMBOL_LOSS, SYMBOL_RULE_DRAW];

    /// Every symbol the writer may store resolves back to the truth, for every true symbol
    /// and every best removal a position with that truth can have (never above the truth).
    #[test]
    fn what_the_writer_may_store_resolves_to_the_truth() {
        for truth in ALL {
            for removal in [None, Some(-1), Some(0), Some(1)] {
                if removal.is_some_and(|r| r > symbol_rank(truth)) {
                    continue; // impossible: a removal is one of the moves
                }
                let reached = removal == Some(symbol_rank(truth));
                let mut allowed = 0;
                for candidate in ALL {
                    let back = resolve_symbol(candidate, removal);
                    if may_store(candidate, truth, reached) {
                        allowed += 1;
                        assert_eq!(back, truth, "{candidate} for {truth} with {removal:?}");
                    } else if candidate == truth {
                        panic!("the truth itself must always be allowed");
                    }
                }
                // A win reached by a removal may be stored as anything, a plain draw as a
                // draw or a loss; nothing else is lowered.
                let expected = match (truth, reached) {
                    (SYMBOL_WIN, true) => 4,
                    (SYMBOL_DRAW, true) => 2,
                    _ => 1,
                };
                assert_eq!(allowed, expected, "truth {truth}, removal {removal:?}");
            }
        }
    }
}
