//! A game in progress: the start position, the actions played in Sanmill's split convention,
//! the N-move counter, repetitions, and the result with its reason — the referee of `play`,
//! `match` and the engine's own game record.
//!
//! Draw rules (RULES.md, "Draw rules of play"):
//!
//! * **N-move rule**: the counter counts the plies since the last placement or removal. A
//!   placement, a removal, a capture or a stone taken from a hand sets it to 0, any other
//!   slide or fly adds 1 (a slide that closes a mill adds 1, and its removal, the next action,
//!   sets it to 0; a pass under `stalemate=pass` is no ply). At the start of a turn (no
//!   removal pending, or the removals a blocked side's turn starts with), a counter of at
//!   least N draws the game — before a blocked side loses or removes.
//!   N is the rules' ([`DrawRules::n_move`], by default the variant's `n-move-rule`), or the
//!   variant's `endgame-n-move-rule` while either side has exactly three stones on the board
//!   when that is lower ([`DrawRules::limit`]).
//! * **Threefold repetition**: the same position (stones, stones in hand, side to move and
//!   the rules' state: marks, pending removals, used mills) at the start of a turn for the
//!   third time draws the game.
//!
//! The rules of the game itself (too few stones, a blocked side, a full board) are
//! [`outcome`]'s: the referee only names the reason.

use crate::game::movegen::{Convention, Outcome, board_filled, legal_moves, outcome, play};
use crate::game::notation::{
    MoveError, PositionInfo, format_move, format_position_info, parse_legal_move,
};
use crate::game::position::{Color, Move, Position};
use crate::game::rules::{BoardFull, PlacingMill, Variant};
use crate::game::value::NMoveRule;
use std::fmt;

/// The draw rules a game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRules {
    /// The N-move rule ([`NMoveRule::NONE`]: off). Default: N = 100; under a variant its
    /// `n-move-rule` ([`DrawRules::of_variant`]). The variant's `endgame-n-move-rule` applies
    /// on top of it ([`DrawRules::limit`]).
    pub n_move: NMoveRule,
    /// Whether a threefold repetition draws the game. Default on.
    pub threefold: bool,
}

impl DrawRules {
    /// The draw rules of `variant`: its `n-move-rule` and threefold repetition.
    pub fn of_variant(variant: &Variant) -> DrawRules {
        DrawRules {
            n_move: NMoveRule::new(variant.n_move_rule.min(NMoveRule::MAX_N))
                .unwrap_or(NMoveRule::NONE),
            threefold: true,
        }
    }

    /// `variant` with these rules' N-move rule as its `n-move-rule`; without an N-move rule
    /// ([`NMoveRule::NONE`]) also without the endgame rule.
    pub fn effective(&self, variant: &Variant) -> Variant {
        let n = self.n_move.n();
        Variant {
            n_move_rule: n,
            endgame_n_move_rule: if n == 0 {
                0
            } else {
                variant.endgame_n_move_rule
            },
            ..*variant
        }
    }

    /// The N-move rule in force in `pos` under `variant`: [`DrawRules::n_move`], or the
    /// variant's `endgame-n-move-rule` while either side has exactly three stones on the board
    /// when that is lower ([`Variant::n_move_limit`]); none when [`DrawRules::n_move`] is
    /// off.
    pub fn limit(&self, variant: &Variant, pos: &Position) -> NMoveRule {
        let v = self.effective(variant);
        let n = v.n_move_limit([pos.on_board(Color::White), pos.on_board(Color::Black)]);
        NMoveRule::new(n.min(NMoveRule::MAX_N)).unwrap_or(NMoveRule::NONE)
    }
}

