//! `probe`, `pv` and `verify`: perfect-play queries and the independent table check.

use super::generate::{sectors_in_dir, table_dir};
use super::{CliError, VariantArg, emit, position_arg};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use millbase::index::Sector;
use millbase::notation::parse_position_info;
use millbase::plan::successor_sectors;
use millbase::position::Position;
use millbase::probe::{ProbeError, Tablebase};
use millbase::report::{self, AnswerError};
use millbase::rules::Variant;
use millbase::table::TableSet;
use millbase::verify::{Mismatch, ValueLookup, verify_sector_under};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `millbase probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Directory of the tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print JSON: {"value", "plies", "dtr", "rule": {"n", "counter"}, "moves": [{"move",
    /// "value", "plies", "dtr"}, ...]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    counter: CounterArg,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`.
    #[arg(value_name = "POSITION", required = true, num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
}

/// The `--counter` option.
#[derive(Debug, Args)]
pub struct CounterArg {
    /// The N-move counter (plies since the last removal or placement) [default: the
    /// position string's counter field, 0 for `start`].
    #[arg(long, value_name = "C")]
    counter: Option<u32>,
}

/// Read the position argument and its N-move counter (`--counter` overrides the string's).
fn position_and_counter(
    v: &Variant,
    words: &[String],
    counter: &CounterArg,
) -> Result<(Position, u32), CliError> {
    let text = words.join(" ");
    let pos = position_arg(v, &text)?;
    let from_text = parse_position_info(v, &text).map_or(0, |(_, info)| info.counter);
    Ok((pos, counter.counter.unwrap_or(from_text)))
}

/// Arguments of `millbase pv`.
#[derive(Debug, Args)]
pub struct PvArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Directory of the tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Longest line to print (a drawn game never ends).
    #[arg(long, default_value_t = 100)]
    max_plies: usize,
    /// Print JSON: {"value", "plies", "dtr", "rule": {"n", "counter"}, "line": ["move", ...]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    counter: CounterArg,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`.
    #[arg(value_name = "POSITION", required = true, num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
}

/// Arguments of `millbase verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// Directory of the tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Do not draw a progress bar.
    #[arg(long)]
    quiet: bool,
    /// Verify only these sectors (their successors' tables must be there too); default:
    /// every table in the directory.
    #[arg(value_name = "SECTOR")]
    sectors: Vec<String>,
}

fn probe_error(e: ProbeError) -> CliError {
    match e {
        ProbeError::Position(_) | ProbeError::Impossible(_) => CliError::usage(e.to_string()),
        // A missing or damaged table is an input problem too: the message names the file.
        ProbeError::Table(t) => CliError::usage(t.to_string()),
    }
}

fn open(variant: &VariantArg, dir: &Option<PathBuf>) -> Result<(Variant, Tablebase), CliError> {
    let v = variant.get()?;
    let tb = Tablebase::open(table_dir(dir, &v), v).map_err(probe_error)?;
    Ok((v, tb))
}

fn answer_error(e: AnswerError) -> CliError {
    match e {
        AnswerError::Probe(e) => probe_error(e),
        AnswerError::NeedsDistances { .. } => CliError::usage(e.to_string()),
    }
}

/// `millbase probe`.
pub fn run_probe(args: &ProbeArgs) -> Result<(), CliError> {
    let (v, tb) = open(&args.variant, &args.dir)?;
    let (pos, counter) = position_and_counter(&v, &args.position, &args.counter)?;
    let answer = report::probe(&tb, &pos, counter).map_err(answer_error)?;
    if args.json {
        emit(&format!("{}\n", answer.json_text(&v)))
    } else {
        emit(&answer.text(&v))
    }
}

/// `millbase pv`.
pub fn run_pv(args: &PvArgs) -> Result<(), CliError> {
    let (v, tb) = open(&args.variant, &args.dir)?;
    let (pos, counter) = position_and_counter(&v, &args.position, &args.counter)?;
    let answer =
        report::principal_variation(&tb, &pos, counter, args.max_plies).map_err(probe_error)?;
    if args.json {
        emit(&format!("{}\n", answer.json(&v)))
    } else {
        emit(&answer.text(&v))
    }
}

/// Whole sectors loaded for verification.
struct Loaded(HashMap<Sector, Vec<u16>>);

