//! Table files, format version 2: two compressed, checksummed files per solved sector,
//! read through memory maps with random access to single slots.
//!
//! Layer 5 of the library (docs/DESIGN.md, "Layers"): the table files. Imports only
//! [`sector`](crate::sector), [`game`](crate::game) and [`sys`](crate::sys); what solves
//! values ([`solve`](crate::solve)) and what uses the files ([`build`](crate::build),
//! [`probe`](crate::probe), the programs) are above it.
//!
//! * `<w>-<b>-<wf>-<bf>.mbw` holds the WDL symbol of every slot (draw, win, loss, and under
//!   an N-move rule cursed win or blessed loss; four to a byte, or one per byte).
//! * `<w>-<b>-<wf>-<bf>.mbd` holds the distance in plies of every win and loss (8 or 16 bits).
//!
//! The files are separable: a directory holding only `.mbw` files answers WDL probes. Slots
//! are grouped in blocks of a fixed number of slots (65,536 by default), each compressed
//! independently with zstd, so a probe decompresses one block (then cached). Unused slots,
//! draws in the distance file, are "don't care": the generator repeats the previous symbol
//! there (compaction chooses by context, `symbols`), and the reader never looks at them (unused slots are known from the index, see
//! [`SectorIndex::position`]). Each file has a header checksum, a block table checksum, a
//! checksum per compressed block (verified whenever a block is decompressed) and a whole-file
//! checksum (verified by [`TableSet::check_sector`] and [`sector_is_complete`]).
//!
//! docs/FORMAT.md specifies every byte.
//!
//! Writing: [`write_sector`]. Reading: [`TableSet`].

mod cache;
mod compact;
mod dir;
mod file;
mod format;
pub(crate) mod open;
mod reader;
mod removal;
mod status;
mod symbols;
mod writer;

pub use compact::{CompactReport, compact_sector};
pub(crate) use compact::{CompactSource, compact_sector_from};
pub use dir::{TableDir, TableFiles, check_table_dir};
pub use file::TableAccess;
pub use format::Header;
pub use reader::{SectorCheck, TableSet, WdlCounts};
pub use status::{sector_is_complete, sector_is_complete_under, sector_status};
pub(crate) use writer::temporary_path;
pub use writer::{WdlLayout, WriteOptions, WriteReport, is_temporary_of, write_sector};

use crate::game::rules::Variant;
use crate::game::value::{NMoveRule, Value};
use crate::sector::index::{Sector, SectorIndex};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// File magic, the first 8 bytes of every table file.
pub const MAGIC: &[u8; 8] = b"MILLBASE";
/// Format version written and read by this build.
pub const VERSION: u32 = 2;
/// Header length in bytes.
pub const HEADER_LEN: usize = 128;
/// Length of one block table entry: offset (u64), compressed length (u32), checksum (u64).
pub const BLOCK_ENTRY_LEN: usize = 20;
/// Length of the trailer: the whole-file checksum (u64).
pub const TRAILER_LEN: usize = 8;
/// Index scheme 1: orbit of the side to move's stones × rank of the opponent's stones
/// ([`SectorIndex`]).
pub const INDEX_SCHEME: u32 = 1;
/// Compression id of zstd (each block one zstd frame).
pub const COMPRESSION_ZSTD: u8 = 1;
/// Extension of WDL files.
pub const WDL_EXTENSION: &str = "mbw";
/// Extension of distance files.
pub const DISTANCE_EXTENSION: &str = "mbd";
/// Default block size in slots.
pub const DEFAULT_BLOCK_SLOTS: u32 = 1 << 16;
/// Largest block size in slots a file may have (16,777,216: a block decompresses to at most
/// 32 MiB), so that a reader never allocates more than this per block.
pub const MAX_BLOCK_SLOTS: u32 = 1 << 24;
/// Default zstd level.
pub const DEFAULT_LEVEL: i32 = 9;

/// Header flag: the positions no game reaches ([`crate::sector::reach`]) hold "don't care"
/// symbols; readers report them as unused.
pub const FLAG_UNREACHABLE_DONT_CARE: u8 = 1;
pub use removal::FLAG_REMOVAL_DONT_CARE;
/// Every flag bit this version knows; others must be 0.
pub const KNOWN_FLAGS: u8 = FLAG_UNREACHABLE_DONT_CARE | FLAG_REMOVAL_DONT_CARE;

