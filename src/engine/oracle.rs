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
//! so an absent sector costs one look-up in a small array; a damaged table counts as absent
//! and is reported once through [`Oracle::take_warnings`].

use crate::engine::game::next_counter;
use crate::index::Sector;
use crate::movegen::{Convention, Outcome, legal_moves, outcome, play};
use crate::position::{Move, Position};
use crate::probe::{MoveValue, ProbeError, Tablebase};
use crate::rules::Variant;
use crate::table::{FileKind, TableError, table_path};
use crate::value::Value;
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
    warnings: Mutex<Vec<String>>,
    probes: AtomicU64,
}

impl Oracle {
    /// The tables of `variant` in `dir`. A directory that does not exist holds no tables:
    /// the oracle then answers `None` everywhere (and says so in a warning).
    pub fn open(dir: impl AsRef<Path>, variant: Variant, game_rule: Option<u32>) -> Oracle {
        let dir = dir.as_ref().to_path_buf();
        let tb = Tablebase::open(&dir, variant).ok();
        let mut warnings = Vec::new();
        if tb.is_none() {
            warnings.push(format!(
                "no table directory {}: searching everywhere",
                dir.display()
            ));
        }
        let radix = variant.stones as usize + 1;
        Oracle {
            variant,
            dir,
            tb,
            game_rule,
            present: (0..radix.pow(4)).map(|_| AtomicU8::new(UNKNOWN)).collect(),
            warnings: Mutex::new(warnings),
            probes: AtomicU64::new(0),
        }
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
            warnings: Mutex::new(Vec::new()),
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

    /// Messages about the directory or damaged tables not yet reported (each only once).
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// The sectors with both files present in the directory (by file name; not checked).
    pub fn sectors_on_disk(&self) -> Vec<Sector> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<Sector> = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let stem = name.strip_suffix(".mbd")?;
                stem.parse::<Sector>().ok()
            })
            .filter(|s| s.fits(&self.variant))
            .collect();
        out.sort();
        out
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
        // A missing file is found without touching the table set, which would build the
        // sector's index first (costly for big sectors, and useless without a table).
        let files = [FileKind::Wdl, FileKind::Distance].map(|k| table_path(&self.dir, sector, k));
        if !files.iter().all(|f| f.is_file()) {
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

    /// Open every table of the directory now (checking headers and building indices), so
    /// that the first searches do not pay for it. Returns the number of usable sectors.
    pub fn warm(&self) -> usize {
        self.sectors_on_disk()
            .into_iter()
            .filter(|&s| self.has_sector(s))
            .count()
    }

    fn warn(&self, message: String) {
        self.warnings
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(message);
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
            remove: crate::rules::NO_SQUARE,
            ..mv
        }
    }
}
