//! Game-theoretic values with distances, and their 16-bit encoding.

use crate::game::rules::Variant;
use std::fmt;

/// The value of a position for the side to move, with the distance in plies to the end of
/// the game under perfect play (winner fastest, loser slowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(u16),
    /// The side to move loses in this many plies (0: has already lost).
    Loss(u16),
    /// Neither side can force a win.
    Draw,
}

/// Encoded draw.
pub const DRAW: u16 = 0;
/// Encoded unused slot (a non-canonical index entry).
pub const UNUSED: u16 = 0xFFFF;
/// Flag of decided values in the encoding.
pub const DECIDED: u16 = 0x8000;
/// Flag of wins among decided values.
pub const WIN_FLAG: u16 = 0x4000;
/// Largest representable distance.
pub const MAX_PLIES: u16 = 0x3FFE;

impl Value {
    /// 16-bit encoding: draw 0, loss `0x8000 | n`, win `0xC000 | n`.
    #[inline]
    pub fn encode(self) -> u16 {
        match self {
            Value::Draw => DRAW,
            Value::Loss(n) => DECIDED | n,
            Value::Win(n) => DECIDED | WIN_FLAG | n,
        }
    }

    /// Decode a stored value; `None` for an unused slot or a malformed code.
    #[inline]
    pub fn decode(code: u16) -> Option<Value> {
        match code {
            DRAW => Some(Value::Draw),
            UNUSED => None,
            c if c & DECIDED == 0 => None,
            c if c & WIN_FLAG != 0 => Some(Value::Win(c & MAX_PLIES_MASK)),
            c => Some(Value::Loss(c & MAX_PLIES_MASK)),
        }
    }

    /// The same result seen from the other side: a win in `n` plies is a loss in `n`.
    #[inline]
    pub fn for_other_side(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n),
            Value::Loss(n) => Value::Win(n),
            Value::Draw => Value::Draw,
        }
    }

    /// The value of the position before a move, for the side that made the move leading to a
    /// position of this value.
    #[inline]
    pub fn before_move(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// A total order from the point of view of the side choosing: faster wins first, then
    /// draws, then slower losses.
    pub fn preference(self) -> i32 {
        match self {
            Value::Win(n) => 100_000 - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -100_000 + n as i32,
        }
    }

    /// Distance in plies; `None` for a draw.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// `"win"`, `"loss"` or `"draw"`.
    pub fn kind(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }
}

const MAX_PLIES_MASK: u16 = 0x3FFF;

/// The value of a position given the values of its moves for the side making them (under
/// an N-move rule, [`NMoveRule::move_value`]): the fastest win, else a draw, else the slowest
/// loss; `no_move` when there are no moves at all. The one fold of "best of the successors"
/// outside the solver (whose forward pass keeps the same three facts in its cells).
pub fn best_of(values: impl Iterator<Item = Value>, no_move: Value) -> Value {
    values.max_by_key(|v| v.preference()).unwrap_or(no_move)
}

/// The N-move rule: a game in the moving phase is drawn when a turn starts after `n`
/// consecutive plies without a removal or a placement (docs/NMOVE.md). `n = 0`: no such rule.
///
/// Under the rule a table stores, for every position at counter 0, a [`Value`] whose
/// distance is the **DTR**: the number of turns up to and including the one that resets the
/// counter (a removal or a placement) or decides the game (a side to move that is blocked).
/// `Win(r)` / `Loss(r)` with `r <= n` are decided at counter `c` exactly when `c + r <= n`
/// ([`NMoveRule::at_counter`]); `r > n` marks a *cursed win* / *blessed loss*: decided
/// without the rule, drawn by it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NMoveRule {
    n: u16,
}

impl NMoveRule {
    /// No N-move rule: values and distances to the end of the game.
    pub const NONE: NMoveRule = NMoveRule { n: 0 };

    /// The largest `n` supported (distances stay well inside the 14-bit value encoding).
    pub const MAX_N: u16 = 4096;

    /// The rule with `n` plies (0: no rule); `None` above [`NMoveRule::MAX_N`].
    pub fn new(n: u16) -> Option<NMoveRule> {
        (n <= Self::MAX_N).then_some(NMoveRule { n })
    }

