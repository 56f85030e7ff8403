//! Retrograde analysis of one component: a sector, or a sector and its colour-swapped partner
//! when moves alternate between them (the moving phase `w-b` / `b-w`).
//!
//! Layer 4 of the library (docs/DESIGN.md, "Layers"): solving. Imports only
//! [`sector`](crate::sector), [`game`](crate::game) and [`sys`](crate::sys); the values it
//! needs of solved sectors come through [`DependencyValues`], never from table files.
//!
//! Moves that stay in the component (slides and flies that close no mill) are *internal*;
//! placements and removals are *exits* into sectors solved before. The algorithm:
//!
//! 1. One forward pass over every slot: count the distinct internal successors, read every
//!    exit's value, and note the fastest exit win, the slowest exit loss and any exit draw.
//! 2. Level by level (plies 0, 1, 2, ...): positions decided at level `d` generate their
//!    internal predecessors by un-moves. A loss at `d` makes each undecided predecessor a win
//!    at `d + 1`; a win at `d` decrements each predecessor's counter, and a predecessor whose
//!    counter reaches zero (every move loses) is a loss at `max(d + 1, slowest exit loss)`.
//!    Exit wins enter at their own level if nothing faster was found.
//! 3. Whatever is still undecided is a draw.
//!
//! Counters count distinct successor *slots*; where symmetric stone sets make two moves reach
//! the same slot, both directions de-duplicate.
//!
//! Only the forward pass reads the dependencies (the exits' tables), and the forward pass of
//! one component sector reads only that sector's exits. So [`solve_component`] loads a
//! sector's exit tables just before its forward pass and drops them right after: at most one
//! sector's exit tables (up to four) are in memory at a time, never during propagation.

pub(crate) mod barred;
pub(crate) mod blocked;
mod cells;
mod exit_only;

use crate::game::position::Color;
use crate::game::rules::{
    Arrival, Bits, BoardFull, Stalemate, Variant, for_each_removal_set, points as bits,
};
use crate::game::value::{DECIDED, MAX_PLIES, NMoveRule, RuleValue, UNUSED, Value, WIN_FLAG};
use crate::sector::graph::{
    BLOCKED_EXIT, Component, EXIT_KINDS, ExitSectors, FULL_BOARD_EXITS, MAX_TAKEN, can_slide,
};
use crate::sector::index::{Sector, SectorIndex, next_combination, pdep};
use crate::sector::reach::ReachFilter;
use cells::Cells;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// Values (16-bit encoded, see `value`) of solved sectors, by sector.
pub type SolvedValues = HashMap<Sector, Arc<Vec<u16>>>;

/// Solve-time flag: undecided, but an exit guarantees at least a draw.
const CANNOT_LOSE: u16 = 0x4000;

/// Counts of a solved sector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SectorStats {
    /// Positions up to symmetry (used slots).
    pub positions: u64,
    /// Wins for the side to move (under an N-move rule: at counter 0).
    pub wins: u64,
    /// Losses for the side to move (under an N-move rule: at counter 0).
    pub losses: u64,
    /// Draws (decided neither with nor without the N-move rule).
    pub draws: u64,
    /// Under an N-move rule: wins without the rule that it draws.
    pub cursed_wins: u64,
    /// Under an N-move rule: losses without the rule that it draws.
    pub blessed_losses: u64,
    /// Longest win in plies, or DTR under an N-move rule (0 if none).
    pub max_win: u16,
    /// Longest loss in plies, or DTR under an N-move rule (`None` if no loss).
    pub max_loss: Option<u16>,
}

impl SectorStats {
    /// Count the values of a sector solved without the N-move rule.
    pub fn of(values: &[u16]) -> SectorStats {
        SectorStats::of_under(values, NMoveRule::NONE)
    }

    /// Count the values of a sector solved under `rule`.
    pub fn of_under(values: &[u16], rule: NMoveRule) -> SectorStats {
        values
            .par_chunks(1 << 16)
            .map(|chunk| {
                let mut s = SectorStats::default();
                for &c in chunk {
                    let Some(v) = Value::decode(c) else {
                        continue;
                    };
                    match rule.at_counter(v, 0) {
                        RuleValue::Draw => s.draws += 1,
                        RuleValue::CursedWin => s.cursed_wins += 1,
                        RuleValue::BlessedLoss => s.blessed_losses += 1,
                        RuleValue::Win(n) => {
                            s.wins += 1;
                            s.max_win = s.max_win.max(n);
                        }
                        RuleValue::Loss(n) => {
                            s.losses += 1;
                            s.max_loss = Some(s.max_loss.map_or(n, |m| m.max(n)));
                        }
                    }
                    s.positions += 1;
                }
                s
            })
            .reduce(SectorStats::default, SectorStats::combined)
    }

    /// The counts of two sets of positions together.
    pub fn combined(self, b: SectorStats) -> SectorStats {
        SectorStats {
            positions: self.positions + b.positions,
            wins: self.wins + b.wins,
            losses: self.losses + b.losses,
            draws: self.draws + b.draws,
            cursed_wins: self.cursed_wins + b.cursed_wins,
            blessed_losses: self.blessed_losses + b.blessed_losses,
            max_win: self.max_win.max(b.max_win),
            max_loss: match (self.max_loss, b.max_loss) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            },
        }
    }
}

