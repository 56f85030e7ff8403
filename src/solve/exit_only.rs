//! The pass for sectors whose moves all leave them (the standard placing phase): each value
//! follows from the values of the sectors its moves lead to, with no propagation inside.
//!
//! The sector is enumerated by the *opponent's* stone set: for one opponent set `them`,
//! every placement of every position reads the successor sector in the one orbit block of
//! `them`, and every removal of a stone `r` reads the block of `them - r`. So the frames
//! (orbit and symmetry) of those blocks are computed once per opponent set, and the reads of
//! all positions sharing it stay within a few small blocks that fit in the cache, where the
//! enumeration by the side to move's set sent nearly every read to a random place in
//! gigabytes.

use super::{ExitSummary, Exits, Progress};
use crate::index::{SectorIndex, UsFrame, combinations, pdep};
use crate::rules::{Bits, FullBoard, Variant, points as bits};
use crate::value::{UNUSED, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, Ordering::Relaxed};

/// Values of every slot of the sector of `index` (no internal moves; `exits` supplied).
pub(super) fn exit_only_pass(
    v: &Variant,
    index: &SectorIndex,
    exits: &Exits,
    progress: Progress,
) -> Vec<u16> {
    let s = index.sector;
    let board = v.board();
    let full = board.full();
    let syms = &index.tables.syms;
    let them_orbits = index.tables.orbits(s.b as u32);
    let n = board.len() as u32;
    let us_sets = combinations(n - s.b as u32, s.w as u32);
    let slots = index.slots();
    let values = unused_values(slots as usize);
    let orbit_count = them_orbits.len() as u64;
    (0..them_orbits.len() as u32)
        .into_par_iter()
        .for_each(|orbit| {
            let them = them_orbits.rep(orbit);
            let them_stab = them_orbits.stabilizer(orbit);
            let free = full & !them;
            let removable = if them == 0 {
                0
            } else {
                board.removable(them, v.remove_from_mills)
            };
            // Frames of the successor blocks: placements read the block of `them`, removals
            // the block of `them` less the removed stone.
            let place = exits.place.as_ref().map(|t| (t, t.index.frame(them)));
            let removals: Vec<UsFrame> = match &exits.place_removal {
                Some(t) => bits(removable)
                    .map(|r| t.index.frame(them & !(1 << r)))
                    .collect(),
                None => Vec::new(),
            };
            for &combo in us_sets {
                let us = pdep(combo, free);
                // With a symmetric `them`, visit each position once: the smallest image of
                // `us` under the symmetries fixing `them`.
                if them_stab != 0 && is_not_smallest_image(syms, them_stab, us) {
                    continue;
                }
                let empty = free & !us;
                let value = if empty == 0 {
                    // No move: the full-board rule, else the side to move has lost.
                    if v.full_board == FullBoard::Draw {
                        Value::Draw
                    } else {
                        Value::Loss(0)
                    }
                } else {
                    let mut ex = ExitSummary::default();
                    for to in bits(empty) {
                        let placed = us | 1 << to;
                        if them != 0 && board.in_mill(placed, to) {
                            match &exits.place_removal {
                                None => ex.win(1),
                                Some(t) => {
                                    for frame in &removals {
                                        let mapped = syms.apply(frame.sym, placed);
                                        ex.note(
                                            t.values[t.index.slot_in_frame(frame, mapped) as usize],
                                        );
                                    }
                                }
                            }
                        } else if let Some((t, frame)) = &place {
                            let mapped = syms.apply(frame.sym, placed);
                            ex.note(t.values[t.index.slot_in_frame(frame, mapped) as usize]);
                        }
                    }
                    ex.value()
                };
                values[index.slot(us, them) as usize].store(value.encode(), Relaxed);
            }
            // Progress units: twice the slot count over the whole pass.
            let o = orbit as u64;
            progress(2 * slots * (o + 1) / orbit_count - 2 * slots * o / orbit_count);
        });
    into_plain(values)
}

/// Is some image of `us` under the symmetries in `stab` (a bit mask) smaller than `us`?
#[inline]
fn is_not_smallest_image(syms: &crate::index::SymmetryTables, mut stab: u16, us: Bits) -> bool {
    while stab != 0 {
        let sym = stab.trailing_zeros() as usize;
        stab &= stab - 1;
        if syms.apply(sym, us) < us {
            return true;
        }
    }
    false
}

/// `len` atomic values, all [`UNUSED`], on huge pages where the kernel allows (they are
/// written at random).
fn unused_values(len: usize) -> Vec<AtomicU16> {
    let zeros = vec![0u16; len];
    crate::memory::advise_huge_pages(&zeros);
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
