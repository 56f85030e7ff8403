//! `millbase plan --calibrate`: the solve rate of the asked rules against the standard
//! game's, measured on this machine.
//!
//! The plan's times use the standard game's solve rates; other rules solve slower or faster
//! per position (docs/BENCHMARKS.md, "Rule sets"). Calibration solves the same small
//! moving-phase sectors (every sector with at most N stones on the board, dependencies
//! first) in memory under the asked rules and under the standard game's, without the
//! N-move rule as the plan's estimates are, and measures the CPU time of each component.
//! The factor is the ratio of CPU time per position over every component both rule sets
//! have (what solving these sectors costs under each).
//!
//! * **One thread.** The solves run on a thread pool of one thread, so that the CPU time is
//!   the work done: with two threads on a busy machine, a worker waiting for the other
//!   (descheduled) one spins, and the CPU time of the same solve varied by a third.
//! * **Alternately.** Each component is solved under the standard rules, then under the
//!   asked ones (3-3, then 3-4 + 4-3, ...), so that a change in the machine's load touches
//!   both alike; a component whose solve takes under [`MIN_CPU_SECONDS`] is solved again
//!   until it has taken that long.
//! * **Decided positions.** The solver spends most of its time on positions that are won or
//!   lost (it propagates them); draws cost little. The standard game's small sectors are
//!   nearly all drawn where no side has three stones (4-4 and 4-5: 99.99 %), while its
//!   whole moving phase is 79 % decided, so for rules with few draws the ratio on small
//!   sectors overstates the whole game's. The output gives each component's decided share
//!   under both rule sets, and says so where they differ.

use crate::cli::CliError;
use millbase::Variant;
use millbase::plan::{PlanEntry, plan};
use millbase::sectors::{Sector, moving_sectors_up_to};
use millbase::solver::{SectorStats, SolveOptions, SolvedValues, solve_component};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

/// The least CPU time a component's measurement takes (it is solved again until then).
pub const MIN_CPU_SECONDS: f64 = 0.1;

/// The most times a component is solved for one measurement.
const MAX_REPEATS: u32 = 10_000;

/// The share of decided (won or lost) positions in the standard game's moving phase,
/// percent: 7,072,499,721 of 8,904,593,601 (docs/BENCHMARKS.md, "The standard game"), the
/// positions the plan's moving-phase rate was measured on.
const STANDARD_DECIDED_PERCENT: f64 = 79.4;

/// The CPU time this process has used so far, user and system, every thread, seconds.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage struct, RUSAGE_SELF is a valid `who`.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    if rc != 0 {
        return 0.0;
    }
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

/// One component measured under one rule set.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Its sectors.
    pub sectors: Vec<Sector>,
    /// Positions up to symmetry.
    pub positions: u64,
    /// Positions won or lost for the side to move.
    pub decided: u64,
    /// CPU time of one solve, seconds (the measured time over the repeats).
    pub cpu: f64,
    /// How many times it was solved for the measurement.
    pub repeats: u32,
}

impl Measured {
    /// Does a side of its sectors have three stones?
    fn three_stone_side(&self) -> bool {
        self.sectors[0].w.min(self.sectors[0].b) <= 3
    }

    /// Its name: its sectors, "3-4-0-0 4-3-0-0".
    fn name(&self) -> String {
        let names: Vec<String> = self.sectors.iter().map(|s| s.to_string()).collect();
        names.join(" ")
    }

    fn json(&self) -> Value {
        json!({
            "positions": self.positions,
            "decided": self.decided,
            "cpu_seconds": self.cpu,
            "repeats": self.repeats,
        })
    }
}

/// CPU time per position over `list`, nanoseconds (`None` without positions or time).
fn ns_per_position<'a>(list: impl IntoIterator<Item = &'a Measured>) -> Option<f64> {
    let (cpu, positions) = list
        .into_iter()
        .fold((0.0, 0u64), |(c, p), m| (c + m.cpu, p + m.positions));
    (positions > 0 && cpu > 0.0).then(|| cpu * 1e9 / positions as f64)
}

/// The decided share of the positions of `list`, percent.
fn decided_percent<'a>(list: impl IntoIterator<Item = &'a Measured>) -> f64 {
    let (decided, positions) = list
        .into_iter()
        .fold((0u64, 0u64), |(d, p), m| (d + m.decided, p + m.positions));
    if positions == 0 {
        0.0
    } else {
        decided as f64 * 100.0 / positions as f64
    }
}