impl Default for DrawRules {
    fn default() -> Self {
        DrawRules {
            n_move: NMoveRule::new(100).expect("100 is at most NMoveRule::MAX_N"),
            threefold: true,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The loser has fewer than three stones.
    TooFewStones,
    /// The loser, to move, has no legal move.
    NoLegalMove,
    /// The board is full and the rules decide the game by it (`board-full=draw`, or
    /// `white-loses`).
    FullBoard,
    /// Drawn because a side to move has no legal move (`stalemate=draw`) or both sides are
    /// blocked (`stalemate=pass`); the detail says which.
    Blocked,
    /// No placement or removal in the last N plies of this rule.
    NMoveRule(NMoveRule),
    /// The same position for the third time.
    ThreefoldRepetition,
    /// A player broke the protocol (illegal move, no answer, crash); the message says how.
    Forfeit,
    /// The match's limit on the length of a game was reached.
    MoveLimit,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: Reason,
    /// Details (for forfeits: what the player did wrong).
    pub detail: Option<String>,
}

impl GameResult {
    /// A result without details.
    pub fn new(winner: Option<Color>, reason: Reason) -> GameResult {
        GameResult {
            winner,
            reason,
            detail: None,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score_text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The reason in words, e.g. `black has no legal move`.
    pub fn reason_text(&self) -> String {
        let loser = self.winner.map(Color::other);
        let loser = loser.map_or("".to_string(), |c| c.to_string());
        let base = match self.reason {
            Reason::TooFewStones => format!("{loser} has fewer than three stones"),
            Reason::NoLegalMove => format!("{loser} has no legal move"),
            Reason::FullBoard => "the board is full".to_string(),
            Reason::Blocked => "blocked position".to_string(),
            Reason::NMoveRule(rule) => {
                let n = rule.n();
                format!("{n}-move rule: no placement or removal in the last {n} plies")
            }
            Reason::ThreefoldRepetition => "threefold repetition".to_string(),
            Reason::Forfeit => format!("{loser} forfeits"),
            Reason::MoveLimit => "the match's move limit".to_string(),
        };
        match &self.detail {
            Some(d) => format!("{base}: {d}"),
            None => base,
        }
    }
}

impl fmt::Display for GameResult {
    /// E.g. `white wins: black has no legal move`, `draw by threefold repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins: {}", self.reason_text()),
            None => write!(f, "draw by {}", self.reason_text()),
        }
    }
}

/// Does a turn start at `pos`, where the N-move rule may draw the game: no removal pending,
/// or the removals that a blocked side's turn starts with under the `stalemate` options that
/// remove (the position settles to itself), as opposed to the removals of a mill closed in
/// this turn (docs/NMOVE.md: the check comes before everything else, a blocked side included).
fn turn_starts(v: &Variant, pos: &Position) -> bool {
    if !pos.pending_removal() {
        return true;
    }
    let mut plain = *pos;
    plain.removals = [0, 0];
    plain.again = false;
    plain.adjacent_removal = false;
    crate::game::movegen::settle(v, &plain) == *pos
}

/// The N-move counter after a ply (either convention) from `before` to `after`: 0 when it
/// placed a stone, removed or captured one or took one from a hand (fewer stones on the board
/// of a side, or another count in hand), else one more.
#[inline]
pub fn counter_after(counter: u32, before: &Position, after: &Position) -> u32 {
    if before.resets_counter(after) {
        0
    } else {
        counter.saturating_add(1)
    }
}

/// One action of a game and what it led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The action (split convention: a move without its removal, or a lone removal).
    pub mv: Move,
    /// The position after it.
    pub pos: Position,
    /// The N-move counter after it.
    pub counter: u32,
}

/// A game: start position, actions played, draw rules.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    rules: DrawRules,
    start: Position,
    start_info: PositionInfo,
    plies: Vec<Ply>,
}

impl Game {
    /// A game from `start` with the counter and move number of `info`.
    pub fn new(variant: Variant, start: Position, info: PositionInfo, rules: DrawRules) -> Game {
        Game {
            variant,
            rules,
            start,
            start_info: info,
            plies: Vec::new(),
        }
    }

