//! Playing a move: the stone move, its captures and mills, the removals it causes, and what
//! starts the next turn (end of placing, a full board, a blocked side).

use super::{board_filled, has_stone_move, mills_closed, removable};
use crate::game::position::{Color, Move, NO_SLIDE, Position};
use crate::game::rules::{Capture, NO_SQUARE, PlacingMill, Stalemate, Variant};

/// Play a legal move (either convention). In the split convention a move that closes a mill
/// leaves the same side to move with its removals pending; each removal is then its own ply.
pub fn play(v: &Variant, pos: &Position, mv: Move) -> Position {
    let mut next = *pos;
    let was_placing = pos.in_hand != [0, 0];
    if mv.to == NO_SQUARE {
        for r in mv.removals() {
            remove_one(v, &mut next, r, was_placing);
        }
        continue_turn(v, &mut next, was_placing);
        return next;
    }
    let side = pos.to_move;
    let (me, opp) = (side.index(), side.other().index());
    let placement = mv.from == NO_SQUARE;
    if placement {
        next.in_hand[me] -= 1;
    } else {
        next.stones[me] &= !(1 << mv.from);
    }
    next.stones[me] |= 1 << mv.to;
    let board = v.board();
    if v.capture == Capture::Intervention {
        for &ends in board.flanks(mv.to) {
            if next.stones[opp] & ends == ends {
                next.stones[opp] &= !ends;
            }
        }
    }
    let (closed, formed) = mills_closed(v, pos, side, next.stones[me], mv.to);
    if v.one_time_mill {
        next.used_mill_points[me] |= formed;
    }
    if v.repeated_mills_restricted {
        next.last_mill_slide[me] = if !placement && formed != 0 {
            (mv.from, mv.to)
        } else {
            NO_SLIDE
        };
    }
    let (count, taken) = mill_removals(v, placement, closed, next.in_hand[opp]);
    if placement && closed > 0 && v.removes_from_hand() {
        next.in_hand[opp] -= taken;
        next.again = v.placing_mill == PlacingMill::FromHandAgain;
    }
    if was_placing && next.in_hand == [0, 0] && v.moving_first == Color::Black {
        // Placing ends with this move: Black moves first, after any removals of this turn.
        next.again = side == Color::Black;
    }
    next.removals = [0, 0];
    next.adjacent_removal = false;
    next.removals[me] = count;
    for r in mv.removals() {
        remove_one(v, &mut next, r, was_placing);
    }
    continue_turn(v, &mut next, was_placing);
    next
}

/// The removals that `closed` counted mills of a stone move give (a placement if
/// `placement`): `(from the board, from the opponent's hand of opp_hand stones)`.
pub(crate) fn mill_removals(v: &Variant, placement: bool, closed: u32, opp_hand: u8) -> (i8, u8) {
    let count = match closed {
        0 => 0,
        n if v.multiple_removals => n as i8,
        _ => 1,
    };
    if !placement {
        return (count, 0);
    }
    match v.placing_mill {
        PlacingMill::ByMillCounts => (0, 0),
        PlacingMill::FromHand | PlacingMill::FromHandAgain => {
            let taken = (count as u8).min(opp_hand);
            (count - taken as i8, taken)
        }
        PlacingMill::Remove | PlacingMill::Mark => (count, 0),
    }
}

/// Remove the stone on `r` for the side to move's pending removal.
fn remove_one(v: &Variant, p: &mut Position, r: u8, was_placing: bool) {
    let me = p.to_move.index();
    let count = p.removals[me];
    if count < 0 {
        p.stones[me] &= !(1 << r);
        p.removals[me] += 1;
    } else {
        p.stones[1 - me] &= !(1 << r);
        p.removals[me] = count.saturating_sub(1);
        if v.placing_mill == PlacingMill::Mark && was_placing && p.in_hand != [0, 0] {
            p.marks |= 1 << r;
        }
    }
    p.adjacent_removal &= p.removals[me] != 0;
}

