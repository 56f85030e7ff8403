//! Scripted sessions of the UCI engine: an input transcript and the lines it must produce,
//! through the library's protocol driver (`engine::uci::run` on in-memory input and output)
//! and through the real binary on standard input and output. Every kind of bad input the
//! protocol may meet is here: unknown commands and options, bad option values, bad positions
//! (which keep the previous position), bad `go` parameters, blank lines and invalid UTF-8.

use millbase::Variant;
use millbase::engine::EngineConfig;
use millbase::engine::uci::{UciStart, run};
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// White to move, 3 against 3: white wins in 7 plies (d5-e3 or d3-e5 first).
const WIN7: &str = "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

/// The tables of 3-3 and 3-4/4-3, generated once for this test binary.
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_millbase"))
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

/// Run a session of the library driver on `input` with tables in `dir`.
fn session_in(dir: &Path, input: &[u8]) -> Vec<String> {
    let start = UciStart {
        config: EngineConfig::new(Variant::standard(), dir.to_path_buf()),
        dir_given: true,
    };
    let mut out = Vec::new();
    run(start, Cursor::new(input.to_vec()), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn session(input: &str) -> Vec<String> {
    session_in(tables(), input.as_bytes())
}

/// The move of a `... bestmove TOKEN` line.
fn bestmove(line: &str) -> &str {
    let (_, tok) = line
        .rsplit_once(" bestmove ")
        .unwrap_or_else(|| panic!("no bestmove in {line:?}"));
    tok
}

/// The value of `key` in an `info ...` line (`score` gives e.g. `mate 4`).
fn field(line: &str, key: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words
        .iter()
        .position(|&w| w == key)
        .unwrap_or_else(|| panic!("no {key} in {line:?}"));
    if key == "score" {
        format!("{} {}", words[i + 1], words[i + 2])
    } else {
        words[i + 1].to_string()
    }
}

fn answers(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.contains(" bestmove ")).collect()
}

#[test]
fn handshake_lists_the_options() {
    let lines = session("uci\nisready\nquit\n");
    assert_eq!(
        lines[0],
        concat!("id name millbase ", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    let options: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        options,
        [
            "TableDir",
            "UseTables",
            "Variant",
            "MoveTime",
            "Depth",
            "NMoveRule",
            "ThreefoldRepetitionRule",
            "Seed",
            "Hash",
            // Sanmill's rule options (docs/RULE-SETS.md; tests/uci_rules.rs).
            "PiecesCount",
            "flyPieceCount",
            "PiecesAtLeastCount",
            "HasDiagonalLines",
            "MayFly",
            "MayMoveInPlacingPhase",
            "IsDefenderMoveFirst",
            "MayRemoveMultiple",
            "MayRemoveFromMillsAlways",
            "RestrictRepeatedMillsFormation",
            "OneTimeUseMill",
            "StopPlacingWhenTwoEmptySquares",
            "EndgameNMoveRule",
            "MillFormationActionInPlacingPhase",
            "BoardFullAction",
            "StalemateAction",
            "InterventionCaptureEnabled",
            "CustodianCaptureEnabled",
            "LeapCaptureEnabled"
        ]
    );
    assert!(lines.contains(&"option name NMoveRule type spin default 100 min 0 max 4096".into()));
    assert!(lines.contains(&"option name MoveTime type spin default 0 min 0 max 3600".into()));
    let uciok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(uciok, 2 + options.len());
    assert_eq!(
        lines[uciok + 1],
        format!("info string tables: 3 sectors in {}", tables().display())
    );
    assert_eq!(lines[uciok + 2], "readyok");
    assert_eq!(lines.len(), uciok + 3, "{lines:?}");
}

#[test]
fn table_positions_are_answered_perfectly_with_split_removals() {
    let lines = session(&format!(
        "position fen {WIN7}\ngo\n\
         position fen {WIN7} moves d5-e3 d7-c3 d3-e4 c3-e5 e3-g4 e5-d5 e4-g1\ngo\n\
         position fen {WIN7} moves d5-e3\ngo depth 3\n"
    ));
    let a = answers(&lines);
    assert_eq!(a.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("info string tables: "));
    let lines = &lines[1..];
    // The position: win in 7 plies, 4 moves.
    assert_eq!(lines[0], "info string source=tables value=win plies=7");
    assert!(["d5-e3", "d3-e5"].contains(&bestmove(a[0])), "{}", a[0]);
    assert_eq!(field(a[0], "score"), "mate 4");
    // After the mill-closing slide e4-g1, the removal is its own answer.
    assert_eq!(lines[2], "info string source=tables value=win plies=1");
    assert!(bestmove(a[1]).starts_with('x'), "{}", a[1]);
    assert_eq!(field(a[1], "score"), "mate 1");
    // Black to move after one ply: loses in 6, so mate -3.
    assert_eq!(field(a[2], "score"), "mate -3");
}

#[test]
fn bad_input_is_reported_and_ignored() {
    let mut input = Vec::new();
    input.extend_from_slice(b"\n   \nfoo bar\n");
    input.extend_from_slice(b"\xff\xfe garbage \xc3\n");
    input.extend_from_slice(
        b"setoption name NoSuchOption value 3\n\
          setoption name MoveTime value soon\n\
          setoption name Variant value chess\n\
          setoption name UseTables value maybe\n\
          setoption name Hash value 0\n\
          setoption name NMoveRule value 4097\n\
          setoption name NMoveRule value -1\n\
          setoption\n",
    );
    input.extend_from_slice(format!("position fen {WIN7}\n").as_bytes());
    input.extend_from_slice(
        b"position fen O***O***/********/@O**@**@ w m s 3 0 9 0\n\
          position fen\n\
          position\n\
          position somewhere\n",
    );
    input.extend_from_slice(format!("position fen {WIN7} moves d5-e3 a1-a4\n").as_bytes());
    input.extend_from_slice(format!("position fen {WIN7} moves d5-e3 zz9\n").as_bytes());
    input.extend_from_slice(b"go movetime soon depth x nodes flying\nd\nquit\n");
    let lines = session_in(tables(), &input);
    let infos: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string "))
        .collect();
    let expect_prefixes = [
        "unknown command 'foo' ignored",
        "unknown command '",
        "unknown option 'NoSuchOption' ignored",
        "setoption MoveTime: 'soon' is not a number of seconds",
        "setoption Variant: 'chess' is not a variant (std, lasker, twelve, six, three, \
         nine-mens-morris,",
        "setoption UseTables: 'maybe' is not true or false",
        "setoption Hash: '0' is not a size in MiB",
        "setoption NMoveRule: 4097 is not in 0..=4096; unchanged",
        "setoption NMoveRule: -1 is not in 0..=4096; unchanged",
        "setoption: expected 'setoption name <name> value <value>'",
        "bad position: invalid position: position string has 8 field(s)",
        "bad position: 'fen' needs a position string",
        "bad position: expected 'startpos' or 'fen <position>'",
        "bad position: expected 'startpos' or 'fen <position>' (then 'moves ...'), found \
         'somewhere'",
        "bad position: move 2 'a1-a4': illegal move a1-a4",
        "bad position: move 2 'zz9': unknown square 'zz9'",
        "go: movetime needs a whole number, found 'soon'; ignored",
        "go: depth needs a whole number, found 'x'; ignored",
        "go: nodes needs a whole number, found 'flying'; ignored",
        &format!("tables: 3 sectors in {}", tables().display()),
        "source=tables value=win plies=7",
        &format!(
            "fen {}",
            WIN7.replace(" m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes", "")
        ),
    ];
    assert_eq!(infos.len(), expect_prefixes.len() + 2, "{infos:#?}");
    for (got, want) in infos.iter().zip(expect_prefixes) {
        assert!(got.starts_with(want), "{got:?} should start with {want:?}");
    }
    for bad in &infos[10..16] {
        assert!(bad.ends_with("; previous position kept"), "{bad}");
    }
    // The position stayed the one set before the bad ones: white wins in 7.
    let a = answers(&lines);
    assert_eq!(a.len(), 1);
    assert_eq!(field(a[0], "score"), "mate 4");
    assert!(infos[infos.len() - 2].starts_with("legal d5-"), "{infos:?}");
}

#[test]
fn options_change_the_engine() {
    let lines = session(&format!(
        "setoption name UseTables value false\nposition fen {WIN7} moves d5-e3 d7-c3\n\
         go depth 5\nsetoption name usetables value true\ngo\n\
         setoption name TableDir value /nonexistent/millbase\nisready\ngo depth 2\n"
    ));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    let a = answers(&lines);
    assert_eq!(a.len(), 3, "{lines:?}");
    // Without tables the search still finds the win in 5 plies (3 moves).
    assert_eq!(infos[0], "info string tables: off (UseTables false)");
    assert_eq!(infos[1], "info string source=search");
    assert_eq!(field(a[0], "score"), "mate 3");
    assert_eq!(field(a[0], "depth"), "5");
    assert!(
        infos[2].starts_with("info string tables: 3 sectors"),
        "{infos:?}"
    );
    assert_eq!(infos[3], "info string source=tables value=win plies=5");
    assert_eq!(
        infos[4],
        "info string no table directory /nonexistent/millbase: searching everywhere"
    );
    assert_eq!(infos[5], "info string source=search");
    assert_eq!(field(a[2], "depth"), "2");
}

#[test]
fn search_answers_within_limits_and_stops() {
    let lines = session(
        "position startpos moves d6 f4\ngo depth 4\nisready\n\
         go infinite\nisready\nstop\n\
         go nodes 5000\n\
         setoption name Depth value 3\ngo\n\
         position startpos\ngo movetime 50\nquit\ngo depth 1\n",
    );
    let a = answers(&lines);
    assert_eq!(a.len(), 5, "{lines:?}");
    assert_eq!(field(a[0], "depth"), "4");
    // isready while searching is answered at once.
    let ready: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| *l == "readyok")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(ready.len(), 2);
    for l in &a[..4] {
        let mv = bestmove(l);
        assert_eq!(mv.len(), 2, "a placement: {l}");
        assert!(!["d6", "f4"].contains(&mv), "{l}");
    }
    assert!(
        field(a[2], "nodes").parse::<u64>().unwrap() < 8000,
        "{}",
        a[2]
    );
    assert_eq!(field(a[3], "depth"), "3", "the Depth option caps a bare go");
    // After quit nothing more is answered.
    assert_eq!(bestmove(a[4]).len(), 2);
    assert_eq!(lines.last().unwrap(), a[4]);
}

#[test]
fn finished_games_and_draw_rules() {
    // Black has only two stones: white has won, black has no action.
    let over = "********/********/OOO*@*@* b m s 3 0 2 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
    // Both sides fly a stone away and back twice: the start stands a third time, with
    // legal moves left.
    let shuffle = "d5-c5 a7-b6 c5-d5 b6-a7 d5-c5 a7-b6 c5-d5 b6-a7";
    let lines = session(&format!(
        "position fen {over}\ngo\n\
         position fen {WIN7} moves {shuffle}\ngo\n\
         setoption name NMoveRule value 8\nsetoption name ThreefoldRepetitionRule value false\n\
         go\nsetoption name NMoveRule value 0\ngo\n"
    ));
    let a = answers(&lines);
    assert_eq!(a.len(), 4, "{lines:?}");
    let infos: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string "))
        .filter(|l| !l.starts_with("tables:"))
        .collect();
    assert_eq!(
        infos[..2],
        [
            "game over: white wins: black has fewer than three stones",
            "source=none"
        ]
    );
    assert_eq!(
        a[0],
        "info depth 0 score mate 0 nodes 0 time 0 bestmove none"
    );
    assert_eq!(
        infos[2],
        "game over: draw by threefold repetition; answering a legal move anyway"
    );
    assert_ne!(bestmove(a[1]), "none");
    assert_eq!(
        infos[4],
        "game over: draw by 8-move rule: no placement or removal in the last 8 plies; \
         answering a legal move anyway"
    );
    // Without draw rules the position is an ordinary win in 7 again.
    assert_eq!(infos[6], "source=tables value=win plies=7");
    assert_eq!(field(a[3], "score"), "mate 4");
}

/// The binary on real standard input and output: the same protocol, and it ends at `quit`
/// and at the end of the input.
#[test]
fn the_binary_speaks_the_protocol() {
    let run_bin = |input: &str, dir: &Path| -> (i32, Vec<String>, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_millbase"))
            .args(["uci", "--dir"])
            .arg(dir)
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
        let lines = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        (
            out.status.code().unwrap_or(-1),
            lines,
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, lines, err) = run_bin(
        &format!("uci\nisready\nposition fen {WIN7}\ngo\nbogus\nquit\ngo\n"),
        tables(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    assert!(lines.contains(&"uciok".to_string()));
    let a = answers(&lines);
    assert_eq!(a.len(), 1, "nothing after quit: {lines:?}");
    assert_eq!(field(a[0], "score"), "mate 4");
    assert_eq!(
        lines.last().unwrap(),
        "info string unknown command 'bogus' ignored"
    );
    // End of input without quit: the last go still answers.
    let (code, lines, _) = run_bin(
        "position startpos\ngo depth 2",
        &PathBuf::from("/nonexistent"),
    );
    assert_eq!(code, 0);
    assert_eq!(answers(&lines).len(), 1, "{lines:?}");
    // Bad command-line arguments: exit 2 with one line.
    let out = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(["uci", "--variant", "chess"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("millbase: error: unknown variant 'chess'"),
        "{err}"
    );
}

/// A copy of the test tables' files whose names pass `keep`, in a new directory.
fn copy_tables(keep: impl Fn(&str) -> bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(tables()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        if keep(&name) {
            std::fs::copy(entry.path(), dir.path().join(&name)).unwrap();
        }
    }
    dir
}

/// The `info string` texts of a session, without the prefix.
fn info_strings(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string "))
        .collect()
}

/// Six Men's Morris (no flying), white's 3 stones against black's 4, white to move with one
/// legal move each: d6-b6 loses in 10 plies, f4-g4 in 4. The move leads to black to move
/// in sector 4-3.
const SIX_FORCED_LOSS10: &str = "OOO@@***/@*@***** w m s 3 0 4 0 0 0 0 0 0 0 0 0 1";
const SIX_FORCED_LOSS4: &str = "OOO@@**@/@******* w m s 3 0 4 0 0 0 0 0 0 0 0 0 1";

#[test]
fn a_single_legal_move_is_scored_by_the_tables_or_the_search() {
    let full = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(["generate", "--quiet", "--variant", "six", "--dir"])
        .arg(full.path())
        .arg("3-4")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // The same tables without 4-3, where the forced moves lead: only the position itself is
    // in the tables.
    let part = tempfile::tempdir().unwrap();
    for name in ["3-3-0-0.mbw", "3-3-0-0.mbd", "3-4-0-0.mbw", "3-4-0-0.mbd"] {
        std::fs::copy(full.path().join(name), part.path().join(name)).unwrap();
    }
    let six = Variant::by_name("six").unwrap();
    let tb = millbase::Tablebase::open(full.path(), six).unwrap();
    let cases = [
        (SIX_FORCED_LOSS10, "d6-b6", 10, "mate -5"),
        (SIX_FORCED_LOSS4, "f4-g4", 4, "mate -2"),
    ];
    for (fen, mv, plies, score) in cases {
        let pos = millbase::notation::parse_position(&six, fen).unwrap();
        assert_eq!(tb.value(&pos).unwrap(), millbase::Value::Loss(plies));
        let input = format!("setoption name Variant value six\nposition fen {fen}\nd\ngo\n");
        for dir in [full.path(), part.path()] {
            let lines = session_in(dir, input.as_bytes());
            let infos = info_strings(&lines);
            assert!(infos.contains(&format!("legal {mv}").as_str()), "{lines:?}");
            let a = answers(&lines);
            assert_eq!(a.len(), 1, "{lines:?}");
            assert_eq!(
                infos[infos.len() - 1],
                format!("source=tables value=loss plies={plies}"),
                "{}: {lines:?}",
                dir.display()
            );
            assert_eq!(bestmove(a[0]), mv);
            // With or without the successor's tables: the table's value.
            assert_eq!(field(a[0], "score"), score, "{}", a[0]);
        }
    }
    // Without tables the forced move is searched: the search sees the loss in 4 plies, where
    // the evaluation after one ply would give a centi-stone score.
    let lines = session_in(
        part.path(),
        format!(
            "setoption name Variant value six\nsetoption name UseTables value false\n\
             position fen {SIX_FORCED_LOSS4}\ngo depth 8\n"
        )
        .as_bytes(),
    );
    let a = answers(&lines);
    assert_eq!(a.len(), 1, "{lines:?}");
    assert!(lines.contains(&"info string source=search".to_string()));
    assert_eq!(bestmove(a[0]), "f4-g4");
    assert_eq!(field(a[0], "score"), "mate -2", "{}", a[0]);
    let depth: u32 = field(a[0], "depth").parse().unwrap();
    assert!(depth >= 4, "{}", a[0]);
}

/// Flip one byte in the middle of every compressed block of the table file `path`
/// (docs/FORMAT.md: block count at byte 76, block table of 20-byte entries at 128).
fn damage_blocks(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let blocks = u32::from_le_bytes(bytes[76..80].try_into().unwrap()) as usize;
    assert!(blocks > 0);
    for b in 0..blocks {
        let e = 128 + 20 * b;
        let offset = u64::from_le_bytes(bytes[e..e + 8].try_into().unwrap()) as usize;
        let len = u32::from_le_bytes(bytes[e + 8..e + 12].try_into().unwrap()) as usize;
        bytes[offset + len / 2] ^= 0x5a;
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_table_is_said_in_the_go_that_meets_it() {
    let dir = copy_tables(|_| true);
    let damaged = dir.path().join("3-3-0-0.mbd");
    damage_blocks(&damaged);
    let lines = session_in(
        dir.path(),
        format!("isready\nposition fen {WIN7}\ngo depth 3\ngo depth 3\n").as_bytes(),
    );
    // The headers are sound: the tables open.
    assert_eq!(
        lines[0],
        format!("info string tables: 3 sectors in {}", dir.path().display())
    );
    assert_eq!(lines[1], "readyok");
    let a = answers(&lines);
    assert_eq!(a.len(), 2, "{lines:?}");
    // The first go meets a damaged block of 3-3's distances: it says so at once, naming the
    // file and the problem, then answers from the search.
    let first_answer = lines.iter().position(|l| l == a[0]).unwrap();
    let first = &lines[2..first_answer];
    assert_eq!(first.len(), 2, "{lines:?}");
    let prefix = format!(
        "info string table of sector 3-3-0-0 not used: {}: block ",
        damaged.display()
    );
    assert!(first[0].starts_with(&prefix), "{lines:?}");
    assert!(
        first[0].ends_with(": checksum mismatch (damaged data)"),
        "{lines:?}"
    );
    assert_eq!(first[1], "info string source=search");
    // Said once: the next go only answers.
    assert_eq!(
        lines[first_answer + 1..],
        ["info string source=search".to_string(), a[1].clone()],
        "{lines:?}"
    );
}

#[test]
fn files_not_used_are_listed_when_the_tables_are_opened() {
    let dir = copy_tables(|n| n.starts_with("3-3-") || n == "3-4-0-0.mbd" || n == "4-3-0-0.mbw");
    let d = dir.path();
    // 3-4: a directory where its WDL file should be.
    std::fs::create_dir(d.join("3-4-0-0.mbw")).unwrap();
    // 4-3: a named pipe for its distances (opening it would block).
    let fifo = std::ffi::CString::new(d.join("4-3-0-0.mbd").to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; mkfifo has no other preconditions.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    // 4-4: a link to an endless device and a dangling link.
    std::os::unix::fs::symlink("/dev/zero", d.join("4-4-0-0.mbw")).unwrap();
    std::os::unix::fs::symlink(d.join("nowhere"), d.join("4-4-0-0.mbd")).unwrap();
    // 5-4: a distance file without its WDL file.
    std::fs::copy(tables().join("3-3-0-0.mbd"), d.join("5-4-0-0.mbd")).unwrap();
    let lines = session_in(d, format!("isready\nposition fen {WIN7}\ngo\n").as_bytes());
    let dd = d.display();
    let regular = "(tables are read from regular files only)";
    let expected = [
        format!("info string tables: 1 sector in {dd}"),
        format!(
            "info string table of sector 3-4-0-0 not used: {dd}/3-4-0-0.mbw: not a regular \
             file but a directory {regular}"
        ),
        format!(
            "info string table of sector 4-3-0-0 not used: {dd}/4-3-0-0.mbd: not a regular \
             file but a named pipe {regular}"
        ),
        format!(
            "info string table of sector 4-4-0-0 not used: {dd}/4-4-0-0.mbw: not a regular \
             file but a character device {regular}"
        ),
        format!(
            "info string table of sector 4-4-0-0 not used: {dd}/4-4-0-0.mbd: not a regular \
             file but a dangling symbolic link {regular}"
        ),
        format!(
            "info string table of sector 5-4-0-0 not used: {dd}/5-4-0-0.mbw: no such file: \
             the WDL table of sector 5-4-0-0 is needed"
        ),
        "readyok".to_string(),
        // 3-3 answers; nothing is said twice.
        "info string source=tables value=win plies=7".to_string(),
    ];
    assert_eq!(lines[..expected.len()], expected, "{lines:#?}");
    assert_eq!(lines.len(), expected.len() + 1, "{lines:#?}");
    assert_eq!(field(&lines[expected.len()], "score"), "mate 4");
    // WDL files only: one line for the directory, not one per sector.
    let wdl_only = copy_tables(|n| n.ends_with(".mbw"));
    let lines = session_in(wdl_only.path(), b"isready\n");
    let dd = wdl_only.path().display();
    assert_eq!(
        lines,
        [
            format!("info string tables: none in {dd}: searching everywhere"),
            format!(
                "info string tables of {dd} not used: WDL files only (.mbw, no .mbd); the \
                 engine needs both files of a sector"
            ),
            "readyok".to_string(),
        ]
    );
}