    /// A game from the variant's initial position.
    pub fn from_start(variant: Variant, rules: DrawRules) -> Game {
        Game::new(
            variant,
            Position::start(&variant),
            PositionInfo::default(),
            rules,
        )
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The draw rules.
    pub fn rules(&self) -> DrawRules {
        self.rules
    }

    /// Change the draw rules (the moves played stay).
    pub fn set_rules(&mut self, rules: DrawRules) {
        self.rules = rules;
    }

    /// Change the variant to one that plays the same game ([`Variant::same_game`]: only its
    /// N-move rules differ), keeping the moves played; false (and no change) for another game.
    pub fn set_variant(&mut self, variant: Variant) -> bool {
        if !variant.same_game(&self.variant) {
            return false;
        }
        self.variant = variant;
        true
    }

    /// A game from a start (`startpos`, `start` or a Sanmill position string) and actions
    /// played from it; the error names what is wrong (the position, or the n-th move).
    ///
    /// # Errors
    ///
    /// A one-line message naming what is wrong: `invalid position: ...` with the
    /// [`PositionError`](crate::PositionError) of the start, or `move N '...': ...` with the
    /// [`MoveError`] of the first move that cannot be played.
    pub fn from_text(
        variant: Variant,
        rules: DrawRules,
        start: &str,
        moves: &[&str],
    ) -> Result<Game, String> {
        let start = start.trim();
        let mut game = if start == "startpos" || start == "start" {
            Game::from_start(variant, rules)
        } else {
            let (pos, info) = crate::game::notation::parse_position_info(&variant, start)
                .map_err(|e| format!("invalid position: {e}"))?;
            Game::new(variant, pos, info, rules)
        };
        for (i, m) in moves.iter().enumerate() {
            game.play_text(m)
                .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        }
        Ok(game)
    }

    /// The start as `position` commands write it: `startpos` for the variant's initial
    /// position with counter 0, else `fen <position string>`.
    pub fn start_command(&self) -> String {
        if self.start == Position::start(&self.variant)
            && self.start_info == PositionInfo::default()
        {
            "startpos".to_string()
        } else {
            format!(
                "fen {}",
                format_position_info(&self.variant, &self.start, self.start_info)
            )
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The start position's counter and move number.
    pub fn start_info(&self) -> PositionInfo {
        self.start_info
    }

    /// The actions played so far.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.plies.last().map_or(&self.start, |p| &p.pos)
    }

    /// The current N-move counter.
    pub fn counter(&self) -> u32 {
        self.plies
            .last()
            .map_or(self.start_info.counter, |p| p.counter)
    }

    /// The full-move number of the current position (one more after each black turn).
    pub fn full_move(&self) -> u32 {
        let mut n = self.start_info.full_move;
        let mut prev = self.start;
        for p in &self.plies {
            if prev.to_move == Color::Black && p.pos.to_move == Color::White {
                n = n.saturating_add(1);
            }
            prev = p.pos;
        }
        n
    }

    /// The current position as a Sanmill position string (with counter and move number).
    pub fn fen(&self) -> String {
        let info = PositionInfo {
            counter: self.counter(),
            full_move: self.full_move(),
        };
        format_position_info(&self.variant, self.position(), info)
    }

    /// The legal actions in the split convention (none when no action is possible).
    pub fn legal_actions(&self) -> Vec<Move> {
        legal_moves(&self.variant, self.position(), Convention::Split)
    }

    /// Play one action in the split convention, or a combined move with its removal
    /// (`a1-a4xg7`, played as two actions). Illegal actions leave the game unchanged.
    ///
    /// # Errors
    ///
    /// As [`Game::play_text`].
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        let text = format_move(&self.variant, mv);
        self.play_text(&text)
    }

    /// [`Game::play`] from text (`d6`, `a1-a4`, `xg7`, or combined `a1-a4xg7`).
    ///
    /// # Errors
    ///
    /// The [`MoveError`] of [`parse_legal_move`] in the split convention:
    /// text that is not a move, or a move that is not legal here (and not a legal combined move
    /// either).
    pub fn play_text(&mut self, text: &str) -> Result<(), MoveError> {
        let v = self.variant;
        let pos = *self.position();
        let mv = match parse_legal_move(&v, &pos, text, Convention::Split) {
            Ok(mv) => mv,
            Err(split_err) => {
                // A combined move: legal in the combined convention, and not a lone removal.
                match parse_legal_move(&v, &pos, text, Convention::Combined) {
                    Ok(mv) if mv.removes() && !mv.is_lone_removal() => {
                        self.push(mv.without_removals());
                        // Each removal as its own action, in an order that is legal (a move
                        // may carry several under `multiple-removals`).
                        let mut left: Vec<u8> = mv.removals().collect();
                        while !left.is_empty() {
                            let legal = self.legal_actions();
                            let i = left
                                .iter()
                                .position(|&r| legal.contains(&Move::removal(r)))
                                .unwrap_or(0);
                            self.push(Move::removal(left.remove(i)));
                        }
                        return Ok(());
                    }
                    _ => return Err(split_err),
                }
            }
        };
        self.push(mv);
        Ok(())
    }

    /// Append a legal split action.
    fn push(&mut self, mv: Move) {
        let before = *self.position();
        let pos = play(&self.variant, &before, mv);
        let counter = counter_after(self.counter(), &before, &pos);
        self.plies.push(Ply { mv, pos, counter });
    }

    /// Take back the last action; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        self.plies.pop().map(|p| p.mv)
    }

