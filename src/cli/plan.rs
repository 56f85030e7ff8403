//! `millbase plan`: the sectors a whole game needs, in solving order, with estimated costs.

mod calibrate;
mod marks;
mod refusal;
mod sets;
mod workflow;

use super::CliError;
use super::common::{SolveRuleArg, VariantArg, emit, parse_sectors, table_dir};
use calibrate::{Calibration, calibrate};
use clap::Args;
use millbase::Variant;
use millbase::plan::{Estimate, PlanEntry, bytes, duration, estimate, plan};
use millbase::sectors::reachable_sectors;
use millbase::tables::check_rules;
use refusal::{Refusal, refusal, refused_rules};
use std::fmt::Write as _;
use std::path::PathBuf;
use workflow::{WorkflowOptions, snakefile};

/// Arguments of `millbase plan`.
#[derive(Debug, Args)]
#[command(mut_arg("n_move_rule", |a| a
    .help("With --emit: the N-move rule the jobs solve under (as for `generate`)")
    .requires("emit")))]
pub struct PlanArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// One line per named rule set instead: the whole game's sectors, positions, estimated
    /// time, peak memory and disk, the default endgame set's (as `generate --variant NAME`
    /// makes it), and which tables are refused and why.
    #[arg(long, conflicts_with_all = ["variant", "rules", "emit", "sectors"])]
    rule_sets: bool,
    /// Write the plan as a workflow instead: `snakemake` writes a Snakefile with one job per
    /// component (docs/CLUSTER.md).
    #[arg(long, value_name = "ENGINE", conflicts_with = "json")]
    emit: Option<EmitFormat>,
    /// Measure the solve rate here first: solve the moving phase up to STONES stones on the
    /// board [default: 8] in memory on one thread under these rules and the standard game's
    /// (about 10 s; a minute at 9), and multiply the time estimates by the ratio of CPU time
    /// per position (docs/BENCHMARKS.md, "Calibrated estimates").
    #[arg(long, value_name = "STONES", num_args = 0..=1, require_equals = true,
          default_missing_value = "8", conflicts_with_all = ["rule_sets", "emit"],
          value_parser = clap::value_parser!(u8).range(6..=12))]
    calibrate: Option<u8>,
    /// With --emit: the directory the jobs solve into [default: data/<variant>].
    #[arg(long, value_name = "DIR", requires = "emit")]
    dir: Option<PathBuf>,
    #[command(flatten)]
    n_move_rule: SolveRuleArg,
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

/// Workflow formats of `plan --emit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EmitFormat {
    /// A Snakefile.
    Snakemake,
}

/// What the time estimates rest on, printed with the figures of rules other than the
/// standard game's (and by `--rule-sets`).
pub const RATES_NOTE: &str = "estimates: 2 cores of the project machine at the standard \
    game's solve rates; other rules may solve slower (Mul Mulan under the 100-move rule \
    measured about 3x per position: docs/runs/mul-mulan-n100-partial-2026-12-03.md)";

/// Are `v`'s options those of the standard game (the N-move rules of play aside), whose
/// solve rates the estimates use?
fn standard_rules(v: &Variant) -> bool {
    let std = Variant::standard();
    v.rules().into_iter().all(|(key, value)| {
        matches!(key, "n-move-rule" | "endgame-n-move-rule")
            || std.rule(key).as_deref() == Some(value.as_str())
    })
}

