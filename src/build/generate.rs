//! Generation of a set of sectors into a directory: dependency closure, solving order,
//! resume (finished sectors are not redone), atomic writes, statistics and peak memory.

use crate::build::lock::ComponentLock;
use crate::build::plan::SolveMemory;
use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use crate::sector::graph::{Component, solving_order, unsupported_in};
use crate::sector::index::{Sector, SectorIndex};
use crate::solve::{SectorStats, SolveError, SolveOptions, solve_component};
use crate::table::{
    Corruption, FileKind, TableDir, TableError, TableSet, WriteOptions, is_temporary_of,
    sector_is_complete_under, sector_status, table_path, write_sector,
};
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What happened to one component.
#[derive(Clone, Debug)]
pub struct ComponentReport {
    /// The component.
    pub component: Component,
    /// Solved now (false: already on disk).
    pub solved: bool,
    /// Not solved now because another process sharing the directory solved it while this
    /// one waited for the component's lock ([`ComponentLock`]).
    pub by_other_process: bool,
    /// Why a component that had files on disk was solved again: for each such sector, the
    /// problem with its files (a missing half, a damaged file), naming the file.
    pub repaired: Vec<String>,
    /// Positions (used slots) of all its sectors.
    pub positions: u64,
    /// Wall time spent solving and writing.
    pub elapsed: Duration,
    /// Peak resident memory of the process while solving it, in bytes (if known).
    pub peak_memory: Option<u64>,
    /// The working cells were kept in a scratch file ([`GenerateOptions::max_memory`]).
    pub spilled: bool,
    /// Statistics per sector.
    pub stats: Vec<(Sector, SectorStats)>,
}

/// Events for a progress display.
pub trait GenerateObserver: Sync {
    /// The run starts: this many work units remain for the components not on disk yet.
    fn run_started(&self, _work: u64) {}
    /// Another process (`holder`: its process id, if known) holds the lock of the component:
    /// this one waits for it, then uses the component if it is complete.
    fn component_waiting(&self, _component: &Component, _holder: Option<u32>) {}
    /// Solving of a component with this many work units starts.
    fn component_started(&self, _component: &Component, _work: u64) {}
    /// Units of work done.
    fn advance(&self, _units: u64) {}
    /// A component finished (or was found on disk).
    fn component_finished(&self, _report: &ComponentReport) {}
}

/// An observer that shows nothing (the default [`GenerateOptions::observer`]).
pub struct Silent;

impl GenerateObserver for Silent {}

/// Work units of a component (two per slot: forward pass and propagation).
pub fn component_work(v: &Variant, c: &Component) -> u64 {
    c.sectors()
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
    /// The directory holds a table of another variant (or of other rules, or solved under
    /// another N-move rule): nothing is written into it. The error names the file and both
    /// variants (or both rules).
    OtherVariant(TableError),
    /// [`generate`] was asked for the named components alone ([`GenerateOptions::no_deps`])
    /// and their dependencies are not complete in the directory: each such sector, with what
    /// is wrong with its files.
    MissingDependencies {
        /// The table directory.
        dir: std::path::PathBuf,
        /// The dependencies that are missing or damaged, and why (naming the file).
        problems: Vec<(Sector, String)>,
    },
    /// The rules have options that tables do not follow yet
    /// ([`Variant::unsupported_by_tables`]): nothing is solved or written.
    UnsupportedRules {
        /// The variant's label.
        variant: String,
        /// The options, as `key=value`.
        rules: Vec<String>,
        /// A sector of the placing phase that the run needs, when only the placing phase's
        /// tables are refused ([`Variant::unsupported_in_placing`]); `None`: every table.
        placing: Option<Sector>,
    },
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenerateError::Table(e) => e.fmt(f),
            GenerateError::Solve(e) => e.fmt(f),
            GenerateError::OtherVariant(e) => write!(
                f,
                "{e} (a directory holds the tables of one variant and one N-move rule: choose \
                 another directory)"
            ),
            GenerateError::MissingDependencies { dir, problems } => {
                let names: Vec<String> = problems.iter().map(|(s, _)| s.to_string()).collect();
                write!(
                    f,
                    "{} dependenc{} not solved in {} (solve {} first, or leave out --no-deps): ",
                    problems.len(),
                    if problems.len() == 1 {
                        "y is"
                    } else {
                        "ies are"
                    },
                    dir.display(),
                    names.join(" ")
                )?;
                let why: Vec<&str> = problems.iter().map(|(_, w)| w.as_str()).collect();
                write!(f, "{}", why.join("; "))
            }
            GenerateError::UnsupportedRules {
                variant,
                rules,
                placing: None,
            } => write!(
                f,
                "tables are not available for these rules yet: {} (variant {variant})",
                rules.join(", ")
            ),
            GenerateError::UnsupportedRules {
                variant,
                rules,
                placing: Some(s),
            } => write!(
                f,
                "tables of the placing phase (sector {s}) are not available for these rules \
                 yet: {} (variant {variant}); the moving phase's are: generate the default \
                 set or name moving-phase sectors",
                rules.join(", ")
            ),
        }
    }
}