/// A solved exit sector ready for look-ups.
struct ExitTable<'a> {
    index: SectorIndex,
    values: &'a [u16],
    /// The N-move rule in force in the sector ([`NMoveRule::with_stones`]).
    rule: NMoveRule,
    /// The move that leads here leaves its mover to move again
    /// ([`places_again`](crate::sector::graph::places_again)): the sector is seen from the
    /// mover, and its values are the mover's.
    again: bool,
}

impl ExitTable<'_> {
    /// The code of the position reached, for the opponent of the mover (who moves next, or
    /// would if the mover did not move again): `us` the opponent's stones, `them` the mover's.
    #[inline]
    fn code(&self, us: Bits, them: Bits) -> u16 {
        if self.again {
            as_opponent(self.values[self.index.slot(them, us) as usize])
        } else {
            self.values[self.index.slot(us, them) as usize]
        }
    }
}

/// The code of a value for the mover seen from its opponent: a win in `n` becomes a loss in
/// `n` and the other way round, so that a move to a position where the mover moves again
/// reads as any other move ([`NMoveRule::move_value`] then gives the mover's value, one ply
/// more). Draws and unused slots stay as they are.
#[inline]
pub(crate) fn as_opponent(code: u16) -> u16 {
    if code & DECIDED != 0 && code != UNUSED {
        code ^ WIN_FLAG
    } else {
        code
    }
}

/// Exit targets of one component sector; `None` inside means "the opponent has lost".
struct Exits<'a> {
    slide: Option<ExitTable<'a>>,
    /// By the number of stones taken (`[k - 1]`).
    slide_taking: [Option<ExitTable<'a>>; MAX_TAKEN],
    place: Option<ExitTable<'a>>,
    /// By the number of stones taken (`[k - 1]`).
    place_taking: [Option<ExitTable<'a>>; MAX_TAKEN],
    /// A blocked side's removals (`stalemate`; [`blocked::blocked_value`]).
    blocked: Option<ExitTable<'a>>,
    /// A full board's removals ([`blocked::full_board_value`]).
    full_board: Vec<ExitTable<'a>>,
}

impl Exits<'_> {
    /// The table of sector `to`, where a blocked side's or a full board's removals lead.
    fn after_removals(&self, to: Sector) -> &ExitTable<'_> {
        self.blocked
            .iter()
            .chain(&self.full_board)
            .find(|t| t.index.sector == to)
            .unwrap_or_else(|| panic!("the exit table of sector {to} after removals"))
    }
}

/// The values of the sectors one component sector exits into (in the order of
/// [`ExitSectors::targets`](crate::sector::graph::ExitSectors::targets)), loaded for the one
/// pass that reads them.
struct LoadedExits {
    tables: [Option<(Sector, Arc<Vec<u16>>)>; EXIT_KINDS],
    /// The placements leave their mover to move again ([`ExitSectors::place_again`]).
    place_again: bool,
    /// The placements taking stones leave their mover to move again
    /// ([`ExitSectors::taking_again`]).
    taking_again: bool,
}

impl LoadedExits {
    /// Load the values of the targets of `exits` (`None`: no table, the opponent has lost)
    /// from `dependencies`, checking their sizes.
    fn load<D: DependencyValues + ?Sized>(
        v: &Variant,
        exits: &ExitSectors,
        dependencies: &D,
    ) -> Result<LoadedExits, D::Error> {
        let mut tables = [const { None }; EXIT_KINDS];
        for (table, target) in tables.iter_mut().zip(exits.targets()) {
            if let Some(s) = target {
                let values = dependencies.load(s)?;
                if values.len() as u64 != SectorIndex::new(v, s).slots() {
                    return Err(SolveError::BadDependency(s).into());
                }
                *table = Some((s, values));
            }
        }
        Ok(LoadedExits {
            tables,
            place_again: exits.place_again,
            taking_again: exits.taking_again,
        })
    }

    /// The tables for look-ups, solved under `rule` (each exit sector under the rule in force
    /// there).
    fn exits(&self, v: &Variant, rule: NMoveRule) -> Exits<'_> {
        let table = |k: usize| {
            self.tables[k].as_ref().map(|(s, values)| ExitTable {
                index: SectorIndex::new(v, *s),
                values: values.as_slice(),
                rule: rule.with_stones(v, [s.w, s.b]),
                again: (MAX_TAKEN + 1..BLOCKED_EXIT).contains(&k)
                    && (self.place_again || (k > MAX_TAKEN + 1 && self.taking_again)),
            })
        };
        Exits {
            slide: table(0),
            slide_taking: std::array::from_fn(|k| table(1 + k)),
            place: table(MAX_TAKEN + 1),
            place_taking: std::array::from_fn(|k| table(MAX_TAKEN + 2 + k)),
            blocked: table(BLOCKED_EXIT),
            full_board: (FULL_BOARD_EXITS..EXIT_KINDS).filter_map(table).collect(),
        }
    }
}