    /// N read from text, as every option that takes it reads it (`--n-move-rule N` of the
    /// program's commands, the UCI option `NMoveRule`): a whole number from 0 to
    /// [`NMoveRule::MAX_N`], 0 for no rule. Also [`str::parse`].
    ///
    /// # Errors
    ///
    /// [`NMoveRuleError`] if `text` is not a whole number (digits only; no sign, no spaces) or
    /// is one above [`NMoveRule::MAX_N`] or below 0; its message names the range, e.g.
    /// `-1 is not in 0..=4096`.
    pub fn parse(text: &str) -> Result<NMoveRule, NMoveRuleError> {
        let digits = text.strip_prefix('-').unwrap_or(text);
        let whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        let error = |whole| NMoveRuleError {
            text: text.to_string(),
            whole,
        };
        if !whole {
            return Err(error(false));
        }
        match text.parse::<u16>() {
            Ok(n) => NMoveRule::new(n).ok_or_else(|| error(true)),
            Err(_) => Err(error(true)),
        }
    }

    /// `n`; 0 when there is no rule.
    pub fn n(self) -> u16 {
        self.n
    }

    /// Does the rule draw a game whose turn starts with the N-move counter at `counter`
    /// (`counter >= n`)? Never without a rule. The counter may be above `n` (a position given
    /// with a larger counter): the game is drawn all the same.
    #[inline]
    pub fn draws_at(self, counter: u32) -> bool {
        self.n > 0 && counter >= u32::from(self.n)
    }

    /// Is there a rule?
    pub fn is_active(self) -> bool {
        self.n > 0
    }

    /// The endgame N-move rule that tables solved under this rule follow in `v`: `v`'s
    /// `endgame-n-move-rule` when there is a rule and the endgame N is lower (Morabaraba: 10
    /// under a 100-move rule), else 0. Tables without a rule follow no endgame rule either.
    pub fn endgame_in(self, v: &Variant) -> u16 {
        let endgame = v.endgame_n_move_rule;
        if self.n > 0 && endgame > 0 && endgame < self.n {
            endgame
        } else {
            0
        }
    }

    /// The rule in force in a position of `v` with `on_board` stones of each side on the
    /// board, for tables solved under this rule: the endgame N ([`NMoveRule::endgame_in`])
    /// while either side has exactly three stones on the board, else this rule. The stones on
    /// the board change only by a placement or a removal, which reset the counter, so a
    /// counter never carries from one of the two rules into the other.
    #[inline]
    pub fn with_stones(self, v: &Variant, on_board: [u8; 2]) -> NMoveRule {
        match self.endgame_in(v) {
            0 => self,
            endgame if on_board.contains(&3) => NMoveRule { n: endgame },
            _ => self,
        }
    }

    /// The value of a move for the side making it, from the stored value (`code`) of the
    /// position it leads to. `resets`: the move places or removes a stone (the counter goes
    /// back to 0); otherwise the counter goes up by one.
    ///
    /// Without the rule this is [`Value::before_move`]. Under it a resetting move is decided
    /// in one turn when the successor is decided at counter 0 (`r <= n`), and otherwise only
    /// without the rule (distance `n + 1`: cursed or blessed); a move that does not reset
    /// adds one turn to the successor's DTR.
    #[inline]
    pub fn move_value(self, code: u16, resets: bool) -> Value {
        self.move_value_into(self, code, resets)
    }

    /// [`NMoveRule::move_value`] for a move from a position under this rule to one under
    /// `next` (an endgame N-move rule in force on one side of the move only,
    /// [`NMoveRule::with_stones`]): a resetting move is decided in one turn when the successor
    /// is decided under `next` (`r <= next.n`), and otherwise cursed or blessed under this
    /// rule (distance `n + 1`). A move that does not reset keeps the stones on the board, and
    /// with them the rule.
    #[inline]
    pub fn move_value_into(self, next_rule: NMoveRule, code: u16, resets: bool) -> Value {
        let next = Value::decode(code).unwrap_or(Value::Draw);
        if self.n == 0 || !resets {
            return next.before_move();
        }
        let turns = |k: u16| if k <= next_rule.n { 1 } else { self.n + 1 };
        match next {
            Value::Win(k) => Value::Loss(turns(k)),
            Value::Loss(k) => Value::Win(turns(k)),
            Value::Draw => Value::Draw,
        }
    }

    /// The value of a position whose side to move has no move: lost at once without the rule;
    /// under it lost only if the turn starts with the counter below `n` (DTR 1).
    #[inline]
    pub fn blocked(self) -> Value {
        Value::Loss(u16::from(self.n > 0))
    }

