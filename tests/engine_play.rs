//! The engine playing whole games through the protocol, refereed by `millbase match`:
//!
//! * perfect play: from 200 random table positions (some remove-pending), millbase against
//!   itself ends every game with the stored result, in exactly the stored number of plies
//!   (combined convention) for wins and losses;
//! * against a random mover and a 1-ply greedy mover: from positions the tables call won
//!   for millbase's side it always wins, from drawn ones it never loses, under the referee's
//!   100-move rule and threefold repetition;
//! * complete games from the empty board with a few small tables, and with none, finish
//!   without protocol errors, with results the rules confirm.

#[path = "common/sample.rs"]
mod sample;

use millbase::engine::game::{DrawRules, Game};
use millbase::engine::matches::Rng;
use millbase::notation::format_position;
use millbase::{Color, Position};
use millbase::{Tablebase, Value, Variant};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

const BIN: &str = env!("CARGO_BIN_EXE_millbase");

/// 3-3, 3-4/4-3 and 4-4 of the standard game, generated once for this test binary.
fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(BIN)
            .args(["generate", "--quiet", "--dir"])
            .arg(dir.path())
            .arg("4-4")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        dir
    })
    .path()
}

fn engine_cmd(dir: &Path) -> String {
    format!("'{BIN}' uci --dir '{}'", dir.display())
}

/// Random positions of the tables' sectors that are not over, with their stored values;
/// about a fifth are remove-pending (a mill just closed by a slide). At most `draws` of
/// them are draws.
fn positions(tb: &Tablebase, n: usize, draws: usize, seed: u64) -> Vec<(Position, Value)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut drawn = 0;
    while out.len() < n {
        let Some(pos) = sample::random_position(&mut rng, &sample::SMALL_SECTORS) else {
            continue;
        };
        let value = tb.value(&pos).unwrap();
        if value == Value::Draw {
            if drawn == draws {
                continue;
            }
            drawn += 1;
        }
        out.push((pos, value));
    }
    out
}

