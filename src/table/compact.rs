//! Compaction: rewriting a solved sector into another directory with the positions no game
//! reaches as "don't care" (`src/reach.rs`), optionally at another zstd level or block size.
//!
//! The values of every other position are copied unchanged, and the written files are read
//! back and compared with what was meant to be written before the sector counts as done.

use super::removal::{NO_REMOVAL, for_each_removal, symbol_rank};
use super::writer::{Fill, WriteOptions, write_sector_lowering};
use super::{
    FileKind, SYMBOL_DRAW, SYMBOL_WIN, TableError, TableSet, for_each_orbit_run, sector_status,
    symbols_of, unreachable_in_run,
};
use crate::graph::MoveSectors;
use crate::index::{Sector, SectorIndex};
use crate::reach::ReachFilter;
use crate::rules::{Bits, MIN_STONES};
use crate::value::{NMoveRule, UNUSED, Value};
use rayon::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

/// What [`compact_sector`] did to one sector.
#[derive(Clone, Debug, PartialEq)]
pub struct CompactReport {
    /// The sector.
    pub sector: Sector,
    /// Positions with a stored value before.
    pub positions_before: u64,
    /// Positions with a stored value after (reachable ones by the criterion).
    pub positions_after: u64,
    /// Size of the source WDL file in bytes.
    pub wdl_before: u64,
    /// Size of the written WDL file in bytes.
    pub wdl_after: u64,
    /// Size of the source distance file in bytes.
    pub distance_before: u64,
    /// Size of the written distance file in bytes.
    pub distance_after: u64,
    /// Time taken (reading, rewriting, reading back).
    pub elapsed: Duration,
}

/// Set the value of every used slot of `sector` that [`ReachFilter`] proves unreachable to
/// [`UNUSED`]; returns how many were set (slots already unused are not counted).
fn mask_unreachable(src: &TableSet, sector: Sector, values: &mut [u16]) -> u64 {
    let v = src.variant();
    let Some(filter) = ReachFilter::new(v, sector) else {
        return 0;
    };
    let index = SectorIndex::new(v, sector);
    const CHUNK: usize = 1 << 16;
    values
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let start = (c * CHUNK) as u64;
            let mut flags = Vec::new();
            let mut masked = 0u64;
            for_each_orbit_run(&index, start..start + chunk.len() as u64, |run, _| {
                unreachable_in_run(&index, &filter, run.clone(), &mut flags);
                for (k, slot) in run.enumerate() {
                    let value = &mut chunk[(slot - start) as usize];
                    if flags[k] && *value != UNUSED {
                        *value = UNUSED;
                        masked += 1;
                    }
                }
            });
            masked
        })
        .sum()
}

/// Per slot of `sector`: the best rank (win 1, draw 0, loss −1) among the removing moves at
/// counter 0 (`super::removal`), [`NO_REMOVAL`] where there is none or the slot has no value
/// (`values`: the true values with [`UNUSED`] at don't-care slots). The values of the
/// sectors removals lead to are read whole from `src`.
fn best_removals(
    src: &TableSet,
    sector: Sector,
    values: &[u16],
    rule: NMoveRule,
) -> Result<Vec<i8>, TableError> {
    let v = *src.variant();
    let moves = MoveSectors::of(&v, sector);
    let load = |t: Option<Sector>| -> Result<Option<(Sector, SectorIndex, Vec<u16>)>, TableError> {
        match t.filter(|t| t.w + t.wf >= MIN_STONES) {
            Some(t) => Ok(Some((t, SectorIndex::new(&v, t), src.read_values(t)?))),
            None => Ok(None),
        }
    };
    let targets = [load(moves.place_removal)?, load(moves.slide_removal)?];
    // The rank for the side moving into `to`'s position (`us`, `them`): the negated rank of
    // that position's value; `None` for a slot without a value.
    let rank_into = |to: Sector, us: Bits, them: Bits| -> Option<i8> {
        let (_, index, vals) = targets.iter().flatten().find(|(t, _, _)| *t == to)?;
        let value = Value::decode(vals[index.slot(us, them) as usize])?;
        Some(-symbol_rank(symbols_of(value, rule).0))
    };
    let index = SectorIndex::new(&v, sector);
    let mut best = vec![NO_REMOVAL; values.len()];
    const CHUNK: usize = 1 << 16;
    best.par_chunks_mut(CHUNK)
        .zip(values.par_chunks(CHUNK))
        .enumerate()
        .try_for_each(|(c, (best, values))| {
            let first = (c * CHUNK) as u64;
            for (k, (best, &code)) in best.iter_mut().zip(values).enumerate() {
                if code == UNUSED {
                    continue;
                }
                let (us, them) = index.position_of_used(first + k as u64);
                let mut missing = None;
                for_each_removal(&v, sector, us, them, |to, next_us, next_them| {
                    let rank = match to {
                        None => Some(1),
                        Some(to) => rank_into(to, next_us, next_them),
                    };
                    match rank {
                        Some(r) => *best = (*best).max(r),
                        None => missing = Some(to),
                    }
                    *best == 1 || missing.is_some()
                });
                if let Some(to) = missing {
                    return Err(TableError::InvalidInput(format!(
                        "sector {sector}: a removal from slot {} leads to a position without \
                         a value in sector {}",
                        first + k as u64,
                        to.map_or_else(|| "-".to_string(), |t| t.to_string())
                    )));
                }
            }
            Ok(())
        })?;
    Ok(best)
}

