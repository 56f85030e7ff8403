//! Integration tests of rule choice on the command line (`--variant`, `--rule`, `rules`),
//! positions with moves, the refusal of rules that tables do not follow, and perft figures
//! counted by hand.

use std::process::{Command, Output};

fn millbase(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .output()
        .expect("run millbase")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// Run and expect success; return standard output.
fn ok(args: &[&str]) -> String {
    let out = millbase(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Run and expect an input error: exit status 2, one line on standard error containing every
/// fragment, nothing on standard output. Returns the line.
fn fails(args: &[&str], fragments: &[&str]) -> String {
    let out = millbase(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for f in fragments {
        assert!(err.contains(f), "{args:?}: {f:?} not in {err}");
    }
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(stdout(&out), "", "{args:?}");
    err
}

fn perft(variant: &str, depth: u32) -> u64 {
    let d = depth.to_string();
    ok(&["perft", "--variant", variant, "--split-removal", &d])
        .trim()
        .parse()
        .unwrap()
}

/// Every named set (millbase's variants and the app's thirteen).
const SETS: [&str; 18] = [
    "std",
    "lasker",
    "twelve",
    "six",
    "three",
    "nine-mens-morris",
    "twelve-mens-morris",
    "morabaraba",
    "dooz",
    "lasker-morris",
    "one-time-mill",
    "cham-gonu",
    "zhi-qi",
    "cheng-san-qi",
    "da-san-qi",
    "mul-mulan",
    "nerenchi",
    "el-filja",
];

#[test]
fn bad_rules_are_one_line_with_status_2() {
    fails(
        &["moves", "--rule", "flies=3", "start"],
        &["unknown rule key 'flies'", "fly"],
    );
    fails(
        &["perft", "--rule", "fly=5", "1"],
        &["rule fly=5: fly takes 3, 4 or off"],
    );
    fails(&["perft", "--rule", "fly", "1"], &["not KEY=VALUE"]);
    fails(
        &[
            "perft",
            "--variant",
            "std",
            "--rule",
            "board-full=draw",
            "1",
        ],
        &["impossible rules", "board-full=draw", "never fill"],
    );
    fails(
        &["perft", "--variant", "six", "--rule", "stones=12", "1"],
        &["impossible rules", "stones=12", "six board"],
    );
    fails(
        &["perft", "--variant", "chess", "1"],
        &["unknown variant 'chess'", "cham-gonu", "el-filja"],
    );
    // The same for a command that reads tables, before any table is looked at.
    fails(
        &[
            "probe",
            "--dir",
            "/nonexistent",
            "--rule",
            "capture=maybe",
            "start",
        ],
        &["rule capture=maybe: capture takes none, intervention"],
    );
}

#[test]
fn help_lists_every_rule_set() {
    let help = ok(&["moves", "--help"]);
    for set in SETS {
        assert!(help.contains(set), "{set} not in the help of --variant");
    }
    assert!(help.contains("--rule <KEY=VALUE>"), "{help}");
}

#[test]
fn positions_the_rules_cannot_have_are_refused() {
    // A mark under the standard game.
    let marked = "X*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";
    fails(&["moves", marked], &["invalid position", "marked point"]);
    // The same string is a position of Cham Gonu (stones still in hand)...
    let moves = ok(&["moves", "--variant", "cham-gonu", marked]);
    assert_eq!(moves.lines().count(), 23, "{moves}");
    // ... but not once both hands are empty.
    let after = "OOO*X***/@@@*****/******** w m p 3 0 3 0 0 0 0 0 0 0 0 0 1";
    fails(
        &["moves", "--variant", "cham-gonu", after],
        &["invalid position", "marked point", "no stone is in hand"],
    );
    // More stones than the rules give a side.
    let ten = "********/********/******** w p p 0 10 0 9 0 0 0 0 0 0 0 0 1";
    fails(&["moves", ten], &["invalid position", "in hand"]);
    let ten = "OOOOOOOO/OO******/******** b m p 10 0 0 9 0 0 0 0 0 0 0 0 1";
    fails(&["perft", "--position", ten, "1"], &["invalid position"]);
}

#[test]
fn lines_of_moves() {
    // A bad move inside a line: named with its number.
    fails(
        &["moves", "start moves d6 d6"],
        &["invalid line", "move 2 'd6'", "illegal move d6"],
    );
    fails(
        &["perft", "--position", "start moves d6 zz", "1"],
        &["move 2 'zz'", "unknown square"],
    );
    // 24 - 2 stones on the board.
    assert_eq!(
        ok(&["moves", "start", "moves", "d6", "f4"]).lines().count(),
        22
    );
    // White closes a7-d7-g7 and removes b2, in either convention: black then places on one
    // of the 20 empty points; under Cham Gonu b2 is marked, and 19 remain.
    let split = "start moves a7 b2 d7 f2 g7 xb2";
    let combined = "start moves a7 b2 d7 f2 g7xb2";
    for line in [split, combined] {
        let std = ok(&["moves", line]);
        assert_eq!(std.lines().count(), 20, "{line}: {std}");
        assert!(std.lines().any(|m| m == "b2"), "{line}");
        let cham = ok(&["moves", "--variant", "cham-gonu", line]);
        assert_eq!(cham.lines().count(), 19, "{line}: {cham}");
        assert!(!cham.lines().any(|m| m == "b2"), "{line}");
    }
    // A pending removal at the end of a line: the removals are the moves (either convention).
    for conv in [&[][..], &["--split-removal"][..]] {
        let mut args = vec!["moves"];
        args.extend_from_slice(conv);
        args.push("start moves a7 b2 d7 f2 g7");
        let text = ok(&args);
        let mut removals: Vec<&str> = text.split_whitespace().collect();
        removals.sort_unstable();
        assert_eq!(removals, ["xb2", "xf2"], "{args:?}");
    }
    // perft from a line: one placement less each side.
    assert_eq!(
        ok(&["perft", "--position", "start moves d6 f4", "1"]).trim(),
        "22"
    );
}

#[test]
fn rules_prints_every_option() {
    let text = ok(&["rules", "--variant", "cham-gonu"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "variant cham-gonu");
    for expected in [
        "stones 12",
        "diagonals on",
        "fly off",
        "remove-from-mills always",
        "placing-mill mark",
        "board-full white-loses",
    ] {
        assert!(lines.contains(&expected), "{expected}: {text}");
    }
    let text = ok(&[
        "rules",
        "--rule",
        "fly=off",
        "--rule",
        "capture=intervention",
    ]);
    assert_eq!(
        text.lines().next(),
        Some("variant std+fly=off+capture=intervention")
    );
    assert!(text.contains("\nfly off\n") && text.contains("\ncapture intervention\n"));
}

#[test]
fn rules_json_of_cham_gonu() {
    let text = ok(&["rules", "--variant", "cham-gonu", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["variant"], "cham-gonu");
    assert_eq!(doc["name"], "cham-gonu");
    let fp = doc["fingerprint"].as_str().unwrap();
    assert_eq!(fp.len(), 16, "{fp}");
    assert!(fp.chars().all(|c| c.is_ascii_hexdigit()), "{fp}");
    let rules = doc["rules"].as_object().unwrap();
    assert_eq!(rules.len(), 15, "{rules:?}");
    assert_eq!(rules["stones"], "12");
    assert_eq!(rules["diagonals"], "on");
    assert_eq!(rules["fly"], "off");
    assert_eq!(rules["remove-from-mills"], "always");
    assert_eq!(rules["placing-mill"], "mark");
    assert_eq!(rules["capture"], "none");
    assert_eq!(doc["tables"], "supported");
    assert_eq!(
        doc["placing_tables"],
        serde_json::json!(["placing-mill=mark"])
    );
    // The standard game's tables are supported, with another fingerprint.
    let std: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "--variant", "nine-mens-morris", "--json"])).unwrap();
    assert_eq!(std["variant"], "std");
    assert_eq!(std["tables"], "supported");
    assert_eq!(std["placing_tables"], "supported");
    assert_ne!(std["fingerprint"], doc["fingerprint"]);
}

#[test]
fn rules_list_names_every_set() {
    let text = ok(&["rules", "--list"]);
    for set in SETS {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(set)),
            "{set}: {text}"
        );
    }
    let line = text
        .lines()
        .find(|l| l.starts_with("cheng-san-qi "))
        .unwrap();
    assert!(
        line.contains("fly=off") && line.contains("placing-mill=mark"),
        "{line}"
    );
    let list: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "--list", "--json"])).unwrap();
    assert_eq!(list.as_array().unwrap().len(), SETS.len());
}