/// Running summary of a position's exits during the forward pass.
#[derive(Default)]
struct ExitSummary {
    best_win: Option<u16>,
    worst_loss: u16,
    draw: bool,
}

impl ExitSummary {
    /// Note a move from a position under `rule` to a successor under `next` of stored value
    /// `code` (from the successor's side to move); `resets`: the move places or removes a
    /// stone (see [`NMoveRule::move_value_into`]).
    #[inline]
    fn note(&mut self, rule: NMoveRule, next: NMoveRule, code: u16, resets: bool) {
        self.note_own(rule.move_value_into(next, code, resets));
    }

    /// Note a value already from the side to move's point of view (the best of a group of
    /// moves).
    #[inline]
    fn note_own(&mut self, value: Value) {
        match value {
            Value::Win(n) => self.win(n),
            Value::Loss(n) => self.worst_loss = self.worst_loss.max(n),
            Value::Draw => self.draw = true,
        }
    }

    #[inline]
    fn win(&mut self, n: u16) {
        self.best_win = Some(self.best_win.map_or(n, |b| b.min(n)));
    }

    /// The value of a position whose moves are exactly the exits noted (at least one).
    #[inline]
    fn value(&self) -> Value {
        match self.best_win {
            Some(n) => Value::Win(n),
            None if self.draw => Value::Draw,
            None => Value::Loss(self.worst_loss),
        }
    }
}

/// One sector's working state.
struct Work {
    sector: Sector,
    index: SectorIndex,
    /// Per slot: the 16-bit state in the low half, the counter of undecided internal
    /// successors in bits 16..24 (one word, so one cache miss per predecessor update).
    cells: Cells,
    /// The sectors its moves exit into (their values are loaded only for its forward pass).
    exit_targets: ExitSectors,
    /// The component sector holding this sector's internal successors and predecessors.
    partner: Option<usize>,
}

/// Progress reporting: called with units of work done (the total is twice the slot count).
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// Result of solving one sector.
pub struct Solved {
    /// The sector.
    pub sector: Sector,
    /// Encoded values by slot ([`UNUSED`] for unused slots).
    pub values: Vec<u16>,
}

/// Errors of the solver.
#[derive(Debug)]
pub enum SolveError {
    /// An exit sector's values were not supplied.
    MissingDependency(Sector),
    /// The supplied values of an exit sector have the wrong length.
    BadDependency(Sector),
    /// The scratch file for the working cells ([`SolveOptions::spill_dir`]) could not be
    /// made.
    Spill {
        /// The directory.
        dir: std::path::PathBuf,
        /// What went wrong.
        error: String,
    },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::MissingDependency(s) => write!(f, "sector {s} must be solved first"),
            SolveError::BadDependency(s) => write!(f, "values of sector {s} have the wrong size"),
            SolveError::Spill { dir, error } => write!(
                f,
                "cannot make a scratch file for the solver's cells in {}: {error}",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Where [`solve_component`] reads the values of a component's dependencies: a
/// [`SolvedValues`] map, or a function that loads them (from a table directory, say), called
/// as the solver needs them.
pub trait DependencyValues {
    /// The error of a failed load; values of the wrong size are
    /// [`SolveError::BadDependency`] converted into it.
    type Error: From<SolveError>;

    /// The values (16-bit encoded, by slot) of the solved sector `sector`, under the rule the
    /// component is solved under.
    ///
    /// # Errors
    ///
    /// Whatever keeps the values from being had: for [`SolvedValues`],
    /// [`SolveError::MissingDependency`] when the map lacks the sector; for a function, its
    /// errors as they are.
    fn load(&self, sector: Sector) -> Result<Arc<Vec<u16>>, Self::Error>;
}

impl DependencyValues for SolvedValues {
    type Error = SolveError;

    fn load(&self, sector: Sector) -> Result<Arc<Vec<u16>>, SolveError> {
        self.get(&sector)
            .cloned()
            .ok_or(SolveError::MissingDependency(sector))
    }
}

impl<F, E> DependencyValues for F
where
    F: Fn(Sector) -> Result<Arc<Vec<u16>>, E>,
    E: From<SolveError>,
{
    type Error = E;

    fn load(&self, sector: Sector) -> Result<Arc<Vec<u16>>, E> {
        self(sector)
    }
}

/// How to solve a component.
#[derive(Clone, Copy)]
pub struct SolveOptions<'a> {
    /// The N-move rule (none by default): with a rule every value is a DTR (see
    /// [`NMoveRule`]), and the dependencies' values must be solved under the same rule.
    pub rule: NMoveRule,
    /// Leave the positions that no game reaches (`reach`) unsolved: their values
    /// are [`UNUSED`], like unused slots. No reachable position depends on them, and the
    /// dependencies' values at such positions are never read.
    pub skip_unreachable: bool,
    /// Keep the working cells of a component with internal moves (4 bytes per slot) in a
    /// memory-mapped scratch file in this directory instead of in memory, for a component
    /// that does not fit the memory allowed: the kernel pages them to disk as needed
    /// (slower, but the solve completes). The file is unlinked as soon as it is mapped.
    pub spill_dir: Option<&'a Path>,
    /// Called with units of work done (twice the component's slots in all: the forward
    /// pass and the propagation); by default nothing is reported.
    pub progress: Progress<'a>,
}

/// Reports nothing: the default [`SolveOptions::progress`].
fn no_progress(_: u64) {}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            rule: NMoveRule::NONE,
            skip_unreachable: false,
            spill_dir: None,
            progress: &no_progress,
        }
    }
}

