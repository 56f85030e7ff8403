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
//! * [`Oracle::rule`] — the tables' N-move rule ([`NMoveRule::NONE`] for rule-free tables).
//!
//! Tables without the N-move rule ignore `counter`: their values are those of the game
//! without draw rules, with distances to the end of the game (a win may take longer than the
//! N-move rule allows; the engine then guards against the draw rules itself). Tables solved
//! under the N-move rule (docs/NMOVE.md) answer the value exact at `counter`, with the DTR as
//! distance: a win's DTR strictly decreases until the next removal, so playing the smallest
//! DTR wins under the rule and never repeats a position. They are used only when their N is
//! the game's N ([`Oracle::rule_exact`]); tables of another N count as absent.
//!
//! The oracle asks only the [`Tablebase`]: which sectors are present (checked once per
//! sector, [`Tablebase::has_sector`]), their values ([`Tablebase::value_if_present`]), and
//! the files not used ([`Tablebase::take_unused`]). A table that cannot be used counts as
//! absent and is reported once through [`Oracle::take_warnings`], naming the file and why:
//! a damaged file (found by its header when the sector is first looked at, or by a block's
//! checksum when a probe reads it), a path that is not a regular file (a named pipe, a
//! directory, a link to a device, a dangling link), a file without its companion, a sector that
//! does not exist in the variant ([`Oracle::warm`] lists all of these when the tables are
//! opened).

use crate::engine::game::counter_after;
use crate::game::movegen::{Convention, Outcome, legal_moves, outcome, play};
use crate::game::position::{Move, Position};
use crate::game::rules::Variant;
use crate::game::value::{NMoveRule, Value};
use crate::probe::{MoveValue, Tablebase};
use crate::sector::index::Sector;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Table access for the engine (see the module documentation).
pub struct Oracle {
    variant: Variant,
    dir: PathBuf,
    tb: Option<Tablebase>,
    /// The game's N-move rule; rule-exact tables are used only if theirs equals it.
    game_rule: NMoveRule,
    /// The tables were found solved under another rule than the game's (and said so).
    other_rule_said: AtomicBool,
    /// Messages not yet taken, oldest first.
    warnings: Mutex<Vec<String>>,
    probes: AtomicU64,
}

impl Oracle {
    /// The tables of `variant` in `dir`, for a game under `game_rule`. A directory that does
    /// not exist holds no tables: the oracle then answers `None` everywhere (and says so in a
    /// warning).
    pub fn open(dir: impl AsRef<Path>, variant: Variant, game_rule: NMoveRule) -> Oracle {
        let dir = dir.as_ref().to_path_buf();
        let tb = Tablebase::open(&dir, variant).ok();
        let oracle = Oracle {
            variant,
            dir,
            tb,
            game_rule,
            other_rule_said: AtomicBool::new(false),
            warnings: Mutex::default(),
            probes: AtomicU64::new(0),
        };
        if oracle.tb.is_none() {
            oracle.warn(format!(
                "no table directory {}: searching everywhere",
                oracle.dir.display()
            ));
        }
        oracle
    }

