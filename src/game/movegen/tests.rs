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

fn sq(v: &Variant, name: &str) -> u8 {
    v.board().point(name).unwrap()
}

fn set(v: &Variant, names: &[&str]) -> Bits {
    names.iter().fold(0, |m, n| m | 1 << sq(v, n))
}

fn pos(v: &Variant, white: &[&str], black: &[&str], hands: [u8; 2], to_move: Color) -> Position {
    Position {
        stones: [set(v, white), set(v, black)],
        in_hand: hands,
        to_move,
        ..Position::start(v)
    }
}

#[test]
fn multiple_removals_remove_one_stone_per_mill_closed() {
    let v = Variant::by_name("da-san-qi").unwrap();
    // White d7 closes a7-d7-g7 and d7-d6-d5 at once.
    let p = pos(
        &v,
        &["a7", "g7", "d6", "d5"],
        &["a1", "g1", "b4", "f4"],
        [5, 5],
        Color::White,
    );
    let moves = legal_moves(&v, &p, Convention::Combined);
    let d7: Vec<&Move> = moves.iter().filter(|m| m.to == sq(&v, "d7")).collect();
    // Every pair of the four black stones, once.
    assert_eq!(d7.len(), 6);
    assert!(d7.iter().all(|m| m.removals().count() == 2));
    let split = play(&v, &p, Move::place(sq(&v, "d7")));
    assert_eq!((split.to_move, split.removals), (Color::White, [2, 0]));
    let once = play(&v, &split, Move::removal(sq(&v, "a1")));
    assert_eq!((once.to_move, once.removals), (Color::White, [1, 0]));
    let twice = play(&v, &once, Move::removal(sq(&v, "g1")));
    assert_eq!((twice.to_move, twice.removals), (Color::Black, [0, 0]));
    assert_eq!(
        twice.marks,
        set(&v, &["a1", "g1"]),
        "placing-mill=mark marks both points"
    );
}

#[test]
fn marks_block_placement_and_vanish_when_placing_ends() {
    let v = Variant::by_name("cham-gonu").unwrap();
    let mut p = pos(&v, &["a7", "d7", "b2"], &["a1", "b4"], [2, 2], Color::White);
    p = play(&v, &p, Move::place(sq(&v, "g7")));
    p = play(&v, &p, Move::removal(sq(&v, "a1")));
    assert_eq!(p.marks, set(&v, &["a1"]));
    let moves = legal_moves(&v, &p, Convention::Split);
    assert!(!moves.iter().any(|m| m.to == sq(&v, "a1")));
    p = play(&v, &p, Move::place(sq(&v, "g1")));
    p = play(&v, &p, Move::place(sq(&v, "d1")));
    assert_eq!(
        (p.in_hand, p.marks),
        ([0, 1], set(&v, &["a1"])),
        "black still has a stone"
    );
    p = play(&v, &p, Move::place(sq(&v, "c3")));
    assert_eq!((p.in_hand, p.marks), ([0, 0], 0));
}

#[test]
fn from_hand_takes_the_opponents_stone_and_again_keeps_the_turn() {
    let dooz = Variant::by_name("dooz").unwrap();
    let p = pos(&dooz, &["a7", "d7"], &["a1", "b2"], [10, 10], Color::White);
    let next = play(&dooz, &p, Move::place(sq(&dooz, "g7")));
    assert_eq!((next.in_hand, next.to_move), ([9, 9], Color::Black));
    assert_eq!(next.stones[1], p.stones[1]);
    let again = dooz.with_rule("placing-mill", "from-hand-again").unwrap();
    let next = play(&again, &p, Move::place(sq(&dooz, "g7")));
    assert_eq!((next.in_hand, next.to_move), ([9, 9], Color::White));
}

#[test]
fn intervention_captures_both_flanking_stones() {
    let v = Variant::by_name("mul-mulan").unwrap();
    let p = pos(&v, &["a4"], &["a7", "a1"], [8, 7], Color::White);
    let moves = legal_moves(&v, &p, Convention::Combined);
    assert!(moves.contains(&Move::place(sq(&v, "b4"))));
    // a7-a4-a1 is a line with a4 in the middle: a4 is taken, so place next to it instead.
    let p = pos(&v, &[], &["a7", "a1", "d7"], [9, 6], Color::White);
    let next = play(&v, &p, Move::place(sq(&v, "a4")));
    assert_eq!(next.stones[1], set(&v, &["d7"]));
}