/// Run `millbase match --json` with `args`; the per-game JSON objects, in order.
fn run_match(args: &[&str], starts: &[(Position, Value)]) -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("starts.txt");
    let v = Variant::standard();
    let text: String = starts
        .iter()
        .map(|(p, _)| format_position(&v, p) + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["match", "--json"]).args(args);
    if !starts.is_empty() {
        cmd.arg("--from").arg(&file);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut games: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = games.pop().unwrap();
    assert!(summary["summary"].is_array(), "{stdout}");
    for g in &games {
        assert_eq!(g["forfeit"], false, "a protocol error: {g}");
    }
    games
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

#[test]
fn perfect_play_from_200_table_positions() {
    let tb = Tablebase::open(tables(), Variant::standard()).unwrap();
    let starts = positions(&tb, 200, 50, 2026);
    let pending = starts.iter().filter(|(p, _)| p.pending_removal()).count();
    assert!(pending >= 20, "{pending} remove-pending starts");
    let engine = engine_cmd(tables());
    let games = run_match(&["--engine", &engine, "--movetime", "5000"], &starts);
    assert_eq!(games.len(), starts.len());
    let mut decided = 0;
    for (g, (pos, value)) in games.iter().zip(&starts) {
        let me = pos.to_move;
        let plies = g["plies"].as_u64().unwrap();
        let reason = g["reason"].as_str().unwrap();
        match *value {
            Value::Win(n) | Value::Loss(n) => {
                let winner = if matches!(value, Value::Win(_)) {
                    me
                } else {
                    me.other()
                };
                assert_eq!(g["winner"], color_name(winner), "{value:?}: {g}");
                assert_eq!(plies, u64::from(n), "{value:?}: {g}");
                decided += 1;
            }
            Value::Draw => {
                assert!(g["winner"].is_null(), "a draw: {g}");
                assert!(
                    reason.contains("threefold repetition") || reason.contains("100-move rule"),
                    "{g}"
                );
            }
        }
    }
    assert!(decided >= 150, "{decided}");
}

/// Millbase (engine 1) against a built-in mover, every start played with both colours:
/// millbase wins where the tables say its side wins and never loses where they say draw.
fn against(mover: &str, seed: u64) {
    let tb = Tablebase::open(tables(), Variant::standard()).unwrap();
    let starts = positions(&tb, 24, 12, seed);
    let engine = engine_cmd(tables());
    let games = run_match(
        &["--engine", &engine, "--engine", mover, "--movetime", "5000"],
        &starts,
    );
    assert_eq!(games.len(), 2 * starts.len());
    let (mut wins_needed, mut draws_held) = (0, 0);
    for (k, g) in games.iter().enumerate() {
        let (pos, value) = starts[k / 2];
        let mine = if g["white_engine"] == 1 {
            Color::White
        } else {
            Color::Black
        };
        let my_value = if mine == pos.to_move {
            value
        } else {
            match value {
                Value::Win(n) => Value::Loss(n),
                Value::Loss(n) => Value::Win(n),
                Value::Draw => Value::Draw,
            }
        };
        let winner = g["winner"].as_str();
        match my_value {
            Value::Win(_) => {
                assert_eq!(winner, Some(color_name(mine)), "{my_value:?}: {g}");
                wins_needed += 1;
            }
            Value::Draw => {
                assert_ne!(winner, Some(color_name(mine.other())), "drawn: {g}");
                draws_held += 1;
            }
            Value::Loss(_) => {}
        }
    }
    assert!(
        wins_needed >= 6 && draws_held >= 12,
        "{wins_needed} {draws_held}"
    );
}

#[test]
fn never_loses_a_table_draw_or_win_against_a_random_mover() {
    against("builtin:random", 7);
}

#[test]
fn never_loses_a_table_draw_or_win_against_a_greedy_mover() {
    against("builtin:greedy", 8);
}

/// Replay a game's moves from the empty board with the referee; its result must be the
/// reported one.
fn replayed_result(g: &serde_json::Value) -> String {
    let mut game = Game::from_start(Variant::standard(), DrawRules::default());
    for m in g["moves"].as_array().unwrap() {
        assert!(game.result().is_none(), "moves after the end: {g}");
        game.play_text(m.as_str().unwrap()).unwrap();
    }
    game.result().expect("a finished game").to_string()
}

#[test]
fn complete_games_from_the_empty_board() {
    // With the small tables, against itself.
    let engine = engine_cmd(tables());
    let games = run_match(
        &["--engine", &engine, "--movetime", "20", "--games", "1"],
        &[],
    );
    assert_eq!(games.len(), 1);
    assert_eq!(
        replayed_result(&games[0]),
        games[0]["reason"].as_str().unwrap()
    );
    // Without any table, against the greedy mover, both colours: no protocol error, and
    // the search beats a 1-ply mover.
    let none = tempfile::tempdir().unwrap();
    let engine = engine_cmd(none.path());
    let games = run_match(
        &[
            "--engine",
            &engine,
            "--engine",
            "builtin:greedy",
            "--movetime",
            "20",
            "--games",
            "2",
        ],
        &[],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(replayed_result(g), g["reason"].as_str().unwrap());
        let mine = if g["white_engine"] == 1 {
            "white"
        } else {
            "black"
        };
        assert_eq!(g["winner"], mine, "{g}");
    }
}

/// `millbase match --engine builtin:random` with `args` exits 2 with `message`, no game played.
fn assert_match_usage_error(args: &[&str], message: &str) {
    let out = Command::new(BIN)
        .args(["match", "--engine", "builtin:random"])
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("millbase: error: {message}\n")
    );
    assert!(out.stdout.is_empty(), "no game played: {out:?}");
}

#[test]
fn zero_games_is_a_usage_error() {
    assert_match_usage_error(&["--games", "0"], "--games must be at least 1");
}

#[test]
fn node_budgets_replay_the_same_games() {
    // `go nodes N` does not depend on the machine's load: the same match twice gives the same
    // moves.
    let none = tempfile::tempdir().unwrap();
    let engine = engine_cmd(none.path());
    let args = [
        "--engine",
        &engine,
        "--engine",
        "builtin:greedy",
        "--nodes",
        "300",
        "--games",
        "2",
    ];
    let moves = |games: &[serde_json::Value]| -> Vec<serde_json::Value> {
        games.iter().map(|g| g["moves"].clone()).collect()
    };
    let first = run_match(&args, &[]);
    let second = run_match(&args, &[]);
    assert_eq!(first.len(), 2);
    assert_eq!(moves(&first), moves(&second));
    for g in &first {
        assert_eq!(replayed_result(g), g["reason"].as_str().unwrap());
    }
    assert_match_usage_error(&["--nodes", "0"], "--nodes must be at least 1");
}
