//! Property tests of the game model over random positions of every variant, and perft figures.
//!
//! Positions come from random games (random legal moves from the initial position, in either
//! convention, so some are remove-pending) and from random placements of stones.

use millbase::movegen::{Convention, legal_moves, perft, play, unmoves};
use millbase::notation::{format_position, parse_position};
use millbase::rules::{NO_SQUARE, VARIANTS};
use millbase::{Color, Move, Position, Variant};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Play up to `len` random legal moves from the initial position.
fn random_game(v: &Variant, seed: u64, len: usize, conv: Convention) -> Position {
    let mut rng = Rng(seed);
    let mut pos = Position::start(v);
    for _ in 0..len {
        let moves = legal_moves(v, &pos, conv);
        if moves.is_empty() {
            break;
        }
        pos = play(v, &pos, moves[rng.below(moves.len())]);
    }
    pos
}

/// Random stones on the board and in hand, within the variant's limits; never remove-pending.
fn random_placement(v: &Variant, seed: u64) -> Position {
    let mut rng = Rng(seed);
    let n = v.board().len();
    let s = v.stones as usize;
    let mut pos = Position::start(v);
    let mut free: Vec<u8> = (0..n as u8).collect();
    for c in 0..2 {
        let on_board = rng.below(s.min(free.len()) + 1);
        for _ in 0..on_board {
            let p = free.swap_remove(rng.below(free.len()));
            pos.stones[c] |= 1 << p;
        }
        pos.in_hand[c] = rng.below(s - on_board + 1) as u8;
    }
    if rng.below(2) == 1 {
        pos.to_move = Color::Black;
    }
    pos
}

/// A random position of a random variant.
fn position() -> impl Strategy<Value = (Variant, Position)> {
    (0..VARIANTS.len(), any::<u64>(), 0usize..160, 0u8..3).prop_map(|(vi, seed, len, kind)| {
        let v = VARIANTS[vi];
        let pos = match kind {
            0 => random_game(&v, seed, len, Convention::Combined),
            1 => random_game(&v, seed, len, Convention::Split),
            _ => random_placement(&v, seed),
        };
        (v, pos)
    })
}

/// A random position that is not remove-pending (the combined convention's positions).
fn settled_position() -> impl Strategy<Value = (Variant, Position)> {
    position().prop_filter("not remove-pending", |(_, p)| !p.pending_removal())
}

fn map_square(perm: &[u8], sq: u8) -> u8 {
    if sq == NO_SQUARE {
        sq
    } else {
        perm[sq as usize]
    }
}

