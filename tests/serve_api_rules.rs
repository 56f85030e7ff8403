//! The explorer's API under rule sets other than the standard game, through `millbase serve
//! --variant NAME` on a free port: the variant's options and whether tables follow them, the
//! board's diagonals and mills, marked points, the removals pending for either side, moves
//! with several removals, and the search in place of tables under rules tables do not follow.

mod common;

use common::{Server, encode};
use millbase::Variant;
use millbase::movegen::play;
use millbase::notation::{
    PositionInfo, format_position_info, parse_legal_move, parse_position_info,
};
use serde_json::Value as Json;

/// Play `moves` (combined convention) from the start of `v`: the position string at the end.
fn played(v: &Variant, moves: &[&str]) -> String {
    let mut pos = millbase::Position::start(v);
    for m in moves {
        let mv = parse_legal_move(v, &pos, m, Default::default()).unwrap();
        pos = play(v, &pos, mv);
    }
    format_position_info(v, &pos, PositionInfo::default())
}

/// `/api/moves` of `fen` on `server`.
fn moves_of(server: &Server, fen: &str) -> Json {
    let (status, body) = server.get_json(&format!("/api/moves?fen={}", encode(fen)));
    assert_eq!(status, 200, "{fen}: {body}");
    body
}

#[test]
fn rule_sets_the_tables_do_not_follow_get_marks_diagonals_and_the_search_only() {
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(empty.path(), &["--variant", "cham-gonu"]);
    let v = Variant::by_name("cham-gonu").unwrap();
    let (status, info) = server.get_json("/api/info");
    assert_eq!(status, 200, "{info}");
    assert_eq!(
        (
            &info["variant"],
            &info["label"],
            &info["stones"],
            &info["flying"]
        ),
        (
            &"cham-gonu".into(),
            &"cham-gonu".into(),
            &12.into(),
            &false.into()
        )
    );
    // Every option, key to value, as `millbase rules` names them.
    let rules = info["rules"].as_object().unwrap();
    assert_eq!(rules.len(), millbase::rules::KEYS.len());
    for (k, val) in v.rules() {
        assert_eq!(rules[k], val.as_str(), "{k}");
    }
    assert_eq!(rules["placing-mill"], "mark");
    assert_eq!(
        info["tables"],
        serde_json::json!({
            "supported": true,
            "unsupported": [],
            "placing": {"supported": false, "unsupported": ["placing-mill=mark"]},
        })
    );
    assert_eq!(info["board"]["mills"].as_array().unwrap().len(), 20);

    // White closes a7-d7-g7 by placing and removes a1: a1 is marked.
    let fen = played(&v, &["a7", "a1", "d7", "d1", "g7xa1"]);
    assert_eq!(fen.matches('X').count(), 1, "{fen}");
    let body = moves_of(&server, &fen);
    assert_eq!(body["fen"], fen.as_str());
    assert_eq!(body["marks"], serde_json::json!(["a1"]));
    assert_eq!(body["stones"]["black"], serde_json::json!(["d1"]));
    assert_eq!(
        body["removals"],
        serde_json::json!({"white": 0, "black": 0})
    );
    assert_eq!(body["remover"], Json::Null);
    let moves = body["moves"].as_array().unwrap();
    // Black places on any empty, unmarked point: 24 - 3 white - 1 black - 1 marked.
    assert_eq!(moves.len(), 19);
    assert!(
        moves
            .iter()
            .all(|m| m["to"] != "a1" && m["removes"] == serde_json::json!([]))
    );

    // No table is read: the probe is a 404 naming the option, with every move's search.
    let (status, probe) = server.get_json(&format!("/api/probe?fen={}", encode(&fen)));
    assert_eq!(status, 404, "{probe}");
    assert_eq!(
        probe["unsupported"],
        serde_json::json!(["placing-mill=mark"])
    );
    assert!(probe.get("command").is_none() && probe.get("sector").is_none());
    assert!(
        probe["error"]
            .as_str()
            .unwrap()
            .contains("placing-mill=mark")
    );
    assert_eq!(probe["search"]["source"], "search");
    let mut searched: Vec<&str> = probe["search"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let mut legal: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    searched.sort_unstable();
    legal.sort_unstable();
    assert_eq!(searched, legal);
    let (status, pv) = server.get_json(&format!("/api/pv?fen={}", encode(&fen)));
    assert_eq!(status, 404, "{pv}");
    assert_eq!(pv["unsupported"], serde_json::json!(["placing-mill=mark"]));
    // The variant of a request is the one served, by its label.
    let (status, _) = server.get_json(&format!(
        "/api/moves?variant=cham-gonu&fen={}",
        encode(&fen)
    ));
    assert_eq!(status, 200);
    let (status, _) = server.get_json(&format!("/api/moves?variant=std&fen={}", encode(&fen)));
    assert_eq!(status, 400);
}

#[test]
fn the_twelve_mens_morris_board_has_its_diagonals_and_twenty_mills() {
    let empty = tempfile::tempdir().unwrap();
    let names = |lines: &Json| -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> = lines
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                let mut l: Vec<String> = serde_json::from_value(l.clone()).unwrap();
                l.sort();
                l
            })
            .collect();
        out.sort();
        out
    };
    let diagonals = [["a7", "b6"], ["b6", "c5"], ["f6", "g7"], ["e5", "f6"]]
        .into_iter()
        .chain([["a1", "b2"], ["b2", "c3"], ["f2", "g1"], ["e3", "f2"]])
        .map(|l| vec![l[0].to_string(), l[1].to_string()]);
    let server = Server::start(empty.path(), &["--variant", "twelve-mens-morris"]);
    let (_, info) = server.get_json("/api/info");
    assert_eq!(info["label"], "twelve-mens-morris");
    assert_eq!(info["rules"]["diagonals"], "on");
    assert_eq!(info["rules"]["stones"], "12");
    assert_eq!(
        info["tables"],
        serde_json::json!({
            "supported": true,
            "unsupported": [],
            "placing": {"supported": true, "unsupported": []},
        })
    );
    // 20 mills of three points; their 40 segments are the lines between neighbours.
    let mills = names(&info["board"]["mills"]);
    assert_eq!(mills.len(), 20);
    for m in [
        ["a7", "b6", "c5"],
        ["e5", "f6", "g7"],
        ["a1", "b2", "c3"],
        ["e3", "f2", "g1"],
    ] {
        assert!(mills.contains(&m.map(String::from).to_vec()), "{m:?}");
    }
    let lines = names(&info["board"]["lines"]);
    assert_eq!(lines.len(), 40);
    for d in diagonals.clone() {
        assert!(lines.contains(&d), "{d:?}");
    }
    drop(server);
    // The standard board: no diagonal, 16 mills, 32 lines; tables follow its rules.
    let server = Server::start(empty.path(), &[]);
    let (_, info) = server.get_json("/api/info");
    assert_eq!(
        (&info["variant"], &info["label"]),
        (&"std".into(), &"std".into())
    );
    assert_eq!(info["rules"]["diagonals"], "off");
    assert_eq!(info["tables"]["supported"], true);
    assert_eq!(names(&info["board"]["mills"]).len(), 16);
    let lines = names(&info["board"]["lines"]);
    assert_eq!(lines.len(), 32);
    for d in diagonals {
        assert!(!lines.contains(&d), "{d:?}");
    }
}