impl std::fmt::Debug for SolveOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("rule", &self.rule)
            .field("skip_unreachable", &self.skip_unreachable)
            .field("spill_dir", &self.spill_dir)
            .finish_non_exhaustive()
    }
}

/// Solve `component` with `options`, reading the values of its dependencies
/// ([`Component::dependencies`], solved under the same rule) from `dependencies` as they are
/// needed. Returns the component's sectors with their values, in the order of
/// [`Component::sectors`].
///
/// The dependencies are read only by the forward pass of the component sector that exits
/// into them, so `dependencies` is asked for a sector's exit targets (up to four) just before
/// that sector's forward pass, and the solver drops its references to them right after it:
/// with a function that reads from disk, at most one sector's exit tables are in memory at a
/// time and none during propagation. A dependency that both sectors of a component exit into
/// is loaded twice. The one-pass solver of sectors without internal moves holds its (at most
/// two) tables for its whole pass.
///
/// # Errors
///
/// The errors of `dependencies`, as they are ([`SolveError::MissingDependency`] if a
/// [`SolvedValues`] map lacks a dependency the component exits into);
/// [`SolveError::BadDependency`] (converted) if loaded values have the wrong length;
/// [`SolveError::Spill`] (converted) if `options.spill_dir` is given and the scratch file
/// cannot be made in it.
pub fn solve_component<D: DependencyValues + ?Sized>(
    v: &Variant,
    component: &Component,
    dependencies: &D,
    options: &SolveOptions<'_>,
) -> Result<Vec<Solved>, D::Error> {
    let options = *options;
    let progress = options.progress;
    let rule = options.rule;
    let sectors = component.sectors();
    let sector = component.first();
    if component.is_exit_only() {
        // No move stays in the sector: one pass over the exits decides everything.
        let loaded = LoadedExits::load(v, &component.exits()[0], dependencies)?;
        let index = SectorIndex::new(v, sector);
        let reach = ReachFilter::new(v, sector).filter(|_| options.skip_unreachable);
        let exits = loaded.exits(v, rule);
        let rules = (rule, rule.with_stones(v, [sector.w, sector.b]));
        let values = exit_only::exit_only_pass(v, &index, &exits, rules, reach, progress);
        return Ok(vec![Solved { sector, values }]);
    }
    let mut work = Vec::new();
    for (i, &s) in sectors.iter().enumerate() {
        let index = SectorIndex::new(v, s);
        let slots = index.slots() as usize;
        assert!(slots <= WON as usize, "sector {s} has too many slots");
        work.push(Work {
            sector: s,
            index,
            cells: match options.spill_dir {
                None => Cells::in_memory(slots),
                Some(dir) => Cells::in_file(dir, slots).map_err(|error| SolveError::Spill {
                    dir: dir.to_path_buf(),
                    error: error.to_string(),
                })?,
            },
            exit_targets: component.exits()[i],
            partner: match sectors.len() {
                2 => Some(1 - i),
                _ if s.swapped() == s => Some(i),
                _ => None,
            },
        });
    }
    let trace = std::env::var_os("MILLBASE_TRACE").is_some();
    let started = std::time::Instant::now();
    let mut levels = Levels::default();
    // Under `repeated-mills=restricted` a mill-closing slide leads to a position with a bar,
    // valued by playing it out in the sectors below.
    let below = match v.repeated_mills_restricted {
        true => Some(barred::Below::load(v, component, dependencies)?),
        false => None,
    };
    for i in 0..work.len() {
        // This sector's exit tables, for its forward pass only.
        let loaded = LoadedExits::load(v, &work[i].exit_targets, dependencies)?;
        let exits = loaded.exits(v, rule);
        let found = forward_pass(v, &work, i, &exits, below.as_ref(), options, progress);
        drop(loaded);
        levels.merge(i, found);
    }
    if trace {
        eprintln!("{sector}: forward pass {:.2?}", started.elapsed());
    }
    let mut d = 0usize;
    while d < levels.len() {
        // Exit wins enter at their level unless something faster was found.
        for (i, w) in work.iter().enumerate() {
            let entering = std::mem::take(&mut levels.exit_wins[d][i]);
            let code = DECIDED | WIN_FLAG | d as u16;
            let won: Vec<u32> = entering
                .into_par_iter()
                .filter(|&slot| decide(&w.cells[slot as usize], code))
                .collect();
            levels.frontier[d][i].extend(won.into_iter().map(|slot| slot | WON));
        }
        // Under `stalemate=pass` a position decided at `d` decides the blocked position of
        // the same stones at `d` too (`pass_over`): repeat until the level is done.
        while levels.frontier[d].iter().any(|f| !f.is_empty()) {
            for i in 0..work.len() {
                let frontier = std::mem::take(&mut levels.frontier[d][i]);
                let found = propagate(v, &work, i, &frontier, d as u16, progress);
                if let Some(p) = work[i].partner {
                    levels.merge(p, found);
                }
            }
        }
        d += 1;
    }
    if trace {
        eprintln!("{sector}: {d} levels, total {:.2?}", started.elapsed());
    }
    Ok(work
        .into_iter()
        .map(|w| Solved {
            sector: w.sector,
            values: w
                .cells
                .par_iter()
                .map(|c| {
                    let c = c.load(Relaxed) as u16;
                    if c == UNUSED {
                        UNUSED
                    } else if c & DECIDED != 0 {
                        c
                    } else {
                        Value::Draw.encode()
                    }
                })
                .collect(),
        })
        .collect())
}