fn map_move(perm: &[u8], mv: Move) -> Move {
    Move {
        from: map_square(perm, mv.from),
        to: map_square(perm, mv.to),
        remove: map_square(perm, mv.remove),
        more: mv.more.map(|sq| map_square(perm, sq)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn position_strings_round_trip(
        (v, pos) in position(),
        squares in prop::array::uniform4(0usize..25),
    ) {
        let text = format_position(&v, &pos);
        prop_assert!(text.ends_with(" ids:nodes"), "{}", text);
        prop_assert_eq!(parse_position(&v, &text), Ok(pos), "{}", text);
        // Any last-mill squares, as node ids (with or without the marker) or as legacy ids
        // (without it): the same position. `squares[k] % (n + 1)` is none or a point.
        let n = v.board().len();
        let points: Vec<Option<usize>> = squares
            .iter()
            .map(|&s| (s % (n + 1)).checked_sub(1))
            .collect();
        let ids = |none: i64, base: i64| -> String {
            let ids: Vec<String> = points
                .iter()
                .map(|p| p.map_or(none, |p| p as i64 + base).to_string())
                .collect();
            ids.join(" ")
        };
        let fields: Vec<&str> = text.split(' ').collect();
        let (head, tail) = (fields[..10].join(" "), fields[14..17].join(" "));
        for form in [
            format!("{head} {} {tail} ids:nodes", ids(-1, 0)),
            format!("{head} {} {tail}", ids(-1, 0)),
            format!("{head} {} {tail}", ids(0, 8)),
        ] {
            prop_assert_eq!(parse_position(&v, &form), Ok(pos), "{}", form);
        }
    }

    #[test]
    fn moves_are_undone_by_unmoves((v, pos) in settled_position()) {
        for mv in legal_moves(&v, &pos, Convention::Combined) {
            let next = play(&v, &pos, mv);
            prop_assert!(!next.pending_removal());
            let back = unmoves(&v, &next);
            prop_assert!(
                back.contains(&(mv, pos)),
                "{:?} from {} to {} not among its un-moves",
                mv, format_position(&v, &pos), format_position(&v, &next)
            );
        }
    }

    #[test]
    fn unmoves_lead_back((v, pos) in settled_position()) {
        let back = unmoves(&v, &pos);
        let distinct: HashSet<_> = back.iter().collect();
        prop_assert_eq!(distinct.len(), back.len(), "duplicate un-moves");
        for (mv, pred) in back {
            prop_assert!(!pred.pending_removal());
            prop_assert!(
                legal_moves(&v, &pred, Convention::Combined).contains(&mv),
                "{:?} not legal in predecessor {}", mv, format_position(&v, &pred)
            );
            prop_assert_eq!(play(&v, &pred, mv), pos);
        }
    }

    #[test]
    fn symmetries_map_move_sets((v, pos) in position()) {
        let board = v.board();
        for conv in [Convention::Combined, Convention::Split] {
            let moves = legal_moves(&v, &pos, conv);
            for (sym, perm) in board.symmetries().iter().enumerate() {
                let image = pos.transformed(&v, sym);
                let mapped: BTreeSet<Move> = moves.iter().map(|&m| map_move(perm, m)).collect();
                let direct: BTreeSet<Move> = legal_moves(&v, &image, conv).into_iter().collect();
                prop_assert_eq!(mapped, direct);
            }
        }
    }

    #[test]
    fn conventions_reach_the_same_positions((v, pos) in settled_position()) {
        let combined: BTreeSet<_> = legal_moves(&v, &pos, Convention::Combined)
            .into_iter()
            .map(|m| key(&play(&v, &pos, m)))
            .collect();
        let mut split = BTreeSet::new();
        for m in legal_moves(&v, &pos, Convention::Split) {
            let next = play(&v, &pos, m);
            if next.pending_removal() {
                for r in legal_moves(&v, &next, Convention::Split) {
                    prop_assert!(r.is_lone_removal());
                    split.insert(key(&play(&v, &next, r)));
                }
            } else {
                split.insert(key(&next));
            }
        }
        prop_assert_eq!(combined, split);
    }
}

/// An ordered key for a position (positions are not `Ord`).
fn key(p: &Position) -> (u32, u32, u8, u8, Color, bool) {
    (
        p.stones[0],
        p.stones[1],
        p.in_hand[0],
        p.in_hand[1],
        p.to_move,
        p.pending_removal(),
    )
}

/// Perft in the combined convention counted independently: walk the split convention's tree
/// and count a move that leaves a removal pending together with its removal as one ply.
fn combined_by_split(v: &Variant, pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in legal_moves(v, pos, Convention::Split) {
        let next = play(v, pos, m);
        if next.pending_removal() {
            for r in legal_moves(v, &next, Convention::Split) {
                n += combined_by_split(v, &play(v, &next, r), depth - 1);
            }
        } else {
            n += combined_by_split(v, &next, depth - 1);
        }
    }
    n
}

#[test]
fn perft_split_from_empty_board() {
    let v = Variant::standard();
    let start = Position::start(&v);
    let expect = [24u64, 552, 12_144, 255_024];
    for (d, &n) in expect.iter().enumerate() {
        assert_eq!(perft(&v, &start, d as u32 + 1, Convention::Split), n);
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow without optimisation; run cargo test --release"
)]
fn perft_split_depth_5() {
    let v = Variant::standard();
    assert_eq!(
        perft(&v, &Position::start(&v), 5, Convention::Split),
        5_100_480
    );
}

/// Combined-convention perft from the initial position of each variant, as printed in the
/// README: (variant, figures for depths 1, 2, ...).
const COMBINED_PERFT: [(&str, &[u64]); 5] = [
    ("std", &[24, 552, 12_144, 255_024, 5_140_800, 99_274_176]),
    ("lasker", &[24, 552, 13_552, 319_176, 7_911_352]),
    ("twelve", &[24, 552, 12_144, 255_024, 5_150_880]),
    ("six", &[16, 240, 3_360, 43_680, 531_648]),
    (
        "three",
        &[9, 72, 504, 3_024, 16_200, 63_936, 173_664, 485_568],
    ),
];

#[test]
fn perft_combined_closed_form() {
    // Without moves while placing, the first four plies are placements on empty points and
    // the fifth is white's third stone: n(n-1)(n-2)(n-3)(n-4) sequences in the split
    // convention. In the combined one, each sequence whose three white stones form one of
    // the board's mills (3! orders, (n-3)(n-4) placements of black's two stones) has two
    // removals instead of one move.
    for (name, mills) in [("std", 16u64), ("twelve", 20), ("six", 8), ("three", 6)] {
        let v = Variant::by_name(name).unwrap();
        let n = v.board().len() as u64;
        let split = n * (n - 1) * (n - 2) * (n - 3) * (n - 4);
        let closing = mills * 6 * (n - 3) * (n - 4);
        let figures = COMBINED_PERFT.iter().find(|f| f.0 == name).unwrap().1;
        assert_eq!(
            figures[..4],
            [n, n * (n - 1), n * (n - 1) * (n - 2), split / (n - 4)]
        );
        assert_eq!(figures[4], split + closing, "{name}");
        let start = Position::start(&v);
        assert_eq!(perft(&v, &start, 4, Convention::Combined), figures[3]);
    }
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow without optimisation; run cargo test --release"
)]
fn perft_combined_figures() {
    for (name, figures) in COMBINED_PERFT {
        let v = Variant::by_name(name).unwrap();
        let start = Position::start(&v);
        for (d, &n) in figures.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(
                perft(&v, &start, depth, Convention::Combined),
                n,
                "{name} depth {depth}"
            );
            assert_eq!(
                combined_by_split(&v, &start, depth),
                n,
                "{name} depth {depth}"
            );
        }
    }
}

/// Regression: a mill that removes the opponent's only stone on the board must be found by
/// `unmoves` (the opponent still has stones in hand, so the game goes on).
#[test]
fn unmove_restores_the_only_stone() {
    let v = Variant::by_name("twelve").unwrap();
    let before = parse_position(
        &v,
        "***@@*@*/***@***@/O***@@** b p p 1 6 7 2 0 0 0 0 0 0 0 0 1",
    )
    .unwrap();
    let mv =
        millbase::notation::parse_legal_move(&v, &before, "c3xd7", Convention::Combined).unwrap();
    let after = play(&v, &before, mv);
    assert_eq!(after.on_board(Color::White), 0);
    let back = unmoves(&v, &after);
    assert!(back.contains(&(mv, before)));
    // The same placement with no white stone on the board to remove is also a predecessor.
    let mut plain = before;
    plain.stones[0] = 0;
    assert!(back.contains(&(Move::place(mv.to), plain)));
}
