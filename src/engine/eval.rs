//! The static evaluation used where the tables end, in centi-stones from the side to move's
//! point of view (100 = one stone in the moving phase).
//!
//! The evaluation is a weighted sum of [`FEATURES`] terms ([`features`]), with one set of
//! weights for the placing phase and one for the moving phase ([`WEIGHTS`]). The weights are
//! fitted against exact values: `millbase blunders fit` regresses the whole game's table
//! values of positions from the engine's games on these terms (docs/DESIGN.md, "The
//! evaluation"). The terms, each "ours minus theirs" unless it says otherwise:
//!
//! * **material** — stones on the board plus in hand; **in-hand** — stones in hand alone (a
//!   stone in hand is worth more or less than one on the board). A side with fewer than three
//!   has lost; the search scores that exactly, never through this function.
//! * **potential-mills** — lines with two own stones and the third point empty;
//!   **closed-mills** — lines of three own stones.
//! * **slides** — for a side that slides or will slide once its hand is placed (more stones
//!   than the flying count), its legal slides on the board now (in the placing phase the
//!   room its stones will have); **cramped-0** ... **cramped-4** — such a side has exactly
//!   0 ... 4 slides (being blocked loses); **mobile-stones** — its stones with a free
//!   neighbour.
//! * **blocked** (theirs alone) — a sliding opponent (nothing in hand) without a slide, who
//!   would lose if it were to move now (only under `stalemate=loss`).
//! * **threats-against** (theirs alone) — the empty points where the opponent closes a mill
//!   on its next turn (by placing, flying, or sliding a stone from outside the line);
//!   **double-threat-against** — at least two of them (one block cannot stop both).
//! * **running-mills** — a stone of a closed mill that slides to an empty neighbour where it
//!   closes another mill (each such slide once): a mill that closes on every second move.
//! * **stone-degree** — the points' neighbours summed over the stones on the board (stones on
//!   crossings count more than stones in corners).
//! * **forks** — for a side with stones in hand, the empty points where placing a stone
//!   makes two lines of two own stones with the third point empty at once (the double
//!   threat of the next turn).
//! * **tempo** — 1 (the side to move).
//!
//! Flying follows the variant's `fly` option. Finished games (too few stones, no legal move,
//! full board) are never evaluated: the search scores them exactly, and positions whose
//! sector is in the tables get the table's value as a mate-like score.

use crate::game::position::Position;
use crate::game::rules::{Bits, Stalemate, Variant, points};

/// Number of terms of the evaluation.
pub const FEATURES: usize = 18;

/// The terms' names, in the order of [`features`] and [`Weights`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "material",
    "in-hand",
    "potential-mills",
    "closed-mills",
    "slides",
    "cramped-0",
    "cramped-1",
    "cramped-2",
    "cramped-3",
    "cramped-4",
    "mobile-stones",
    "blocked",
    "threats-against",
    "double-threat-against",
    "running-mills",
    "stone-degree",
    "forks",
    "tempo",
];

/// Index of the first `cramped-N` term.
const CRAMPED_0: usize = 5;

/// The weight of each term (centi-stones per unit), per phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// While a side has stones in hand.
    pub placing: [i32; FEATURES],
    /// Once both hands are empty.
    pub moving: [i32; FEATURES],
}

impl Weights {
    /// The weights of `pos`'s phase.
    #[inline]
    pub fn of_phase(&self, pos: &Position) -> &[i32; FEATURES] {
        if pos.in_hand[0] > 0 || pos.in_hand[1] > 0 {
            &self.placing
        } else {
            &self.moving
        }
    }
}

/// The hand-set weights the fitted ones replaced (one stone 100, a potential mill 18, a
/// closed mill 8, a slide 8, a cramped side 160/100/55/25/10 for 0-4 slides, a blocked
/// opponent 250, tempo 5; the same in both phases): the fit's starting point and yardstick.
pub const HAND_SET: Weights = Weights {
    placing: HAND_SET_PHASE,
    moving: HAND_SET_PHASE,
};

const HAND_SET_PHASE: [i32; FEATURES] = [
    100, 0, 18, 8, 8, -160, -100, -55, -25, -10, 0, 250, 0, 0, 0, 0, 0, 5,
];