#[test]
fn pending_removals_of_either_side_and_moves_with_several_removals() {
    let empty = tempfile::tempdir().unwrap();
    // Da San Qi: multiple removals. White's d6 closes the row b6-d6-f6 and the column
    // d5-d6-d7 at once: two removals in one move.
    let v = Variant::by_name("da-san-qi").unwrap();
    let server = Server::start(empty.path(), &["--variant", "da-san-qi"]);
    let opening = ["b6", "a1", "f6", "g1", "d5", "a4", "d7", "g4"];
    let before = played(&v, &opening);
    let body = moves_of(&server, &before);
    let double: Vec<&Json> = body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["to"] == "d6")
        .collect();
    // Two of the four black stones, each pair once; written with both removals.
    assert_eq!(double.len(), 6, "{double:?}");
    for m in &double {
        let removes = m["removes"].as_array().unwrap();
        assert_eq!(removes.len(), 2, "{m}");
        assert_eq!(m["remove"], removes[0]);
        let text = format!(
            "d6x{}x{}",
            removes[0].as_str().unwrap(),
            removes[1].as_str().unwrap()
        );
        assert_eq!(m["move"], text.as_str());
        assert_eq!(
            m["fen"].as_str().unwrap(),
            played(&v, &[&opening[..], &[text.as_str()]].concat())
        );
    }
    // The placement alone leaves white two removals to make.
    let (pos, _) = parse_position_info(&v, &before).unwrap();
    let d6 = v.board().point("d6").unwrap();
    let after = play(&v, &pos, millbase::Move::place(d6));
    let fen = format_position_info(&v, &after, PositionInfo::default());
    let body = moves_of(&server, &fen);
    assert_eq!(
        body["removals"],
        serde_json::json!({"white": 2, "black": 0})
    );
    assert_eq!(
        (&body["remover"], &body["pending_removal"]),
        (&"white".into(), &true.into())
    );
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert!(
        moves
            .iter()
            .all(|m| m["to"].is_null() && m["removes"].as_array().unwrap().len() == 1)
    );
    drop(server);

    // El Filja: a board filled by placing; no mills on either side: each removes one of its
    // own stones, white first.
    let v = Variant::by_name("el-filja").unwrap();
    let server = Server::start(empty.path(), &["--variant", "el-filja"]);
    let mut pos = millbase::Position::start(&v);
    while pos.in_hand != [0, 0] {
        let moves = millbase::movegen::legal_moves(&v, &pos, Default::default());
        pos = play(&v, &pos, moves[0]);
    }
    let fen = format_position_info(&v, &pos, PositionInfo::default());
    let body = moves_of(&server, &fen);
    let r = [pos.removals[0], pos.removals[1]];
    assert!(r[0] != 0 && r[1] != 0, "{fen}");
    assert_eq!(
        body["removals"],
        serde_json::json!({"white": r[0], "black": r[1]})
    );
    assert_eq!(
        (&body["remover"], &body["to_move"]),
        (&"white".into(), &"white".into())
    );
    if r[0] < 0 {
        // Its own stones: every removal is of a white stone.
        let white = body["stones"]["white"].as_array().unwrap();
        for m in body["moves"].as_array().unwrap() {
            assert!(white.contains(&m["remove"]), "{m}");
        }
    }
}

