//! Perfect-play queries over a directory of tables: the value of a position, the value of
//! every legal move, the best moves and the principal variation.
//!
//! Layer 6 of the library (docs/DESIGN.md, "Layers"), beside [`build`](crate::build) and
//! independent of it: probing. Imports only [`table`](crate::table),
//! [`sector`](crate::sector) and [`game`](crate::game).
//!
//! ```no_run
//! use millbase::{Tablebase, Variant};
//!
//! let tb = Tablebase::open("data/std", Variant::standard()).unwrap();
//! let pos = millbase::notation::parse_position(
//!     &Variant::standard(),
//!     "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
//! )
//! .unwrap();
//! println!("{}", tb.value(&pos).unwrap());
//! for mv in tb.move_values(&pos).unwrap() {
//!     println!("{:?} {}", mv.mv, mv.value);
//! }
//! ```
//!
//! A [`Tablebase`] is `Send + Sync`: many threads may probe it at once. Files are opened on
//! first use; a missing or damaged file is an error naming it.
//!
//! A program that probes only where tables are (an engine that searches beyond them) asks
//! [`Tablebase::has_sector`] first (checked once per sector, then one look-up), probes with
//! [`Tablebase::value_if_present`], and reports the files not used, each once, from
//! [`Tablebase::take_unused`] ([`Tablebase::warm`] checks them all at the start).

mod presence;

pub use presence::UnusedTable;

use crate::game::movegen::{Convention, legal_moves, play, settle};
use crate::game::notation::{PositionError, parse_position};
use crate::game::position::{Color, Move, NO_SLIDE, Position};
use crate::game::rules::{MIN_STONES, Stalemate, Variant};
use crate::game::value::{NMoveRule, RuleValue, Value, best_of};
use crate::sector::index::Sector;
use crate::table::{TableError, TableSet, Wdl, check_table_dir};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

/// Why a probe failed.
#[derive(Debug)]
pub enum ProbeError {
    /// A table file is missing or damaged (the error names the file).
    Table(TableError),
    /// The position text could not be read.
    Position(PositionError),
    /// The position cannot be in any table (e.g. more stones than the variant has).
    Impossible(String),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Table(e) => e.fmt(f),
            ProbeError::Position(e) => write!(f, "invalid position: {e}"),
            ProbeError::Impossible(what) => f.write_str(what),
        }
    }
}

/// The wrapped [`TableError`] or [`PositionError`] is the error's source.
impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProbeError::Table(e) => Some(e),
            ProbeError::Position(e) => Some(e),
            ProbeError::Impossible(_) => None,
        }
    }
}

impl From<TableError> for ProbeError {
    fn from(e: TableError) -> Self {
        ProbeError::Table(e)
    }
}

/// A legal move with its value for the side making it: the distance counts from the position
/// before the move, so the best winning move has the position's own distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move (in the combined convention; a lone removal in a remove-pending position).
    pub mv: Move,
    /// Its value for the side making it.
    pub value: Value,
}

/// A legal move with its value under the tables' N-move rule for the side making it, at the
/// counter of the position before the move (see [`Tablebase::move_values_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRuleValue {
    /// The move (in the combined convention; a lone removal in a remove-pending position).
    pub mv: Move,
    /// Its value for the side making it: a win's DTR counts from the position before the
    /// move (1 for a removal or placement that wins, the successor's DTR + 1 otherwise).
    pub value: RuleValue,
}

/// A move with its win/draw/loss for the side making it (WDL-only directories).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveWdl {
    /// The move.
    pub mv: Move,
    /// Its outcome for the side making it.
    pub wdl: Wdl,
}

/// Tables of one variant in one directory.
pub struct Tablebase {
    variant: Variant,
    tables: TableSet,
    /// Which sectors can be used, and the files not used ([`Tablebase::has_sector`]).
    presence: presence::Presence,
}

fn flip(w: Wdl) -> Wdl {
    match w {
        Wdl::Win => Wdl::Loss,
        Wdl::Loss => Wdl::Win,
        Wdl::Draw => Wdl::Draw,
    }
}

