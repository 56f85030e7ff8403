//! millbase: endgame databases and perfect play for Nine Men's Morris and its family
//! (Lasker Morris, Twelve Men's Morris, Six and Three Men's Morris).
//!
//! The library solves the game by retrograde analysis over *sectors* (stones on the board and
//! in hand of each side), stores every sector as a pair of compressed, checksummed,
//! memory-mapped files (win/draw/loss, and the distance), and answers queries over a directory
//! of such tables. Positions and moves are written as in the Sanmill app.
//!
//! The root holds the names a program that solves and probes tables needs:
//!
//! * the game: [`Variant`] (with [`Variant::standard`] and [`Variant::by_name`]),
//!   [`Position`], [`Color`], [`Move`];
//! * values: [`Value`] (win/loss in plies, draw), [`Wdl`], and under the N-move rule
//!   [`NMoveRule`] and [`RuleValue`];
//! * probing: [`Tablebase`] and what it answers ([`MoveValue`], [`MoveRuleValue`],
//!   [`MoveWdl`], [`PvEnd`]) or what it could not use ([`UnusedTable`]);
//! * solving: [`generate()`] with [`GenerateOptions`] (whose observer is [`Silent`] unless
//!   progress is wanted) to solve [`Sector`]s into a directory, and [`verify_sector`] with
//!   [`VerifyOptions`] to re-derive stored values;
//! * the errors: [`TableError`], [`ProbeError`], [`GenerateError`], [`PositionError`],
//!   [`MoveError`], [`NMoveRuleError`];
//! * [`remove_held_files`], for a program that stops on signals.
//!
//! Everything else is in a public module by area:
//!
//! * [`rules`]: boards as data, every rule option of the Sanmill app's rule sets as a field
//!   of [`Variant`] ([`Variant::from_rules`], [`rules::RULE_SETS`], docs/RULE-SETS.md), point
//!   sets;
//! * [`notation`]: positions and moves as text ([`notation::parse_position`],
//!   [`notation::format_move`], ...);
//! * [`movegen`]: legal moves, playing them, un-moves, the end of a game, perft;
//! * [`sectors`]: the dense symmetry-reduced numbering of a sector
//!   ([`sectors::SectorIndex`]) and the sector graph;
//! * [`solver`]: retrograde analysis of one component in memory;
//! * [`plan`](mod@plan): the components to solve in order and their estimated costs;
//! * [`format`](mod@format): the table files, for tools that read or write them directly
//!   (docs/FORMAT.md);
//! * [`tables`]: a table directory as a whole: its listing, generation with progress
//!   reports, verification, compaction and statistics, the component lock;
//! * [`engine`]: perfect play from the tables (and search beyond them) in Sanmill's UCI
//!   dialect; [`export`]: the tables in Malom's format for the Sanmill app.
//!
//! # Example
//!
//! Solve Three Men's Morris into a temporary directory, open it, and ask about the empty
//! board and its best move:
//!
//! ```
//! use millbase::notation::{format_move, parse_position};
//! use millbase::sectors::start_sector;
//! use millbase::{Tablebase, Value, Variant};
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

// The layers, each importing only those above it in this list (docs/DESIGN.md, "Layers").
// Private: the names a user needs are re-exported below, at the root or in a public module
// by area.
// 1. Memory hints, the record of held files.
mod sys;
// 2. Rules, positions, moves, values, notation.
mod game;
// 3. Sectors, their index and graph, reachability.
mod sector;
// 4. Retrograde analysis of one component.
mod solve;
// 5. The table files.
mod table;
// 6. Plan, generate, verify, and the work over a directory; the tablebase.
mod build;
mod probe;

pub mod engine;
pub mod export;

pub use build::generate::{GenerateError, GenerateOptions, Silent, generate};
pub use build::verify::{VerifyOptions, verify_sector};
pub use game::notation::{MoveError, PositionError};
pub use game::position::{Color, Move, Position};
pub use game::rules::Variant;
pub use game::value::{NMoveRule, NMoveRuleError, RuleValue, Value};
pub use probe::{MoveRuleValue, MoveValue, MoveWdl, ProbeError, PvEnd, Tablebase, UnusedTable};
pub use sector::index::Sector;
pub use sys::held::remove_held_files;
pub use table::{TableError, Wdl};

