//! Un-moves (predecessor positions) for retrograde analysis, under the rules the table layer
//! follows ([`Variant::unsupported_by_tables`] is empty): one removal per mill, removals from
//! the board, no marks, captures or history.

use crate::game::position::{Move, Position};
use crate::game::rules::{Bits, Variant, points as bits};

/// All predecessors of `pos` in the combined convention: every (move, position) such that
/// playing the move in that position gives `pos`. Un-moves that restore a removed stone lead
/// to positions with one more stone of the side to move.
pub fn unmoves(v: &Variant, pos: &Position) -> Vec<(Move, Position)> {
    let mut out = Vec::new();
    if pos.pending_removal() || pos.has_extra_state() {
        return out;
    }
    let board = v.board();
    let mover = pos.to_move.other();
    let (mi, vi) = (mover.index(), pos.to_move.index());
    let mine = pos.stones[mi];
    let victim = pos.stones[vi];
    let empty = pos.empty(v);
    let victim_total = pos.total(pos.to_move);
    let mut emit = |prev_mine: Bits, prev_hand: u8, mv: Move, closes: bool| {
        let mut prev = *pos;
        prev.to_move = mover;
        prev.stones[mi] = prev_mine;
        prev.in_hand[mi] = prev_hand;
        if prev.total(mover) > v.stones || prev.too_few(mover) {
            return;
        }
        if !closes || victim == 0 {
            // No mill, or a mill with nothing to remove.
            if !prev.too_few(pos.to_move) {
                out.push((mv, prev));
            }
            if !closes {
                return;
            }
            // With no victim stone on the board the mill may also have removed the victim's
            // only stone: fall through to restore it.
        }
        if victim_total + 1 > v.stones || victim_total + 1 < crate::game::rules::MIN_STONES {
            return;
        }
        let free = empty & !prev_mine;
        for r in bits(free) {
            let restored = victim | 1 << r;
            if board.removable(restored, v.remove_from_mills) & (1 << r) != 0 {
                let mut p = prev;
                p.stones[vi] = restored;
                out.push((mv.with_removal(r), p));
            }
        }
    };
    let hand = pos.in_hand[mi];
    for to in bits(mine) {
        let closes = board.in_mill(mine, to);
        let without = mine & !(1 << to);
        // Un-place: the stone came from the hand.
        if hand < v.stones {
            emit(without, hand + 1, Move::place(to), closes);
        }
        // Un-slide or un-fly.
        if v.may_move(hand) {
            let flies = v.flies(mine.count_ones() as u8, hand);
            let sources = board.step_targets(to, empty, flies);
            for from in bits(sources) {
                emit(without | 1 << from, hand, Move::slide(from, to), closes);
            }
        }
    }
    out
}