    /// How often `pos` stood at the start of a turn in this game (the start position and the
    /// position after each action, not counting remove-pending positions).
    pub fn occurrences(&self, pos: &Position) -> usize {
        std::iter::once(&self.start)
            .chain(self.plies.iter().map(|p| &p.pos))
            .filter(|p| !p.pending_removal() && *p == pos)
            .count()
    }

    /// The positions at the start of each turn so far, oldest first, the current one last
    /// (for repetition checks in the search).
    pub fn turn_positions(&self) -> Vec<Position> {
        std::iter::once(&self.start)
            .chain(self.plies.iter().map(|p| &p.pos))
            .filter(|p| !p.pending_removal())
            .copied()
            .collect()
    }

    /// Would the game be drawn by rule at the start of the next turn if `next` (a position
    /// after a complete move, with counter `counter`) were reached now? True when the
    /// counter reaches N, or when `next` would stand for the third time.
    pub fn drawn_by_rule_after(&self, next: &Position, counter: u32) -> bool {
        if !turn_starts(&self.variant, next) {
            return false;
        }
        if self.rules.limit(&self.variant, next).draws_at(counter) {
            return true;
        }
        self.rules.threefold && self.occurrences(next) + 1 >= 3
    }

    /// The result if the game is over: first the N-move rule, then the rules of the game
    /// ([`outcome`]: too few stones, no legal move, full board), then threefold repetition.
    pub fn result(&self) -> Option<GameResult> {
        let pos = self.position();
        let v = &self.variant;
        let over = outcome(v, pos);
        let starts = turn_starts(v, pos);
        if !starts && over.is_none() {
            return None;
        }
        let limit = self.rules.limit(v, pos);
        if starts && limit.draws_at(self.counter()) {
            return Some(GameResult::new(None, Reason::NMoveRule(limit)));
        }
        if let Some(o) = over {
            let me = pos.to_move;
            let winner = match o {
                Outcome::Loss => Some(me.other()),
                Outcome::Win => Some(me),
                Outcome::Draw => None,
            };
            let full = v.placing_mill != PlacingMill::ByMillCounts
                && matches!(v.board_full, BoardFull::WhiteLoses | BoardFull::Draw)
                && board_filled(v, pos);
            let mut r = GameResult::new(winner, Reason::NoLegalMove);
            if pos.too_few(me) || pos.too_few(me.other()) {
                r.reason = Reason::TooFewStones;
            } else if full {
                r.reason = Reason::FullBoard;
            } else if winner.is_none() {
                r.reason = Reason::Blocked;
                r.detail = Some(if v.stalemate == crate::game::rules::Stalemate::Pass {
                    "both sides are blocked".to_string()
                } else {
                    format!("{me} has no legal move")
                });
            }
            return Some(r);
        }
        if self.rules.threefold && self.occurrences(pos) >= 3 {
            return Some(GameResult::new(None, Reason::ThreefoldRepetition));
        }
        None
    }

