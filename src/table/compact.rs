//! Compaction: rewriting a solved sector into another directory with the positions no game
//! reaches as "don't care" (`src/sector/reach.rs`), optionally at another zstd level or block size.
//!
//! The values of every other position are copied unchanged, and the written files are read
//! back and compared with what was meant to be written before the sector counts as done.

use super::removal::{NO_REMOVAL, for_each_removal, symbol_rank, wdl_rank};
use super::writer::{Fill, WriteOptions, write_sector_lowering};
use super::{
    FileKind, SYMBOL_DRAW, SYMBOL_WIN, TableError, TableSet, for_each_orbit_run, sector_status,
    symbols_of, unreachable_in_run,
};
use crate::game::rules::{Bits, MIN_STONES};
use crate::game::value::{NMoveRule, UNUSED, Value};
use crate::sector::graph::MoveSectors;
use crate::sector::index::{Sector, SectorIndex};
use crate::sector::reach::ReachFilter;
use rayon::prelude::*;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
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

/// The removal targets of `sector` (the sectors its removing moves lead to, where the
/// opponent keeps three stones) with their indexes and values.
type Targets = Vec<(Sector, SectorIndex, Arc<Vec<u16>>)>;

/// What a removal leading to a slot without a value in its sector's values means to
/// [`best_removals`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum UnvaluedTarget {
    /// An error: the values of the targets are the whole truth.
    Error,
    /// Look the slot up in the source's tables, as a reader resolving the source does (the
    /// target's values hold [`UNUSED`] at its don't-care slots, which a reader still reads).
    LookUp,
}

/// Per slot of `sector` (`slots` of them): the best rank (win 1, draw 0, loss −1) among the
/// removing moves at counter 0 (`super::removal`), [`NO_REMOVAL`] where there is none or
/// `valued(slot)` is false. The ranks come from the whole values of the sectors removals
/// lead to (`targets`); `unvalued` says what a target slot without a value means. Also
/// returns whether a slot was looked up ([`UnvaluedTarget::LookUp`]).
fn best_removals(
    src: &TableSet,
    sector: Sector,
    slots: usize,
    valued: &(dyn Fn(usize) -> bool + Sync),
    targets: &Targets,
    rule: NMoveRule,
    unvalued: UnvaluedTarget,
) -> Result<(Vec<i8>, bool), TableError> {
    let v = *src.variant();
    let looked_up = AtomicBool::new(false);
    // The rank for the side moving into `to`'s position (`us`, `them`): the negated rank of
    // that position's value.
    let rank_into = |to: Sector, us: Bits, them: Bits| -> Result<i8, Option<TableError>> {
        let (_, index, vals) = targets.iter().find(|(t, _, _)| *t == to).ok_or(None)?;
        let slot = index.slot(us, them);
        if let Some(value) = Value::decode(vals[slot as usize]) {
            let in_force = rule.with_stones(&v, [to.w, to.b]);
            return Ok(-symbol_rank(symbols_of(value, in_force).0));
        }
        if unvalued == UnvaluedTarget::Error {
            return Err(None);
        }
        looked_up.store(true, Ordering::Relaxed);
        match src.wdl(to, slot) {
            Ok(Some(theirs)) => Ok(-wdl_rank(theirs)),
            Ok(None) => Err(Some(TableError::InvalidInput(format!(
                "slot {slot} of sector {to}, reached by a removal, is unused"
            )))),
            Err(e) => Err(Some(e)),
        }
    };
    let index = SectorIndex::new(&v, sector);
    let mut best = vec![NO_REMOVAL; slots];
    const CHUNK: usize = 1 << 16;
    best.par_chunks_mut(CHUNK)
        .enumerate()
        .try_for_each(|(c, best)| {
            let first = c * CHUNK;
            for (k, best) in best.iter_mut().enumerate() {
                if !valued(first + k) {
                    continue;
                }
                let (us, them) = index.position_of_used((first + k) as u64);
                let mut failed = None;
                for_each_removal(&v, sector, us, them, |to, next_us, next_them| {
                    let rank = match to {
                        None => Ok(1),
                        Some(to) => rank_into(to, next_us, next_them),
                    };
                    match rank {
                        Ok(r) => *best = (*best).max(r),
                        Err(e) => failed = Some((to, e)),
                    }
                    *best == 1 || failed.is_some()
                });
                match failed {
                    None => {}
                    Some((_, Some(e))) => return Err(e),
                    Some((to, None)) => {
                        return Err(TableError::InvalidInput(format!(
                            "sector {sector}: a removal from slot {} leads to a position \
                             without a value in sector {}",
                            first + k,
                            to.map_or_else(|| "-".to_string(), |t| t.to_string())
                        )));
                    }
                }
            }
            Ok(())
        })?;
    Ok((best, looked_up.into_inner()))
}

