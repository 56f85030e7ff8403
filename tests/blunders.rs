//! The blunder meter (`millbase blunders`) on Six Men's Morris, whose whole game under the
//! 100-move rule solves in two seconds and serves as the judge:
//!
//! * `sample` draws the asked number of distinct, legal positions with the asked stones on the
//!   board from games that are not over, the same for the same seed;
//! * an engine with the judge's own tables never blunders, and takes every move from them;
//! * an engine without tables at depth 1 does blunder, and each blunder it reports is one by
//!   the probe's own move values (`Tablebase::move_values_at`, not the engine's oracle): the
//!   played move's result is worse than the best move's, and the moves it lists as keeping
//!   the result are exactly those of the best result; the counts add up;
//! * a judge without tables, of another N-move rule, a malformed positions file and a missing
//!   limit are usage errors (exit 2) that say what is wrong;
//! * `key` writes the judge's value of every legal move of each position (the probe's own
//!   values), and `measure --key` reports exactly what `measure --judge` does; a key without
//!   a position, of another rule or damaged is a usage error naming the key's line; the
//!   committed key of the standard game's fixed set covers each of its positions.

mod common;

use common::millbase;
use millbase::engine::game::{DrawRules, Game};
use millbase::notation::{format_move, parse_position_info};
use millbase::{Tablebase, Value, Variant};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Six's whole game under the 100-move rule, generated once.
fn judge_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_str().unwrap();
        let (code, _, err) = millbase(&[
            "generate",
            "--quiet",
            "--variant",
            "six",
            "--all",
            "--n-move-rule",
            "100",
            "--dir",
            d,
        ]);
        assert_eq!(code, 0, "{err}");
        dir
    })
    .path()
}

/// 150 positions with at least 7 stones on the board, written once: the file and its text.
fn positions() -> (&'static Path, &'static str) {
    static FILE: OnceLock<(tempfile::TempDir, PathBuf, String)> = OnceLock::new();
    let (_, path, text) = FILE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let (code, text, err) = sample(5);
        assert_eq!(code, 0, "{err}");
        let path = dir.path().join("six.txt");
        std::fs::write(&path, &text).unwrap();
        (dir, path, text)
    });
    (path, text)
}

fn sample(seed: u64) -> (i32, String, String) {
    millbase(&[
        "blunders",
        "sample",
        "--variant",
        "six",
        "--count",
        "150",
        "--min-stones",
        "7",
        "--seed",
        &seed.to_string(),
    ])
}

fn lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

fn result(v: Value) -> i8 {
    match v {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
    }
}

