//! `millbase blunders`: the blunder meter. `sample` draws a fixed set of positions from games;
//! `measure` asks the engine (with the default tables, other tables, or none) for its move in
//! each and checks it against a judge's tables of the whole game, or against an answer key
//! that `key` wrote from them.

use super::CliError;

mod fit;
mod key;
use super::common::{
    GameRuleArg, VariantArg, emit, read_position_lines, table_dir, whole, whole_from,
};
use clap::{Args, Subcommand};
use millbase::engine::blunders::{
    Counts, Judged, Phase, SampleConfig, Tally, judge, judge_moves, measure, sample_positions,
};
use millbase::engine::game::{DrawRules, Game};
use millbase::engine::oracle::Oracle;
use millbase::engine::{Engine, EngineConfig, Limits, Source};
use millbase::notation::format_move;
use millbase::{Position, Value, Variant};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Arguments of `millbase blunders`.
#[derive(Debug, Args)]
pub struct BlundersArgs {
    /// What to do.
    #[command(subcommand)]
    command: BlundersCommand,
}

/// The two parts of the meter.
#[derive(Debug, Subcommand)]
enum BlundersCommand {
    /// Draw positions from random games and the engine's games against itself, one Sanmill
    /// position string per line (with a header of `#` lines saying how).
    Sample(SampleArgs),
    /// Ask the engine for its move in each position of a file and judge it by the tables of
    /// the whole game: how often it gives away a win or a draw.
    Measure(MeasureArgs),
    /// Write the judge's value of every legal move of each position of a file (an answer
    /// key, a few hundred KB of text), so that `measure --key` judges without the tables.
    Key(key::KeyArgs),
    /// Fit the evaluation's weights to the judge's exact values of the quiet positions of a
    /// file (a logistic regression per phase); prints the fit and the weights as Rust. Keep
    /// its positions apart from those the meter measures.
    Fit(fit::FitArgs),
}

/// The arguments `key` and `fit` share: a positions file and the judge's tables.
#[derive(Debug, Args)]
pub(super) struct JudgedPositions {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    n_move_rule: GameRuleArg,
    /// The positions, one per line (as for `measure`; `blunders sample` draws them).
    #[arg(long, value_name = "FILE")]
    positions: PathBuf,
    /// The judge: tables of the whole game (every successor's sector), solved under the
    /// game's N-move rule.
    #[arg(long, value_name = "DIR")]
    judge: PathBuf,
}

/// [`JudgedPositions`] read: the variant, its draw rules, the positions and the judge.
pub(super) struct Judging {
    /// The variant.
    pub v: Variant,
    /// Its draw rules (the N-move rule given).
    pub rules: DrawRules,
    /// The positions: line number, text, game.
    pub games: Vec<(usize, String, Game)>,
    /// The judge's tables.
    pub judge: Oracle,
}

impl JudgedPositions {
    /// Read the positions and open the judge.
    pub(super) fn open(&self) -> Result<Judging, CliError> {
        let v = self.variant.get()?;
        let rules = self.n_move_rule.rules(&v);
        Ok(Judging {
            v,
            rules,
            games: read_positions(&self.positions, v, rules)?,
            judge: open_judge(&self.judge, v, rules)?,
        })
    }
}

/// The error of a judge without the tables of every successor of some positions (`which`).
pub(super) fn judge_lacks_tables(judge: &Path, which: &str) -> CliError {
    CliError::usage(format!(
        "--judge {} cannot value every move of {which}: the judge needs the tables of every sector the positions reach",
        judge.display()
    ))
}