/// The wrapped [`TableError`] or [`SolveError`] is the error's source.
impl std::error::Error for GenerateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GenerateError::Table(e) | GenerateError::OtherVariant(e) => Some(e),
            GenerateError::Solve(e) => Some(e),
            GenerateError::MissingDependencies { .. } | GenerateError::UnsupportedRules { .. } => {
                None
            }
        }
    }
}

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

/// How [`generate`] solves and writes, and whom it tells.
#[derive(Clone, Copy)]
pub struct GenerateOptions<'a> {
    /// The N-move rule (none by default). A directory holds tables of one rule only.
    pub rule: NMoveRule,
    /// Leave the positions no game reaches (`reach`) unsolved and store them as
    /// "don't care" (faster, smaller tables; such positions cannot be probed).
    pub skip_unreachable: bool,
    /// Memory allowed for a component's solve, bytes: a component whose working memory
    /// (its cells and exit tables) exceeds it keeps its cells in a memory-mapped scratch file in
    /// the table directory ([`SolveOptions::spill_dir`]) instead of failing for lack of
    /// memory. `None` (the default): no limit.
    pub max_memory: Option<u64>,
    /// Solve exactly the components of the targets, in solving order, reading the tables
    /// of everything else they depend on from the directory, which must hold them complete
    /// (the worker of a cluster workflow: `millbase generate --no-deps`). False (the
    /// default): solve the targets and everything they need that is not there yet.
    pub no_deps: bool,
    /// Told of the run's progress ([`Silent`] by default).
    pub observer: &'a dyn GenerateObserver,
}

impl Default for GenerateOptions<'_> {
    fn default() -> Self {
        GenerateOptions {
            rule: NMoveRule::NONE,
            skip_unreachable: false,
            max_memory: None,
            no_deps: false,
            observer: &Silent,
        }
    }
}

impl std::fmt::Debug for GenerateOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenerateOptions")
            .field("rule", &self.rule)
            .field("skip_unreachable", &self.skip_unreachable)
            .field("max_memory", &self.max_memory)
            .field("no_deps", &self.no_deps)
            .finish_non_exhaustive()
    }
}

