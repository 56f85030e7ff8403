//! The pass for sectors whose moves all leave them (the standard placing phase): each value
//! follows from the values of the sectors its moves lead to, with no propagation inside.
//!
//! The sector is enumerated by the *opponent's* stone set: for one opponent set `them`,
//! every placement of every position reads the successor sector in the one orbit block of
//! `them`, and every removal of a stone `r` reads the block of `them - r`. So the frames
//! (orbit and symmetry) of those blocks are computed once per opponent set, the exits of each
//! stone set the mover can reach are looked up once ([`OpponentBlocks`]), and the reads stay
//! within a few small blocks that fit in the cache, where the enumeration by the side to
//! move's set sent nearly every read to a random place in gigabytes.

use super::{ExitSummary, Exits, Progress};
use crate::game::rules::{Bits, Variant, points as bits};
use crate::game::value::{NMoveRule, UNUSED, Value};
use crate::sector::index::{SectorIndex, UsFrame, colex_rank, combinations, pdep};
use crate::sector::reach::ReachFilter;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// Values of every slot of the sector of `index` (no internal moves; `exits` supplied), under
/// the rule the tables are solved under and the one in force in the sector (`rules`, see
/// [`NMoveRule::with_stones`]).
pub(super) fn exit_only_pass(
    v: &Variant,
    index: &SectorIndex,
    exits: &Exits,
    rules: (NMoveRule, NMoveRule),
    reach: Option<ReachFilter>,
    progress: Progress,
) -> Vec<u16> {
    let s = index.sector;
    let board = v.board();
    let full = board.full();
    let syms = &index.tables.syms;
    let them_orbits = index.tables.orbits(s.b as u32);
    let m = board.len() as u32 - s.b as u32;
    let us_sets = combinations(m, s.w as u32);
    let slots = index.slots();
    let values = unused_values(slots as usize);
    let orbit_count = them_orbits.len() as u64;
    let general = !v.one_removal_per_mill();
    let hand_taking = super::takes_from_hand(v, s);
    let rule = rules.1;
    let place_rule = exits.place.as_ref().map_or(rule, |t| t.rule);
    (0..them_orbits.len() as u32).into_par_iter().for_each_init(
        OpponentBlocks::default,
        |blocks, orbit| {
            let them = them_orbits.rep(orbit);
            let them_stab = them_orbits.stabilizer(orbit);
            let o = orbit as u64;
            // Progress units: twice the slot count over the whole pass.
            let done = 2 * slots * (o + 1) / orbit_count - 2 * slots * o / orbit_count;
            if reach.is_some_and(|f| f.them_impossible(them)) {
                // No game reaches these positions: their values stay unused.
                progress(done);
                return;
            }
            blocks.prepare(v, exits, s.w as u32, them, hand_taking);
            let free = full & !them;
            let open = (1 << m) - 1;
            for &combo in us_sets {
                let us = pdep(combo, free);
                // With a symmetric `them`, visit each position once: the smallest image of
                // `us` under the symmetries fixing `them`.
                if syms.has_smaller_image(them_stab, us)
                    || reach.is_some_and(|f| f.us_impossible(us))
                {
                    continue;
                }
                let value = if combo == open {
                    // No move: the full-board rule, else the side to move has lost.
                    if super::full_board_won(v, 0) {
                        Value::Win(0)
                    } else if super::blocked_draws(v, 0) {
                        Value::Draw
                    } else {
                        rule.blocked()
                    }
                } else {
                    let mut ex = ExitSummary::default();
                    for j in bits(open & !combo) {
                        let placed = combo | 1 << j;
                        let to = blocks.points[j as usize];
                        if general {
                            let a = v.arrival(board, us | 1 << to, to, them, true);
                            if a.taken() > 0 {
                                let tables = &exits.place_taking;
                                let placed = us | 1 << to;
                                super::note_taking(v, &mut ex, rules, tables, a, placed, to, None);
                                continue;
                            }
                            ex.note(
                                rule,
                                place_rule,
                                blocks.placements[colex_rank(placed) as usize],
                                true,
                            );
                        } else if hand_taking && board.in_mill(us | 1 << to, to) {
                            // `from-hand`: the stone comes from the opponent's hand.
                            match &exits.place_taking[0] {
                                None => ex.win(1),
                                Some(t) => ex.note(rule, t.rule, t.code(them, us | 1 << to), true),
                            }
                        } else if them != 0 && board.in_mill(us | 1 << to, to) {
                            ex.note_own(blocks.removals(exits, rule, placed));
                        } else {
                            ex.note(
                                rule,
                                place_rule,
                                blocks.placements[colex_rank(placed) as usize],
                                true,
                            );
                        }
                    }
                    ex.value()
                };
                values[index.slot(us, them) as usize].store(value.encode(), Relaxed);
            }
            progress(done);
        },
    );
    into_plain(values)
}

