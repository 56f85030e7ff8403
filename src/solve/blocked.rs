//! A side to move without a stone move under the `stalemate` options that remove stones
//! (docs/RULE-SETS.md, "How a turn goes", item 6), as the referee plays them
//! (`movegen::play`): `remove-and-move` and `remove-and-pass` remove one opponent stone next
//! to one of the blocked side's own (mill protection ignored; none there: it loses), then the
//! blocked side moves again or the opponent moves; `both-remove` removes one opponent stone,
//! then the opponent removes one of the blocked side's (both as a mill's removal, protection
//! as `remove-from-mills` says), then the blocked side moves.
//!
//! Each removal is a ply (a lone removal, as `legal_moves` gives it) that resets the N-move
//! counter. The blocked side's turn starts like any other: under an N-move rule it is drawn
//! when the counter has reached N (the check comes before everything else, docs/NMOVE.md), so
//! such a position is decided with DTR 1 when the position after the removals is decided at
//! counter 0, and is cursed or blessed (distance `N + 1`) when that one is
//! ([`removal_ply`]). The N-move rule in force is the one of each position's stones
//! ([`NMoveRule::with_stones`]: an endgame rule while a side has three stones).

use crate::game::position::Color;
use crate::game::rules::{Bits, Board, MIN_STONES, Stalemate, Variant, points as bits};
use crate::game::value::{NMoveRule, Value, best_of};
use crate::sector::graph::{
    blocked_exit, full_board_after, full_board_mover, is_full_board, removal_ply,
};
use crate::sector::index::Sector;

/// The value of the position (`us` to move, `them`) of sector `s` whose side to move has no
/// stone move, under the `stalemate` options that remove stones; `None` under the others
/// (a loss, a draw, a pass). `base`: the rule the tables are solved under (each position's
/// rule in force follows from its stones). `stored(to, mover, other, same)` gives the value of the position
/// of sector `to` (the sector of [`blocked_exit`]) with `mover` to move and `other`, `same`
/// telling whether the blocked side is the one to move there; it is asked only for positions
/// where both sides have three stones or more.
///
/// A board filled by placing (sector `s` [`is_full_board`]) follows `board-full` (or
/// `placing-mill=by-mill-counts`) instead: [`full_board_value`].
pub(crate) fn blocked_value<E>(
    v: &Variant,
    base: NMoveRule,
    s: Sector,
    us: Bits,
    them: Bits,
    stored: &mut dyn FnMut(Sector, Bits, Bits, bool) -> Result<Value, E>,
) -> Result<Option<Value>, E> {
    if is_full_board(v, s) {
        return full_board_value(v, base, s, us, them, stored);
    }
    let Some(exit) = blocked_exit(v, s) else {
        return Ok(None);
    };
    let board = v.board();
    let to = exit.to;
    let rule = base.with_stones(v, [s.w, s.b]);
    // The rule after the blocked side's removal (the opponent one stone fewer), and after the
    // reply of `both-remove` (both one fewer).
    let after_one = base.with_stones(v, [s.w, s.b - 1]);
    let after_both = base.with_stones(v, [s.w.saturating_sub(1), s.b - 1]);
    let at_exit = match v.stalemate {
        Stalemate::BothRemove => after_both,
        _ => after_one,
    };
    // After the blocked side's removal: has the opponent too few stones?
    let them_lost = s.b - 1 + s.bf < MIN_STONES;
    let mut values = Vec::new();
    match v.stalemate {
        Stalemate::RemoveAndMove | Stalemate::RemoveAndPass => {
            let near = bits(us).fold(0, |acc, p| acc | board.adjacent(p));
            let candidates = them & near;
            if candidates == 0 {
                // No opponent stone next to its own: it loses (a turn without a removal).
                return Ok(Some(rule.blocked()));
            }
            for r in bits(candidates) {
                let left = them & !(1 << r);
                let next = if them_lost {
                    removal_ply(rule, at_exit, Value::Loss(0), false)
                } else if exit.same {
                    removal_ply(rule, at_exit, stored(to, us, left, true)?, true)
                } else {
                    removal_ply(rule, at_exit, stored(to, left, us, false)?, false)
                };
                values.push(next);
            }
        }
        Stalemate::BothRemove => {
            let us_lost = s.w - 1 + s.wf < MIN_STONES;
            for r in bits(board.removable(them, v.remove_from_mills)) {
                let left = them & !(1 << r);
                if them_lost {
                    values.push(removal_ply(rule, at_exit, Value::Loss(0), false));
                    continue;
                }
                // The opponent removes one of the blocked side's stones: its best, from its
                // point of view (the blocked side moves next).
                let mut replies = Vec::new();
                for q in bits(board.removable(us, v.remove_from_mills)) {
                    let next = if us_lost {
                        Value::Loss(0)
                    } else {
                        stored(to, us & !(1 << q), left, true)?
                    };
                    replies.push(removal_ply(after_one, after_both, next, false));
                }
                let reply = best_of(replies.into_iter(), Value::Loss(0));
                values.push(removal_ply(rule, after_one, reply, false));
            }
        }
        Stalemate::Loss | Stalemate::Draw | Stalemate::Pass => return Ok(None),
    }
    Ok(Some(best_of(values.into_iter(), rule.blocked())))
}