#[test]
fn table_commands_refuse_rules_tables_do_not_follow() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("tables");
    let d = d.to_str().unwrap();
    let unsupported = "tables are not available for these rules yet";
    fails(
        &[
            "generate",
            "--quiet",
            "--variant",
            "one-time-mill",
            "--dir",
            d,
            "3-3",
        ],
        &[unsupported, "one-time-mill=on"],
    );
    assert!(!dir.path().join("tables").exists(), "nothing is written");
    // The placing phase under marks: refused, naming the option and what is supported.
    fails(
        &[
            "generate",
            "--quiet",
            "--variant",
            "cham-gonu",
            "--dir",
            d,
            "--all",
        ],
        &[
            "tables of the placing phase",
            "placing-mill=mark",
            "the moving phase's are",
        ],
    );
    assert!(!dir.path().join("tables").exists(), "nothing is written");
    let cases: [&[&str]; 9] = [
        &[
            "stats",
            "--variant",
            "std",
            "--rule",
            "stalemate=pass",
            "--rule",
            "repeated-mills=restricted",
            "--dir",
            d,
        ],
        &["probe", "--variant", "one-time-mill", "--dir", d, "start"],
        &[
            "pv",
            "--variant",
            "twelve",
            "--rule",
            "stalemate=pass",
            "--rule",
            "repeated-mills=restricted",
            "--dir",
            d,
            "start",
        ],
        &["probe", "--batch", "--variant", "one-time-mill", "--dir", d],
        &["verify", "--variant", "one-time-mill", "--dir", d],
        &["stats", "--variant", "one-time-mill", "--dir", d],
        &["compact", "--variant", "one-time-mill", "--dir", d, d],
        &[
            "export",
            "--format",
            "malom",
            "--variant",
            "one-time-mill",
            "--dir",
            d,
            d,
        ],
        &[
            "generate",
            "--rule",
            "stalemate=pass",
            "--rule",
            "repeated-mills=restricted",
            "--dir",
            d,
        ],
    ];
    for args in cases {
        fails(args, &[unsupported]);
    }
    // The library refuses them too, before touching the directory.
    let v = millbase::Variant::by_name("one-time-mill").unwrap();
    let e = millbase::generate(
        &v,
        &dir.path().join("lib"),
        &["3-3".parse().unwrap()],
        &millbase::GenerateOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&e, millbase::GenerateError::UnsupportedRules { rules, placing: None, .. } if rules == &["one-time-mill=on"]),
        "{e}"
    );
    let cham = millbase::Variant::by_name("cham-gonu").unwrap();
    let placing: millbase::Sector = "11-11-1-1".parse().unwrap();
    let e = millbase::generate(
        &cham,
        &dir.path().join("lib"),
        &[placing],
        &millbase::GenerateOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&e, millbase::GenerateError::UnsupportedRules { rules, placing: Some(s), .. } if rules == &["placing-mill=mark"] && *s == placing),
        "{e}"
    );
    assert!(!dir.path().join("lib").exists());
    // Moves and perft work under them.
    assert_eq!(perft("cham-gonu", 1), 24);
}

