//! Legal moves, playing them, the end of a game, and un-moves (predecessor positions) for
//! retrograde analysis — under every rule option of [`Variant`].
//!
//! A turn is one stone move (placement, slide or fly) and the removals it causes; removals
//! that no move causes (a full board, a blocked side, El Filja's end of placing) are turns of
//! their own. In the split convention every removal is its own ply; in the combined one a
//! move carries the removals of the mills it closes.

mod turn;
mod unmove;

use turn::mill_removals;
pub use turn::{play, settle};
pub use unmove::unmoves;

use crate::game::position::{Color, Move, NO_SLIDE, Position};
use crate::game::rules::points as bits;
use crate::game::rules::{Bits, BoardFull, NO_SQUARE, PlacingMill, Stalemate, Variant};

/// How a move that closes a mill is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Convention {
    /// The move and its removals are one ply (`d6xg7`); the database's convention.
    #[default]
    Combined,
    /// Each removal is its own ply by the same side (`d6`, then `xg7`); Sanmill's convention.
    Split,
}

/// How a finished game ended, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has lost (too few stones, no legal move, or a full board that the
    /// rules count against it).
    Loss,
    /// The side to move has won (the opponent has too few stones, or a full board that the
    /// rules count against the opponent).
    Win,
    /// Drawn by rule (a full board or a blocked side where the rules say so).
    Draw,
}

/// The stones the side to move may remove now (none when no removal is pending).
pub fn removable(v: &Variant, pos: &Position) -> Bits {
    let me = pos.to_move.index();
    let count = pos.removals[me];
    if count == 0 {
        return 0;
    }
    let (us, them) = (pos.stones[me], pos.stones[1 - me]);
    if count < 0 {
        return us;
    }
    let board = v.board();
    if pos.adjacent_removal {
        let near = bits(us).fold(0, |acc, p| acc | board.adjacent(p));
        return them & near;
    }
    board.removable(them, v.remove_from_mills)
}

/// The mills closed by a stone of `side` arriving on `to` (with `after` its stones after the
/// move) that count for a removal: `(count, points of every mill formed)`. Under
/// `one-time-mill` a mill whose points all stood in earlier mills of that side does not count.
#[inline]
pub(crate) fn mills_closed(
    v: &Variant,
    pos: &Position,
    side: Color,
    after: Bits,
    to: u8,
) -> (u32, Bits) {
    let board = v.board();
    if !v.one_time_mill {
        let n = board.mills_at(after, to);
        if n == 0 {
            return (0, 0);
        }
        return (n, board.mills_through(after, to).fold(0, |a, m| a | m));
    }
    let used = pos.used_mill_points[side.index()];
    let mut count = 0;
    let mut formed = 0;
    for m in board.mills_through(after, to) {
        formed |= m;
        if m & !used != 0 {
            count += 1;
        }
    }
    (count, formed)
}

/// The (from, to) pairs of the side to move's stone moves: placements (`from` =
/// [`NO_SQUARE`]), slides and flies.
fn stone_moves(v: &Variant, pos: &Position, mut f: impl FnMut(u8, u8)) {
    let board = v.board();
    let me = pos.to_move.index();
    let us = pos.stones[me];
    let empty = pos.empty(v);
    let hand = pos.in_hand[me];
    if hand > 0 {
        for to in bits(empty) {
            f(NO_SQUARE, to);
        }
    }
    if v.may_move(hand) {
        let flies = v.flies(us.count_ones() as u8, hand);
        let barred = if v.repeated_mills_restricted {
            let (a, b) = pos.last_mill_slide[me];
            (b, a)
        } else {
            NO_SLIDE
        };
        for from in bits(us) {
            let targets = board.step_targets(from, empty, flies);
            let after = us & !(1 << from);
            for to in bits(targets) {
                if (from, to) == barred && board.in_mill(after | 1 << to, to) {
                    continue;
                }
                f(from, to);
            }
        }
    }
}

/// Has the side to move a stone move?
pub(crate) fn has_stone_move(v: &Variant, pos: &Position) -> bool {
    let mut any = false;
    stone_moves(v, pos, |_, _| any = true);
    any
}

