//! Generation of a set of sectors into a directory: dependency closure, solving order,
//! resume (finished sectors are not redone), atomic writes, statistics and peak memory.

use crate::index::{Sector, SectorIndex};
use crate::rules::Variant;
use crate::solve::{
    SectorStats, SolveError, SolvedValues, component, dependencies, solve_component_under,
};
use crate::table::{TableError, TableSet, WriteOptions, sector_is_complete_under, write_sector};
use crate::value::NMoveRule;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The components (each named by its first sector) needed to solve `targets`, in an order
/// where every component comes after the ones it reads.
pub fn solving_order(v: &Variant, targets: &[Sector]) -> Vec<Sector> {
    fn visit(v: &Variant, s: Sector, seen: &mut HashSet<Sector>, out: &mut Vec<Sector>) {
        let key = component(v, s)
            .into_iter()
            .min()
            .expect("a component has a sector");
        if !seen.insert(key) {
            return;
        }
        for d in dependencies(v, key) {
            visit(v, d, seen, out);
        }
        out.push(key);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for &t in targets {
        visit(v, t, &mut seen, &mut out);
    }
    out
}

/// Every moving-phase sector of `v` with `w + b <= max_total` stones.
pub fn moving_sectors_up_to(v: &Variant, max_total: u8) -> Vec<Sector> {
    let mut out = Vec::new();
    for w in 3..=v.stones {
        for b in 3..=v.stones {
            let s = Sector::moving(w, b);
            if w + b <= max_total && s.fits(v) {
                out.push(s);
            }
        }
    }
    out
}

/// What happened to one component.
#[derive(Clone, Debug)]
pub struct ComponentReport {
    /// The sectors of the component.
    pub sectors: Vec<Sector>,
    /// Solved now (false: already on disk).
    pub solved: bool,
    /// Positions (used slots) of all its sectors.
    pub positions: u64,
    /// Wall time spent solving and writing.
    pub elapsed: Duration,
    /// Peak resident memory of the process while solving it, in bytes (if known).
    pub peak_memory: Option<u64>,
    /// Statistics per sector.
    pub stats: Vec<(Sector, SectorStats)>,
}

/// Events for a progress display.
pub trait GenerateObserver: Sync {
    /// The run starts: this many work units remain for the components not on disk yet.
    fn run_started(&self, _work: u64) {}
    /// Solving of a component with this many work units starts.
    fn component_started(&self, _sectors: &[Sector], _work: u64) {}
    /// Units of work done.
    fn advance(&self, _units: u64) {}
    /// A component finished (or was found on disk).
    fn component_finished(&self, _report: &ComponentReport) {}
}

/// An observer that shows nothing.
pub struct Silent;

impl GenerateObserver for Silent {}

/// Work units of a component (two per slot: forward pass and propagation).
pub fn component_work(v: &Variant, first: Sector) -> u64 {
    component(v, first)
        .iter()
        .map(|&s| 2 * SectorIndex::new(v, s).slots())
        .sum()
}

/// Why generation stopped.
#[derive(Debug)]
pub enum GenerateError {
    /// A table could not be read or written.
    Table(TableError),
    /// The solver was given inconsistent inputs.
    Solve(SolveError),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Table(e) => e.fmt(f),
            GenerateError::Solve(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<TableError> for GenerateError {
    fn from(e: TableError) -> Self {
        GenerateError::Table(e)
    }
}

impl From<SolveError> for GenerateError {
    fn from(e: SolveError) -> Self {
        GenerateError::Solve(e)
    }
}

/// Solve `targets` and everything they need into `dir` without the N-move rule, skipping
/// components already there.
pub fn generate(
    v: &Variant,
    dir: &Path,
    targets: &[Sector],
    observer: &dyn GenerateObserver,
) -> Result<Vec<ComponentReport>, GenerateError> {
    generate_under(v, dir, targets, NMoveRule::NONE, observer)
}

/// Solve `targets` and everything they need into `dir` under `rule`, skipping components
/// already there. A directory holds tables of one rule only: if it holds tables of another,
/// nothing is solved and the error names one of them.
pub fn generate_under(
    v: &Variant,
    dir: &Path,
    targets: &[Sector],
    rule: NMoveRule,
    observer: &dyn GenerateObserver,
) -> Result<Vec<ComponentReport>, GenerateError> {
    if dir.is_dir() {
        // Opening any table of another rule fails, naming it.
        TableSet::new(dir, *v).with_rule(rule).detect_rule()?;
    }
    // Which components are on disk already: checked once (it reads every file's checksums).
    let order: Vec<(Sector, bool)> = solving_order(v, targets)
        .into_iter()
        .map(|first| {
            let done = component(v, first)
                .iter()
                .all(|&s| sector_is_complete_under(dir, v, rule, s));
            (first, done)
        })
        .collect();
    observer.run_started(
        order
            .iter()
            .filter(|(_, done)| !done)
            .map(|&(first, _)| component_work(v, first))
            .sum(),
    );
    let mut reports = Vec::new();
    for (first, done) in order {
        let sectors = component(v, first);
        if done {
            let report = ComponentReport {
                sectors: sectors.clone(),
                solved: false,
                positions: 0,
                elapsed: Duration::ZERO,
                peak_memory: None,
                stats: Vec::new(),
            };
            observer.component_finished(&report);
            reports.push(report);
            continue;
        }
        let start = Instant::now();
        reset_peak_memory();
        let mut deps = SolvedValues::new();
        // A fresh set per component: files written since are read as they are now.
        let tables = TableSet::new(dir, *v).with_cache_bytes(0).with_rule(rule);
        for d in dependencies(v, first) {
            deps.insert(d, Arc::new(tables.read_values(d)?));
        }
        observer.component_started(&sectors, component_work(v, first));
        let advance = |n| observer.advance(n);
        let solved = solve_component_under(v, first, &deps, rule, &advance)?;
        drop(deps);
        let mut stats = Vec::new();
        for s in &solved {
            let options = WriteOptions {
                rule,
                ..WriteOptions::default()
            };
            write_sector(dir, v, s.sector, &s.values, &options)?;
            stats.push((s.sector, SectorStats::of_under(&s.values, rule)));
        }
        let report = ComponentReport {
            sectors,
            solved: true,
            positions: stats.iter().map(|(_, s)| s.positions).sum(),
            elapsed: start.elapsed(),
            peak_memory: peak_memory(),
            stats,
        };
        observer.component_finished(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// Reset the kernel's record of this process's peak resident memory (Linux; no-op elsewhere).
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Peak resident memory of this process in bytes since the last reset (Linux).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
