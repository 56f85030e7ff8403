//! `millbase match`: games between UCI engines (or an engine and itself, or built-in movers),
//! refereed by millbase's rules (the chosen variant with its options, sent to the engines as
//! Sanmill's rule options) including both draw rules.

use super::CliError;
use super::common::{GameRuleArg, VariantArg, emit, read_position_lines};
use clap::Args;
use millbase::Color;
use millbase::engine::game::{DrawRules, Reason};
use millbase::engine::matches::{
    BuiltinPlayer, GameRecord, GoLimit, MatchConfig, Player, Standing, UciPlayer, run_match,
};
use millbase::engine::sanmill;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `millbase match`.
#[derive(Debug, Args)]
#[command(mut_arg("n_move_rule", |a| a.help(
    "The N-move rule's N (0: off) [default: the variant's n-move-rule, 100 in every named rule \
     set]; the same as --rule n-move-rule=N. Also sent to the engines as the option NMoveRule"
)))]
pub struct MatchArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// An engine: a command that speaks UCI (quote it with its arguments, e.g.
    /// 'millbase uci --dir data/std'), or builtin:random / builtin:greedy. Given once, the
    /// engine plays itself (two instances); given twice, the two play each other.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    engines: Vec<String>,
    /// Games to play, at least 1 [default: one per start position for an engine against
    /// itself, two (colours swapped) per start position for two engines].
    #[arg(
        long,
        value_name = "N",
        value_parser = super::common::whole::<usize>(),
        allow_negative_numbers = true
    )]
    games: Option<usize>,
    /// Time per move sent to the engines (`go movetime MS`).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000,
        value_parser = super::common::whole::<u64>(),
        allow_negative_numbers = true
    )]
    movetime: u64,
    /// Nodes per move instead of a time (`go nodes N`): the same games whatever the
    /// machine's load.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "movetime",
        value_parser = super::common::whole::<u64>(),
        allow_negative_numbers = true
    )]
    nodes: Option<u64>,
    /// An engine that does not answer within this many milliseconds loses the game
    /// [default: twice the movetime plus 2000; 60000 with --nodes].
    #[arg(
        long,
        value_name = "MS",
        value_parser = super::common::whole::<u64>(),
        allow_negative_numbers = true
    )]
    timeout: Option<u64>,
    /// Start positions, one per line: `startpos` or a Sanmill position string, optionally
    /// followed by `moves m1 m2 ...`; blank lines and lines starting with # are skipped
    /// [default: the initial position].
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    #[command(flatten)]
    n_move_rule: GameRuleArg,
    /// A game longer than this many actions is a draw (a safety net).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 2000,
        value_parser = super::common::whole::<usize>(),
        allow_negative_numbers = true
    )]
    max_actions: usize,
    /// Seed of the built-in movers.
    #[arg(
        long,
        default_value_t = 1,
        value_parser = super::common::whole::<u64>(),
        allow_negative_numbers = true
    )]
    seed: u64,
    /// Print one JSON object per game and a final {"summary": [...]} line.
    #[arg(long)]
    json: bool,
}

/// Read the start positions of a file, checking each one.
fn read_starts(args: &MatchArgs, rules: DrawRules) -> Result<Vec<String>, CliError> {
    let v = args.variant.get()?;
    let Some(path) = &args.from else {
        return Ok(vec!["startpos".into()]);
    };
    let starts: Vec<String> = read_position_lines(path, v, rules)?
        .into_iter()
        .map(|(_, text, _)| text)
        .collect();
    if starts.is_empty() {
        return Err(CliError::usage(format!(
            "{}: no start positions",
            path.display()
        )));
    }
    Ok(starts)
}

fn game_line(r: &GameRecord, names: &[String; 2]) -> String {
    format!(
        "game {}: {} (white) - {} (black), start {}: {} {}; {} plies: {}",
        r.number,
        names[r.white],
        names[r.black],
        r.start,
        r.result.score_text(),
        r.result,
        r.plies,
        r.moves.join(" ")
    )
}

fn game_json(r: &GameRecord, names: &[String; 2]) -> String {
    let winner = match r.result.winner {
        Some(Color::White) => serde_json::Value::from("white"),
        Some(Color::Black) => serde_json::Value::from("black"),
        None => serde_json::Value::Null,
    };
    serde_json::json!({
        "game": r.number,
        "white": names[r.white],
        "black": names[r.black],
        "white_engine": r.white + 1,
        "black_engine": r.black + 1,
        "start": r.start,
        "result": r.result.score_text(),
        "winner": winner,
        "reason": r.result.to_string(),
        "forfeit": r.result.reason == Reason::Forfeit,
        "plies": r.plies,
        "moves": r.moves,
    })
    .to_string()
}

