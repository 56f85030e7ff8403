//! `millbase plan --calibrate`: the solve rate of the asked rules against the standard
//! game's, measured on this machine.
//!
//! The plan's times use the standard game's solve rates; other rules solve slower or faster
//! per position (docs/BENCHMARKS.md, "Rule sets"). Calibration solves the same small
//! moving-phase sectors (every sector with at most N stones on the board, dependencies
//! first) in memory under the asked rules and under the standard game's, without the
//! N-move rule as the plan's estimates are, measuring the process's CPU time (user and
//! system, every thread) of each. The ratio of CPU time per position scales the plan's
//! times. The levels (the sectors with exactly n stones) are solved alternately under the
//! two rule sets, so that a change in the machine's load touches both alike; a level whose
//! solve takes under [`MIN_CPU_SECONDS`] is solved again until it has taken that long.

use crate::cli::CliError;
use millbase::Variant;
use millbase::plan::{PlanEntry, plan};
use millbase::sectors::moving_sectors_up_to;
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;

/// The least CPU time a level's measurement takes (the level is solved again until then).
pub const MIN_CPU_SECONDS: f64 = 0.2;

/// The most times a level is solved for one measurement.
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

/// One level measured under one rule set: the sectors with exactly `stones` on the board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Level {
    /// Stones on the board (both sides).
    pub stones: u8,
    /// Sectors.
    pub sectors: usize,
    /// Positions up to symmetry.
    pub positions: u64,
    /// CPU time of one solve of the level, seconds (the measured time over the repeats).
    pub cpu: f64,
    /// How many times the level was solved for the measurement.
    pub repeats: u32,
}

impl Level {
    /// CPU time per position, nanoseconds (0 without positions).
    fn ns_per_position(&self) -> f64 {
        if self.positions == 0 {
            0.0
        } else {
            self.cpu * 1e9 / self.positions as f64
        }
    }

    fn json(&self) -> Value {
        json!({
            "sectors": self.sectors,
            "positions": self.positions,
            "cpu_seconds": self.cpu,
            "repeats": self.repeats,
        })
    }
}

/// The measurements of one rule set, level by level.
struct Run {
    variant: Variant,
    /// The plan's components by level (the stones on the board of their sectors).
    levels: Vec<(u8, Vec<PlanEntry>)>,
    values: SolvedValues,
    measured: Vec<Level>,
}

impl Run {
    fn new(v: &Variant, stones: u8) -> Run {
        let entries = plan(v, &moving_sectors_up_to(v, stones));
        let mut levels: Vec<(u8, Vec<PlanEntry>)> = Vec::new();
        for e in entries {
            let first = e.component.first();
            let n = first.w + first.b;
            match levels.iter_mut().find(|(m, _)| *m == n) {
                Some((_, list)) => list.push(e),
                None => levels.push((n, vec![e])),
            }
        }
        levels.sort_by_key(|(n, _)| *n);
        Run {
            variant: *v,
            levels,
            values: SolvedValues::new(),
            measured: Vec::new(),
        }
    }

    /// Solve the components of `entries`, keeping their values for the next level.
    fn solve(&mut self, entries: &[PlanEntry]) -> Result<(), CliError> {
        for e in entries {
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
        }
        Ok(())
    }

    /// Solve the smallest level once, unmeasured: the board's index tables, the thread pool
    /// and the memory are set up before the first measurement.
    fn warm_up(&mut self) -> Result<(), CliError> {
        let entries = self.levels[0].1.clone();
        self.solve(&entries)
    }

    /// Solve the level of `stones` (if this rule set has one), measuring its CPU time.
    fn measure(&mut self, stones: u8) -> Result<(), CliError> {
        let Some((_, entries)) = self.levels.iter().find(|(n, _)| *n == stones) else {
            return Ok(());
        };
        let entries = entries.clone();
        let mut repeats = 0;
        let start = cpu_seconds();
        loop {
            self.solve(&entries)?;
            repeats += 1;
            if cpu_seconds() - start >= MIN_CPU_SECONDS || repeats >= MAX_REPEATS {
                break;
            }
        }
        self.measured.push(Level {
            stones,
            sectors: entries.iter().map(|e| e.component.sectors().len()).sum(),
            positions: entries.iter().flat_map(|e| e.positions.iter()).sum(),
            cpu: (cpu_seconds() - start) / repeats as f64,
            repeats,
        });
        Ok(())
    }
}

