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
use crate::index::Sector;
use crate::movegen::{Convention, legal_moves, play};
use crate::position::{Color, Position};
use crate::rules::{Bits, MIN_STONES};

/// Header flag: WDL symbols where a removal reaches the value may be lower than the value
/// (this module); readers resolve them.
pub const FLAG_REMOVAL_DONT_CARE: u8 = 2;

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
        // A removing move closes a mill: some mill needs two stones of ours and an empty
        // point (a cheap test that skips most positions without one).
        let empty = v.board().full() & !us & !them;
        let closable = v
            .board()
            .mills()
            .iter()
            .any(|&m| (us & m).count_ones() == 2 && m & empty != 0);
        if !closable || them == 0 {
            return Ok(None);
        }
        let pos = Position {
            stones: [us, them],
            in_hand: [sector.wf, sector.bf],
            to_move: Color::White,
            pending_removal: false,
        };
        let mut best = None;
        for mv in legal_moves(&v, &pos, Convention::Combined) {
            if !mv.removes() {
                continue;
            }
            let next = play(&v, &pos, mv);
            let rank = if next.total(Color::Black) < MIN_STONES {
                1
            } else {
                let to = Sector::new(
                    next.on_board(Color::Black),
                    next.on_board(Color::White),
                    next.in_hand[Color::Black.index()],
                    next.in_hand[Color::White.index()],
                );
                let slot = self.index(to)?.slot(next.us(), next.them());
                let theirs = self.wdl(to, slot)?.ok_or_else(|| {
                    TableError::InvalidInput(format!(
                        "slot {slot} of sector {to}, reached by a removal, is unused"
                    ))
                })?;
                -wdl_rank(theirs)
            };
            if rank == 1 {
                return Ok(Some(1));
            }
            best = Some(best.map_or(rank, |b: i8| b.max(rank)));
        }
        Ok(best)
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