/// After a stone move or a removal: stay with the side to move while it has something to
/// remove, hand over to the other side's pending removals, or end the turn.
fn continue_turn(v: &Variant, p: &mut Position, was_placing: bool) {
    if p.too_few(Color::White) || p.too_few(Color::Black) {
        // The game is over; the turn passes as after any move.
        p.removals = [0, 0];
        p.again = false;
        p.adjacent_removal = false;
        p.to_move = p.to_move.other();
        return;
    }
    if pending_after_lapses(v, p) {
        return;
    }
    let mover = p.to_move;
    p.to_move = if p.again { mover } else { mover.other() };
    p.again = false;
    begin_turn(v, p, was_placing);
}

/// Drop removals that have nothing to remove (the side to move's, then the other side's);
/// hand the turn to the other side when only it has removals left. True while a removal is
/// pending for the side to move.
fn pending_after_lapses(v: &Variant, p: &mut Position) -> bool {
    for _ in 0..2 {
        let me = p.to_move.index();
        if p.removals[me] != 0 {
            if removable(v, p) != 0 {
                return true;
            }
            p.removals[me] = 0;
            p.adjacent_removal = false;
        }
        if p.removals[1 - me] == 0 {
            return false;
        }
        p.to_move = p.to_move.other();
        p.adjacent_removal = false;
    }
    false
}

/// The start of a turn: marks vanish when placing is over; the end of placing may start
/// removals (a full board, El Filja); a blocked side acts as the `stalemate` option says.
fn begin_turn(v: &Variant, p: &mut Position, was_placing: bool) {
    if p.in_hand != [0, 0] {
        stalemate(v, p);
        return;
    }
    p.marks = 0;
    if was_placing && end_of_placing(v, p) {
        return;
    }
    stalemate(v, p);
}

/// Removals that a board filled by placing starts (`board-full`, `by-mill-counts`). True when
/// the turn now starts with them, or the full board ends the game.
fn end_of_placing(v: &Variant, p: &mut Position) -> bool {
    if !board_filled(v, p) {
        return false;
    }
    let board = v.board();
    let mills = [board.mill_count(p.stones[0]), board.mill_count(p.stones[1])];
    let Some(start) = v.full_board_removals(mills, p.to_move) else {
        return true;
    };
    p.removals = start.removals;
    p.to_move = start.first;
    p.again = false;
    pending_after_lapses(v, p)
}

/// A side to move without a stone move: pass, or start the stalemate removals.
fn stalemate(v: &Variant, p: &mut Position) {
    if matches!(v.stalemate, Stalemate::Loss | Stalemate::Draw) || has_stone_move(v, p) {
        return;
    }
    let me = p.to_move.index();
    match v.stalemate {
        Stalemate::Pass => {
            p.to_move = p.to_move.other();
            if !has_stone_move(v, p) {
                // Both sides are blocked: the game is over (see `outcome`).
                p.to_move = p.to_move.other();
            }
        }
        Stalemate::RemoveAndMove | Stalemate::RemoveAndPass => {
            p.removals[me] = 1;
            p.adjacent_removal = true;
            p.again = v.stalemate == Stalemate::RemoveAndMove;
            if removable(v, p) == 0 {
                p.removals[me] = 0;
                p.adjacent_removal = false;
                p.again = false;
            }
        }
        Stalemate::BothRemove => {
            p.removals = [1, 1];
            p.again = false;
            pending_after_lapses(v, p);
        }
        Stalemate::Loss | Stalemate::Draw => {}
    }
}

/// Bring a position read from outside (a position string) into the form [`play`] leaves
/// positions in: marks dropped once placing is over, the removals that a board filled by
/// placing or a blocked side to move start, removals with nothing to remove dropped.
pub fn settle(v: &Variant, pos: &Position) -> Position {
    let mut p = *pos;
    if p.too_few(Color::White) || p.too_few(Color::Black) {
        return p;
    }
    if p.removals != [0, 0] {
        pending_after_lapses(v, &mut p);
        return p;
    }
    if p.in_hand == [0, 0] {
        p.marks = 0;
        if end_of_placing(v, &mut p) {
            return p;
        }
    }
    stalemate(v, &mut p);
    p
}