/// The solves of one rule set.
struct Run {
    variant: Variant,
    /// The plan's components, dependencies first.
    entries: Vec<PlanEntry>,
    values: SolvedValues,
    measured: Vec<Measured>,
}

impl Run {
    fn new(v: &Variant, stones: u8) -> Run {
        Run {
            variant: *v,
            entries: plan(v, &moving_sectors_up_to(v, stones)),
            values: SolvedValues::new(),
            measured: Vec::new(),
        }
    }

    /// Solve a component, keeping its values for those that read them; its decided
    /// positions.
    fn solve(&mut self, e: &PlanEntry) -> Result<u64, CliError> {
        let solved = solve_component(
            &self.variant,
            &e.component,
            &self.values,
            &SolveOptions::default(),
        )
        .map_err(|err| CliError::failure(format!("calibration: {err}")))?;
        let mut decided = 0;
        for s in solved {
            let stats = SectorStats::of(&s.values);
            decided += stats.wins + stats.losses;
            self.values.insert(s.sector, Arc::new(s.values));
        }
        Ok(decided)
    }

    /// Solve the first component once, unmeasured: the board's index tables and the memory
    /// are set up before the first measurement.
    fn warm_up(&mut self) -> Result<(), CliError> {
        let first = self.entries[0].clone();
        self.solve(&first).map(|_| ())
    }

    /// Solve the component whose sectors are `sectors`, if this rule set has it, again and
    /// again until it has taken [`MIN_CPU_SECONDS`], and record its CPU time per solve.
    fn measure(&mut self, sectors: &[Sector]) -> Result<(), CliError> {
        let Some(e) = self
            .entries
            .iter()
            .find(|e| e.component.sectors() == sectors)
            .cloned()
        else {
            return Ok(());
        };
        let mut repeats = 0;
        let start = cpu_seconds();
        let decided = loop {
            let decided = self.solve(&e)?;
            repeats += 1;
            if cpu_seconds() - start >= MIN_CPU_SECONDS || repeats >= MAX_REPEATS {
                break decided;
            }
        };
        // The statistics of the values are counted inside the measured time: a pass over
        // the values, as the writing of a solve's tables would make.
        self.measured.push(Measured {
            sectors: sectors.to_vec(),
            positions: e.positions.iter().sum(),
            decided,
            cpu: (cpu_seconds() - start) / repeats as f64,
            repeats,
        });
        Ok(())
    }
}

/// A calibration: the components measured under the asked rules and the standard game's.
pub struct Calibration {
    /// The asked rules.
    pub variant: Variant,
    /// The most stones on the board of the sectors solved.
    pub stones: u8,
    /// The components solved under the asked rules.
    pub asked: Vec<Measured>,
    /// The components solved under the standard rules.
    pub standard: Vec<Measured>,
    /// Wall time of the whole calibration, seconds.
    pub wall: f64,
}

/// Measure the solve rate of `v` against the standard game's on the moving-phase sectors
/// with at most `stones` on the board.
pub fn calibrate(v: &Variant, stones: u8) -> Result<Calibration, CliError> {
    let unsupported = v.unsupported_by_tables();
    if !unsupported.is_empty() {
        return Err(CliError::usage(format!(
            "--calibrate: no table follows {} (variant {}), so nothing solves under these \
             rules",
            unsupported.join(", "),
            v.label()
        )));
    }
    let mut asked = Run::new(v, stones);
    if asked.entries.is_empty() {
        return Err(CliError::usage(format!(
            "--calibrate={stones}: variant {} has no moving-phase sector with at most \
             {stones} stones on the board",
            v.label()
        )));
    }
    let mut standard = Run::new(&Variant::standard(), stones);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| CliError::failure(format!("calibration: no thread pool: {e}")))?;
    // Every component of either, by stones on the board (dependencies first).
    let names = |r: &Run| -> Vec<Vec<Sector>> {
        r.entries
            .iter()
            .map(|e| e.component.sectors().to_vec())
            .collect()
    };
    let mut order = names(&standard);
    for c in names(&asked) {
        if !order.contains(&c) {
            order.push(c);
        }
    }
    order.sort_by_key(|c| (c[0].w + c[0].b, c[0]));
    let started = Instant::now();
    pool.install(|| -> Result<(), CliError> {
        standard.warm_up()?;
        asked.warm_up()?;
        for sectors in &order {
            standard.measure(sectors)?;
            asked.measure(sectors)?;
        }
        Ok(())
    })?;
    Ok(Calibration {
        variant: *v,
        stones,
        asked: asked.measured,
        standard: standard.measured,
        wall: started.elapsed().as_secs_f64(),
    })
}

