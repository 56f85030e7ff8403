//! `millbase play`: a game against the engine in the terminal (or from scripted input).

use super::CliError;
use super::common::{GameRuleArg, TablesArgs, line_arg};
use super::quote;
use clap::Args;
use millbase::Value;
use millbase::engine::display::diagram;
use millbase::engine::game::Game;
use millbase::engine::oracle::Oracle;
use millbase::engine::{Decision, Engine, EngineConfig, Limits, Score, Source};
use millbase::notation::format_move;
use millbase::{Color, Move};
use std::io::{self, BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Arguments of `millbase play`.
#[derive(Debug, Args)]
#[command(mut_arg("dir", |a| a.help(
    "Directory of the tables [default: data/<variant>]; without tables the engine searches"
)))]
pub struct PlayArgs {
    #[command(flatten)]
    tables: TablesArgs,
    /// Your side: white or black.
    #[arg(long = "as", value_name = "SIDE", default_value = "white")]
    side: String,
    /// The engine's thinking time per move where the tables end, in milliseconds.
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 1000,
        value_parser = super::common::whole::<u64>(),
        allow_negative_numbers = true
    )]
    movetime: u64,
    #[command(flatten)]
    n_move_rule: GameRuleArg,
    /// The start: a Sanmill position string or `start` [default: start].
    #[arg(value_name = "POSITION", num_args = 0.., allow_negative_numbers = true)]
    position: Vec<String>,
}

