//! `generate`: solving sectors into a directory, with progress bars and a line per component.

use super::common::{QuietArg, SolveRuleArg, TablesArgs, count, emit, parse_sectors};
use super::signals::stop_cleanly_on_signals;
use super::{CliError, one_line};
use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressState, ProgressStyle};
use millbase::plan::{Cost, plan, unsolved};
use millbase::sectors::{Component, moving_sectors_up_to, reachable_sectors};
use millbase::tables::{ComponentReport, GenerateObserver, TableDir, check_rules};
use millbase::{GenerateError, GenerateOptions, generate};
use std::fmt::Write as _;
use std::sync::Mutex;

/// Arguments of `millbase generate`.
#[derive(Debug, Args)]
#[command(
    mut_arg("dir", |a| a.help("Directory for the tables [default: data/<variant>]")),
    mut_arg("quiet", |a| a.help("Do not draw progress bars"))
)]
pub struct GenerateArgs {
    #[command(flatten)]
    tables: TablesArgs,
    #[command(flatten)]
    quiet: QuietArg,
    /// Solve every sector a game from the start position can reach (the whole game).
    #[arg(long, conflicts_with = "sectors")]
    all: bool,
    /// Solve every sector of Malom's standard database (498 sectors, including those no
    /// game reaches), as `millbase export --format malom --all` needs (std only).
    #[arg(long, conflicts_with_all = ["sectors", "all"])]
    malom: bool,
    #[command(flatten)]
    n_move_rule: SolveRuleArg,
    /// Leave the positions that no game can reach unsolved and store them as "don't care"
    /// (docs/FORMAT.md): faster, smaller tables that refuse to probe such positions.
    #[arg(long)]
    skip_unreachable: bool,
    /// Memory allowed for one component's solve, MiB: a component whose solver cells and
    /// exit tables need more keeps its cells in a memory-mapped scratch file in --dir (the
    /// kernel pages it to disk; slower, but the solve completes instead of running out of
    /// memory). The Snakemake workflow passes each job's mem_mb.
    #[arg(
        long,
        value_name = "MIB",
        value_parser = super::common::whole_from(1u64),
        allow_negative_numbers = true
    )]
    max_memory: Option<u64>,
    /// Solve exactly the components of the named sectors, reading the tables they depend on
    /// from --dir (exit 2, naming them, when one is missing or damaged): one job of a cluster
    /// workflow (`millbase plan --emit snakemake`). Workers may share a directory: a lock per
    /// component keeps two from solving the same one.
    #[arg(long, requires = "sectors", conflicts_with_all = ["all", "malom"])]
    no_deps: bool,
    /// Print what the run would still solve in --dir (sectors, positions, estimated time on
    /// 2 cores, peak memory, disk: the line printed before any solve estimated over a
    /// minute), and solve nothing.
    #[arg(long)]
    dry_run: bool,
    /// Sectors to solve, as w-b (moving phase) or w-b-wf-bf, counted from the side to move;
    /// everything they depend on is solved too. Default: every moving-phase sector with
    /// w + b <= 10.
    #[arg(value_name = "SECTOR")]
    sectors: Vec<String>,
}

/// Progress bars: one for the whole run, one for the component being solved.
struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    current: Mutex<Option<ProgressBar>>,
}

fn style(prefix: &str) -> ProgressStyle {
    ProgressStyle::with_template(&format!(
        "{prefix} {{msg:>18}} [{{bar:32}}] {{percent:>3}}% {{pps}} ETA {{eta}}"
    ))
    .expect("valid template")
    .with_key("pps", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        // Two work units per position: the forward pass and the propagation.
        let rate = s.pos() as f64 / 2.0 / s.elapsed().as_secs_f64().max(1e-9);
        let _ = write!(w, "{:>6.2} M pos/s", rate / 1e6);
    })
    .progress_chars("=> ")
}

impl GenerateObserver for Bars {
    fn run_started(&self, work: u64) {
        self.overall.set_length(work);
    }

    fn component_started(&self, component: &Component, work: u64) {
        let bar = self
            .multi
            .insert_before(&self.overall, ProgressBar::new(work));
        bar.set_style(style("sector "));
        let names: Vec<String> = component.sectors().iter().map(|s| s.to_string()).collect();
        bar.set_message(names.join(" "));
        *self.current.lock().unwrap() = Some(bar);
    }