impl Calibration {
    /// The components in solving order, (asked, standard), either missing where that rule
    /// set has none.
    fn pairs(&self) -> Vec<(Option<&Measured>, Option<&Measured>)> {
        let mut out: Vec<(Option<&Measured>, Option<&Measured>)> = self
            .standard
            .iter()
            .map(|s| {
                let a = self.asked.iter().find(|a| a.sectors == s.sectors);
                (a, Some(s))
            })
            .collect();
        for a in &self.asked {
            if !self.standard.iter().any(|s| s.sectors == a.sectors) {
                out.push((Some(a), None));
            }
        }
        out.sort_by_key(|(a, s)| {
            a.or(*s)
                .map(|m| (m.sectors[0].w + m.sectors[0].b, m.sectors[0]))
        });
        out
    }

    /// The components both rule sets have: (asked, standard).
    pub fn both(&self) -> Vec<(&Measured, &Measured)> {
        self.pairs()
            .into_iter()
            .filter_map(|(a, s)| Some((a?, s?)))
            .collect()
    }

    /// The ratio of CPU time per position, asked rules over standard, over `pairs`.
    fn ratio_over(pairs: &[(&Measured, &Measured)]) -> Option<f64> {
        let a = ns_per_position(pairs.iter().map(|(a, _)| *a))?;
        let s = ns_per_position(pairs.iter().map(|(_, s)| *s))?;
        Some(a / s)
    }

    /// The factor the plan's times are multiplied by: the ratio over every component both
    /// rule sets have (1 where there is none).
    pub fn ratio(&self) -> f64 {
        Calibration::ratio_over(&self.both()).unwrap_or(1.0)
    }

    /// The ratio over the components where neither side has three stones (`None`: there
    /// is none).
    pub fn ratio_without_three(&self) -> Option<f64> {
        let pairs: Vec<(&Measured, &Measured)> = self
            .both()
            .into_iter()
            .filter(|(a, _)| !a.three_stone_side())
            .collect();
        Calibration::ratio_over(&pairs)
    }

    /// The decided shares of the compared components, percent: (asked, standard).
    pub fn decided(&self) -> (f64, f64) {
        let both = self.both();
        (
            decided_percent(both.iter().map(|(a, _)| *a)),
            decided_percent(both.iter().map(|(_, s)| *s)),
        )
    }

    /// The lines `plan --calibrate` prints: a table of the components, the ratios and what
    /// the estimates rest on.
    pub fn text(&self) -> String {
        let name = self.variant.label();
        let mut t = format!(
            "calibration on this machine: the moving phase up to {} stones on the board solved \
             in memory on one thread under {name} and std (without the N-move rule), {:.1} s:\n",
            self.stones, self.wall
        );
        let _ = writeln!(
            t,
            "  {:<16} {:>11} {:>7} {:>8} {:>7}  {:>11} {:>7} {:>8} {:>7}  {:>6}",
            "component",
            "positions",
            "decided",
            "CPU s",
            "ns/pos",
            "std pos",
            "decided",
            "std CPU",
            "ns/pos",
            "ratio"
        );
        for (a, s) in self.pairs() {
            let cell = |m: Option<&Measured>| match m {
                Some(m) => format!(
                    "{:>11} {:>6.1}% {:>8.3} {:>7.1}",
                    m.positions,
                    decided_percent([m]),
                    m.cpu,
                    ns_per_position([m]).unwrap_or(0.0)
                ),
                None => format!("{:>11} {:>7} {:>8} {:>7}", "-", "-", "-", "-"),
            };
            let ratio = match (a, s) {
                (Some(a), Some(s)) => Calibration::ratio_over(&[(a, s)])
                    .map_or("-".to_string(), |r| format!("{r:.2}")),
                _ => "-".to_string(),
            };
            let full = a.or(s).map(|m| m.name()).unwrap_or_default();
            let short: Vec<&str> = full
                .split(' ')
                .map(|n| n.strip_suffix("-0-0").unwrap_or(n))
                .collect();
            let _ = writeln!(
                t,
                "  {:<16} {}  {}  {ratio:>6}",
                short.join(" "),
                cell(a),
                cell(s)
            );
        }
        let (asked, std) = self.decided();
        let _ = write!(
            t,
            "ratio of CPU time per position over these sectors: {:.2}",
            self.ratio()
        );
        if let Some(r) = self.ratio_without_three() {
            let _ = write!(t, "; where no side has three stones: {r:.2}");
        }
        let _ = writeln!(
            t,
            "\ndecided (won or lost) positions: {asked:.1} % under {name}, {std:.1} % under std \
             (its whole moving phase: {STANDARD_DECIDED_PERCENT} %)"
        );
        if asked > std + 20.0 {
            let _ = writeln!(
                t,
                "note: decided positions cost the solver more than draws, and these small \
                 sectors are far more often drawn under std than its whole game: the factor \
                 likely overstates the whole game's"
            );
        }
        t.push_str(&self.note());
        t.push('\n');
        t
    }

