//! The blunder meter: how often the engine, with only some tables (the default set, or none),
//! plays a move that exact tables of the whole game say gives away the position's value — a
//! win turned into a draw or a loss, a draw into a loss.
//!
//! Two parts: [`sample_positions`] draws a fixed set of positions from games (uniformly random
//! games and the engine's own games, with random first moves), and [`judge`] classifies one
//! move of a position by a judge's tables (an [`Oracle`] over tables that cover every
//! successor and are exact under the game's N-move rule). [`Tally`] sums the verdicts by
//! phase and stones on the board. An [`answer_key`](super::answer_key) keeps the judge's
//! values of a fixed set as text, to judge without the tables.

use super::game::{DrawRules, Game};
use super::matches::Rng;
use super::oracle::Oracle;
use super::{Engine, EngineConfig, Limits, Source};
use crate::game::movegen::{Convention, legal_moves};
use crate::game::position::{Move, Position};
use crate::game::rules::Variant;
use crate::game::value::Value;
use crate::probe::MoveValue;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::AtomicBool;

/// The phase of a position: placing while a side has stones in hand, then moving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// A side still has stones in hand.
    Placing,
    /// Both hands are empty.
    Moving,
}

impl Phase {
    /// The phase of `pos`.
    pub fn of(pos: &Position) -> Phase {
        if pos.in_hand.iter().any(|&h| h > 0) {
            Phase::Placing
        } else {
            Phase::Moving
        }
    }

    /// `placing` or `moving`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Placing => "placing",
            Phase::Moving => "moving",
        }
    }
}

/// Stones on the board, both sides.
pub fn stones_on_board(pos: &Position) -> u32 {
    pos.stones[0].count_ones() + pos.stones[1].count_ones()
}

/// A value's result for the side it belongs to: 1 win, 0 draw, -1 loss.
fn result(v: Value) -> i8 {
    match v {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
    }
}

/// What a move gave away, by the judge's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The move keeps the position's result (win, draw or loss).
    Keeps,
    /// A won position, drawn after the move.
    WinToDraw,
    /// A drawn position, lost after the move.
    DrawToLoss,
    /// A won position, lost after the move.
    WinToLoss,
}

impl Verdict {
    /// Of a position's value and the played move's value (both for the side to move).
    pub fn of(position: Value, played: Value) -> Verdict {
        match (result(position), result(played)) {
            (1, 0) => Verdict::WinToDraw,
            (1, -1) => Verdict::WinToLoss,
            (0, -1) => Verdict::DrawToLoss,
            _ => Verdict::Keeps,
        }
    }

    /// Is the move a blunder (it gives away a win or a draw)?
    pub fn is_blunder(self) -> bool {
        self != Verdict::Keeps
    }

    /// `keeps`, `win-to-draw`, `draw-to-loss` or `win-to-loss`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Keeps => "keeps",
            Verdict::WinToDraw => "win-to-draw",
            Verdict::DrawToLoss => "draw-to-loss",
            Verdict::WinToLoss => "win-to-loss",
        }
    }
}

/// The judge's view of one position and the move played in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The position's value for the side to move (its best move's).
    pub value: Value,
    /// The played move (combined convention).
    pub played: Move,
    /// Its value for the side making it.
    pub played_value: Value,
    /// The moves that keep the position's result.
    pub keeping: Vec<Move>,
    /// Can a move give the position's result away (some move has a worse result)?
    pub critical: bool,
    /// What the played move did.
    pub verdict: Verdict,
}

/// The judge's verdict on `played` in `game`'s current position: `None` when the judge's
/// tables lack a successor's sector, or `played` is not a legal (combined) move there.
pub fn judge(judge: &Oracle, game: &Game, played: Move) -> Option<Judged> {
    judge_moves(&judge.move_values(game.position(), game.counter())?, played)
}

/// The verdict on `played` given the value of every legal move of the position (the judge's
/// [`Oracle::move_values`], or an answer key's): `None` when `played` is not among them.
pub fn judge_moves(values: &[MoveValue], played: Move) -> Option<Judged> {
    let best = values.iter().map(|m| result(m.value)).max()?;
    let played_value = values.iter().find(|m| m.mv == played)?.value;
    let value = values
        .iter()
        .filter(|m| result(m.value) == best)
        .map(|m| m.value)
        .max_by_key(|v| v.preference())?;
    Some(Judged {
        value,
        played,
        played_value,
        keeping: values
            .iter()
            .filter(|m| result(m.value) == best)
            .map(|m| m.mv)
            .collect(),
        critical: values.iter().any(|m| result(m.value) < best),
        verdict: Verdict::of(value, played_value),
    })
}

