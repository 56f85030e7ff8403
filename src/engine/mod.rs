//! An engine that plays perfectly where tables exist and searches where they end, with the
//! front ends built on it: Sanmill's UCI dialect ([`uci`]) and the referee of games and
//! matches ([`game`], [`matches`](mod@matches)).
//!
//! Layer 7 of the library (docs/DESIGN.md, "Layers"), a program on top: it imports only
//! `probe` (every table access goes through `Tablebase`),
//! `sector` and `game`; never the table files themselves.
//!
//! [`Engine::think`] answers "what to play in this game": from the tables when every move's
//! value is known, otherwise by an alpha-beta search whose leaves probe the tables wherever
//! their sector is present.
//!
//! Time: `movetime` (or the `MoveTime` option, whole seconds), `depth`, `nodes`, a clock
//! (`wtime`/`btime`/`winc`/`binc`/`movestogo`), or `infinite` (until stopped). With none of
//! them, the search uses [`DEFAULT_BUDGET`] (1 s). Table answers take no search time.

pub mod answer_key;
pub mod blunders;
mod choice;
pub mod display;
pub mod eval;
pub mod fit;
pub mod game;
pub mod matches;
pub mod oracle;
pub mod sanmill;
mod search;
mod tt;
pub mod uci;

use crate::game::movegen::{Convention, legal_moves};
use crate::game::position::Move;
use crate::game::rules::Variant;
use crate::game::value::Value;
use crate::probe::MoveValue;
use game::{DrawRules, Game};
use oracle::{Oracle, split_first};
use search::{SearchInput, score_value};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// The search budget of a `go` that names no time, depth or node limit and when the
/// `MoveTime` option is 0.
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(1000);

/// Default size of the transposition table in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// The engine's settings (the UCI options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The rule variant.
    pub variant: Variant,
    /// The table directory.
    pub table_dir: PathBuf,
    /// Use the tables (off: search everywhere).
    pub use_tables: bool,
    /// Time per move when `go` gives none (zero: [`DEFAULT_BUDGET`]).
    pub move_time: Duration,
    /// Deepest search iteration (0: no cap).
    pub depth_cap: u32,
    /// The draw rules (by default the variant's: [`DrawRules::of_variant`]).
    pub rules: DrawRules,
    /// Tie-break seed for moves of equal table value (0: first in move order).
    pub seed: u64,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
}

impl EngineConfig {
    /// Defaults for `variant` with tables in `table_dir`.
    pub fn new(variant: Variant, table_dir: PathBuf) -> EngineConfig {
        EngineConfig {
            variant,
            table_dir,
            use_tables: true,
            move_time: Duration::ZERO,
            depth_cap: 0,
            rules: DrawRules::of_variant(&variant),
            seed: 0,
            hash_mb: DEFAULT_HASH_MB,
        }
    }
}

/// Limits of one `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Exact time to think.
    pub movetime: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Think until stopped.
    pub infinite: bool,
    /// Time left on the clocks, white and black.
    pub time_left: [Option<Duration>; 2],
    /// Increment per move, white and black.
    pub increment: [Duration; 2],
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
}

/// Where a decision came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Every move's value was in the tables.
    Tables,
    /// The search (whose leaves may be table values).
    Search,
    /// No legal action: the game is over.
    NoMove,
}

impl Source {
    /// `tables`, `search` or `none`.
    pub fn name(self) -> &'static str {
        match self {
            Source::Tables => "tables",
            Source::Search => "search",
            Source::NoMove => "none",
        }
    }
}

/// A score for the side to move, as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-stones (search evaluation, or 0 for a draw).
    Cp(i32),
    /// A decided game: moves of the side to move until it is over, negative when losing
    /// (a move and its removal are one move).
    Mate(i32),
    /// Decided by tables under the N-move rule, whose distances are DTR, not moves to the
    /// end: the DTR, negative when losing. Reported as `cp` beyond any evaluation,
    /// `±(TABLE_SCORE - DTR)`, as engines report tablebase wins without a mate distance.
    Dtr(i32),
}

/// The `cp` score of a win by tables under the N-move rule with DTR 0.
pub const TABLE_SCORE: i32 = 20_000;

