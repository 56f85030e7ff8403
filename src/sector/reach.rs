//! Positions that no game from the start position can reach, by a provable criterion; their
//! table entries are "don't care".
//!
//! Closing a mill always removes an opponent stone (a removable stone always exists then; from
//! the board or, under `placing-mill=from-hand`, from the hand), so a mill on the board was
//! closed by a move that removed a stone (captures only take more). Under rules where a mill
//! may remove nothing (`placing-mill=by-mill-counts`, `one-time-mill`) nothing is flagged:
//!
//! * **Any phase**: a side with a mill on the board has removed at least one opponent stone,
//!   so a position where one side has a mill while the other still has all its stones (on
//!   the board plus in hand) is unreachable.
//! * **Placing only**: while stones cannot move (no variant option lets a side with stones in
//!   hand move, and both sides still have stones in hand, so every ply so far was a
//!   placement), each mill on the board was closed by the placement of its last stone, and
//!   pairwise disjoint mills by different placements, each removing one opponent stone. So
//!   a side whose largest set of pairwise disjoint mills exceeds the opponent's lost stones
//!   is impossible.
//!
//! Both sets are closed under predecessors (a move that creates a mill closes it and removes
//! a stone; a removal only shrinks mills and counts), so the positions outside them never
//! lead into them: their values never depend on an unreachable position's value. The solver
//! therefore skips unreachable positions, the writer stores them as "don't care", and a probe
//! of one is refused.

use crate::game::rules::{Bits, Board, PlacingMill, Variant};
use crate::sector::index::Sector;

/// The largest number of pairwise disjoint mills formed by `stones`.
pub fn mill_packing(board: &Board, stones: Bits) -> u32 {
    let mut formed = [0 as Bits; 16];
    let mut k = 0;
    for &m in board.mills() {
        if m & !stones == 0 && k < formed.len() {
            formed[k] = m;
            k += 1;
        }
    }
    let formed = &formed[..k];
    if k <= 1 {
        return k as u32;
    }
    // A handful of mills at most: try every subset.
    let mut best = 1;
    for subset in 1u32..1 << k {
        let size = subset.count_ones();
        if size <= best {
            continue;
        }
        let mut used: Bits = 0;
        let disjoint = formed.iter().enumerate().all(|(i, &m)| {
            if subset & (1 << i) == 0 {
                return true;
            }
            let ok = used & m == 0;
            used |= m;
            ok
        });
        if disjoint {
            best = size;
        }
    }
    best
}

/// The criterion for the positions of one sector, with what is constant over the sector
/// computed once: the stones each side has lost, and whether stones have only been placed.
#[derive(Clone, Copy, Debug)]
pub struct ReachFilter {
    board: &'static Board,
    /// Every ply so far was a placement.
    placing_only: bool,
    /// Stones the opponent has lost: bounds the side to move's closings.
    lost_by_them: u32,
    /// Stones the side to move has lost: bounds the opponent's closings.
    lost_by_us: u32,
}

impl ReachFilter {
    /// The filter of sector `s`, or `None` when no position of it can be unreachable by the
    /// criterion (then nothing needs checking).
    pub fn new(v: &Variant, s: Sector) -> Option<ReachFilter> {
        if v.placing_mill == PlacingMill::ByMillCounts || v.one_time_mill {
            // Mills that remove nothing: the criterion's premise does not hold.
            return None;
        }
        let lost =
            |on_board: u8, in_hand: u8| u32::from(v.stones.saturating_sub(on_board + in_hand));
        let f = ReachFilter {
            board: v.board(),
            placing_only: !v.move_while_placing && s.wf > 0 && s.bf > 0,
            lost_by_them: lost(s.b, s.bf),
            lost_by_us: lost(s.w, s.wf),
        };
        (f.may_flag(s.w, f.lost_by_them) || f.may_flag(s.b, f.lost_by_us)).then_some(f)
    }

    /// Can a side with `stones` on the board have more closings than `lost_by_other`?
    fn may_flag(&self, stones: u8, lost_by_other: u32) -> bool {
        if self.placing_only {
            u32::from(stones) >= 3 * (lost_by_other + 1)
        } else {
            lost_by_other == 0 && stones >= 3
        }
    }

    /// Do the stones `stones` of a side hold more closed mills than the `lost_by_other`
    /// stones its opponent has lost can explain?
    #[inline]
    fn impossible(&self, stones: Bits, lost_by_other: u32) -> bool {
        if self.placing_only {
            stones.count_ones() >= 3 * (lost_by_other + 1)
                && mill_packing(self.board, stones) > lost_by_other
        } else {
            lost_by_other == 0 && self.board.mill_stones(stones) != 0
        }
    }

