//! `probe`, `pv` and `verify` from the command line.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(args)
        .output()
        .expect("run millbase");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// White to move, 3 against 3: white wins in 7 plies (d5-e3 or d3-e5 first).
const WIN7: &str = "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

fn generated() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, _, err) = run(&["generate", "--quiet", "--dir", d, "3-4"]);
    assert_eq!(code, 0, "{err}");
    dir
}

#[test]
fn probe_prints_the_value_and_every_move_best_first() {
    let dir = generated();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["probe", "--dir", d, "--json", WIN7]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["value"], "win");
    assert_eq!(json["plies"], 7);
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves[0]["value"], "win");
    assert_eq!(moves[0]["plies"], 7);
    let prefs: Vec<i64> = moves
        .iter()
        .map(|m| {
            let n = m["plies"].as_i64().unwrap_or(0);
            match m["value"].as_str().unwrap() {
                "win" => 1000 - n,
                "draw" => 0,
                _ => -1000 + n,
            }
        })
        .collect();
    assert!(
        prefs.windows(2).all(|w| w[0] >= w[1]),
        "best first: {prefs:?}"
    );
    let (code, out, _) = run(&["probe", "--dir", d, WIN7]);
    assert_eq!(code, 0);
    assert!(out.starts_with("win in 7 plies\n"), "{out}");
    let (code, out, _) = run(&["pv", "--dir", d, "--json", WIN7]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["line"].as_array().unwrap().len(), 7);
    assert!(json["line"][6].as_str().unwrap().contains('x'), "{out}");
}

