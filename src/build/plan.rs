//! The solving plan of whole games: the components a set of targets needs (from the sector
//! graph, `graph`), in solving order, with their exact sizes, and what solving them costs:
//! time, peak memory and disk estimated from measured throughput ([`estimate`]), and the
//! figures of what is still to solve in a directory ([`cost_to_solve`]), which `generate`
//! prints before a long solve and `probe` and the explorer show beside the command they
//! suggest.

// The estimates and costs are read by the program (feature `cli`): the library's own face is
// `plan()` and its entries.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

use crate::game::rules::{Capture, PlacingMill, Variant};
use crate::game::value::NMoveRule;
use crate::sector::graph::{Component, reachable_sectors, solving_order};
use crate::sector::index::{BoardTables, Sector, SectorIndex};
use crate::table::TableDir;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// Number of positions of a sector up to symmetry (orbits of stone placements), counted
/// exactly with Burnside's lemma over the board's symmetry group.
pub fn positions_up_to_symmetry(v: &Variant, s: Sector) -> u64 {
    orbits(v, s.w as usize, s.b as usize, 0)
}

/// Orbits under the board's symmetries of the ways to put `w` stones of one side, `b` of the
/// other and `k` marks on distinct points (Burnside's lemma: the average number of such
/// placements that each symmetry fixes, a fixed placement giving one kind to each whole cycle
/// of the symmetry's permutation).
fn orbits(v: &Variant, w: usize, b: usize, k: usize) -> u64 {
    // Counted once per board and numbers: a plan asks for the same sectors many times.
    type Counts = HashMap<(usize, usize, usize, usize), u64>;
    static COUNTED: OnceLock<Mutex<Counts>> = OnceLock::new();
    let key = (v.board_kind as usize, w, b, k);
    let counted = COUNTED.get_or_init(Default::default);
    if let Some(&n) = counted.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return n;
    }
    let n = count_orbits(v, w, b, k);
    counted
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, n);
    n
}

/// [`orbits`], counted.
fn count_orbits(v: &Variant, w: usize, b: usize, k: usize) -> u64 {
    let tables = BoardTables::of(v.board_kind);
    let board = tables.board;
    if w + b + k > board.len() {
        return 0;
    }
    let at = |i: usize, j: usize, m: usize| (i * (b + 1) + j) * (k + 1) + m;
    let mut total: u128 = 0;
    for perm in board.symmetries() {
        // Cycle lengths of the permutation.
        let mut seen = vec![false; perm.len()];
        let mut cycles = Vec::new();
        for start in 0..perm.len() {
            if seen[start] {
                continue;
            }
            let (mut p, mut len) = (start, 0);
            while !seen[p] {
                seen[p] = true;
                p = perm[p] as usize;
                len += 1;
            }
            cycles.push(len);
        }
        // Fixed placements: each cycle is empty, all ours, all theirs or all marked.
        let mut ways = vec![0u128; (w + 1) * (b + 1) * (k + 1)];
        ways[0] = 1;
        for &len in &cycles {
            for i in (0..=w).rev() {
                for j in (0..=b).rev() {
                    for m in (0..=k).rev() {
                        let mut add = 0;
                        if i >= len {
                            add += ways[at(i - len, j, m)];
                        }
                        if j >= len {
                            add += ways[at(i, j - len, m)];
                        }
                        if m >= len {
                            add += ways[at(i, j, m - len)];
                        }
                        ways[at(i, j, m)] += add;
                    }
                }
            }
        }
        total += ways[at(w, b, k)];
    }
    (total / board.symmetries().len() as u128) as u64
}

/// The numbers of marked points the positions of sector `s` can have under `v`: none unless
/// `placing-mill=mark` and stones are in hand. Under `mark` every stone taken during placing
/// marks its point ([`play`](crate::game::movegen::play)): its removal comes after a
/// placement (or a slide) that leaves a stone in hand, since hands only shrink, and a marked
/// point takes no stone until placing ends, so the marks are as many as the stones taken so
/// far: both sides' placed stones (`2 * stones - wf - bf`) less those on the board. Captures
/// (`capture=intervention`) take stones without marking: then the marks are at most that
/// many.
fn marks_of(v: &Variant, s: Sector) -> RangeInclusive<usize> {
    if v.placing_mill != PlacingMill::Mark || (s.wf == 0 && s.bf == 0) {
        return 0..=0;
    }
    let placed = 2 * v.stones as usize - s.wf as usize - s.bf as usize;
    let taken = placed.saturating_sub(s.w as usize + s.b as usize);
    if v.capture == Capture::Intervention {
        0..=taken
    } else {
        taken..=taken
    }
}