/// CPU time per position over the levels of `levels` up to `stones`, nanoseconds (`None`
/// without positions).
fn ns_up_to(levels: &[Level], stones: u8) -> Option<f64> {
    let (cpu, positions) = levels
        .iter()
        .filter(|l| l.stones <= stones)
        .fold((0.0, 0u64), |(c, p), l| (c + l.cpu, p + l.positions));
    (positions > 0).then(|| cpu * 1e9 / positions as f64)
}

/// A calibration: the levels measured under the asked rules and the standard game's.
pub struct Calibration {
    /// The asked rules.
    pub variant: Variant,
    /// The most stones on the board of the sectors solved.
    pub stones: u8,
    /// The levels of the asked rules.
    pub asked: Vec<Level>,
    /// The levels of the standard game.
    pub standard: Vec<Level>,
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
    if asked.levels.is_empty() {
        return Err(CliError::usage(format!(
            "--calibrate={stones}: variant {} has no moving-phase sector with at most \
             {stones} stones on the board",
            v.label()
        )));
    }
    let mut standard = Run::new(&Variant::standard(), stones);
    let started = Instant::now();
    let mut all: Vec<u8> = asked
        .levels
        .iter()
        .chain(&standard.levels)
        .map(|(n, _)| *n)
        .collect();
    all.sort_unstable();
    all.dedup();
    standard.warm_up()?;
    asked.warm_up()?;
    for &n in &all {
        standard.measure(n)?;
        asked.measure(n)?;
    }
    Ok(Calibration {
        variant: *v,
        stones,
        asked: asked.measured,
        standard: standard.measured,
        wall: started.elapsed().as_secs_f64(),
    })
}

impl Calibration {
    /// The levels measured under either rule set, in increasing order.
    fn levels(&self) -> Vec<u8> {
        let mut all: Vec<u8> = self
            .asked
            .iter()
            .chain(&self.standard)
            .map(|l| l.stones)
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The ratio of CPU time per position, asked rules over the standard game's, over the
    /// levels up to `stones` (`None` where either has no positions yet).
    pub fn ratio_up_to(&self, stones: u8) -> Option<f64> {
        match (
            ns_up_to(&self.asked, stones),
            ns_up_to(&self.standard, stones),
        ) {
            (Some(a), Some(s)) if a > 0.0 && s > 0.0 => Some(a / s),
            _ => None,
        }
    }

    /// The ratio of one level alone (`None` where either rule set lacks it).
    fn ratio_at(&self, stones: u8) -> Option<f64> {
        let find = |list: &[Level]| list.iter().find(|l| l.stones == stones).copied();
        match (find(&self.asked), find(&self.standard)) {
            (Some(a), Some(s)) if a.cpu > 0.0 && s.cpu > 0.0 => {
                Some(a.ns_per_position() / s.ns_per_position())
            }
            _ => None,
        }
    }

    /// The largest level both rule sets have: the sectors most like the whole game's
    /// large ones.
    pub fn largest_common(&self) -> Option<u8> {
        self.levels()
            .into_iter()
            .rev()
            .find(|&n| self.ratio_at(n).is_some())
    }

    /// The factor the plan's times are multiplied by: the ratio of the largest level both
    /// rule sets have. Not the ratio over every level: the small sectors differ most in
    /// what is not like the whole game (3-3, where both sides may fly under the standard
    /// rules, costs it five times its CPU per position of 4-4).
    pub fn ratio(&self) -> f64 {
        self.largest_common()
            .and_then(|n| self.ratio_at(n))
            .unwrap_or(1.0)
    }

    /// The smallest and largest ratio of a level alone over the levels that both rule sets
    /// have with at least a million positions (the ratio's stability across sizes), or over
    /// every level when none has that many.
    fn spread(&self) -> (f64, f64) {
        let big = |n: u8| {
            [&self.asked, &self.standard].iter().all(|list| {
                list.iter()
                    .any(|l| l.stones == n && l.positions >= 1_000_000)
            })
        };
        let levels = self.levels();
        let chosen: Vec<u8> = if levels.iter().any(|&n| big(n)) {
            levels.into_iter().filter(|&n| big(n)).collect()
        } else {
            levels
        };
        chosen
            .into_iter()
            .filter_map(|n| self.ratio_at(n))
            .fold((f64::MAX, 0.0f64), |(lo, hi), r| (lo.min(r), hi.max(r)))
    }

    /// The lines `plan --calibrate` prints: a table of the levels and the factor.
    pub fn text(&self) -> String {
        let name = self.variant.label();
        let mut t = format!(
            "calibration on this machine: the moving phase up to {} stones on the board solved \
             in memory under {name} and std (without the N-move rule), {:.1} s:\n",
            self.stones, self.wall
        );
        let _ = writeln!(
            t,
            "  {:>6} {:>12} {:>10} {:>8} {:>12} {:>10} {:>8} {:>7} {:>9}",
            "stones",
            "positions",
            "CPU s",
            "ns/pos",
            "std pos",
            "std CPU s",
            "ns/pos",
            "ratio",
            "up to it"
        );
        for n in self.levels() {
            let a = self.asked.iter().find(|l| l.stones == n);
            let s = self.standard.iter().find(|l| l.stones == n);
            let cell = |l: Option<&Level>| match l {
                Some(l) => format!(
                    "{:>12} {:>10.3} {:>8.1}",
                    l.positions,
                    l.cpu,
                    l.ns_per_position()
                ),
                None => format!("{:>12} {:>10} {:>8}", "-", "-", "-"),
            };
            let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.2}"));
            let _ = writeln!(
                t,
                "  {n:>6} {} {} {:>7} {:>9}",
                cell(a),
                cell(s),
                ratio(self.ratio_at(n)),
                ratio(self.ratio_up_to(n))
            );
        }
        t.push_str(&self.note());
        t.push('\n');
        t
    }

