//! Values under `repeated-mills=restricted`, where a side that closed a mill by sliding A→B
//! may not slide straight back B→A to close a mill on its next move.
//!
//! The bar is state beyond the stones, but short-lived: it is set by a mill-closing slide (a
//! move that leaves its sector) and lapses with the side's next move. So the tables store the
//! positions without a bar, and a position with one is valued here from them: its moves are
//! played out (leaving the barred one out) until no bar that can matter is left. A bar
//! matters only while the barred move is possible and closes a mill: the side's stone still
//! stands on B, A is empty, the stone can reach A, and A completes a mill of the side's other
//! stones. Every quiet move clears the mover's bar, so the play-out ends within two plies of
//! its sector, or goes on in sectors with fewer stones (a blocked side's stalemate removals
//! keep both bars, and lead to fewer stones too).

use super::{DependencyValues, ExitSummary, SolveError};
use crate::game::rules::{Bits, NO_SQUARE, Variant, for_each_removal_set, points as bits};
use crate::game::value::{NMoveRule, Value};
use crate::sector::graph::{Component, MoveSectors, blocked_exit, can_slide, is_live};
use crate::sector::index::{Sector, SectorIndex};
use std::collections::HashMap;
use std::sync::Arc;

/// A slide that closed a mill, `(from, to)`; [`NO_BAR`] for none.
pub(crate) type Bar = (u8, u8);

/// No bar.
pub(crate) const NO_BAR: Bar = (NO_SQUARE, NO_SQUARE);

/// The stored values of the positions without a bar, by sector: the code of the position
/// (`us` to move, `them`), or `None` when the sector is not available.
pub(crate) trait StoredValues {
    /// The stored code of (`us`, `them`) in sector `s`.
    fn code(&self, s: Sector, us: Bits, them: Bits) -> Option<u16>;
}

/// Does the bar of a side with stones `own` (and `hand` in hand), its opponent holding
/// `other`, still matter: is the slide back possible and would it close a mill?
#[inline]
pub(crate) fn bar_matters(v: &Variant, own: Bits, hand: u8, other: Bits, bar: Bar) -> bool {
    let (from, to) = bar;
    if from == NO_SQUARE || own & (1 << to) == 0 || (own | other) & (1 << from) != 0 {
        return false;
    }
    if !v.may_move(hand) {
        return false;
    }
    let board = v.board();
    let flies = v.flies(own.count_ones() as u8, hand);
    if !flies && board.adjacent(to) & (1 << from) == 0 {
        return false;
    }
    board.in_mill(own & !(1 << to) | 1 << from, from)
}

/// Can the bar of the side to move (stones `us`, sector `s`), which does not matter now, come
/// back before its next stone move? Only when an opponent stone stands where the barred slide
/// would go and the side is left without a move: the `stalemate` removals of a blocked side
/// may take that stone, and the side moves next with its bar ([`blocked_exit`]).
#[inline]
fn revivable(v: &Variant, s: Sector, us: Bits, them: Bits, bar: Bar) -> bool {
    let (from, to) = bar;
    from != NO_SQUARE
        && us & (1 << to) != 0
        && them & (1 << from) != 0
        && blocked_exit(v, s).is_some()
}

/// Plays out positions with a bar: the rules, the N-move rule the values are under, and the
/// stored values of positions without a bar.
pub(crate) struct PlayOut<'a> {
    /// The rules.
    pub v: &'a Variant,
    /// The N-move rule the stored values were solved under (each sector under the rule in
    /// force there, [`NMoveRule::with_stones`]).
    pub rule: NMoveRule,
    /// The stored values.
    pub stored: &'a dyn StoredValues,
}