/// Positions entering at later levels, found by one pass.
#[derive(Default)]
struct Found {
    /// (level, slot) of decided positions.
    decided: Vec<(u16, u32)>,
    /// (level, slot) of exit wins waiting for their level.
    exit_wins: Vec<(u16, u32)>,
}

impl Found {
    fn join(mut self, mut other: Found) -> Found {
        if self.decided.len() < other.decided.len() {
            std::mem::swap(&mut self.decided, &mut other.decided);
        }
        self.decided.extend(other.decided);
        if self.exit_wins.len() < other.exit_wins.len() {
            std::mem::swap(&mut self.exit_wins, &mut other.exit_wins);
        }
        self.exit_wins.extend(other.exit_wins);
        self
    }
}

/// Work lists by level and by component sector.
#[derive(Default)]
struct Levels {
    frontier: Vec<[Vec<u32>; 2]>,
    exit_wins: Vec<[Vec<u32>; 2]>,
}

impl Levels {
    fn len(&self) -> usize {
        self.frontier.len()
    }

    fn grow(&mut self, level: usize) {
        while self.frontier.len() <= level {
            self.frontier.push(Default::default());
            self.exit_wins.push(Default::default());
        }
    }

    fn merge(&mut self, sector: usize, found: Found) {
        for (level, slot) in found.decided {
            self.grow(level as usize);
            self.frontier[level as usize][sector].push(slot);
        }
        for (level, slot) in found.exit_wins {
            self.grow(level as usize);
            self.exit_wins[level as usize][sector].push(slot);
        }
    }
}

/// Flag of a work-list entry: the position is a win (else a loss). Work lists hold slot
/// numbers, below 2^31, with this flag, so that processing them needs no look at the cell.
const WON: u32 = 1 << 31;

/// Bit offset of the successor counter in a cell.
const COUNTER_SHIFT: u32 = 16;

/// Set the state of an undecided cell to `code`, keeping its counter; false if it was already
/// decided (by this or another thread).
#[inline]
fn decide(cell: &AtomicU32, code: u16) -> bool {
    let mut cur = cell.load(Relaxed);
    loop {
        if cur as u16 & DECIDED != 0 {
            return false;
        }
        let new = (cur & !0xFFFF) | code as u32;
        match cell.compare_exchange_weak(cur, new, Relaxed, Relaxed) {
            Ok(_) => return true,
            Err(now) => cur = now,
        }
    }
}

