//! `millbase play` with scripted input: the board after every move, the tables' value,
//! an illegal move answered with the reason and the legal moves, `hint`, `undo`, the
//! engine's replies, a removal as its own action, and the result with its reason.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const BIN: &str = env!("CARGO_BIN_EXE_millbase");

/// White to move, 3 against 3: white wins in 7 plies (d5-e3 or d3-e5 first).
const WIN7: &str = "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(BIN)
            .args(["generate", "--quiet", "--dir"])
            .arg(dir.path())
            .arg("3-4")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        dir
    })
    .path()
}

/// Run `millbase play ARGS` with `input` on standard input: (status, stdout, stderr).
fn play(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The lines of `text` that contain `what`.
fn lines_with<'a>(text: &'a str, what: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(what)).collect()
}

#[test]
fn a_won_endgame_played_to_the_end() {
    let dir = tables().to_str().unwrap();
    // hint; an illegal placement; a losing move taken back; then the win in 7 plies:
    // white's moves d5-e3 d3-e4 e3-g4 e4-g1 against the engine's (deterministic) replies,
    // and the removal.
    let input = "hint\nd5\nd5-a1\nundo\nd5-e3\nd3-e4\ne3-g4\ne4-g1\nxd5\nxd1\n";
    let (code, out, err) = play(&["--dir", dir, WIN7], input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert!(
        out.starts_with(
            "millbase play: you are white, the engine is black. Type 'help' for help.\n"
        )
    );
    assert!(
        out.contains(&format!("tables: 3 sectors in {dir}\n")),
        "{out}"
    );
    // The board with coordinates, first as given.
    let board = "\
7 @-----------@-----------O
  |           |           |
6 |   .-------.-------.   |
  |   |       |       |   |
5 |   |   .---O---.   |   |
  |   |   |       |   |   |
4 .---.---.       .---.---.
  |   |   |       |   |   |
3 |   |   .---O---.   |   |
  |   |       |       |   |
2 |   .-------.-------.   |
  |           |           |
1 .-----------@-----------.
  a   b   c   d   e   f   g
white (O) to move; in hand: white 0, black 0
value: white wins in 7 plies
";
    assert!(out.contains(board), "{out}");
    assert!(
        out.contains("white to move> hint\nhint: d5-e3 d3-e5 (win in 7 plies)\n"),
        "{out}"
    );
    let illegal = "white to move> d5\nillegal move d5: white has no stones in hand to place\n\
                   legal moves: d5-e5 d5-e4 ";
    assert!(out.contains(illegal), "{out}");
    // d5-a1 throws the win away; the engine answers from the tables; undo takes both back.
    assert!(out.contains("value: black wins in 11 plies\n"), "{out}");
    assert!(out.contains("took back d5-a1 a7-d6\n"), "{out}");
    // The engine's replies come from the tables; the value counts down to the end.
    let replies = lines_with(&out, "black (engine) plays");
    assert_eq!(
        replies,
        [
            "black (engine) plays a7-d6 (from the tables)",
            "black (engine) plays d7-c3 (from the tables)",
            "black (engine) plays c3-e5 (from the tables)",
            "black (engine) plays e5-f4 (from the tables)",
        ]
    );
    for n in [
        "6 plies", "5 plies", "4 plies", "3 plies", "2 plies", "1 ply",
    ] {
        assert!(
            out.contains(&format!("value: white wins in {n}\n")),
            "{n}: {out}"
        );
    }
    // After the mill, a removal of its own; an illegal one lists the legal ones.
    assert!(out.contains(
        "white, remove a stone of black (x<square>)> xd5\n\
                          illegal move xd5: d5 has no black stone to remove\n\
                          legal moves: xf4 xd1 xa7\n"
    ));
    assert!(
        out.ends_with("game over: white wins: black has fewer than three stones\n"),
        "{out}"
    );
}

#[test]
fn the_engine_moves_first_when_you_play_black() {
    let none = tempfile::tempdir().unwrap();
    let dir = none.path().to_str().unwrap();
    let (code, out, err) = play(
        &["--dir", dir, "--as", "black", "--movetime", "30"],
        "moves\na1\nundo\nundo\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("you are black, the engine is white"), "{out}");
    assert!(
        out.contains(&format!(
            "tables: none in {dir}; the engine searches everywhere\n"
        )),
        "{out}"
    );
    let first = lines_with(&out, "white (engine) plays ");
    assert_eq!(first.len(), 2, "a first move and a reply to a1: {out}");
    assert!(first[0].contains("(search depth "), "{out}");
    // 23 placements are left for black.
    let legal = lines_with(&out, "legal moves: ");
    assert_eq!(legal[0].split_whitespace().count(), 2 + 23, "{out}");
    let took_back = lines_with(&out, "took back a1 ");
    assert_eq!(took_back.len(), 1, "{out}");
    assert!(
        out.contains("black to move> undo\nnothing to undo\n"),
        "{out}"
    );
    assert!(
        out.ends_with("black to move> quit\ngame abandoned\n"),
        "{out}"
    );
}

#[test]
fn bad_arguments_exit_with_status_2() {
    for (args, fragment) in [
        (
            &["--as", "red"][..],
            "--as: 'red' is not a side (white or black)",
        ),
        (&["--variant", "go"][..], "unknown variant 'go'"),
        (&["not a position"][..], "invalid position 'not a position'"),
        (&["--movetime", "0"][..], "--movetime must be at least 1 ms"),
    ] {
        let (code, out, err) = play(args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("millbase: error: "), "{err}");
        assert!(err.contains(fragment), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(out, "");
    }
}

#[test]
fn cham_gonu_is_played_with_marks_and_diagonals() {
    // The line sets up a7 and d7 for white; g7 closes a7-d7-g7 and xa1 takes black's a1,
    // whose point stays marked while stones are in hand: placing there is refused.
    let (code, out, err) = play(
        &[
            "--variant",
            "cham-gonu",
            "--movetime",
            "50",
            "start moves a7 a1 d7 d1",
        ],
        "g7\nxa1\na1\nquit\n",
    );
    assert_eq!(code, 0, "{err}");
    // The diagonal board: a7-b6 is drawn as a diagonal under rank 7.
    assert!(out.contains("7 O-----------O-----------.\n  | \\"), "{out}");
    // After the removal: the mark on a1 ('X' at the start of rank 1) and the engine's reply.
    assert!(
        out.lines().any(|l| l.starts_with("1 X-----------@")),
        "{out}"
    );
    assert_eq!(lines_with(&out, "black (engine) plays").len(), 1, "{out}");
    assert!(
        out.contains("a1 is marked: no stone may be placed there until placing ends"),
        "{out}"
    );
}