#[test]
fn twelve_mens_morris_tables_are_solved() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("tables");
    let d = d.to_str().unwrap();
    ok(&[
        "generate",
        "--quiet",
        "--variant",
        "twelve-mens-morris",
        "--dir",
        d,
        "3-3",
    ]);
    let stats = ok(&["stats", "--variant", "twelve-mens-morris", "--dir", d]);
    assert!(stats.contains("3-3"), "{stats}");
    // Another variant's tables stay refused.
    fails(
        &["stats", "--variant", "twelve", "--dir", d],
        &["table of variant 'twelve-mens-morr', expected 'twelve'"],
    );
}

/// Perft counted by hand. At depth 1 to 3 from the start no side can close a mill (a side
/// has at most two stones) or capture (a side needs two stones to be jumped between), so
/// every ply places on an empty point: p, p(p-1), p(p-1)(p-2) on a board of p points.
/// Under Lasker rules White may also slide its one stone at ply 3: over all (first white,
/// first black) placements that adds sum_w (deg(w) * 23 - deg(w)) = 22 * 2E slides, E = 32
/// lines between adjacent points of the standard board: 12144 + 1408.
#[test]
fn perft_by_hand() {
    for set in SETS {
        let p: u64 = match set {
            "six" => 16,
            "three" => 9,
            _ => 24,
        };
        assert_eq!(perft(set, 1), p, "{set}");
        assert_eq!(perft(set, 2), p * (p - 1), "{set}");
        let three = match set {
            "lasker" | "lasker-morris" => 24 * 23 * 22 + 22 * 2 * 32,
            _ => p * (p - 1) * (p - 2),
        };
        assert_eq!(perft(set, 3), three, "{set}");
    }
    // Mul Mulan at depth 5: black's second stone placed between White's two at the ends of a
    // line captures both (20 lines with the diagonals, 2 orders of White's stones, 21 points
    // for Black's first stone), and White then has 22 empty points instead of 20.
    assert_eq!(
        perft("mul-mulan", 5),
        24 * 23 * 22 * 21 * 20 + 20 * 2 * 21 * 2
    );
    // --depth D is DEPTH.
    let two = ok(&[
        "perft",
        "--variant",
        "da-san-qi",
        "--depth",
        "2",
        "--split-removal",
    ]);
    assert_eq!(two.trim(), (24 * 23).to_string());
}

