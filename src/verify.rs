//! Independent forward verification: re-derive each stored value from the stored values of
//! its successors, using the plain move rules (no un-moves, no counters).

use crate::index::{Sector, SectorIndex, next_combination, pdep};
use crate::rules::{Bits, FullBoard, MIN_STONES, Variant};
use crate::value::{UNUSED, Value};
use rayon::prelude::*;

/// Values of a sector and of every sector its moves lead to.
pub trait ValueLookup: Sync {
    /// Stored value code of slot `slot` of `sector`, or `None` if that sector is unavailable.
    fn code(&self, sector: Sector, slot: u64) -> Option<u16>;
}

/// The value a position must have given its successors' values (each from the successor's
/// side to move); `no_move` is the value when there are no moves at all.
pub fn best_of(successors: impl Iterator<Item = Value>, no_move: Value) -> Value {
    let mut any = false;
    let mut best_win: Option<u16> = None;
    let mut worst_loss = 0u16;
    let mut draw = false;
    for s in successors {
        any = true;
        match s {
            Value::Loss(k) => best_win = Some(best_win.map_or(k + 1, |b| b.min(k + 1))),
            Value::Win(k) => worst_loss = worst_loss.max(k + 1),
            Value::Draw => draw = true,
        }
    }
    if !any {
        no_move
    } else if let Some(n) = best_win {
        Value::Win(n)
    } else if draw {
        Value::Draw
    } else {
        Value::Loss(worst_loss)
    }
}

/// A disagreement found by [`verify_sector`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The stored value differs from the one its successors give.
    Value {
        /// The slot.
        slot: u64,
        /// What the file says.
        stored: Option<Value>,
        /// What the successors say.
        derived: Value,
    },
    /// A successor's sector is not available.
    MissingSector(Sector),
    /// A used slot holds the unused marker, or an unused slot holds a value.
    Usage(u64),
}

/// Re-derive every value of `sector`; returns the number of positions checked and up to
/// `max_report` mismatches (and their total count).
pub fn verify_sector(
    v: &Variant,
    sector: Sector,
    lookup: &dyn ValueLookup,
    max_report: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> (u64, u64, Vec<Mismatch>) {
    let index = SectorIndex::new(v, sector);
    let board = v.board();
    let full = board.full();
    let orbits = index.us_orbits;
    let per_orbit = index.per_orbit;
    let s = sector;
    let code_of = |sec: Sector, us: Bits, them: Bits| -> Result<Value, Mismatch> {
        if sec.w + sec.wf < MIN_STONES {
            return Ok(Value::Loss(0));
        }
        let idx = SectorIndex::new(v, sec);
        let slot = idx.slot(us, them);
        let code = lookup.code(sec, slot).ok_or(Mismatch::MissingSector(sec))?;
        Value::decode(code).ok_or(Mismatch::Usage(slot))
    };
    let results: Vec<(u64, u64, Vec<Mismatch>)> = (0..orbits.len() as u32)
        .into_par_iter()
        .map(|orbit| {
            let us = orbits.rep(orbit);
            let free = full & !us;
            let mut combo: Bits = (1u32 << s.b) - 1;
            let (mut checked, mut bad, mut report) = (0u64, 0u64, Vec::new());
            let note = |m: Mismatch, bad: &mut u64, report: &mut Vec<Mismatch>| {
                *bad += 1;
                if report.len() < max_report {
                    report.push(m);
                }
            };
            for rank in 0..per_orbit {
                let slot = orbit as u64 * per_orbit as u64 + rank as u64;
                let them = pdep(combo, free);
                combo = next_combination(combo);
                let stored_code = lookup.code(s, slot).unwrap_or(UNUSED);
                let used = index.position(slot).is_some();
                if !used {
                    if stored_code != UNUSED {
                        note(Mismatch::Usage(slot), &mut bad, &mut report);
                    }
                    continue;
                }
                checked += 1;
                let mut succ = Vec::new();
                let mut failure = None;
                let mut push = |sec: Sector, u: Bits, t: Bits| match code_of(sec, u, t) {
                    Ok(val) => succ.push(val),
                    Err(m) => failure = Some(m),
                };
                let empty = free & !them;
                let removable = board.removable(them, v.remove_from_mills);
                let mut visit = |moved: Bits, to: u8, placed: bool| {
                    let (w2, wf2) = if placed {
                        (s.w + 1, s.wf - 1)
                    } else {
                        (s.w, s.wf)
                    };
                    if them != 0 && board.in_mill(moved, to) {
                        let next = Sector::new(s.b - 1, w2, s.bf, wf2);
                        let mut r = removable;
                        while r != 0 {
                            let p = r.trailing_zeros();
                            r &= r - 1;
                            push(next, them & !(1 << p), moved);
                        }
                    } else {
                        push(Sector::new(s.b, w2, s.bf, wf2), them, moved);
                    }
                };
                if s.w > 0 && v.may_move(s.wf) {
                    let flies = v.flies(s.w, s.wf);
                    let mut from_set = us;
                    while from_set != 0 {
                        let from = from_set.trailing_zeros();
                        from_set &= from_set - 1;
                        let mut targets = if flies {
                            empty
                        } else {
                            board.adjacent(from as u8) & empty
                        };
                        while targets != 0 {
                            let to = targets.trailing_zeros();
                            targets &= targets - 1;
                            visit(us & !(1 << from) | 1 << to, to as u8, false);
                        }
                    }
                }
                if s.wf > 0 {
                    let mut targets = empty;
                    while targets != 0 {
                        let to = targets.trailing_zeros();
                        targets &= targets - 1;
                        visit(us | 1 << to, to as u8, true);
                    }
                }
                if let Some(m) = failure {
                    note(m, &mut bad, &mut report);
                    continue;
                }
                let no_move = if empty == 0 && v.full_board == FullBoard::Draw {
                    Value::Draw
                } else {
                    Value::Loss(0)
                };
                let derived = best_of(succ.into_iter(), no_move);
                let stored = Value::decode(stored_code);
                if stored != Some(derived) {
                    note(
                        Mismatch::Value {
                            slot,
                            stored,
                            derived,
                        },
                        &mut bad,
                        &mut report,
                    );
                }
            }
            progress(per_orbit as u64);
            (checked, bad, report)
        })
        .collect();
    let mut total = (0, 0, Vec::new());
    for (c, b, r) in results {
        total.0 += c;
        total.1 += b;
        for m in r {
            if total.2.len() < max_report {
                total.2.push(m);
            }
        }
    }
    total
}