/// `n` choose `k`.
fn choose(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |c, i| c * (n - i) as u64 / (i + 1) as u64)
}

/// Positions of sector `s` up to symmetry with its marks as state ([`marks_of`]): the
/// orbits of the stones and marks together.
fn positions_with_marks(v: &Variant, s: Sector) -> u64 {
    marks_of(v, s)
        .map(|k| orbits(v, s.w as usize, s.b as usize, k))
        .sum()
}

/// Index slots of sector `s` with its marks as state: the sector's slots (its stones) times
/// the ways to choose the marked points among the points without a stone.
fn slots_with_marks(v: &Variant, s: Sector) -> u64 {
    let free = v.board().len() - s.w as usize - s.b as usize;
    let ways: u64 = marks_of(v, s).map(|k| choose(free, k)).sum();
    SectorIndex::new(v, s).slots() * ways
}

/// One entry of a solving plan.
#[derive(Clone, Debug)]
pub struct PlanEntry {
    /// The component (its sectors, solved together, and the sectors read while solving it).
    pub component: Component,
    /// Positions up to symmetry, per sector (in the order of [`Component::sectors`]).
    pub positions: Vec<u64>,
    /// Index slots (used and unused), per sector.
    pub slots: Vec<u64>,
}

impl PlanEntry {
    /// The numbers of marked points of each sector's positions (in the order of
    /// [`Component::sectors`]), as a range: `0..=0` unless `v` has `placing-mill=mark` and
    /// the sector stones in hand. Under `mark` a placing position has exactly as many marks
    /// as stones were taken so far, which the sector's stone counts give: a removal during
    /// placing always marks (a mill closed by the last placement leaves no mark, but its
    /// position is in the moving phase, where marks are gone), and no stone is placed on a
    /// mark again. Only under `capture=intervention`, whose captures do not mark, is the
    /// range wider (from none to every stone taken).
    pub fn marks(&self, v: &Variant) -> Vec<RangeInclusive<usize>> {
        self.component
            .sectors()
            .iter()
            .map(|&s| marks_of(v, s))
            .collect()
    }

    /// Positions up to symmetry per sector with the marks as state: the orbits of the
    /// stones and the marked points together, for every number of marks the sector can
    /// have ([`PlanEntry::marks`]); the same as [`PlanEntry::positions`] without marks.
    pub fn positions_with_marks(&self, v: &Variant) -> Vec<u64> {
        self.component
            .sectors()
            .iter()
            .zip(&self.positions)
            .map(|(&s, &p)| {
                if marks_of(v, s) == (0..=0) {
                    p
                } else {
                    positions_with_marks(v, s)
                }
            })
            .collect()
    }
}

/// The components needed for `targets` (all reachable sectors if empty) in solving order.
pub fn plan(v: &Variant, targets: &[Sector]) -> Vec<PlanEntry> {
    let targets = if targets.is_empty() {
        reachable_sectors(v)
    } else {
        targets.to_vec()
    };
    solving_order(v, &targets)
        .into_iter()
        .map(|component| PlanEntry {
            positions: component
                .sectors()
                .iter()
                .map(|&s| positions_up_to_symmetry(v, s))
                .collect(),
            slots: component
                .sectors()
                .iter()
                .map(|&s| SectorIndex::new(v, s).slots())
                .collect(),
            component,
        })
        .collect()
}

/// Solving throughput on the project machine (2 cores), positions per second, measured in
/// the whole-game run of docs/BENCHMARKS.md ("The standard game"): the moving phase at 4.09 M/s
/// over its 8.9 billion positions; the placing pass at 5.9 M/s on its large sectors (8-8-1-1,
/// 7-7-2-2) after the per-opponent tables (5.18 M/s over the whole placing phase before them).
const MOVING_RATE: f64 = 4.1e6;
const PLACING_RATE: f64 = 6.0e6;
/// The memory model of solving one component, the one source of the plan's peak estimate
/// ([`SolveMemory::estimated_peak`]) and of the working memory that `generate --max-memory`
/// bounds ([`SolveMemory::working`]).
///
/// The solver works in its cells (4 bytes per slot of every sector; 2 for a sector solved in
/// one pass over its exits, [`Component::is_exit_only`]) and the exit tables it reads (2
/// bytes per slot). It reads one component sector's exit tables for that sector's forward
/// pass only, so the largest such set counts, not all dependencies together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveMemory {
    /// Slots of the component's sectors together.
    pub slots: u64,
    /// Solved in one pass over its exits (2-byte cells, always in memory).
    pub exit_only: bool,
    /// Slots of the largest set of exit tables the solver holds at once.
    pub largest_reads: u64,
}