/// Per opponent set `them`, the exits of every placement, by the set the mover has after it.
///
/// The mover's sets after a placement are the `(w + 1)`-point subsets of the points `them`
/// leaves free, numbered by the colex rank of their pattern over those points (`placed`).
/// Each such set is reached by up to `w + 1` positions, so its exits are looked up once
/// here instead of once per position.
#[derive(Default)]
struct OpponentBlocks {
    /// The free points in order: `points[j]` is the board point of pattern bit `j`.
    points: Vec<u8>,
    /// The free points as a mask.
    free: Bits,
    /// The opponent's stones.
    them: Bits,
    /// By pattern rank: the successor's code after a placement that closes no mill (for the
    /// opponent, see [`ExitTable::code`](super::ExitTable)).
    placements: Vec<u16>,
    /// By pattern rank: the mover's best value over the removals after a placement that
    /// closes a mill, or [`UNUSED`] while not yet needed (filled on demand).
    removals: Vec<u16>,
    /// Frames of the sector removals lead to, one per removable stone of `them` (when the
    /// opponent moves next there).
    removal_frames: Vec<UsFrame>,
    /// The removable stones of `them` (when the mover moves again after the removal: the
    /// successor is seen from the mover, whose stone set varies, so no frames).
    removable_again: Bits,
}

impl OpponentBlocks {
    /// Set up the blocks of opponent set `them` for a mover with `w` stones on the board
    /// (no removals from the board when its mills take from the opponent's hand).
    fn prepare(&mut self, v: &Variant, exits: &Exits, w: u32, them: Bits, from_hand: bool) {
        let board = v.board();
        let syms = &crate::sector::index::BoardTables::of(v.board_kind).syms;
        self.free = board.full() & !them;
        self.them = them;
        self.points.clear();
        self.points.extend(bits(self.free));
        let m = self.points.len() as u32;
        let after = combinations(m, w + 1);
        self.placements.clear();
        match &exits.place {
            // The mover moves again: the successor is seen from the mover, whose stone set
            // varies within the block (no shared frame).
            Some(t) if t.again => self.placements.extend(
                after
                    .iter()
                    .map(|&pattern| t.code(them, pdep(pattern, self.free))),
            ),
            Some(t) => {
                let frame = t.index.frame(them);
                self.placements.extend(after.iter().map(|&pattern| {
                    let mapped = syms.apply(frame.sym, pdep(pattern, self.free));
                    t.values[t.index.slot_in_frame(&frame, mapped) as usize]
                }));
            }
            None => {}
        }
        self.removals.clear();
        self.removals.resize(after.len(), UNUSED);
        self.removal_frames.clear();
        self.removable_again = 0;
        if let (Some(t), true) = (&exits.place_taking[0], them != 0 && !from_hand) {
            let removable = board.removable(them, v.remove_from_mills);
            if t.again {
                self.removable_again = removable;
            } else {
                self.removal_frames
                    .extend(bits(removable).map(|r| t.index.frame(them & !(1 << r))));
            }
        }
    }

    /// The mover's best value over the removals after reaching pattern `placed` with a mill.
    #[inline]
    fn removals(&mut self, exits: &Exits, rule: NMoveRule, placed: Bits) -> Value {
        let rank = colex_rank(placed) as usize;
        if self.removals[rank] == UNUSED {
            self.removals[rank] = match &exits.place_taking[0] {
                // Too few stones would be left: the opponent has lost.
                None => Value::Win(1),
                Some(t) => {
                    let syms = &t.index.tables.syms;
                    let stones = pdep(placed, self.free);
                    let mut ex = ExitSummary::default();
                    for frame in &self.removal_frames {
                        let mapped = syms.apply(frame.sym, stones);
                        ex.note(
                            rule,
                            t.rule,
                            t.values[t.index.slot_in_frame(frame, mapped) as usize],
                            true,
                        );
                    }
                    for r in bits(self.removable_again) {
                        ex.note(rule, t.rule, t.code(self.them & !(1 << r), stones), true);
                    }
                    ex.value()
                }
            }
            .encode();
        }
        Value::decode(self.removals[rank]).unwrap_or(Value::Draw)
    }
}

/// `len` atomic values, all [`UNUSED`], on huge pages where the kernel allows (they are
/// written at random).
fn unused_values(len: usize) -> Vec<AtomicU16> {
    let zeros = vec![0u16; len];
    crate::sys::memory::advise_huge_pages(&zeros);
    let mut zeros = std::mem::ManuallyDrop::new(zeros);
    // SAFETY: AtomicU16 has the same size, alignment and bit validity as u16; the buffer is
    // handed over whole (pointer, length, capacity) and never used through `zeros` again.
    let cells =
        unsafe { Vec::from_raw_parts(zeros.as_mut_ptr() as *mut AtomicU16, len, zeros.capacity()) };
    cells.par_iter().for_each(|c| c.store(UNUSED, Relaxed));
    cells
}

/// The plain values of atomic cells no longer shared.
fn into_plain(cells: Vec<AtomicU16>) -> Vec<u16> {
    let mut cells = std::mem::ManuallyDrop::new(cells);
    // SAFETY: as in `unused_values`, the other way round; no other reference exists.
    unsafe {
        Vec::from_raw_parts(
            cells.as_mut_ptr() as *mut u16,
            cells.len(),
            cells.capacity(),
        )
    }
}