/// WDL symbol of a draw.
pub const SYMBOL_DRAW: u8 = 0;
/// WDL symbol of a win for the side to move.
pub const SYMBOL_WIN: u8 = 1;
/// WDL symbol of a loss for the side to move.
pub const SYMBOL_LOSS: u8 = 2;
/// WDL symbol, in tables solved under an N-move rule only, of a position decided without the
/// rule and drawn by it at counter 0: a cursed win or a blessed loss (the distance symbol
/// tells which).
pub const SYMBOL_RULE_DRAW: u8 = 3;

/// The WDL and distance symbols of a used slot's value in a table solved under `rule`
/// (docs/FORMAT.md, "Symbols"). The distance symbol of a draw is "don't care" (0 here).
#[inline]
pub(crate) fn symbols_of(value: Value, rule: NMoveRule) -> (u8, u16) {
    let n = rule.n();
    let beyond = |d: u16| n > 0 && d > n;
    match value {
        Value::Draw => (SYMBOL_DRAW, 0),
        Value::Win(d) if beyond(d) => (SYMBOL_RULE_DRAW, 2 * (d - n) - 1),
        Value::Loss(d) if beyond(d) => (SYMBOL_RULE_DRAW, 2 * (d - n)),
        Value::Win(d) => (SYMBOL_WIN, d),
        Value::Loss(d) => (SYMBOL_LOSS, d),
    }
}

/// The value of a used slot from its WDL symbol and (for wins, losses and
/// [`SYMBOL_RULE_DRAW`]) its distance symbol, in a table solved under `rule` whose distance
/// file's largest symbol is `max`; `None` if the symbols mean nothing.
#[inline]
pub(crate) fn value_of_symbols(wdl: u8, dist: u16, rule: NMoveRule, max: u16) -> Option<Value> {
    let n = rule.n();
    if wdl == SYMBOL_DRAW {
        return Some(Value::Draw);
    }
    if dist > max {
        return None;
    }
    let decided = |d: u16| n == 0 || (1..=n).contains(&d);
    match wdl {
        SYMBOL_WIN if decided(dist) => Some(Value::Win(dist)),
        SYMBOL_LOSS if decided(dist) => Some(Value::Loss(dist)),
        SYMBOL_RULE_DRAW if n > 0 && dist > 0 => {
            let d = n.checked_add(dist.div_ceil(2))?;
            (d <= crate::game::value::MAX_PLIES).then_some(if dist % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Loss(d)
            })
        }
        _ => None,
    }
}

/// The value at counter 0 of a used slot's WDL symbol in a table solved under `rule`
/// (`None`: a symbol that means nothing).
#[inline]
pub(crate) fn wdl_of_symbol(symbol: u8, rule: NMoveRule) -> Option<Wdl> {
    match symbol {
        SYMBOL_DRAW => Some(Wdl::Draw),
        SYMBOL_WIN => Some(Wdl::Win),
        SYMBOL_LOSS => Some(Wdl::Loss),
        SYMBOL_RULE_DRAW if rule.is_active() => Some(Wdl::Draw),
        _ => None,
    }
}

/// The two files of a sector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// `.mbw`: win, draw or loss of every slot.
    Wdl,
    /// `.mbd`: distance in plies of every win and loss.
    Distance,
}

impl FileKind {
    /// The kind byte of the header: `W` or `D`.
    pub fn byte(self) -> u8 {
        match self {
            FileKind::Wdl => b'W',
            FileKind::Distance => b'D',
        }
    }

    /// The kind of a header kind byte.
    pub fn from_byte(b: u8) -> Option<FileKind> {
        match b {
            b'W' => Some(FileKind::Wdl),
            b'D' => Some(FileKind::Distance),
            _ => None,
        }
    }

    /// File name extension.
    pub fn extension(self) -> &'static str {
        match self {
            FileKind::Wdl => WDL_EXTENSION,
            FileKind::Distance => DISTANCE_EXTENSION,
        }
    }

    fn slot(self) -> usize {
        match self {
            FileKind::Wdl => 0,
            FileKind::Distance => 1,
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Wdl => "WDL",
            FileKind::Distance => "distance",
        })
    }
}