    fn advance(&self, units: u64) {
        if let Some(bar) = self.current.lock().unwrap().as_ref() {
            bar.inc(units);
        }
        self.overall.inc(units);
    }

    fn component_waiting(&self, component: &Component, holder: Option<u32>) {
        let names: Vec<String> = component.sectors().iter().map(|s| s.to_string()).collect();
        let who = holder.map_or("another process".to_string(), |pid| {
            format!("another process (pid {pid})")
        });
        let line = format!("{}: {who} is solving it, waiting", names.join(" + "));
        self.multi.suspend(|| println!("{line}"));
    }

    fn component_finished(&self, report: &ComponentReport) {
        if let Some(bar) = self.current.lock().unwrap().take() {
            // Propagation skips draws: count the rest of the component as done.
            let rest = bar.length().unwrap_or(0).saturating_sub(bar.position());
            self.overall.inc(rest);
            bar.finish_and_clear();
        }
        let line = report_line(report);
        self.multi.suspend(|| println!("{line}"));
    }
}

fn report_line(r: &ComponentReport) -> String {
    let names: Vec<String> = r
        .component
        .sectors()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let names = names.join(" + ");
    if r.by_other_process {
        return format!("{names}: solved by another process meanwhile, kept");
    }
    if !r.solved {
        return format!("{names}: already solved, kept");
    }
    let secs = r.elapsed.as_secs_f64();
    // Three decimals under a second, so that small sectors do not show "0.00 s".
    let shown = if secs < 1.0 {
        format!("{secs:.3}")
    } else {
        format!("{secs:.2}")
    };
    let mut line = format!(
        "{names}: {} in {shown} s ({})",
        count(r.positions, "position", "positions"),
        speed(r.positions as f64 / secs.max(1e-9))
    );
    if let Some(peak) = r.peak_memory {
        let _ = write!(line, ", peak memory {} MiB", peak >> 20);
    }
    if r.spilled {
        line.push_str(", cells in a scratch file (--max-memory)");
    }
    for why in &r.repaired {
        let _ = write!(line, "; solved again: {}", one_line(why));
    }
    line
}

/// A solving speed in positions per second, in the unit that shows it: "4.09 M positions/s",
/// "35.2 k positions/s", "850 positions/s".
fn speed(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M positions/s", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k positions/s", rate / 1e3)
    } else {
        format!("{rate:.0} positions/s")
    }
}

/// Runs estimated to take longer than this, seconds, are announced before they start.
const ANNOUNCE_SECONDS: f64 = 60.0;