/// `millbase match`.
pub fn run_match_cmd(args: &MatchArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    if args.engines.len() > 2 {
        return Err(CliError::usage("--engine: at most two engines"));
    }
    if args.movetime == 0 {
        return Err(CliError::usage("--movetime must be at least 1 ms"));
    }
    if args.nodes == Some(0) {
        return Err(CliError::usage("--nodes must be at least 1"));
    }
    if args.games == Some(0) {
        return Err(CliError::usage("--games must be at least 1"));
    }
    let rules = args.n_move_rule.rules(&v);
    let starts = read_starts(args, rules)?;
    let pairs = args.engines.len() == 2;
    let (limit, default_timeout) = match args.nodes {
        Some(n) => (GoLimit::Nodes(n), 60_000),
        None => (
            GoLimit::MoveTime(Duration::from_millis(args.movetime)),
            args.movetime * 2 + 2000,
        ),
    };
    let timeout = Duration::from_millis(args.timeout.unwrap_or(default_timeout));
    // The rules: the set's name, each option that differs from the set (Sanmill's names),
    // then the N-move rule.
    let mut setup = sanmill::setup_commands(&v);
    setup.push(format!(
        "setoption name NMoveRule value {}",
        rules.n_move.n()
    ));
    let make = |i: usize, cmd: &str| -> Result<Box<dyn Player>, CliError> {
        let seed = args.seed.wrapping_add(i as u64);
        Ok(match cmd {
            "builtin:random" => Box::new(BuiltinPlayer::random(seed)),
            "builtin:greedy" => Box::new(BuiltinPlayer::greedy(seed)),
            _ => Box::new(
                UciPlayer::start(cmd, setup.clone(), limit, timeout).map_err(CliError::usage)?,
            ),
        })
    };
    let second = args.engines.get(1).unwrap_or(&args.engines[0]).clone();
    let mut players: [Box<dyn Player>; 2] = [make(0, &args.engines[0])?, make(1, &second)?];
    let names = [
        format!("1:{}", players[0].name()),
        format!("2:{}", players[1].name()),
    ];
    let games = args
        .games
        .unwrap_or(starts.len() * if pairs { 2 } else { 1 });
    let config = MatchConfig {
        variant: v,
        rules,
        games,
        starts,
        pairs,
        max_actions: args.max_actions,
    };
    let json = args.json;
    let mut print_err = None;
    let records = run_match(&config, &mut players, |r| {
        let line = if json {
            game_json(r, &names)
        } else {
            game_line(r, &names)
        };
        if let Err(e) = emit(&format!("{line}\n")) {
            print_err.get_or_insert(e);
        }
    })
    .map_err(CliError::usage)?;
    if let Some(e) = print_err {
        return Err(e);
    }
    let stats = [Standing::of(&records, 0), Standing::of(&records, 1)];
    let text = if json {
        let rows: Vec<serde_json::Value> = (0..2)
            .map(|p| {
                let s = &stats[p];
                serde_json::json!({"engine": names[p], "games": s.games, "wins": s.wins,
                    "draws": s.draws, "losses": s.losses, "forfeits": s.forfeits,
                    "score": s.points(), "fraction": s.fraction(), "margin95": s.margin95()})
            })
            .collect();
        format!("{}\n", serde_json::json!({ "summary": rows }))
    } else {
        let mut t = format!(
            "\n{:<32} {:>6} {:>6} {:>6} {:>6} {:>7} {:>9}\n",
            "engine", "games", "wins", "draws", "losses", "score", "forfeits"
        );
        for p in 0..2 {
            let s = &stats[p];
            let _ = writeln!(
                t,
                "{:<32} {:>6} {:>6} {:>6} {:>6} {:>7.1} {:>9}",
                names[p],
                s.games,
                s.wins,
                s.draws,
                s.losses,
                s.points(),
                s.forfeits
            );
        }
        let s = &stats[0];
        let f = s.fraction();
        let _ = match s.margin95() {
            Some(m) => writeln!(
                t,
                "{} scores {:.1} % +- {:.1} % (95 %), Elo difference {:+.0} ({:+.0} to {:+.0})",
                names[0],
                100.0 * f,
                100.0 * m,
                Standing::elo(f),
                Standing::elo((f - m).max(0.0)),
                Standing::elo((f + m).min(1.0))
            ),
            None => writeln!(
                t,
                "{} scores {:.1} % (no error margin: too few games, or all ended alike)",
                names[0],
                100.0 * f
            ),
        };
        t
    };
    emit(&text)
}
