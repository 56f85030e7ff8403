//! `probe` and `pv`: perfect-play queries.

mod batch;

use super::common::{CounterArg, TablesArgs, emit, line_arg, open_tables, probe_error};
use super::{CliError, one_line};
use crate::report::{self, AnswerError};
use batch::{BatchArgs, run_batch};
use clap::Args;
use millbase::notation::format_move;
use millbase::plan::missing_table_advice;
use millbase::tables::TableDir;
use millbase::{Position, ProbeError, TableError, Tablebase, Variant};
use std::path::Path;

/// Arguments of `millbase probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// Print JSON: {"value", "plies", "dtr", "rule": {"n", "counter"}, "moves": [{"move",
    /// "value", "plies", "dtr"}, ...]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    counter: CounterArg,
    #[command(flatten)]
    batch: BatchArgs,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`,
    /// optionally followed by `moves` and moves (`start moves d6 f4`).
    #[arg(
        value_name = "POSITION",
        required_unless_present = "batch",
        conflicts_with = "batch",
        num_args = 1..,
        allow_negative_numbers = true
    )]
    position: Vec<String>,
}

/// Read the position argument (a position string or `start`, optionally with moves) and its
/// N-move counter at the end of the line (`--counter` overrides it).
fn position_and_counter(
    v: &Variant,
    words: &[String],
    counter: &CounterArg,
) -> Result<(Position, u32), CliError> {
    let line = line_arg(v, &words.join(" "))?;
    Ok((*line.position(), counter.counter.unwrap_or(line.counter())))
}

/// Arguments of `millbase pv`.
#[derive(Debug, Args)]
pub struct PvArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// Longest line to print, at most 1000 (a drawn line stops when it repeats a position of
    /// its own; the longest wins of the standard game take about 200 plies).
    #[arg(
        long,
        value_name = "N",
        default_value_t = report::MAX_PV_PLIES,
        value_parser = super::common::whole::<usize>(),
        allow_negative_numbers = true
    )]
    max_plies: usize,
    /// Print JSON: {"value", "plies", "dtr", "rule": {"n", "counter"}, "line": ["move", ...]}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    counter: CounterArg,
    /// The position: a Sanmill position string (quoted, or as separate words) or `start`,
    /// optionally followed by `moves` and moves (`start moves d6 f4`).
    #[arg(value_name = "POSITION", required = true, num_args = 1.., allow_negative_numbers = true)]
    position: Vec<String>,
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
        return run_batch(&args.tables, &args.counter, &args.batch);
    }
    let (v, tb, dir) = open_tables(&args.tables)?;
    let (pos, counter) = position_and_counter(&v, &args.position, &args.counter)?;
    let answer = report::probe(&tb, &pos, counter).map_err(|e| missing_advice(e, &tb, &dir))?;
    if args.json {
        emit(&format!("{}\n", answer.json_text(&v)))
    } else {
        emit(&answer.text(&v))
    }
}

/// The error of a failed probe; for a missing table, followed by the command that makes it
/// and what that costs in `dir` (sectors, positions, estimated time, peak memory, disk).
fn missing_advice(e: AnswerError, tb: &Tablebase, dir: &Path) -> CliError {
    let advice = match &e {
        AnswerError::Probe(ProbeError::Table(TableError::Missing { sector, .. })) => {
            missing_table_advice(tb.variant(), tb.rule(), dir, *sector)
        }
        _ => return answer_error(e),
    };
    let mut error = answer_error(e);
    error.message = format!("{}; {}", error.message, one_line(&advice));
    error
}

/// `millbase pv`.
pub fn run_pv(args: &PvArgs) -> Result<(), CliError> {
    let (v, tb, dir) = open_tables(&args.tables)?;
    if TableDir::scan(&dir).is_ok_and(|t| t.wdl_only()) {
        return Err(CliError::usage(format!(
            "pv needs distance tables (.mbd files): {} holds WDL files only",
            dir.display()
        )));
    }
    let (pos, counter) = position_and_counter(&v, &args.position, &args.counter)?;
    let advice = |e| missing_advice(AnswerError::Probe(e), &tb, &dir);
    if args.json {
        // The JSON object is written whole; the line is capped (report::MAX_PV_PLIES).
        let answer =
            report::principal_variation(&tb, &pos, counter, args.max_plies).map_err(advice)?;
        return emit(&format!("{}\n", answer.json(&v)));
    }
    // Text: the headline, then each move as soon as it is found, then why the line stopped.
    let value = tb.value_at(&pos, counter).map_err(advice)?;
    emit(&format!(
        "{}\n",
        report::headline(value, tb.rule_at(&pos), counter)
    ))?;
    let mut written = Ok(());
    let mut plies = 0usize;
    // The line's last position, whose rule in force is the one that may stop it.
    let mut last = pos;
    let walked = report::walk_principal_variation(&tb, &pos, counter, args.max_plies, |m| {
        if written.is_ok() {
            let sep = if plies == 0 { "" } else { " " };
            written = emit(&format!("{sep}{}", format_move(&v, m.mv)));
        }
        last = millbase::movegen::play(&v, &last, m.mv);
        plies += 1;
    });
    written?;
    // The moves' line is ended even when a probe along it failed.
    emit("\n")?;
    let stop = walked.map_err(advice)?;
    match stop.text(tb.rule_at(&last)) {
        Some(why) => emit(&format!("{why}\n")),
        None => Ok(()),
    }
}