/// `millbase plan`.
pub fn run_plan(args: &PlanArgs) -> Result<(), CliError> {
    if args.rule_sets {
        let all = sets::all_sets();
        return emit(&if args.json {
            sets::json(&all)
        } else {
            sets::text(&all)
        });
    }
    let v = args.variant.get()?;
    let targets = parse_sectors(&v, &args.sectors)?;
    if args.emit.is_some() {
        // The jobs run `generate`: refuse what it would refuse, as it words it.
        let needed = if targets.is_empty() {
            reachable_sectors(&v)
        } else {
            targets.clone()
        };
        check_rules(&v, &needed, false).map_err(|e| CliError::usage(e.to_string()))?;
    }
    let entries = plan(&v, &targets);
    let calibration: Option<Calibration> = args
        .calibrate
        .map(|stones| calibrate(&v, stones))
        .transpose()?;
    let factor = calibration.as_ref().map_or(1.0, Calibration::ratio);
    let refused: Option<Refusal> = refusal(&v, &entries, factor);
    let scale = |mut x: Estimate| {
        x.seconds *= factor;
        x
    };
    let estimates: Vec<Estimate> = entries.iter().map(|e| scale(estimate(&v, e))).collect();
    let marked = refused.as_ref().and_then(|r| r.marks.as_ref());
    let names = |e: &PlanEntry| -> Vec<String> {
        e.component
            .sectors()
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let total_pos: u64 = entries.iter().flat_map(|e| e.positions.iter()).sum();
    let total_secs: f64 = estimates.iter().map(|x| x.seconds).sum();
    let peak_mem = estimates.iter().map(|x| x.memory).fold(0.0, f64::max);
    let total_disk: f64 = estimates.iter().map(|x| x.disk).sum();
    let rates_note = match &calibration {
        Some(c) => c.text(),
        None if standard_rules(&v) => String::new(),
        None => format!("{RATES_NOTE}\n"),
    };
    let text = if let Some(EmitFormat::Snakemake) = args.emit {
        let rule = args.n_move_rule.n_move_rule;
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
                let mut item = serde_json::json!({
                    "sectors": names(e),
                    "positions": e.positions,
                    "slots": e.slots,
                    "dependencies": e.component.dependencies().iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                    "estimated_seconds": x.seconds,
                    "estimated_memory_bytes": x.memory as u64,
                    "estimated_disk_bytes": x.disk as u64,
                    "refused": refused_rules(&v, e),
                });
                if marked.is_some() {
                    let m = scale(Estimate::with_marks(&v, e));
                    let ranges: Vec<[usize; 2]> =
                        e.marks(&v).iter().map(|k| [*k.start(), *k.end()]).collect();
                    item["marks"] = serde_json::json!(ranges);
                    item["positions_with_marks"] = serde_json::json!(e.positions_with_marks(&v));
                    item["with_marks"] = serde_json::json!({
                        "estimated_seconds": m.seconds,
                        "estimated_memory_bytes": m.memory as u64,
                        "estimated_disk_bytes": m.disk as u64,
                    });
                }
                item
            })
            .collect();
        let doc = serde_json::json!({
            "variant": v.label(),
            "components": items,
            "total_positions": total_pos,
            "estimated_seconds": total_secs,
            "estimated_peak_memory_bytes": peak_mem as u64,
            "estimated_disk_bytes": total_disk as u64,
            "tables": refusal::tables_word(refused.as_ref()),
            "refused": refused.as_ref().map(Refusal::json),
            "marks": marked.map(marks::Marks::json),
            "estimates": calibration.as_ref().map_or(RATES_NOTE.to_string(), Calibration::note),
            "calibration": calibration.as_ref().map(Calibration::json),
        });
        format!("{doc}\n")
    } else {
        let marks_column = |p: &dyn std::fmt::Display| {
            if marked.is_some() {
                format!(" {p:>19}")
            } else {
                String::new()
            }
        };
        let mut t = format!(
            "{:<5} {:<24} {:>15}{} {:>10} {:>10} {:>10}  {}\n",
            "#",
            "sectors",
            "positions",
            marks_column(&"with marks"),
            "time",
            "memory",
            "disk",
            "reads"
        );
        for (i, (e, x)) in entries.iter().zip(&estimates).enumerate() {
            let deps: Vec<String> = e
                .component
                .dependencies()
                .iter()
                .map(|s| s.to_string())
                .collect();
            let mark = if refused.is_some() && refusal::is_refused(&v, e) {
                "*"
            } else {
                ""
            };
            let with_marks: u64 = if marked.is_some() {
                e.positions_with_marks(&v).iter().sum()
            } else {
                0
            };
            let _ = writeln!(
                t,
                "{:<5} {:<24} {:>15}{} {:>10} {:>10} {:>10}  {}",
                format!("{}{mark}", i + 1),
                names(e).join(" "),
                e.positions.iter().sum::<u64>(),
                marks_column(&with_marks),
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
            entries
                .iter()
                .map(|e| e.component.sectors().len())
                .sum::<usize>(),
            duration(total_secs),
            bytes(peak_mem),
            bytes(total_disk)
        );
        if let Some(r) = &refused {
            t.push_str(&r.text());
        }
        t.push_str(&rates_note);
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