/// The tables a compaction reads (see [`compact_sector_from`]), read a whole sector at a
/// time. A sector whose WDL file stores removal don't-care symbols (written by
/// `compact --removal-dont-care`) is resolved as a reader resolves it, but with the best
/// removal of every slot computed from the whole values of the sectors its removals lead to
/// (resolved the same way, recursively), not with a look-up per slot. Such resolved sectors
/// are kept, up to a number of bytes (the least recently used go first), for the sectors
/// whose removals lead to them.
pub struct CompactSource<'a> {
    tables: Source<'a>,
    budget: usize,
    kept: Mutex<VecDeque<(Sector, Arc<Vec<u16>>)>>,
}

/// The tables a [`CompactSource`] reads: borrowed, or its own.
enum Source<'a> {
    Borrowed(&'a TableSet),
    Owned(TableSet),
}

impl<'a> CompactSource<'a> {
    /// Read `tables`, keeping up to about `budget_bytes` of resolved sectors.
    pub fn new(tables: &'a TableSet, budget_bytes: usize) -> CompactSource<'a> {
        CompactSource {
            tables: Source::Borrowed(tables),
            budget: budget_bytes,
            kept: Mutex::new(VecDeque::new()),
        }
    }

    /// [`CompactSource::new`] owning the tables.
    pub fn owning(tables: TableSet, budget_bytes: usize) -> CompactSource<'static> {
        CompactSource {
            tables: Source::Owned(tables),
            budget: budget_bytes,
            kept: Mutex::new(VecDeque::new()),
        }
    }

