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

use crate::game::rules::{Bits, MIN_STONES, Stalemate, Variant, points as bits};
use crate::game::value::{NMoveRule, Value, best_of};
use crate::sector::graph::{blocked_exit, removal_ply};
use crate::sector::index::Sector;

/// The value of the position (`us` to move, `them`) of sector `s` whose side to move has no
/// stone move, under the `stalemate` options that remove stones; `None` under the others
/// (a loss, a draw, a pass). `base`: the rule the tables are solved under (each position's
/// rule in force follows from its stones). `stored(to, mover, other, same)` gives the value of the position
/// of sector `to` (the sector of [`blocked_exit`]) with `mover` to move and `other`, `same`
/// telling whether the blocked side is the one to move there; it is asked only for positions
/// where both sides have three stones or more.
pub(crate) fn blocked_value<E>(
    v: &Variant,
    base: NMoveRule,
    s: Sector,
    us: Bits,
    them: Bits,
    stored: &mut dyn FnMut(Sector, Bits, Bits, bool) -> Result<Value, E>,
) -> Result<Option<Value>, E> {
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