/// Solve `targets` and everything they need into `dir` (created if needed), skipping
/// components already there; with [`GenerateOptions::no_deps`], exactly the components of
/// `targets`, each of their other dependencies read from `dir`. Each component is solved
/// under its lock ([`ComponentLock`]), so that processes sharing `dir` never solve one twice:
/// a process that finds a component locked waits, then keeps what the other one wrote. A
/// component with some files on disk that are not complete (a missing half, a damaged file)
/// is solved again, and its report says why ([`ComponentReport::repaired`]); a table of
/// another N-move rule is an error naming it (a directory holds tables of one rule only), and
/// so is a table of another variant ([`GenerateError::OtherVariant`], before anything is
/// written).
///
/// # Errors
///
/// [`GenerateError::Table`] with [`TableError::Io`] naming the file or directory if `dir` cannot be
/// created or listed, a lock or table file cannot be written, or a dependency cannot be read back;
/// [`GenerateError::OtherVariant`] if `dir` holds a table of another variant or of other rules
/// (nothing is written then); [`GenerateError::Table`] with [`TableError::Corrupt`] and
/// [`Corruption::OtherNMoveRule`] if it holds a table of another N-move rule than `options.rule`
/// ([`Corruption::OtherEndgameRule`]: of another endgame N-move rule than `v` gives under it);
/// [`GenerateError::Solve`] with [`SolveError::Spill`] if a component over
/// [`GenerateOptions::max_memory`] cannot get its scratch file; with
/// [`GenerateOptions::no_deps`], [`GenerateError::MissingDependencies`] if a dependency outside
/// the named components is missing or damaged in `dir` (nothing is solved then), naming each
/// file and what is wrong; [`GenerateError::UnsupportedRules`] for rules that tables do not
/// follow yet ([`Variant::unsupported_by_tables`], and for a run that needs a sector of the
/// placing phase [`Variant::unsupported_in_placing`]), before `dir` is touched. Components
/// finished before the error stay on disk, and a later run resumes after them.
pub fn generate(
    v: &Variant,
    dir: &Path,
    targets: &[Sector],
    options: &GenerateOptions<'_>,
) -> Result<Vec<ComponentReport>, GenerateError> {
    check_rules(v, targets, options.no_deps)?;
    let mut order = solving_order(v, targets);
    if options.no_deps {
        order.retain(|c| c.sectors().iter().any(|s| targets.contains(s)));
    }
    prepare_dir(dir)?;
    refuse_other_variant(v, dir, options.rule)?;
    refuse_other_rule(TableSet::new(dir, *v).with_rule(options.rule).detect_rule())
        .map_err(GenerateError::OtherVariant)?;
    if options.no_deps {
        check_dependencies(v, dir, options.rule, &order)?;
    }
    solve_components(v, dir, order, options)
}

/// Refuse rules that the tables a run solves do not follow yet: any table
/// ([`Variant::unsupported_by_tables`]), or those of the placing phase
/// ([`Variant::unsupported_in_placing`]) when the run needs such a sector (`targets` and,
/// unless `no_deps`, what they depend on). [`generate`] asks this first; a program asks it
/// before announcing a run.
///
/// # Errors
///
/// [`GenerateError::UnsupportedRules`] naming the options (and, for the placing phase, the
/// first such sector, one of `targets` if any).
pub fn check_rules(v: &Variant, targets: &[Sector], no_deps: bool) -> Result<(), GenerateError> {
    let unsupported = v.unsupported_by_tables();
    if !unsupported.is_empty() {
        return Err(GenerateError::UnsupportedRules {
            variant: v.label(),
            rules: unsupported,
            placing: None,
        });
    }
    if v.unsupported_in_placing().is_empty() {
        return Ok(());
    }
    let mut order = solving_order(v, targets);
    if no_deps {
        order.retain(|c| c.sectors().iter().any(|s| targets.contains(s)));
    }
    match order
        .iter()
        .flat_map(|c| c.sectors().iter().copied())
        .filter(|&s| !unsupported_in(v, s).is_empty())
        .min_by_key(|&s| (!targets.contains(&s), s))
    {
        Some(s) => Err(GenerateError::UnsupportedRules {
            variant: v.label(),
            rules: v.unsupported_in_placing(),
            placing: Some(s),
        }),
        None => Ok(()),
    }
}

/// Refuse to solve `order` alone unless every dependency outside it is complete in `dir`.
fn check_dependencies(
    v: &Variant,
    dir: &Path,
    rule: NMoveRule,
    order: &[Component],
) -> Result<(), GenerateError> {
    let mut problems = Vec::new();
    let mut checked = HashSet::new();
    for c in order {
        for &d in c.dependencies() {
            let named = order.iter().any(|c| c.sectors().contains(&d));
            if named || !checked.insert(d) {
                continue;
            }
            if let Err(e) = sector_status(dir, v, rule, d) {
                if is_other_rule(&e) {
                    return Err(e.into());
                }
                problems.push((d, e.to_string()));
            }
        }
    }
    if !problems.is_empty() {
        return Err(GenerateError::MissingDependencies {
            dir: dir.to_path_buf(),
            problems,
        });
    }
    Ok(())
}