#[test]
fn moving_first_black_gives_black_the_first_move() {
    let v = Variant::by_name("nerenchi").unwrap();
    let p = pos(&v, &["a7", "a1", "g1"], &["b6", "f6"], [0, 1], Color::Black);
    let next = play(&v, &p, Move::place(sq(&v, "d7")));
    assert_eq!((next.in_hand, next.to_move), ([0, 0], Color::Black));
    let std = Variant::standard();
    let p = pos(
        &std,
        &["a7", "a1", "g1"],
        &["b6", "f6"],
        [0, 1],
        Color::Black,
    );
    assert_eq!(
        play(&std, &p, Move::place(sq(&std, "d7"))).to_move,
        Color::White
    );
}

#[test]
fn one_time_mill_gives_no_removal_for_a_used_line() {
    let v = Variant::by_name("one-time-mill").unwrap();
    let mut p = pos(
        &v,
        &["a7", "d7", "g4"],
        &["a1", "b4", "f4"],
        [0, 0],
        Color::White,
    );
    p.used_mill_points[0] = set(&v, &["a7", "d7", "g7"]);
    let moves = legal_moves(&v, &p, Convention::Combined);
    assert!(moves.contains(&Move::slide(sq(&v, "g4"), sq(&v, "g7"))));
    assert!(!moves.iter().any(|m| m.to == sq(&v, "g7") && m.removes()));
}

#[test]
fn repeated_mills_restricted_bars_the_slide_straight_back() {
    let v = Variant::by_name("morabaraba").unwrap();
    // White closed a7-d7-g7 by g4-g7; sliding g7-g4 closes g4-f4-e4 and is barred.
    let mut p = pos(
        &v,
        &["a7", "d7", "g7", "f4", "e4"],
        &["a1", "b4", "d1", "c3"],
        [0, 0],
        Color::White,
    );
    p.last_mill_slide[0] = (sq(&v, "g4"), sq(&v, "g7"));
    let moves = legal_moves(&v, &p, Convention::Split);
    assert!(!moves.contains(&Move::slide(sq(&v, "g7"), sq(&v, "g4"))));
    p.last_mill_slide[0] = NO_SLIDE;
    let moves = legal_moves(&v, &p, Convention::Split);
    assert!(moves.contains(&Move::slide(sq(&v, "g7"), sq(&v, "g4"))));
}

#[test]
fn stalemate_actions() {
    // White a7 is boxed in by black d7 and a4; black can move.
    let base = Variant::standard().with_rule("fly", "off").unwrap();
    let p = pos(
        &base,
        &["a7", "g1", "d1", "a1"],
        &["d7", "a4", "b6", "f2", "d2", "b2", "g4"],
        [0, 0],
        Color::White,
    );
    // g1: g4 black, d1 white; d1: d2 black, a1 white, g1 white; a1: a4 black, d1 white.
    assert_eq!(outcome(&base, &p), Some(Outcome::Loss));
    let draw = base.with_rule("stalemate", "draw").unwrap();
    assert_eq!(outcome(&draw, &p), Some(Outcome::Draw));
    let pass = base.with_rule("stalemate", "pass").unwrap();
    assert_eq!(settle(&pass, &p).to_move, Color::Black);
    let rm = base.with_rule("stalemate", "remove-and-move").unwrap();
    let s = settle(&rm, &p);
    assert_eq!(
        (s.to_move, s.removals, s.adjacent_removal),
        (Color::White, [1, 0], true)
    );
    // Adjacent to white stones: d7, a4, g4, d2 — mill protection ignored.
    assert_eq!(removable(&rm, &s), set(&rm, &["d7", "a4", "g4", "d2"]));
    let after = play(&rm, &s, Move::removal(sq(&rm, "d7")));
    assert_eq!(after.to_move, Color::White, "moves again");
    let rp = base.with_rule("stalemate", "remove-and-pass").unwrap();
    let after = play(&rp, &settle(&rp, &p), Move::removal(sq(&rp, "d7")));
    assert_eq!(after.to_move, Color::Black);
}
