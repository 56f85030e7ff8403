//! The engine with tables solved under the N-move rule (here N = 10, small enough that many
//! rule-free wins of 3-3 .. 4-4 are cursed): millbase against itself, refereed by
//! `millbase match --n-move-rule 10`, from random table positions at counter 0.
//!
//! * a position the tables call a win (or loss) under the rule ends in that win, and the
//!   first removal (or the end of the game) comes exactly DTR plies after the start: the
//!   winner takes the fastest line to the next removal, the loser the slowest;
//! * cursed wins, blessed losses and draws end drawn: the side that would win without the
//!   rule cannot, and the other side holds the draw.

#[path = "common/sample.rs"]
mod sample;

use millbase::engine::matches::Rng;
use millbase::notation::format_position;
use millbase::{Color, Position};
use millbase::{RuleValue, Tablebase, Variant};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_millbase");
const N: u16 = 10;

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Combined plies from the start up to and including the first one that removes a stone,
/// or all of them when none does. `moves` are split-convention tokens (`xg7` a removal).
fn plies_to_first_removal(moves: &[serde_json::Value]) -> u64 {
    let mut plies = 0;
    for (i, m) in moves.iter().enumerate() {
        let m = m.as_str().unwrap();
        let removal = m.starts_with('x');
        if !removal || i == 0 {
            plies += 1;
        }
        if removal || m.contains('x') {
            return plies;
        }
    }
    plies
}

#[test]
fn perfect_play_under_the_n_move_rule_from_table_positions() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args([
            "generate",
            "--quiet",
            "--n-move-rule",
            &N.to_string(),
            "--dir",
        ])
        .arg(dir.path())
        .arg("4-4")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap();
    assert_eq!(tb.rule().n(), N);

    // 100 starts: as many cursed wins and blessed losses as the draw gives, at most 15 draws.
    let mut rng = Rng::new(99);
    let mut starts: Vec<(Position, RuleValue)> = Vec::new();
    let mut draws = 0;
    while starts.len() < 100 {
        let Some(pos) = sample::random_position(&mut rng, &sample::SMALL_SECTORS) else {
            continue;
        };
        let value = tb.value_at(&pos, 0).unwrap();
        if value == RuleValue::Draw {
            if draws == 15 {
                continue;
            }
            draws += 1;
        }
        starts.push((pos, value));
    }
    let count = |f: fn(&RuleValue) -> bool| starts.iter().filter(|(_, v)| f(v)).count();
    let cursed = count(|v| matches!(v, RuleValue::CursedWin | RuleValue::BlessedLoss));
    let decided = count(|v| matches!(v, RuleValue::Win(_) | RuleValue::Loss(_)));
    assert!(
        cursed >= 10 && decided >= 40,
        "{cursed} cursed, {decided} decided"
    );

    let file = dir.path().join("starts.txt");
    let text: String = starts
        .iter()
        .map(|(p, _)| format_position(&v, p) + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let engine = format!("'{BIN}' uci --dir '{}'", dir.path().display());
    let out = Command::new(BIN)
        .args(["match", "--json", "--movetime", "5000", "--n-move-rule"])
        .arg(N.to_string())
        .arg("--engine")
        .arg(&engine)
        .arg("--from")
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|g: &serde_json::Value| g.get("summary").is_none())
        .collect();
    assert_eq!(games.len(), starts.len());
    for (g, (pos, value)) in games.iter().zip(&starts) {
        assert_eq!(g["forfeit"], false, "a protocol error: {g}");
        let me = pos.to_move;
        match *value {
            RuleValue::Win(dtr) | RuleValue::Loss(dtr) => {
                let winner = if matches!(value, RuleValue::Win(_)) {
                    me
                } else {
                    me.other()
                };
                assert_eq!(g["winner"], color_name(winner), "{value:?}: {g}");
                let moves = g["moves"].as_array().unwrap();
                assert_eq!(
                    plies_to_first_removal(moves),
                    u64::from(dtr),
                    "{value:?}: {g}"
                );
            }
            RuleValue::CursedWin | RuleValue::BlessedLoss | RuleValue::Draw => {
                assert!(g["winner"].is_null(), "{value:?} must be drawn: {g}");
            }
        }
    }
}
