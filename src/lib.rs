//! millbase: endgame databases and perfect play for Nine Men's Morris and its family
//! (Lasker Morris, Twelve Men's Morris, Six and Three Men's Morris).
//!
//! The library solves the game by retrograde analysis over *sectors* (stones on the board and
//! in hand of each side), stores every sector as a pair of compressed, checksummed,
//! memory-mapped files (win/draw/loss, and the distance), and answers queries over a directory
//! of such tables. Positions and moves are written as in the Sanmill app.
//!
//! The names a program needs are re-exported here:
//!
//! * the rules: [`Variant`] (with [`Variant::standard`], [`Variant::by_name`] and [`VARIANTS`]), [`Position`],
//!   [`Color`], [`Move`], [`legal_moves`], [`play`], [`outcome`];
//! * notation: [`parse_position`], [`format_position`], [`parse_move`], [`format_move`];
//! * values: [`Value`] (win/loss in plies, draw) and, under the N-move rule, [`NMoveRule`] and
//!   [`RuleValue`];
//! * tables: [`generate()`] to solve sectors into a directory (with [`GenerateOptions`]: the
//!   N-move rule, a memory bound, a cluster worker's exactly-these-components run, progress),
//!   [`Tablebase`] to probe it, [`verify_sector`] to re-derive stored values, and the error
//!   types [`GenerateError`], [`ProbeError`], [`TableError`]; [`solve_component`] solves one
//!   component in memory;
//! * sectors: [`Sector`], [`SectorIndex`] (the dense symmetry-reduced numbering), [`plan()`];
//!   the sector graph: [`start_sector`], [`successor_sectors`], [`reachable_sectors`],
//!   [`Component`] (sectors solved together, and what they read), [`solving_order`],
//!   [`moving_sectors_up_to`].
//!
//! [`engine`] plays perfectly from the tables (and searches beyond them) and speaks Sanmill's
//! UCI dialect; [`export`] writes tables in Malom's format for the Sanmill app; [`format`](mod@format) exposes the on-disk layout for tools that read the files directly
//! (docs/FORMAT.md).
//!
//! # Example
//!
//! Solve Three Men's Morris into a temporary directory, open it, and ask about the empty
//! board and its best move:
//!
//! ```
//! use millbase::{Tablebase, Value, Variant, format_move, parse_position, start_sector};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let variant = Variant::by_name("three").expect("a known variant");
//! let dir = std::env::temp_dir().join(format!("millbase-doc-{}", std::process::id()));
//! // Every sector the empty board depends on: the whole game.
//! let options = millbase::GenerateOptions::default();
//! millbase::generate(&variant, &dir, &[start_sector(&variant)], &options)?;
//!
//! let tables = Tablebase::open(&dir, variant)?;
//! let start = parse_position(&variant, "start")?;
//! let value = tables.value(&start)?;
//! // The best moves keep the position's value for the side that plays them.
//! let best = tables.best_moves(&start)?;
//! assert_eq!(best[0].value, value);
//! let verdict = match value {
//!     Value::Win(plies) => format!("won in {plies} plies"),
//!     Value::Loss(plies) => format!("lost in {plies} plies"),
//!     Value::Draw => "drawn".to_string(),
//! };
//! println!("the empty board is {verdict}; play {}", format_move(&variant, best[0].mv));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

// The layers, each importing only those above it in this list.
mod build;
mod game;
mod probe;
mod sector;
mod solve;
mod sys;
mod table;

#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod report;
#[cfg(feature = "serve")]
mod serve;

pub mod engine;
pub mod export;

pub use build::generate::{
    ComponentReport, GenerateError, GenerateObserver, GenerateOptions, Silent, generate,
};
pub use build::lock::ComponentLock;
pub use build::plan::{PlanEntry, plan};
pub use build::verify::{Mismatch, ValueLookup, VerifyOptions, verify_sector};
pub use game::movegen::{
    Convention, Outcome, is_legal, legal_moves, outcome, perft, play, unmoves,
};
pub use game::notation::{
    MoveError, PositionError, PositionInfo, START, format_move, format_position,
    format_position_info, parse_legal_move, parse_move, parse_position, parse_position_info,
};
pub use game::position::{Color, Move, Position};
pub use game::rules::{
    Bits, Board, BoardKind, FullBoard, MIN_STONES, NO_SQUARE, VARIANTS, Variant, points,
};
pub use game::value::{NMoveRule, NMoveRuleError, RuleValue, Value};
pub use probe::{MoveRuleValue, MoveValue, MoveWdl, ProbeError, PvEnd, Tablebase, UnusedTable};
pub use sector::graph::{
    Component, moving_sectors_up_to, reachable_sectors, solving_order, start_sector,
    successor_sectors,
};
pub use sector::index::{Sector, SectorIndex, SectorParseError};
pub use solve::{
    DependencyValues, SectorStats, SolveError, SolveOptions, Solved, SolvedValues, solve_component,
};
pub use table::{
    CompactReport, Corruption, TableAccess, TableError, TableSet, Wdl, WdlCounts, WdlLayout,
    WriteOptions, WriteReport, compact_sector, write_sector,
};

/// The layout of the table files and of solved values, for tools that read or damage the
/// files directly (docs/FORMAT.md). Programs that only probe do not need it.
pub mod format {
    pub use crate::game::value::{DRAW, UNUSED, WIN_FLAG};
    pub use crate::table::{
        DISTANCE_EXTENSION, FileKind, HEADER_LEN, Header, MAGIC, SectorCheck, VERSION,
        WDL_EXTENSION, distance_path, read_table, sector_is_complete, sector_status, table_path,
        wdl_path,
    };
}

/// The `millbase` program's entry point: parses the command line, runs the command and
/// exits with its status. Not part of the library's API.
#[doc(hidden)]
#[cfg(feature = "cli")]
pub fn run_cli() {
    use clap::Parser;
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => match cli::parse_error_line(&e) {
            // Every error is one line, those of the argument parser too.
            Some(line) => {
                eprintln!("millbase: error: {line}");
                std::process::exit(cli::EXIT_USAGE);
            }
            None => e.exit(),
        },
    };
    if let Err(e) = cli::run(args) {
        eprintln!("millbase: error: {}", cli::one_line(&e.message));
        std::process::exit(e.code);
    }
}