/// The value of the position of full-board sector `s` ([`is_full_board`]: `us` of the colour
/// [`full_board_mover`], to move after the last placement, and `them`) under the rules that
/// start removals on a full board ([`full_board_after`]: `board-full=mover-removes`,
/// `white-then-black`, `black-then-white`, `placing-mill=by-mill-counts`); `None` where the
/// full board ends the game (`white-loses`, `draw`). As the referee plays it: the first
/// remover takes its stones one by one (each a ply that resets the N-move counter; protection
/// as `remove-from-mills` says, re-checked before each; its own stones, any of them, under
/// `by-mill-counts` with no mill), then the other colour, then the side after the last
/// remover moves: `stored(to, mover, other, _)` gives that position's value (sector `to`, seen
/// from the side to move). A side left with fewer than three stones has lost at once.
pub(crate) fn full_board_value<E>(
    v: &Variant,
    base: NMoveRule,
    s: Sector,
    us: Bits,
    them: Bits,
    stored: &mut dyn FnMut(Sector, Bits, Bits, bool) -> Result<Value, E>,
) -> Result<Option<Value>, E> {
    let mover = full_board_mover(v);
    let stones = match mover {
        Color::White => [us, them],
        Color::Black => [them, us],
    };
    let board = v.board();
    let mills = [board.mill_count(stones[0]), board.mill_count(stones[1])];
    let Some(after) = full_board_after(v, s, mills) else {
        return Ok(None);
    };
    let first = after.first;
    let steps = [
        (first, after.removals[first.index()]),
        (first.other(), after.removals[first.other().index()]),
    ];
    let script = Script {
        v,
        base,
        next: after.next,
    };
    let value = script.value(stones, &steps, stored)?;
    // The value is the first remover's: turned round when that is the other colour (the same
    // position, no ply between).
    Ok(Some(match first == mover {
        true => value,
        false => value.for_other_side(),
    }))
}

/// The removals of a full board ([`full_board_value`]): the rules, and who moves after them.
struct Script<'a> {
    v: &'a Variant,
    base: NMoveRule,
    next: Color,
}

