//! Unit tests for the position strings, and test helpers shared with the move tests.

use super::*;
use crate::game::movegen::{Convention, legal_moves};
use crate::game::position::{Color, Position};
use crate::game::rules::Variant;

pub(super) fn std() -> Variant {
    Variant::standard()
}

pub(super) fn pt(name: &str) -> u8 {
    std().board().point(name).unwrap()
}

pub(super) fn set(names: &[&str]) -> u32 {
    names.iter().fold(0, |m, n| m | 1 << pt(n))
}

const EMPTY: &str = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";
/// The empty board as Sanmill writes it (and as millbase prints every position).
const EMPTY_NODES: &str =
    "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
const MOVING: &str = "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

#[test]
fn rules_examples() {
    let v = std();
    let start = parse_position(&v, EMPTY).unwrap();
    assert_eq!(start, Position::start(&v));
    assert_eq!(format_position(&v, &start), EMPTY_NODES);
    assert_eq!(parse_position(&v, EMPTY_NODES), Ok(start));
    assert_eq!(parse_position(&v, "start"), Ok(start));

    let pos = parse_position(&v, MOVING).unwrap();
    assert_eq!(pos.to_move, Color::Black);
    assert_eq!(pos.in_hand, [0, 0]);
    assert!(!pos.pending_removal());
    assert_eq!(pos.stones[0], set(&["e3", "b6", "d7", "g7", "a7"]));
    assert_eq!(pos.stones[1], set(&["c4", "d6", "b2", "g4", "a4"]));
    let printed = format_position(&v, &pos);
    assert_eq!(
        printed,
        "***O**@*/@****@*O/OO@***@O b m s 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes"
    );
    assert_eq!(parse_position(&v, &printed), Ok(pos));
}

#[test]
fn liberal_forms() {
    let v = std();
    // Extra spaces, phase r/o, action p while moving, suffix tokens, legacy squares.
    let texts = [
        "  ********/********/********   w  r p 0 9 0 9 0 0 0 0 0 0 0 0 1 ",
        "***O**@*/@****@*O/OO@***@O b o p 5 0 5 0 0 0 8 31 0 0 0 0 1",
        "***O**@*/@****@*O/OO@***@O b m s 5 0 5 0 0 0 0 0 0 0 0 0 1 c:1 i:0 l:x p:3",
        "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 23 0 -1 -1 255 12 40 ids:nodes",
    ];
    for t in texts {
        assert!(
            parse_position(&v, t).is_ok(),
            "{t}: {:?}",
            parse_position(&v, t)
        );
    }
}

#[test]
fn remove_pending() {
    let v = std();
    // White has just placed a7, closing a7-d7-g7, and must remove a black stone.
    let text = "**O**O**/**@*@*@@/OO*****O w p r 5 4 4 5 1 0 0 0 0 0 0 0 1";
    let pos = parse_position(&v, text).unwrap();
    assert!(pos.pending_removal());
    assert_eq!(pos.to_move, Color::White);
    assert_eq!(
        format_position(&v, &pos),
        "**O**O**/**@*@*@@/OO*****O w p r 5 4 4 5 1 0 -1 -1 -1 -1 0 0 1 ids:nodes"
    );
    let moves = legal_moves(&v, &pos, Convention::Split);
    let names: Vec<String> = moves.iter().map(|&m| format_move(&v, m)).collect();
    assert_eq!(names, ["xf4", "xd2", "xb4", "xb6"]);
    let black = "**O**O**/**@*@*@@/OO*****O b p r 5 4 4 5 0 1 0 0 0 0 0 0 1";
    let pos = parse_position(&v, black).unwrap();
    assert_eq!((pos.to_move, pos.pending_removal()), (Color::Black, true));
}

