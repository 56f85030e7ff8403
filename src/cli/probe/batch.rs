//! `millbase probe --batch`: many positions, one per line of standard input, each answered
//! by one line of JSON on standard output, over tables opened once.
//!
//! An answer is the object of `probe --json` (built by [`crate::report`]) with the input
//! line echoed first as `"input"`, and without `"moves"` unless `--moves` is given. A line
//! that cannot be answered gets `{"input": ..., "error": ...}` and the run goes on; the exit
//! status is then [`EXIT_SOME_FAILED`]. Blank lines are skipped.

use crate::cli::common::{CounterArg, TablesArgs, open_tables};
use crate::cli::{CliError, EXIT_SOME_FAILED};
use crate::report;
use clap::Args;
use millbase::notation::{LineError, parse_line};
use millbase::{Tablebase, Variant};
use std::io::{self, BufRead, BufReader, BufWriter, Write};

/// Size of the input and output buffers.
const BUFFER_BYTES: usize = 1 << 16;

/// The batch options of `millbase probe`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Read positions (Sanmill position strings or `start`, optionally followed by `moves`
    /// and moves) one per line from standard
    /// input and write one JSON object per line: probe's --json object with the line as
    /// "input", or {"input", "error"} for a line that cannot be answered (exit status 3
    /// if any; blank lines are skipped).
    #[arg(long)]
    pub batch: bool,
    /// With --batch: also give every move's value ("moves"), as probe --json does.
    #[arg(long)]
    pub moves: bool,
    /// With --batch: cache up to N MiB of decompressed table blocks [default: 64]; more
    /// helps many random positions of large tables.
    #[arg(
        long,
        value_name = "N",
        value_parser = crate::cli::common::whole::<usize>(),
        allow_negative_numbers = true
    )]
    pub cache_mb: Option<usize>,
}

impl BatchArgs {
    /// A usage error if a batch option is given without `--batch` (clap's `requires` does
    /// not see a missing flag, whose default value counts as present).
    pub fn check(&self) -> Result<(), CliError> {
        let given = [
            (self.moves, "--moves"),
            (self.cache_mb.is_some(), "--cache-mb"),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, name)) if !self.batch => {
                Err(CliError::usage(format!("{name} is an option of --batch")))
            }
            _ => Ok(()),
        }
    }
}

/// `millbase probe --batch`: answer every line of standard input.
pub fn run_batch(
    tables: &TablesArgs,
    counter: &CounterArg,
    args: &BatchArgs,
) -> Result<(), CliError> {
    let (v, tb, _) = open_tables(tables)?;
    let tb = match args.cache_mb {
        Some(mb) => tb.with_cache_bytes(mb.saturating_mul(1 << 20)),
        None => tb,
    };
    let batch = Batch {
        variant: v,
        tb,
        counter: counter.counter,
        moves: args.moves,
    };
    let input = BufReader::with_capacity(BUFFER_BYTES, io::stdin().lock());
    let output = BufWriter::with_capacity(BUFFER_BYTES, io::stdout().lock());
    let tally = match batch.run(input, output) {
        Ok(tally) => tally,
        // A closed pipe (e.g. `| head`) ends the run quietly.
        Err(RunError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        Err(RunError::Write(e)) => {
            return Err(CliError::failure(format!("cannot write output: {e}")));
        }
        Err(RunError::Read(e)) => {
            return Err(CliError::failure(format!(
                "cannot read standard input: {e}"
            )));
        }
    };
    if tally.failed > 0 {
        return Err(CliError {
            code: EXIT_SOME_FAILED,
            message: format!(
                "{} of {} positions could not be answered (see their \"error\" fields)",
                tally.failed, tally.lines
            ),
        });
    }
    Ok(())
}

/// Why a batch run stopped early.
#[derive(Debug)]
enum RunError {
    /// Standard input could not be read.
    Read(io::Error),
    /// Standard output could not be written (a closed pipe among others).
    Write(io::Error),
}

/// Lines answered and lines that failed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    lines: u64,
    failed: u64,
}

/// The tables and options of a batch run.
struct Batch {
    variant: Variant,
    tb: Tablebase,
    /// `--counter`: overrides every line's counter field.
    counter: Option<u32>,
    /// `--moves`.
    moves: bool,
}

