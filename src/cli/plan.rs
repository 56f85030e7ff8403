//! `millbase plan`: the sectors a whole game needs, in solving order, with estimated costs.

use super::workflow::{WorkflowOptions, snakefile};
use super::{CliError, VariantArg, emit};
use crate::cli::generate::{n_move_rule, parse_sectors, table_dir};
use crate::plan::{PlanEntry, plan};
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `millbase plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Write the plan as a workflow instead: `snakemake` writes a Snakefile with one job per
    /// component (docs/CLUSTER.md).
    #[arg(long, value_name = "ENGINE", conflicts_with = "json")]
    emit: Option<EmitFormat>,
    /// With --emit: the directory the jobs solve into [default: data/<variant>].
    #[arg(long, value_name = "DIR", requires = "emit")]
    dir: Option<PathBuf>,
    /// With --emit: the N-move rule the jobs solve under (as for `generate`).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 0,
        requires = "emit",
        allow_negative_numbers = true
    )]
    n_move_rule: u16,
    /// With --emit: the jobs leave unreachable positions unsolved (as for `generate`).
    #[arg(long, requires = "emit")]
    skip_unreachable: bool,
    /// With --emit: threads of each job estimated to take 10 s or more (others take 1).
    #[arg(long, value_name = "N", default_value_t = 2, requires = "emit",
          value_parser = clap::value_parser!(u16).range(1..), allow_negative_numbers = true)]
    threads: u16,
    /// Plan only for these sectors (and what they need); default: every sector a game from
    /// the start position can reach.
    #[arg(value_name = "SECTOR")]
    sectors: Vec<String>,
}

/// Solving throughput on the project machine (2 cores), positions per second, measured in
/// the whole-game run of docs/BENCHMARKS.md ("The standard game"): the moving phase at 4.09 M/s
/// over its 8.9 billion positions; the placing pass at 5.9 M/s on its large sectors (8-8-1-1,
/// 7-7-2-2) after the per-opponent tables (5.18 M/s over the whole placing phase before them).
const MOVING_RATE: f64 = 4.1e6;
const PLACING_RATE: f64 = 6.0e6;
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
/// Measured size of the standard game's tables, bits per position (WDL 0.60 + distance 2.84).
const DISK_BITS_PER_POSITION: f64 = 3.44;

/// The plan's estimates for one component on the project machine (2 cores).
pub struct Estimate {
    /// Solving time, seconds.
    pub seconds: f64,
    /// Peak memory, bytes.
    pub memory: f64,
    /// Size of its tables, bytes.
    pub disk: f64,
}

/// Workflow formats of `plan --emit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EmitFormat {
    /// A Snakefile.
    Snakemake,
}

pub fn estimate(v: &crate::rules::Variant, e: &PlanEntry) -> Estimate {
    let positions: u64 = e.positions.iter().sum();
    let slots: u64 = e.slots.iter().sum();
    // Sectors whose moves all leave them take the one-pass solver (2 bytes per slot).
    let exit_only = crate::graph::is_exit_only(v, e.sectors[0]);
    let (rate, work_bytes) = if exit_only {
        (PLACING_RATE, EXIT_ONLY_BYTES_PER_SLOT)
    } else {
        (MOVING_RATE, WORK_BYTES_PER_SLOT)
    };
    let read = crate::plan::largest_exit_slots(v, &e.sectors);
    Estimate {
        seconds: positions as f64 / rate,
        memory: slots as f64 * work_bytes + read as f64 * READ_BYTES_PER_SLOT,
        disk: positions as f64 * DISK_BITS_PER_POSITION / 8.0,
    }
}

/// `millbase plan`.
pub fn run_plan(args: &PlanArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    let targets = parse_sectors(&v, &args.sectors)?;
    let entries = plan(&v, &targets);
    let estimates: Vec<Estimate> = entries.iter().map(|e| estimate(&v, e)).collect();
    let names =
        |e: &PlanEntry| -> Vec<String> { e.sectors.iter().map(|s| s.to_string()).collect() };
    let total_pos: u64 = entries.iter().flat_map(|e| e.positions.iter()).sum();
    let total_secs: f64 = estimates.iter().map(|x| x.seconds).sum();
    let peak_mem = estimates.iter().map(|x| x.memory).fold(0.0, f64::max);
    let total_disk: f64 = estimates.iter().map(|x| x.disk).sum();
    let text = if let Some(EmitFormat::Snakemake) = args.emit {
        let rule = n_move_rule(args.n_move_rule)?;
        let program = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map_err(|e| CliError::failure(format!("cannot find the millbase program: {e}")))?;
        let options = WorkflowOptions {
            program: &program,
            dir: &table_dir(&args.dir, &v),
            rule,
            skip_unreachable: args.skip_unreachable,
            threads: args.threads as usize,
            command: command_line(),
        };
        snakefile(&v, &entries, &estimates, &options)
    } else if args.json {
        let items: Vec<serde_json::Value> = entries
            .iter()
            .zip(&estimates)
            .map(|(e, x)| {
                serde_json::json!({
                    "sectors": names(e),
                    "positions": e.positions,
                    "slots": e.slots,
                    "dependencies": e.dependencies.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                    "estimated_seconds": x.seconds,
                    "estimated_memory_bytes": x.memory as u64,
                    "estimated_disk_bytes": x.disk as u64,
                })
            })
            .collect();
        let doc = serde_json::json!({
            "variant": v.name,
            "components": items,
            "total_positions": total_pos,
            "estimated_seconds": total_secs,
            "estimated_peak_memory_bytes": peak_mem as u64,
            "estimated_disk_bytes": total_disk as u64,
        });
        format!("{doc}\n")
    } else {
        let mut t = format!(
            "{:<5} {:<24} {:>15} {:>10} {:>10} {:>10}  {}\n",
            "#", "sectors", "positions", "time", "memory", "disk", "reads"
        );
        for (i, (e, x)) in entries.iter().zip(&estimates).enumerate() {
            let deps: Vec<String> = e.dependencies.iter().map(|s| s.to_string()).collect();
            let _ = writeln!(
                t,
                "{:<5} {:<24} {:>15} {:>10} {:>10} {:>10}  {}",
                i + 1,
                names(e).join(" "),
                e.positions.iter().sum::<u64>(),
                duration(x.seconds),
                bytes(x.memory),
                bytes(x.disk),
                deps.join(" ")
            );
        }
        let _ = writeln!(
            t,
            "total: {} components, {} sectors, {total_pos} positions up to symmetry; \
             estimated {} on 2 cores, peak memory {}, disk {}",
            entries.len(),
            entries.iter().map(|e| e.sectors.len()).sum::<usize>(),
            duration(total_secs),
            bytes(peak_mem),
            bytes(total_disk)
        );
        t
    };
    emit(&text)
}

/// The command line of this process, words quoted where needed, for a file's header.
fn command_line() -> String {
    let words: Vec<String> = std::env::args()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=+:,".contains(c))
            {
                a
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect();
    words.join(" ")
}

fn duration(s: f64) -> String {
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{:.1} min", s / 60.0)
    } else {
        format!("{:.2} h", s / 3600.0)
    }
}

fn bytes(b: f64) -> String {
    if b < 1024.0 * 1024.0 {
        format!("{:.0} KiB", b / 1024.0)
    } else if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / 1048576.0)
    } else {
        format!("{:.2} GiB", b / 1073741824.0)
    }
}
