//! The static evaluation used where the tables end, in centi-stones from the side to move's
//! point of view (100 = one stone).
//!
//! Terms (each "ours minus theirs"):
//!
//! * **Material** — stones on the board plus in hand, [`STONE`] each. A side with fewer than
//!   three has lost; the search scores that exactly, never through this function.
//! * **Potential mills** — lines of a mill with two own stones and the third point empty,
//!   [`POTENTIAL_MILL`] each: a mill that can be closed by one placement, slide or fly.
//! * **Closed mills** — [`CLOSED_MILL`] each (a mill that can be opened and closed again).
//! * **Mobility** — for a side that slides or will slide once its stones in hand are placed
//!   (more stones than the flying count), [`MOBILITY`] per slide of its stones on the board
//!   (in the placing phase this counts the room its stones will have), less [`CRAMPED`]
//!   when it has four slides or fewer (being blocked loses); a sliding opponent
//!   (nothing in hand) with no slide at all, who would lose if it were to move now (only under
//!   `stalemate=loss`; the other stalemate rules draw, pass or remove instead), adds
//!   [`BLOCKED`]. Flying follows the variant's `fly` option.
//! * **Tempo** — [`TEMPO`] for the side to move.
//!
//! Finished games (too few stones, no legal move, full board) are never evaluated: the
//! search scores them exactly, and positions whose sector is in the tables get the table's
//! value as a mate-like score.

use crate::game::position::Position;
use crate::game::rules::{Bits, Stalemate, Variant, points};

/// Value of one stone.
pub const STONE: i32 = 100;
/// Value of a line with two own stones and the third point empty.
pub const POTENTIAL_MILL: i32 = 18;
/// Value of a closed mill.
pub const CLOSED_MILL: i32 = 8;
/// Value of one legal slide of a sliding side.
pub const MOBILITY: i32 = 8;
/// Bonus when the opponent slides and has no slide.
pub const BLOCKED: i32 = 250;
/// Penalty of a sliding side (or one that will slide) with 0, 1, 2, 3 or 4 slides: the
/// danger of being blocked grows faster than its mobility falls.
pub const CRAMPED: [i32; 5] = [160, 100, 55, 25, 10];
/// Bonus of the side to move.
pub const TEMPO: i32 = 5;

/// Lines with two stones of `mine`, none of `theirs` (so the third point is empty).
#[inline]
pub fn potential_mills(variant: &Variant, mine: Bits, theirs: Bits) -> i32 {
    variant
        .board()
        .mills()
        .iter()
        .filter(|&&m| (m & mine).count_ones() == 2 && m & theirs == 0)
        .count() as i32
}

/// The empty points that would complete a mill of `mine` (two stones in the line, the third
/// point empty).
#[inline]
pub fn mill_threats(variant: &Variant, mine: Bits, theirs: Bits) -> Bits {
    variant.board().mills().iter().fold(0, |acc, &m| {
        if (m & mine).count_ones() == 2 && m & theirs == 0 {
            acc | (m & !mine)
        } else {
            acc
        }
    })
}

/// Number of legal slides of the stones `mine` (with `empty` the empty points).
#[inline]
fn slides(variant: &Variant, mine: Bits, empty: Bits) -> i32 {
    let board = variant.board();
    points(mine)
        .map(|p| (board.adjacent(p) & empty).count_ones() as i32)
        .sum()
}

/// The [`CRAMPED`] penalty of a side with `slides` slides.
#[inline]
fn cramped(slides: i32) -> i32 {
    CRAMPED.get(slides as usize).copied().unwrap_or(0)
}

/// Does side `c` (by index) move by sliding (nothing in hand, not flying)?
#[inline]
fn slides_only(variant: &Variant, pos: &Position, c: usize) -> bool {
    let hand = pos.in_hand[c];
    hand == 0 && !variant.flies(pos.stones[c].count_ones() as u8, hand)
}

/// Will side `c` (by index) slide once its stones in hand are placed (it will not fly)?
#[inline]
fn will_slide(variant: &Variant, pos: &Position, c: usize) -> bool {
    let total = pos.stones[c].count_ones() as u8 + pos.in_hand[c];
    !variant.flies(total, 0)
}