    /// What the estimates rest on, in one line: the standard game's rates times the ratio.
    pub fn note(&self) -> String {
        let (lo, hi) = self.spread();
        format!(
            "estimates: 2 cores of the project machine at the standard game's solve rates, \
             times multiplied by {:.2}, the ratio of CPU time per position measured here on \
             the sectors with {} stones (by level from {lo:.2} to {hi:.2} over the levels of a \
             million positions or more)",
            self.ratio(),
            self.largest_common().unwrap_or(self.stones)
        )
    }

    /// The calibration as JSON: `{"stones", "ratio", "ratio_level", "ratio_spread": [lo, hi],
    /// "wall_seconds", "levels": [{"stones", "asked": Level or null, "standard": Level or
    /// null, "ratio", "ratio_up_to"}]}`.
    pub fn json(&self) -> Value {
        let levels: Vec<Value> = self
            .levels()
            .into_iter()
            .map(|n| {
                let find = |list: &[Level]| {
                    list.iter()
                        .find(|l| l.stones == n)
                        .map(Level::json)
                        .unwrap_or(Value::Null)
                };
                json!({
                    "stones": n,
                    "asked": find(&self.asked),
                    "standard": find(&self.standard),
                    "ratio": self.ratio_at(n),
                    "ratio_up_to": self.ratio_up_to(n),
                })
            })
            .collect();
        let (lo, hi) = self.spread();
        json!({
            "stones": self.stones,
            "ratio": self.ratio(),
            "ratio_level": self.largest_common(),
            "ratio_spread": [lo, hi],
            "wall_seconds": self.wall,
            "levels": levels,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ratio_is_per_position_over_the_levels_up_to_n() {
        let level = |stones, positions, cpu| Level {
            stones,
            sectors: 1,
            positions,
            cpu,
            repeats: 1,
        };
        let asked = vec![level(6, 100, 2e-6), level(7, 300, 12e-6)];
        let standard = vec![level(6, 200, 2e-6), level(7, 200, 4e-6)];
        // ns per position up to 6: 20 and 10; up to 7: 14 us / 400 = 35 ns and 6 us / 400
        // = 15 ns.
        let c = Calibration {
            variant: Variant::standard(),
            stones: 7,
            asked,
            standard,
            wall: 0.0,
        };
        assert!((c.ratio_up_to(6).unwrap() - 2.0).abs() < 1e-9);
        assert!((c.ratio_up_to(7).unwrap() - 35.0 / 15.0).abs() < 1e-9);
        // Level 7 alone: 40 ns against 20 ns, the factor.
        assert!((c.ratio_at(7).unwrap() - 2.0).abs() < 1e-9);
        assert_eq!(c.largest_common(), Some(7));
        assert!((c.ratio() - 2.0).abs() < 1e-9);
        // A level only one rule set has is not compared.
        let mut fewer = c;
        fewer.asked.pop();
        assert_eq!(fewer.largest_common(), Some(6));
        assert!((fewer.ratio() - 2.0).abs() < 1e-9);
        assert_eq!(fewer.ratio_at(7), None);
    }
}