/// Arguments of `millbase blunders sample`.
#[derive(Debug, Args)]
struct SampleArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    n_move_rule: GameRuleArg,
    /// Positions to draw.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = whole_from::<usize>(1), allow_negative_numbers = true)]
    count: usize,
    /// Seed of every random choice (the same seed gives the same positions).
    #[arg(long, default_value_t = 1, value_parser = whole::<u64>(), allow_negative_numbers = true)]
    seed: u64,
    /// Only positions with at least this many stones on the board [default: one more than
    /// the default table set's 10].
    #[arg(long, value_name = "N", default_value_t = 11, value_parser = whole::<u32>(), allow_negative_numbers = true)]
    min_stones: u32,
    /// Share of positions from uniformly random games, in percent; the rest come from the
    /// engine's games against itself (no tables, a node budget per move).
    #[arg(long, value_name = "PERCENT", default_value_t = 25, value_parser = whole::<u32>(), allow_negative_numbers = true)]
    random_percent: u32,
    /// Node budget per move of the engine's games.
    #[arg(long, value_name = "N", default_value_t = 3000, value_parser = whole_from::<u64>(1), allow_negative_numbers = true)]
    nodes: u64,
    /// Random plies at the start of each engine game.
    #[arg(long, value_name = "N", default_value_t = 6, value_parser = whole::<usize>(), allow_negative_numbers = true)]
    random_opening: usize,
    /// Positions taken from one game at most.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = whole_from::<usize>(1), allow_negative_numbers = true)]
    per_game: usize,
}

/// Arguments of `millbase blunders measure`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("referee").required(true).args(["judge", "key"])))]
struct MeasureArgs {
    #[command(flatten)]
    variant: VariantArg,
    #[command(flatten)]
    n_move_rule: GameRuleArg,
    /// The positions, one per line (a Sanmill position string, or `startpos`, optionally
    /// followed by `moves ...`); blank lines and lines starting with # are skipped.
    #[arg(long, value_name = "FILE")]
    positions: PathBuf,
    /// The judge: tables of the whole game (every successor's sector), solved under the
    /// game's N-move rule.
    #[arg(long, value_name = "DIR")]
    judge: Option<PathBuf>,
    /// Judge by an answer key instead (written by `millbase blunders key` from the judge's
    /// tables): it must hold every position of the file.
    #[arg(long, value_name = "FILE")]
    key: Option<PathBuf>,
    /// The engine's tables [default: data/<variant>].
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The engine searches without tables.
    #[arg(long, conflicts_with = "dir")]
    no_tables: bool,
    /// Time per move, milliseconds.
    #[arg(long, value_name = "MS", value_parser = whole_from::<u64>(1), allow_negative_numbers = true)]
    movetime: Option<u64>,
    /// Search depth per move (reproducible, unlike a time).
    #[arg(long, value_name = "N", value_parser = whole_from::<u32>(1), allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Node budget per move (reproducible, unlike a time).
    #[arg(long, value_name = "N", value_parser = whole_from::<u64>(1), allow_negative_numbers = true)]
    nodes: Option<u64>,
    /// Transposition table size, MiB.
    #[arg(long, value_name = "MB", default_value_t = millbase::engine::DEFAULT_HASH_MB, value_parser = whole_from::<usize>(1), allow_negative_numbers = true)]
    hash: usize,
    /// Positions searched at once, each by its own engine on its own thread (1 measures
    /// what one engine thinking alone does in the time).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1, value_parser = whole_from::<usize>(1), allow_negative_numbers = true)]
    jobs: usize,
    /// Blunders listed (the worst first: wins lost, then draws lost, then wins drawn).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = whole::<usize>(), allow_negative_numbers = true)]
    worst: usize,
    /// One JSON object: the counts per phase and stones on the board, the totals, and every
    /// blunder.
    #[arg(long)]
    json: bool,
}

/// `millbase blunders`.
pub fn run_blunders(args: &BlundersArgs) -> Result<(), CliError> {
    match &args.command {
        BlundersCommand::Sample(a) => run_sample(a),
        BlundersCommand::Measure(a) => run_measure(a),
        BlundersCommand::Key(a) => key::run_key(a),
        BlundersCommand::Fit(a) => fit::run_fit(a),
    }
}

