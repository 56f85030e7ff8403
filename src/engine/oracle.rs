//! The engine's only access to the tables: "the values of the moves of (position, counter),
//! or `None` when a needed sector is absent".
//!
//! Everything else in the engine (move choice, search leaves, `play`'s values and hints)
//! asks an [`Oracle`]; switching the engine to values that are exact under the N-move rule
//! is a change in this file only.
//!
//! * [`Oracle::value`] — the value of a position for the side to move with N-move counter
//!   `counter`, or `None` if its sector (or, for a remove-pending position, a sector one of
//!   its removals leads to) is not in the directory.
//! * [`Oracle::move_values`] — every legal move (combined convention; lone removals in a
//!   remove-pending position) with its value for the side making it, or `None` if any
//!   successor's sector is absent.
//! * [`Oracle::rule`] — the N of the tables' N-move rule, `None` for rule-free tables.
//!
//! Tables without the N-move rule ignore `counter`: their values are those of the game
//! without draw rules, with distances to the end of the game (a win may take longer than the
//! N-move rule allows; the engine then guards against the draw rules itself). Tables solved
//! under the N-move rule (docs/NMOVE.md) answer the value exact at `counter`, with the DTR as
//! distance: a win's DTR strictly decreases until the next removal, so playing the smallest
//! DTR wins under the rule and never repeats a position. They are used only when their N is
//! the game's N ([`Oracle::rule_exact`]); tables of another N count as absent.
//!
//! Presence of a sector (both its files there with valid headers) is checked once and cached,
//! so an absent sector costs one look-up in a small array. A table that cannot be used counts
//! as absent and is reported once through [`Oracle::take_warnings`], naming the file and why:
//! a damaged file (found by its header when the sector is first looked at, or by a block's
//! checksum when a probe reads it), a path that is not a regular file (a named pipe, a
//! directory, a link to a device, a dangling link), a file without its companion, a sector that
//! does not exist in the variant ([`Oracle::warm`] lists all of these when the tables are
//! opened).

use crate::engine::game::next_counter;
use crate::game::movegen::{Convention, Outcome, legal_moves, outcome, play};
use crate::game::position::{Move, Position};
use crate::game::rules::Variant;
use crate::game::value::Value;
use crate::probe::{MoveValue, ProbeError, Tablebase};
use crate::sector::index::Sector;
use crate::table::open::describe;
use crate::table::{FileKind, TableDir, TableError, table_path};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Presence cache states.
const UNKNOWN: u8 = 0;
const PRESENT: u8 = 1;
const ABSENT: u8 = 2;

/// Table access for the engine (see the module documentation).
pub struct Oracle {
    variant: Variant,
    dir: PathBuf,
    tb: Option<Tablebase>,
    /// The game's N-move rule (`None`: off); rule-exact tables are used only if theirs equals it.
    game_rule: Option<u32>,
    /// Per sector, by [`Oracle::sector_number`]: [`UNKNOWN`], [`PRESENT`] or [`ABSENT`].
    present: Vec<AtomicU8>,
    /// The directory holds WDL files only (no `.mbd` at all): said once, not per sector.
    wdl_only: bool,
    warnings: Mutex<Warnings>,
    probes: AtomicU64,
}

/// Messages not yet taken, and every message ever given (each is given once).
#[derive(Default)]
struct Warnings {
    pending: Vec<String>,
    given: HashSet<String>,
}

impl Oracle {
    /// The tables of `variant` in `dir`. A directory that does not exist holds no tables:
    /// the oracle then answers `None` everywhere (and says so in a warning).
    pub fn open(dir: impl AsRef<Path>, variant: Variant, game_rule: Option<u32>) -> Oracle {
        let dir = dir.as_ref().to_path_buf();
        let tb = Tablebase::open(&dir, variant).ok();
        let wdl_only = TableDir::scan(&dir).is_ok_and(|t| t.wdl_only());
        let radix = variant.stones as usize + 1;
        let oracle = Oracle {
            variant,
            dir,
            tb,
            game_rule,
            present: (0..radix.pow(4)).map(|_| AtomicU8::new(UNKNOWN)).collect(),
            wdl_only,
            warnings: Mutex::default(),
            probes: AtomicU64::new(0),
        };
        if oracle.tb.is_none() {
            oracle.warn(format!(
                "no table directory {}: searching everywhere",
                oracle.dir.display()
            ));
        } else if wdl_only {
            oracle.warn(format!(
                "tables of {} not used: WDL files only (.mbw, no .mbd); the engine needs both \
                 files of a sector",
                oracle.dir.display()
            ));
        }
        oracle
    }