/// Solve the components, in this order, skipping those on disk.
fn solve_components(
    v: &Variant,
    dir: &Path,
    components: Vec<Component>,
    options: &GenerateOptions<'_>,
) -> Result<Vec<ComponentReport>, GenerateError> {
    let rule = options.rule;
    let observer = options.observer;
    // Which components are on disk already: checked once (it reads every file's checksums).
    let order: Vec<(Component, bool)> = components
        .into_iter()
        .map(|c| {
            let done = c
                .sectors()
                .iter()
                .all(|&s| sector_is_complete_under(dir, v, rule, s));
            (c, done)
        })
        .collect();
    observer.run_started(
        order
            .iter()
            .filter(|(_, done)| !done)
            .map(|(c, _)| component_work(v, c))
            .sum(),
    );
    let mut reports = Vec::new();
    for (component, done) in order {
        let sectors = component.sectors();
        let kept = |by_other_process| ComponentReport {
            component: component.clone(),
            solved: false,
            by_other_process,
            repaired: Vec::new(),
            positions: 0,
            elapsed: Duration::ZERO,
            peak_memory: None,
            spilled: false,
            stats: Vec::new(),
        };
        if done {
            remove_stale_lock(dir, &component);
            let report = kept(false);
            observer.component_finished(&report);
            reports.push(report);
            continue;
        }
        // One process at a time per component; a second one waits, then finds it complete.
        let lock = match ComponentLock::try_acquire(dir, &component)? {
            Some(lock) => lock,
            None => {
                observer.component_waiting(&component, ComponentLock::holder(dir, &component));
                ComponentLock::acquire(dir, &component)?
            }
        };
        let mut problems: Vec<(Sector, TableError)> = sectors
            .iter()
            .filter_map(|&s| sector_status(dir, v, rule, s).err().map(|e| (s, e)))
            .collect();
        if let Some(i) = problems.iter().position(|(_, e)| is_other_rule(e)) {
            return Err(problems.swap_remove(i).1.into());
        }
        if problems.is_empty() {
            let report = kept(true);
            observer.component_finished(&report);
            reports.push(report);
            continue;
        }
        let repaired: Vec<String> = problems
            .into_iter()
            .filter(|&(s, _)| has_files(dir, s))
            .map(|(_, e)| e.to_string())
            .collect();
        remove_stale_temporaries(dir, sectors);
        let start = Instant::now();
        reset_peak_memory();
        // A fresh set per component: files written since are read as they are now. The solver
        // reads each dependency when a forward pass needs it and drops it after that pass.
        // (Whole reads bypass the block cache; only tables with removal don't-care symbols
        // use it, to resolve them.)
        let tables = TableSet::new(dir, *v).with_rule(rule);
        let load = |d: Sector| -> Result<Arc<Vec<u16>>, GenerateError> {
            Ok(Arc::new(tables.read_values(d)?))
        };
        observer.component_started(&component, component_work(v, &component));
        let advance = |n| observer.advance(n);
        // One-pass sectors (no internal moves) keep their 2-byte cells in memory.
        let spill = options
            .max_memory
            .is_some_and(|max| SolveMemory::of(v, &component).working() > max)
            && !component.is_exit_only();
        let solve = SolveOptions {
            rule,
            skip_unreachable: options.skip_unreachable,
            spill_dir: spill.then_some(dir),
            progress: &advance,
        };
        let solved = solve_component(v, &component, &load, &solve)?;
        drop(tables);
        let mut stats = Vec::new();
        for s in &solved {
            let write = WriteOptions {
                rule,
                unreachable_dont_care: options.skip_unreachable,
                ..WriteOptions::default()
            };
            write_sector(dir, v, s.sector, &s.values, &write)?;
            let in_force = rule.with_stones(v, [s.sector.w, s.sector.b]);
            stats.push((s.sector, SectorStats::of_under(&s.values, in_force)));
        }
        drop(lock);
        let report = ComponentReport {
            component,
            solved: true,
            by_other_process: false,
            repaired,
            positions: stats.iter().map(|(_, s)| s.positions).sum(),
            elapsed: start.elapsed(),
            peak_memory: peak_memory(),
            spilled: solve.spill_dir.is_some(),
            stats,
        };
        observer.component_finished(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// Refuse a directory holding a table of another variant (or of other rules, or solved
/// under another N-move rule than `rule`), naming it.
fn refuse_other_variant(v: &Variant, dir: &Path, rule: NMoveRule) -> Result<(), GenerateError> {
    match TableDir::scan(dir)?.other_tables(v, Some(rule)) {
        Some(e) => Err(GenerateError::OtherVariant(e)),
        None => Ok(()),
    }
}

/// Remove the lock file (and any temporary files) that a process killed after writing the
/// last file of a complete component left behind: taken if no process holds it, then
/// dropped. A lock someone holds is theirs and left alone; so is anything at the lock's
/// path that cannot be taken (housekeeping never stops a run that has nothing to solve).
fn remove_stale_lock(dir: &Path, component: &Component) {
    if std::fs::symlink_metadata(crate::build::lock::lock_path(dir, component)).is_err() {
        return;
    }
    if let Ok(Some(stale)) = ComponentLock::try_acquire(dir, component) {
        remove_stale_temporaries(dir, component.sectors());
        drop(stale);
    }
}

/// Turn the error of a table of another N-move rule into a generation error; any other
/// problem of a file is left for the component that owns it (which solves it again).
fn refuse_other_rule<T>(r: Result<T, TableError>) -> Result<(), TableError> {
    match r {
        Err(e) if is_other_rule(&e) => Err(e),
        _ => Ok(()),
    }
}

/// Is this the error of a table solved under another N-move rule (or another endgame N-move
/// rule)?
fn is_other_rule(e: &TableError) -> bool {
    matches!(
        e,
        TableError::Corrupt {
            problem: Corruption::OtherNMoveRule { .. } | Corruption::OtherEndgameRule { .. },
            ..
        }
    )
}

/// Make sure `dir` is a directory, creating it (and its parents) if there is nothing there.
fn prepare_dir(dir: &Path) -> Result<(), TableError> {
    let io = |error| TableError::Io {
        path: dir.to_path_buf(),
        error,
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(io(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "not a directory",
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(io)
        }
        Err(e) => Err(io(e)),
    }
}

/// Is there anything at the path of either file of `sector`?
fn has_files(dir: &Path, sector: Sector) -> bool {
    [FileKind::Wdl, FileKind::Distance]
        .iter()
        .any(|&k| std::fs::symlink_metadata(table_path(dir, sector, k)).is_ok())
}

/// Remove the temporary files that writes of these sectors left behind (a process killed
/// while writing). Called with the component's lock held, so no write of them is running.
pub(crate) fn remove_stale_temporaries(dir: &Path, sectors: &[Sector]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let names: Vec<String> = sectors
        .iter()
        .flat_map(|&s| {
            [FileKind::Wdl, FileKind::Distance]
                .map(|k| format!("{}.{}", s.file_stem(), k.extension()))
        })
        .collect();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if names.iter().any(|n| is_temporary_of(name, n)) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
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

#[cfg(test)]
mod source_tests {
    use super::*;
    use crate::sector::graph::start_sector;
    use std::error::Error;

    #[test]
    fn the_source_of_a_generate_error_is_the_wrapped_error() {
        // A file where the table directory should be: the table code's error, as the source.
        let variant = Variant::by_name("three").expect("a known variant");
        let temp = tempfile::tempdir().expect("a temporary directory");
        let not_a_dir = temp.path().join("file");
        std::fs::write(&not_a_dir, b"not a directory").expect("a file");
        let options = GenerateOptions::default();
        let e = generate(&variant, &not_a_dir, &[start_sector(&variant)], &options)
            .expect_err("a file is not a table directory");
        let source = e.source().expect("a source");
        let table = source.downcast_ref::<TableError>().expect("a TableError");
        match &e {
            GenerateError::Table(inner) | GenerateError::OtherVariant(inner) => {
                assert!(std::ptr::eq(table, inner));
            }
            other => panic!("expected a table error, got {other:?}"),
        }

        let sector = start_sector(&variant);
        let e = GenerateError::Solve(SolveError::MissingDependency(sector));
        let solve = e.source().and_then(|s| s.downcast_ref::<SolveError>());
        assert!(matches!(solve, Some(SolveError::MissingDependency(s)) if *s == sector));

        let e = GenerateError::MissingDependencies {
            dir: temp.path().to_path_buf(),
            problems: vec![(sector, "missing".into())],
        };
        assert!(e.source().is_none());
    }
}