const HELP: &str = "\
Type a move: a placement d6, a slide or fly a1-a4, a removal xg7 after closing a mill
(or the move and its removal at once: a1-a4xg7). Commands: hint (the tables' best moves),
undo (take back your last move and the engine's reply), moves (the legal moves), board,
help, quit.";

struct Session<W: Write> {
    out: W,
    game: Game,
    engine: Engine,
    oracle: Option<std::sync::Arc<Oracle>>,
    human: Color,
    limits: Limits,
    /// Echo input lines (when the input is not a terminal).
    echo: bool,
}

/// `1 ply`, `7 plies`.
fn plies(n: u16) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl<W: Write> Session<W> {
    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    fn moves_text(&self, moves: &[Move]) -> String {
        let v = self.game.variant();
        moves
            .iter()
            .map(|&m| format_move(v, m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The tables' value of the current position, in words from white's or black's side.
    fn value_text(&self) -> String {
        let pos = *self.game.position();
        let counter = self.game.counter();
        let Some(o) = &self.oracle else {
            return "value: no tables".into();
        };
        if !o.covers(&pos) {
            return "value: not in the tables".into();
        }
        let me = pos.to_move;
        let beyond = |n: u16| match self.game.rules().n_move.n() {
            rule if rule > 0 && u32::from(n) > u32::from(rule).saturating_sub(counter) => {
                format!(" (more plies than the {rule}-move rule leaves; it may end in a draw)")
            }
            _ => String::new(),
        };
        let (winner, n) = match o.value(&pos, counter) {
            Some(Value::Win(n)) => (me, n),
            Some(Value::Loss(n)) => (me.other(), n),
            Some(Value::Draw) => return "value: draw".into(),
            None => return "value: not in the tables".into(),
        };
        if n == 0 {
            format!("value: {} has won", side_name(winner))
        } else if o.distances_are_dtr() {
            // Exact under the N-move rule: the distance is to the next removal.
            format!(
                "value: {} wins (DTR {n}: the next removal within {} under the {}-move rule)",
                side_name(winner),
                plies(n),
                o.rule().n()
            )
        } else {
            format!(
                "value: {} wins in {}{}",
                side_name(winner),
                plies(n),
                beyond(n)
            )
        }
    }

    fn show(&mut self) -> io::Result<()> {
        let text = diagram(self.game.variant(), self.game.position());
        let value = self.value_text();
        write!(self.out, "{text}")?;
        self.say(&value)
    }

    fn engine_turn(&mut self) -> io::Result<bool> {
        let stop = AtomicBool::new(false);
        let d: Decision = self.engine.think(&self.game, &self.limits, &stop);
        let Some(token) = d.token else {
            return Ok(false);
        };
        let v = *self.game.variant();
        let how = match (d.source, d.score) {
            (Source::Tables, _) => "from the tables".to_string(),
            (_, Score::Mate(m)) => format!("search depth {}, mate {m}", d.depth),
            (_, Score::Dtr(n)) if n >= 0 => format!("search depth {}, a table win", d.depth),
            (_, Score::Dtr(_)) => format!("search depth {}, a table loss", d.depth),
            (_, Score::Cp(cp)) => format!(
                "search depth {}, {:+.2} stones for {}",
                d.depth,
                f64::from(cp) / 100.0,
                side_name(self.game.position().to_move)
            ),
        };
        let side = side_name(self.game.position().to_move);
        self.say(&format!(
            "{side} (engine) plays {} ({how})",
            format_move(&v, token)
        ))?;
        if self.game.play(token).is_err() {
            self.say("internal error: the engine's move is not legal")?;
            return Ok(false);
        }
        self.show()?;
        Ok(true)
    }

    fn hint(&mut self) -> io::Result<()> {
        let pos = *self.game.position();
        if let Some(o) = &self.oracle
            && let Some(best) = o.best_moves(&pos, self.game.counter())
            && let Some(first) = best.first()
        {
            let moves: Vec<Move> = best.iter().map(|m| m.mv).collect();
            let value = match first.value {
                Value::Win(n) => format!("win in {}", plies(n)),
                Value::Loss(n) => format!("loss in {}", plies(n)),
                Value::Draw => "draw".into(),
            };
            let text = format!("hint: {} ({value})", self.moves_text(&moves));
            return self.say(&text);
        }
        let stop = AtomicBool::new(false);
        let limits = Limits {
            movetime: Some(Duration::from_millis(
                self.limits
                    .movetime
                    .map_or(500, |t| t.as_millis().min(1000) as u64),
            )),
            ..Limits::default()
        };
        let d = self.engine.think(&self.game, &limits, &stop);
        let text = match d.full {
            Some(m) => format!(
                "hint (search, not in the tables): {}",
                format_move(self.game.variant(), m)
            ),
            None => "hint: no legal move".into(),
        };
        self.say(&text)
    }

    /// Take back the human's last move and everything after it.
    fn undo(&mut self) -> io::Result<()> {
        let human = self.human;
        let made_by_human: Vec<bool> = {
            let mut prev = *self.game.start();
            self.game
                .plies()
                .iter()
                .map(|p| {
                    let by = prev.to_move == human;
                    prev = p.pos;
                    by
                })
                .collect()
        };
        // The last human action that began a turn.
        let mut target = None;
        let mut prev = *self.game.start();
        for (i, p) in self.game.plies().iter().enumerate() {
            if made_by_human[i] && !prev.pending_removal() {
                target = Some(i);
            }
            prev = p.pos;
        }
        let Some(t) = target else {
            return self.say("nothing to undo");
        };
        let mut taken = Vec::new();
        while self.game.plies().len() > t {
            if let Some(m) = self.game.undo() {
                taken.push(format_move(self.game.variant(), m));
            }
        }
        taken.reverse();
        self.say(&format!("took back {}", taken.join(" ")))?;
        self.show()
    }

    fn human_move(&mut self, text: &str) -> io::Result<()> {
        match self.game.play_text(text) {
            Ok(()) => self.show(),
            Err(e) => {
                let legal = self.moves_text(&self.game.legal_actions());
                self.say(&format!("{e}\nlegal moves: {legal}"))
            }
        }
    }

    fn run(&mut self, input: &mut dyn BufRead) -> io::Result<()> {
        let human = side_name(self.human);
        let engine = side_name(self.human.other());
        self.say(&format!(
            "millbase play: you are {human}, the engine is {engine}. Type 'help' for help."
        ))?;
        let text = match &self.oracle {
            Some(o) => match o.warm() {
                0 => format!(
                    "tables: none in {}; the engine searches everywhere",
                    o.dir().display()
                ),
                n => format!("tables: {n} sectors in {}", o.dir().display()),
            },
            None => "tables: off; the engine searches everywhere".into(),
        };
        self.say(&text)?;
        if let Some(o) = &self.oracle {
            for w in o.take_warnings() {
                if !w.starts_with("no table directory") {
                    self.say(&format!("warning: {w}"))?;
                }
            }
        }
        self.show()?;
        let mut line = String::new();
        loop {
            if let Some(r) = self.game.result() {
                return self.say(&format!("game over: {r}"));
            }
            let pos = *self.game.position();
            if pos.to_move != self.human {
                if !self.engine_turn()? {
                    return Ok(());
                }
                continue;
            }
            let prompt = if pos.pending_removal() {
                format!("{human}, remove a stone of {engine} (x<square>)> ")
            } else {
                format!("{human} to move> ")
            };
            write!(self.out, "{prompt}")?;
            self.out.flush()?;
            line.clear();
            if input.read_line(&mut line)? == 0 {
                return self.say("\nend of input: game abandoned");
            }
            let cmd = line.trim();
            if self.echo {
                // Scripted input is not echoed by a terminal: show it after the prompt.
                self.say(cmd)?;
            }
            match cmd.to_ascii_lowercase().as_str() {
                "" => {}
                "quit" | "exit" => return self.say("game abandoned"),
                "help" | "?" => self.say(HELP)?,
                "moves" => {
                    let legal = self.moves_text(&self.game.legal_actions());
                    self.say(&format!("legal moves: {legal}"))?;
                }
                "board" => self.show()?,
                "hint" => self.hint()?,
                "undo" => self.undo()?,
                _ => self.human_move(cmd)?,
            }
        }
    }
}

/// `millbase play`.
pub fn run_play(args: &PlayArgs) -> Result<(), CliError> {
    let (v, dir) = args.tables.get()?;
    let human = match args.side.to_ascii_lowercase().as_str() {
        "white" | "w" => Color::White,
        "black" | "b" => Color::Black,
        other => {
            return Err(CliError::usage(format!(
                "--as: '{other}' is not a side (white or black)"
            )));
        }
    };
    if args.movetime == 0 {
        return Err(CliError::usage("--movetime must be at least 1 ms"));
    }
    let rules = args.n_move_rule.rules(&v);
    let game = if args.position.is_empty() {
        Game::from_start(v, rules)
    } else {
        // A position, or a position and the moves played from it ('FEN moves d6 f4 xd6'):
        // the game keeps the moves as its history (repetitions, one-time mills).
        let text = args.position.join(" ");
        let line = line_arg(&v, &text)?;
        let mut game = Game::new(v, *line.start(), line.info, rules);
        for &mv in &line.moves {
            game.play(mv).map_err(|e| {
                CliError::usage(format!("invalid line {}: {e}", quote(text.trim())))
            })?;
        }
        game
    };
    let mut config = EngineConfig::new(v, dir);
    config.rules = rules;
    let mut engine = Engine::new(config);
    let oracle = engine.oracle();
    let mut session = Session {
        out: io::stdout(),
        game,
        engine,
        oracle,
        human,
        limits: Limits {
            movetime: Some(Duration::from_millis(args.movetime)),
            ..Limits::default()
        },
        echo: !io::stdin().is_terminal(),
    };
    let mut input = io::stdin().lock();
    match session.run(&mut input) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