    /// What the estimates rest on, in one line: the standard game's rates times the ratio.
    pub fn note(&self) -> String {
        format!(
            "estimates: 2 cores of the project machine at the standard game's solve rates, \
             times multiplied by {:.2}, the ratio of CPU time per position measured here on \
             the moving phase up to {} stones",
            self.ratio(),
            self.stones
        )
    }

    /// The calibration as JSON: `{"stones", "ratio", "ratio_without_three_stone_side",
    /// "decided_percent": {"asked", "standard", "standard_whole_moving_phase"}, "threads",
    /// "wall_seconds", "components": [{"sectors", "asked": Measured or null, "standard":
    /// Measured or null, "ratio"}]}` (Measured: `{"positions", "decided", "cpu_seconds",
    /// "repeats"}`).
    pub fn json(&self) -> Value {
        let components: Vec<Value> = self
            .pairs()
            .into_iter()
            .map(|(a, s)| {
                let sectors: Vec<String> = a
                    .or(s)
                    .map(|m| m.sectors.iter().map(|s| s.to_string()).collect())
                    .unwrap_or_default();
                let ratio = match (a, s) {
                    (Some(a), Some(s)) => Calibration::ratio_over(&[(a, s)]),
                    _ => None,
                };
                json!({
                    "sectors": sectors,
                    "asked": a.map(Measured::json),
                    "standard": s.map(Measured::json),
                    "ratio": ratio,
                })
            })
            .collect();
        let (asked, std) = self.decided();
        json!({
            "stones": self.stones,
            "ratio": self.ratio(),
            "ratio_without_three_stone_side": self.ratio_without_three(),
            "decided_percent": {
                "asked": asked,
                "standard": std,
                "standard_whole_moving_phase": STANDARD_DECIDED_PERCENT,
            },
            "threads": 1,
            "wall_seconds": self.wall,
            "components": components,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A component measured: moving sectors w-b (and b-w) with these figures.
    fn measured(w: u8, b: u8, positions: u64, decided: u64, cpu: f64) -> Measured {
        let mut sectors = vec![Sector::moving(w, b)];
        if w != b {
            sectors.push(Sector::moving(b, w));
        }
        Measured {
            sectors,
            positions,
            decided,
            cpu,
            repeats: 1,
        }
    }

    #[test]
    fn the_factor_is_the_ratio_over_every_component_both_rule_sets_have() {
        let c = Calibration {
            variant: Variant::standard(),
            stones: 8,
            // ns per position: 3-3 10, 3-5 20, 4-4 30 (asked); 3-3 50, 3-5 10, 4-4 10 (std).
            asked: vec![
                measured(3, 3, 100, 100, 1e-6),
                measured(3, 5, 100, 50, 2e-6),
                measured(4, 4, 200, 200, 6e-6),
            ],
            standard: vec![
                measured(3, 3, 100, 50, 5e-6),
                measured(3, 5, 100, 0, 1e-6),
                measured(4, 4, 200, 0, 2e-6),
            ],
            wall: 0.0,
        };
        // 9 us over 400 positions against 8 us over 400.
        assert!((c.ratio() - 9.0 / 8.0).abs() < 1e-9);
        assert!((c.ratio_without_three().unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(c.decided(), (87.5, 12.5));
        assert!(c.text().contains("likely overstates"), "{}", c.text());
        // A component only one rule set has is not compared.
        let mut fewer = c;
        fewer.asked.pop();
        assert!((fewer.ratio() - 0.5).abs() < 1e-9);
        assert_eq!(fewer.ratio_without_three(), None);
        assert_eq!(fewer.both().len(), 2);
    }
}