#[test]
fn other_variants() {
    let six = Variant::by_name("six").unwrap();
    let start = Position::start(&six);
    let text = format_position(&six, &start);
    assert_eq!(
        text,
        "********/******** w p p 0 6 0 6 0 0 -1 -1 -1 -1 0 0 1 ids:nodes"
    );
    assert_eq!(parse_position(&six, &text), Ok(start));
    let three = Variant::by_name("three").unwrap();
    let text = "O*@/*O*/@** b p p 2 1 2 1 0 0 0 0 0 0 0 0 1";
    let pos = parse_position(&three, text).unwrap();
    let printed = format_position(&three, &pos);
    assert_eq!(
        printed,
        "O*@/*O*/@** b p p 2 1 2 1 0 0 -1 -1 -1 -1 0 0 1 ids:nodes"
    );
    assert_eq!(parse_position(&three, &printed), Ok(pos));
    let e = parse_position(&three, "O*@/*O*/@** b p p 2 1 2 1 0 0 17 0 0 0 0 0 1")
        .unwrap_err()
        .to_string();
    assert!(e.contains("from 8 to 16"), "{e}");
    let twelve = Variant::by_name("twelve").unwrap();
    assert_eq!(
        format_position(&twelve, &Position::start(&twelve)),
        "********/********/******** w p p 0 12 0 12 0 0 -1 -1 -1 -1 0 0 1 ids:nodes"
    );
}

#[test]
fn malformed_positions() {
    let v = std();
    let cases: &[(&str, &str)] = &[
        ("", "empty position string"),
        ("begin", "1 field(s), expected at least 17"),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0",
            "16 field(s)",
        ),
        (
            "********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "board field: 2 '/'-separated group(s), expected 3",
        ),
        (
            "********/*******/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "group 2 has 7 character(s), expected 8",
        ),
        (
            "********/********/*********w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "16 field(s)",
        ),
        (
            "****o***/********/******** w p p 1 8 0 9 0 0 0 0 0 0 0 0 1",
            "unknown character 'o' in group 1",
        ),
        (
            "********/**X*****/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "marked point (X) on f4: marks occur only under placing-mill=mark",
        ),
        (
            "********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "side to move: 'x', expected w (white) or b (black)",
        ),
        (
            "********/********/******** w q p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "phase: 'q'",
        ),
        (
            "********/********/******** w p z 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "action: 'z'",
        ),
        (
            "********/********/******** w p p 0 x 0 9 0 0 0 0 0 0 0 0 1",
            "white in hand: 'x', expected a whole number from 0 to 9",
        ),
        (
            "********/********/******** w p p 0 10 0 9 0 0 0 0 0 0 0 0 1",
            "white in hand: '10', expected a whole number from 0 to 9",
        ),
        (
            "********/********/******** w p p 0 9 0 -1 0 0 0 0 0 0 0 0 1",
            "black in hand: '-1'",
        ),
        (
            "********/********/******** w p p 0 9 0 +9 0 0 0 0 0 0 0 0 1",
            "black in hand: '+9'",
        ),
        (
            "O*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "white on board: the string says 0 but the board field has 1",
        ),
        (
            "********/********/@******* b p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "black on board: the string says 0 but the board field has 1",
        ),
        (
            "O*******/********/******** b p p 1 9 0 9 0 0 0 0 0 0 0 0 1",
            "white has 1 on board and 9 in hand, more than the 9 stones of variant std",
        ),
        (
            "********/********/******** w p p 0 9 0 9 2 0 0 0 0 0 0 0 1",
            "white to remove: 2, but these rules remove at most 1 stone(s) at a time",
        ),
        (
            "********/********/******** w p p 0 9 0 9 -1 0 0 0 0 0 0 0 1",
            "own stone (-1) only under placing-mill=by-mill-counts",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 x 0 0 0 0 0 0 1",
            "black to remove: 'x', expected a whole number",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 1 0 0 0 0 0 0 1",
            "only the side to move can have a removal pending",
        ),
        (
            "********/********/******** w p r 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "action r (remove) needs white to remove to be non-zero, found 0",
        ),
        (
            "********/********/******** w p p 0 9 0 9 1 0 0 0 0 0 0 0 1",
            "white to remove: 1, but the action is not r",
        ),
        (
            "O*******/********/******** w p r 1 8 0 9 1 0 0 0 0 0 0 0 1",
            "black has no stone on the board to remove",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 32 0 0 0 0 1",
            "white last-mill to square: '32', expected 0 (none) or a legacy id from 8 to 31, \
             or -1 (none) or a node id from 0 to 23",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 -2 0 0 0 1",
            "black last-mill from square: '-2'",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 x 0 0 0 0 1",
            "white last-mill to square: 'x', expected 0 (none) or a legacy id",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 31 0 0 1",
            "last-mill squares mix two numberings: white last-mill from square -1 is a node \
             id (-1 for none) but black last-mill to square 31 a legacy id",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 24 0 7 0 0 0 1",
            "black last-mill from square 7 is a node id",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 31 0 0 0 0 0 1 ids:nodes",
            "white last-mill from square: '31', expected -1 (none) or a node id from 0 to 23",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 24 0 0 1 ids:nodes",
            "black last-mill to square: '24', expected -1 (none) or a node id from 0 to 23",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 -1 -1 -1 -2 0 0 1 ids:nodes",
            "black last-mill to square: '-2'",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 -3 0 1",
            "formed-mills bitmask: '-3'",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 a 1",
            "plies since last removal or placement: 'a'",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 0",
            "full-move number: '0', expected a whole number of at least 1",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 q:2",
            "suffix: 'q:2'",
        ),
        (
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1 ids:legacy",
            "suffix: 'ids:legacy'",
        ),
    ];
    for (text, fragment) in cases {
        let err = parse_position(&v, text).unwrap_err().to_string();
        assert!(
            err.contains(fragment),
            "{text:?}:\n  got: {err}\n want: {fragment}"
        );
    }
}