/// Win, draw or loss for the side to move, without distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Wdl {
    /// The WDL part of a value.
    pub fn of(value: Value) -> Wdl {
        match value {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }
}

/// Path of the file of `kind` of `sector` in `dir`.
pub fn table_path(dir: &Path, sector: Sector, kind: FileKind) -> PathBuf {
    dir.join(format!("{}.{}", sector.file_stem(), kind.extension()))
}

/// Path of the WDL file of `sector` in `dir`.
pub fn wdl_path(dir: &Path, sector: Sector) -> PathBuf {
    table_path(dir, sector, FileKind::Wdl)
}

/// Path of the distance file of `sector` in `dir`.
pub fn distance_path(dir: &Path, sector: Sector) -> PathBuf {
    table_path(dir, sector, FileKind::Distance)
}

/// Read every value of `sector` from `dir` (both files), as [`TableSet::read_values`].
///
/// # Errors
///
/// As [`TableSet::read_values`].
pub fn read_table(dir: &Path, variant: &Variant, sector: Sector) -> Result<Vec<u16>, TableError> {
    TableSet::new(dir, *variant).read_values(sector)
}

/// What is wrong with a table file, or with a request to the table code.
#[derive(Debug)]
pub enum TableError {
    /// A file or directory could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// A table path names something other than a regular file (a named pipe, a device, a
    /// directory, a dangling symbolic link): only regular files are opened as tables.
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is, e.g. "a named pipe".
        what: &'static str,
    },
    /// A file needed to answer is not there.
    Missing {
        /// The path looked for.
        path: PathBuf,
        /// The sector whose file it is.
        sector: Sector,
        /// Which of its files.
        kind: FileKind,
    },
    /// A file is not a valid table for the expected variant and sector, or is damaged.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: Corruption,
    },
    /// The sector cannot exist in the variant (too many stones for the board or the game).
    NoSuchSector {
        /// The sector.
        sector: Sector,
        /// The variant's name.
        variant: &'static str,
    },
    /// A slot number beyond the sector's slot count.
    SlotOutOfRange {
        /// The sector.
        sector: Sector,
        /// The slot asked for.
        slot: u64,
        /// The sector's slot count.
        slots: u64,
    },
    /// Values or options given to the writer, or a path given to a checker, are not valid.
    InvalidInput(String),
}

/// The ways a table file can be wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// The file does not start with [`MAGIC`].
    WrongMagic,
    /// Another format version.
    Version(u32),
    /// The header does not match its checksum.
    HeaderChecksum,
    /// A header field has an impossible or unsupported value.
    BadHeader(String),
    /// The table belongs to another variant.
    OtherVariant {
        /// Variant name in the file.
        found: String,
        /// The variant expected.
        expected: String,
    },
    /// Same variant name, but solved with other rules (another rules fingerprint).
    OtherRules {
        /// Fingerprint in the file.
        found: u64,
        /// Fingerprint of this build's rules.
        expected: u64,
        /// The options the file's rules have where they differ from the expected ones, when
        /// they are within two options of them ([`Variant::differences_to`]); empty if not.
        differences: Vec<String>,
    },
    /// The file holds another sector.
    OtherSector {
        /// Sector in the file.
        found: Sector,
        /// The sector expected.
        expected: Sector,
    },
    /// The slot count differs from the index's.
    SlotCount {
        /// Slot count in the file.
        found: u64,
        /// Slot count of the index.
        expected: u64,
    },
    /// The file is shorter (or longer) than its header and block table say.
    Truncated {
        /// Actual length.
        len: u64,
        /// Length implied by the header and block table.
        expected: u64,
    },
    /// The file is longer than any file with its header can be (checked from the file's
    /// metadata before anything past the header is read or mapped).
    TooLong {
        /// Actual length.
        len: u64,
        /// The largest length the header allows.
        max: u64,
    },
    /// The block table is out of bounds, out of order or does not match its checksum.
    BadBlockTable(String),
    /// A compressed block does not match its checksum.
    BlockChecksum {
        /// Block number.
        block: u32,
    },
    /// A block does not decompress to the expected number of bytes.
    Decompression {
        /// Block number.
        block: u32,
        /// What the decompressor said.
        message: String,
    },
    /// The whole-file checksum in the trailer does not match.
    FileChecksum,
    /// A used slot holds a symbol that means nothing (WDL symbol 3, a distance beyond the
    /// header's maximum).
    BadSymbol {
        /// The slot.
        slot: u64,
        /// The symbol.
        symbol: u16,
    },
    /// The distance file was not written together with the WDL file beside it.
    NotCompanion,
    /// The table was solved under another N-move rule than the other tables in use.
    OtherNMoveRule {
        /// The rule's `n` in the file (0: no rule).
        found: u16,
        /// The rule's `n` of the tables in use.
        expected: u16,
    },
    /// The table follows another endgame N-move rule than the rules asked for give under
    /// its N-move rule ([`crate::game::value::NMoveRule::endgame_in`]).
    OtherEndgameRule {
        /// The endgame N in the file (0: none).
        found: u16,
        /// The endgame N of the rules asked for under the file's N-move rule (0: none).
        expected: u16,
        /// The file's N-move rule's `n`.
        n: u16,
    },
}

