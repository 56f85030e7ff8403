//! Legal moves, playing them, and un-moves (predecessor positions) for retrograde analysis.

use crate::game::position::{Color, Move, Position};
use crate::game::rules::{Bits, FullBoard, NO_SQUARE, Variant, points as bits};

/// How a move that closes a mill is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Convention {
    /// The move and its removal are one ply (`d6xg7`); the database's convention.
    #[default]
    Combined,
    /// The removal is its own ply by the same side (`d6`, then `xg7`); Sanmill's convention.
    Split,
}

/// How a finished game ended, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has lost (too few stones, or no legal move).
    Loss,
    /// The side to move has won (the opponent has too few stones).
    Win,
    /// Drawn by rule (a full board where the variant says so).
    Draw,
}

/// The (from, to) pairs of the side to move before removals, and a flag per pair telling
/// whether it closes a mill.
fn stone_moves(v: &Variant, pos: &Position, mut f: impl FnMut(u8, u8, bool)) {
    let board = v.board();
    let me = pos.to_move.index();
    let us = pos.stones[me];
    let empty = pos.empty(v);
    let hand = pos.in_hand[me];
    if hand > 0 {
        for to in bits(empty) {
            f(NO_SQUARE, to, board.in_mill(us | 1 << to, to));
        }
    }
    if v.may_move(hand) {
        let flies = v.flies(us.count_ones() as u8, hand);
        for from in bits(us) {
            let targets = board.step_targets(from, empty, flies);
            let after = us & !(1 << from);
            for to in bits(targets) {
                f(from, to, board.in_mill(after | 1 << to, to));
            }
        }
    }
}

/// The game's outcome if it is over, from the side to move's point of view.
pub fn outcome(v: &Variant, pos: &Position) -> Option<Outcome> {
    if pos.too_few(pos.to_move) {
        return Some(Outcome::Loss);
    }
    if pos.too_few(pos.to_move.other()) {
        return Some(Outcome::Win);
    }
    if pos.pending_removal {
        return None;
    }
    let mut any = false;
    stone_moves(v, pos, |_, _, _| any = true);
    if any {
        None
    } else if pos.empty(v) == 0 && v.full_board == FullBoard::Draw {
        Some(Outcome::Draw)
    } else {
        Some(Outcome::Loss)
    }
}

/// All legal moves in the given convention (none when the game is over).
pub fn legal_moves(v: &Variant, pos: &Position, conv: Convention) -> Vec<Move> {
    let mut out = Vec::new();
    if pos.too_few(Color::White) || pos.too_few(Color::Black) {
        return out;
    }
    let board = v.board();
    let them = pos.them();
    let removable = board.removable(them, v.remove_from_mills);
    if pos.pending_removal {
        out.extend(bits(removable).map(Move::removal));
        return out;
    }
    stone_moves(v, pos, |from, to, closes| {
        let mv = Move {
            from,
            to,
            remove: NO_SQUARE,
        };
        if closes && conv == Convention::Combined && removable != 0 {
            out.extend(bits(removable).map(|r| mv.with_removal(r)));
        } else {
            out.push(mv);
        }
    });
    out
}

/// Is `mv` legal in `pos` under `conv`?
pub fn is_legal(v: &Variant, pos: &Position, mv: Move, conv: Convention) -> bool {
    legal_moves(v, pos, conv).contains(&mv)
}

/// Play a legal move. In the split convention a move that closes a mill (with opponent stones
/// on the board) leaves the same side to move with a removal pending.
pub fn play(v: &Variant, pos: &Position, mv: Move) -> Position {
    let me = pos.to_move.index();
    let opp = pos.to_move.other().index();
    let mut next = *pos;
    if mv.to != NO_SQUARE {
        if mv.from == NO_SQUARE {
            next.in_hand[me] -= 1;
        } else {
            next.stones[me] &= !(1 << mv.from);
        }
        next.stones[me] |= 1 << mv.to;
    }
    if mv.removes() {
        next.stones[opp] &= !(1 << mv.remove);
    } else if mv.to != NO_SQUARE
        && v.board().in_mill(next.stones[me], mv.to)
        && next.stones[opp] != 0
    {
        // A mill closed without a removal: only in the split convention.
        next.pending_removal = true;
        return next;
    }
    next.pending_removal = false;
    next.to_move = pos.to_move.other();
    next
}

/// All predecessors of `pos` in the combined convention: every (move, position) such that
/// playing the move in that position gives `pos`. Un-moves that restore a removed stone lead
/// to positions with one more stone of the side to move.
pub fn unmoves(v: &Variant, pos: &Position) -> Vec<(Move, Position)> {
    let mut out = Vec::new();
    if pos.pending_removal {
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

/// Number of leaf nodes of the move tree of the given depth.
pub fn perft(v: &Variant, pos: &Position, depth: u32, conv: Convention) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(v, pos, conv);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(v, &play(v, pos, mv), depth - 1, conv))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_split_matches_sanmill() {
        let v = Variant::standard();
        let start = Position::start(&v);
        let expect = [24u64, 552, 12144, 255024];
        for (d, &n) in expect.iter().enumerate() {
            assert_eq!(perft(&v, &start, d as u32 + 1, Convention::Split), n);
        }
    }
}
