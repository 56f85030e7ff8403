//! Scripted UCI sessions that switch rule sets by `setoption` (Sanmill's rule options and the
//! `Variant` combo): marks under cham-gonu, the standard game and back, El Filja's full board
//! (own-stone removals), Nerenchi's Black moving first after placing, impossible option
//! values (refused, the rules kept).

use millbase::engine::EngineConfig;
use millbase::engine::game::{DrawRules, Game};
use millbase::engine::matches::Rng;
use millbase::engine::uci::{UciStart, run};
use millbase::notation::format_move;
use millbase::{Color, Variant};
use std::io::Cursor;

/// Run a session (standard rules at the start, an empty table directory) on `input`.
fn session(input: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let start = UciStart {
        config: EngineConfig::new(Variant::standard(), dir.path().to_path_buf()),
        dir_given: true,
    };
    let mut out = Vec::new();
    run(start, Cursor::new(input.as_bytes().to_vec()), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The tokens of every `bestmove`, in order.
fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.rsplit_once(" bestmove ").map(|(_, t)| t.to_string()))
        .collect()
}

/// The position strings printed by `d`, in order.
fn fens(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string fen "))
        .map(str::to_string)
        .collect()
}

/// The legal actions printed by `d`, in order.
fn legals(lines: &[String]) -> Vec<Vec<String>> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string legal"))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn marks_under_cham_gonu_then_std_and_back() {
    // White a7, d7, g7 closes the top line; black a1, g1.
    let mill = "position startpos moves a7 a1 d7 g1 g7";
    let lines = session(&format!(
        "setoption name Variant value cham-gonu\n{mill}\ngo depth 2\nd\n\
         {mill} xa1\nd\n\
         setoption name Variant value std\n{mill} xa1\nd\n\
         setoption name Variant value cham-gonu\n{mill} xa1\nd\ngo depth 1\n"
    ));
    assert!(
        lines.contains(&"info string variant cham-gonu: position reset to the start".into()),
        "{lines:#?}"
    );
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 2, "{lines:#?}");
    assert!(
        best[0] == "xa1" || best[0] == "xg1",
        "a removal after the mill: {best:?}"
    );
    let legal = legals(&lines);
    let mut first = legal[0].clone();
    first.sort();
    assert_eq!(first, ["xa1", "xg1"], "{lines:#?}");
    let f = fens(&lines);
    assert_eq!(f.len(), 4, "{lines:#?}");
    let board = |fen: &str| fen.split_whitespace().next().unwrap().to_string();
    // Cham-gonu: the removed stone's point is marked; nobody places there.
    assert!(board(&f[1]).contains('X'), "{}", f[1]);
    assert!(!legal[1].contains(&"a1".to_string()), "{:?}", legal[1]);
    assert!(legal[1].contains(&"g4".to_string()));
    // The standard game: no mark, a1 may be placed on again.
    assert!(!board(&f[2]).contains('X'), "{}", f[2]);
    assert!(legal[2].contains(&"a1".to_string()), "{:?}", legal[2]);
    // Back to cham-gonu: the mark again, and the diagonal board (b6 is next to a7).
    assert_eq!(f[3], f[1]);
    assert_ne!(best[1], "a1");
    assert!(!best[1].starts_with('x'));
}

#[test]
fn el_filja_full_board_removes_own_stones() {
    // Corners of the outer and inner rings and the middle ring's mid-points white, the rest
    // black: twelve each, no mill for either side on a full board.
    let white = [
        "a7", "g7", "g1", "a1", "d6", "f4", "d2", "b4", "c5", "e5", "e3", "c3",
    ];
    let black = [
        "d7", "g4", "d1", "a4", "b6", "f6", "f2", "b2", "d5", "e4", "d3", "c4",
    ];
    let placements: Vec<&str> = white
        .iter()
        .zip(black.iter())
        .flat_map(|(w, b)| [*w, *b])
        .collect();
    let moves = placements.join(" ");
    let lines = session(&format!(
        "setoption name Variant value el-filja\nposition startpos moves {moves}\nd\ngo depth 2\n"
    ));
    let legal = legals(&lines);
    let mut own: Vec<String> = white.iter().map(|s| format!("x{s}")).collect();
    own.sort();
    let mut got = legal[0].clone();
    got.sort();
    assert_eq!(got, own, "White removes one of its own stones: {lines:#?}");
    let best = bestmoves(&lines);
    assert!(own.contains(&best[0]), "{best:?}");
    // Then Black removes one of its own, then White slides.
    let lines = session(&format!(
        "setoption name Variant value el-filja\n\
         position startpos moves {moves} {}\nd\ngo depth 2\n",
        best[0]
    ));
    let legal = legals(&lines);
    let mut black_own: Vec<String> = black.iter().map(|s| format!("x{s}")).collect();
    black_own.sort();
    let mut got = legal[0].clone();
    got.sort();
    assert_eq!(got, black_own, "{lines:#?}");
    assert!(fens(&lines)[0].contains(" b "), "{lines:#?}");
    assert!(black_own.contains(&bestmoves(&lines)[0]));
}