/// Is every point of the board covered by a stone, with both hands empty?
#[inline]
pub(crate) fn board_filled(v: &Variant, pos: &Position) -> bool {
    pos.in_hand == [0, 0] && pos.stones[0] | pos.stones[1] == v.board().full()
}

/// The game's outcome if it is over, from the side to move's point of view.
pub fn outcome(v: &Variant, pos: &Position) -> Option<Outcome> {
    if pos.too_few(pos.to_move) {
        return Some(Outcome::Loss);
    }
    if pos.too_few(pos.to_move.other()) {
        return Some(Outcome::Win);
    }
    if pos.pending_removal() {
        return None;
    }
    if v.placing_mill != PlacingMill::ByMillCounts && board_filled(v, pos) {
        match v.board_full {
            BoardFull::WhiteLoses if pos.to_move == Color::White => return Some(Outcome::Loss),
            BoardFull::WhiteLoses => return Some(Outcome::Win),
            BoardFull::Draw => return Some(Outcome::Draw),
            _ => {}
        }
    }
    if has_stone_move(v, pos) {
        None
    } else {
        match v.stalemate {
            // Under `pass` a blocked side to move means that both sides are blocked.
            Stalemate::Draw | Stalemate::Pass => Some(Outcome::Draw),
            _ => Some(Outcome::Loss),
        }
    }
}

/// All legal moves in the given convention (none when the game is over). Moves that close
/// several mills under `multiple-removals` carry every removal in the combined convention,
/// one per set of removed stones.
pub fn legal_moves(v: &Variant, pos: &Position, conv: Convention) -> Vec<Move> {
    let mut out = Vec::with_capacity(32);
    if pos.too_few(Color::White) || pos.too_few(Color::Black) {
        return out;
    }
    if pos.pending_removal() {
        out.extend(bits(removable(v, pos)).map(Move::removal));
        return out;
    }
    let me = pos.to_move;
    let us = pos.us();
    stone_moves(v, pos, |from, to| {
        let mv = Move::slide(from, to);
        if conv == Convention::Split {
            out.push(mv);
            return;
        }
        let after = if from == NO_SQUARE {
            us
        } else {
            us & !(1 << from)
        } | 1 << to;
        // The move carries the removals of the mills it closes, not those that start the
        // next turn (a full board, a blocked side moving again).
        let closed = mills_closed(v, pos, me, after, to).0;
        let opp_hand = pos.in_hand[me.other().index()];
        let own = mill_removals(v, from == NO_SQUARE, closed, opp_hand).0;
        if own <= 0 {
            out.push(mv);
            return;
        }
        let next = play(v, pos, mv);
        let start = out.len();
        with_removals(v, &next, me, mv, own as usize, &mut |m| {
            if m.more[0] == NO_SQUARE {
                out.push(m);
                return;
            }
            let mut set: Vec<u8> = m.removals().collect();
            set.sort_unstable();
            let seen = out[start..].iter().any(|o: &Move| {
                let mut s: Vec<u8> = o.removals().collect();
                s.sort_unstable();
                s == set
            });
            if !seen {
                out.push(m);
            }
        });
    });
    out
}

/// Every way to complete `mv` (already played: `next`) with the `own` removals its mills give
/// the mover `me` (fewer where they lapse).
fn with_removals(
    v: &Variant,
    next: &Position,
    me: Color,
    mv: Move,
    own: usize,
    f: &mut impl FnMut(Move),
) {
    let more = mv.removals().count() < own.min(3);
    if next.to_move != me || !next.pending_removal() || !more {
        f(mv);
        return;
    }
    let candidates = removable(v, next);
    if candidates == 0 {
        f(mv);
        return;
    }
    for r in bits(candidates) {
        let after = play(v, next, Move::removal(r));
        with_removals(v, &after, me, mv.with_removal(r), own, f);
    }
}

/// Is `mv` legal in `pos` under `conv`?
pub fn is_legal(v: &Variant, pos: &Position, mv: Move, conv: Convention) -> bool {
    legal_moves(v, pos, conv).contains(&mv)
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
mod tests;