#[test]
fn sample_draws_distinct_legal_positions_reproducibly() {
    let v = Variant::by_name("six").unwrap();
    let (_, text) = positions();
    let fens = lines(text);
    assert_eq!(fens.len(), 150);
    let mut seen = HashSet::new();
    let mut phases = HashSet::new();
    for fen in &fens {
        let (pos, _) = parse_position_info(&v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(seen.insert(pos), "{fen} twice");
        let on_board = pos.stones[0].count_ones() + pos.stones[1].count_ones();
        assert!(on_board >= 7, "{fen}: {on_board} stones on the board");
        let game = Game::from_text(v, DrawRules::of_variant(&v), fen, &[]).unwrap();
        assert!(game.result().is_none(), "{fen}: the game is over");
        assert!(!pos.pending_removal(), "{fen}: a removal is pending");
        phases.insert(pos.in_hand.iter().any(|&h| h > 0));
    }
    assert_eq!(phases.len(), 2, "both phases are sampled");
    let (code, again, _) = sample(5);
    assert_eq!(code, 0);
    assert_eq!(again, text, "the same seed gives the same positions");
    let (_, other, _) = sample(6);
    assert_ne!(lines(&other), fens, "another seed gives other positions");
}

/// `blunders measure` of Six's positions judged by `referee` (`--judge DIR` or `--key FILE`).
fn run_measure(referee: [&str; 2], extra: &[&str]) -> (i32, String, String) {
    let (path, _) = positions();
    let mut args = vec![
        "blunders",
        "measure",
        "--variant",
        "six",
        "--positions",
        path.to_str().unwrap(),
    ];
    args.extend_from_slice(&referee);
    args.extend_from_slice(extra);
    millbase(&args)
}

/// The JSON report of `measure` judged by `referee`.
fn measure_by(referee: [&str; 2], extra: &[&str]) -> serde_json::Value {
    let (code, out, err) = run_measure(referee, &[&["--json"], extra].concat());
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// The JSON report of `measure` judged by the whole game's tables.
fn measure(extra: &[&str]) -> serde_json::Value {
    measure_by(["--judge", judge_dir().to_str().unwrap()], extra)
}

#[test]
fn an_engine_with_the_judges_tables_never_blunders() {
    let judge = judge_dir().to_str().unwrap();
    let report = measure(&["--dir", judge, "--depth", "1"]);
    let total = &report["total"];
    assert_eq!(total["positions"], 150);
    assert_eq!(total["blunders"], 0, "{report}");
    assert_eq!(total["from_tables"], 150, "every move from the tables");
    assert!(
        total["critical"].as_u64().unwrap() > 0,
        "some positions can be spoilt"
    );
}

#[test]
fn every_blunder_of_a_weak_engine_is_one_by_the_probe() {
    let v = Variant::by_name("six").unwrap();
    let report = measure(&["--no-tables", "--depth", "1", "--jobs", "2"]);
    let total = &report["total"];
    assert_eq!(total["positions"], 150);
    assert_eq!(total["from_tables"], 0);
    let blunders = report["blunders"].as_array().unwrap();
    assert!(
        !blunders.is_empty(),
        "a depth-1 search blunders somewhere: {report}"
    );
    assert_eq!(total["blunders"], blunders.len());
    let count = |name: &str| blunders.iter().filter(|b| b["verdict"] == name).count();
    assert_eq!(total["win_to_draw"], count("win-to-draw"));
    assert_eq!(total["draw_to_loss"], count("draw-to-loss"));
    assert_eq!(total["win_to_loss"], count("win-to-loss"));
    // The groups add up to the phases, the phases to the total.
    for key in ["positions", "critical", "blunders", "won", "drawn"] {
        let groups: u64 = report["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g[key].as_u64().unwrap())
            .sum();
        let phases =
            report["placing"][key].as_u64().unwrap() + report["moving"][key].as_u64().unwrap();
        assert_eq!(groups, total[key].as_u64().unwrap(), "{key}");
        assert_eq!(phases, groups, "{key}");
    }
    let tb = Tablebase::open(judge_dir(), v).unwrap();
    let (_, text) = positions();
    let fens = lines(text);
    for b in blunders {
        let fen = b["position"].as_str().unwrap();
        assert!(fens.contains(&fen));
        let (pos, info) = parse_position_info(&v, fen).unwrap();
        let values = tb.move_values_at(&pos, info.counter).unwrap();
        let best = values
            .iter()
            .map(|m| result(m.value.result()))
            .max()
            .unwrap();
        let played = values
            .iter()
            .find(|m| format_move(&v, m.mv) == b["played"].as_str().unwrap())
            .unwrap_or_else(|| panic!("{b}: not a legal move"));
        let got = result(played.value.result());
        assert!(got < best, "{b}: the played move keeps the result");
        let expected = match (best, got) {
            (1, 0) => "win-to-draw",
            (1, -1) => "win-to-loss",
            (0, -1) => "draw-to-loss",
            _ => unreachable!(),
        };
        assert_eq!(b["verdict"], expected, "{b}");
        let mut keeping: Vec<String> = values
            .iter()
            .filter(|m| result(m.value.result()) == best)
            .map(|m| format_move(&v, m.mv))
            .collect();
        let mut listed: Vec<String> = b["keeping"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        keeping.sort();
        listed.sort();
        assert_eq!(listed, keeping, "{b}");
    }
    // A deeper search blunders less often on the same positions (depth 1 against 4).
    let deeper = measure(&["--no-tables", "--depth", "4"]);
    assert!(
        deeper["total"]["blunders"].as_u64().unwrap() < blunders.len() as u64,
        "depth 4: {}, depth 1: {}",
        deeper["total"]["blunders"],
        blunders.len()
    );
}

#[test]
fn bad_judges_files_and_limits_are_usage_errors() {
    let (path, _) = positions();
    let p = path.to_str().unwrap();
    let run = |judge: &str, positions: &str, limit: &[&str]| {
        let mut args = vec![
            "blunders",
            "measure",
            "--variant",
            "six",
            "--positions",
            positions,
            "--judge",
            judge,
            "--no-tables",
        ];
        args.extend_from_slice(limit);
        millbase(&args)
    };
    let empty = tempfile::tempdir().unwrap();
    let (code, _, err) = run(empty.path().to_str().unwrap(), p, &["--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no usable tables"), "{err}");

    let rule_free = tempfile::tempdir().unwrap();
    let d = rule_free.path().to_str().unwrap();
    let (code, _, err) = millbase(&[
        "generate",
        "--quiet",
        "--variant",
        "six",
        "--all",
        "--dir",
        d,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(d, p, &["--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not the game's"), "{err}");

    let bad = empty.path().join("bad.txt");
    std::fs::write(&bad, "# a comment\nstartpos\nnot a position\n").unwrap();
    let judge = judge_dir().to_str().unwrap();
    let (code, _, err) = run(judge, bad.to_str().unwrap(), &["--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 3"), "{err}");

    let (code, _, err) = run(judge, p, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--movetime"), "{err}");
}

/// `blunders fit` over Six's positions: every position is accounted for, the held-out samples
/// are every fifth, the weights come out as Rust with the moving phase's material at 100; bad
/// options are usage errors.
#[test]
fn fit_accounts_for_every_position_and_prints_the_weights() {
    let (path, text) = positions();
    let judge = judge_dir().to_str().unwrap();
    let fit = |extra: &[&str]| {
        let mut args = vec![
            "blunders",
            "fit",
            "--variant",
            "six",
            "--n-move-rule",
            "100",
            "--positions",
            path.to_str().unwrap(),
            "--judge",
            judge,
            "--min-moving-stones",
            "7",
        ];
        args.extend_from_slice(extra);
        millbase(&args)
    };
    let (code, out, err) = fit(&[]);
    assert_eq!(code, 0, "{err}");
    let numbers = |line: &str| -> Vec<usize> {
        line.split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let counts = out.lines().find(|l| l.starts_with("samples:")).unwrap();
    let n = numbers(counts);
    // fitted, held out, (every) 5, not quiet, unjudged, in tables.
    assert_eq!(n.len(), 6, "{counts}");
    assert_eq!(n[0] + n[1] + n[3] + n[4] + n[5], lines(text).len(), "{out}");
    assert_eq!(n[1], (n[0] + n[1]) / 5, "{out}");
    assert_eq!(n[4], 0, "the judge holds the whole game: {out}");
    let moving = out.lines().find(|l| l.contains("moving: [")).unwrap();
    let weights: Vec<i32> = moving
        .trim()
        .trim_start_matches("moving: [")
        .trim_end_matches("],")
        .split(", ")
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(weights.len(), millbase::engine::eval::FEATURES, "{moving}");
    assert_eq!(weights[0], 100, "{moving}");

    let (code, _, err) = fit(&["--holdout", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--holdout"), "{err}");
    let (code, _, err) = fit(&["--ridge", "-1"]);
    assert_eq!(code, 2, "{err}");
}

/// Six's answer key for the 150 positions, written once.
fn key_file() -> &'static Path {
    static FILE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = FILE.get_or_init(|| {
        let (positions, _) = positions();
        let (code, out, err) = millbase(&[
            "blunders",
            "key",
            "--variant",
            "six",
            "--positions",
            positions.to_str().unwrap(),
            "--judge",
            judge_dir().to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("six-key.txt");
        std::fs::write(&path, out).unwrap();
        (dir, path)
    });
    path
}

#[test]
fn the_answer_key_holds_the_probes_values_and_judges_as_the_tables_do() {
    let v = Variant::by_name("six").unwrap();
    let key = std::fs::read_to_string(key_file()).unwrap();
    assert!(
        key.lines()
            .any(|l| l == "#key variant six n-move-rule 100 distances dtr"),
        "{key}"
    );
    let (_, text) = positions();
    let fens = lines(text);
    let entries = lines(&key);
    assert_eq!(entries.len(), fens.len());
    let tb = Tablebase::open(judge_dir(), v).unwrap();
    for (entry, fen) in entries.iter().zip(&fens) {
        let (position, moves) = entry.split_once('\t').unwrap();
        assert_eq!(position, *fen);
        let (pos, info) = parse_position_info(&v, fen).unwrap();
        let mut want: Vec<String> = tb
            .move_values_at(&pos, info.counter)
            .unwrap()
            .iter()
            .map(|m| {
                let value = match m.value.result() {
                    Value::Win(n) => format!("W{n}"),
                    Value::Loss(n) => format!("L{n}"),
                    Value::Draw => "D".to_string(),
                };
                format!("{}:{value}", format_move(&v, m.mv))
            })
            .collect();
        let mut got: Vec<&str> = moves.split(' ').collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{fen}");
    }
    let mut by_tables = measure(&["--no-tables", "--depth", "2"]);
    let mut by_key = measure_by(
        ["--key", key_file().to_str().unwrap()],
        &["--no-tables", "--depth", "2"],
    );
    assert!(
        by_key["total"]["blunders"].as_u64().unwrap() > 0,
        "{by_key}"
    );
    for report in [&mut by_tables, &mut by_key] {
        let o = report.as_object_mut().unwrap();
        o.remove("seconds");
        o.remove("judge");
    }
    assert_eq!(by_key, by_tables);
}

#[test]
fn keys_that_lack_a_position_or_are_of_other_rules_are_usage_errors() {
    let key = std::fs::read_to_string(key_file()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let run = |text: &str, extra: &[&str]| {
        let file = dir.path().join("key.txt");
        std::fs::write(&file, text).unwrap();
        let limits = ["--no-tables", "--depth", "1"];
        run_measure(
            ["--key", file.to_str().unwrap()],
            &[&limits[..], extra].concat(),
        )
    };
    let short: String = key.lines().take(40).map(|l| format!("{l}\n")).collect();
    let (code, _, err) = run(&short, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("has no line for"), "{err}");

    let other_rule = key.replace("n-move-rule 100 distances", "n-move-rule 0 distances");
    let (code, _, err) = run(&other_rule, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not the game's"), "{err}");

    let headless: String = key
        .lines()
        .filter(|l| !l.starts_with("#key"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (code, _, err) = run(&headless, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("header"), "{err}");

    // A move dropped from a position's line: not the legal moves any more.
    let first = lines(&key)
        .into_iter()
        .find(|l| l.split_once('\t').unwrap().1.contains(' '))
        .unwrap();
    let cut = first.rsplit_once(' ').unwrap().0;
    let (code, _, err) = run(&key.replacen(first, cut, 1), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("legal moves"), "{err}");

    let damaged = key.replacen(":W", ":Q", 1);
    let (code, _, err) = run(&damaged, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line") && err.contains("not a value"), "{err}");

    let (code, _, err) = run(&key, &["--judge", judge_dir().to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

/// The committed key of the standard game's fixed set covers every one of its 2,000 positions
/// with exactly the legal moves (else `measure` refuses it), and says what the judge said of
/// them: 980 positions where some move gives the result away, 725 won, 717 drawn.
#[test]
fn the_fixed_sets_key_covers_every_position() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures/blunders");
    let (code, out, err) = millbase(&[
        "blunders",
        "measure",
        "--positions",
        root.join("std-2000.txt").to_str().unwrap(),
        "--key",
        root.join("std-2000-key.txt").to_str().unwrap(),
        "--no-tables",
        "--depth",
        "1",
        "-j",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let total = &report["total"];
    assert_eq!(total["positions"], 2000);
    assert_eq!(total["critical"], 980);
    assert_eq!(
        (total["won"].as_u64(), total["drawn"].as_u64()),
        (Some(725), Some(717))
    );
}