#[test]
fn nerenchi_black_moves_first_after_placing() {
    let v = Variant::by_name("nerenchi").unwrap();
    // A random placing phase that ends with the board not full and Black having placed last.
    let mut found = None;
    for seed in 1..200u64 {
        let mut rng = Rng::new(seed);
        let mut g = Game::from_start(v, DrawRules::of_variant(&v));
        let mut last_placer = Color::White;
        while g.position().in_hand != [0, 0] && g.result().is_none() {
            let acts = g.legal_actions();
            let a = acts[rng.below(acts.len())];
            if a.is_place() {
                last_placer = g.position().to_move;
            }
            g.play(a).unwrap();
        }
        let pos = *g.position();
        if g.result().is_none() && !pos.pending_removal() && last_placer == Color::Black {
            found = Some(g);
            break;
        }
    }
    let g = found.expect("a placing phase ending with a free point");
    assert_eq!(g.position().to_move, Color::Black);
    let moves = g.moves_text().join(" ");
    let lines = session(&format!(
        "setoption name Variant value nerenchi\nposition startpos moves {moves}\nd\ngo depth 2\n"
    ));
    let fen = &fens(&lines)[0];
    assert!(
        fen.contains(" b m "),
        "Black to move in the moving phase: {fen}"
    );
    let best = &bestmoves(&lines)[0];
    let black = g.position().stones[Color::Black.index()];
    let from = best.split('-').next().unwrap();
    let p = v.board().point(from).unwrap_or_else(|| panic!("{best}"));
    assert!(
        best.contains('-') && black & 1 << p != 0,
        "a black slide: {best}"
    );
    // The same game under the standard rules of twelve stones: White would move.
    let twelve = Variant::by_name("twelve-mens-morris").unwrap();
    let t = Game::from_text(twelve, DrawRules::of_variant(&twelve), "startpos", &[]).unwrap();
    assert_eq!(t.position().to_move, Color::White);
    let _ = format_move(&v, g.legal_actions()[0]);
}

#[test]
fn rule_options_change_the_rules_or_are_refused() {
    let lines = session(
        "setoption name BoardFullAction value 4\nd\n\
         setoption name PiecesCount value 12\nsetoption name HasDiagonalLines value true\n\
         setoption name BoardFullAction value 4\nsetoption name MayFly value false\n\
         setoption name StalemateAction value 9\nsetoption name CustodianCaptureEnabled value true\n\
         setoption name CustodianCaptureOnSquareEdges value true\n\
         position startpos moves a7 b6\nd\n",
    );
    let infos: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string "))
        .collect();
    assert!(
        infos[0].starts_with("setoption BoardFullAction: impossible rules: board-full=draw")
            && infos[0].ends_with("; rules unchanged"),
        "{infos:#?}"
    );
    // The standard position after the refused option: nine stones each.
    assert!(
        infos[1].starts_with("fen ") && infos[1].contains(" 0 9 0 9 "),
        "{infos:#?}"
    );
    let want = [
        "rules std+stones=12: position reset to the start",
        "rules std+stones=12+diagonals=on: position reset to the start",
        "rules std+stones=12+diagonals=on+board-full=draw: position reset to the start",
        "rules std+stones=12+diagonals=on+fly=off+board-full=draw: position reset to the start",
        "setoption StalemateAction: '9' is not a number from 0 to 5; rules unchanged",
        "setoption CustodianCaptureEnabled: 'true' is not supported (only false); rules unchanged",
        "unknown option 'CustodianCaptureOnSquareEdges' ignored",
    ];
    assert_eq!(infos[4..4 + want.len()], want, "{infos:#?}");
    // a7-b6 is a line of the diagonal board: b6 was placed (a legal placement), twelve stones.
    let fen = infos.iter().rev().find(|l| l.starts_with("fen ")).unwrap();
    assert!(fen.contains(" 1 11 1 11 "), "{fen}");
}