    /// An oracle without tables (every answer `None`).
    pub fn none(variant: Variant) -> Oracle {
        let radix = variant.stones as usize + 1;
        Oracle {
            variant,
            dir: PathBuf::new(),
            tb: None,
            game_rule: None,
            present: (0..radix.pow(4)).map(|_| AtomicU8::new(ABSENT)).collect(),
            wdl_only: false,
            warnings: Mutex::default(),
            probes: AtomicU64::new(0),
        }
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The table directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The N of the tables' N-move rule; `None` for tables without it.
    pub fn rule(&self) -> Option<u16> {
        let rule = self.tb.as_ref()?.rule();
        rule.is_active().then(|| rule.n())
    }

    /// Are the distances of [`Oracle::value`] DTR (tables under the N-move rule) rather than
    /// plies to the end of the game?
    pub fn distances_are_dtr(&self) -> bool {
        self.rule().is_some()
    }

    /// Are the values exact under the game's N-move rule? (False for rule-free tables, unless
    /// the game has no N-move rule.)
    pub fn rule_exact(&self) -> bool {
        match self.game_rule {
            None => true,
            Some(n) => self.rule().is_some_and(|r| u32::from(r) == n),
        }
    }

    /// Number of table probes made so far (positions looked up).
    pub fn probes(&self) -> u64 {
        self.probes.load(Ordering::Relaxed)
    }

    /// Messages about the directory or tables not used, not yet reported (each only once).
    pub fn take_warnings(&self) -> Vec<String> {
        let mut w = self.warnings.lock().unwrap_or_else(|p| p.into_inner());
        std::mem::take(&mut w.pending)
    }

    fn sector_number(&self, s: Sector) -> usize {
        let r = self.variant.stones as usize + 1;
        ((s.w as usize * r + s.b as usize) * r + s.wf as usize) * r + s.bf as usize
    }

    /// The sector of a position that is not remove-pending.
    fn sector_of(pos: &Position) -> Sector {
        let me = pos.to_move;
        Sector::new(
            pos.on_board(me),
            pos.on_board(me.other()),
            pos.in_hand[me.index()],
            pos.in_hand[me.other().index()],
        )
    }

    /// Are both files of `sector` there with valid headers? Checked once, then cached.
    pub fn has_sector(&self, sector: Sector) -> bool {
        if !sector.fits(&self.variant) {
            return false;
        }
        let cell = &self.present[self.sector_number(sector)];
        match cell.load(Ordering::Relaxed) {
            PRESENT => return true,
            ABSENT => return false,
            _ => {}
        }
        let Some(tb) = &self.tb else {
            cell.store(ABSENT, Ordering::Relaxed);
            return false;
        };
        // Missing files, and paths that are not regular files, are found without touching
        // the table set, which would build the sector's index first (costly for big sectors,
        // and useless without a table); each such file is named with what is wrong.
        let problems: Vec<TableError> = [FileKind::Wdl, FileKind::Distance]
            .into_iter()
            .filter_map(|kind| self.file_problem(sector, kind))
            .collect();
        if !problems.is_empty() {
            let missing = |e: &TableError| matches!(e, TableError::Missing { .. });
            let no_table = problems.len() == 2 && problems.iter().all(missing);
            // In a WDL-only directory the missing distances were said once for all.
            let said = self.wdl_only
                && matches!(
                    problems[..],
                    [TableError::Missing {
                        kind: FileKind::Distance,
                        ..
                    }]
                );
            if !no_table && !said {
                for e in &problems {
                    self.warn(format!("table of sector {sector} not used: {e}"));
                }
            }
            cell.store(ABSENT, Ordering::Relaxed);
            return false;
        }
        if self.rule().is_some() && !self.rule_exact() {
            // Values under another N would be wrong for this game.
            self.warn(format!(
                "tables of {} are solved under the {}, not the game's N-move rule: not used",
                self.dir.display(),
                tb.rule()
            ));
            cell.store(ABSENT, Ordering::Relaxed);
            return false;
        }
        let ok = match tb.tables().header(sector, FileKind::Distance) {
            Ok(_) => true,
            Err(TableError::Missing { .. }) => false,
            Err(e) => {
                self.warn(format!("table of sector {sector} not used: {e}"));
                false
            }
        };
        cell.store(if ok { PRESENT } else { ABSENT }, Ordering::Relaxed);
        ok
    }

    /// What keeps the file of `kind` of `sector` from being read, seen from its path alone:
    /// nothing there, or something other than a regular file (a named pipe, a directory, a
    /// device, a dangling symbolic link). `None` for a regular file (or a link to one).
    fn file_problem(&self, sector: Sector, kind: FileKind) -> Option<TableError> {
        let path = table_path(&self.dir, sector, kind);
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

    /// Open every table of the directory now (checking headers and building indices), so
    /// that the first searches do not pay for it. Returns the number of usable sectors; each
    /// file named like a table that is not used gets a warning saying why.
    pub fn warm(&self) -> usize {
        let Ok(listing) = TableDir::scan(&self.dir) else {
            return 0;
        };
        let mut usable = 0;
        for sector in listing.sectors() {
            if !sector.fits(&self.variant) {
                let files = listing.files(sector);
                let names: Vec<String> = [
                    (files.wdl, FileKind::Wdl),
                    (files.distance, FileKind::Distance),
                ]
                .into_iter()
                .filter(|&(there, _)| there)
                .map(|(_, k)| table_path(&self.dir, sector, k).display().to_string())
                .collect();
                self.warn(format!(
                    "{} not used: sector {sector} does not exist in variant {}",
                    names.join(", "),
                    self.variant.name
                ));
            } else if self.has_sector(sector) {
                usable += 1;
            }
        }
        usable
    }

    /// Add `message` to the warnings, unless it was given before.
    fn warn(&self, message: String) {
        let mut w = self.warnings.lock().unwrap_or_else(|p| p.into_inner());
        if w.given.insert(message.clone()) {
            w.pending.push(message);
        }
    }

    /// Can [`Oracle::value`] answer `pos` (game over, or every needed sector present)?
    pub fn covers(&self, pos: &Position) -> bool {
        if pos.too_few(pos.to_move) || pos.too_few(pos.to_move.other()) {
            return true;
        }
        if pos.pending_removal {
            return legal_moves(&self.variant, pos, Convention::Combined)
                .iter()
                .all(|&mv| self.covers(&play(&self.variant, pos, mv)));
        }
        self.has_sector(Self::sector_of(pos)) || outcome(&self.variant, pos).is_some()
    }

    /// The value of a finished game, without tables.
    fn decided(v: &Variant, pos: &Position) -> Option<Value> {
        match outcome(v, pos)? {
            Outcome::Loss => Some(Value::Loss(0)),
            Outcome::Win => Some(Value::Win(0)),
            Outcome::Draw => Some(Value::Draw),
        }
    }

    /// The value of `pos` for the side to move with N-move counter `counter`; `None` when a
    /// needed sector is absent (or its table is damaged). Finished games need no table.
    pub fn value(&self, pos: &Position, counter: u32) -> Option<Value> {
        if pos.too_few(pos.to_move) || pos.too_few(pos.to_move.other()) {
            return Self::decided(&self.variant, pos);
        }
        if pos.pending_removal {
            let moves = self.move_values(pos, counter)?;
            return Some(crate::probe::best_value(moves.iter().map(|m| m.value)));
        }
        if self.has_sector(Self::sector_of(pos)) {
            return self.raw_value(pos, counter);
        }
        Self::decided(&self.variant, pos)
    }

    /// The table's value of a position that is not remove-pending and where both sides have
    /// three stones or more, if its sector is present: the search's leaf probe (no move
    /// generation when the sector is absent).
    pub fn sector_value(&self, pos: &Position, counter: u32) -> Option<Value> {
        debug_assert!(!pos.pending_removal);
        if self.has_sector(Self::sector_of(pos)) {
            self.raw_value(pos, counter)
        } else {
            None
        }
    }

    /// Every legal move of `pos` (combined convention; lone removals when a removal is
    /// pending) with its value for the side making it, in move-generation order; `None` when
    /// the sector of some successor is absent. Empty when the game is over.
    pub fn move_values(&self, pos: &Position, counter: u32) -> Option<Vec<MoveValue>> {
        let moves = legal_moves(&self.variant, pos, Convention::Combined);
        let nexts: Vec<Position> = moves
            .iter()
            .map(|&mv| play(&self.variant, pos, mv))
            .collect();
        if !nexts.iter().all(|n| self.covers(n)) {
            return None;
        }
        self.raw_move_values(counter, &moves, &nexts)
    }

    /// The best moves of `pos` (those keeping its value), or `None` as for
    /// [`Oracle::move_values`].
    pub fn best_moves(&self, pos: &Position, counter: u32) -> Option<Vec<MoveValue>> {
        let moves = self.move_values(pos, counter)?;
        let best = moves.iter().map(|m| m.value.preference()).max();
        Some(
            moves
                .into_iter()
                .filter(|m| Some(m.value.preference()) == best)
                .collect(),
        )
    }

    /// The values of the moves of a position all of whose successors are covered: each
    /// successor's value seen from the mover. Under the N-move rule a resetting move (a
    /// removal or placement) that wins or loses does so in one turn, and the value is the
    /// one at `counter` (`NMoveRule::move_value`, `NMoveRule::at_counter`), as
    /// `Tablebase::move_values_at` gives it.
    fn raw_move_values(
        &self,
        counter: u32,
        moves: &[Move],
        nexts: &[Position],
    ) -> Option<Vec<MoveValue>> {
        let rule = self.tb.as_ref().map(|t| t.rule()).unwrap_or_default();
        let counter = if nexts.is_empty() || !rule.is_active() {
            counter
        } else if moves.iter().all(|m| m.is_lone_removal()) {
            0 // a pending removal comes before any check of the counter
        } else {
            counter
        };
        moves
            .iter()
            .zip(nexts)
            .map(|(&mv, next)| {
                let value = if rule.is_active() {
                    let stored = self.value(next, 0)?;
                    let resets = mv.removes() || mv.is_place();
                    rule.at_counter(rule.move_value(stored.encode(), resets), counter)
                        .result()
                } else {
                    self.value(next, next_counter(counter, mv))?.before_move()
                };
                Some(MoveValue { mv, value })
            })
            .collect()
    }

    /// The table's value of a position (not remove-pending, game not over) whose sector is
    /// present. Rule-free tables ignore the counter. (Rule-exact tables: the value at
    /// `counter` when [`Oracle::rule_exact`].)
    fn raw_value(&self, pos: &Position, counter: u32) -> Option<Value> {
        let tb = self.tb.as_ref()?;
        self.probes.fetch_add(1, Ordering::Relaxed);
        match tb.value_at(pos, counter) {
            Ok(v) => Some(v.result()),
            Err(ProbeError::Table(e)) => {
                let sector = Self::sector_of(pos);
                self.present[self.sector_number(sector)].store(ABSENT, Ordering::Relaxed);
                if !matches!(e, TableError::Missing { .. }) {
                    self.warn(format!("table of sector {sector} not used: {e}"));
                }
                None
            }
            Err(_) => None,
        }
    }
}

/// The move of a combined move that is played first in the split convention: the move
/// without its removal (a lone removal stays as it is).
pub fn split_first(mv: Move) -> Move {
    if mv.is_lone_removal() {
        mv
    } else {
        Move {
            remove: crate::game::rules::NO_SQUARE,
            ..mv
        }
    }
}