/// Bytes per slot of the solver's cells: a 32-bit cell, or the one-pass solver's 16-bit value.
const CELL_BYTES: u64 = 4;
const EXIT_ONLY_CELL_BYTES: u64 = 2;
/// Bytes per slot of an exit table held for a forward pass: its 16-bit values.
const EXIT_VALUE_BYTES: u64 = 2;
/// Peak bytes per slot while solving: the solver's 4-byte cells, the 2-byte output and the
/// work lists; the one-pass solver of sectors without internal moves holds only its 2-byte
/// output; each exit table held costs its 2-byte values plus the buffers of reading it. The
/// solver holds the exit tables of one component sector at a time (for that sector's forward
/// pass), so the read term counts the largest such set, not all dependencies together.
///
/// Fitted to the peaks measured in the same run (within 10 % on the large components), when
/// the solver still held every dependency for the whole solve and the read term was their
/// sum. Not re-fitted for the staged loading, but checked against it on the 16 Lasker
/// components of more than 40 M slots in the closure of 5-6-1-1 (`millbase generate
/// --variant lasker 5-6-1-1`, 2026-12-02): the estimate is 0.90-2.08 times the measured
/// peak, and below it for 4-6-0-1 + 6-4-1-0 (by 10 %) and 5-6-0-1 + 6-5-1-0 (by 2 %), whose
/// work lists are large (13-15 bytes per slot in all). A least-squares fit on those 16
/// (6.3 and 2.2 bytes per slot) would undershoot such components further, so the constants
/// are kept. Re-solving single components with the old and the staged solver saved 2.2-2.8
/// bytes per slot of the tables no longer held.
const WORK_BYTES_PER_SLOT: f64 = 8.0;
const EXIT_ONLY_BYTES_PER_SLOT: f64 = 2.0;
const READ_BYTES_PER_SLOT: f64 = 3.5;

impl SolveMemory {
    /// The memory model of solving `c`.
    pub fn of(v: &Variant, c: &Component) -> SolveMemory {
        let slots = |s: Sector| SectorIndex::new(v, s).slots();
        SolveMemory {
            slots: c.sectors().iter().map(|&s| slots(s)).sum(),
            exit_only: c.is_exit_only(),
            largest_reads: c
                .exits()
                .iter()
                .map(|e| e.targets().into_iter().flatten().map(slots).sum::<u64>())
                .max()
                .unwrap_or(0),
        }
    }

    /// The memory model of solving `c` with the marks as state ([`PlanEntry::marks`]): the
    /// same, with every sector's slots those of an index over its stones and marks
    /// together (its slots times the ways to choose the marks among its free points).
    pub fn with_marks(v: &Variant, c: &Component) -> SolveMemory {
        let slots = |s: Sector| slots_with_marks(v, s);
        SolveMemory {
            slots: c.sectors().iter().map(|&s| slots(s)).sum(),
            exit_only: c.is_exit_only(),
            largest_reads: c
                .exits()
                .iter()
                .map(|e| e.targets().into_iter().flatten().map(slots).sum::<u64>())
                .max()
                .unwrap_or(0),
        }
    }

    /// The memory the solver works in, bytes: its cells plus the largest set of exit tables
    /// it holds at once. What `generate --max-memory` bounds ([`GenerateOptions::max_memory`](
    /// crate::build::generate::GenerateOptions::max_memory)); the tables being written and the
    /// program itself come on top.
    pub fn working(&self) -> u64 {
        let cell_bytes = if self.exit_only {
            EXIT_ONLY_CELL_BYTES
        } else {
            CELL_BYTES
        };
        self.slots * cell_bytes + self.largest_reads * EXIT_VALUE_BYTES
    }