    /// The tables read.
    pub fn tables(&self) -> &TableSet {
        match &self.tables {
            Source::Borrowed(t) => t,
            Source::Owned(t) => t,
        }
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, VecDeque<(Sector, Arc<Vec<u16>>)>> {
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The kept values of `sector`, now the most recently used; removed if `take`.
    fn find(&self, sector: Sector, take: bool) -> Option<Arc<Vec<u16>>> {
        let mut kept = self.kept();
        let i = kept.iter().position(|(s, _)| *s == sector)?;
        let entry = kept.remove(i)?;
        let values = entry.1.clone();
        if !take {
            kept.push_back(entry);
        }
        Some(values)
    }

    /// Keep `values` of `sector` if they fit the budget, dropping the least recently used.
    fn keep(&self, sector: Sector, values: Arc<Vec<u16>>) {
        let bytes = |v: &Vec<u16>| v.len() * 2;
        if bytes(&values) > self.budget {
            return;
        }
        let mut kept = self.kept();
        kept.retain(|(s, _)| *s != sector);
        kept.push_back((sector, values));
        while kept.iter().map(|(_, v)| bytes(v)).sum::<usize>() > self.budget {
            kept.pop_front();
        }
    }

    /// Every value of `sector` as a reader of the tables resolves it ([`UNUSED`] at unused
    /// and don't-care slots), kept or read.
    fn values(&self, sector: Sector) -> Result<Arc<Vec<u16>>, TableError> {
        if let Some(values) = self.find(sector, false) {
            return Ok(values);
        }
        let (values, best) = self.read(sector)?;
        let values = Arc::new(values);
        if best.is_some() {
            self.keep(sector, values.clone());
        }
        Ok(values)
    }

    /// [`CompactSource::values`] to own (a kept copy is no longer kept).
    fn take(&self, sector: Sector) -> Result<(Vec<u16>, Option<Resolution>), TableError> {
        match self.find(sector, true) {
            Some(values) => Ok((Arc::unwrap_or_clone(values), None)),
            None => self.read(sector),
        }
    }

    /// The removal targets of `sector` and their values.
    fn targets(&self, sector: Sector) -> Result<Targets, TableError> {
        let v = *self.tables().variant();
        let moves = MoveSectors::of(&v, sector);
        moves
            .taking()
            .filter(|t| t.w + t.wf >= MIN_STONES)
            .map(|t| Ok((t, SectorIndex::new(&v, t), self.values(t)?)))
            .collect()
    }

    /// Read `sector` whole; for a sector with removal don't-care symbols, also the best
    /// removals that resolved them.
    fn read(&self, sector: Sector) -> Result<(Vec<u16>, Option<Resolution>), TableError> {
        let src = self.tables();
        if !src.removal_dont_care_of(sector)? {
            return Ok((src.read_values(sector)?, None));
        }
        let rule = src.rule().unwrap_or_default();
        let valued = valued_slots(src, sector)?;
        let targets = self.targets(sector)?;
        let (best, looked_up) = best_removals(
            src,
            sector,
            src.index(sector)?.slots() as usize,
            &|slot| valued[slot / 64] >> (slot % 64) & 1 != 0,
            &targets,
            rule,
            UnvaluedTarget::LookUp,
        )?;
        drop(targets);
        let values = src.read_values_with_removals(sector, &best)?;
        Ok((values, Some(Resolution { best, looked_up })))
    }
}

/// The best removals that resolved a sector's removal don't-care symbols.
struct Resolution {
    /// Per slot (see [`best_removals`]).
    best: Vec<i8>,
    /// Whether a removal led to a don't-care slot of its sector, which was looked up.
    looked_up: bool,
}

/// One bit per slot of `sector`: set where a reader of `src` reads a value (a used slot, not
/// "don't care" as unreachable in a file that has such slots).
fn valued_slots(src: &TableSet, sector: Sector) -> Result<Vec<u64>, TableError> {
    let index = src.index(sector)?;
    let filter = if src.unreachable_dont_care(sector)? {
        ReachFilter::new(src.variant(), sector)
    } else {
        None
    };
    let slots = index.slots();
    let mut bits = vec![0u64; slots.div_ceil(64) as usize];
    const WORDS: usize = 1 << 10;
    bits.par_chunks_mut(WORDS)
        .enumerate()
        .for_each(|(c, words)| {
            let start = (c * WORDS * 64) as u64;
            let end = (start + words.len() as u64 * 64).min(slots);
            let mut unreachable = Vec::new();
            for_each_orbit_run(index, start..end, |run, all| {
                if let Some(f) = &filter {
                    unreachable_in_run(index, f, run.clone(), &mut unreachable);
                }
                for slot in run.clone() {
                    if unreachable.get((slot - run.start) as usize) == Some(&true)
                        || (!all && index.position(slot).is_none())
                    {
                        continue;
                    }
                    let k = (slot - start) as usize;
                    words[k / 64] |= 1 << (k % 64);
                }
            });
        });
    Ok(bits)
}

/// One bit per slot: set where the true symbol (of `values`, under `rule`, the rule in force
/// in their sector) is a win or a plain draw and the best removal (`best`) reaches it, so that the writer may store a lower symbol there.
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
///
/// A source with removal don't-care symbols is resolved a whole sector at a time, from the
/// whole resolved values of the sectors its removals lead to (`millbase compact` also keeps
/// resolved sectors from one sector to the next).
///
/// # Errors
///
/// The [file errors](crate::format::TableSet#errors) of the source's files of `sector` (and of the sectors
/// its removals lead to, for a source with removal don't-care symbols), and [`TableError::Io`] if
/// their sizes cannot be read; the errors of [`crate::format::write_sector`] for `options` and the files
/// written in `out`; with `options.removal_dont_care`, the errors of reading the sectors removals
/// lead to in `out`, and [`TableError::InvalidInput`] if a removal leads to a position without a
/// value or the rules are `repeated-mills=restricted`; [`TableError::InvalidInput`] if the files read back differ from the values meant (they
/// are removed then).
pub fn compact_sector(
    src: &TableSet,
    out: &Path,
    sector: Sector,
    options: &WriteOptions,
) -> Result<CompactReport, TableError> {
    compact_sector_from(
        &CompactSource::new(src, super::reader::DEFAULT_CACHE_BYTES),
        out,
        sector,
        options,
    )
}

/// [`compact_sector`] reading the source through `source`, which keeps the sectors it
/// resolved for the next calls.
///
/// # Errors
///
/// As [`compact_sector`].
pub fn compact_sector_from(
    source: &CompactSource,
    out: &Path,
    sector: Sector,
    options: &WriteOptions,
) -> Result<CompactReport, TableError> {
    let start = Instant::now();
    let src = source.tables();
    let v = *src.variant();
    if options.removal_dont_care && v.repeated_mills_restricted {
        return Err(TableError::InvalidInput(format!(
            "removal don't-care symbols need the values after each removal, which under \
             repeated-mills=restricted depend on the bar the mill leaves (variant {})",
            v.label()
        )));
    }
    if options.removal_dont_care
        && v.removes_from_hand()
        && crate::sector::graph::follows_placing_rules(&v, sector)
    {
        return Err(TableError::InvalidInput(format!(
            "removal don't-care symbols of sector {sector} are not written: a placement's mill \
             takes from the opponent's hand (placing-mill={}, variant {})",
            v.rule("placing-mill").unwrap_or_default(),
            v.label()
        )));
    }
    if options.removal_dont_care && MoveSectors::of(&v, sector).place_again {
        return Err(TableError::InvalidInput(format!(
            "removal don't-care symbols of sector {sector} are not written: its last \
             placement leaves the mover to move again (moving-first=black, variant {})",
            v.label()
        )));
    }
    let header = src.header(sector, FileKind::Wdl)?;
    let rule = NMoveRule::new(header.n_move_rule).unwrap_or_default();
    let size = |kind| -> Result<u64, TableError> {
        let path = super::table_path(src.dir(), sector, kind);
        std::fs::metadata(&path)
            .map(|m| m.len())
            .map_err(|error| TableError::Io { path, error })
    };
    let (wdl_before, distance_before) = (size(FileKind::Wdl)?, size(FileKind::Distance)?);
    let (mut values, resolution) = source.take(sector)?;
    let positions_before = values.par_iter().filter(|&&x| x != UNUSED).count() as u64;
    let masked = mask_unreachable(src, sector, &mut values);
    let best = if options.removal_dont_care {
        Some(match resolution {
            // The best removals that resolved the source are those of the values (where
            // the source has a value, and nothing was masked since), unless a removal led
            // to a don't-care slot, which the values do not hold.
            Some(r) if masked == 0 && !r.looked_up => r.best,
            _ => {
                let targets = source.targets(sector)?;
                let valued = |slot: usize| values[slot] != UNUSED;
                let (best, _) = best_removals(
                    src,
                    sector,
                    values.len(),
                    &valued,
                    &targets,
                    rule,
                    UnvaluedTarget::Error,
                )?;
                best
            }
        })
    } else {
        None
    };
    let in_force = rule.with_stones(&v, [sector.w, sector.b]);
    let lowerable = best.as_ref().map(|b| lowerable_slots(&values, b, in_force));
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
    drop(lowerable);
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
    drop(best);
    // The source's values of a sector it stores with removal don't-care symbols, for the
    // sectors whose removals lead here (unless masking changed them).
    if masked == 0 && src.removal_dont_care_of(sector)? {
        source.keep(sector, Arc::new(values));
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