pub mod rules {
    //! The rules as data: boards (points, lines, mills, symmetries), the rule options and the
    //! named rule sets ([`VARIANTS`], the Sanmill app's [`RULE_SETS`]), and sets of points as
    //! bit masks.

    pub use crate::game::rules::{
        Bits, Board, BoardFull, BoardKind, Capture, FullBoardRemovals, KEYS, MAX_N_MOVE_RULE,
        MIN_STONES, NO_SQUARE, PlacingMill, RULE_SETS, RuleError, RuleSet, Stalemate, VARIANTS,
        Variant, points,
    };
}

pub mod notation {
    //! Positions and moves as text, as the Sanmill app writes them (docs/RULES.md).

    pub use crate::game::notation::{
        Line, LineError, MOVES, MoveError, PositionError, PositionInfo, START, format_move,
        format_position, format_position_info, parse_legal_move, parse_line, parse_move,
        parse_position, parse_position_info,
    };
}

pub mod movegen {
    //! Legal moves, playing them, un-moves, the end of a game, and perft.

    pub use crate::game::movegen::{
        Convention, Outcome, is_legal, legal_moves, outcome, perft, play, removable, settle,
        unmoves,
    };
}

pub mod sectors {
    //! Sectors (stones on the board and in hand of each side), their dense symmetry-reduced
    //! numbering ([`SectorIndex`]), and the sector graph: which sectors a sector's moves lead
    //! to, which are solved together, in which order.

    pub use crate::sector::graph::{
        Component, follows_placing_rules, moving_sectors_up_to, reachable_sectors, solving_order,
        start_sector, successor_sectors, unsupported_in,
    };
    pub use crate::sector::index::{Sector, SectorIndex, SectorParseError};
}

pub mod solver {
    //! Retrograde analysis of one component in memory: the values of its sectors from those of
    //! the sectors its moves leave to (the exits). [`generate`](fn@crate::generate) runs it over a
    //! directory.

    pub use crate::solve::{
        DependencyValues, SectorStats, SolveError, SolveOptions, Solved, SolvedValues,
        solve_component,
    };
}

pub mod plan {
    //! What solving costs: the components to solve in order, with estimated time, memory and
    //! disk on the project machine, and what a directory still lacks.

    pub use crate::build::plan::{
        Cost, Estimate, PlanEntry, SolveMemory, bytes, cost_to_solve, duration, estimate,
        generate_command, missing_table_advice, plan, sector_name, unsolved,
    };
}

pub mod format {
    //! The table files, for tools that read, write or damage them directly (docs/FORMAT.md):
    //! paths, header and constants, solved values as 16-bit codes, the raw reader
    //! ([`TableSet`]) and writer ([`write_sector`]), the compaction of one sector, and the
    //! check of one sector's files. Programs that only probe do not need it.

    pub use crate::game::value::{DRAW, UNUSED, WIN_FLAG};
    pub use crate::table::{
        CompactReport, Corruption, DISTANCE_EXTENSION, FileKind, HEADER_LEN, Header, MAGIC,
        SectorCheck, TableAccess, TableSet, VERSION, WDL_EXTENSION, WdlCounts, WdlLayout,
        WriteOptions, WriteReport, compact_sector, distance_path, read_table, sector_is_complete,
        sector_status, table_path, wdl_path, write_sector,
    };
}

pub mod tables {
    //! A table directory as a whole: the listing of its files ([`TableDir`]: one variant, the
    //! rule for missing halves), generation with progress reports, verification, compaction and
    //! statistics of every table in it, and the lock under which a component is solved.

    pub use crate::build::compaction::{CompactError, CompactOptions, Compacted, Compaction};
    pub use crate::build::generate::{ComponentReport, GenerateObserver, check_rules};
    pub use crate::build::lock::ComponentLock;
    pub use crate::build::stats::{DirStats, SectorSummary, stats};
    pub use crate::build::verification::{
        Finding, Verification, VerificationOptions, VerifyReport,
    };
    pub use crate::build::verify::{Mismatch, ValueLookup};
    pub use crate::table::{TableDir, TableFiles};
}
