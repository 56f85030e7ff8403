//! `millbase probe --batch`: many positions on standard input, one JSON answer per line.

#[path = "common/sample.rs"]
mod sample;

use millbase::Variant;
use millbase::engine::matches::Rng;
use millbase::notation::format_position;
use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// White to move, 3 against 3: white wins in 7 plies.
const WIN7: &str = "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

/// Run `millbase` with `args`: (exit status, standard output, standard error).
fn run(args: &[&str]) -> (i32, String, String) {
    run_with_input(args, "")
}

/// Run `millbase` with `args` and `input` on standard input.
fn run_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run millbase");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // Written from a thread: the answers fill the output pipe while the input is written.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("wait for millbase");
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Solve `sectors` (and what they need) into a new temporary directory.
fn generated(extra: &[&str], sectors: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let mut args = vec!["generate", "--quiet", "--dir", d];
    args.extend_from_slice(extra);
    args.extend_from_slice(sectors);
    let (code, _, err) = run(&args);
    assert_eq!(code, 0, "generate failed: {err}");
    dir
}

/// `n` random positions of 3-3, 3-4, 4-3 and 4-4 (a quarter remove-pending).
fn positions(seed: u64, n: usize) -> Vec<String> {
    let v = Variant::standard();
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if let Some(p) = sample::random_position(&mut rng, &sample::SMALL_SECTORS) {
            out.push(format_position(&v, &p));
        }
    }
    out
}