/// The forward pass over sector `i` (whose exit tables are `exits`): initial states,
/// counters, exit values.
fn forward_pass(
    v: &Variant,
    work: &[Work],
    i: usize,
    exits: &Exits,
    below: Option<&barred::Below>,
    options: SolveOptions<'_>,
    progress: Progress,
) -> Found {
    let w = &work[i];
    let partner = w.partner.map(|p| &work[p]);
    let s = w.sector;
    // The sectors of a component have the same stones on the board, and so the same rule.
    let rule = options.rule.with_stones(v, [s.w, s.b]);
    let rules = (options.rule, rule);
    let board = v.board();
    let full = board.full();
    let orbits = w.index.us_orbits;
    let per_orbit = w.index.per_orbit;
    let can_slide = can_slide(v, s);
    let flies = v.flies(s.w, s.wf);
    let general = !v.one_removal_per_mill() || below.is_some();
    let hand_taking = takes_from_hand(v, s);
    let reach = ReachFilter::new(v, s).filter(|_| options.skip_unreachable);
    (0..orbits.len() as u32)
        .into_par_iter()
        .fold(Found::default, |mut found, orbit| {
            let us = orbits.rep(orbit);
            let stab = orbits.stabilizer(orbit);
            let free = full & !us;
            let base = orbit as u64 * per_orbit as u64;
            let mut combo: Bits = (1u32 << s.b) - 1;
            let mut succ_slots: Vec<u32> = Vec::new();
            let us_unreachable = reach.is_some_and(|f| f.us_impossible(us));
            for rank in 0..per_orbit {
                let slot = (base + rank as u64) as usize;
                let them = pdep(combo, free);
                combo = next_combination(combo);
                if (stab != 0 && w.index.opponent_rank(us, stab, them) != rank)
                    || us_unreachable
                    || reach.is_some_and(|f| f.them_impossible(them))
                {
                    // An unused slot, or a position no game reaches: left undecided.
                    w.cells[slot].store(UNUSED as u32, Relaxed);
                    continue;
                }
                let empty = free & !them;
                let removable = board.removable(them, v.remove_from_mills);
                let mut ex = ExitSummary::default();
                let mut internal = 0u32;
                let mut any_move = false;
                // Successors in the partner need de-duplication when `them` is symmetric.
                let dedup = partner.is_some_and(|p| {
                    let orbits = p.index.us_orbits;
                    orbits.stabilizer(orbits.canonical(them).0) != 0
                });
                succ_slots.clear();
                if can_slide {
                    for from in bits(us) {
                        let targets = if flies {
                            empty
                        } else {
                            board.adjacent(from) & empty
                        };
                        let after = us & !(1 << from);
                        for to in bits(targets) {
                            any_move = true;
                            let moved = after | 1 << to;
                            if general {
                                let a = v.arrival(board, moved, to, them, false);
                                if a.taken() > 0 {
                                    let tables = &exits.slide_taking;
                                    let bar = below.map(|b| (b, (from, to)));
                                    note_taking(v, &mut ex, rules, tables, a, moved, to, bar);
                                    continue;
                                }
                            } else if them != 0 && board.in_mill(moved, to) {
                                match &exits.slide_taking[0] {
                                    None => ex.win(1),
                                    Some(t) => {
                                        for r in bits(removable) {
                                            ex.note(
                                                rule,
                                                t.rule,
                                                t.code(them & !(1 << r), moved),
                                                true,
                                            );
                                        }
                                    }
                                }
                                continue;
                            }
                            if let Some(t) = &exits.slide {
                                ex.note(rule, t.rule, t.code(them, moved), false);
                            } else if let (true, Some(p)) = (dedup, partner) {
                                succ_slots.push(p.index.slot(them, moved) as u32);
                            } else {
                                internal += 1;
                            }
                        }
                    }
                }
                if s.wf > 0 {
                    // Placements without a mill share the successor's side to move (`them`),
                    // unless the mover moves again.
                    let place = exits.place.as_ref().filter(|t| !t.again).map(|t| {
                        let frame = t.index.frame(them);
                        (t, frame, t.index.tables.syms.apply(frame.sym, us))
                    });
                    for to in bits(empty) {
                        any_move = true;
                        let placed = us | 1 << to;
                        if general {
                            let a = v.arrival(board, placed, to, them, true);
                            if a.taken() > 0 {
                                let tables = &exits.place_taking;
                                note_taking(v, &mut ex, rules, tables, a, placed, to, None);
                                continue;
                            }
                        } else if (them != 0 || hand_taking) && board.in_mill(placed, to) {
                            match &exits.place_taking[0] {
                                None => ex.win(1),
                                // `from-hand`: the stone comes from the opponent's hand.
                                Some(t) if hand_taking => {
                                    ex.note(rule, t.rule, t.code(them, placed), true);
                                }
                                Some(t) => {
                                    for r in bits(removable) {
                                        ex.note(
                                            rule,
                                            t.rule,
                                            t.code(them & !(1 << r), placed),
                                            true,
                                        );
                                    }
                                }
                            }
                            continue;
                        }
                        if let Some((t, frame, mapped_us)) = &place {
                            let mapped = mapped_us | t.index.tables.syms.apply(frame.sym, 1 << to);
                            ex.note(
                                rule,
                                t.rule,
                                t.values[t.index.slot_in_frame(frame, mapped) as usize],
                                true,
                            );
                        } else if let Some(t) = &exits.place {
                            ex.note(rule, t.rule, t.code(them, placed), true);
                        }
                    }
                }
                if dedup {
                    succ_slots.sort_unstable();
                    succ_slots.dedup();
                    internal = succ_slots.len() as u32;
                }
                debug_assert!(internal < 256);
                let state = if !any_move {
                    // A side without a stone move: the stalemate removals, if the rules give
                    // them, lead out of the component; else it loses or draws.
                    let removals =
                        blocked::blocked_value(v, options.rule, s, us, them, &mut |to, a, b, _| {
                            let t = exits.after_removals(to);
                            Ok::<_, std::convert::Infallible>(
                                Value::decode(t.code(a, b)).unwrap_or(Value::Draw),
                            )
                        });
                    match removals {
                        _ if full_board_won(v, empty) => {
                            found.decided.push((0, slot as u32 | WON));
                            DECIDED | WIN_FLAG
                        }
                        Ok(Some(Value::Win(n))) => {
                            found.decided.push((n, slot as u32 | WON));
                            DECIDED | WIN_FLAG | n
                        }
                        Ok(Some(Value::Loss(n))) => {
                            found.decided.push((n, slot as u32));
                            DECIDED | n
                        }
                        Ok(Some(Value::Draw)) => CANNOT_LOSE,
                        _ if blocked_draws(v, empty) => CANNOT_LOSE,
                        // `stalemate=pass`: the turn passes (no ply, the counter unchanged) to
                        // the opponent at the same stones, in the partner sector: this
                        // position takes that one's value turned round, at the same level,
                        // when it is decided (`pass_over` in `propagate`). Both blocked: drawn.
                        _ if passes(v, empty) => {
                            match blocked::can_move(v, s.swapped(), them, us) {
                                true => 0,
                                false => CANNOT_LOSE,
                            }
                        }
                        _ => {
                            let level = rule.blocked().plies().unwrap_or(0);
                            found.decided.push((level, slot as u32));
                            DECIDED | level
                        }
                    }
                } else if let Some(n) = ex.best_win {
                    found.exit_wins.push((n, slot as u32));
                    CANNOT_LOSE
                } else if ex.draw {
                    CANNOT_LOSE
                } else if internal == 0 {
                    found.decided.push((ex.worst_loss, slot as u32));
                    DECIDED | ex.worst_loss
                } else {
                    ex.worst_loss
                };
                w.cells[slot].store(state as u32 | internal << COUNTER_SHIFT, Relaxed);
            }
            progress(per_orbit as u64);
            found
        })
        .reduce(Found::default, Found::join)
}