/// The engine's weights: fitted by `millbase blunders fit` (docs/runs/eval-fit-2026-12-07.md).
pub const WEIGHTS: Weights = Weights {
    placing: [
        143, 321, 170, 159, 69, -6, -87, -122, -79, -52, 72, 0, -90, -73, 122, 19, 84, 158,
    ],
    moving: [
        100, 0, 37, 124, 7, -1, -108, -172, -87, -29, 90, 1, -248, 69, 101, 18, 0, 96,
    ],
};

/// The evaluation of a position that is not over, for the side to move, with [`WEIGHTS`].
#[inline]
pub fn evaluate(variant: &Variant, pos: &Position) -> i32 {
    evaluate_with(&WEIGHTS, variant, pos)
}

/// The evaluation of a position that is not over, for the side to move, with `weights`.
pub fn evaluate_with(weights: &Weights, variant: &Variant, pos: &Position) -> i32 {
    let f = features(variant, pos);
    weights
        .of_phase(pos)
        .iter()
        .zip(&f)
        .map(|(w, x)| w * x)
        .sum()
}

/// The terms of the evaluation of `pos` for the side to move, in the order of
/// [`FEATURE_NAMES`].
pub fn features(variant: &Variant, pos: &Position) -> [i32; FEATURES] {
    let board = variant.board();
    let me = pos.to_move.index();
    let op = 1 - me;
    let (us, them) = (pos.stones[me], pos.stones[op]);
    let empty = pos.empty(variant);
    let mut f = [0; FEATURES];
    f[0] = i32::from(pos.total(pos.to_move)) - i32::from(pos.total(pos.to_move.other()));
    f[1] = i32::from(pos.in_hand[me]) - i32::from(pos.in_hand[op]);
    f[2] = potential_mills(variant, us, them) - potential_mills(variant, them, us);
    f[3] = i32::from(board.mill_count(us)) - i32::from(board.mill_count(them));
    for (c, sign) in [(me, 1), (op, -1)] {
        if !will_slide(variant, pos, c) {
            continue;
        }
        let mine = pos.stones[c];
        let n = slides(variant, mine, empty);
        f[4] += sign * n;
        if let Some(k) = usize::try_from(n).ok().filter(|&k| k <= 4) {
            f[CRAMPED_0 + k] += sign;
        }
        f[10] += sign * mobile_stones(variant, mine, empty);
        f[14] += sign * running_mills(variant, mine, empty);
        if c == op && n == 0 && slides_only(variant, pos, op) {
            f[11] = i32::from(variant.stalemate == Stalemate::Loss);
        }
    }
    let threats = closable_threats(variant, pos, op).count_ones() as i32;
    f[12] = threats;
    f[13] = i32::from(threats >= 2);
    f[15] = stone_degree(variant, us) - stone_degree(variant, them);
    for (c, sign) in [(me, 1), (op, -1)] {
        if pos.in_hand[c] > 0 {
            f[16] +=
                sign * fork_points(variant, pos.stones[c], pos.stones[1 - c]).count_ones() as i32;
        }
    }
    f[FEATURES - 1] = 1;
    f
}

/// The neighbours of the points of `stones`, summed.
#[inline]
fn stone_degree(variant: &Variant, stones: Bits) -> i32 {
    let board = variant.board();
    points(stones)
        .map(|p| board.adjacent(p).count_ones() as i32)
        .sum()
}

/// The empty points that lie on at least two lines holding one stone of `mine` and none of
/// `theirs`: a stone placed there makes two lines of two at once.
fn fork_points(variant: &Variant, mine: Bits, theirs: Bits) -> Bits {
    let (mut once, mut twice) = (0, 0);
    for &m in variant.board().mills() {
        if (m & mine).count_ones() == 1 && m & theirs == 0 {
            let free = m & !mine;
            twice |= once & free;
            once |= free;
        }
    }
    twice
}

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