#[test]
fn tables_of_other_rules_and_of_another_endgame_rule_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("da-san-qi");
    let d = d.to_str().unwrap();
    ok(&[
        "generate",
        "--quiet",
        "--variant",
        "da-san-qi",
        "--dir",
        d,
        "3-3",
    ]);
    // Read under one option changed: the option is named.
    fails(
        &[
            "probe",
            "--variant",
            "da-san-qi",
            "--rule",
            "fly=3",
            "--dir",
            d,
            "start",
        ],
        &["3-3-0-0.mbw", "solved with other rules: fly=off"],
    );
    // Two options changed: both are named.
    let line = fails(
        &[
            "probe",
            "--variant",
            "da-san-qi",
            "--rule",
            "fly=3",
            "--rule",
            "multiple-removals=off",
            "--dir",
            d,
            "start",
        ],
        &["solved with other rules"],
    );
    assert!(
        line.contains("fly=off") && line.contains("multiple-removals=on"),
        "{line}"
    );
    // Morabaraba's tables under the 100-move rule follow its endgame rule (10 while a side
    // has three stones), which their headers record: read under another endgame N, they are
    // refused, both rules named.
    let m = dir.path().join("morabaraba");
    let m = m.to_str().unwrap();
    ok(&[
        "generate",
        "--quiet",
        "--variant",
        "morabaraba",
        "--n-move-rule",
        "100",
        "--dir",
        m,
        "3-3",
    ]);
    let stats = ok(&["stats", "--variant", "morabaraba", "--dir", m]);
    assert!(
        stats.contains("3-3-0-0") && stats.contains("the 10-move rule where a side has three"),
        "{stats}"
    );
    fails(
        &[
            "probe",
            "--variant",
            "morabaraba",
            "--rule",
            "endgame-n-move-rule=20",
            "--dir",
            m,
            "start",
        ],
        &[
            "3-3-0-0.mbw",
            "endgame-n-move-rule=10",
            "endgame-n-move-rule=20",
        ],
    );
    // No generate adds tables of another endgame N to the directory.
    fails(
        &[
            "generate",
            "--quiet",
            "--variant",
            "morabaraba",
            "--rule",
            "endgame-n-move-rule=100",
            "--n-move-rule",
            "100",
            "--dir",
            m,
            "3-4",
        ],
        &["3-3-0-0.mbw", "no lower endgame N-move rule"],
    );
}
