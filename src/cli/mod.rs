//! The `millbase` command line: argument definitions, dispatch and error handling.
//!
//! Each group of subcommands lives in its own file under `src/cli/` and contributes an args
//! struct (clap derive) and a function `fn(Args) -> Result<(), CliError>`. To add a command,
//! add a variant to [`Command`] and an arm to [`run`]. Shared options ([`VariantArg`],
//! [`ConventionArg`]) and helpers ([`position_arg`], [`emit`]) are here.

mod game;
mod generate;
mod plan;
mod probe;
mod serve;

use clap::{Args, Parser, Subcommand};
use millbase::movegen::Convention;
use millbase::notation::parse_position;
use millbase::position::Position;
use millbase::rules::Variant;
use std::fmt;
use std::io::{self, Write};

/// Exit status for usage and input errors (bad arguments, unreadable positions or moves).
pub const EXIT_USAGE: i32 = 2;

/// Exit status for failures that are not the user's input (e.g. an unwritable output).
pub const EXIT_FAILURE: i32 = 1;

/// Endgame databases and perfect play for Nine Men's Morris and its variants.
#[derive(Debug, Parser)]
#[command(name = "millbase", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the legal moves of a position, one per line.
    Moves(game::MovesArgs),
    /// Count the leaf nodes of the move tree of a given depth (perft).
    Perft(game::PerftArgs),
    /// Solve sectors (and everything they depend on) into a table directory.
    Generate(generate::GenerateArgs),
    /// Per-sector counts of a table directory: positions, wins, losses, draws, longest ones.
    Stats(generate::StatsArgs),
    /// List the sectors a whole game needs, in solving order, with estimated costs.
    Plan(plan::PlanArgs),
    /// The value of a position and of every legal move, best first.
    Probe(probe::ProbeArgs),
    /// The principal variation: perfect play from a position to the end of the game.
    Pv(probe::PvArgs),
    /// Check every table: checksums, and every value re-derived from its successors.
    Verify(probe::VerifyArgs),
    /// Open the explorer: a local web page (and JSON API) over a table directory.
    Serve(serve::ServeArgs),
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Moves(args) => game::moves(&args),
        Command::Perft(args) => game::perft(&args),
        Command::Generate(args) => generate::run_generate(&args),
        Command::Stats(args) => generate::run_stats(&args),
        Command::Plan(args) => plan::run_plan(&args),
        Command::Probe(args) => probe::run_probe(&args),
        Command::Pv(args) => probe::run_pv(&args),
        Command::Verify(args) => probe::run_verify(&args),
        Command::Serve(args) => serve::run_serve(&args),
    }
}

/// An error that ends the program: a one-line message and the exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// Exit status ([`EXIT_USAGE`] for usage and input errors).
    pub code: i32,
    /// One-line message, printed after `millbase: error: `.
    pub message: String,
}

impl CliError {
    /// A usage or input error (exit status 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    /// Any other failure (exit status 1).
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError {
            code: EXIT_FAILURE,
            message: message.into(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The `--variant` option.
#[derive(Debug, Clone, Args)]
pub struct VariantArg {
    /// Rule variant: std, lasker, twelve, six or three.
    #[arg(long, value_name = "VARIANT", default_value = "std")]
    pub variant: String,
}

impl VariantArg {
    /// The chosen variant, or a usage error listing the known ones.
    pub fn get(&self) -> Result<Variant, CliError> {
        Variant::by_name(&self.variant).ok_or_else(|| {
            CliError::usage(format!(
                "unknown variant '{}' (known variants: {})",
                self.variant,
                Variant::names().join(", ")
            ))
        })
    }
}

/// The `--split-removal` option choosing the move convention.
#[derive(Debug, Clone, Args)]
pub struct ConventionArg {
    /// Count a removal as its own ply (Sanmill's convention: `d6`, then `xg7`) instead of
    /// one move with the move that closes the mill (`d6xg7`).
    #[arg(long)]
    pub split_removal: bool,
}

impl ConventionArg {
    /// The chosen convention.
    pub fn get(&self) -> Convention {
        if self.split_removal {
            Convention::Split
        } else {
            Convention::Combined
        }
    }
}

/// Read a position argument (a Sanmill position string or `start`), as a usage error if
/// it is malformed.
pub fn position_arg(variant: &Variant, text: &str) -> Result<Position, CliError> {
    parse_position(variant, text)
        .map_err(|e| CliError::usage(format!("invalid position '{}': {e}", text.trim())))
}

/// Write `text` to standard output. A closed pipe (e.g. `| head`) ends output quietly.
pub fn emit(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