    /// Are the side to move's stones alone enough to make the position unreachable?
    #[inline]
    pub fn us_impossible(&self, us: Bits) -> bool {
        self.impossible(us, self.lost_by_them)
    }

    /// Are the opponent's stones alone enough to make the position unreachable?
    #[inline]
    pub fn them_impossible(&self, them: Bits) -> bool {
        self.impossible(them, self.lost_by_us)
    }

    /// Is the position (`us` to move, `them`) unreachable?
    #[inline]
    pub fn unreachable(&self, us: Bits, them: Bits) -> bool {
        self.us_impossible(us) || self.them_impossible(them)
    }
}

/// Is the position of sector `s` with the side to move's stones `us` and the opponent's
/// `them` provably unreachable from the start position (see the module documentation)?
pub fn unreachable(v: &Variant, s: Sector, us: Bits, them: Bits) -> bool {
    ReachFilter::new(v, s).is_some_and(|f| f.unreachable(us, them))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::movegen::{Convention, legal_moves, play};
    use crate::game::position::Position;

    fn set(v: &Variant, names: &[&str]) -> Bits {
        names
            .iter()
            .map(|n| 1 << v.board().point(n).expect("a point"))
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn packings_of_mills() {
        let v = Variant::standard();
        let b = v.board();
        assert_eq!(mill_packing(b, set(&v, &["a1", "d1"])), 0);
        assert_eq!(mill_packing(b, set(&v, &["a1", "d1", "g1"])), 1);
        // Two mills through a1 share it: one disjoint mill.
        assert_eq!(mill_packing(b, set(&v, &["a1", "d1", "g1", "a4", "a7"])), 1);
        assert_eq!(
            mill_packing(b, set(&v, &["a1", "d1", "g1", "b2", "d2", "f2"])),
            2
        );
    }

    fn sector_of(p: &Position) -> (Sector, Bits, Bits) {
        (Sector::of_position(p), p.us(), p.them())
    }

    /// Random games from the start never meet a position the criterion calls unreachable,
    /// and no position met has an unreachable successor.
    #[test]
    fn games_never_reach_what_is_called_unreachable() {
        for v in crate::game::rules::VARIANTS {
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            for _ in 0..300 {
                let mut p = Position::start(&v);
                for _ in 0..120 {
                    let moves = legal_moves(&v, &p, Convention::Combined);
                    if moves.is_empty() || p.too_few(p.to_move) {
                        break;
                    }
                    for &m in &moves {
                        let q = play(&v, &p, m);
                        let (s, us, them) = sector_of(&q);
                        assert!(
                            q.too_few(q.to_move) || !unreachable(&v, s, us, them),
                            "{}: {q:?} after {m:?}",
                            v.name
                        );
                    }
                    p = play(&v, &p, moves[(next() % moves.len() as u64) as usize]);
                }
            }
        }
    }

    /// Unreachable positions have only unreachable predecessors: checked by playing every
    /// move from (a sample of) every position of some sectors.
    #[test]
    fn reachable_positions_lead_only_to_reachable_ones() {
        let v = Variant::standard();
        for (s, some_flagged) in [
            (Sector::new(4, 3, 5, 5), true),
            (Sector::new(6, 3, 2, 5), true),
            (Sector::new(3, 4, 0, 0), false),
        ] {
            let index = crate::sector::index::SectorIndex::new(&v, s);
            let step = (index.slots() / 100_000).max(1);
            let mut flagged = 0;
            for slot in (0..index.slots()).step_by(step as usize) {
                let Some((us, them)) = index.position(slot) else {
                    continue;
                };
                if unreachable(&v, s, us, them) {
                    flagged += 1;
                    continue;
                }
                let p = Position::new(
                    [us, them],
                    [s.wf, s.bf],
                    crate::game::position::Color::White,
                );
                for m in legal_moves(&v, &p, Convention::Combined) {
                    let q = play(&v, &p, m);
                    let (t, u, th) = sector_of(&q);
                    assert!(
                        q.too_few(q.to_move) || !unreachable(&v, t, u, th),
                        "{s} slot {slot} -> {t} by {m:?}"
                    );
                }
            }
            assert_eq!(flagged > 0, some_flagged, "sector {s}: {flagged}");
        }
    }
}