impl Score {
    /// The score of a decided value (`Cp(0)` for a draw).
    pub fn of_value(v: Value) -> Score {
        match v {
            Value::Win(n) => Score::Mate((i32::from(n) + 1) / 2),
            Value::Loss(n) => Score::Mate(-((i32::from(n) + 1) / 2)),
            Value::Draw => Score::Cp(0),
        }
    }

    /// The score of a decided value from tables whose distances are DTR (`Cp(0)` for a
    /// draw).
    pub fn of_dtr(v: Value) -> Score {
        match v {
            Value::Win(n) => Score::Dtr(i32::from(n)),
            Value::Loss(n) => Score::Dtr(-i32::from(n)),
            Value::Draw => Score::Cp(0),
        }
    }

    /// `cp S` or `mate M`.
    pub fn uci(self) -> String {
        match self {
            Score::Cp(s) => format!("cp {s}"),
            Score::Mate(m) => format!("mate {m}"),
            Score::Dtr(d) if d >= 0 => format!("cp {}", TABLE_SCORE - d),
            Score::Dtr(d) => format!("cp {}", -(TABLE_SCORE + d)),
        }
    }
}

/// The engine's answer to "what now?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The action to play in the split convention (`None`: no legal action).
    pub token: Option<Move>,
    /// The whole move it begins (combined convention).
    pub full: Option<Move>,
    /// The score for the side to move.
    pub score: Score,
    /// The decided value, if known: from the tables, or a search result that is decided.
    pub value: Option<Value>,
    /// Where the decision came from.
    pub source: Source,
    /// Search depth (1 for table answers, 0 without a move).
    pub depth: u32,
    /// Search nodes, or table probes for table answers.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The expected line (combined convention), the move first.
    pub pv: Vec<Move>,
}

/// An engine: settings, the tables, the transposition table.
pub struct Engine {
    config: EngineConfig,
    oracle: Option<Arc<Oracle>>,
    tt: TranspositionTable,
}

impl Engine {
    /// An engine with the given settings (tables are opened on first use).
    pub fn new(config: EngineConfig) -> Engine {
        let tt = TranspositionTable::new(config.hash_mb);
        Engine {
            config,
            oracle: None,
            tt,
        }
    }

    /// The settings.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Change the settings; the tables are reopened when the directory, variant or rules
    /// change, the transposition table resized when its size does.
    pub fn set_config(&mut self, config: EngineConfig) {
        if config.table_dir != self.config.table_dir
            || config.variant != self.config.variant
            || config.rules != self.config.rules
        {
            self.oracle = None;
        }
        if config.hash_mb != self.config.hash_mb {
            self.tt = TranspositionTable::new(config.hash_mb);
        }
        if config.variant != self.config.variant {
            self.tt.clear();
        }
        self.config = config;
    }

    /// The tables, opened if needed (`None` when they are switched off, or when the rules
    /// have options the tables do not follow: [`Variant::unsupported_by_tables`]; tables of
    /// other rules are refused by their fingerprint when opened).
    pub fn oracle(&mut self) -> Option<Arc<Oracle>> {
        if !self.config.use_tables || !self.tables_follow_rules() {
            return None;
        }
        let c = &self.config;
        let oracle = self
            .oracle
            .get_or_insert_with(|| Arc::new(Oracle::open(&c.table_dir, c.variant, c.rules.n_move)));
        Some(Arc::clone(oracle))
    }

    /// Do tables exist for the rules played (the variant under the draw rules' N-move rule:
    /// [`Variant::unsupported_by_tables`] is empty)?
    pub fn tables_follow_rules(&self) -> bool {
        let c = &self.config;
        c.rules
            .effective(&c.variant)
            .unsupported_by_tables()
            .is_empty()
    }

    /// Messages about tables not used (damaged, missing, not regular files) found since the
    /// last call, each once; empty when the tables are not open.
    pub fn take_table_warnings(&self) -> Vec<String> {
        self.oracle
            .as_ref()
            .map_or_else(Vec::new, |o| o.take_warnings())
    }