impl PlayOut<'_> {
    /// The value of the position (`us` to move, `them`) of sector `s` when the side to
    /// move's last move was the mill-closing slide `us_bar` and the opponent's was
    /// `them_bar` (either [`NO_BAR`]).
    ///
    /// # Errors
    ///
    /// The sector whose stored values are not available.
    pub(crate) fn value(
        &self,
        s: Sector,
        us: Bits,
        them: Bits,
        us_bar: Bar,
        them_bar: Bar,
    ) -> Result<Value, Sector> {
        let PlayOut { v, rule, stored } = *self;
        // As played (a removal may bring back a bar that does not matter now).
        let bars = (us_bar, them_bar);
        let us_bar = if bar_matters(v, us, s.wf, them, us_bar) {
            us_bar
        } else {
            NO_BAR
        };
        let them_bar = if bar_matters(v, them, s.bf, us, them_bar) {
            them_bar
        } else {
            NO_BAR
        };
        if us_bar == NO_BAR && them_bar == NO_BAR && !revivable(v, s, us, them, bars.0) {
            let code = stored.code(s, us, them).ok_or(s)?;
            return Ok(Value::decode(code).unwrap_or(Value::Draw));
        }
        let board = v.board();
        let empty = board.full() & !us & !them;
        let moves = MoveSectors::of(v, s);
        let barred = (us_bar.1, us_bar.0);
        let own = rule.with_stones(v, [s.w, s.b]);
        let rule_in = |t: Sector| rule.with_stones(v, [t.w, t.b]);
        let mut ex = ExitSummary::default();
        let mut any_move = false;
        // One stone move: its captures and removals, then the opponent moves with its own bar.
        // The code of the position after a move (the mover's stones `moved`, the opponent's
        // `left`, the mover's bar `bar`) for the opponent: it moves next with its own bar, or,
        // after a placement that ends placing under `moving-first=black`, the mover moves
        // again (a placement leaves it no bar) and its value is turned round.
        let next_code = |next: Sector, moved: Bits, left: Bits, bar: Bar, placed: bool| {
            if placed && moves.place_again {
                let value = self.value(next, moved, left, NO_BAR, them_bar)?;
                Ok(super::as_opponent(value.encode()))
            } else {
                Ok(self.value(next, left, moved, them_bar, bar)?.encode())
            }
        };
        let mut play = |from: u8, to: u8, moved: Bits, placed: bool| -> Result<(), Sector> {
            let a = v.arrival(board, moved, to, them, placed);
            if a.taken() == 0 {
                let next = if placed { moves.place } else { moves.slide };
                let next = next.expect("a quiet move has a sector");
                let code = next_code(next, moved, them, NO_BAR, placed)?;
                ex.note(own, rule_in(next), code, placed);
                return Ok(());
            }
            let by_taken = if placed {
                &moves.place_taking
            } else {
                &moves.slide_taking
            };
            let Some(next) =
                by_taken[a.taken() as usize - 1].filter(|&t| moves.leaves_opponent(t, placed))
            else {
                ex.win(1);
                return Ok(());
            };
            let bar = if !placed && board.in_mill(moved, to) {
                (from, to)
            } else {
                NO_BAR
            };
            let mut failed = None;
            for_each_removal_set(
                board,
                v.remove_from_mills,
                a.them,
                a.removals,
                &mut |left| match next_code(next, moved, left, bar, placed) {
                    Ok(code) => {
                        ex.note(own, rule_in(next), code, true);
                        false
                    }
                    Err(e) => {
                        failed = Some(e);
                        true
                    }
                },
            );
            failed.map_or(Ok(()), Err)
        };
        if can_slide(v, s) {
            let flies = v.flies(s.w, s.wf);
            for from in bits(us) {
                let after = us & !(1 << from);
                for to in bits(board.step_targets(from, empty, flies)) {
                    let moved = after | 1 << to;
                    if (from, to) == barred && board.in_mill(moved, to) {
                        continue;
                    }
                    any_move = true;
                    play(from, to, moved, false)?;
                }
            }
        }
        if s.wf > 0 {
            for to in bits(empty) {
                any_move = true;
                play(NO_SQUARE, to, us | 1 << to, true)?;
            }
        }
        if any_move {
            return Ok(ex.value());
        }
        if super::full_board_won(v, empty) {
            return Ok(Value::Win(0));
        }
        // Blocked (perhaps by its bar): the stalemate removals keep both bars (only a stone
        // move sets or clears its side's).
        let removals =
            super::blocked::blocked_value(v, rule, s, us, them, &mut |to, a, b, same| {
                let (a_bar, b_bar) = if same { bars } else { (bars.1, bars.0) };
                self.value(to, a, b, a_bar, b_bar)
            })?;
        Ok(match removals {
            Some(value) => value,
            None if super::blocked_draws(v, empty) => Value::Draw,
            None => own.blocked(),
        })
    }
}

/// The stored values of every sector a play-out from a component's exits can reach (every
/// sector below the component that its exits lead to, and what those lead to), loaded once
/// for the component's solve.
pub(crate) struct Below {
    tables: HashMap<Sector, (SectorIndex, Arc<Vec<u16>>)>,
}

impl Below {
    /// Load the sectors below `component` from `dependencies`.
    pub(crate) fn load<D: DependencyValues + ?Sized>(
        v: &Variant,
        component: &Component,
        dependencies: &D,
    ) -> Result<Below, D::Error> {
        let mut tables = HashMap::new();
        let mut stack: Vec<Sector> = component.dependencies().to_vec();
        while let Some(s) = stack.pop() {
            if tables.contains_key(&s) || component.sectors().contains(&s) {
                continue;
            }
            let values = dependencies.load(s)?;
            let index = SectorIndex::new(v, s);
            if values.len() as u64 != index.slots() {
                return Err(SolveError::BadDependency(s).into());
            }
            tables.insert(s, (index, values));
            let moves = MoveSectors::of(v, s);
            // Both sides alive: a blocked side's removals may leave the opponent too few.
            stack.extend(moves.iter().filter(|&t| is_live(v, t)));
        }
        Ok(Below { tables })
    }
}

impl StoredValues for Below {
    fn code(&self, s: Sector, us: Bits, them: Bits) -> Option<u16> {
        let (index, values) = self.tables.get(&s)?;
        Some(values[index.slot(us, them) as usize])
    }
}