/// The explorer's search rows where the mover moves again: under `moving-first=black` Black
/// places the last stone and moves first. Every row the search proves has the kind that the
/// tables (solved separately, probed by the library) give — negating Black's own search value
/// after its last placement turned wins into losses — and the last placement that closes a
/// mill and leaves White two stones is a win in one.
#[test]
fn search_rows_where_the_mover_moves_again() {
    let rule = ["--variant", "three", "--rule", "moving-first=black"];
    let v = Variant::from_rules("three", &["moving-first=black"]).unwrap();
    // Five placements, then Black's last one closes a mill: found by a walk over the moves.
    fn find(v: &Variant, pos: &millbase::Position, depth: usize) -> Option<millbase::Position> {
        use millbase::movegen::{Convention, legal_moves};
        if depth == 5 {
            let wins = legal_moves(v, pos, Convention::Combined)
                .into_iter()
                .any(|mv| {
                    let next = play(v, pos, mv);
                    next.total(millbase::Color::White) < 3
                });
            return wins.then_some(*pos);
        }
        for mv in legal_moves(v, pos, Convention::Combined) {
            let next = play(v, pos, mv);
            if next.pending_removal() || next.total(next.to_move) < 3 {
                continue;
            }
            if let Some(found) = find(v, &next, depth + 1) {
                return Some(found);
            }
        }
        None
    }
    let before = find(&v, &millbase::Position::start(&v), 0).expect("a mill by the last stone");
    assert_eq!(before.to_move, millbase::Color::Black);
    let fen = format_position_info(&v, &before, PositionInfo::default());

    let tables = tempfile::tempdir().unwrap();
    let (code, _, err) = common::millbase(&[
        "generate",
        "--quiet",
        "--all",
        "--variant",
        "three",
        "--rule",
        "moving-first=black",
        "--dir",
        tables.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let tb = millbase::Tablebase::open(tables.path(), v).unwrap();
    let by_tables: Vec<(String, &str)> = tb
        .move_values(&before)
        .unwrap()
        .into_iter()
        .map(|m| (millbase::notation::format_move(&v, m.mv), m.value.kind()))
        .collect();

    // No tables where the explorer looks: its probe answers with the search.
    let empty = tempfile::tempdir().unwrap();
    let server = Server::start(empty.path(), &rule);
    let (status, probe) = server.get_json(&format!("/api/probe?fen={}", encode(&fen)));
    assert_eq!(status, 404, "{probe}");
    let rows = probe["search"]["moves"].as_array().unwrap();
    assert_eq!(rows.len(), by_tables.len(), "{probe}");
    let mut proved = 0;
    for row in rows {
        let mv = row["move"].as_str().unwrap();
        let (_, kind) = by_tables.iter().find(|(m, _)| m == mv).unwrap();
        if mv.contains('x') {
            assert_eq!(
                (&row["value"], &row["plies"]),
                (&"win".into(), &1.into()),
                "{row}"
            );
        }
        if let Some(searched) = row["value"].as_str().filter(|k| *k != "draw") {
            assert_eq!(searched, *kind, "{mv}: {row}");
            proved += 1;
        }
    }
    assert!(proved > 0, "{probe}");
}
