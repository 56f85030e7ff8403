//! Sanmill's UCI dialect: a long-running engine on any line input and output.
//!
//! Commands: `uci`, `isready`, `setoption name N value V`, `ucinewgame`,
//! `position startpos|fen FEN [moves m1 m2 ...]`, `go [movetime MS] [depth D] [nodes N]
//! [infinite] [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N]`, `stop`, `quit`, and
//! `d` (show the position as `info string` lines). Moves are written in Sanmill's split
//! convention (`d6`, `a1-a4`, and a removal as its own token `xg7`); combined moves
//! (`a1-a4xg7`) are accepted in `position` too.
//!
//! Tables not used are reported in `info string` lines: every file named like a table that
//! is not used, and why, when the tables are opened (at the first `isready` or `go`); a
//! table found damaged while answering a `go`, before that `go`'s answer.
//!
//! The answer to `go` is one `info string source=tables|search ...` line, then exactly one
//! line `info depth D score cp S|mate M nodes N time T pv ... bestmove TOKEN`, where TOKEN
//! is one action: after a mill-closing action the next `go` answers the removal. `bestmove
//! none` only when there is no legal action.
//!
//! The engine never exits or panics on a bad line: unknown commands and options are ignored
//! with an `info string`, a bad `position` keeps the previous position (with an `info string`
//! saying why), a bad `go` parameter is ignored. While a search runs, `isready` is answered
//! at once, `stop` ends it, `quit` ends it and the engine; any other command waits for the
//! search to finish (an `infinite` search is stopped first) and is then carried out. At the
//! end of the input a running search still answers (an infinite one is stopped), then the
//! session ends.

use super::game::{DrawRules, Game};
use super::{Decision, Engine, EngineConfig, Limits, Source};
use crate::game::notation::format_move;
use crate::game::position::Move;
use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// The engine's name in `id name`.
pub const NAME: &str = concat!("millbase ", env!("CARGO_PKG_VERSION"));
/// The engine's author in `id author`.
pub const AUTHOR: &str = "the millbase developers";

/// Largest `MoveTime` in seconds.
const MAX_MOVE_TIME: u64 = 3600;
/// Largest `Hash` in MiB.
const MAX_HASH: u64 = 4096;

/// `go` parameters followed by a number.
const GO_NUMBERS: [&str; 8] = [
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "depth",
    "nodes",
    "movestogo",
];
/// Every `go` parameter.
const GO_WORDS: [&str; 10] = [
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "depth",
    "nodes",
    "movestogo",
    "infinite",
    "ponder",
];

/// How the session was started.
#[derive(Clone, Debug)]
pub struct UciStart {
    /// Initial settings.
    pub config: EngineConfig,
    /// Whether the table directory was given (otherwise it follows the variant:
    /// `data/<variant>`).
    pub dir_given: bool,
}

enum Event {
    Line(String),
    Eof,
    Done(Box<Engine>, Box<Decision>),
}

struct Running {
    stop: Arc<AtomicBool>,
    infinite: bool,
    /// `stop` (or `quit`, or end of input) was received.
    stopped: bool,
    /// An infinite search's answer, held until `stop`.
    held: Option<Box<Decision>>,
}

struct Session<W: Write> {
    out: W,
    engine: Option<Box<Engine>>,
    config: EngineConfig,
    dir_given: bool,
    game: Game,
    running: Option<Running>,
    deferred: VecDeque<String>,
    eof: bool,
    /// Report the tables at the next `isready` or `go`.
    announce: bool,
    /// `flyPieceCount`, kept while flying is off (`MayFly false`).
    fly_count: u8,
    tx: Sender<Event>,
    rx: Receiver<Event>,
}

/// Run a session on `input` and `output` until `quit` or the end of the input.
///
/// # Errors
///
/// The [`io::Error`] of writing to `output` (e.g. a closed pipe); the session ends then.
pub fn run<R, W>(start: UciStart, input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    std::thread::spawn(move || read_lines(input, reader_tx));
    let game = Game::from_start(start.config.variant, start.config.rules);
    let fly_count = start.config.variant.fly_at.unwrap_or(3);
    let mut s = Session {
        out: output,
        engine: Some(Box::new(Engine::new(start.config.clone()))),
        config: start.config,
        dir_given: start.dir_given,
        game,
        running: None,
        deferred: VecDeque::new(),
        eof: false,
        announce: true,
        fly_count,
        tx,
        rx,
    };
    s.main_loop()
}