    /// The value under the rule at counter `counter` of a position whose stored value (at
    /// counter 0) is `stored`. Without the rule: the stored value.
    pub fn at_counter(self, stored: Value, counter: u32) -> RuleValue {
        let decided =
            |r: u16| self.n == 0 || counter.saturating_add(u32::from(r)) <= u32::from(self.n);
        match stored {
            Value::Win(r) if decided(r) => RuleValue::Win(r),
            Value::Win(_) => RuleValue::CursedWin,
            Value::Loss(r) if decided(r) => RuleValue::Loss(r),
            Value::Loss(_) => RuleValue::BlessedLoss,
            Value::Draw => RuleValue::Draw,
        }
    }
}

impl fmt::Display for NMoveRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.n {
            0 => f.write_str("no N-move rule"),
            n => write!(f, "{n}-move rule"),
        }
    }
}

impl std::str::FromStr for NMoveRule {
    type Err = NMoveRuleError;

    /// [`NMoveRule::parse`].
    fn from_str(text: &str) -> Result<NMoveRule, NMoveRuleError> {
        NMoveRule::parse(text)
    }
}

/// Why a text is not an N-move rule's N ([`NMoveRule::parse`]): not a whole number, or one
/// outside `0..=`[`NMoveRule::MAX_N`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NMoveRuleError {
    text: String,
    /// The text is a whole number (out of range) rather than no number at all.
    whole: bool,
}

impl fmt::Display for NMoveRuleError {
    /// `-1 is not in 0..=4096`, or `'x' is not a whole number in 0..=4096` (control characters
    /// of the text escaped, so that the message is one line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let range = format!("0..={}", NMoveRule::MAX_N);
        if self.whole {
            return write!(f, "{} is not in {range}", self.text);
        }
        f.write_str("'")?;
        for c in self.text.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        write!(f, "' is not a whole number in {range}")
    }
}

impl std::error::Error for NMoveRuleError {}

/// The value of a position at a given N-move counter, in five classes (as Syzygy's
/// "cursed wins" and "blessed losses").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleValue {
    /// The side to move wins; the number is the DTR (see [`NMoveRule`]), or without the rule
    /// the plies to the end of the game.
    Win(u16),
    /// Won without the N-move rule, drawn by it.
    CursedWin,
    /// Neither side can force a win.
    Draw,
    /// Lost without the N-move rule, drawn by it.
    BlessedLoss,
    /// The side to move loses; the number as for [`RuleValue::Win`].
    Loss(u16),
}

impl RuleValue {
    /// `"win"`, `"cursed-win"`, `"draw"`, `"blessed-loss"` or `"loss"`.
    pub fn kind(self) -> &'static str {
        match self {
            RuleValue::Win(_) => "win",
            RuleValue::CursedWin => "cursed-win",
            RuleValue::Draw => "draw",
            RuleValue::BlessedLoss => "blessed-loss",
            RuleValue::Loss(_) => "loss",
        }
    }

    /// The distance of a win or loss.
    pub fn distance(self) -> Option<u16> {
        match self {
            RuleValue::Win(n) | RuleValue::Loss(n) => Some(n),
            _ => None,
        }
    }

    /// The game-theoretic result under the rule: cursed wins and blessed losses are draws.
    pub fn result(self) -> Value {
        match self {
            RuleValue::Win(n) => Value::Win(n),
            RuleValue::Loss(n) => Value::Loss(n),
            _ => Value::Draw,
        }
    }

    /// A total order from the point of view of the side choosing: faster wins, cursed wins,
    /// draws, blessed losses, slower losses.
    pub fn preference(self) -> i32 {
        match self {
            RuleValue::Win(n) => 100_000 - n as i32,
            RuleValue::CursedWin => 2,
            RuleValue::Draw => 0,
            RuleValue::BlessedLoss => -2,
            RuleValue::Loss(n) => -100_000 + n as i32,
        }
    }
}