    /// The estimated peak memory of the process while solving, bytes: the working memory
    /// plus the output and work lists beside the cells and the buffers of reading the exit
    /// tables (fitted to measured peaks, see the constants).
    pub fn estimated_peak(&self) -> f64 {
        let (cell_bytes, peak_per_slot) = if self.exit_only {
            (EXIT_ONLY_CELL_BYTES, EXIT_ONLY_BYTES_PER_SLOT)
        } else {
            (CELL_BYTES, WORK_BYTES_PER_SLOT)
        };
        self.working() as f64
            + self.slots as f64 * (peak_per_slot - cell_bytes as f64)
            + self.largest_reads as f64 * (READ_BYTES_PER_SLOT - EXIT_VALUE_BYTES as f64)
    }
}

/// Measured size of the standard game's tables, bits per position (WDL 0.60 + distance 2.84).
const DISK_BITS_PER_POSITION: f64 = 3.44;

/// The estimates for one component on the project machine (2 cores), without the N-move
/// rule and with every position solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Solving time, seconds.
    pub seconds: f64,
    /// Peak memory, bytes.
    pub memory: f64,
    /// Size of its tables, bytes.
    pub disk: f64,
}

/// Estimate solving the component `e`: time from the measured throughput, peak memory from
/// the memory model ([`SolveMemory::estimated_peak`]), disk from its positions.
pub fn estimate(v: &Variant, e: &PlanEntry) -> Estimate {
    let positions: u64 = e.positions.iter().sum();
    Estimate::at_rates(
        e,
        positions,
        SolveMemory::of(v, &e.component).estimated_peak(),
    )
}

impl Estimate {
    /// The estimates of `e` ([`estimate`]) with the marks of `placing-mill=mark` as state:
    /// its positions with marks ([`PlanEntry::positions_with_marks`]) at the same rates,
    /// the memory model over the slots with marks ([`SolveMemory::with_marks`]), the same
    /// bits per position. The same as [`estimate`] where no sector has marks.
    pub fn with_marks(v: &Variant, e: &PlanEntry) -> Estimate {
        let positions: u64 = e.positions_with_marks(v).iter().sum();
        Estimate::at_rates(
            e,
            positions,
            SolveMemory::with_marks(v, &e.component).estimated_peak(),
        )
    }

    /// The estimates of solving `positions` positions of the component of `e` at the
    /// measured rates, with `memory` its estimated peak.
    fn at_rates(e: &PlanEntry, positions: u64, memory: f64) -> Estimate {
        // Sectors whose moves all leave them take the one-pass solver.
        let rate = if e.component.is_exit_only() {
            PLACING_RATE
        } else {
            MOVING_RATE
        };
        Estimate {
            seconds: positions as f64 / rate,
            memory,
            disk: positions as f64 * DISK_BITS_PER_POSITION / 8.0,
        }
    }
}

/// The components of `entries` that `generate` would solve in `dir`: those with a sector
/// whose table files (both, WDL and distance) are not there. Presence is judged by the files'
/// names, which is cheap; a damaged file is found, and its component solved again, only by
/// `generate` itself. A directory that does not exist holds nothing.
pub fn unsolved(dir: &Path, entries: Vec<PlanEntry>) -> Vec<PlanEntry> {
    let present: HashSet<Sector> = TableDir::scan(dir).map_or_else(
        |_| HashSet::new(),
        |listing| {
            listing
                .sectors()
                .filter(|&s| {
                    let f = listing.files(s);
                    f.wdl && f.distance
                })
                .collect()
        },
    );
    entries
        .into_iter()
        .filter(|e| !e.component.sectors().iter().all(|s| present.contains(s)))
        .collect()
}

/// The figures of a set of components to solve: how many, how large, and the estimated
/// time, peak memory and disk of solving them one after the other ([`estimate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cost {
    /// Components.
    pub components: usize,
    /// Sectors.
    pub sectors: usize,
    /// Positions up to symmetry.
    pub positions: u64,
    /// Estimated solving time on 2 cores, seconds.
    pub seconds: f64,
    /// Estimated peak memory (that of the largest component), bytes.
    pub peak_memory: f64,
    /// Estimated size of the tables written, bytes.
    pub disk: f64,
}

impl Cost {
    /// The figures of solving `entries` one after the other.
    pub fn of(v: &Variant, entries: &[PlanEntry]) -> Cost {
        Cost::sum(entries, |e| {
            (e.positions.iter().sum::<u64>(), estimate(v, e))
        })
    }

    /// The figures of solving `entries` with the marks of `placing-mill=mark` as state
    /// ([`Estimate::with_marks`]); the same as [`Cost::of`] where no sector has marks.
    pub fn with_marks(v: &Variant, entries: &[PlanEntry]) -> Cost {
        Cost::sum(entries, |e| {
            (
                e.positions_with_marks(v).iter().sum::<u64>(),
                Estimate::with_marks(v, e),
            )
        })
    }