fn run_sample(args: &SampleArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    let rules = args.n_move_rule.rules(&v);
    if args.random_percent > 100 {
        return Err(CliError::usage("--random-percent must be at most 100"));
    }
    let config = SampleConfig {
        variant: v,
        rules,
        count: args.count,
        seed: args.seed,
        min_on_board: args.min_stones,
        random_percent: args.random_percent,
        self_play_nodes: args.nodes,
        random_opening: args.random_opening,
        per_game: args.per_game,
    };
    let sampled = sample_positions(&config);
    if sampled.len() < args.count {
        return Err(CliError::usage(format!(
            "only {} distinct positions with at least {} stones on the board found (asked for {})",
            sampled.len(),
            args.min_stones,
            args.count
        )));
    }
    let mut text = format!(
        "# millbase blunders sample --variant {} --n-move-rule {} --count {} --seed {} \
         --min-stones {} --random-percent {} --nodes {} --random-opening {} --per-game {}\n",
        v.label(),
        rules.n_move.n(),
        args.count,
        args.seed,
        args.min_stones,
        args.random_percent,
        args.nodes,
        args.random_opening,
        args.per_game
    );
    for s in &sampled {
        let _ = writeln!(text, "{}", s.fen);
    }
    emit(&text)
}

/// One position of the file, measured.
struct Row {
    line: usize,
    text: String,
    pos: Position,
    judged: Judged,
    source: Source,
}

pub(super) fn read_positions(
    path: &Path,
    v: Variant,
    rules: DrawRules,
) -> Result<Vec<(usize, String, Game)>, CliError> {
    let games = read_position_lines(path, v, rules)?;
    if let Some((line, _, _)) = games.iter().find(|(_, _, g)| g.result().is_some()) {
        return Err(CliError::usage(format!(
            "{} line {line}: the game is over there",
            path.display()
        )));
    }
    if games.is_empty() {
        return Err(CliError::usage(format!("{}: no positions", path.display())));
    }
    Ok(games)
}

fn run_measure(args: &MeasureArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    let rules = args.n_move_rule.rules(&v);
    if args.movetime.is_none() && args.depth.is_none() && args.nodes.is_none() {
        return Err(CliError::usage(
            "give the engine a limit: --movetime MS, --depth N or --nodes N",
        ));
    }
    let games = read_positions(&args.positions, v, rules)?;
    let (referee, judge_name) = match (&args.judge, &args.key) {
        (Some(dir), _) => (
            Referee::Tables(Box::new(open_judge(dir, v, rules)?)),
            dir.display().to_string(),
        ),
        (None, Some(file)) => (
            Referee::Key(key::load_key(file, v, rules)?),
            file.display().to_string(),
        ),
        (None, None) => return Err(CliError::usage("give --judge DIR or --key FILE")),
    };
    let judge_position = |game: &Game, played| match &referee {
        Referee::Tables(oracle) => judge(oracle, game, played),
        Referee::Key(k) => k
            .values
            .get(&(*game.position(), game.counter()))
            .and_then(|values| judge_moves(values, played)),
    };
    let engine_dir = table_dir(&args.dir, &v);
    let config = EngineConfig {
        use_tables: !args.no_tables,
        hash_mb: args.hash,
        rules,
        ..EngineConfig::new(v, engine_dir.clone())
    };
    let limits = Limits {
        movetime: args.movetime.map(Duration::from_millis),
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    };
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Row>> = Mutex::default();
    let unjudged: Mutex<Vec<usize>> = Mutex::default();
    let warnings: Mutex<Vec<String>> = Mutex::default();
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(games.len()) {
            scope.spawn(|| {
                let mut engine = Engine::new(config.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((line, text, game)) = games.get(i) else {
                        break;
                    };
                    let Some(m) = measure(&mut engine, judge_position, game, &limits) else {
                        continue;
                    };
                    match m.judged {
                        Some(judged) => lock(&rows).push(Row {
                            line: *line,
                            text: text.clone(),
                            pos: *game.position(),
                            judged,
                            source: m.source,
                        }),
                        None => lock(&unjudged).push(*line),
                    }
                }
                lock(&warnings).extend(engine.take_table_warnings());
            });
        }
    });
    let elapsed = started.elapsed();
    let mut rows = rows.into_inner().unwrap_or_else(|p| p.into_inner());
    rows.sort_by_key(|r| r.line);
    let mut unjudged = unjudged.into_inner().unwrap_or_else(|p| p.into_inner());
    unjudged.sort_unstable();
    if !unjudged.is_empty() {
        let which = format!(
            "{} of {} (line {}{})",
            super::common::count(unjudged.len() as u64, "position", "positions"),
            args.positions.display(),
            unjudged[0],
            if unjudged.len() > 1 { ", ..." } else { "" }
        );
        return Err(match &referee {
            Referee::Tables(_) => judge_lacks_tables(Path::new(&judge_name), &which),
            Referee::Key(_) => CliError::usage(format!(
                "--key {judge_name} has no line for {which} (a key of another positions file?)"
            )),
        });
    }
    for w in warnings.into_inner().unwrap_or_else(|p| p.into_inner()) {
        eprintln!("millbase: warning: {w}");
    }
    let mut tally = Tally::default();
    for r in &rows {
        tally.add(&r.pos, &r.judged, r.source);
    }
    let mut blunders: Vec<&Row> = rows
        .iter()
        .filter(|r| r.judged.verdict.is_blunder())
        .collect();
    blunders.sort_by_key(|r| (std::cmp::Reverse(r.judged.verdict), r.line));
    let engine_text = format!(
        "{}, {}",
        if args.no_tables {
            "no tables".to_string()
        } else {
            format!("tables {}", engine_dir.display())
        },
        limits_text(&limits)
    );
    let report = Report {
        v,
        tally,
        blunders,
        engine: engine_text,
        elapsed,
        dtr: match &referee {
            Referee::Tables(oracle) => oracle.distances_are_dtr(),
            Referee::Key(k) => k.header.dtr,
        },
        judge: judge_name,
    };
    let out = if args.json {
        json_report(args, &report)
    } else {
        text_report(args, &report)
    };
    emit(&out)
}