/// The evaluation of a position that is not over, for the side to move.
pub fn evaluate(variant: &Variant, pos: &Position) -> i32 {
    let me = pos.to_move.index();
    let op = 1 - me;
    let us = pos.stones[me];
    let them = pos.stones[op];
    let material =
        (i32::from(pos.total(pos.to_move)) - i32::from(pos.total(pos.to_move.other()))) * STONE;
    let potential =
        (potential_mills(variant, us, them) - potential_mills(variant, them, us)) * POTENTIAL_MILL;
    let closed = |set: Bits| {
        variant
            .board()
            .mills()
            .iter()
            .filter(|&&m| set & m == m)
            .count() as i32
    };
    let mills = (closed(us) - closed(them)) * CLOSED_MILL;
    let empty = pos.empty(variant);
    let mut mobility = 0;
    if will_slide(variant, pos, me) {
        let ours = slides(variant, us, empty);
        mobility += ours * MOBILITY - cramped(ours);
    }
    if will_slide(variant, pos, op) {
        let theirs = slides(variant, them, empty);
        mobility -= theirs * MOBILITY - cramped(theirs);
        if theirs == 0 && slides_only(variant, pos, op) && variant.stalemate == Stalemate::Loss {
            mobility += BLOCKED;
        }
    }
    material + potential + mills + mobility + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_position;

    #[test]
    fn material_and_mills_count() {
        let v = Variant::standard();
        let start = Position::start(&v);
        assert_eq!(evaluate(&v, &start), TEMPO);
        // White d7, g7 (a potential mill with a7 empty) to move against black's b2 alone
        // (with 2 in hand each).
        let pos = parse_position(
            &v,
            "********/*****@**/OO****** w p p 2 7 1 8 0 0 0 0 0 0 0 0 1",
        )
        .unwrap();
        // Mobility counts in the placing phase: white's d7 and g7 have 3 free neighbours,
        // black's b2 has 2; both are cramped, black more.
        let cramp = CRAMPED[2] - CRAMPED[3];
        assert_eq!(
            evaluate(&v, &pos),
            POTENTIAL_MILL + MOBILITY + cramp + TEMPO
        );
        let a7 = v.board().point("a7").unwrap();
        assert_eq!(mill_threats(&v, pos.stones[0], pos.stones[1]), 1 << a7);
        // One stone more is worth a stone.
        let pos = parse_position(
            &v,
            "********/*****@**/OO****** w p p 2 7 1 7 0 0 0 0 0 0 0 0 1",
        )
        .unwrap();
        assert_eq!(
            evaluate(&v, &pos),
            STONE + POTENTIAL_MILL + MOBILITY + cramp + TEMPO
        );
    }

    #[test]
    fn a_cramped_side_pays_more_than_its_lost_slides() {
        // The penalty falls with every slide, and faster than MOBILITY per slide near zero.
        for n in 0..CRAMPED.len() - 1 {
            assert!(CRAMPED[n] > CRAMPED[n + 1]);
        }
        assert!(CRAMPED[0] - CRAMPED[1] > MOBILITY);
        assert_eq!(cramped(CRAMPED.len() as i32), 0);
        // Black's only stone b2 (both sides will slide): with d2 and b4 free it has two
        // slides; with white on d2 one. The evaluation for white rises by the lost slide and
        // the extra cramp.
        let v = Variant::standard();
        let free = parse_position(
            &v,
            "********/*****@**/OO****** w p p 2 7 1 8 0 0 0 0 0 0 0 0 1",
        )
        .unwrap();
        let d2 = v.board().point("d2").unwrap();
        let mut boxed = free;
        boxed.stones[0] |= 1 << d2;
        boxed.in_hand[0] -= 1;
        let gain = evaluate(&v, &boxed) - evaluate(&v, &free);
        let d2_slides = slides(&v, 1 << d2, boxed.empty(&v));
        assert_eq!(
            gain,
            MOBILITY * (1 + d2_slides) + CRAMPED[1] - CRAMPED[2] - cramped(3 + d2_slides)
                + CRAMPED[3]
        );
    }

    #[test]
    fn blocked_opponent_scores() {
        let v = Variant::standard();
        // Black's four stones d7, a7... boxed in: black a7, d7 with white a4, g7, d6 and
        // white stones elsewhere; black's a1 and g1 are blocked by white d1, a4, g4.
        let pos = parse_position(
            &v,
            "********/O*******/@OO@O@O@ w m s 5 0 4 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
        )
        .unwrap();
        // Black on d7, g1, a1, a7: d7's neighbours g7 (white), a7 (black), d6 (white); g1's g4
        // (white) and d1 (white); a1's d1 and a4 (white); a7's a4 and d7. No slide.
        let e = evaluate(&v, &pos);
        assert!(e > BLOCKED, "{e}");
    }
}
