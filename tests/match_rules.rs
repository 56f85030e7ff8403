//! Self-play under every named rule set and under each stalemate and full-board option:
//! `millbase match` with random movers and with the engine against itself (short movetime),
//! and the library's referee with random movers. Every game ends by a reason the rules give
//! (fewer than three stones, no legal move or a blocked position, a full board, the N-move
//! rule, threefold repetition): no panic, no illegal move, no forfeit, no move limit.

use millbase::Variant;
use millbase::engine::game::{DrawRules, Reason};
use millbase::engine::matches::{BuiltinPlayer, MatchConfig, Player, run_match};
use millbase::rules::{BoardFull, Stalemate};
use std::process::Command;

/// The reasons the rules give, as `match` prints them.
const REASONS: [&str; 6] = [
    "has fewer than three stones",
    "has no legal move",
    "blocked position",
    "the board is full",
    "-move rule: no placement or removal",
    "threefold repetition",
];

/// Run `millbase match --json` with `args`; the game objects.
fn match_games(args: &[&str]) -> Vec<serde_json::Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_millbase"))
        .arg("match")
        .args(["--json", "--max-actions", "100000"])
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{args:?}: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|j| j.get("game").is_some())
        .collect()
}

/// Check a game's end against the rules of `v`; the reason's kind.
fn check(v: &Variant, game: &serde_json::Value) -> &'static str {
    assert_eq!(game["forfeit"], false, "{}: {game}", v.label());
    let reason = game["reason"].as_str().unwrap();
    let kind = REASONS
        .iter()
        .find(|r| reason.contains(*r))
        .unwrap_or_else(|| panic!("{}: not a reason of the rules: {game}", v.label()));
    match *kind {
        "blocked position" => assert!(
            matches!(v.stalemate, Stalemate::Draw | Stalemate::Pass),
            "{reason}"
        ),
        "has no legal move" => assert!(
            !matches!(v.stalemate, Stalemate::Draw | Stalemate::Pass),
            "{reason}"
        ),
        "the board is full" => assert!(
            matches!(v.board_full, BoardFull::WhiteLoses | BoardFull::Draw)
                && 2 * v.stones >= v.board().len() as u8,
            "{reason}"
        ),
        _ => {}
    }
    kind
}

#[test]
fn random_games_under_every_rule_set() {
    let mut kinds = std::collections::BTreeSet::new();
    for name in Variant::names() {
        let v = Variant::by_name(name).unwrap();
        let games = match_games(&[
            "--variant",
            name,
            "--engine",
            "builtin:random",
            "--games",
            "8",
            "--seed",
            "7",
        ]);
        assert_eq!(games.len(), 8, "{name}");
        for g in &games {
            kinds.insert(check(&v, g));
        }
    }
    for k in [
        "has fewer than three stones",
        "-move rule: no placement or removal",
        "threefold repetition",
    ] {
        assert!(kinds.contains(k), "{k} never seen: {kinds:?}");
    }
}

#[test]
fn the_engine_plays_itself_under_every_rule_set() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!(
        "{} uci --dir {}",
        env!("CARGO_BIN_EXE_millbase"),
        dir.path().display()
    );
    let names = Variant::names();
    // Two at a time.
    let halves: Vec<Vec<&str>> = names
        .chunks(names.len().div_ceil(2))
        .map(<[_]>::to_vec)
        .collect();
    std::thread::scope(|s| {
        for half in &halves {
            let engine = &engine;
            s.spawn(move || {
                for name in half {
                    let v = Variant::by_name(name).unwrap();
                    let games = match_games(&[
                        "--variant",
                        name,
                        "--engine",
                        engine,
                        "--games",
                        "1",
                        "--movetime",
                        "5",
                    ]);
                    assert_eq!(games.len(), 1, "{name}");
                    check(&v, &games[0]);
                }
            });
        }
    });
}

#[test]
fn the_referee_follows_stalemate_and_full_board_options() {
    let mut variants = Vec::new();
    for s in Stalemate::names().split(", ") {
        variants.push(Variant::from_rules("std", &[format!("stalemate={s}")]).unwrap());
        variants.push(
            Variant::from_rules("cham-gonu", &[format!("stalemate={s}"), "fly=off".into()])
                .unwrap(),
        );
    }
    for b in BoardFull::names().split(", ") {
        variants
            .push(Variant::from_rules("twelve-mens-morris", &[format!("board-full={b}")]).unwrap());
    }
    assert!(variants.len() >= 10, "{variants:?}");
    for v in variants {
        let config = MatchConfig {
            variant: v,
            rules: DrawRules::of_variant(&v),
            games: 12,
            starts: vec!["startpos".into()],
            pairs: false,
            max_actions: 100_000,
        };
        let mut players: [Box<dyn Player>; 2] = [
            Box::new(BuiltinPlayer::random(3)),
            Box::new(BuiltinPlayer::random(4)),
        ];
        let records = run_match(&config, &mut players, |_| {}).unwrap();
        for r in records {
            assert!(
                !matches!(r.result.reason, Reason::Forfeit | Reason::MoveLimit),
                "{}: {}",
                v.label(),
                r.result
            );
            let game = serde_json::json!({"forfeit": false, "reason": r.result.to_string()});
            check(&v, &game);
        }
    }
}
