//! Which sectors' tables a [`Tablebase`] can use, checked once per sector, and the report of
//! the files it does not use ([`UnusedTable`]): what a program that probes only where tables
//! are (an engine searching beyond them) asks before each probe.

use super::{ProbeError, Tablebase};
use crate::game::position::Position;
use crate::game::value::RuleValue;
use crate::sector::index::Sector;
use crate::table::open::describe;
use crate::table::{FileKind, TableDir, TableError, table_path};
use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};

/// Presence states of a sector.
const UNKNOWN: u8 = 0;
const PRESENT: u8 = 1;
const ABSENT: u8 = 2;

/// A table file (or a directory's tables) that a [`Tablebase`] does not use, and why: found
/// by [`Tablebase::has_sector`], [`Tablebase::warm`] and [`Tablebase::value_if_present`],
/// handed out once each by [`Tablebase::take_unused`]. Its `Display` is a one-line message
/// naming the file.
#[derive(Debug)]
pub enum UnusedTable {
    /// The directory holds WDL files only (`.mbw`, no `.mbd` at all): no sector has both of
    /// its files. Said once for the directory, not per sector.
    WdlOnly {
        /// The directory.
        dir: PathBuf,
    },
    /// A file of `sector` is there but cannot be used (its companion missing, not a regular
    /// file, a damaged header or block, another N-move rule than the other tables).
    Sector {
        /// The sector.
        sector: Sector,
        /// What is wrong, naming the file.
        error: TableError,
    },
    /// Files named like the tables of a sector the variant does not have.
    NoSuchSector {
        /// The sector named.
        sector: Sector,
        /// The files.
        paths: Vec<PathBuf>,
        /// The variant's name.
        variant: &'static str,
    },
}

impl fmt::Display for UnusedTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnusedTable::WdlOnly { dir } => write!(
                f,
                "tables of {} not used: WDL files only (.mbw, no .mbd); the engine needs both \
                 files of a sector",
                dir.display()
            ),
            UnusedTable::Sector { sector, error } => {
                write!(f, "table of sector {sector} not used: {error}")
            }
            UnusedTable::NoSuchSector {
                sector,
                paths,
                variant,
            } => {
                let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "{} not used: sector {sector} does not exist in variant {variant}",
                    names.join(", ")
                )
            }
        }
    }
}

/// A [`Tablebase`]'s knowledge of which sectors it can use, and its reports not yet taken.
pub(super) struct Presence {
    /// Per sector, by [`Presence::number`]: [`UNKNOWN`], [`PRESENT`] or [`ABSENT`].
    cells: Vec<AtomicU8>,
    /// Whether the directory holds WDL files only, learnt at the first check.
    wdl_only: OnceLock<bool>,
    reports: Mutex<Reports>,
}

/// Reports not yet taken, and the message of every report ever made (each is made once).
#[derive(Default)]
struct Reports {
    pending: Vec<UnusedTable>,
    given: HashSet<String>,
}

impl Presence {
    /// Nothing known yet about the sectors of a variant with `stones` stones a side.
    pub(super) fn new(stones: u8) -> Presence {
        let radix = stones as usize + 1;
        Presence {
            cells: (0..radix.pow(4)).map(|_| AtomicU8::new(UNKNOWN)).collect(),
            wdl_only: OnceLock::new(),
            reports: Mutex::default(),
        }
    }

    fn cell(&self, stones: u8, s: Sector) -> &AtomicU8 {
        let r = stones as usize + 1;
        let n = ((s.w as usize * r + s.b as usize) * r + s.wf as usize) * r + s.bf as usize;
        &self.cells[n]
    }

    fn report(&self, unused: UnusedTable) {
        let mut r = self.reports.lock().unwrap_or_else(|p| p.into_inner());
        if r.given.insert(unused.to_string()) {
            r.pending.push(unused);
        }
    }
}

impl Tablebase {
    /// Can the tables of `sector` be probed for values with distances: both of its files
    /// there, regular files with valid headers, written together, and of the tables' N-move
    /// rule? Checked once and remembered, so that asking again costs one look-up (a file that
    /// appears later is not seen; one found damaged by [`Tablebase::value_if_present`] makes
    /// the sector absent from then on). Files that are there but cannot be used are reported
    /// ([`Tablebase::take_unused`]); a sector without any file is simply absent, as is every
    /// sector of a WDL-only directory (reported once for the directory). False for a sector
    /// the variant does not have.
    pub fn has_sector(&self, sector: Sector) -> bool {
        if !sector.fits(&self.variant) {
            return false;
        }
        match self
            .presence
            .cell(self.variant.stones, sector)
            .load(Ordering::Relaxed)
        {
            PRESENT => true,
            ABSENT => false,
            _ => self.check_sector(sector),
        }
    }