/// `millbase generate`.
pub fn run_generate(args: &GenerateArgs) -> Result<(), CliError> {
    let (v, dir) = args.tables.tables()?;
    let rule = args.n_move_rule.n_move_rule;
    if std::fs::metadata(&dir).is_ok_and(|m| !m.is_dir()) {
        return Err(CliError::usage(format!(
            "{}: not a directory (--dir names the directory of the tables)",
            dir.display()
        )));
    }
    let targets = if args.malom {
        if !millbase::export::malom::supports(&v) {
            return Err(CliError::usage(format!(
                "--malom solves Malom's database of the standard game, not of {}",
                v.label()
            )));
        }
        millbase::export::malom::malom_sectors()
    } else if args.all {
        reachable_sectors(&v)
    } else if args.sectors.is_empty() {
        moving_sectors_up_to(&v, 10)
    } else {
        parse_sectors(&v, &args.sectors)?
    };
    // Rules the tables do not follow, and tables of another variant or N-move rule, are
    // refused before anything is announced or written (the library refuses them too).
    check_rules(&v, &targets, args.no_deps).map_err(|e| CliError::usage(e.to_string()))?;
    if let Some(e) = TableDir::scan(&dir)
        .ok()
        .and_then(|t| t.other_tables(&v, Some(rule)))
    {
        return Err(CliError::usage(GenerateError::OtherVariant(e).to_string()));
    }
    // What the run will solve, from the plan and the files in the directory: announced
    // before a long solve (on standard output, with the run's other lines).
    let mut entries = plan(&v, &targets);
    if args.no_deps {
        entries.retain(|e| e.component.sectors().iter().any(|s| targets.contains(s)));
    }
    let cost = Cost::of(&v, &unsolved(&dir, entries));
    let announce = format!("to solve in {}: {cost}\n", dir.display());
    if args.dry_run {
        return emit(&announce);
    }
    if cost.seconds > ANNOUNCE_SECONDS {
        emit(&announce)?;
    }
    // An interruption (Ctrl-C, SIGTERM) removes this run's lock and temporary files.
    stop_cleanly_on_signals()
        .map_err(|e| CliError::failure(format!("cannot handle signals: {e}")))?;
    let multi = if args.quiet.quiet {
        MultiProgress::with_draw_target(indicatif::ProgressDrawTarget::hidden())
    } else {
        MultiProgress::new()
    };
    let overall = multi.add(ProgressBar::new(0));
    overall.set_style(style("overall"));
    overall.set_message(format!("{} {}", v.label(), dir.display()));
    let bars = Bars {
        multi,
        overall,
        current: Mutex::new(None),
    };
    let start = std::time::Instant::now();
    let options = GenerateOptions {
        rule,
        skip_unreachable: args.skip_unreachable,
        max_memory: args.max_memory.map(|m| m << 20),
        no_deps: args.no_deps,
        observer: &bars,
    };
    let reports = generate(&v, &dir, &targets, &options).map_err(|e| match e {
        GenerateError::MissingDependencies { .. }
        | GenerateError::OtherVariant(_)
        | GenerateError::UnsupportedRules { .. } => CliError::usage(e.to_string()),
        e => CliError::failure(format!("generation stopped: {e}")),
    })?;
    bars.overall.finish_and_clear();
    let solved: Vec<&ComponentReport> = reports.iter().filter(|r| r.solved).collect();
    let positions: u64 = solved.iter().map(|r| r.positions).sum();
    let peak = solved.iter().filter_map(|r| r.peak_memory).max();
    let secs = start.elapsed().as_secs_f64();
    let sectors = |f: &dyn Fn(&ComponentReport) -> bool| -> usize {
        reports
            .iter()
            .filter(|r| f(r))
            .map(|r| r.component.sectors().len())
            .sum()
    };
    let by_other = sectors(&|r| r.by_other_process);
    let mut line = format!(
        "done: {} solved ({}) in {secs:.1} s, {} already present",
        count(sectors(&|r| r.solved) as u64, "sector", "sectors"),
        count(positions, "position", "positions"),
        sectors(&|r| !r.solved),
    );
    if by_other > 0 {
        let _ = write!(line, " ({by_other} solved by another process meanwhile)");
    }
    let _ = write!(line, ", in {} ({rule}", dir.display());
    match rule.endgame_in(&v) {
        0 => line.push(')'),
        e => {
            let _ = write!(line, "; {e} while a side has three stones on the board)");
        }
    }
    if let Some(p) = peak {
        let _ = write!(line, "; peak memory {} MiB", p >> 20);
    }
    emit(&format!("{line}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn report(positions: u64, elapsed: Duration) -> ComponentReport {
        ComponentReport {
            component: Component::of(&millbase::Variant::standard(), "0-0-9-9".parse().unwrap()),
            solved: true,
            by_other_process: false,
            repaired: Vec::new(),
            positions,
            elapsed,
            peak_memory: None,
            spilled: false,
            stats: Vec::new(),
        }
    }

    #[test]
    fn speeds_are_shown_in_a_unit_that_shows_them() {
        assert_eq!(speed(4.094e6), "4.09 M positions/s");
        assert_eq!(speed(35_240.0), "35.2 k positions/s");
        assert_eq!(speed(850.0), "850 positions/s");
    }

    #[test]
    fn a_one_position_sector_is_reported_in_the_singular() {
        assert_eq!(
            report_line(&report(1, Duration::from_micros(400))),
            "0-0-9-9: 1 position in 0.000 s (2.5 k positions/s)"
        );
        assert_eq!(
            report_line(&report(169_626, Duration::from_millis(1500))),
            "0-0-9-9: 169626 positions in 1.50 s (113.1 k positions/s)"
        );
    }
}