/// Does a placement's mill in sector `s` take its stone from the opponent's hand
/// (`placing-mill=from-hand`, `from-hand-again`, while the opponent has stones in hand; one
/// removal a move, [`Variant::unsupported_in_placing`])? The opponent's board is then left
/// as it is.
#[inline]
pub(crate) fn takes_from_hand(v: &Variant, s: Sector) -> bool {
    v.removes_from_hand() && s.bf > 0
}

/// Has the side to move won on a board filled by placing (`board-full=white-loses`, Black to
/// move: under `moving-first=black` the side to move after the last placement is Black, see
/// [`places_again`](crate::sector::graph::places_again))? `empty`: the empty points.
#[inline]
pub(crate) fn full_board_won(v: &Variant, empty: Bits) -> bool {
    empty == 0 && v.board_full == BoardFull::WhiteLoses && v.moving_first == Color::Black
}

/// Is a position whose side to move has no move a draw (a board filled by placing under
/// `board-full=draw`, or a blocked side under `stalemate=draw`), rather than a loss? A full
/// board follows `board-full` alone: under `white-loses` White, to move, loses also under
/// `stalemate=draw` (the referee's `outcome` checks the full board first).
#[inline]
pub(crate) fn blocked_draws(v: &Variant, empty: Bits) -> bool {
    match empty {
        0 => v.board_full == BoardFull::Draw,
        _ => v.stalemate == Stalemate::Draw,
    }
}

/// Does a side to move without a stone move pass its turn (`stalemate=pass`, a board with an
/// empty point: a full one is `board-full`'s)? `empty`: the empty points.
#[inline]
pub(crate) fn passes(v: &Variant, empty: Bits) -> bool {
    empty != 0 && v.stalemate == Stalemate::Pass
}

/// Note the value of a stone move that takes stones ([`Arrival`]), to the mover's stones
/// `moved` (the stone arriving on `to`): every choice of its removals, read from `tables` by
/// the number of stones taken (`None`: the opponent is left with too few stones, a win).
/// With `bar` (the sectors below and the slide), under `repeated-mills=restricted`, a slide
/// that closed a mill leaves the mover barred from sliding back: those positions are played
/// out (`barred`). `base`: the rule the tables are solved under; `rule`: the one in force in
/// the position ([`NMoveRule::with_stones`]).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn note_taking(
    v: &Variant,
    ex: &mut ExitSummary,
    (base, rule): (NMoveRule, NMoveRule),
    tables: &[Option<ExitTable<'_>>; MAX_TAKEN],
    a: Arrival,
    moved: Bits,
    to: u8,
    bar: Option<(&barred::Below, barred::Bar)>,
) {
    let board = v.board();
    let from_mills = v.remove_from_mills;
    let bar = bar.filter(|_| board.in_mill(moved, to));
    match (&tables[a.taken() as usize - 1], bar) {
        (None, _) => ex.win(1),
        (Some(t), None) => {
            for_each_removal_set(board, from_mills, a.them, a.removals, &mut |left| {
                ex.note(rule, t.rule, t.code(left, moved), true);
                false
            });
        }
        (Some(t), Some((below, slide))) => {
            let s = t.index.sector;
            for_each_removal_set(board, from_mills, a.them, a.removals, &mut |left| {
                let play_out = barred::PlayOut {
                    v,
                    rule: base,
                    stored: below,
                };
                let value = play_out
                    .value(s, left, moved, barred::NO_BAR, slide)
                    .unwrap_or_else(|s| panic!("sector {s} below the component is not loaded"));
                ex.note(rule, t.rule, value.encode(), true);
                false
            });
        }
    }
}

