//! `millbase plan --calibrate`: the solve rate of the asked rules against the standard
//! game's, measured on this machine.
//!
//! The plan's times use the standard game's solve rates; other rules solve slower or faster
//! per position (docs/BENCHMARKS.md, "Rule sets"). Calibration solves the same small
//! moving-phase sectors (every sector with at most N stones on the board, dependencies
//! first) in memory under the asked rules and under the standard game's, without the
//! N-move rule as the plan's estimates are, and measures the CPU time of each component.
//!
//! * **One thread.** The solves run on a thread pool of one thread, so that the CPU time is
//!   the work done: with two threads on a busy machine, a worker waiting for the other
//!   (descheduled) one spins, and the CPU time of the same solve varied by a third.
//! * **Alternately.** Each component is solved under the standard rules, then under the
//!   asked ones (3-3, then 3-4 + 4-3, ...), so that a change in the machine's load touches
//!   both alike; a component whose solve takes under [`MIN_CPU_SECONDS`] is solved again
//!   until it has taken that long. The components the factor rests on are measured in
//!   [`BASIS_ROUNDS`] such rounds of at least [`BASIS_MIN_CPU_SECONDS`], each rule set
//!   first in every other round, and the least CPU time of each counts.
//! * **The factor** is the ratio of CPU time per position on the largest components where
//!   neither side has three stones (4-4 up to 8 stones): the whole game's positions are
//!   nearly all in such sectors, and a three-stone side costs the standard game far more
//!   per position than rules where it does not fly (3-3 five times 4-4's), so smaller or
//!   three-stone sectors would understate the others' cost.

use crate::cli::CliError;
use millbase::Variant;
use millbase::plan::{PlanEntry, plan};
use millbase::sectors::{Sector, moving_sectors_up_to};
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

/// The least CPU time a component's measurement takes (it is solved again until then).
pub const MIN_CPU_SECONDS: f64 = 0.1;

/// The least CPU time of a round's measurement of a component of the factor's basis.
pub const BASIS_MIN_CPU_SECONDS: f64 = 0.5;

/// The most times a component is solved for one measurement.
const MAX_REPEATS: u32 = 10_000;

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
    /// CPU time of one solve, seconds: the least over the rounds (each the measured time
    /// over its repeats).
    pub cpu: f64,
    /// CPU time of one solve in each round, seconds.
    pub rounds: Vec<f64>,
    /// How many times it was solved in the first round.
    pub repeats: u32,
}

impl Measured {
    /// Stones on the board of its sectors (both sides).
    fn stones(&self) -> u8 {
        self.sectors[0].w + self.sectors[0].b
    }

    /// Its name: its sectors, "3-4-0-0 4-3-0-0".
    fn name(&self) -> String {
        let names: Vec<String> = self.sectors.iter().map(|s| s.to_string()).collect();
        names.join(" ")
    }

    fn json(&self) -> Value {
        json!({
            "positions": self.positions,
            "cpu_seconds": self.cpu,
            "cpu_seconds_by_round": self.rounds,
            "repeats": self.repeats,
        })
    }
}

/// CPU time per position over `list`, nanoseconds (`None` without positions).
fn ns_per_position<'a>(list: impl IntoIterator<Item = &'a Measured>) -> Option<f64> {
    let (cpu, positions) = list
        .into_iter()
        .fold((0.0, 0u64), |(c, p), m| (c + m.cpu, p + m.positions));
    (positions > 0 && cpu > 0.0).then(|| cpu * 1e9 / positions as f64)
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

    /// Solve a component, keeping its values for those that read them.
    fn solve(&mut self, e: &PlanEntry) -> Result<(), CliError> {
        let solved = solve_component(
            &self.variant,
            &e.component,
            &self.values,
            &SolveOptions::default(),
        )
        .map_err(|err| CliError::failure(format!("calibration: {err}")))?;
        for s in solved {
            self.values.insert(s.sector, Arc::new(s.values));
        }
        Ok(())
    }

    /// Solve the first component once, unmeasured: the board's index tables and the memory
    /// are set up before the first measurement.
    fn warm_up(&mut self) -> Result<(), CliError> {
        let first = self.entries[0].clone();
        self.solve(&first)
    }

    /// Solve `e` again and again until it has taken `least` seconds of CPU: its CPU time
    /// per solve, and the solves.
    fn measure_once(&mut self, e: &PlanEntry, least: f64) -> Result<(f64, u32), CliError> {
        let mut repeats = 0;
        let start = cpu_seconds();
        loop {
            self.solve(e)?;
            repeats += 1;
            if cpu_seconds() - start >= least || repeats >= MAX_REPEATS {
                break;
            }
        }
        Ok(((cpu_seconds() - start) / repeats as f64, repeats))
    }

    /// Record a round's measurement of `e`.
    fn record(&mut self, e: &PlanEntry, (cpu, repeats): (f64, u32)) {
        let sectors = e.component.sectors();
        match self.measured.iter_mut().find(|m| m.sectors == sectors) {
            Some(m) => {
                m.rounds.push(cpu);
                m.cpu = m.cpu.min(cpu);
            }
            None => self.measured.push(Measured {
                sectors: sectors.to_vec(),
                positions: e.positions.iter().sum(),
                cpu,
                rounds: vec![cpu],
                repeats,
            }),
        }
    }

    /// The component of this rule set whose sectors are `sectors`.
    fn entry(&self, sectors: &[Sector]) -> Option<PlanEntry> {
        self.entries
            .iter()
            .find(|e| e.component.sectors() == sectors)
            .cloned()
    }
}