/// What judges the engine's moves.
enum Referee {
    /// The whole game's tables.
    Tables(Box<Oracle>),
    /// An answer key written from them.
    Key(key::LoadedKey),
}

/// The judge's tables at `path`: usable, and exact under the game's N-move rule.
pub(super) fn open_judge(path: &Path, v: Variant, rules: DrawRules) -> Result<Oracle, CliError> {
    if !path.is_dir() {
        return Err(CliError::usage(format!(
            "--judge {}: no such directory",
            path.display()
        )));
    }
    let judge = Oracle::open(path, v, rules.n_move);
    if judge.warm() == 0 {
        let why = judge.take_warnings().join("; ");
        return Err(CliError::usage(format!(
            "--judge {}: no usable tables{}",
            path.display(),
            if why.is_empty() {
                String::new()
            } else {
                format!(" ({why})")
            }
        )));
    }
    if !judge.rule_exact() {
        return Err(CliError::usage(format!(
            "--judge {}: its tables are solved under the {}, not the game's {} (give --n-move-rule or tables of the game's rule)",
            path.display(),
            judge.rule(),
            rules.n_move
        )));
    }
    Ok(judge)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn limits_text(l: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(t) = l.movetime {
        parts.push(format!("movetime {} ms", t.as_millis()));
    }
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes {n}"));
    }
    parts.join(", ")
}

/// A judge's value: distances are DTR under an N-move rule, plies to the end without.
fn value_text(v: Value, dtr: bool) -> String {
    match (v, dtr) {
        (Value::Win(n), true) => format!("win, DTR {n}"),
        (Value::Loss(n), true) => format!("loss, DTR {n}"),
        (v, _) => v.to_string(),
    }
}

fn moves_text(v: &Variant, moves: &[millbase::Move]) -> Vec<String> {
    moves.iter().map(|&m| format_move(v, m)).collect()
}

/// What a measurement found, to print.
struct Report<'a> {
    v: Variant,
    tally: Tally,
    blunders: Vec<&'a Row>,
    engine: String,
    elapsed: Duration,
    /// The judge's distances are DTR.
    dtr: bool,
    /// The judge's tables or key, as given.
    judge: String,
}