/// Counts of one group of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions judged.
    pub positions: u64,
    /// Positions where some move gives the result away.
    pub critical: u64,
    /// Won positions.
    pub won: u64,
    /// Drawn positions.
    pub drawn: u64,
    /// Moves that turned a win into a draw.
    pub win_to_draw: u64,
    /// Moves that turned a draw into a loss.
    pub draw_to_loss: u64,
    /// Moves that turned a win into a loss.
    pub win_to_loss: u64,
    /// Moves the engine took from its tables (not searched).
    pub from_tables: u64,
}

impl Counts {
    /// Add one judged position (the engine's move `source`).
    pub fn add(&mut self, j: &Judged, source: Source) {
        self.positions += 1;
        self.critical += u64::from(j.critical);
        self.won += u64::from(result(j.value) == 1);
        self.drawn += u64::from(result(j.value) == 0);
        match j.verdict {
            Verdict::Keeps => {}
            Verdict::WinToDraw => self.win_to_draw += 1,
            Verdict::DrawToLoss => self.draw_to_loss += 1,
            Verdict::WinToLoss => self.win_to_loss += 1,
        }
        self.from_tables += u64::from(source == Source::Tables);
    }

    /// Blunders of every kind.
    pub fn blunders(&self) -> u64 {
        self.win_to_draw + self.draw_to_loss + self.win_to_loss
    }

    /// Blunders per position, in percent (0 without positions).
    pub fn rate(&self) -> f64 {
        percent(self.blunders(), self.positions)
    }

    /// Blunders per critical position, in percent (0 without critical positions).
    pub fn critical_rate(&self) -> f64 {
        percent(self.blunders(), self.critical)
    }

    fn merge(&mut self, o: &Counts) {
        self.positions += o.positions;
        self.critical += o.critical;
        self.won += o.won;
        self.drawn += o.drawn;
        self.win_to_draw += o.win_to_draw;
        self.draw_to_loss += o.draw_to_loss;
        self.win_to_loss += o.win_to_loss;
        self.from_tables += o.from_tables;
    }
}

fn percent(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

/// Verdicts summed by phase and by stones on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per phase and number of stones on the board.
    pub groups: BTreeMap<(Phase, u32), Counts>,
}

impl Tally {
    /// Add a judged position.
    pub fn add(&mut self, pos: &Position, j: &Judged, source: Source) {
        self.groups
            .entry((Phase::of(pos), stones_on_board(pos)))
            .or_default()
            .add(j, source);
    }

    /// Every position of one phase (`None`: of both).
    pub fn total(&self, phase: Option<Phase>) -> Counts {
        let mut c = Counts::default();
        for (&(p, _), g) in &self.groups {
            if phase.is_none_or(|q| q == p) {
                c.merge(g);
            }
        }
        c
    }
}

/// The engine's move in a position and the judge's verdict on it.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The judge's view (`None`: the judge could not value every move).
    pub judged: Option<Judged>,
    /// Where the engine's decision came from.
    pub source: Source,
}

/// Ask `engine` (its transposition table cleared first: each position on its own) for its
/// move in `game` within `limits`, and judge it with `judge` (such as [`judge`] over an
/// oracle, or [`judge_moves`] over an answer key's values). `None` when the game is over.
pub fn measure(
    engine: &mut Engine,
    judge: impl Fn(&Game, Move) -> Option<Judged>,
    game: &Game,
    limits: &Limits,
) -> Option<Measured> {
    engine.new_game();
    let decision = engine.think(game, limits, &AtomicBool::new(false));
    let played = decision.full?;
    Some(Measured {
        judged: judge(game, played),
        source: decision.source,
    })
}

/// How [`sample_positions`] plays its games.
#[derive(Clone, Debug)]
pub struct SampleConfig {
    /// The variant.
    pub variant: Variant,
    /// The draw rules the games are played under.
    pub rules: DrawRules,
    /// Positions wanted.
    pub count: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Only positions with at least this many stones on the board.
    pub min_on_board: u32,
    /// Share of the positions from uniformly random games, in percent (the rest from the
    /// engine's games against itself).
    pub random_percent: u32,
    /// Node budget per move of the engine's games (no tables: a search everywhere).
    pub self_play_nodes: u64,
    /// Random plies at the start of each engine game (so that the games differ).
    pub random_opening: usize,
    /// Positions taken from one game at most.
    pub per_game: usize,
}

/// [`sample_positions`] stops after this many games in a row without a new position.
pub const GIVE_UP_AFTER: usize = 200;

/// A position drawn for the meter, as a Sanmill position string (with its counter), and the
/// kind of game it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampled {
    /// The position string.
    pub fen: String,
    /// `random` or `self-play`.
    pub source: &'static str,
}