/// The components the factor is measured on, among `both` (the sectors of the components
/// both rule sets have): those with the most stones where neither side has three, else
/// those with the most stones.
fn basis_of(both: &[&[Sector]]) -> Vec<Vec<Sector>> {
    let stones = |c: &[Sector]| c[0].w + c[0].b;
    let without_three: Vec<&[Sector]> = both
        .iter()
        .copied()
        .filter(|c| c[0].w.min(c[0].b) > 3)
        .collect();
    let list = if without_three.is_empty() {
        both.to_vec()
    } else {
        without_three
    };
    let most = list.iter().map(|c| stones(c)).max();
    list.into_iter()
        .filter(|c| Some(stones(c)) == most)
        .map(<[Sector]>::to_vec)
        .collect()
}

/// How many rounds the components of the factor's basis are measured in (the least CPU
/// time of a round counts: a round that the machine's other work slowed is left out).
pub const BASIS_ROUNDS: usize = 3;

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
    let started = Instant::now();
    let names = |r: &Run| -> Vec<Vec<Sector>> {
        r.entries
            .iter()
            .map(|e| e.component.sectors().to_vec())
            .collect()
    };
    let (asked_names, standard_names) = (names(&asked), names(&standard));
    let both: Vec<&[Sector]> = asked_names
        .iter()
        .filter(|c| standard_names.contains(c))
        .map(Vec::as_slice)
        .collect();
    let basis = basis_of(&both);
    // Every component of either, by stones on the board, the standard rules' order first.
    let mut order: Vec<Vec<Sector>> = standard_names.clone();
    order.extend(
        asked_names
            .into_iter()
            .filter(|c| !standard_names.contains(c)),
    );
    order.sort_by_key(|c| (c[0].w + c[0].b, c[0]));
    pool.install(|| -> Result<(), CliError> {
        standard.warm_up()?;
        asked.warm_up()?;
        for sectors in &order {
            let rounds = if basis.contains(sectors) {
                BASIS_ROUNDS
            } else {
                1
            };
            let least = if rounds > 1 {
                BASIS_MIN_CPU_SECONDS
            } else {
                MIN_CPU_SECONDS
            };
            let (s, a) = (standard.entry(sectors), asked.entry(sectors));
            for round in 0..rounds {
                // Each rule set first in every other round.
                for run in [round % 2, 1 - round % 2] {
                    let (r, e) = if run == 0 {
                        (&mut standard, &s)
                    } else {
                        (&mut asked, &a)
                    };
                    if let Some(e) = e {
                        let m = r.measure_once(e, least)?;
                        r.record(e, m);
                    }
                }
            }
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
    /// The components by name, in solving order of the standard rules' (then those only the
    /// asked rules have): (asked, standard), either missing where that rule set has none.
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
        out.sort_by_key(|(a, s)| a.or(*s).map(|m| (m.stones(), m.sectors[0])));
        out
    }

    /// The components both rule sets have that the factor is measured on ([`basis_of`]):
    /// (asked, standard).
    pub fn basis(&self) -> Vec<(&Measured, &Measured)> {
        let both: Vec<(&Measured, &Measured)> = self
            .pairs()
            .into_iter()
            .filter_map(|(a, s)| Some((a?, s?)))
            .collect();
        let names: Vec<&[Sector]> = both.iter().map(|(a, _)| a.sectors.as_slice()).collect();
        let basis = basis_of(&names);
        both.into_iter()
            .filter(|(a, _)| basis.contains(&a.sectors))
            .collect()
    }

    /// The ratio of CPU time per position, asked rules over standard, over `pairs`.
    fn ratio_over(pairs: &[(&Measured, &Measured)]) -> Option<f64> {
        let a = ns_per_position(pairs.iter().map(|(a, _)| *a))?;
        let s = ns_per_position(pairs.iter().map(|(_, s)| *s))?;
        Some(a / s)
    }

    /// The factor the plan's times are multiplied by: the ratio over [`Calibration::basis`]
    /// (1 where nothing could be compared).
    pub fn ratio(&self) -> f64 {
        Calibration::ratio_over(&self.basis()).unwrap_or(1.0)
    }

    /// The lines `plan --calibrate` prints: a table of the components and the factor.
    pub fn text(&self) -> String {
        let name = self.variant.label();
        let mut t = format!(
            "calibration on this machine: the moving phase up to {} stones on the board solved \
             in memory on one thread under {name} and std (without the N-move rule), {:.1} s:\n",
            self.stones, self.wall
        );
        let _ = writeln!(
            t,
            "  {:<16} {:>11} {:>8} {:>7} {:>11} {:>8} {:>7} {:>6}",
            "component", "positions", "CPU s", "ns/pos", "std pos", "std CPU", "ns/pos", "ratio"
        );
        for (a, s) in self.pairs() {
            let cell = |m: Option<&Measured>| match m {
                Some(m) => format!(
                    "{:>11} {:>8.3} {:>7.1}",
                    m.positions,
                    m.cpu,
                    ns_per_position([m]).unwrap_or(0.0)
                ),
                None => format!("{:>11} {:>8} {:>7}", "-", "-", "-"),
            };
            let ratio = match (a, s) {
                (Some(a), Some(s)) => Calibration::ratio_over(&[(a, s)])
                    .map_or("-".to_string(), |r| format!("{r:.2}")),
                _ => "-".to_string(),
            };
            let first = a.or(s).map(|m| m.name()).unwrap_or_default();
            let short: Vec<&str> = first
                .split(' ')
                .map(|n| n.strip_suffix("-0-0").unwrap_or(n))
                .collect();
            let _ = writeln!(
                t,
                "  {:<16} {} {} {ratio:>6}",
                short.join(" "),
                cell(a),
                cell(s)
            );
        }
        t.push_str(&self.note());
        t.push('\n');
        t
    }

    /// What the estimates rest on, in one line: the standard game's rates times the ratio.
    pub fn note(&self) -> String {
        let basis: Vec<String> = self.basis().iter().map(|(a, _)| a.name()).collect();
        format!(
            "estimates: 2 cores of the project machine at the standard game's solve rates, \
             times multiplied by {:.2}, the ratio of CPU time per position measured here on {}",
            self.ratio(),
            if basis.is_empty() {
                "nothing comparable (factor 1)".to_string()
            } else {
                basis.join(", ")
            }
        )
    }

    /// The calibration as JSON: `{"stones", "ratio", "basis": [component names], "threads",
    /// "wall_seconds", "components": [{"sectors", "asked": Measured or null, "standard":
    /// Measured or null, "ratio"}]}`.
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
        let basis: Vec<String> = self.basis().iter().map(|(a, _)| a.name()).collect();
        json!({
            "stones": self.stones,
            "ratio": self.ratio(),
            "basis": basis,
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
    fn measured(w: u8, b: u8, positions: u64, cpu: f64) -> Measured {
        let mut sectors = vec![Sector::moving(w, b)];
        if w != b {
            sectors.push(Sector::moving(b, w));
        }
        Measured {
            sectors,
            positions,
            cpu,
            rounds: vec![cpu],
            repeats: 1,
        }
    }

    #[test]
    fn the_factor_comes_from_the_largest_components_without_a_three_stone_side() {
        let c = Calibration {
            variant: Variant::standard(),
            stones: 8,
            // ns per position: 3-3 10, 3-5 20, 4-4 30 (asked); 3-3 50, 3-5 10, 4-4 10 (std).
            asked: vec![
                measured(3, 3, 100, 1e-6),
                measured(3, 5, 100, 2e-6),
                measured(4, 4, 200, 6e-6),
            ],
            standard: vec![
                measured(3, 3, 100, 5e-6),
                measured(3, 5, 100, 1e-6),
                measured(4, 4, 200, 2e-6),
            ],
            wall: 0.0,
        };
        let basis = c.basis();
        assert_eq!(basis.len(), 1);
        assert_eq!(basis[0].0.name(), "4-4-0-0");
        assert!((c.ratio() - 3.0).abs() < 1e-9);
        // Only three-stone components: the largest of them.
        let mut small = c;
        small.asked.pop();
        small.standard.pop();
        assert_eq!(small.basis()[0].0.name(), "3-5-0-0 5-3-0-0");
        assert!((small.ratio() - 2.0).abs() < 1e-9);
        // A component only one rule set has is not compared.
        small.asked.pop();
        assert_eq!(small.basis()[0].0.name(), "3-3-0-0");
        assert!((small.ratio() - 0.2).abs() < 1e-9);
    }
}