/// Forward input lines (invalid UTF-8 replaced, not fatal) until the end of the input.
fn read_lines<R: BufRead>(mut input: R, tx: Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Event::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

/// The default table directory of `v`: `data/<label>`, the label without the N-move rules
/// of play (tables carry their own).
fn table_dir(v: &Variant) -> PathBuf {
    let base = Variant::by_name(v.name).unwrap_or(*v);
    let v = Variant {
        n_move_rule: base.n_move_rule,
        endgame_n_move_rule: base.endgame_n_move_rule,
        ..*v
    };
    Path::new("data").join(v.label())
}

/// Parse a whole number of at most `max`.
fn number(text: &str, max: u64) -> Option<u64> {
    text.parse::<u64>().ok().filter(|&n| n <= max)
}

impl<W: Write> Session<W> {
    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn info(&mut self, text: &str) -> io::Result<()> {
        self.say(&format!("info string {text}"))
    }

    fn main_loop(&mut self) -> io::Result<()> {
        loop {
            let event = match self.deferred.pop_front() {
                Some(line) => Event::Line(line),
                None if self.eof && self.running.is_none() => return Ok(()),
                None => match self.rx.recv() {
                    Ok(e) => e,
                    Err(_) => return Ok(()),
                },
            };
            match event {
                Event::Line(line) => {
                    if !self.line(&line)? {
                        return Ok(());
                    }
                }
                Event::Eof => {
                    // A bounded search still answers; an infinite one is stopped.
                    self.eof = true;
                    if self.running.as_ref().is_some_and(|r| r.infinite) {
                        self.stop_search();
                    }
                    self.wait_search()?;
                }
                Event::Done(engine, decision) => self.finished(engine, decision)?,
            }
        }
    }

    /// A search has ended: print its answer, or hold it while an infinite search waits for
    /// `stop`.
    fn finished(&mut self, engine: Box<Engine>, decision: Box<Decision>) -> io::Result<()> {
        self.engine = Some(engine);
        let Some(run) = self.running.as_mut() else {
            return Ok(());
        };
        if run.infinite && !run.stopped {
            run.held = Some(decision);
            return Ok(());
        }
        self.running = None;
        self.report(&decision)
    }

    fn stop_search(&mut self) {
        if let Some(run) = self.running.as_mut() {
            run.stop.store(true, Ordering::Relaxed);
            run.stopped = true;
        }
    }

    /// Stop holding an infinite search's answer, or wait for a search to end; lines that
    /// arrive meanwhile are kept for later.
    fn wait_search(&mut self) -> io::Result<()> {
        if let Some(run) = self.running.as_mut()
            && let Some(d) = run.held.take()
        {
            self.running = None;
            return self.report(&d);
        }
        while self.running.is_some() {
            match self.rx.recv() {
                Ok(Event::Done(e, d)) => {
                    if let Some(run) = self.running.as_mut() {
                        run.stopped = true;
                    }
                    self.finished(e, d)?;
                }
                Ok(Event::Line(l)) => self.deferred.push_back(l),
                Ok(Event::Eof) => self.eof = true,
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    /// Handle one line; `false` to quit.
    fn line(&mut self, line: &str) -> io::Result<bool> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return Ok(true);
        };
        if self.running.is_some() {
            match cmd {
                "isready" => {
                    self.say("readyok")?;
                    return Ok(true);
                }
                "stop" => {
                    self.stop_search();
                    self.wait_search()?;
                    return Ok(true);
                }
                "quit" => {
                    self.stop_search();
                    self.wait_search()?;
                    return Ok(false);
                }
                _ => {
                    if self.running.as_ref().is_some_and(|r| r.infinite) {
                        self.stop_search();
                    }
                    self.wait_search()?;
                }
            }
        }
        let args = &words[1..];
        match cmd {
            "uci" => self.uci()?,
            "isready" => {
                self.announce_tables()?;
                self.say("readyok")?;
            }
            "setoption" => self.setoption(args)?,
            "ucinewgame" => {
                if let Some(e) = self.engine.as_mut() {
                    e.new_game();
                }
                self.game = Game::from_start(self.config.variant, self.config.rules);
            }
            "position" => self.position(args)?,
            "go" => self.go(args)?,
            "stop" => {}
            "quit" => return Ok(false),
            "d" => self.show()?,
            _ => self.info(&format!("unknown command '{cmd}' ignored"))?,
        }
        Ok(true)
    }

    fn uci(&mut self) -> io::Result<()> {
        self.say(&format!("id name {NAME}"))?;
        self.say(&format!("id author {AUTHOR}"))?;
        let c = &self.config;
        let variants: String = Variant::names()
            .iter()
            .map(|n| format!(" var {n}"))
            .collect();
        let dir = c.table_dir.display().to_string();
        let lines = [
            format!(
                "option name TableDir type string default {}",
                if dir.is_empty() { "<empty>" } else { &dir }
            ),
            format!("option name UseTables type check default {}", c.use_tables),
            format!(
                "option name Variant type combo default {}{variants}",
                c.variant.name
            ),
            format!(
                "option name MoveTime type spin default {} min 0 max {MAX_MOVE_TIME}",
                c.move_time.as_secs()
            ),
            format!(
                "option name Depth type spin default {} min 0 max {}",
                c.depth_cap,
                super::search::MAX_DEPTH
            ),
            format!(
                "option name NMoveRule type spin default {} min 0 max {}",
                c.rules.n_move.n(),
                NMoveRule::MAX_N
            ),
            format!(
                "option name ThreefoldRepetitionRule type check default {}",
                c.rules.threefold
            ),
            format!(
                "option name Seed type spin default {} min 0 max {}",
                c.seed,
                i32::MAX
            ),
            format!(
                "option name Hash type spin default {} min 1 max {MAX_HASH}",
                c.hash_mb
            ),
        ];
        for l in lines {
            self.say(&l)?;
        }
        for l in super::sanmill::announce(&self.config.variant, self.fly_count) {
            self.say(&l)?;
        }
        self.say("uciok")
    }

    /// Report the table directory (once after it changes) and damaged tables.
    fn announce_tables(&mut self) -> io::Result<()> {
        let Some(engine) = self.engine.as_mut() else {
            return Ok(());
        };
        let Some(oracle) = engine.oracle() else {
            if self.announce {
                self.announce = false;
                let c = &self.config;
                let unsupported = c.rules.effective(&c.variant).unsupported_by_tables();
                if !self.config.use_tables {
                    return self.info("tables: off (UseTables false)");
                }
                return self.info(&format!(
                    "tables: off (no tables follow the rules {}): searching everywhere",
                    unsupported.join(", ")
                ));
            }
            return Ok(());
        };
        if std::mem::take(&mut self.announce) && oracle.dir().is_dir() {
            let n = oracle.warm();
            let dir = oracle.dir().display();
            let msg = if n == 0 {
                format!("tables: none in {dir}: searching everywhere")
            } else {
                let s = if n == 1 { "" } else { "s" };
                format!("tables: {n} sector{s} in {dir}")
            };
            self.info(&msg)?;
        }
        for w in oracle.take_warnings() {
            self.info(&w)?;
        }
        Ok(())
    }

    fn setoption(&mut self, args: &[&str]) -> io::Result<()> {
        let name_at = args.iter().position(|w| w.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            return self.info("setoption: expected 'setoption name <name> value <value>'");
        };
        let name_end = value_at.filter(|&v| v > n).unwrap_or(args.len());
        let name = args[n + 1..name_end].join(" ");
        let value = value_at.map_or(String::new(), |v| args[v + 1..].join(" "));
        let mut c = self.config.clone();
        let mut fly_count = self.fly_count;
        let lower = name.to_ascii_lowercase();
        let check = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        let bad = |what: &str| format!("setoption {name}: '{value}' is not {what}; unchanged");
        let result: Result<(), String> = match lower.as_str() {
            "tabledir" => {
                c.table_dir = if value.is_empty() || value == "<empty>" {
                    table_dir(&c.variant)
                } else {
                    PathBuf::from(&value)
                };
                self.dir_given = !(value.is_empty() || value == "<empty>");
                Ok(())
            }
            "usetables" => check(&value)
                .map(|b| c.use_tables = b)
                .ok_or_else(|| bad("true or false")),
            "variant" => match Variant::by_name(&value.to_ascii_lowercase()) {
                Some(v) => {
                    c.variant = v;
                    c.rules.n_move = DrawRules::of_variant(&v).n_move;
                    fly_count = v.fly_at.unwrap_or(3);
                    Ok(())
                }
                None => Err(bad(&format!("a variant ({})", Variant::names().join(", ")))),
            },
            "movetime" => number(&value, MAX_MOVE_TIME)
                .map(|s| c.move_time = Duration::from_secs(s))
                .ok_or_else(|| bad(&format!("a number of seconds from 0 to {MAX_MOVE_TIME}"))),
            "depth" => number(&value, u64::from(super::search::MAX_DEPTH))
                .map(|d| c.depth_cap = d as u32)
                .ok_or_else(|| bad("a depth from 0 to 64")),
            "nmoverule" => NMoveRule::parse(&value)
                .map(|rule| c.rules.n_move = rule)
                .map_err(|e| format!("setoption {name}: {e}; unchanged")),
            "threefoldrepetitionrule" => check(&value)
                .map(|b| c.rules.threefold = b)
                .ok_or_else(|| bad("true or false")),
            "seed" => number(&value, i32::MAX as u64)
                .map(|s| c.seed = s)
                .ok_or_else(|| bad("a whole number")),
            "hash" => number(&value, MAX_HASH)
                .filter(|&h| h >= 1)
                .map(|h| c.hash_mb = h as usize)
                .ok_or_else(|| bad(&format!("a size in MiB from 1 to {MAX_HASH}"))),
            _ => match super::sanmill::apply(&c.variant, &mut fly_count, &name, &value) {
                Some(Ok(v)) => {
                    c.variant = v;
                    Ok(())
                }
                Some(Err(e)) => Err(format!("setoption {name}: {e}; rules unchanged")),
                None => Err(format!("unknown option '{name}' ignored")),
            },
        };
        if let Err(msg) = result {
            return self.info(&msg);
        }
        self.fly_count = fly_count;
        if !self.dir_given {
            c.table_dir = table_dir(&c.variant);
        }
        let variant_changed = !c.variant.same_game(&self.config.variant);
        if c.table_dir != self.config.table_dir
            || variant_changed
            || c.use_tables != self.config.use_tables
            || c.rules != self.config.rules
        {
            self.announce = true;
        }
        if variant_changed {
            self.game = Game::from_start(c.variant, c.rules);
        } else {
            self.game.set_variant(c.variant);
            self.game.set_rules(c.rules);
        }
        if let Some(e) = self.engine.as_mut() {
            e.set_config(c.clone());
        }
        let name_changed = c.variant.name != self.config.variant.name;
        self.config = c;
        if variant_changed {
            let v = if name_changed && lower == "variant" {
                format!("variant {}", self.config.variant.name)
            } else {
                format!("rules {}", self.config.variant.label())
            };
            self.info(&format!("{v}: position reset to the start"))?;
        }
        Ok(())
    }

    /// `position startpos|fen FEN [moves ...]`: a new game, or an `info string` and no change.
    fn position(&mut self, args: &[&str]) -> io::Result<()> {
        match self.parse_game(args) {
            Ok(g) => {
                self.game = g;
                Ok(())
            }
            Err(e) => self.info(&format!("bad position: {e}; previous position kept")),
        }
    }

    fn parse_game(&self, args: &[&str]) -> Result<Game, String> {
        let moves_at = args.iter().position(|&w| w == "moves");
        let (head, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let start = match head {
            ["startpos"] => "startpos".to_string(),
            ["fen", fen @ ..] if !fen.is_empty() => fen.join(" "),
            ["fen"] => return Err("'fen' needs a position string".into()),
            [] => return Err("expected 'startpos' or 'fen <position>'".into()),
            _ => {
                let found: String = head.join(" ").chars().take(60).collect();
                return Err(format!(
                    "expected 'startpos' or 'fen <position>' (then 'moves ...'), found '{found}'"
                ));
            }
        };
        Game::from_text(self.config.variant, self.config.rules, &start, moves)
    }

    fn go(&mut self, args: &[&str]) -> io::Result<()> {
        let mut limits = Limits::default();
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            i += 1;
            match key {
                "infinite" => limits.infinite = true,
                "ponder" => {}
                k if GO_NUMBERS.contains(&k) => {
                    let raw = args.get(i).copied().filter(|t| !GO_WORDS.contains(t));
                    if raw.is_some() {
                        i += 1;
                    }
                    let Some(n) = raw.and_then(|t| t.parse::<u64>().ok()) else {
                        let found = raw.map_or(String::new(), |t| format!(", found '{t}'"));
                        self.info(&format!("go: {k} needs a whole number{found}; ignored"))?;
                        continue;
                    };
                    let d = Duration::from_millis(n);
                    match k {
                        "movetime" => limits.movetime = Some(d),
                        "wtime" => limits.time_left[0] = Some(d),
                        "btime" => limits.time_left[1] = Some(d),
                        "winc" => limits.increment[0] = d,
                        "binc" => limits.increment[1] = d,
                        "depth" => limits.depth = Some(n.clamp(1, 64) as u32),
                        "nodes" => limits.nodes = Some(n.max(1)),
                        _ => limits.moves_to_go = Some(n.min(u64::from(u32::MAX)) as u32),
                    }
                }
                other => self.info(&format!("go: unknown parameter '{other}' ignored"))?,
            }
        }
        self.announce_tables()?;
        if let Some(r) = self.game.result() {
            let msg = if self.game.legal_actions().is_empty() {
                format!("game over: {r}")
            } else {
                format!("game over: {r}; answering a legal move anyway")
            };
            self.info(&msg)?;
        }
        let Some(mut engine) = self.engine.take() else {
            return self.info("go: the engine is busy");
        };
        let stop = Arc::new(AtomicBool::new(false));
        self.running = Some(Running {
            stop: Arc::clone(&stop),
            infinite: limits.infinite,
            stopped: false,
            held: None,
        });
        let game = self.game.clone();
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            let think = std::panic::AssertUnwindSafe(|| engine.think(&game, &limits, &stop));
            let decision = std::panic::catch_unwind(think).unwrap_or_else(|_| fallback(&game));
            let _ = tx.send(Event::Done(engine, Box::new(decision)));
        });
        Ok(())
    }

    fn report(&mut self, d: &Decision) -> io::Result<()> {
        // Tables this search found damaged (and fell back from) are said now, not at the
        // next `go`.
        let warnings = self
            .engine
            .as_ref()
            .map_or_else(Vec::new, |e| e.take_table_warnings());
        for w in warnings {
            self.info(&w)?;
        }
        let v = self.config.variant;
        let tokens = |line: &[Move]| -> Vec<String> {
            let mut out = Vec::new();
            for &m in line {
                if m.removes() && !m.is_lone_removal() {
                    out.push(format_move(&v, super::oracle::split_first(m)));
                    out.extend(m.removals().map(|r| format_move(&v, Move::removal(r))));
                } else {
                    out.push(format_move(&v, m));
                }
            }
            out
        };
        let source = match (d.source, d.value) {
            (Source::Tables, Some(val)) => match val.plies() {
                Some(p) if matches!(d.score, super::Score::Dtr(_)) => {
                    format!("source=tables value={} dtr={p}", val.kind())
                }
                Some(p) => format!("source=tables value={} plies={p}", val.kind()),
                None => "source=tables value=draw".to_string(),
            },
            (s, _) => format!("source={}", s.name()),
        };
        self.info(&source)?;
        let best = d.token.map_or("none".to_string(), |m| format_move(&v, m));
        let pv = tokens(&d.pv);
        let pv = if pv.is_empty() {
            String::new()
        } else {
            format!(" pv {}", pv.join(" "))
        };
        self.say(&format!(
            "info depth {} score {} nodes {} time {}{pv} bestmove {best}",
            d.depth,
            d.score.uci(),
            d.nodes,
            d.elapsed.as_millis(),
        ))
    }

    fn show(&mut self) -> io::Result<()> {
        let fen = self.game.fen();
        self.info(&format!("fen {fen}"))?;
        let v = self.config.variant;
        let moves: Vec<String> = self
            .game
            .legal_actions()
            .iter()
            .map(|&m| format_move(&v, m))
            .collect();
        self.info(&format!("legal {}", moves.join(" ")))?;
        let counter = self.game.counter();
        self.info(&format!("counter {counter}"))?;
        if let Some(r) = self.game.result() {
            self.info(&format!("result {r}"))?;
        }
        Ok(())
    }
}

/// The answer when thinking failed unexpectedly: the first legal action.
fn fallback(game: &Game) -> Decision {
    let token = game.legal_actions().first().copied();
    Decision {
        token,
        full: token,
        score: super::Score::Cp(0),
        value: None,
        source: Source::Search,
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
        pv: token.into_iter().collect(),
    }
}