#[test]
fn probe_errors_are_clear() {
    let dir = generated();
    let d = dir.path().to_str().unwrap();
    let (code, _, err) = run(&["probe", "--dir", d, "not a position"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("millbase: error: "), "{err}");
    let five = "OOO*****/OO******/@@@@@*** w m s 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
    let (code, _, err) = run(&["probe", "--dir", d, five]);
    assert_eq!(code, 2);
    assert!(err.contains("5-5-0-0.mbw"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn a_missing_table_is_named_with_the_command_that_makes_it_and_its_cost() {
    // Only 3-3, 3-4 and 4-3 are there: the start position's sector is missing.
    let dir = generated();
    let d = dir.path().to_str().unwrap();
    let (code, _, err) = run(&["probe", "--dir", d, "start"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("0-0-9-9.mbw: no such file"), "{err}");
    // The whole game is 318 sectors and 26,743,107,774 positions (`millbase plan`); the
    // three present (169,626 + 2 x 760,398 positions) are not counted.
    let command = format!("millbase generate --dir {d} 0-0-9-9");
    let figures = "315 sectors, 26741417352 positions; estimated ";
    assert!(
        err.contains(&format!("make it with `{command}` (to solve: {figures}")),
        "{err}"
    );
    assert!(err.trim_end().ends_with(" GiB)"), "{err}");
    // The same figures as generate's own line for that command.
    let (code, out, _) = run(&["generate", "--dry-run", "--dir", d, "0-0-9-9"]);
    assert_eq!(code, 0);
    let line = out
        .trim_end()
        .strip_prefix(&format!("to solve in {d}: "))
        .unwrap();
    assert!(err.contains(&format!("(to solve: {line})")), "{err}\n{out}");
}

#[test]
fn verify_passes_then_fails_on_a_flipped_byte_or_a_truncation() {
    let dir = generated();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["verify", "--quiet", "--dir", d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ok: 3 sectors, 1690422 positions"), "{out}");
    // Named sectors and their components' partners: 4-3 brings 3-4, which was solved with
    // it (760,398 positions each, solver_figures); 3-3 is a component of its own.
    let (code, out, err) = run(&["verify", "--quiet", "--dir", d, "4-3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ok: 2 sectors, 1520796 positions"), "{out}");
    let (code, out, err) = run(&["verify", "--quiet", "--dir", d, "3-3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ok: 1 sector, 169626 positions"), "{out}");
    let (code, _, err) = run(&["verify", "--quiet", "--dir", d, "5-3"]);
    assert_eq!(code, 2);
    assert!(err.contains("no table of sector 5-3-0-0"), "{err}");

    let file = dir.path().join("3-4-0-0.mbw");
    let good = std::fs::read(&file).unwrap();
    let mut bad = good.clone();
    let at = bad.len() / 2;
    bad[at] ^= 0x10;
    std::fs::write(&file, &bad).unwrap();
    let (code, _, err) = run(&["verify", "--quiet", "--dir", d]);
    assert_ne!(code, 0);
    assert!(err.contains("3-4-0-0.mbw"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::write(&file, &good).unwrap();

    let dist = dir.path().join("4-3-0-0.mbd");
    let bytes = std::fs::read(&dist).unwrap();
    std::fs::write(&dist, &bytes[..bytes.len() - 100]).unwrap();
    let (code, _, err) = run(&["verify", "--quiet", "--dir", d]);
    assert_ne!(code, 0);
    assert!(err.contains("4-3-0-0"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn verify_finds_a_wrong_value_behind_valid_checksums() {
    use millbase::Sector;
    use millbase::Value;
    use millbase::Variant;
    use millbase::format::{TableSet, WriteOptions, write_sector};
    let dir = generated();
    let d = dir.path().to_str().unwrap();
    let v = Variant::standard();
    let s = Sector::moving(3, 3);
    let mut values = TableSet::new(dir.path(), v).read_values(s).unwrap();
    let slot = values
        .iter()
        .position(|&c| matches!(Value::decode(c), Some(Value::Win(n)) if n > 3))
        .unwrap();
    values[slot] = Value::Win(3).encode();
    write_sector(dir.path(), &v, s, &values, &WriteOptions::default()).unwrap();
    let (code, _, err) = run(&["verify", "--quiet", "--dir", d]);
    assert_eq!(code, 1, "{err}");
    // Still a win: the distance is what is wrong, so the distance file is blamed.
    assert!(err.contains("3-3-0-0.mbd"), "{err}");
    assert!(!err.contains("3-3-0-0.mbw"), "{err}");
    assert!(err.contains(&format!("slot {slot}")), "{err}");
}

#[test]
fn a_wdl_only_directory_still_answers_values_and_moves() {
    let dir = generated();
    let d = dir.path().to_str().unwrap();
    let (_, full, _) = run(&["probe", "--dir", d, "--json", WIN7]);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mbd") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let (code, out, err) = run(&["probe", "--dir", d, "--json", WIN7]);
    assert_eq!(code, 0, "{err}");
    let wdl: serde_json::Value = serde_json::from_str(&out).unwrap();
    let full: serde_json::Value = serde_json::from_str(&full).unwrap();
    assert_eq!(wdl["value"], "win");
    assert_eq!(wdl["plies"], serde_json::Value::Null);
    // Every move keeps its win/draw/loss; the order is by outcome only.
    let kinds = |j: &serde_json::Value| {
        let mut k: Vec<(String, String)> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].to_string(), m["value"].to_string()))
            .collect();
        k.sort();
        k
    };
    assert_eq!(kinds(&wdl), kinds(&full));
    let (code, _, err) = run(&["pv", "--dir", d, WIN7]);
    assert_eq!(code, 2);
    assert!(err.contains(".mbd"), "{err}");
}

/// Black to move, 4 against 3: a draw.
const DRAW: &str = "O*O*O***/********/*@*@*@*@ b m s 3 0 4 0 0 0 -1 -1 -1 -1 0 0 1";
/// White to move, 3 against 4: white wins in 27 plies.
const WIN27: &str = "O***O***/********/@O**@@*@ w m s 3 0 4 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";

/// The positions after each move of `line` from `start`.
fn along(start: &str, line: &[&str]) -> Vec<millbase::Position> {
    let v = millbase::Variant::standard();
    let mut out = vec![millbase::notation::parse_position(&v, start).unwrap()];
    for m in line {
        let pos = *out.last().unwrap();
        let mv = millbase::notation::parse_legal_move(&v, &pos, m, Default::default()).unwrap();
        out.push(millbase::movegen::play(&v, &pos, mv));
    }
    out
}

#[test]
fn pv_stops_a_draw_where_it_repeats_and_plays_a_win_to_its_end() {
    let dir = generated();
    let d = dir.path().to_str().unwrap();
    let huge = "1000000000";
    // A draw with no useful limit: the line stops where it comes back to a position.
    let (code, out, err) = run(&["pv", "--dir", d, "--max-plies", huge, DRAW]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "draw");
    let moves: Vec<&str> = lines[1].split(' ').collect();
    let rest = lines[2]
        .strip_prefix("stopped: the last move brings back the position after ply ")
        .unwrap_or_else(|| panic!("{out}"));
    let ply: usize = rest.split(':').next().unwrap().parse().unwrap();
    let positions = along(DRAW, &moves);
    assert!(ply < moves.len(), "{out}");
    assert_eq!(positions.last(), Some(&positions[ply]), "{out}");
    let (code, out, err) = run(&["pv", "--dir", d, "--json", "--max-plies", huge, DRAW]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["value"], "draw");
    assert_eq!(json["end"], "repetition");
    assert_eq!(json["repeats"], ply);
    assert_eq!(json["line"], serde_json::json!(moves));

    // A win goes to the end of the game whatever the limit, and says nothing more.
    let (code, out, err) = run(&["pv", "--dir", d, "--max-plies", huge, WIN27]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0], "win in 27 plies");
    let moves: Vec<&str> = lines[1].split(' ').collect();
    assert_eq!(moves.len(), 27, "{out}");
    let last = *along(WIN27, &moves).last().unwrap();
    assert_eq!(
        last.on_board(last.to_move),
        2,
        "the loser is down to two stones"
    );
    let (_, out, _) = run(&["pv", "--dir", d, "--json", WIN27]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["end"], "game-over");
    assert_eq!(json["line"], serde_json::json!(moves));
    assert!(json.get("repeats").is_none(), "{json}");

    // A limit below the line's length: the line stops there and says so.
    let (code, out, err) = run(&["pv", "--dir", d, "--max-plies", "3", WIN27]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "win in 27 plies\n{}\nstopped: 3 plies, the --max-plies asked for\n",
            moves[..3].join(" ")
        )
    );
    let (_, out, _) = run(&["pv", "--dir", d, "--json", "--max-plies", "3", WIN27]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["end"], "max-plies");
    assert_eq!(json["line"], serde_json::json!(moves[..3]));
}