fn parse_lines(out: &str) -> Vec<Json> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// `probe --json` of one position, as JSON.
fn probe_json(dir: &Path, extra: &[&str], position: &str) -> Json {
    let mut args = vec!["probe", "--json", "--dir", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.push(position);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "probe {position}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// `answer` without its `"input"` (and `"moves"` unless `moves`).
fn without_input(answer: &Json, moves: bool) -> Json {
    let mut o = answer.as_object().unwrap().clone();
    o.remove("input");
    if !moves {
        o.remove("moves");
    }
    Json::Object(o)
}

#[test]
fn answers_agree_with_probe_json_with_and_without_moves() {
    let dir = generated(&[], &["4-4"]);
    let d = dir.path().to_str().unwrap();
    let mut lines = positions(11, 24);
    lines.push(WIN7.to_string());
    lines.push("  ".to_string() + WIN7 + "  "); // echoed as given
    let input = lines.join("\n") + "\n";
    let (code, with_moves, err) =
        run_with_input(&["probe", "--batch", "--moves", "--dir", d], &input);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let (code, plain, err) = run_with_input(&["probe", "--batch", "--dir", d], &input);
    assert_eq!(code, 0, "{err}");
    let (with_moves, plain) = (parse_lines(&with_moves), parse_lines(&plain));
    assert_eq!(with_moves.len(), lines.len());
    assert_eq!(plain.len(), lines.len());
    let mut remove_pending = 0;
    for (i, line) in lines.iter().enumerate() {
        remove_pending += usize::from(line.contains(" r "));
        let single = probe_json(dir.path(), &[], line);
        assert_eq!(with_moves[i]["input"], line.as_str());
        assert_eq!(plain[i]["input"], line.as_str());
        assert_eq!(without_input(&with_moves[i], true), single, "{line}");
        assert_eq!(
            without_input(&plain[i], false),
            without_input(&single, false)
        );
        assert!(plain[i].get("moves").is_none(), "no moves by default");
        assert!(with_moves[i]["moves"].is_array());
    }
    assert!(
        remove_pending > 0,
        "remove-pending positions are among them"
    );
    assert_eq!(plain[24]["value"], "win");
    assert_eq!(plain[24]["plies"], 7);
}

#[test]
fn bad_lines_get_error_objects_in_order_and_the_run_goes_on() {
    let dir = generated(&[], &["3-3"]);
    let d = dir.path().to_str().unwrap();
    let five_five = "OOOOO***/@@@@@***/******** w m s 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
    let input = [
        WIN7,
        "",
        "not a position",
        "start",               // its table (placing) was not generated
        five_five,             // nor this one
        "OOOOOOOOOO**/ w m s", // malformed
        "\t",
        WIN7,
    ]
    .join("\n");
    let (code, out, err) = run_with_input(&["probe", "--batch", "--dir", d], &input);
    assert_eq!(code, 3, "some lines failed: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("4 of 6 positions"), "{err}");
    let answers = parse_lines(&out);
    let inputs: Vec<&str> = answers
        .iter()
        .map(|a| a["input"].as_str().unwrap())
        .collect();
    assert_eq!(
        inputs,
        [
            WIN7,
            "not a position",
            "start",
            five_five,
            "OOOOOOOOOO**/ w m s",
            WIN7
        ]
    );
    for (i, a) in answers.iter().enumerate() {
        let failed = (1..=4).contains(&i);
        assert_eq!(a.get("error").is_some(), failed, "{a}");
        if failed {
            assert_eq!(a.as_object().unwrap().len(), 2, "only input and error: {a}");
            assert!(!a["error"].as_str().unwrap().is_empty());
        } else {
            assert_eq!(a["value"], "win");
        }
    }
    assert!(
        answers[1]["error"]
            .as_str()
            .unwrap()
            .contains("invalid position")
    );
    // A missing table is named.
    assert!(
        answers[3]["error"].as_str().unwrap().contains("5-5"),
        "{}",
        answers[3]
    );
}

#[test]
fn exit_statuses_and_usage_errors() {
    let dir = generated(&[], &["3-3"]);
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run_with_input(&["probe", "--batch", "--dir", d], "");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "", ""),
        "empty input"
    );
    let (code, out, _) = run_with_input(&["probe", "--batch", "--json", "--dir", d], WIN7);
    assert_eq!(
        code, 0,
        "--json is accepted, a last line without newline answered"
    );
    assert_eq!(parse_lines(&out).len(), 1);
    for args in [
        &["probe", "--batch", "--dir", d, WIN7][..],
        &["probe", "--moves", "--dir", d, WIN7],
        &["probe", "--cache-mb", "8", "--dir", d, WIN7],
        &["probe", "--batch", "--cache-mb", "lots", "--dir", d],
        &["probe", "--batch", "--variant", "nine", "--dir", d],
    ] {
        let (code, out, err) = run_with_input(args, WIN7);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(err.starts_with("millbase: error: "), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let missing = dir.path().join("nowhere");
    let (code, _, err) = run_with_input(
        &["probe", "--batch", "--dir", missing.to_str().unwrap()],
        WIN7,
    );
    assert_eq!(code, 2, "{err}");
    // --cache-mb only changes the speed.
    let (code, out, _) = run_with_input(&["probe", "--batch", "--cache-mb", "0", "--dir", d], WIN7);
    assert_eq!(code, 0);
    assert_eq!(parse_lines(&out)[0]["plies"], 7);
}

#[test]
fn counters_under_an_n_move_rule() {
    let dir = generated(&["--n-move-rule", "10"], &["3-3"]);
    let d = dir.path();
    let at = |c: u32| WIN7.replace(" 0 0 1 ids:nodes", &format!(" 0 {c} 1 ids:nodes"));
    let lines: Vec<String> = (0..10).map(at).collect();
    let input = lines.join("\n");
    let (code, out, err) = run_with_input(
        &["probe", "--batch", "--moves", "--dir", d.to_str().unwrap()],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let answers = parse_lines(&out);
    let mut kinds = std::collections::BTreeSet::new();
    for (c, (line, a)) in lines.iter().zip(&answers).enumerate() {
        assert_eq!(a["rule"]["n"], 10);
        assert_eq!(a["rule"]["counter"], c);
        assert_eq!(without_input(a, true), probe_json(d, &[], line));
        kinds.insert(a["value"].as_str().unwrap().to_string());
    }
    assert!(
        kinds.contains("win") && kinds.contains("cursed-win"),
        "{kinds:?}"
    );
    // --counter overrides every line's counter.
    let (code, out, err) = run_with_input(
        &[
            "probe",
            "--batch",
            "--counter",
            "5",
            "--dir",
            d.to_str().unwrap(),
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let single = without_input(&probe_json(d, &["--counter", "5"], WIN7), false);
    for a in parse_lines(&out) {
        assert_eq!(a["rule"]["counter"], 5);
        assert_eq!(without_input(&a, false), single);
    }
}

#[test]
fn a_hundred_thousand_positions_all_answered_in_order() {
    const N: usize = 100_000;
    let dir = generated(&[], &["4-4"]);
    let lines = positions(2026, N);
    let input = lines.join("\n") + "\n";
    let (code, out, err) = run_with_input(
        &["probe", "--batch", "--dir", dir.path().to_str().unwrap()],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let answers = parse_lines(&out);
    assert_eq!(answers.len(), N);
    let mut counts = std::collections::BTreeMap::new();
    for (line, a) in lines.iter().zip(&answers) {
        assert_eq!(a["input"], line.as_str());
        assert!(a.get("error").is_none(), "{a}");
        let value = a["value"].as_str().unwrap();
        match value {
            "win" | "loss" => assert!(a["plies"].is_u64(), "{a}"),
            "draw" => assert!(a["plies"].is_null(), "{a}"),
            _ => panic!("unexpected value {a}"),
        }
        *counts.entry(value.to_string()).or_insert(0) += 1;
    }
    assert_eq!(counts.len(), 3, "wins, draws and losses: {counts:?}");
}

#[test]
fn answers_come_line_by_line_and_a_closed_pipe_ends_quietly() {
    let dir = generated(&[], &["3-3"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(["probe", "--batch", "--dir", dir.path().to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // One line at a time, waiting for each answer: the output is flushed while waiting.
    for _ in 0..3 {
        writeln!(stdin, "{WIN7}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        let a: Json = serde_json::from_str(&answer).unwrap();
        assert_eq!(a["plies"], 7);
    }
    // Then the reader goes away while many more lines come (as with `| head`).
    drop(stdout);
    let lines = (WIN7.to_string() + "\n").repeat(20_000);
    let _ = stdin.write_all(lines.as_bytes());
    drop(stdin);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "no panic, no message: {err}");
}