impl Script<'_> {
    /// The rule in force with these stones on the board ([`NMoveRule::with_stones`]).
    fn rule(&self, counts: [u8; 2]) -> NMoveRule {
        self.base.with_stones(self.v, counts)
    }

    /// The value, for the side acting first in `steps` (each a colour and its removals:
    /// negative of its own stones; zero: none), of the position with `stones` (`[white,
    /// black]`) where those removals are still to come; with no steps left, the stored value
    /// of the position with [`Script::next`] to move.
    fn value<E>(
        &self,
        stones: [Bits; 2],
        steps: &[(Color, i8)],
        stored: &mut dyn FnMut(Sector, Bits, Bits, bool) -> Result<Value, E>,
    ) -> Result<Value, E> {
        let counts = stones.map(|x| x.count_ones() as u8);
        let Some((&(actor, count), rest)) = steps.split_first() else {
            let (me, other) = (self.next.index(), self.next.other().index());
            let to = Sector::moving(counts[me], counts[other]);
            return stored(to, stones[me], stones[other], false);
        };
        // Who removes right after this step (or moves, when none is left).
        let after_step = rest
            .iter()
            .find(|&&(_, c)| c != 0)
            .map_or(self.next, |&(c, _)| c);
        let victim = match count > 0 {
            true => actor.other(),
            false => actor,
        };
        let k = count.unsigned_abs();
        let target = stones[victim.index()];
        if k == 0 || target == 0 {
            // Nothing to remove: the step lapses.
            return self.value(stones, rest, stored);
        }
        let board = self.v.board();
        // Removals of its own stones take any of them; of the opponent's, protection as
        // `remove-from-mills` says.
        let any = count < 0 || self.v.remove_from_mills;
        let before = counts[victim.index()];
        // The victim falls below three stones after this many removals: the game is over.
        let ends = (before + 1).saturating_sub(MIN_STONES);
        if ends <= k {
            // Lost for the victim, as if it were to move.
            let mut value = Value::Loss(0);
            let mut c = counts;
            let mut plies = Vec::new();
            for i in 0..ends {
                let from = c;
                c[victim.index()] -= 1;
                plies.push((from, c, i + 1 == ends));
            }
            for (from, to, last) in plies.into_iter().rev() {
                let same = !last || victim == actor;
                value = removal_ply(self.rule(from), self.rule(to), value, same);
            }
            return Ok(value);
        }
        let sets = removal_sets(board, any, target, k);
        let mut values = Vec::with_capacity(sets.len());
        for left in sets {
            let mut after = stones;
            after[victim.index()] = left;
            let mut value = self.value(after, rest, stored)?;
            // The `k` plies of the step, last first: the last one hands the turn on.
            let mut c = counts;
            c[victim.index()] -= k;
            for i in (1..=k).rev() {
                let mut from = c;
                from[victim.index()] += 1;
                let same = i < k || after_step == actor;
                value = removal_ply(self.rule(from), self.rule(c), value, same);
                c = from;
            }
            values.push(value);
        }
        Ok(best_of(values.into_iter(), Value::Loss(0)))
    }
}

/// Every set the stones `target` can be left as after `k` removals, each chosen among the
/// stones removable at that point (protection re-checked before each, unless `any`), each set
/// once: level by level, so that a set reached in several orders is expanded once (at most
/// 2^12 sets for 12 stones, where the orders of six removals are 665,280).
fn removal_sets(board: &Board, any: bool, target: Bits, k: u8) -> Vec<Bits> {
    let mut level = vec![target];
    for _ in 0..k {
        let mut next = Vec::new();
        for &set in &level {
            for p in bits(board.removable(set, any)) {
                next.push(set & !(1 << p));
            }
        }
        next.sort_unstable();
        next.dedup();
        level = next;
    }
    level
}

/// Has the side to move of the moving-phase sector `s` (stones `us`, its opponent `them`, a
/// board with an empty point, no bar) a stone move: a slide to an adjacent empty point, or
/// a fly while it flies? (`movegen::has_stone_move` for the positions the solver stores.)
#[inline]
pub(crate) fn can_move(v: &Variant, s: Sector, us: Bits, them: Bits) -> bool {
    let board = v.board();
    let empty = board.full() & !us & !them;
    if empty == 0 {
        return false;
    }
    if s.wf > 0 || v.flies(s.w, s.wf) {
        return true;
    }
    bits(us).any(|p| board.adjacent(p) & empty != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::{VARIANTS, for_each_removal_set};

    /// The sets level by level are the sets of every order of removals, each once, with and
    /// without protection.
    #[test]
    fn removal_sets_are_the_sets_of_every_order() {
        let v = VARIANTS.iter().find(|v| v.name == "twelve").unwrap();
        let board = v.board();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for round in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let target = (x as Bits) & board.full();
            let k = (round % 4) as u8 + 1;
            if target.count_ones() < k as u32 {
                continue;
            }
            for any in [false, true] {
                let mut want = Vec::new();
                for_each_removal_set(board, any, target, k, &mut |left| {
                    want.push(left);
                    false
                });
                want.sort_unstable();
                want.dedup();
                assert_eq!(
                    removal_sets(board, any, target, k),
                    want,
                    "{target:#x} k = {k}"
                );
            }
        }
    }
}