/// The empty points where side `c` (by index) closes a mill on its next turn: by placing
/// (stones in hand), flying, or sliding a stone from outside the line.
fn closable_threats(variant: &Variant, pos: &Position, c: usize) -> Bits {
    let board = variant.board();
    let (mine, theirs) = (pos.stones[c], pos.stones[1 - c]);
    let empty = pos.empty(variant);
    let anywhere = pos.in_hand[c] > 0 || variant.flies(mine.count_ones() as u8, pos.in_hand[c]);
    board.mills().iter().fold(0, |acc, &m| {
        let point = m & !mine;
        if (m & mine).count_ones() != 2 || m & theirs != 0 || point & empty == 0 {
            return acc;
        }
        let p = point.trailing_zeros() as u8;
        if anywhere || board.adjacent(p) & mine & !m != 0 {
            acc | point
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

/// Stones of `mine` with at least one empty neighbour.
#[inline]
fn mobile_stones(variant: &Variant, mine: Bits, empty: Bits) -> i32 {
    let board = variant.board();
    points(mine)
        .filter(|&p| board.adjacent(p) & empty != 0)
        .count() as i32
}

/// Slides of a stone standing in a closed mill of `mine` to an empty neighbour where it
/// closes another mill.
fn running_mills(variant: &Variant, mine: Bits, empty: Bits) -> i32 {
    let board = variant.board();
    let mut n = 0;
    for s in points(board.mill_stones(mine)) {
        let rest = mine & !(1 << s);
        for p in points(board.adjacent(s) & empty) {
            n += i32::from(board.in_mill(rest | 1 << p, p));
        }
    }
    n
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_position;
    use crate::game::position::Color;

    /// A position of the standard board from square names.
    fn position(white: &[&str], black: &[&str], hands: [u8; 2], to_move: Color) -> Position {
        let v = Variant::standard();
        let bits = |names: &[&str]| {
            names
                .iter()
                .fold(0, |acc, n| acc | 1 << v.board().point(n).unwrap())
        };
        Position::new([bits(white), bits(black)], hands, to_move)
    }

    fn feature(f: &[i32; FEATURES], name: &str) -> i32 {
        f[FEATURE_NAMES.iter().position(|&n| n == name).unwrap()]
    }

    #[test]
    fn the_start_has_only_the_tempo() {
        let v = Variant::standard();
        let f = features(&v, &Position::start(&v));
        let mut want = [0; FEATURES];
        want[FEATURES - 1] = 1;
        assert_eq!(f, want);
        assert_eq!(evaluate_with(&HAND_SET, &v, &Position::start(&v)), 5);
    }

    #[test]
    fn placing_terms_count_for_the_side_to_move() {
        let v = Variant::standard();
        // White d7 and g7 (a potential mill with a7 empty) to move against black's b2 alone,
        // white 7 in hand, black 8: material 9 : 9.
        let pos = parse_position(
            &v,
            "********/*****@**/OO****** w p p 2 7 1 8 0 0 0 0 0 0 0 0 1",
        )
        .unwrap();
        assert_eq!(pos, position(&["d7", "g7"], &["b2"], [7, 8], Color::White));
        let f = features(&v, &pos);
        // d7 has a7 and d6 free, g7 has g4: three slides; b2 has d2 and b4: two.
        let want = [
            ("material", 0),
            ("in-hand", -1),
            ("potential-mills", 1),
            ("closed-mills", 0),
            ("slides", 1),
            ("cramped-2", -1),
            ("cramped-3", 1),
            ("mobile-stones", 1),
            ("threats-against", 0),
            ("running-mills", 0),
            // d7 has three neighbours, g7 two; b2 two.
            ("stone-degree", 3),
            // d7's d6 and d5, g7's g4 and g1, b2's d2, f2, b4 and b6: no point on two lines.
            ("forks", 0),
            ("tempo", 1),
        ];
        for (name, value) in want {
            assert_eq!(feature(&f, name), value, "{name}");
        }
        assert_eq!(f.iter().map(|x| x.abs()).sum::<i32>(), 10);
        // The hand-set weights: a potential mill, one slide more, black more cramped.
        assert_eq!(
            evaluate_with(&HAND_SET, &v, &pos),
            18 + 8 + (-25) - (-55) + 5
        );
        // From black's side the same terms change sign (but the tempo).
        let mut theirs = pos;
        theirs.to_move = Color::Black;
        let g = features(&v, &theirs);
        // White's d7-g7 is a threat against black (white can place on a7).
        for i in 0..FEATURES - 1 {
            let threat = i32::from(FEATURE_NAMES[i] == "threats-against");
            assert_eq!(g[i], threat - f[i], "{}", FEATURE_NAMES[i]);
        }
    }

    #[test]
    fn threats_against_count_points_the_opponent_can_fill() {
        let v = Variant::standard();
        // Moving phase. Black b6 and f6 with d6 empty; white to move.
        let base_white = ["a1", "d1", "g1", "a4", "g4"];
        // A black stone on d5 slides to d6: a threat. (Black d5 is outside the line b6-f6.)
        let pos = position(&base_white, &["b6", "f6", "d5", "c3"], [0, 0], Color::White);
        let f = features(&v, &pos);
        assert_eq!(feature(&f, "threats-against"), 1);
        assert_eq!(feature(&f, "double-threat-against"), 0);
        // Without a black stone next to d6 the line is no threat yet.
        let pos = position(&base_white, &["b6", "f6", "c3", "e3"], [0, 0], Color::White);
        assert_eq!(feature(&features(&v, &pos), "threats-against"), 0);
        // With a stone in hand black can place there; c3-e3 is then a second line (d3).
        let pos = position(&base_white, &["b6", "f6", "c3", "e3"], [3, 1], Color::White);
        let f = features(&v, &pos);
        assert_eq!(feature(&f, "threats-against"), 2);
        assert_eq!(feature(&f, "double-threat-against"), 1);
    }

    #[test]
    fn forks_are_points_on_two_lines_of_one_stone() {
        let v = Variant::standard();
        // White a7 and g1: g7 lies on a7-d7-g7 and g7-g4-g1, a1 on a7-a4-a1 and a1-d1-g1.
        let pos = position(&["a7", "g1"], &["d2"], [7, 8], Color::White);
        assert_eq!(feature(&features(&v, &pos), "forks"), 2);
        // A black stone on d1 spoils a1's second line.
        let pos = position(&["a7", "g1"], &["d1"], [7, 8], Color::White);
        assert_eq!(feature(&features(&v, &pos), "forks"), 1);
        // Without stones in hand there is nothing to place.
        let pos = position(
            &["a7", "g1", "c3"],
            &["d1", "e3", "c5"],
            [0, 0],
            Color::White,
        );
        assert_eq!(feature(&features(&v, &pos), "forks"), 0);
    }

    #[test]
    fn a_running_mill_counts_its_slide() {
        let v = Variant::standard();
        // White's closed mill a7-d7-g7; d7 slides to d6 and closes b6-d6-f6.
        let white = ["a7", "d7", "g7", "b6", "f6"];
        let black = ["a1", "d2", "g1", "c3", "e3"];
        let pos = position(&white, &black, [0, 0], Color::Black);
        let f = features(&v, &pos);
        assert_eq!(feature(&f, "running-mills"), -1);
        assert_eq!(feature(&f, "closed-mills"), -1);
        // With black on d6 the mill runs no more.
        let pos = position(
            &white,
            &["d6", "d2", "g1", "c3", "e3"],
            [0, 0],
            Color::Black,
        );
        assert_eq!(feature(&features(&v, &pos), "running-mills"), 0);
    }

    #[test]
    fn a_cramped_side_pays_more_than_its_lost_slides() {
        // The hand-set penalty falls with every slide, and faster than a slide near zero.
        let cramped = &HAND_SET.moving[CRAMPED_0..CRAMPED_0 + 5];
        for n in 0..4 {
            assert!(cramped[n] < cramped[n + 1]);
        }
        assert!(cramped[1] - cramped[0] > HAND_SET.moving[4]);
    }

    #[test]
    fn blocked_opponent_scores() {
        let v = Variant::standard();
        let pos = parse_position(
            &v,
            "********/O*******/@OO@O@O@ w m s 5 0 4 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
        )
        .unwrap();
        // Black on d7, g1, a1, a7: d7's neighbours g7 (white), a7 (black), d6 (white); g1's g4
        // (white) and d1 (white); a1's d1 and a4 (white); a7's a4 and d7. No slide.
        let f = features(&v, &pos);
        assert_eq!(feature(&f, "blocked"), 1);
        assert_eq!(feature(&f, "cramped-0"), -1);
        assert!(evaluate_with(&HAND_SET, &v, &pos) > 250);
    }
}