    #[cold]
    fn check_sector(&self, sector: Sector) -> bool {
        let wdl_only = self.wdl_only();
        let cell = self.presence.cell(self.variant.stones, sector);
        // Missing files, and paths that are not regular files, are found without touching
        // the table set, which would build the sector's index first (costly for big sectors,
        // and useless without a table); each such file is named with what is wrong.
        let problems: Vec<TableError> = [FileKind::Wdl, FileKind::Distance]
            .into_iter()
            .filter_map(|kind| file_problem(self.tables.dir(), sector, kind))
            .collect();
        if !problems.is_empty() {
            let missing = |e: &TableError| matches!(e, TableError::Missing { .. });
            let no_table = problems.len() == 2 && problems.iter().all(missing);
            // In a WDL-only directory the missing distances were said once for all.
            let said = wdl_only
                && matches!(
                    problems[..],
                    [TableError::Missing {
                        kind: FileKind::Distance,
                        ..
                    }]
                );
            if !no_table && !said {
                for error in problems {
                    self.presence.report(UnusedTable::Sector { sector, error });
                }
            }
            cell.store(ABSENT, Ordering::Relaxed);
            return false;
        }
        let ok = match self.tables.header(sector, FileKind::Distance) {
            Ok(_) => true,
            Err(TableError::Missing { .. }) => false,
            Err(error) => {
                self.presence.report(UnusedTable::Sector { sector, error });
                false
            }
        };
        cell.store(if ok { PRESENT } else { ABSENT }, Ordering::Relaxed);
        ok
    }

    /// Does the directory hold WDL files only? Learnt once; the first time, reported.
    fn wdl_only(&self) -> bool {
        *self.presence.wdl_only.get_or_init(|| {
            let dir = self.tables.dir();
            let wdl_only = TableDir::scan(dir).is_ok_and(|t| t.wdl_only());
            if wdl_only {
                self.presence.report(UnusedTable::WdlOnly {
                    dir: dir.to_path_buf(),
                });
            }
            wdl_only
        })
    }

    /// Check every table file of the directory now (reading the headers and building the
    /// sectors' indices), so that the first probes do not pay for it. Returns the number of
    /// sectors [`Tablebase::has_sector`] finds usable; every file named like a table that is
    /// not used is reported ([`Tablebase::take_unused`]) with why, including the files of
    /// sectors the variant does not have. 0 if the directory cannot be listed.
    pub fn warm(&self) -> usize {
        self.warm_with(|_| true)
    }

    /// [`Tablebase::warm`], handing each usable sector to `keep` as soon as it is found (before
    /// the next sector is checked, so that what `keep` reports comes in order with the
    /// tablebase's reports); returns the number of sectors `keep` accepted. A program with
    /// rules of its own for using a table (an engine refusing tables of another N-move rule
    /// than its game's) applies them here.
    pub fn warm_with(&self, mut keep: impl FnMut(Sector) -> bool) -> usize {
        self.wdl_only();
        let Ok(listing) = TableDir::scan(self.tables.dir()) else {
            return 0;
        };
        let mut usable = 0;
        for sector in listing.sectors() {
            if !sector.fits(&self.variant) {
                let files = listing.files(sector);
                let paths = [
                    (files.wdl, FileKind::Wdl),
                    (files.distance, FileKind::Distance),
                ]
                .into_iter()
                .filter(|&(there, _)| there)
                .map(|(_, kind)| table_path(self.tables.dir(), sector, kind))
                .collect();
                self.presence.report(UnusedTable::NoSuchSector {
                    sector,
                    paths,
                    variant: self.variant.name,
                });
            } else if self.has_sector(sector) && keep(sector) {
                usable += 1;
            }
        }
        usable
    }

    /// The value at `counter` ([`Tablebase::value_at`]) of a position that is not
    /// remove-pending, in a sector [`Tablebase::has_sector`] finds usable; `None` otherwise.
    /// A table error on the way (a damaged block) is reported ([`Tablebase::take_unused`])
    /// instead of returned, and makes the sector absent from then on. `None` too for a
    /// position the tables do not store (one no game reaches, in tables generated without
    /// those).
    pub fn value_if_present(&self, pos: &Position, counter: u32) -> Option<RuleValue> {
        if pos.pending_removal() {
            return None;
        }
        let sector = Sector::of_position(pos);
        if !self.has_sector(sector) {
            return None;
        }
        if self.has_bar(pos) {
            // Played out over other sectors: a missing one says nothing about this sector.
            return self.value_at(pos, counter).ok();
        }
        match self.value_at(pos, counter) {
            Ok(v) => Some(v),
            Err(ProbeError::Table(error)) => {
                let cell = self.presence.cell(self.variant.stones, sector);
                cell.store(ABSENT, Ordering::Relaxed);
                if !matches!(error, TableError::Missing { .. }) {
                    self.presence.report(UnusedTable::Sector { sector, error });
                }
                None
            }
            Err(_) => None,
        }
    }

    /// The tables found unusable since the last call, in the order found; each is reported
    /// once in the tablebase's life.
    pub fn take_unused(&self) -> Vec<UnusedTable> {
        self.wdl_only();
        let mut r = self
            .presence
            .reports
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        std::mem::take(&mut r.pending)
    }
}

/// What keeps the file of `kind` of `sector` in `dir` from being read, seen from its path
/// alone: nothing there, or something other than a regular file (a named pipe, a directory,
/// a device, a dangling symbolic link). `None` for a regular file (or a link to one).
fn file_problem(dir: &Path, sector: Sector, kind: FileKind) -> Option<TableError> {
    let path = table_path(dir, sector, kind);
    let what = match std::fs::metadata(&path) {
        Ok(m) if m.is_file() => return None,
        Ok(m) => describe(m.file_type()),
        // Not for want of a file: opening it says what is wrong.
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return None,
        Err(_) => match std::fs::symlink_metadata(&path) {
            Ok(m) => describe(m.file_type()),
            Err(_) => return Some(TableError::Missing { path, sector, kind }),
        },
    };
    Some(TableError::NotRegular { path, what })
}