impl fmt::Display for Corruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Corruption::WrongMagic => f.write_str("not a millbase table (wrong magic)"),
            Corruption::Version(v) => {
                write!(
                    f,
                    "table format version {v}, this build reads version {VERSION}"
                )
            }
            Corruption::HeaderChecksum => f.write_str("header checksum mismatch (damaged file)"),
            Corruption::BadHeader(what) => write!(f, "bad header: {what}"),
            Corruption::OtherVariant { found, expected } => {
                write!(f, "table of variant '{found}', expected '{expected}'")
            }
            Corruption::OtherRules {
                found,
                expected,
                differences,
            } if differences.is_empty() => write!(
                f,
                "rules fingerprint {found:#018x} differs from this build's {expected:#018x} \
                 (solved with other rules)"
            ),
            Corruption::OtherRules { differences, .. } => write!(
                f,
                "solved with other rules: {} where the rules asked for differ",
                differences.join(", ")
            ),
            Corruption::OtherSector { found, expected } => {
                write!(f, "holds sector {found}, expected {expected}")
            }
            Corruption::SlotCount { found, expected } => {
                write!(f, "{found} slots, the index has {expected}")
            }
            Corruption::Truncated { len, expected } => {
                write!(f, "truncated or padded: {len} bytes, expected {expected}")
            }
            Corruption::TooLong { len, max } => write!(
                f,
                "{len} bytes, more than the {max} bytes its header allows (not a table or damaged)"
            ),
            Corruption::BadBlockTable(what) => write!(f, "bad block table: {what}"),
            Corruption::BlockChecksum { block } => {
                write!(f, "block {block}: checksum mismatch (damaged data)")
            }
            Corruption::Decompression { block, message } => {
                write!(f, "block {block}: decompression failed: {message}")
            }
            Corruption::FileChecksum => f.write_str("whole-file checksum mismatch (damaged file)"),
            Corruption::BadSymbol { slot, symbol } => {
                write!(f, "slot {slot} holds the invalid symbol {symbol}")
            }
            Corruption::OtherNMoveRule { found, expected } => write!(
                f,
                "solved under {}, the other tables under {} (tables of different rules are \
                 never mixed)",
                rule_name(*found),
                rule_name(*expected)
            ),
            Corruption::NotCompanion => {
                f.write_str("distance file was not written together with the WDL file beside it")
            }
            Corruption::OtherEndgameRule { found, expected, n } => write!(
                f,
                "solved under {} and {} while a side has three stones on the board, the \
                 rules asked for give {} (tables of different rules are never mixed)",
                rule_name(*n),
                endgame_name(*found),
                endgame_name(*expected)
            ),
        }
    }
}

/// "endgame-n-move-rule=n", or "no lower endgame N-move rule".
fn endgame_name(n: u16) -> String {
    match n {
        0 => "no lower endgame N-move rule".into(),
        n => format!("endgame-n-move-rule={n}"),
    }
}