/// One bit per slot: set where the true symbol (of `values`) is a win or a plain draw and
/// the best removal (`best`) reaches it, so that the writer may store a lower symbol there.
fn lowerable_slots(values: &[u16], best: &[i8], rule: NMoveRule) -> Vec<u64> {
    let mut set = vec![0u64; values.len().div_ceil(64)];
    set.par_iter_mut().enumerate().for_each(|(w, word)| {
        for k in 0..64 {
            let slot = w * 64 + k;
            let (Some(&code), Some(&r)) = (values.get(slot), best.get(slot)) else {
                break;
            };
            let Some(value) = Value::decode(code) else {
                continue;
            };
            let truth = symbols_of(value, rule).0;
            if (truth == SYMBOL_WIN || truth == SYMBOL_DRAW) && r == symbol_rank(truth) {
                *word |= 1 << k;
            }
        }
    });
    set
}

/// Rewrite `sector` of `src` into `out` (another directory) with the positions no game
/// reaches as "don't care", compressed with `options.level` (distance file:
/// `options.distance_level`) in blocks of `options.block_slots`, WDL symbols in
/// `options.wdl_layout`, "don't care" symbols chosen by context (the rule is the source's;
/// `options.rule` and `options.unreachable_dont_care` are ignored). With `options.removal_dont_care` the WDL
/// file also stores removal don't-care symbols (docs/FORMAT.md, flag bit 1); then the sectors
/// that removals from `sector` lead to must already be in `out`, as the read-back resolves
/// through them. The files are written atomically, then read back and compared with the
/// values meant: a difference is an error and the written files are removed.
pub fn compact_sector(
    src: &TableSet,
    out: &Path,
    sector: Sector,
    options: &WriteOptions,
) -> Result<CompactReport, TableError> {
    let start = Instant::now();
    let v = *src.variant();
    let header = src.header(sector, FileKind::Wdl)?;
    let rule = NMoveRule::new(header.n_move_rule).unwrap_or_default();
    let size = |kind| -> Result<u64, TableError> {
        let path = super::table_path(src.dir(), sector, kind);
        std::fs::metadata(&path)
            .map(|m| m.len())
            .map_err(|error| TableError::Io { path, error })
    };
    let (wdl_before, distance_before) = (size(FileKind::Wdl)?, size(FileKind::Distance)?);
    let mut values = src.read_values(sector)?;
    let positions_before = values.par_iter().filter(|&&x| x != UNUSED).count() as u64;
    mask_unreachable(src, sector, &mut values);
    let best = if options.removal_dont_care {
        Some(best_removals(src, sector, &values, rule)?)
    } else {
        None
    };
    let lowerable = best.as_ref().map(|b| lowerable_slots(&values, b, rule));
    let options = WriteOptions {
        rule,
        unreachable_dont_care: true,
        removal_dont_care: false,
        ..*options
    };
    let report = write_sector_lowering(
        out,
        &v,
        sector,
        &values,
        lowerable.as_deref(),
        Fill::Context,
        &options,
    )?;
    let check = || -> Result<(), TableError> {
        sector_status(out, &v, rule, sector)?;
        // Removal don't-care symbols are resolved with the best removals found above from
        // `src`'s tables of the sectors removals lead to; those sectors were compacted, and
        // read back equal to `src`, before this one, so the readers of `out` resolve the same.
        let set = TableSet::new(out, v).with_rule(rule).with_cache_bytes(0);
        let back = match &best {
            Some(best) => set.read_values_with_removals(sector, best)?,
            None => set.read_values(sector)?,
        };
        match back.iter().zip(&values).position(|(a, b)| a != b) {
            None => Ok(()),
            Some(slot) => Err(TableError::InvalidInput(format!(
                "sector {sector}: slot {slot} reads back as {:#06x} instead of {:#06x}",
                back[slot], values[slot]
            ))),
        }
    };
    if let Err(e) = check() {
        let _ = std::fs::remove_file(&report.wdl_path);
        let _ = std::fs::remove_file(&report.distance_path);
        return Err(e);
    }
    Ok(CompactReport {
        sector,
        positions_before,
        positions_after: report.positions,
        wdl_before,
        wdl_after: report.wdl_bytes,
        distance_before,
        distance_after: report.distance_bytes,
        elapsed: start.elapsed(),
    })
}