#[test]
fn too_many_on_board_for_small_variants() {
    let three = Variant::by_name("three").unwrap();
    let e = parse_position(&three, "OOO/O**/@@@ w m s 4 0 3 0 0 0 0 0 0 0 0 0 1")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("white on board: '4', expected a whole number from 0 to 3"),
        "{e}"
    );
    let e = parse_position(&three, "OOO/***/@@@ w m s 3 1 3 0 0 0 0 0 0 0 0 0 1")
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than the 3 stones of variant three"), "{e}");
}

#[test]
fn the_counter_and_move_number_are_read_and_written() {
    let v = Variant::standard();
    let text = "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 -1 -1 -1 -1 0 37 12 ids:nodes";
    let (pos, info) = parse_position_info(&v, text).unwrap();
    assert_eq!(
        info,
        PositionInfo {
            counter: 37,
            full_move: 12
        }
    );
    let again = format_position_info(&v, &pos, info);
    assert_eq!(parse_position_info(&v, &again).unwrap(), (pos, info));
    assert_eq!(
        parse_position_info(&v, "start").unwrap().1,
        PositionInfo {
            counter: 0,
            full_move: 1
        }
    );
}

#[test]
fn square_ids_in_either_numbering() {
    let v = std();
    let pos = parse_position(&v, MOVING).unwrap();
    let with = |squares: &str, suffix: &str| {
        format!("***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 {squares} 0 0 1{suffix}")
    };
    // Node ids without the marker: -1 or 1..7 cannot be legacy ids (README's example
    // without its marker, and Sanmill strings whose marker was cut off).
    for squares in [
        "-1 -1 -1 -1",
        "-1 0 -1 -1",
        "3 7 -1 -1",
        "1 0 0 0",
        "5 23 12 -1",
    ] {
        assert_eq!(parse_position(&v, &with(squares, "")), Ok(pos), "{squares}");
    }
    // Legacy ids: 0 for none, 8..31; without the marker only.
    for squares in ["0 0 0 0", "8 31 0 0", "24 25 26 27", "0 0 9 10"] {
        assert_eq!(parse_position(&v, &with(squares, "")), Ok(pos), "{squares}");
    }
    // Node ids with the marker, wherever among the suffixes it stands.
    for (squares, suffix) in [
        ("-1 -1 -1 -1", " ids:nodes"),
        ("0 23 7 -1", " ids:nodes"),
        ("0 0 0 0", " c:1 ids:nodes p:3"),
    ] {
        assert_eq!(
            parse_position(&v, &with(squares, suffix)),
            Ok(pos),
            "{squares}"
        );
    }
    // The marker makes the ids node ids: legacy ids above 23 are out of range then.
    let e = parse_position(&v, &with("0 24 0 0", " ids:nodes")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "white last-mill to square: '24', expected -1 (none) or a node id from 0 to 23"
    );
    // Other boards have their own ranges: three has 9 points, node ids 0..8, legacy 8..16.
    let three = Variant::by_name("three").unwrap();
    let t = |squares: &str| format!("O*@/*O*/@** b p p 2 1 2 1 0 0 {squares} 0 0 1");
    assert!(parse_position(&three, &t("-1 8 -1 -1")).is_ok());
    assert!(parse_position(&three, &t("16 9 0 0")).is_ok());
    let e = parse_position(&three, &t("-1 9 0 0"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("mix two numberings"), "{e}");
}

#[test]
fn printed_positions_are_sanmills_form_and_read_back() {
    for v in crate::game::rules::VARIANTS {
        let start = Position::start(&v);
        let info = PositionInfo {
            counter: 17,
            full_move: 9,
        };
        let text = format_position_info(&v, &start, info);
        assert!(text.ends_with(" -1 -1 -1 -1 0 17 9 ids:nodes"), "{text}");
        assert_eq!(parse_position_info(&v, &text), Ok((start, info)), "{text}");
        // The legacy form of the same position reads the same.
        let legacy = text.replace(" -1 -1 -1 -1 0 17 9 ids:nodes", " 0 0 0 0 0 17 9");
        assert_eq!(
            parse_position_info(&v, &legacy),
            Ok((start, info)),
            "{legacy}"
        );
    }
}

mod rule_options {
    use crate::game::movegen::{Convention, Outcome, legal_moves, outcome, play};
    use crate::game::notation::parse_position;
    use crate::game::position::Color;
    use crate::game::rules::Variant;

    #[test]
    fn full_board_actions() {
        // Fill the diagonal board with 12 stones each where nobody has a mill: read it.
        let text = "@O@O@O@O/O@O@O@O@/@O@O@O@O w m s 12 0 12 0 0 0 0 0 0 0 0 0 1";
        for (set_name, expect) in [
            ("twelve", Some(Outcome::Draw)),
            ("twelve-mens-morris", Some(Outcome::Loss)),
            ("morabaraba", Some(Outcome::Draw)),
        ] {
            let v = Variant::by_name(set_name).unwrap();
            let p = parse_position(&v, text).unwrap();
            assert_eq!(outcome(&v, &p), expect, "{set_name}");
        }
        let zhi = Variant::by_name("zhi-qi").unwrap();
        let p = parse_position(&zhi, text).unwrap();
        assert_eq!((p.to_move, p.removals), (Color::White, [1, 1]));
        let r = legal_moves(&zhi, &p, Convention::Split)[0];
        let p = play(&zhi, &p, r);
        assert_eq!((p.to_move, p.removals), (Color::Black, [0, 1]));
        let r = legal_moves(&zhi, &p, Convention::Split)[0];
        let p = play(&zhi, &p, r);
        assert_eq!((p.to_move, p.removals), (Color::White, [0, 0]));
    }

    #[test]
    fn el_filja_removes_by_mill_counts_when_the_board_is_full() {
        let v = Variant::by_name("el-filja").unwrap();
        // White holds the mill a7-d7-g7 (one mill), black none.
        let text = "@O@O@O@O/O@O@O@O@/OO@@@O@O w m s 12 0 12 0 0 0 0 0 0 0 0 0 1";
        let p = parse_position(&v, text).unwrap();
        let board = v.board();
        let mills = |c: usize| {
            board
                .mills()
                .iter()
                .filter(|&&m| p.stones[c] & m == m)
                .count()
        };
        assert_eq!((mills(0), mills(1)), (1, 0), "{text}");
        assert_eq!((p.to_move, p.removals), (Color::White, [2, 1]));
    }
}

#[test]
fn marks_stay_while_the_removal_of_the_last_placement_is_pending() {
    use crate::game::movegen::play;
    let v = Variant::by_name("zhi-qi").unwrap();
    // Black's last placement closed a mill: both hands are empty, Black removes, the mark on
    // g7 vanishes only when that turn ends (as `play` leaves it, and the Sanmill app).
    let text = "OO@@OO@@/@OO@O@@O/@XO@@OOO b m r 12 0 11 0 0 1 -1 -1 -1 -1 0 0 1 ids:nodes";
    let p = parse_position(&v, text).unwrap();
    assert_eq!((p.in_hand, p.removals), ([0, 0], [0, 1]));
    assert_eq!(p.marks, 1 << v.board().point("g7").unwrap());
    assert_eq!(format_position(&v, &p), text);
    let r = legal_moves(&v, &p, Convention::Split)[0];
    let after = play(&v, &p, r);
    assert_eq!((after.marks, after.removals), (0, [0, 0]));
    // Without a removal pending, marks with empty hands are still refused.
    let done = "OO@@OO@@/@OO@O@@O/@XO@@OOO w m s 12 0 11 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
    assert!(
        matches!(
            parse_position(&v, done),
            Err(PositionError::BlockedPoint { .. })
        ),
        "{done}"
    );
}

mod combined_removals {
    use crate::game::movegen::{Convention, legal_moves, play};
    use crate::game::notation::parse_position;
    use crate::game::position::{Color, Move};
    use crate::game::rules::Variant;

    fn sq(v: &Variant, name: &str) -> u8 {
        v.board().point(name).unwrap()
    }

    #[test]
    fn combined_moves_carry_only_the_removals_of_their_mills() {
        // Black's last placement a1 closes the mill a1-a4-a7 (multiple-removals: one mill, one
        // removal); Black then moves first and, after removing c3, is blocked: the stalemate
        // removal that follows is a turn of its own, not part of the move a1xc3.
        let v = Variant::from_rules(
            "da-san-qi",
            &["placing-mill=remove", "stalemate=remove-and-move"],
        )
        .unwrap();
        let text = "O@O@OOO@/@OO@OO@O/O@@O@*@@ b p p 12 0 11 1 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
        let p = parse_position(&v, text).unwrap();
        let a1 = sq(&v, "a1");
        let split = play(&v, &p, Move::place(a1));
        assert_eq!((split.to_move, split.removals), (Color::Black, [0, 1]));
        let combined: Vec<Move> = legal_moves(&v, &p, Convention::Combined)
            .into_iter()
            .filter(|m| m.to == a1)
            .collect();
        let removable = legal_moves(&v, &split, Convention::Split);
        assert_eq!(combined.len(), removable.len());
        for m in combined {
            assert_eq!(m.removals().count(), 1, "{m:?}");
            let next = play(&v, &p, m);
            assert_eq!(next, play(&v, &split, Move::removal(m.remove)));
            assert!(next.removals.iter().all(|&r| r >= 0), "{next:?}");
        }
        // After xc3 Black is blocked and removes a stone next to its own as its own ply.
        let blocked = play(&v, &split, Move::removal(sq(&v, "c3")));
        assert_eq!(
            (blocked.to_move, blocked.removals, blocked.adjacent_removal),
            (Color::Black, [0, 1], true)
        );
    }
}