    /// An oracle without tables (every answer `None`).
    pub fn none(variant: Variant) -> Oracle {
        Oracle {
            variant,
            dir: PathBuf::new(),
            tb: None,
            game_rule: NMoveRule::NONE,
            other_rule_said: AtomicBool::new(false),
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

    /// The N-move rule of the tables; [`NMoveRule::NONE`] for tables without it (and without
    /// tables).
    pub fn rule(&self) -> NMoveRule {
        self.tb.as_ref().map(Tablebase::rule).unwrap_or_default()
    }

    /// Are the distances of [`Oracle::value`] DTR (tables under the N-move rule) rather than
    /// plies to the end of the game?
    pub fn distances_are_dtr(&self) -> bool {
        self.rule().is_active()
    }

    /// Are the values exact under the game's N-move rule? (False for rule-free tables, unless
    /// the game has no N-move rule.)
    pub fn rule_exact(&self) -> bool {
        !self.game_rule.is_active() || self.rule() == self.game_rule
    }

    /// Number of table probes made so far (positions looked up).
    pub fn probes(&self) -> u64 {
        self.probes.load(Ordering::Relaxed)
    }

    /// Messages about the directory or tables not used, not yet reported (each only once).
    pub fn take_warnings(&self) -> Vec<String> {
        let mut w = self.warnings.lock().unwrap_or_else(|p| p.into_inner());
        self.collect_unused(&mut w);
        std::mem::take(&mut *w)
    }

    /// Add the tablebase's reports not yet taken to `warnings`, in their order.
    fn collect_unused(&self, warnings: &mut Vec<String>) {
        if let Some(tb) = &self.tb {
            warnings.extend(tb.take_unused().iter().map(ToString::to_string));
        }
    }

    /// Add `message` to the warnings, after the tablebase's reports so far.
    fn warn(&self, message: String) {
        let mut w = self.warnings.lock().unwrap_or_else(|p| p.into_inner());
        self.collect_unused(&mut w);
        w.push(message);
    }

    /// Is the table of `sector` usable: present in the tablebase ([`Tablebase::has_sector`],
    /// checked once, then cached) and of a rule the game can use?
    pub fn has_sector(&self, sector: Sector) -> bool {
        let Some(tb) = &self.tb else {
            return false;
        };
        tb.has_sector(sector) && self.rule_usable(tb)
    }

    /// Can the game use tables of the tablebase's rule? Rule-free tables always (the engine
    /// guards against the draw rules itself); tables under a rule only if it is the game's.
    /// Tables of another N would give wrong values: they are not used, and that is said once.
    fn rule_usable(&self, tb: &Tablebase) -> bool {
        if !tb.rule().is_active() || self.rule_exact() {
            return true;
        }
        if !self.other_rule_said.swap(true, Ordering::Relaxed) {
            self.warn(format!(
                "tables of {} are solved under the {}, not the game's N-move rule: not used",
                self.dir.display(),
                tb.rule()
            ));
        }
        false
    }

    /// Open every table of the directory now (checking headers and building indices), so
    /// that the first searches do not pay for it. Returns the number of usable sectors; each
    /// file named like a table that is not used gets a warning saying why.
    pub fn warm(&self) -> usize {
        let Some(tb) = &self.tb else {
            return 0;
        };
        tb.warm_with(|_| self.rule_usable(tb))
    }

    /// Can [`Oracle::value`] answer `pos` (game over, or every needed sector present)?
    pub fn covers(&self, pos: &Position) -> bool {
        if pos.too_few(pos.to_move) || pos.too_few(pos.to_move.other()) {
            return true;
        }
        if pos.pending_removal() {
            return legal_moves(&self.variant, pos, Convention::Combined)
                .iter()
                .all(|&mv| self.covers(&play(&self.variant, pos, mv)));
        }
        self.has_sector(Sector::of_position(pos)) || outcome(&self.variant, pos).is_some()
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
        if pos.pending_removal() {
            let moves = self.move_values(pos, counter)?;
            return Some(crate::probe::best_value(moves.iter().map(|m| m.value)));
        }
        if self.has_sector(Sector::of_position(pos)) {
            return self.raw_value(pos, counter);
        }
        Self::decided(&self.variant, pos)
    }

    /// The table's value of a position that is not remove-pending and where both sides have
    /// three stones or more, if its sector is present: the search's leaf probe (no move
    /// generation when the sector is absent).
    pub fn sector_value(&self, pos: &Position, counter: u32) -> Option<Value> {
        debug_assert!(!pos.pending_removal());
        if self.has_sector(Sector::of_position(pos)) {
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
        self.raw_move_values(pos, counter, &moves, &nexts)
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
    /// one at `counter` under the rule in force (`NMoveRule::move_value_into`,
    /// `NMoveRule::at_counter`, `Tablebase::rule_at`), as `Tablebase::move_values_at` gives
    /// it.
    fn raw_move_values(
        &self,
        pos: &Position,
        counter: u32,
        moves: &[Move],
        nexts: &[Position],
    ) -> Option<Vec<MoveValue>> {
        let rule = self.rule();
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
                // The successor's value for the mover's opponent: turned round where the
                // mover moves again (Black's last placement under `moving-first=black`).
                let seen = |value: Value| match value {
                    Value::Win(n) if next.to_move == pos.to_move => Value::Loss(n),
                    Value::Loss(n) if next.to_move == pos.to_move => Value::Win(n),
                    other => other,
                };
                let value = if rule.is_active() {
                    // Under the rule in force on each side of the move (the variant's lower
                    // endgame N while a side has three stones on the board).
                    let tb = self.tb.as_ref()?;
                    let (own, theirs) = (tb.rule_at(pos), tb.rule_at(next));
                    let stored = seen(self.value(next, 0)?);
                    let resets = pos.resets_counter(next);
                    own.at_counter(
                        own.move_value_into(theirs, stored.encode(), resets),
                        counter,
                    )
                    .result()
                } else {
                    seen(self.value(next, counter_after(counter, pos, next))?).before_move()
                };
                Some(MoveValue { mv, value })
            })
            .collect()
    }

    /// The table's value of a position (not remove-pending, game not over) whose sector is
    /// present. Rule-free tables ignore the counter. (Rule-exact tables: the value at
    /// `counter` when [`Oracle::rule_exact`].) A damaged table on the way makes the sector
    /// absent and is reported by the tablebase.
    fn raw_value(&self, pos: &Position, counter: u32) -> Option<Value> {
        let tb = self.tb.as_ref()?;
        self.probes.fetch_add(1, Ordering::Relaxed);
        tb.value_if_present(pos, counter).map(|v| v.result())
    }
}

/// The move of a combined move that is played first in the split convention: the move
/// without its removals, or a lone removal's first removal.
pub fn split_first(mv: Move) -> Move {
    if mv.is_lone_removal() {
        Move::removal(mv.remove)
    } else {
        mv.without_removals()
    }
}