/// Draw `config.count` distinct positions (turn starts, game not over, with at least
/// `min_on_board` stones on the board) from games: uniformly random games and the engine's
/// games against itself after a few random plies, at most `per_game` positions from each
/// game, chosen at random among its eligible positions. Deterministic for a seed. Fewer
/// positions when [`GIVE_UP_AFTER`] games in a row bring none.
pub fn sample_positions(config: &SampleConfig) -> Vec<Sampled> {
    let mut rng = Rng::new(config.seed.max(1));
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(config.count);
    let want_random = config.count * config.random_percent.min(100) as usize / 100;
    let mut engine = Engine::new(EngineConfig {
        use_tables: false,
        ..EngineConfig::new(config.variant, std::path::PathBuf::new())
    });
    let limits = Limits {
        nodes: Some(config.self_play_nodes.max(1)),
        ..Limits::default()
    };
    // Games in a row that gave no new position: the rest cannot be found (too many stones
    // asked for, or every eligible position drawn already).
    let mut failures = 0;
    while out.len() < config.count && failures < GIVE_UP_AFTER {
        let random_game = out.len() < want_random;
        let game = if random_game {
            play_game(config, &mut rng, usize::MAX, None)
        } else {
            play_game(
                config,
                &mut rng,
                config.random_opening,
                Some((&mut engine, &limits)),
            )
        };
        let mut eligible: Vec<(String, Position)> = game
            .into_iter()
            .filter(|(_, p)| stones_on_board(p) >= config.min_on_board)
            .collect();
        let before = out.len();
        let limit = if random_game {
            want_random
        } else {
            config.count
        };
        for _ in 0..config.per_game.max(1) {
            if eligible.is_empty() || out.len() >= limit {
                break;
            }
            let (fen, pos) = eligible.swap_remove(rng.below(eligible.len()));
            if seen.insert(pos) {
                out.push(Sampled {
                    fen,
                    source: if random_game { "random" } else { "self-play" },
                });
            }
        }
        failures = if out.len() == before { failures + 1 } else { 0 };
    }
    out
}

/// Play one game: random plies, then (with an engine) the engine's moves; the turn-start
/// positions where the game is not over, with their position strings.
fn play_game(
    config: &SampleConfig,
    rng: &mut Rng,
    random_plies: usize,
    mut engine: Option<(&mut Engine, &Limits)>,
) -> Vec<(String, Position)> {
    let v = config.variant;
    let mut game = Game::from_start(v, config.rules);
    if let Some((e, _)) = engine.as_mut() {
        e.new_game();
    }
    let mut positions = Vec::new();
    for turn in 0..600 {
        if game.result().is_some() {
            break;
        }
        let pos = *game.position();
        positions.push((game.fen(), pos));
        let moves = legal_moves(&v, &pos, Convention::Combined);
        if moves.is_empty() {
            break;
        }
        let mv = match engine.as_mut() {
            Some((e, limits)) if turn >= random_plies => {
                match e.think(&game, limits, &AtomicBool::new(false)).full {
                    Some(mv) => mv,
                    None => break,
                }
            }
            _ => moves[rng.below(moves.len())],
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_compare_results_not_distances() {
        use Value::{Draw, Loss, Win};
        assert_eq!(Verdict::of(Win(3), Win(9)), Verdict::Keeps);
        assert_eq!(Verdict::of(Win(3), Draw), Verdict::WinToDraw);
        assert_eq!(Verdict::of(Win(3), Loss(2)), Verdict::WinToLoss);
        assert_eq!(Verdict::of(Draw, Loss(40)), Verdict::DrawToLoss);
        assert_eq!(Verdict::of(Draw, Draw), Verdict::Keeps);
        assert_eq!(Verdict::of(Loss(5), Loss(1)), Verdict::Keeps);
        assert!(!Verdict::Keeps.is_blunder());
        assert!(Verdict::DrawToLoss.is_blunder());
    }

    #[test]
    fn counts_rate_per_position_and_per_critical_position() {
        let judged = |value, played, critical| Judged {
            value,
            played: Move::removal(0),
            played_value: played,
            keeping: Vec::new(),
            critical,
            verdict: Verdict::of(value, played),
        };
        let mut c = Counts::default();
        c.add(&judged(Value::Win(1), Value::Draw, true), Source::Search);
        c.add(&judged(Value::Draw, Value::Draw, true), Source::Search);
        c.add(
            &judged(Value::Loss(2), Value::Loss(2), false),
            Source::Tables,
        );
        c.add(&judged(Value::Draw, Value::Draw, false), Source::Search);
        assert_eq!((c.positions, c.critical, c.won, c.drawn), (4, 2, 1, 2));
        assert_eq!((c.blunders(), c.from_tables), (1, 1));
        assert_eq!(c.rate(), 25.0);
        assert_eq!(c.critical_rate(), 50.0);
        assert_eq!(Counts::default().rate(), 0.0);
    }
}