impl fmt::Display for RuleValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleValue::Win(n) => write!(f, "win in {n}"),
            RuleValue::Loss(n) => write!(f, "loss in {n}"),
            RuleValue::CursedWin => f.write_str("cursed win (draw by the N-move rule)"),
            RuleValue::BlessedLoss => f.write_str("blessed loss (draw by the N-move rule)"),
            RuleValue::Draw => f.write_str("draw"),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_of_takes_fastest_win_then_draw_then_slowest_loss() {
        use Value::{Draw, Loss, Win};
        let cases: [(&[Value], Value); 6] = [
            (&[], Loss(0)),
            (&[Loss(3), Win(7), Draw, Win(5), Loss(9)], Win(5)),
            (&[Loss(3), Draw, Loss(9)], Draw),
            (&[Loss(3), Loss(9), Loss(0)], Loss(9)),
            (&[Win(u16::MAX >> 2), Draw], Win(u16::MAX >> 2)),
            (&[Loss(0)], Loss(0)),
        ];
        for (moves, best) in cases {
            assert_eq!(best_of(moves.iter().copied(), Loss(0)), best, "{moves:?}");
        }
        assert_eq!(best_of(std::iter::empty(), Draw), Draw);
    }

    #[test]
    fn encoding_round_trips() {
        for v in [
            Value::Draw,
            Value::Win(1),
            Value::Loss(0),
            Value::Win(203),
            Value::Loss(204),
        ] {
            assert_eq!(Value::decode(v.encode()), Some(v));
        }
        assert_eq!(Value::decode(UNUSED), None);
        assert_eq!(Value::decode(5), None);
        assert!(Value::Win(1).preference() > Value::Win(3).preference());
        assert!(Value::Loss(9).preference() > Value::Loss(2).preference());
        assert!(Value::Draw.preference() > Value::Loss(99).preference());
    }

    #[test]
    fn rule_values_follow_the_counter() {
        let rule = NMoveRule::new(10).unwrap();
        // Decided at counter c exactly when c + r <= n.
        assert_eq!(rule.at_counter(Value::Win(4), 6), RuleValue::Win(4));
        assert_eq!(rule.at_counter(Value::Win(4), 7), RuleValue::CursedWin);
        assert_eq!(rule.at_counter(Value::Loss(10), 0), RuleValue::Loss(10));
        assert_eq!(rule.at_counter(Value::Loss(10), 1), RuleValue::BlessedLoss);
        assert_eq!(rule.at_counter(Value::Win(11), 0), RuleValue::CursedWin);
        assert_eq!(rule.at_counter(Value::Draw, 0), RuleValue::Draw);
        // Without the rule the stored value stands at any counter.
        assert_eq!(
            NMoveRule::NONE.at_counter(Value::Win(300), 99),
            RuleValue::Win(300)
        );
        // A resetting move is decided in one turn if its successor is decided at counter 0.
        assert_eq!(
            rule.move_value(Value::Loss(10).encode(), true),
            Value::Win(1)
        );
        assert_eq!(
            rule.move_value(Value::Loss(11).encode(), true),
            Value::Win(11)
        );
        assert_eq!(
            rule.move_value(Value::Win(3).encode(), true),
            Value::Loss(1)
        );
        assert_eq!(
            rule.move_value(Value::Win(3).encode(), false),
            Value::Loss(4)
        );
        assert_eq!(
            NMoveRule::NONE.move_value(Value::Win(3).encode(), true),
            Value::Loss(4)
        );
        assert_eq!(rule.blocked(), Value::Loss(1));
        assert_eq!(NMoveRule::NONE.blocked(), Value::Loss(0));
        assert!(NMoveRule::new(NMoveRule::MAX_N + 1).is_none());
    }

    #[test]
    fn n_is_read_from_0_to_max_n() {
        let n = |text: &str| NMoveRule::parse(text).map(NMoveRule::n);
        assert_eq!(n("0"), Ok(0));
        assert_eq!(n("100"), Ok(100));
        assert_eq!(n("4096"), Ok(NMoveRule::MAX_N));
        assert_eq!("8".parse::<NMoveRule>(), Ok(NMoveRule::new(8).unwrap()));
        let message = |text: &str| NMoveRule::parse(text).unwrap_err().to_string();
        assert_eq!(message("4097"), "4097 is not in 0..=4096");
        assert_eq!(message("-1"), "-1 is not in 0..=4096");
        assert_eq!(message("99999999999"), "99999999999 is not in 0..=4096");
        assert_eq!(message("+3"), "'+3' is not a whole number in 0..=4096");
        assert_eq!(message(""), "'' is not a whole number in 0..=4096");
        assert_eq!(message("a\nb"), "'a\\nb' is not a whole number in 0..=4096");
    }

    #[test]
    fn the_rule_draws_from_n_on() {
        let rule = NMoveRule::new(8).unwrap();
        assert!(!rule.draws_at(7));
        assert!(rule.draws_at(8));
        assert!(rule.draws_at(u32::MAX));
        assert!(!NMoveRule::NONE.draws_at(u32::MAX));
    }
}