    /// The figures of `entries`, each component's positions and estimates by `each`.
    fn sum(entries: &[PlanEntry], each: impl Fn(&PlanEntry) -> (u64, Estimate)) -> Cost {
        entries.iter().fold(Cost::default(), |c, e| {
            let (positions, x) = each(e);
            Cost {
                components: c.components + 1,
                sectors: c.sectors + e.component.sectors().len(),
                positions: c.positions + positions,
                seconds: c.seconds + x.seconds,
                peak_memory: c.peak_memory.max(x.memory),
                disk: c.disk + x.disk,
            }
        })
    }

    /// The figures as JSON: `{"components", "sectors", "positions", "estimated_seconds",
    /// "estimated_peak_memory_bytes", "estimated_disk_bytes", "text"}`, the text being
    /// [`Cost`]'s one line (for the explorer).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "components": self.components,
            "sectors": self.sectors,
            "positions": self.positions,
            "estimated_seconds": self.seconds,
            "estimated_peak_memory_bytes": self.peak_memory as u64,
            "estimated_disk_bytes": self.disk as u64,
            "text": self.to_string(),
        })
    }
}

/// The figures in one line: "49 sectors, 8904593601 positions; estimated 36.2 min on 2 cores,
/// peak memory 9.94 GiB, disk 3.57 GiB", or "nothing" when there is nothing to solve.
impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sectors == 0 {
            return f.write_str("nothing");
        }
        write!(
            f,
            "{}, {}; estimated {} on 2 cores, peak memory {}, disk {}",
            count(self.sectors as u64, "sector", "sectors"),
            count(self.positions, "position", "positions"),
            duration(self.seconds),
            bytes(self.peak_memory),
            bytes(self.disk)
        )
    }
}

/// What solving `targets` and everything they need still costs in `dir`: the figures of the
/// components of their plan ([`plan`]) that are not there yet ([`unsolved`]).
pub fn cost_to_solve(v: &Variant, dir: &Path, targets: &[Sector]) -> Cost {
    Cost::of(v, &unsolved(dir, plan(v, targets)))
}

/// The `millbase generate` command that makes the tables of `sector` in `dir` under
/// `variant` and `rule` (the sector as `generate` takes it, the directory quoted for a POSIX
/// shell where needed).
pub fn generate_command(v: &Variant, rule: NMoveRule, dir: &Path, sector: Sector) -> String {
    let mut cmd = String::from("millbase generate");
    if v.name != "std" {
        cmd.push_str(&format!(" --variant {}", v.name));
    }
    // The options changed on top of the named set (the N-move rules of play aside: tables
    // carry their own).
    if let Some(base) = Variant::by_name(v.name) {
        for (key, value) in v.rules() {
            let play_rule = matches!(key, "n-move-rule" | "endgame-n-move-rule");
            if !play_rule && base.rule(key).as_deref() != Some(value.as_str()) {
                cmd.push_str(&format!(" --rule {key}={}", shell_quote(&value)));
            }
        }
    }
    if rule.is_active() {
        cmd.push_str(&format!(" --n-move-rule {}", rule.n()));
    }
    cmd.push_str(&format!(
        " --dir {} {}",
        shell_quote(&dir.display().to_string()),
        sector_name(sector)
    ));
    cmd
}

/// What to do about the missing tables of `sector` in `dir`, in one line: "make it with
/// `millbase generate --dir data/std 0-0-9-9` (to solve: 269 sectors, ...; estimated ...)".
pub fn missing_table_advice(v: &Variant, rule: NMoveRule, dir: &Path, sector: Sector) -> String {
    format!(
        "make it with `{}` (to solve: {})",
        generate_command(v, rule, dir, sector),
        cost_to_solve(v, dir, &[sector])
    )
}

/// A sector as `generate` takes it: `w-b` in the moving phase, else `w-b-wf-bf`.
pub fn sector_name(s: Sector) -> String {
    if s.is_moving() {
        format!("{}-{}", s.w, s.b)
    } else {
        s.to_string()
    }
}

/// Quote a word for a POSIX shell when it needs it.
fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `n` and the noun, singular for one: "1 sector", "3 sectors".
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A duration for people: seconds under a minute, minutes under an hour, else hours.
pub fn duration(s: f64) -> String {
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{:.2} h", s / 3600.0)
    }
}