/// Process the positions of sector `i` decided at level `d`: update their predecessors in the
/// partner sector.
fn propagate(
    v: &Variant,
    work: &[Work],
    i: usize,
    frontier: &[u32],
    d: u16,
    progress: Progress,
) -> Found {
    let w = &work[i];
    let s = w.sector;
    let board = v.board();
    let full = board.full();
    let mut passed = pass_over(v, work, i, frontier, d);
    // The opponent made the last move: it had `s.b` stones and `s.bf` in hand.
    let Some(pred) = w
        .partner
        .map(|p| &work[p])
        .filter(|_| can_slide(v, s.swapped()))
    else {
        progress(frontier.len() as u64);
        return passed;
    };
    let flies = v.flies(s.b, s.bf);
    let syms = &w.index.tables.syms;
    let next = d + 1;
    assert!(next < MAX_PLIES, "distance overflow");
    let found = frontier
        .par_chunks(1024)
        .fold(Found::default, |mut found, chunk| {
            // Software pipeline: the predecessors of the next position are computed and
            // prefetched while the current position's are updated, so the cache misses of
            // the (serialising) atomic updates overlap.
            let predecessors = |entry: u32, preds: &mut Vec<u32>| -> bool {
                let slot = entry & !WON;
                let (us, them) = w.index.position_of_used(slot as u64);
                let us_images = syms.images(us);
                let empty = full & !(us | them);
                preds.clear();
                for to in bits(them) {
                    if us != 0 && !v.arrived_quietly(board, them, to, us) {
                        continue; // that move took stones: an exit
                    }
                    let sources = if flies {
                        empty
                    } else {
                        board.adjacent(to) & empty
                    };
                    let without = them & !(1 << to);
                    for from in bits(sources) {
                        let p = pred.index.slot_from_images(without | 1 << from, &us_images);
                        crate::sys::memory::prefetch(&pred.cells[p as usize]);
                        preds.push(p as u32);
                    }
                }
                let won = entry & WON != 0;
                let orbit = slot / w.index.per_orbit;
                if won && w.index.us_orbits.stabilizer(orbit) != 0 {
                    // Each distinct predecessor slot loses one option only once.
                    preds.sort_unstable();
                    preds.dedup();
                }
                won
            };
            let (mut cur, mut ahead) = (Vec::new(), Vec::new());
            let mut cur_won = predecessors(chunk[0], &mut cur);
            for k in 0..chunk.len() {
                let ahead_won = match chunk.get(k + 1) {
                    Some(&slot) => predecessors(slot, &mut ahead),
                    None => false,
                };
                if cur_won {
                    for &p in &cur {
                        let cell = &pred.cells[p as usize];
                        if cell.load(Relaxed) as u16 & (DECIDED | CANNOT_LOSE) != 0 {
                            continue;
                        }
                        let old = cell.fetch_sub(1 << COUNTER_SHIFT, Relaxed);
                        let state = old as u16;
                        if old >> COUNTER_SHIFT == 1 && state & (DECIDED | CANNOT_LOSE) == 0 {
                            // Every move loses: as slowly as the slowest exit allows.
                            let level = next.max(state);
                            if decide(cell, DECIDED | level) {
                                found.decided.push((level, p));
                            }
                        }
                    }
                } else {
                    let code = DECIDED | WIN_FLAG | next;
                    for &p in &cur {
                        if decide(&pred.cells[p as usize], code) {
                            found.decided.push((next, p | WON));
                        }
                    }
                }
                std::mem::swap(&mut cur, &mut ahead);
                cur_won = ahead_won;
            }
            progress(chunk.len() as u64);
            found
        })
        .reduce(Found::default, Found::join);
    passed.decided.extend(found.decided);
    passed.exit_wins.extend(found.exit_wins);
    passed
}

/// Under `stalemate=pass`, the positions of the partner sector that pass to the positions of
/// sector `i` decided at level `d` (`frontier`): the same stones with the other side to move,
/// that side without a stone move, this side with one. The pass is no ply and leaves the
/// N-move counter as it is, so such a position is decided at the same level `d`, with the
/// value turned round; it joins the frontier of level `d` (the solver repeats a level until
/// no position is decided at it).
fn pass_over(v: &Variant, work: &[Work], i: usize, frontier: &[u32], d: u16) -> Found {
    let w = &work[i];
    let s = w.sector;
    let full = v.board().full();
    let pred = match w.partner {
        Some(p) if v.stalemate == Stalemate::Pass && s.wf == 0 && s.bf == 0 => &work[p],
        _ => return Found::default(),
    };
    frontier
        .par_chunks(4096)
        .fold(Found::default, |mut found, chunk| {
            for &entry in chunk {
                let (us, them) = w.index.position_of_used((entry & !WON) as u64);
                if !passes(v, full & !(us | them))
                    || blocked::can_move(v, s.swapped(), them, us)
                    || !blocked::can_move(v, s, us, them)
                {
                    continue;
                }
                let p = pred.index.slot(them, us) as u32;
                let (code, flag) = match entry & WON {
                    0 => (DECIDED | WIN_FLAG | d, WON),
                    _ => (DECIDED | d, 0),
                };
                if decide(&pred.cells[p as usize], code) {
                    found.decided.push((d, p | flag));
                }
            }
            found
        })
        .reduce(Found::default, Found::join)
}

#[cfg(test)]
mod tests;