impl ValueLookup for Loaded {
    fn values(&self, sector: Sector) -> Option<&[u16]> {
        self.0.get(&sector).map(|v| v.as_slice())
    }
}

/// `millbase verify`: every checksum, then every value re-derived from its successors.
pub fn run_verify(args: &VerifyArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    let dir = table_dir(&args.dir, &v);
    let mut sectors = sectors_in_dir(&dir)?;
    if !args.sectors.is_empty() {
        let wanted = crate::cli::generate::parse_sectors(&v, &args.sectors)?;
        if let Some(s) = wanted.iter().find(|s| !sectors.contains(s)) {
            return Err(CliError::usage(format!(
                "no table of sector {s} in {}",
                dir.display()
            )));
        }
        sectors.retain(|s| wanted.contains(s));
    }
    if sectors.is_empty() {
        return Err(CliError::usage(format!(
            "no tables of variant {} in {}",
            v.name,
            dir.display()
        )));
    }
    let tables = TableSet::new(&dir, v).with_cache_bytes(0);
    // The tables' N-move rule (every file must have the same; a file of another rule is
    // reported as damaged when it is checked).
    let rule = tables.detect_rule().ok().flatten().unwrap_or_default();
    let work: u64 = sectors
        .iter()
        .filter_map(|&s| tables.index(s).ok().map(|i| i.slots()))
        .sum();
    let bar = if args.quiet {
        ProgressBar::with_draw_target(Some(work), ProgressDrawTarget::hidden())
    } else {
        ProgressBar::new(work)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "verify {msg:>14} [{bar:32}] {percent:>3}% {per_sec} ETA {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let mut bad: Vec<String> = Vec::new();
    let mut checked_total = 0u64;
    let mut cache: HashMap<Sector, Vec<u16>> = HashMap::new();
    for &s in &sectors {
        bar.set_message(s.to_string());
        let file = millbase::table::wdl_path(&dir, s);
        if let Err(e) = tables.check_sector(s) {
            bar.suspend(|| eprintln!("{}: damaged: {e}", file.display()));
            bad.push(file.display().to_string());
            continue;
        }
        // Load the sector and everything its moves lead to; keep only those still needed.
        let mut needed: Vec<Sector> = successor_sectors(&v, s);
        needed.push(s);
        cache.retain(|k, _| needed.contains(k));
        for &n in &needed {
            if cache.contains_key(&n) {
                continue;
            }
            match tables.read_values(n) {
                Ok(vals) => {
                    cache.insert(n, vals);
                }
                Err(e) if n == s => {
                    bar.suspend(|| eprintln!("{}: unreadable: {e}", file.display()));
                    bad.push(file.display().to_string());
                }
                Err(_) => {} // reported as a missing successor sector below
            }
        }
        if !cache.contains_key(&s) {
            continue;
        }
        let lookup = Loaded(std::mem::take(&mut cache));
        let advance = |n| bar.inc(n);
        let (checked, wrong, report) = verify_sector_under(&v, s, &lookup, rule, 5, &advance);
        cache = lookup.0;
        checked_total += checked;
        if wrong > 0 {
            let mut msg = format!(
                "{}: {wrong} values disagree with their successors",
                file.display()
            );
            for m in &report {
                let _ = write!(msg, "\n  {}", describe(m));
            }
            bar.suspend(|| eprintln!("{msg}"));
            bad.push(file.display().to_string());
        }
    }
    bar.finish_and_clear();
    if bad.is_empty() {
        emit(&format!(
            "ok: {} sectors, {checked_total} positions, every checksum and every value agrees\n",
            sectors.len()
        ))
    } else {
        Err(CliError::failure(format!(
            "verification failed for {} file(s): {}",
            bad.len(),
            bad.join(", ")
        )))
    }
}

fn describe(m: &Mismatch) -> String {
    match m {
        Mismatch::Value {
            slot,
            stored,
            derived,
        } => format!(
            "slot {slot}: stored {}, successors give {derived}",
            stored.map_or("nothing".into(), |v| v.to_string())
        ),
        Mismatch::MissingSector(s) => format!("successor sector {s} is missing"),
        Mismatch::Usage(slot) => format!("slot {slot}: used/unused marking is wrong"),
    }
}