/// A size in KiB, MiB or GiB.
pub fn bytes(b: f64) -> String {
    if b < 1024.0 * 1024.0 {
        format!("{:.0} KiB", b / 1024.0)
    } else if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / 1048576.0)
    } else {
        format!("{:.2} GiB", b / 1073741824.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::movegen::{Convention, legal_moves, outcome, play};
    use crate::game::position::Position;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(shell_quote("data/std"), "data/std");
        assert_eq!(shell_quote("my tables"), "'my tables'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn burnside_counts_match_reference() {
        let v = Variant::standard();
        assert_eq!(positions_up_to_symmetry(&v, Sector::moving(3, 3)), 169_626);
        assert_eq!(positions_up_to_symmetry(&v, Sector::moving(3, 4)), 760_398);
        assert_eq!(
            positions_up_to_symmetry(&v, Sector::moving(8, 8)),
            591_726_690
        );
        assert_eq!(
            positions_up_to_symmetry(&v, Sector::moving(7, 8)),
            525_979_400
        );
        assert_eq!(
            positions_up_to_symmetry(&v, Sector::moving(9, 9)),
            409_106_740
        );
        let moving: u64 = (3..=9)
            .flat_map(|w| (3..=9).map(move |b| Sector::moving(w, b)))
            .map(|s| positions_up_to_symmetry(&v, s))
            .sum();
        assert_eq!(moving, 8_904_593_601);
    }

    /// Orbits of placements of `w`, `b` and `k` points of three kinds on `v`'s board,
    /// counted by enumerating every placement and keeping the least image of each under
    /// the symmetries.
    fn orbits_by_enumeration(v: &Variant, w: usize, b: usize, k: usize) -> u64 {
        let board = v.board();
        let n = board.len();
        let mut canonical = HashSet::new();
        let mut kinds = vec![0u8; n];
        // Every assignment of kinds 1 (w), 2 (b), 3 (k) to distinct points.
        fn place(
            kinds: &mut Vec<u8>,
            left: [usize; 3],
            from: usize,
            kind: usize,
            out: &mut dyn FnMut(&[u8]),
        ) {
            if kind == 3 {
                out(kinds);
                return;
            }
            if left[kind] == 0 {
                place(kinds, left, 0, kind + 1, out);
                return;
            }
            for p in from..kinds.len() {
                if kinds[p] == 0 {
                    kinds[p] = kind as u8 + 1;
                    let mut l = left;
                    l[kind] -= 1;
                    place(kinds, l, p + 1, kind, out);
                    kinds[p] = 0;
                }
            }
        }
        place(&mut kinds, [w, b, k], 0, 0, &mut |ks: &[u8]| {
            let least = board
                .symmetries()
                .iter()
                .map(|perm| {
                    let mut image = [0u8; 24];
                    for (p, &kind) in ks.iter().enumerate() {
                        image[perm[p] as usize] = kind;
                    }
                    image
                })
                .min()
                .unwrap();
            canonical.insert(least);
        });
        canonical.len() as u64
    }

    #[test]
    fn burnside_with_marks_matches_enumeration() {
        let six = Variant::by_name("six").unwrap();
        let std = Variant::standard();
        for (v, w, b, k) in [
            (&six, 2, 2, 1),
            (&six, 3, 1, 2),
            (&six, 1, 1, 0),
            (&std, 2, 1, 1),
            (&std, 1, 1, 2),
            (&std, 3, 0, 0),
        ] {
            assert_eq!(
                orbits(v, w, b, k),
                orbits_by_enumeration(v, w, b, k),
                "{w} {b} {k}"
            );
        }
        assert_eq!(orbits(&six, 10, 5, 2), 0, "more than the 16 points");
    }

    /// The sector of a position, seen from the side to move.
    fn sector_of(p: &Position) -> Sector {
        let (me, opp) = (p.to_move.index(), p.to_move.other().index());
        Sector::new(
            p.stones[me].count_ones() as u8,
            p.stones[opp].count_ones() as u8,
            p.in_hand[me],
            p.in_hand[opp],
        )
    }

    /// A small pseudo-random generator (xorshift): the next number of `seed`.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn every_placing_position_the_referee_reaches_has_the_marks_its_sector_gives() {
        // Six Men's Morris under marks: from 20 positions of random games with a mark and
        // seven stones in hand, every distinct placing position the referee's moves reach
        // (removals within the move).
        let v = Variant::from_rules("six", &["placing-mill=mark"]).unwrap();
        let sectors: HashSet<Sector> = plan(&v, &[])
            .iter()
            .flat_map(|e| e.component.sectors().to_vec())
            .collect();
        let mut stack = Vec::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        while stack.len() < 20 {
            let mut p = Position::start(&v);
            while p.in_hand[0] + p.in_hand[1] > 7 && outcome(&v, &p).is_none() {
                let moves = legal_moves(&v, &p, Convention::Combined);
                p = play(
                    &v,
                    &p,
                    moves[(next(&mut seed) % moves.len() as u64) as usize],
                );
            }
            if p.marks != 0 && outcome(&v, &p).is_none() {
                stack.push(p);
            }
        }
        let mut seen: HashSet<Position> = HashSet::new();
        let mut per_sector: HashMap<Sector, u64> = HashMap::new();
        while let Some(p) = stack.pop() {
            if p.in_hand == [0, 0] || !seen.insert(p) {
                continue;
            }
            let s = sector_of(&p);
            let over = outcome(&v, &p).is_some();
            assert!(over || sectors.contains(&s), "{s} not in the plan");
            let k = p.marks.count_ones() as usize;
            assert_eq!(marks_of(&v, s), k..=k, "{s}: {p:?}");
            assert_eq!(p.marks & (p.stones[0] | p.stones[1]), 0);
            *per_sector.entry(s).or_default() += 1;
            if over {
                continue;
            }
            for mv in legal_moves(&v, &p, Convention::Combined) {
                stack.push(play(&v, &p, mv));
            }
        }
        // No more positions of a sector than stones and marks on distinct points allow
        // (the referee's positions have either colour to move; a sector sees both).
        let n = v.board().len();
        for (s, &count) in &per_sector {
            let k = *marks_of(&v, *s).start();
            let (w, b) = (s.w as usize, s.b as usize);
            let all = 2 * choose(n, w) * choose(n - w, b) * choose(n - w - b, k);
            assert!(count <= all, "{s}: {count} > {all}");
        }
        assert!(seen.len() > 1000, "{}", seen.len());
        assert!(per_sector.keys().any(|&s| *marks_of(&v, s).start() >= 2));
    }

    #[test]
    fn marks_follow_the_referee_in_random_games_of_every_set_with_marks() {
        for name in ["cham-gonu", "zhi-qi", "cheng-san-qi", "da-san-qi"] {
            let v = Variant::by_name(name).unwrap();
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let mut most = 0;
            for _ in 0..2000 {
                let mut p = Position::start(&v);
                while p.in_hand != [0, 0] && outcome(&v, &p).is_none() {
                    let s = sector_of(&p);
                    let k = p.marks.count_ones() as usize;
                    assert_eq!(marks_of(&v, s), k..=k, "{name} {s}");
                    most = most.max(k);
                    let moves = legal_moves(&v, &p, Convention::Combined);
                    p = play(
                        &v,
                        &p,
                        moves[(next(&mut seed) % moves.len() as u64) as usize],
                    );
                }
                // Placing is over: no marks.
                assert_eq!(p.marks, 0, "{name}");
            }
            assert!(most >= 2, "{name}: at most {most} marks seen");
        }
    }

    #[test]
    fn positions_with_marks_add_the_marks_only_where_stones_are_in_hand() {
        let v = Variant::by_name("cheng-san-qi").unwrap();
        let s: Sector = "5-4-2-3".parse().unwrap();
        // 7 and 6 placed, 5 and 4 on the board: 4 stones taken, 4 marks among 15 free points.
        assert_eq!(marks_of(&v, s), 4..=4);
        let entries = plan(&v, &[s]);
        let e = entries.last().unwrap();
        assert_eq!(e.component.sectors(), [s]);
        assert_eq!(e.positions_with_marks(&v), [orbits(&v, 5, 4, 4)]);
        assert_eq!(
            slots_with_marks(&v, s),
            SectorIndex::new(&v, s).slots() * choose(15, 4)
        );
        // The moving phase and the standard game have none.
        assert_eq!(marks_of(&v, Sector::moving(5, 4)), 0..=0);
        assert_eq!(marks_of(&Variant::standard(), s), 0..=0);
        let moving = plan(&v, &[Sector::moving(4, 4)]);
        assert_eq!(Cost::with_marks(&v, &moving), Cost::of(&v, &moving));
        // Intervention captures do not mark: any number up to the stones taken.
        let both = Variant::from_rules("cheng-san-qi", &["capture=intervention"]).unwrap();
        assert_eq!(marks_of(&both, s), 0..=4);
    }

    #[test]
    fn the_cost_counts_only_components_whose_files_are_missing() {
        let v = Variant::standard();
        let dir = tempfile::tempdir().unwrap();
        let s34 = Sector::moving(3, 4);
        // An empty directory: the whole plan (3-3, then 3-4 with 4-3).
        let all = cost_to_solve(&v, dir.path(), &[s34]);
        assert_eq!(all, Cost::of(&v, &plan(&v, &[s34])));
        assert_eq!((all.components, all.sectors), (2, 3));
        assert_eq!(all.positions, 169_626 + 2 * 760_398);
        // A directory that does not exist holds nothing either.
        assert_eq!(cost_to_solve(&v, &dir.path().join("none"), &[s34]), all);
        // Present by name: both files of a sector; a WDL file alone does not count.
        let touch = |name: &str| std::fs::write(dir.path().join(name), b"").unwrap();
        touch("3-3-0-0.mbw");
        assert_eq!(cost_to_solve(&v, dir.path(), &[s34]), all);
        touch("3-3-0-0.mbd");
        let rest = cost_to_solve(&v, dir.path(), &[s34]);
        assert_eq!((rest.components, rest.sectors), (1, 2));
        assert_eq!(rest.positions, 2 * 760_398);
        // A component is solved whole: one sector of it missing counts both.
        touch("3-4-0-0.mbw");
        touch("3-4-0-0.mbd");
        assert_eq!(cost_to_solve(&v, dir.path(), &[s34]), rest);
        touch("4-3-0-0.mbw");
        touch("4-3-0-0.mbd");
        let none = cost_to_solve(&v, dir.path(), &[s34]);
        assert_eq!(none, Cost::default());
        assert_eq!(none.to_string(), "nothing");
    }

    #[test]
    fn the_cost_line_gives_every_figure() {
        let v = Variant::standard();
        let cost = Cost::of(&v, &plan(&v, &[Sector::moving(9, 9)]));
        assert_eq!((cost.components, cost.sectors), (28, 49));
        assert_eq!(cost.positions, 8_904_593_601);
        assert_eq!(
            cost.to_string(),
            format!(
                "49 sectors, 8904593601 positions; estimated {} on 2 cores, peak memory {}, \
                 disk {}",
                duration(cost.seconds),
                bytes(cost.peak_memory),
                bytes(cost.disk)
            )
        );
        // Time from the moving phase's throughput, disk from its bits per position.
        assert!((cost.seconds - 8_904_593_601.0 / MOVING_RATE).abs() < 1e-3);
        assert!((cost.disk - 8_904_593_601.0 * DISK_BITS_PER_POSITION / 8.0).abs() < 1.0);
        // The start position's sector alone: one sector of one position.
        let start: Sector = "0-0-9-9".parse().unwrap();
        let entries = plan(&v, &[start]);
        let last = entries.last().unwrap();
        assert_eq!(last.component.sectors(), [start]);
        let one = Cost::of(&v, std::slice::from_ref(last));
        assert!(
            one.to_string().starts_with("1 sector, 1 position; "),
            "{one}"
        );
        assert_eq!(count(0, "sector", "sectors"), "0 sectors");
    }

    #[test]
    fn the_command_names_variant_rule_and_directory() {
        let std = Variant::standard();
        let s = Sector::moving(3, 4);
        let dir = Path::new("my tables");
        assert_eq!(
            generate_command(&std, NMoveRule::NONE, dir, s),
            "millbase generate --dir 'my tables' 3-4"
        );
        let lasker = *crate::game::rules::VARIANTS
            .iter()
            .find(|v| v.name == "lasker")
            .unwrap();
        let placing: Sector = "0-1-9-8".parse().unwrap();
        assert_eq!(
            generate_command(
                &lasker,
                NMoveRule::new(50).unwrap(),
                Path::new("d"),
                placing
            ),
            "millbase generate --variant lasker --n-move-rule 50 --dir d 0-1-9-8"
        );
        let changed = Variant::from_rules("std", &["fly=off", "n-move-rule=50"]).unwrap();
        assert_eq!(
            generate_command(&changed, NMoveRule::NONE, Path::new("d"), s),
            "millbase generate --rule fly=off --dir d 3-4"
        );
    }
}