    /// Forget what earlier searches learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// The time to think for `limits` (`None`: no time limit), with the side to move.
    fn budget(&self, limits: &Limits, side: usize) -> Option<Duration> {
        if limits.infinite {
            return None;
        }
        if let Some(t) = limits.movetime {
            return Some(t);
        }
        if let Some(left) = limits.time_left[side] {
            let inc = limits.increment[side];
            let moves = limits.moves_to_go.unwrap_or(30).clamp(1, 30);
            let t = left / moves + inc * 3 / 4;
            return Some(t.min(left / 2).max(Duration::from_millis(1)));
        }
        if limits.depth.is_some() || limits.nodes.is_some() {
            return None;
        }
        Some(if self.config.move_time.is_zero() {
            DEFAULT_BUDGET
        } else {
            self.config.move_time
        })
    }

    /// Decide what to play in `game`. Table answers when every move's value is known, or
    /// when the only legal move's value is (the position's own value in the tables); otherwise
    /// a search within `limits`, stopped early when `stop` is set. A single legal move is
    /// searched like any other position, so that its score is the search's, not an
    /// evaluation.
    pub fn think(&mut self, game: &Game, limits: &Limits, stop: &AtomicBool) -> Decision {
        let start = Instant::now();
        let pos = *game.position();
        let v = *game.variant();
        let moves = legal_moves(&v, &pos, Convention::Combined);
        if moves.is_empty() {
            let loss = crate::game::movegen::outcome(&v, &pos)
                != Some(crate::game::movegen::Outcome::Draw);
            return Decision {
                token: None,
                full: None,
                score: if loss { Score::Mate(0) } else { Score::Cp(0) },
                value: Some(if loss { Value::Loss(0) } else { Value::Draw }),
                source: Source::NoMove,
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
                pv: Vec::new(),
            };
        }
        let oracle = self.oracle();
        let score_of = |v: Value| match &oracle {
            Some(o) if o.distances_are_dtr() => Score::of_dtr(v),
            _ => Score::of_value(v),
        };
        if let Some(o) = &oracle {
            let probes = o.probes();
            let values = o.move_values(&pos, game.counter()).or_else(|| {
                // A forced move's value is the position's, when its sector is in the tables
                // though the move leads out of them.
                let value = o.value(&pos, game.counter()).filter(|_| moves.len() == 1)?;
                Some(vec![MoveValue {
                    mv: moves[0],
                    value,
                }])
            });
            if let Some(values) = values {
                let c = choice::choose(o, game, &values, self.config.seed)
                    .expect("a position with legal moves has a choice");
                return Decision {
                    token: Some(split_first(c.mv)),
                    full: Some(c.mv),
                    score: score_of(c.value),
                    value: Some(c.value),
                    source: Source::Tables,
                    depth: 1,
                    nodes: (o.probes() - probes).max(values.len() as u64),
                    elapsed: start.elapsed(),
                    pv: vec![c.mv],
                };
            }
        }
        let budget = self.budget(limits, pos.to_move.index());
        // Stop a little early so that the answer arrives within the budget.
        let deadline = budget.map(|b| start + b.mul_f64(0.98).saturating_sub(ms(1)));
        let mut max_depth = limits.depth.unwrap_or(search::MAX_DEPTH);
        if self.config.depth_cap > 0 {
            max_depth = max_depth.min(self.config.depth_cap);
        }
        let mut history = game.turn_positions();
        if !pos.pending_removal() {
            history.pop(); // the root itself
        }
        let input = SearchInput {
            variant: &v,
            oracle: oracle.as_deref(),
            rules: game.rules(),
            root: pos,
            counter: game.counter(),
            history: &history,
            deadline,
            max_depth,
            max_nodes: limits.nodes,
            stop,
        };
        let out = search::search(&input, &mut self.tt);
        let value = score_value(out.score);
        Decision {
            token: Some(split_first(out.best)),
            full: Some(out.best),
            score: value.map_or(Score::Cp(out.score), score_of),
            value,
            source: Source::Search,
            depth: out.depth,
            nodes: out.nodes,
            elapsed: start.elapsed(),
            pv: out.pv,
        }
    }
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}