    /// Plies in the combined convention (a move and its removal are one ply; a removal that
    /// opens the game, from a remove-pending start, is a ply of its own).
    pub fn combined_plies(&self) -> usize {
        self.plies
            .iter()
            .enumerate()
            .filter(|(i, p)| !p.mv.is_lone_removal() || *i == 0)
            .count()
    }

    /// The actions as text, in order.
    pub fn moves_text(&self) -> Vec<String> {
        self.plies
            .iter()
            .map(|p| format_move(&self.variant, p.mv))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::movegen::settle;
    use crate::game::notation::parse_position_info;

    fn std() -> Variant {
        Variant::standard()
    }

    #[test]
    fn counter_and_combined_plies() {
        // White to move, a slide closes a7-a4-a1 (d7-a7), black has a free stone e4.
        let fen = "********/********/OO@@@*OO w m s 4 0 3 0 0 0 -1 -1 -1 -1 0 7 1 ids:nodes";
        let (pos, info) = parse_position_info(&std(), fen).unwrap();
        assert_eq!(info.counter, 7);
        let mut g = Game::new(std(), pos, info, DrawRules::default());
        let legal: Vec<String> = g
            .legal_actions()
            .iter()
            .map(|&m| format_move(&std(), m))
            .collect();
        assert!(!legal.is_empty());
        // A slide without a mill adds one.
        let slide = legal
            .iter()
            .find(|t| {
                let mut h = g.clone();
                h.play_text(t).is_ok() && !h.position().pending_removal()
            })
            .unwrap()
            .clone();
        g.play_text(&slide).unwrap();
        assert_eq!(g.counter(), 8);
        assert_eq!(g.combined_plies(), 1);
        assert_eq!(g.undo().map(|m| format_move(&std(), m)), Some(slide));
        assert_eq!(g.counter(), 7);
        assert_eq!(g.undo(), None);
    }

    #[test]
    fn split_and_combined_removals() {
        // White d7, a1, a4, e4: d7-a7 closes a1-a4-a7. Black g7-g4-g1 (a mill) and b2.
        let fen = "**O*****/*****@**/O@@@*OO* w m s 4 0 4 0 0 0 -1 -1 -1 -1 0 3 1 ids:nodes";
        let (pos, info) = parse_position_info(&std(), fen).unwrap();
        let mut g = Game::new(std(), pos, info, DrawRules::default());
        g.play_text("d7-a7").unwrap_or_else(|e| panic!("{e}"));
        assert!(g.position().pending_removal());
        assert_eq!(g.counter(), 4);
        assert!(g.result().is_none());
        assert!(g.play_text("e4-e5").is_err(), "a removal is pending");
        assert!(g.play_text("xg7").is_err(), "g7 stands in a mill");
        g.play_text("xb2").unwrap();
        assert_eq!(g.counter(), 0);
        assert_eq!(g.combined_plies(), 1);
        assert_eq!(g.position().to_move, Color::Black);
        // The same as one combined move.
        let mut h = Game::new(std(), pos, info, DrawRules::default());
        h.play_text("d7-a7xb2").unwrap();
        assert_eq!(h.position(), g.position());
        assert_eq!(h.moves_text(), ["d7-a7", "xb2"]);
        assert_eq!(h.combined_plies(), 1);
    }

    #[test]
    fn threefold_repetition_and_n_move_rule() {
        let fen = "********/O*O*O***/@*@*@*** w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
        let (pos, info) = parse_position_info(&std(), fen).unwrap();
        let mut g = Game::new(std(), pos, info, DrawRules::default());
        // Shuffle: white and black each fly a stone away and back, twice.
        let white = g.legal_actions()[0];
        let w_text = format_move(&std(), white);
        let (wf, wt) = w_text.split_once('-').unwrap();
        let back_w = format!("{wt}-{wf}");
        for round in 0..2 {
            g.play_text(&w_text).unwrap();
            let b = format_move(&std(), g.legal_actions()[0]);
            let (bf, bt) = b.split_once('-').unwrap();
            g.play_text(&b).unwrap();
            g.play_text(&back_w).unwrap();
            g.play_text(&format!("{bt}-{bf}")).unwrap();
            if round == 0 {
                assert_eq!(g.occurrences(g.position()), 2);
                assert!(g.result().is_none());
            }
        }
        let r = g.result().unwrap();
        assert_eq!(r.reason, Reason::ThreefoldRepetition);
        assert_eq!(r.to_string(), "draw by threefold repetition");
        assert_eq!(g.counter(), 8);
        // Without the repetition rule, N = 8 ends it; N = 9 does not.
        let mut h = g.clone();
        let n = |n| NMoveRule::new(n).unwrap();
        h.rules = DrawRules {
            n_move: n(8),
            threefold: false,
        };
        assert_eq!(h.result().unwrap().reason, Reason::NMoveRule(n(8)));
        h.rules.n_move = n(9);
        assert_eq!(h.result(), None);
    }

    #[test]
    fn results_with_reasons() {
        let lost = "********/********/OO*@@@** w m s 2 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
        let (pos, info) = parse_position_info(&std(), lost).unwrap();
        let g = Game::new(std(), pos, info, DrawRules::default());
        let r = g.result().unwrap();
        assert_eq!(r.winner, Some(Color::Black));
        assert_eq!(
            r.to_string(),
            "black wins: white has fewer than three stones"
        );
        assert_eq!(r.score_text(), "0-1");
        let g = Game::from_start(std(), DrawRules::default());
        assert_eq!(g.result(), None);
        assert_eq!(g.legal_actions().len(), 24);
        assert_eq!(g.full_move(), 1);
    }

    /// A position of `v` with these white and black stones, nothing in hand, white to move.
    fn board(v: &Variant, white: &[&str], black: &[&str]) -> Position {
        let b = v.board();
        let set = |names: &[&str]| names.iter().fold(0, |a, n| a | 1 << b.point(n).unwrap());
        Position {
            stones: [set(white), set(black)],
            in_hand: [0, 0],
            ..Position::start(v)
        }
    }

    fn at(counter: u32) -> PositionInfo {
        PositionInfo {
            counter,
            full_move: 1,
        }
    }

    #[test]
    fn endgame_n_move_rule_and_override() {
        let v = Variant::by_name("morabaraba").unwrap();
        let pos = board(&v, &["a7", "g1", "d5"], &["b2", "d2", "f6", "c4"]);
        let rules = DrawRules::of_variant(&v);
        assert_eq!(rules.n_move.n(), 100);
        assert_eq!(rules.limit(&v, &pos).n(), 10);
        let g = Game::new(v, pos, at(10), rules);
        let r = g.result().unwrap();
        assert_eq!(r.reason, Reason::NMoveRule(NMoveRule::new(10).unwrap()));
        assert_eq!(Game::new(v, pos, at(9), rules).result(), None);
        // Four stones each: the rule of 100.
        let pos4 = board(&v, &["a7", "g1", "d5", "e3"], &["b2", "d2", "f6", "c4"]);
        assert_eq!(Game::new(v, pos4, at(10), rules).result(), None);
        // --n-move-rule 0: no N-move rule at all, the endgame rule included.
        let off = DrawRules {
            n_move: NMoveRule::NONE,
            threefold: true,
        };
        assert_eq!(Game::new(v, pos, at(500), off).result(), None);
    }

    #[test]
    fn blocked_and_full_board_reasons() {
        let white = ["a7", "a1", "g1"];
        let black = ["d7", "a4", "d1", "g4"];
        for (stalemate, text) in [
            ("draw", "draw by blocked position: white has no legal move"),
            ("loss", "black wins: white has no legal move"),
        ] {
            let v = Variant::from_rules("std", &["fly=off", &format!("stalemate={stalemate}")])
                .unwrap();
            let g = Game::new(v, board(&v, &white, &black), at(0), DrawRules::default());
            assert_eq!(g.result().unwrap().to_string(), text);
        }
        // Twelve stones each fill the board with no mill: white (to move) loses, or a draw.
        let white = [
            "a7", "g7", "g1", "a1", "d6", "f4", "d2", "b4", "c5", "e5", "e3", "c3",
        ];
        let black = [
            "d7", "g4", "d1", "a4", "b6", "f6", "f2", "b2", "d5", "e4", "d3", "c4",
        ];
        for (rules, text) in [
            (vec!["stones=12"], "black wins: the board is full"),
            (
                vec!["stones=12", "board-full=draw"],
                "draw by the board is full",
            ),
        ] {
            let v = Variant::from_rules("std", &rules).unwrap();
            let g = Game::new(v, board(&v, &white, &black), at(0), DrawRules::default());
            let r = g.result().unwrap();
            assert_eq!(
                (r.reason, r.to_string().as_str()),
                (Reason::FullBoard, text)
            );
        }
    }

    #[test]
    fn a_blocked_side_that_removes_is_drawn_at_n() {
        // White (a7, a1, g1) is blocked; under remove-and-move its turn starts with a removal.
        let v = Variant::from_rules("std", &["fly=off", "stalemate=remove-and-move"]).unwrap();
        let pos = settle(
            &v,
            &board(&v, &["a7", "a1", "g1"], &["d7", "a4", "d1", "g4"]),
        );
        assert!(pos.pending_removal());
        let rules = DrawRules::default();
        assert_eq!(Game::new(v, pos, at(99), rules).result(), None);
        let r = Game::new(v, pos, at(100), rules).result().unwrap();
        assert!(matches!(r.reason, Reason::NMoveRule(_)), "{r}");
        // A removal after a mill is made before the counter is checked.
        let std = Variant::standard();
        let closed =
            board(&std, &["a7", "d7", "g7"], &["a1", "d1", "g4"]).with_pending_removal(true);
        assert_eq!(Game::new(std, closed, at(100), rules).result(), None);
    }

    #[test]
    fn a_capture_resets_the_counter() {
        // Mul Mulan: d6-d7 arrives between black a7 and g7 and captures both.
        let v = Variant::by_name("mul-mulan").unwrap();
        let pos = board(&v, &["d6", "b2", "f2"], &["a7", "g7", "d1", "a1", "g1"]);
        let mut g = Game::new(v, pos, at(5), DrawRules::of_variant(&v));
        let mut quiet = g.clone();
        quiet.play_text("b2-b4").unwrap();
        assert_eq!(quiet.counter(), 6);
        g.play_text("d6-d7").unwrap();
        assert_eq!(g.position().on_board(Color::Black), 3);
        assert_eq!(g.counter(), 0);
    }

    #[test]
    fn a_combined_move_with_two_removals_is_three_actions() {
        // Placing a7 closes a7-d7-g7 and a7-a4-a1: two removals under multiple-removals.
        let v = Variant::from_rules("std", &["multiple-removals=on"]).unwrap();
        let mut pos = board(&v, &["d7", "g7", "a4", "a1"], &["b2", "d2", "f4", "c4"]);
        pos.in_hand = [5, 5];
        let mut g = Game::new(v, pos, at(3), DrawRules::of_variant(&v));
        g.play_text("a7xd2xb2").unwrap();
        assert_eq!(g.moves_text(), ["a7", "xd2", "xb2"]);
        assert_eq!(g.position().to_move, Color::Black);
        assert_eq!(g.position().on_board(Color::Black), 2);
        assert_eq!(g.combined_plies(), 1);
        assert_eq!(
            super::super::oracle::split_first(Move::place(3).with_removal(5)),
            Move::place(3)
        );
        let two = Move::place(3).with_removal(5).with_removal(6);
        assert_eq!(super::super::oracle::split_first(two), Move::place(3));
    }
}