/// "no N-move rule" or "the N-move rule with N = n".
fn rule_name(n: u16) -> String {
    match n {
        0 => "no N-move rule".into(),
        n => format!("the N-move rule with N = {n}"),
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TableError::NotRegular { path, what } => write!(
                f,
                "{}: not a regular file but {what} (tables are read from regular files only)",
                path.display()
            ),
            TableError::Missing { path, sector, kind } => write!(
                f,
                "{}: no such file: the {kind} table of sector {sector} is needed",
                path.display()
            ),
            TableError::Corrupt { path, problem } => write!(f, "{}: {problem}", path.display()),
            TableError::NoSuchSector { sector, variant } => {
                write!(f, "sector {sector} does not exist in variant {variant}")
            }
            TableError::SlotOutOfRange {
                sector,
                slot,
                slots,
            } => write!(f, "slot {slot} of sector {sector}, which has {slots} slots"),
            TableError::InvalidInput(what) => f.write_str(what),
        }
    }
}

impl TableError {
    /// The file or directory the error is about, if it names one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            TableError::Io { path, .. }
            | TableError::NotRegular { path, .. }
            | TableError::Missing { path, .. }
            | TableError::Corrupt { path, .. } => Some(path),
            _ => None,
        }
    }

    /// What is wrong, in a word or two, without the path: "missing", "damaged",
    /// "unreadable", "not a regular file" (or "invalid" for errors that name no file).
    pub fn kind_word(&self) -> &'static str {
        match self {
            TableError::Missing { .. } => "missing",
            TableError::Corrupt { problem, .. } => match problem {
                Corruption::WrongMagic => "not a table",
                Corruption::Version(_) => "of another format version",
                Corruption::OtherVariant { .. }
                | Corruption::OtherRules { .. }
                | Corruption::OtherEndgameRule { .. } => "of other rules",
                Corruption::OtherSector { .. } => "of another sector",
                _ => "damaged",
            },
            TableError::Io { .. } => "unreadable",
            TableError::NotRegular { .. } => "not a regular file",
            _ => "invalid",
        }
    }
}

impl std::error::Error for TableError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Calls `f(run, all_used)` for the consecutive pieces of `slots` that lie in one orbit of
/// the side to move's stone sets; `all_used` is true when the orbit's representative has no
/// non-trivial stabilizer, so that every slot of the run is used. Otherwise
/// [`SectorIndex::position`] tells used slots from unused ones.
pub(crate) fn for_each_orbit_run(
    index: &SectorIndex,
    slots: Range<u64>,
    mut f: impl FnMut(Range<u64>, bool),
) {
    let per = index.per_orbit as u64;
    let mut s = slots.start;
    while s < slots.end {
        let orbit = s / per;
        let end = ((orbit + 1) * per).min(slots.end);
        f(s..end, index.us_orbits.stabilizer(orbit as u32) == 0);
        s = end;
    }
}

/// For the slots `run` of one orbit (as [`for_each_orbit_run`] gives them), sets `out[i]`
/// to whether the position of slot `run.start + i` is one no game reaches by `filter`
/// (computed from the orbit's representative and the opponent sets in rank order).
pub(crate) fn unreachable_in_run(
    index: &SectorIndex,
    filter: &crate::sector::reach::ReachFilter,
    run: Range<u64>,
    out: &mut Vec<bool>,
) {
    out.clear();
    let per = index.per_orbit as u64;
    let us = index.us_orbits.rep((run.start / per) as u32);
    if filter.us_impossible(us) {
        out.resize((run.end - run.start) as usize, true);
        return;
    }
    let free = index.tables.board.full() & !us;
    let b = index.sector.b as u32;
    let mut combo = crate::sector::index::colex_unrank((run.start % per) as u32, b);
    for _ in run {
        out.push(filter.them_impossible(crate::sector::index::pdep(combo, free)));
        combo = crate::sector::index::next_combination(combo);
    }
}

/// Is `slot` (below the slot count) a used slot?
#[inline]
pub(crate) fn is_used(index: &SectorIndex, slot: u64) -> bool {
    let orbit = slot / index.per_orbit as u64;
    index.us_orbits.stabilizer(orbit as u32) == 0 || index.position(slot).is_some()
}