impl Batch {
    /// Answer every line of `input` on `output`. Output is flushed whenever the input has
    /// no complete line waiting, so that a program feeding one line at a time and waiting
    /// for its answer gets it.
    fn run(
        &self,
        mut input: impl BufRead + HasBuffer,
        mut output: impl Write,
    ) -> Result<Tally, RunError> {
        let mut tally = Tally::default();
        let mut raw = Vec::new();
        let mut answer = String::new();
        loop {
            if !input.buffered().contains(&b'\n') {
                output.flush().map_err(RunError::Write)?;
            }
            raw.clear();
            if input.read_until(b'\n', &mut raw).map_err(RunError::Read)? == 0 {
                break;
            }
            let line = String::from_utf8_lossy(&raw);
            let line = line.strip_suffix('\n').unwrap_or(&line);
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.trim().is_empty() {
                continue;
            }
            tally.lines += 1;
            if !self.answer(line, &mut answer) {
                tally.failed += 1;
            }
            output
                .write_all(answer.as_bytes())
                .map_err(RunError::Write)?;
        }
        output.flush().map_err(RunError::Write)?;
        Ok(tally)
    }

    /// Write the answer to `line` (one JSON object and a newline) into `out`, replacing
    /// what it held; false if it is an error object.
    fn answer(&self, line: &str, out: &mut String) -> bool {
        out.clear();
        out.push_str("{\"input\":");
        push_json_string(out, line);
        match self.probe(line) {
            Ok(answer) => {
                out.push(',');
                answer.write_json_fields(&self.variant, self.moves, out);
                out.push_str("}\n");
                true
            }
            Err(message) => {
                // Keys in sorted order, as serde_json writes them: "error" before "input".
                out.clear();
                out.push_str("{\"error\":");
                push_json_string(out, &message);
                out.push_str(",\"input\":");
                push_json_string(out, line);
                out.push_str("}\n");
                false
            }
        }
    }

    /// Probe one line: the answer, or the message of why it cannot be answered.
    fn probe(&self, line: &str) -> Result<report::ProbeAnswer, String> {
        let parsed = parse_line(&self.variant, line).map_err(|e| match e {
            LineError::Position(e) => format!("invalid position: {e}"),
            e => format!("invalid line: {e}"),
        })?;
        let pos = *parsed.position();
        let counter = self.counter.unwrap_or(parsed.counter());
        let answer = if self.moves {
            report::probe(&self.tb, &pos, counter)
        } else {
            report::probe_value(&self.tb, &pos, counter)
        };
        answer.map_err(|e| e.to_string())
    }
}

/// Write `s` as a JSON string (as serde_json writes it).
fn push_json_string(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).expect("a string is valid JSON"));
}

/// A reader that shows what it has buffered.
trait HasBuffer {
    /// The bytes read from the source and not yet consumed.
    fn buffered(&self) -> &[u8];
}

impl<R: io::Read> HasBuffer for BufReader<R> {
    fn buffered(&self) -> &[u8] {
        self.buffer()
    }
}

impl HasBuffer for &[u8] {
    fn buffered(&self) -> &[u8] {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch over an empty directory: every position's table is missing.
    fn empty(dir: &std::path::Path, moves: bool) -> Batch {
        let v = Variant::standard();
        Batch {
            variant: v,
            tb: Tablebase::open(dir, v).unwrap().with_cache_bytes(1 << 20),
            counter: None,
            moves,
        }
    }

    #[test]
    fn every_line_gets_one_answer_in_order_and_blank_lines_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let batch = empty(dir.path(), false);
        let input = "start\r\n\n   \nnonsense \"q\"\n\
                     ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";
        let mut out = Vec::new();
        let tally = batch.run(input.as_bytes(), &mut out).unwrap();
        assert_eq!(
            tally,
            Tally {
                lines: 3,
                failed: 3
            }
        );
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0]["input"], "start");
        assert_eq!(lines[1]["input"], "nonsense \"q\"");
        assert!(
            lines[1]["error"]
                .as_str()
                .unwrap()
                .starts_with("invalid position")
        );
        assert!(lines[2]["input"].as_str().unwrap().starts_with("********/"));
        for l in &lines {
            assert_eq!(l.as_object().unwrap().len(), 2, "{l}");
            assert!(l["error"].is_string(), "{l}");
        }
        // The error object is written as serde_json writes it.
        assert_eq!(text.lines().next().unwrap(), lines[0].to_string());
    }
}