fn wdl_rank(w: Wdl) -> i32 {
    match w {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

impl Tablebase {
    /// Open the tables of `variant` in `dir` (files are opened lazily, on first use). `dir`
    /// must be a directory ("no such directory", "not a directory" otherwise).
    ///
    /// Files are read with positioned reads of their compressed blocks
    /// ([`crate::format::TableAccess::Read`]), so whatever happens to a file while it is open — truncated,
    /// rewritten, damaged — a probe gets an error naming it or a correct answer, never
    /// undefined behaviour. [`Tablebase::with_memory_map`] maps the files instead, for callers
    /// that can promise the files do not change in place.
    ///
    /// # Errors
    ///
    /// [`ProbeError::Table`] with [`TableError::Io`] naming `dir` if it is not there ("no such
    /// directory"), is not a directory, or cannot be read. The files are not opened yet: a missing
    /// or damaged table is reported by the first probe that needs it.
    pub fn open(dir: impl AsRef<Path>, variant: Variant) -> Result<Tablebase, ProbeError> {
        let dir = dir.as_ref();
        check_table_dir(dir)?;
        let tables = TableSet::new(dir, variant);
        // Learn the tables' N-move rule now if a table can be read; otherwise the first
        // probe that needs a file reports what is wrong with it.
        let _ = tables.detect_rule();
        Ok(Tablebase {
            variant,
            tables,
            presence: presence::Presence::new(variant.stones),
        })
    }

    /// The same tables with a block cache of about `bytes` bytes of decompressed blocks
    /// instead of the default 64 MiB (0: no
    /// caching). Blocks cached so far are dropped. A bigger cache pays when many probes
    /// land in random places of tables larger than the default cache, as in
    /// `millbase probe --batch --cache-mb N`.
    pub fn with_cache_bytes(mut self, bytes: usize) -> Tablebase {
        self.tables = self.tables.with_cache_bytes(bytes);
        self
    }

    /// The same tables read through memory maps ([`TableSet::with_memory_map`]): a little
    /// faster per block read and sharing the page cache between processes.
    ///
    /// # Safety
    ///
    /// No table file of the directory may be truncated or modified in place while the
    /// tablebase is open (by any process): a truncated mapped file kills the process with
    /// `SIGBUS`. Replacing files by rename, as `millbase generate` does, is safe.
    pub unsafe fn with_memory_map(mut self) -> Tablebase {
        // SAFETY: the caller's promise is passed on.
        self.tables = unsafe { self.tables.with_memory_map() };
        self
    }

    /// The N-move rule the tables were solved under ([`NMoveRule::NONE`] for tables without
    /// it, and while no table has been read).
    pub fn rule(&self) -> NMoveRule {
        self.tables.rule().unwrap_or_default()
    }

    /// The N-move rule in force in `pos` under the tables' rule ([`Tablebase::rule`]): the
    /// variant's lower `endgame-n-move-rule` while either side has exactly three stones on
    /// the board (Morabaraba: 10 under a 100-move rule), else the tables' rule
    /// ([`NMoveRule::with_stones`]). A position's stored DTR, its value at a counter and a
    /// draw by the counter are under this rule.
    pub fn rule_at(&self, pos: &Position) -> NMoveRule {
        let on_board = [pos.on_board(Color::White), pos.on_board(Color::Black)];
        self.rule().with_stones(&self.variant, on_board)
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The underlying tables.
    pub fn tables(&self) -> &TableSet {
        &self.tables
    }

    /// Parse a Sanmill position string (or `start`) for this variant.
    ///
    /// # Errors
    ///
    /// [`ProbeError::Position`] with the [`PositionError`] of [`parse_position`] if `text` is not a
    /// position of the variant.
    pub fn parse(&self, text: &str) -> Result<Position, ProbeError> {
        parse_position(&self.variant, text).map_err(ProbeError::Position)
    }

    /// Sector and slot of a position that is not remove-pending and not over by stone count.
    fn locate(&self, pos: &Position) -> Result<(Sector, u64), ProbeError> {
        let sector = Sector::of_position(pos);
        let unsupported = crate::sector::graph::unsupported_in(&self.variant, sector);
        if !unsupported.is_empty() {
            return Err(ProbeError::Impossible(format!(
                "tables of the placing phase are not available for these rules yet: {} \
                 (variant {}); positions of the moving phase have tables",
                unsupported.join(", "),
                self.variant.label()
            )));
        }
        if !self.side_as_stored(pos, sector) {
            return Err(ProbeError::Impossible(format!(
                "under moving-first=black the tables of the placing phase hold the positions \
                 where Black places the last stone, as in every game from the start (White to \
                 move with as many stones in hand as Black, Black with one more; Black to move \
                 on a board filled by placing); this position, {} to move with {} and {} in \
                 hand, has White place the last stone",
                pos.to_move,
                pos.in_hand[pos.to_move.index()],
                pos.in_hand[pos.to_move.other().index()],
            )));
        }
        let slot = self.tables.index(sector)?.slot(pos.us(), pos.them());
        if crate::sector::reach::unreachable(&self.variant, sector, pos.us(), pos.them())
            && self.tables.unreachable_dont_care(sector)?
        {
            return Err(ProbeError::Impossible(format!(
                "no game reaches this position (a side has more mills than the stones its \
                 opponent lost can explain); the tables of sector {sector} do not store it"
            )));
        }
        Ok((sector, slot))
    }

    /// Is the side to move of `pos` (of `sector`) the one the tables hold? Under
    /// `moving-first=black` the placing phase's tables are solved with Black placing the last
    /// stone ([`places_again`](crate::sector::graph::places_again)): the side to move is Black
    /// where it holds more stones in hand than its opponent (it places last), White where it
    /// holds as many or fewer, and Black on a board filled by placing (Black placed last and
    /// moves first). Moving-phase positions, and every position under `moving-first=white`,
    /// are stored for either side.
    fn side_as_stored(&self, pos: &Position, sector: Sector) -> bool {
        if self.variant.moving_first != Color::Black
            || !crate::sector::graph::follows_placing_rules(&self.variant, sector)
        {
            return true;
        }
        let black = sector.wf > sector.bf || (sector.wf == 0 && sector.bf == 0);
        (pos.to_move == Color::Black) == black
    }

    /// Does a side of `pos` carry a bar (`repeated-mills=restricted`: the slide that closed
    /// its last mill)? The tables hold positions without one; a position with one is valued
    /// from its moves (each bar lapses with its side's next move).
    fn has_bar(&self, pos: &Position) -> bool {
        self.variant.repeated_mills_restricted && pos.last_mill_slide != [NO_SLIDE; 2]
    }

    /// Does a blocked side's turn start at `pos` with the removals the `stalemate` option gives
    /// it (the position settles to itself)? The tables store its value at the stones (the
    /// value of the position before [`settle`] starts those removals).
    fn blocked_start(&self, pos: &Position) -> bool {
        if !pos.pending_removal() || crate::game::movegen::board_filled(&self.variant, pos) {
            // A full board's removals are played out (its first remover may be either side).
            return false;
        }
        let mut plain = *pos;
        plain.removals = [0, 0];
        plain.again = false;
        plain.adjacent_removal = false;
        settle(&self.variant, &plain) == *pos
    }

    /// A board filled by placing whose rules start removals (`board-full=mover-removes`,
    /// `white-then-black`, `black-then-white`, `placing-mill=by-mill-counts`) but that has
    /// none pending yet: the position [`settle`] starts them in (its first remover may be the
    /// other side), valued by playing them out.
    fn full_board_start(&self, pos: &Position) -> Option<Position> {
        let v = &self.variant;
        if pos.pending_removal() || !crate::game::movegen::board_filled(v, pos) {
            return None;
        }
        let start = settle(v, pos);
        start.pending_removal().then_some(start)
    }

    /// The value for the side to move of `pos` of its move to `next`, whose value for its
    /// side to move is `value`, under the N-move rule in force on each side of the move
    /// ([`NMoveRule::move_value_into`]; not negated when the mover moves again: a blocked
    /// side that removed, as [`removal_ply`](crate::sector::graph::removal_ply) says, or Black ending placing under
    /// `moving-first=black`, [`for_opponent`]).
    fn move_value(&self, pos: &Position, next: &Position, value: Value) -> Value {
        let code = for_opponent(pos, next, value).encode();
        self.rule_at(pos)
            .move_value_into(self.rule_at(next), code, pos.resets_counter(next))
    }

    /// Already decided by stone count: the side to move (or its opponent) has fewer than three.
    fn by_count(pos: &Position) -> Option<Value> {
        if pos.total(pos.to_move) < MIN_STONES {
            Some(Value::Loss(0))
        } else if pos.total(pos.to_move.other()) < MIN_STONES {
            Some(Value::Win(0))
        } else {
            None
        }
    }

    /// The value of a position for the side to move, with its distance in plies.
    ///
    /// # Errors
    ///
    /// [`ProbeError::Table`] if a table needed is missing or damaged ([`TableError::Missing`] names
    /// the `.mbw` or `.mbd` file, [`TableError::Corrupt`] what is wrong with it; a remove-pending
    /// position needs the tables of every removal); [`ProbeError::Impossible`] if the position
    /// cannot be in the tables (a sector the variant does not have, or a position no game reaches
    /// in tables generated without those).
    pub fn value(&self, pos: &Position) -> Result<Value, ProbeError> {
        if let Some(v) = Self::by_count(pos) {
            return Ok(v);
        }
        if let Some(start) = self.full_board_start(pos) {
            let value = self.played_out(&start)?;
            return Ok(match start.to_move == pos.to_move {
                true => value,
                false => value.for_other_side(),
            });
        }
        if self.has_bar(pos) || (pos.pending_removal() && !self.blocked_start(pos)) {
            return self.played_out(pos);
        }
        let (sector, slot) = self.locate(pos)?;
        self.tables.value(sector, slot)?.ok_or_else(|| {
            ProbeError::Impossible(format!("slot {slot} of sector {sector} is unused"))
        })
    }

    /// The value of a position that is not stored (a removal pending, or a bar), from its
    /// moves, as the solver values such positions (src/solve/barred.rs): under the N-move
    /// rule in force ([`Tablebase::rule_at`]) a move that removes or captures a stone counts
    /// from counter 0 ([`NMoveRule::move_value_into`]: DTR 1 for a win whose successor is
    /// decided under the rule there; a blocked side's removals too), and a side with no move
    /// loses ([`NMoveRule::blocked`]) or, under `stalemate=draw`, draws. Without the rule: one
    /// ply more than the best move's successor (not negated when the side to move stays the
    /// same: a blocked side that removes and moves again).
    ///
    /// The positions played out on the way are valued once each (`known`): a full board's
    /// removals reach the same stones in many orders (El Filja: up to six a side).
    fn played_out(&self, pos: &Position) -> Result<Value, ProbeError> {
        self.played_out_in(pos, &mut HashMap::new())
    }

    /// [`Tablebase::played_out`] with the values of the positions played out so far.
    fn played_out_in(
        &self,
        pos: &Position,
        known: &mut HashMap<Position, Value>,
    ) -> Result<Value, ProbeError> {
        if let Some(&value) = known.get(pos) {
            return Ok(value);
        }
        let rule = self.rule_at(pos);
        let mut values = Vec::new();
        for mv in self.moves(pos) {
            let next = play(&self.variant, pos, mv);
            // As `value` does, with the positions that are not stored played out here.
            let unstored = Self::by_count(&next).is_none()
                && (self.has_bar(&next) || (next.pending_removal() && !self.blocked_start(&next)));
            let value = match unstored {
                true => self.played_out_in(&next, known)?,
                false => self.value(&next)?,
            };
            values.push(self.move_value(pos, &next, value));
        }
        if values.is_empty() {
            // Under `stalemate=pass` a settled position without a move has both sides blocked.
            return Ok(
                if matches!(self.variant.stalemate, Stalemate::Draw | Stalemate::Pass) {
                    Value::Draw
                } else {
                    rule.blocked()
                },
            );
        }
        let value = best_value(values.into_iter());
        known.insert(*pos, value);
        Ok(value)
    }

    /// The value of a position whose N-move counter is `counter` (plies since the last
    /// removal or placement), exact under the rule in force there ([`Tablebase::rule_at`]):
    /// a win or loss with its DTR, a cursed win, a draw or a blessed loss. Tables without the
    /// rule give the value and distance to the end of the game at any counter.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::value`].
    pub fn value_at(&self, pos: &Position, counter: u32) -> Result<RuleValue, ProbeError> {
        let rule = self.rule_at(pos);
        if let Some(v) = Self::by_count(pos) {
            // Over by the removal that just reset the counter.
            return Ok(NMoveRule::NONE.at_counter(v, 0));
        }
        if pos.pending_removal() && !self.blocked_start(pos) {
            // The removal comes before any check of the counter and resets it.
            let best = self.move_values_at_unsorted(pos, 0)?;
            return Ok(best_rule_value(best.iter().map(|m| m.value)));
        }
        Ok(rule.at_counter(self.value(pos)?, counter))
    }

    /// Every legal move with its value under the N-move rule in force for the side to move
    /// ([`Tablebase::rule_at`]), at counter `counter`, best first (fastest wins, cursed wins,
    /// draws, blessed losses, slowest losses; ties in move order). A move that removes or
    /// places a stone leads to counter 0 (under the rule in force after it), any other to
    /// `counter + 1`.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::value`], for the position after each legal move.
    pub fn move_values_at(
        &self,
        pos: &Position,
        counter: u32,
    ) -> Result<Vec<MoveRuleValue>, ProbeError> {
        let mut moves = self.move_values_at_unsorted(pos, counter)?;
        moves.sort_by_key(|m| std::cmp::Reverse(m.value.preference()));
        Ok(moves)
    }

    fn move_values_at_unsorted(
        &self,
        pos: &Position,
        counter: u32,
    ) -> Result<Vec<MoveRuleValue>, ProbeError> {
        let rule = self.rule_at(pos);
        // A blocked side's turn starts like any other (the counter may draw it); a removal
        // after a mill is made before any check of the counter.
        let counter = match pos.pending_removal() && !self.blocked_start(pos) {
            true => 0,
            false => counter,
        };
        self.moves(pos)
            .into_iter()
            .map(|mv| {
                let next = play(&self.variant, pos, mv);
                let own = self.move_value(pos, &next, self.value(&next)?);
                Ok(MoveRuleValue {
                    mv,
                    value: rule.at_counter(own, counter),
                })
            })
            .collect()
    }

    /// The principal variation under the tables' N-move rule from counter `counter`: best
    /// moves (the first in move order among equals) until the game ends, the line repeats
    /// one of its own positions, or `max_plies` moves ([`Tablebase::principal_variation_with`]
    /// also says which). With the rule a drawn line ends when the counter reaches the N in
    /// force ([`Tablebase::rule_at`]).
    ///
    /// # Errors
    ///
    /// As [`Tablebase::value`], for every position of the line and its moves.
    pub fn principal_variation_at(
        &self,
        pos: &Position,
        counter: u32,
        max_plies: usize,
    ) -> Result<Vec<MoveRuleValue>, ProbeError> {
        let mut line = Vec::new();
        self.principal_variation_with(pos, counter, max_plies, |m| line.push(*m))?;
        Ok(line)
    }

    /// [`Tablebase::principal_variation_at`] move by move: `each` gets every move of the line
    /// as soon as it is found (a caller can print the line as it grows); returns why the line
    /// ended.
    ///
    /// A won or lost line ends the game (every best move brings the end, or under an N-move
    /// rule the next removal or placement, one ply nearer, and those cannot be undone). A
    /// drawn one comes back to one of its own positions sooner or later, from where it would
    /// go round in circles: it stops after the move that repeats ([`PvEnd::Repetition`]).
    /// Under a rule (where the line is drawn, cursed or blessed from its first position on)
    /// it may reach the rule's N plies first ([`PvEnd::NMoveRule`]). Memory grows with the
    /// line, one entry per position.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::value`], for every position of the line and its moves; the moves given to
    /// `each` before the error stand.
    pub fn principal_variation_with(
        &self,
        pos: &Position,
        counter: u32,
        max_plies: usize,
        mut each: impl FnMut(&MoveRuleValue),
    ) -> Result<PvEnd, ProbeError> {
        let mut seen = HashMap::from([(*pos, 0)]);
        let (mut cur, mut counter) = (*pos, counter);
        let mut plies = 0;
        loop {
            if Self::by_count(&cur).is_some() {
                return Ok(PvEnd::GameOver);
            }
            let turn_starts = !cur.pending_removal() || self.blocked_start(&cur);
            if turn_starts && self.rule_at(&cur).draws_at(counter) {
                return Ok(PvEnd::NMoveRule);
            }
            if plies >= max_plies {
                return Ok(PvEnd::MaxPlies);
            }
            let Some(best) = self.move_values_at(&cur, counter)?.first().copied() else {
                return Ok(PvEnd::GameOver);
            };
            each(&best);
            plies += 1;
            let next = play(&self.variant, &cur, best.mv);
            counter = if cur.resets_counter(&next) {
                0
            } else {
                counter.saturating_add(1)
            };
            cur = next;
            if let Some(&earlier) = seen.get(&cur) {
                return Ok(PvEnd::Repetition { ply: earlier });
            }
            seen.insert(cur, plies);
        }
    }

    /// Win, draw or loss for the side to move; needs only the WDL files.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::value`], reading only the WDL (`.mbw`) files, except for a position
    /// with a bar under an N-move rule: its quiet moves lead to counter 1, where a stored
    /// win or loss may be drawn, which the WDL files alone cannot tell, so it is valued from
    /// the distances too.
    pub fn wdl(&self, pos: &Position) -> Result<Wdl, ProbeError> {
        if let Some(v) = Self::by_count(pos) {
            return Ok(Wdl::of(v));
        }
        if let Some(start) = self.full_board_start(pos) {
            let wdl = self.wdl(&start)?;
            return Ok(match start.to_move == pos.to_move {
                true => wdl,
                false => flip(wdl),
            });
        }
        if self.has_bar(pos) && self.rule().is_active() && !pos.pending_removal() {
            return Ok(match self.value_at(pos, 0)? {
                RuleValue::Win(_) => Wdl::Win,
                RuleValue::Loss(_) => Wdl::Loss,
                _ => Wdl::Draw,
            });
        }
        if self.has_bar(pos) || (pos.pending_removal() && !self.blocked_start(pos)) {
            let best = self
                .move_wdls(pos)?
                .into_iter()
                .map(|m| m.wdl)
                .max_by_key(|&w| wdl_rank(w));
            return Ok(best.unwrap_or(Wdl::Loss));
        }
        let (sector, slot) = self.locate(pos)?;
        self.tables.wdl(sector, slot)?.ok_or_else(|| {
            ProbeError::Impossible(format!("slot {slot} of sector {sector} is unused"))
        })
    }

    /// Legal moves: combined moves, or lone removals in a remove-pending position.
    fn moves(&self, pos: &Position) -> Vec<Move> {
        legal_moves(&self.variant, pos, Convention::Combined)
    }

    fn move_values_unsorted(&self, pos: &Position) -> Result<Vec<MoveValue>, ProbeError> {
        self.moves(pos)
            .into_iter()
            .map(|mv| {
                let next = play(&self.variant, pos, mv);
                Ok(MoveValue {
                    mv,
                    value: for_opponent(pos, &next, self.value(&next)?).before_move(),
                })
            })
            .collect()
    }

    /// Every legal move with its value for the side to move, best first (fastest wins, then
    /// draws, then slowest losses; ties in move order).
    ///
    /// # Errors
    ///
    /// As [`Tablebase::value`], for the position after each legal move.
    pub fn move_values(&self, pos: &Position) -> Result<Vec<MoveValue>, ProbeError> {
        let mut moves = self.move_values_unsorted(pos)?;
        moves.sort_by_key(|m| std::cmp::Reverse(m.value.preference()));
        Ok(moves)
    }

    /// Every legal move with its win/draw/loss for the side to move, best first; needs only
    /// the WDL files.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::wdl`], for the position after each legal move.
    pub fn move_wdls(&self, pos: &Position) -> Result<Vec<MoveWdl>, ProbeError> {
        let mut out = self
            .moves(pos)
            .into_iter()
            .map(|mv| {
                let next = play(&self.variant, pos, mv);
                let wdl = self.wdl(&next)?;
                Ok(MoveWdl {
                    mv,
                    // A blocked side that removes may move again, as may Black ending
                    // placing under `moving-first=black`.
                    wdl: if next.to_move == pos.to_move {
                        wdl
                    } else {
                        flip(wdl)
                    },
                })
            })
            .collect::<Result<Vec<_>, ProbeError>>()?;
        out.sort_by_key(|m| std::cmp::Reverse(wdl_rank(m.wdl)));
        Ok(out)
    }

    /// The moves that keep the position's value (the fastest wins, the draws, the slowest
    /// losses). Empty when the game is over.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::move_values`].
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<MoveValue>, ProbeError> {
        let moves = self.move_values(pos)?;
        let Some(best) = moves.first().map(|m| m.value) else {
            return Ok(moves);
        };
        Ok(moves.into_iter().take_while(|m| m.value == best).collect())
    }

    /// The principal variation: best moves (the first in move order among equals) until the
    /// game ends, or for a draw until the line repeats one of its own positions (it includes
    /// the move that repeats), and at most `max_plies` moves.
    ///
    /// # Errors
    ///
    /// As [`Tablebase::value`], for every position of the line and its moves.
    pub fn principal_variation(
        &self,
        pos: &Position,
        max_plies: usize,
    ) -> Result<Vec<MoveValue>, ProbeError> {
        let mut line = Vec::new();
        let mut seen = HashSet::from([*pos]);
        let mut cur = *pos;
        while line.len() < max_plies {
            if Self::by_count(&cur).is_some() {
                break;
            }
            let Some(best) = self.best_moves(&cur)?.first().copied() else {
                break;
            };
            line.push(best);
            cur = play(&self.variant, &cur, best.mv);
            if !seen.insert(cur) {
                break;
            }
        }
        Ok(line)
    }
}

/// Why a principal variation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PvEnd {
    /// The game is over: the side to move is down to two stones or has no legal move.
    GameOver,
    /// The N-move rule in force ([`Tablebase::rule_at`] of the line's last position) draws
    /// the game: N plies without a removal or placement.
    NMoveRule,
    /// The line's last move brought back the position after ply `ply` of the line (0: the
    /// position it started from): best play would go round in circles, as a draw does.
    Repetition {
        /// The ply after which the repeated position first stood (0: before the first move).
        ply: usize,
    },
    /// The line has the most moves asked for.
    MaxPlies,
}

/// The value of `next`, reached by a move from `pos`, for the opponent of the side that made
/// the move: `value` (the value for the side to move in `next`) as it is when the opponent is
/// to move there, turned round when the mover moves again (a placement that ends placing under
/// `moving-first=black`, Black's). The move's value for the mover then follows as for any
/// move ([`Value::before_move`], [`NMoveRule::move_value`]).
fn for_opponent(pos: &Position, next: &Position, value: Value) -> Value {
    if next.to_move != pos.to_move {
        return value;
    }
    match value {
        Value::Win(n) => Value::Loss(n),
        Value::Loss(n) => Value::Win(n),
        Value::Draw => Value::Draw,
    }
}

/// The best of some rule values for the side choosing among them (a loss in 0 when there are
/// none).
pub fn best_rule_value(values: impl Iterator<Item = RuleValue>) -> RuleValue {
    values
        .max_by_key(|v| v.preference())
        .unwrap_or(RuleValue::Loss(0))
}

/// The best of some values for the side choosing among them (a loss in 0 when there are none).
pub fn best_value(values: impl Iterator<Item = Value>) -> Value {
    best_of(values, Value::Loss(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn the_source_of_a_probe_error_is_the_wrapped_error() {
        let variant = Variant::by_name("three").expect("a known variant");
        let dir = tempfile::tempdir().expect("a temporary directory");
        let tables = Tablebase::open(dir.path(), variant).expect("an empty directory opens");

        // A position that cannot be read: the source is the parser's own error.
        let e = tables.parse("not a position").expect_err("not a position");
        let expected = parse_position(&variant, "not a position").expect_err("not a position");
        assert!(matches!(e, ProbeError::Position(_)), "{e:?}");
        let source = e.source().expect("a source");
        assert_eq!(source.downcast_ref::<PositionError>(), Some(&expected));

        // A missing table: the source is the table error naming the file.
        let start = tables.parse("start").expect("the start position");
        let e = tables
            .value(&start)
            .expect_err("no tables in the directory");
        let source = e.source().expect("a source");
        let table = source.downcast_ref::<TableError>().expect("a TableError");
        assert!(matches!(table, TableError::Missing { .. }), "{table:?}");
        assert!(table.path().is_some_and(|p| p.starts_with(dir.path())));
        assert_eq!(table.to_string(), e.to_string());

        let e = ProbeError::Impossible("no game reaches it".into());
        assert!(e.source().is_none());
    }
}