fn text_report(args: &MeasureArgs, r: &Report) -> String {
    let (v, tally, blunders, engine, elapsed) = (&r.v, &r.tally, &r.blunders, &r.engine, r.elapsed);
    let mut t = format!(
        "blunder meter: {} positions of {}; engine: {engine}; judge: {}; {:.1} s\n\n",
        tally.total(None).positions,
        args.positions.display(),
        r.judge,
        elapsed.as_secs_f64()
    );
    let _ = writeln!(
        t,
        "{:<8} {:>6} {:>9} {:>8} {:>5} {:>5} {:>9} {:>10} {:>9} {:>8} {:>7} {:>10} {:>7}",
        "phase",
        "stones",
        "positions",
        "critical",
        "won",
        "drawn",
        "win>draw",
        "draw>loss",
        "win>loss",
        "blunders",
        "rate",
        "critical%",
        "tables"
    );
    let row = |t: &mut String, phase: &str, stones: &str, c: &Counts| {
        let _ = writeln!(
            t,
            "{:<8} {:>6} {:>9} {:>8} {:>5} {:>5} {:>9} {:>10} {:>9} {:>8} {:>6.1}% {:>9.1}% {:>7}",
            phase,
            stones,
            c.positions,
            c.critical,
            c.won,
            c.drawn,
            c.win_to_draw,
            c.draw_to_loss,
            c.win_to_loss,
            c.blunders(),
            c.rate(),
            c.critical_rate(),
            c.from_tables
        );
    };
    for (&(phase, stones), c) in &tally.groups {
        row(&mut t, phase.name(), &stones.to_string(), c);
    }
    for phase in [Phase::Placing, Phase::Moving] {
        row(&mut t, phase.name(), "all", &tally.total(Some(phase)));
    }
    row(&mut t, "all", "all", &tally.total(None));
    let _ = writeln!(
        t,
        "rate: blunders per position; critical%: per position where some move gives the result away; tables: moves the engine took from its tables"
    );
    if args.worst > 0 && !blunders.is_empty() {
        let _ = writeln!(t, "\nworst blunders:");
        for b in blunders.iter().take(args.worst) {
            let j = &b.judged;
            let _ = writeln!(
                t,
                "  line {}: {}\n    played {} ({}), position {}: keeping {}",
                b.line,
                b.text,
                format_move(v, j.played),
                value_text(j.played_value, r.dtr),
                value_text(j.value, r.dtr),
                moves_text(v, &j.keeping).join(" ")
            );
        }
    }
    t
}

fn counts_json(c: &Counts) -> serde_json::Value {
    serde_json::json!({
        "positions": c.positions, "critical": c.critical, "won": c.won, "drawn": c.drawn,
        "win_to_draw": c.win_to_draw, "draw_to_loss": c.draw_to_loss,
        "win_to_loss": c.win_to_loss, "blunders": c.blunders(),
        "rate_percent": c.rate(), "critical_rate_percent": c.critical_rate(),
        "from_tables": c.from_tables,
    })
}

fn json_report(args: &MeasureArgs, r: &Report) -> String {
    let (v, tally, blunders, engine, elapsed) = (&r.v, &r.tally, &r.blunders, &r.engine, r.elapsed);
    let groups: Vec<serde_json::Value> = tally
        .groups
        .iter()
        .map(|(&(phase, stones), c)| {
            let mut g = counts_json(c);
            g["phase"] = phase.name().into();
            g["stones"] = stones.into();
            g
        })
        .collect();
    let list: Vec<serde_json::Value> = blunders
        .iter()
        .map(|b| {
            let j = &b.judged;
            serde_json::json!({
                "line": b.line,
                "position": b.text,
                "played": format_move(v, j.played),
                "played_value": value_text(j.played_value, r.dtr),
                "value": value_text(j.value, r.dtr),
                "verdict": j.verdict.name(),
                "keeping": moves_text(v, &j.keeping),
                "source": b.source.name(),
            })
        })
        .collect();
    format!(
        "{}\n",
        serde_json::json!({
            "positions_file": args.positions.display().to_string(),
            "judge": r.judge,
            "engine": engine,
            "seconds": elapsed.as_secs_f64(),
            "groups": groups,
            "placing": counts_json(&tally.total(Some(Phase::Placing))),
            "moving": counts_json(&tally.total(Some(Phase::Moving))),
            "total": counts_json(&tally.total(None)),
            "blunders": list,
        })
    )
}
