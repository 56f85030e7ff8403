//! `probe` and `pv`: perfect-play queries.

use super::batch::{BatchArgs, run_batch};
use super::generate::table_dir;
use super::{CliError, VariantArg, emit, position_arg};
use crate::notation::parse_position_info;
use crate::position::Position;
use crate::probe::{ProbeError, Tablebase};
use crate::report::{self, AnswerError};
use crate::rules::Variant;
use crate::table::{Corruption, TableDir, TableError};
use clap::Args;
use std::path::{Path, PathBuf};

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
    #[command(flatten)]
    batch: BatchArgs,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`.
    #[arg(
        value_name = "POSITION",
        required_unless_present = "batch",
        conflicts_with = "batch",
        num_args = 1..,
        allow_negative_numbers = true
    )]
    position: Vec<String>,
}

/// The `--counter` option.
#[derive(Debug, Args)]
pub struct CounterArg {
    /// The N-move counter (plies since the last removal or placement) [default: the
    /// position string's counter field, 0 for `start`].
    #[arg(long, value_name = "C")]
    pub(super) counter: Option<u32>,
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

fn probe_error(e: ProbeError) -> CliError {
    match e {
        ProbeError::Position(_) | ProbeError::Impossible(_) => CliError::usage(e.to_string()),
        // A missing or damaged table is an input problem too: the message names the file.
        ProbeError::Table(t) => CliError::usage(t.to_string()),
    }
}

/// Open the tables of the chosen variant: (variant, tables, their directory).
pub(super) fn open(
    variant: &VariantArg,
    dir: &Option<PathBuf>,
) -> Result<(Variant, Tablebase, PathBuf), CliError> {
    let v = variant.get()?;
    let dir = table_dir(dir, &v);
    let tb = Tablebase::open(&dir, v).map_err(probe_error)?;
    if let Some(why) = other_variant(&dir, &v) {
        return Err(CliError::usage(why));
    }
    Ok((v, tb, dir))
}

/// What is wrong if `dir` holds a table of another variant than `v` (or of other rules):
/// the file, both variants, and what to do. A directory holds the tables of one variant.
pub(super) fn other_variant(dir: &Path, v: &Variant) -> Option<String> {
    let e = TableDir::scan(dir).ok()?.other_variant(v)?;
    let hint = match &e {
        TableError::Corrupt {
            problem: Corruption::OtherVariant { found, .. },
            ..
        } if Variant::by_name(found).is_some() => format!("--variant {found}, or "),
        _ => String::new(),
    };
    Some(format!(
        "{e} ({} holds the tables of another variant: give {hint}the directory of the tables of \
         {})",
        dir.display(),
        v.name
    ))
}

fn answer_error(e: AnswerError) -> CliError {
    match e {
        AnswerError::Probe(e) => probe_error(e),
        AnswerError::NeedsDistances { .. } => CliError::usage(e.to_string()),
    }
}

/// `millbase probe`.
pub fn run_probe(args: &ProbeArgs) -> Result<(), CliError> {
    args.batch.check()?;
    if args.batch.batch {
        return run_batch(&args.variant, &args.dir, &args.counter, &args.batch);
    }
    let (v, tb, _) = open(&args.variant, &args.dir)?;
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
    let (v, tb, dir) = open(&args.variant, &args.dir)?;
    if TableDir::scan(&dir).is_ok_and(|t| t.wdl_only()) {
        return Err(CliError::usage(format!(
            "pv needs distance tables (.mbd files): {} holds WDL files only",
            dir.display()
        )));
    }
    let (pos, counter) = position_and_counter(&v, &args.position, &args.counter)?;
    let answer =
        report::principal_variation(&tb, &pos, counter, args.max_plies).map_err(probe_error)?;
    if args.json {
        emit(&format!("{}\n", answer.json(&v)))
    } else {
        emit(&answer.text(&v))
    }
}
