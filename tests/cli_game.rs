//! Integration tests of the `moves` and `perft` commands, running the built binary.

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
    assert_eq!(stderr(&out), "", "{args:?}");
    stdout(&out)
}

/// Run and expect an input error: exit status 2, a message containing `fragment`, no panic.
fn fails(args: &[&str], fragment: &str) {
    let out = millbase(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(fragment), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{args:?}: {err}");
    assert_eq!(stdout(&out), "", "{args:?}");
}

const MOVING: &str = "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

/// White has just closed a7-d7-g7 and must remove one of black's four stones.
const PENDING: &str = "**O**O**/**@*@*@@/OO*****O w p r 5 4 4 5 1 0 0 0 0 0 0 0 1";

#[test]
fn moves_from_start() {
    let text = ok(&["moves", "start"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 24);
    assert_eq!(lines[..3], ["d5", "e5", "e4"]);
    assert_eq!(lines[23], "a7");
    let empty = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";
    assert_eq!(ok(&["moves", empty]), text);
}

#[test]
fn moves_in_moving_phase() {
    let expect = "c4-c3 c4-c5 c4-b4 d6-d5 d6-f6 b2-d2 b2-b4xe3 b2-b4xb6 g4-f4 g4-g1 a4-b4 a4-a1";
    let text = ok(&["moves", MOVING]);
    assert_eq!(
        text.split_whitespace().collect::<Vec<_>>().join(" "),
        expect
    );
    // Split convention: the mill-closing slide has no removal.
    let split = ok(&["moves", "--split-removal", MOVING]);
    assert!(split.lines().any(|l| l == "b2-b4"));
    assert!(!split.contains('x'));
    assert_eq!(split.lines().count(), 11);
    // The position may also be given as separate words, with options after it.
    let mut args = vec!["moves"];
    args.extend(MOVING.split(' '));
    args.push("--json");
    let json: Vec<String> = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(json.join(" "), expect);
}

#[test]
fn moves_json() {
    let out = ok(&["moves", "--json", "--variant", "three", "start"]);
    assert_eq!(
        out,
        "[\"a3\",\"b3\",\"c3\",\"a2\",\"b2\",\"c2\",\"a1\",\"b1\",\"c1\"]\n"
    );
    let pending = ok(&["moves", "--json", PENDING]);
    assert_eq!(pending, "[\"xf4\",\"xd2\",\"xb4\",\"xb6\"]\n");
    // A finished game has no moves.
    let over = "********/********/OO****@@ w m s 2 0 2 0 0 0 0 0 0 0 0 0 1";
    assert_eq!(ok(&["moves", "--json", over]), "[]\n");
    assert_eq!(ok(&["moves", over]), "");
}

#[test]
fn perft_figures() {
    assert_eq!(ok(&["perft", "1"]), "24\n");
    assert_eq!(ok(&["perft", "0"]), "1\n");
    assert_eq!(ok(&["perft", "--split-removal", "4"]), "255024\n");
    assert_eq!(ok(&["perft", "--split-removal", "5"]), "5100480\n");
    assert_eq!(ok(&["perft", "5"]), "5140800\n");
    assert_eq!(ok(&["perft", "--variant", "six", "5"]), "531648\n");
    assert_eq!(
        ok(&["perft", "--json", "--split-removal", "5"]),
        "{\"depth\":5,\"nodes\":5100480}\n"
    );
    assert_eq!(ok(&["perft", "--position", PENDING, "1"]), "4\n");
    // After each of the four removals black places on one of the 16 empty points.
    let split = ok(&["perft", "--position", PENDING, "--split-removal", "2"]);
    assert_eq!(split, "64\n");
    assert_eq!(ok(&["perft", "--position", MOVING, "1"]), "12\n");
}

#[test]
fn input_errors_exit_2() {
    fails(
        &["moves", "--variant", "nine", "start"],
        "millbase: error: unknown variant 'nine' (known variants: std, lasker, twelve, six, three, \
         nine-mens-morris, twelve-mens-morris, morabaraba, dooz, lasker-morris, one-time-mill, \
         cham-gonu, zhi-qi, cheng-san-qi, da-san-qi, mul-mulan, nerenchi, el-filja)",
    );
    fails(
        &["perft", "--variant", "", "1"],
        "unknown variant '' (known variants: std",
    );
    fails(
        &["moves", "begin"],
        "millbase: error: invalid position 'begin'",
    );
    fails(
        &[
            "moves",
            "********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
        ],
        "group 3 has 7 character(s), expected 8",
    );
    fails(
        &[
            "moves",
            "********/**X*****/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
        ],
        "marked point (X) on f4: marks occur only under placing-mill=mark",
    );
    fails(
        &["moves", "--variant", "six", "start", "x"],
        "invalid position 'start x'",
    );
    fails(
        &[
            "perft",
            "--position",
            "O*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "2",
        ],
        "white on board: the string says 0 but the board field has 1",
    );
    fails(
        &[
            "moves",
            "********/********/******** w p p 0 9 0 9 2 0 0 0 0 0 0 0 1",
        ],
        "white to remove: 2, but these rules remove at most 1 stone(s) at a time",
    );
    // Usage errors reported by the argument parser.
    fails(&["perft", "x"], "invalid value 'x'");
    fails(&["perft", "-3"], "");
    fails(&["perft"], "DEPTH");
    fails(&["moves"], "POSITION");
    fails(&["frobnicate"], "unrecognized subcommand");
    fails(&[], "Usage");
}

#[test]
fn error_messages_are_one_line() {
    let out = millbase(&["moves", "--variant", "nine", "start"]);
    assert_eq!(stderr(&out).lines().count(), 1);
    let out = millbase(&[
        "moves",
        "@@@@@@@@/********/******** w p p 0 9 8 2 0 0 0 0 0 0 0 0 1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1);
}

#[test]
fn help_lists_commands() {
    let text = ok(&["--help"]);
    assert!(text.contains("moves"));
    assert!(text.contains("perft"));
}
