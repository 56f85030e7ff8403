//! Matches between players: UCI engines run as child processes, and two built-in movers
//! (`builtin:random`, `builtin:greedy`) to test engines against. The referee is millbase's
//! own [`Game`] with both draw rules; a player that breaks the protocol — an illegal or
//! missing move, `bestmove none` in a game that is not over, no answer within the timeout,
//! a crash — loses that game, which is reported, and is restarted for the next one.

use super::eval::evaluate;
use super::game::{DrawRules, Game, GameResult, Reason};
use super::oracle::split_first;
use crate::game::movegen::{Convention, legal_moves, play};
use crate::game::notation::format_move;
use crate::game::position::Color;
use crate::game::rules::Variant;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A player of a match.
pub trait Player {
    /// A short name for tables and game lines.
    fn name(&self) -> String;
    /// Prepare for a new game (a UCI engine: restart if broken, `ucinewgame`, `isready`).
    ///
    /// # Errors
    ///
    /// Why the player cannot play (e.g. its engine cannot be restarted or does not answer);
    /// [`play_game`] counts it as a forfeit.
    fn new_game(&mut self) -> Result<(), String>;
    /// The next action in `game` (not over) as text; `Err` says how the protocol broke.
    ///
    /// # Errors
    ///
    /// How the protocol broke (no answer in time, the engine exited); [`play_game`] counts it as a
    /// forfeit.
    fn choose(&mut self, game: &Game) -> Result<String, String>;
}

/// Split a command line into words: whitespace separates, single and double quotes group.
pub fn split_command(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for ch in command.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// How long a [`UciPlayer`] is asked to think for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// `go movetime MS`.
    MoveTime(Duration),
    /// `go nodes N`: the same search whatever the machine's load.
    Nodes(u64),
}

impl GoLimit {
    /// The `go` command.
    pub fn command(self) -> String {
        match self {
            GoLimit::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            GoLimit::Nodes(n) => format!("go nodes {n}"),
        }
    }
}

/// A UCI engine in a child process.
pub struct UciPlayer {
    command: String,
    setup: Vec<String>,
    limit: GoLimit,
    timeout: Duration,
    name: String,
    proc: Option<Proc>,
}

struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl UciPlayer {
    /// Start `command` (split by [`split_command`]), handshake (`uci` … `uciok`, the `setup`
    /// lines such as `setoption ...`, `isready` … `readyok`). Moves are asked for with
    /// `limit`'s `go` command; an answer must come within `timeout`.
    ///
    /// # Errors
    ///
    /// A one-line message if the command is empty or cannot be started, or the engine does not
    /// answer the handshake (`uciok`, `readyok`) in time (at least 5 seconds).
    pub fn start(
        command: &str,
        setup: Vec<String>,
        limit: GoLimit,
        timeout: Duration,
    ) -> Result<UciPlayer, String> {
        let mut p = UciPlayer {
            command: command.to_string(),
            setup,
            limit,
            timeout,
            name: command.to_string(),
            proc: None,
        };
        p.launch()?;
        Ok(p)
    }

    fn launch(&mut self) -> Result<(), String> {
        self.proc = None;
        let words = split_command(&self.command);
        let Some((prog, args)) = words.split_first() else {
            return Err("empty engine command".into());
        };
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start engine '{}': {e}", self.command))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let l = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(l).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        self.proc = Some(Proc {
            child,
            stdin,
            lines,
        });
        self.send("uci")?;
        let handshake = self.timeout.max(Duration::from_secs(5));
        let mut name = None;
        self.wait(handshake, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            }
            l == "uciok"
        })
        .map_err(|e| format!("no uciok: {e}"))?;
        if let Some(n) = name {
            self.name = n;
        }
        for l in self.setup.clone() {
            self.send(&l)?;
        }
        self.ready(handshake)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let p = self.proc.as_mut().ok_or("the engine is not running")?;
        writeln!(p.stdin, "{line}")
            .and_then(|()| p.stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    /// Read lines until `done` accepts one; `Err` on timeout or end of output.
    fn wait(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, String> {
        let until = Instant::now() + timeout;
        let p = self.proc.as_mut().ok_or("the engine is not running")?;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match p.lines.recv_timeout(left) {
                Ok(l) if done(&l) => return Ok(l),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer within {} ms", timeout.as_millis()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the engine exited".into());
                }
            }
        }
    }

    fn ready(&mut self, timeout: Duration) -> Result<(), String> {
        self.send("isready")?;
        self.wait(timeout, |l| l == "readyok")
            .map(|_| ())
            .map_err(|e| format!("no readyok: {e}"))
    }

    /// Fail, and stop the process so that the next game starts a fresh one.
    fn broken<T>(&mut self, e: String) -> Result<T, String> {
        self.proc = None;
        Err(e)
    }
}

impl Player for UciPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), String> {
        if self.proc.is_none() {
            self.launch()?;
        }
        let handshake = self.timeout.max(Duration::from_secs(5));
        let r = self.send("ucinewgame").and_then(|()| self.ready(handshake));
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.broken(e),
        }
    }

    fn choose(&mut self, game: &Game) -> Result<String, String> {
        let mut cmd = format!("position {}", game.start_command());
        let moves = game.moves_text();
        if !moves.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&moves.join(" "));
        }
        let go = self.limit.command();
        if let Err(e) = self.send(&cmd).and_then(|()| self.send(&go)) {
            return self.broken(e);
        }
        match self.wait(self.timeout, |l| {
            l.split_whitespace().any(|w| w == "bestmove")
        }) {
            Ok(line) => {
                let mut words = line.split_whitespace();
                words.find(|&w| w == "bestmove");
                match words.next() {
                    Some(tok) => Ok(tok.to_string()),
                    None => Err("'bestmove' without a move".into()),
                }
            }
            Err(e) => self.broken(e),
        }
    }
}

/// Deterministic pseudo-random numbers (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (> 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A built-in mover: uniformly random legal actions, or 1-ply greedy ones.
pub struct BuiltinPlayer {
    greedy: bool,
    rng: Rng,
}

impl BuiltinPlayer {
    /// A mover that plays uniformly random legal actions.
    pub fn random(seed: u64) -> BuiltinPlayer {
        BuiltinPlayer {
            greedy: false,
            rng: Rng::new(seed),
        }
    }

    /// A mover that plays the move (with its removal) whose result evaluates best for it
    /// after one ply (a win at once first), random among equals.
    pub fn greedy(seed: u64) -> BuiltinPlayer {
        BuiltinPlayer {
            greedy: true,
            rng: Rng::new(seed),
        }
    }
}

impl Player for BuiltinPlayer {
    fn name(&self) -> String {
        if self.greedy {
            "builtin:greedy".into()
        } else {
            "builtin:random".into()
        }
    }

    fn new_game(&mut self) -> Result<(), String> {
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<String, String> {
        let v = *game.variant();
        let pos = *game.position();
        if !self.greedy {
            let moves = game.legal_actions();
            if moves.is_empty() {
                return Ok("none".into());
            }
            return Ok(format_move(&v, moves[self.rng.below(moves.len())]));
        }
        let moves = legal_moves(&v, &pos, Convention::Combined);
        let mut best = Vec::new();
        let mut best_score = i32::MIN;
        for mv in moves {
            let next = play(&v, &pos, mv);
            let score = if next.too_few(next.to_move)
                || legal_moves(&v, &next, Convention::Combined).is_empty()
            {
                i32::MAX
            } else {
                -evaluate(&v, &next)
            };
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(mv);
            }
        }
        if best.is_empty() {
            return Ok("none".into());
        }
        let mv = best[self.rng.below(best.len())];
        Ok(format_move(&v, split_first(mv)))
    }
}

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant.
    pub variant: Variant,
    /// The draw rules the referee applies.
    pub rules: DrawRules,
    /// Games to play.
    pub games: usize,
    /// Start positions (`startpos` or position strings, optionally followed by
    /// `moves ...`), used in turn.
    pub starts: Vec<String>,
    /// Whether each start is played twice with colours swapped (two different players);
    /// otherwise each start once, the first player white in even games.
    pub pairs: bool,
    /// Longest game in actions; then a draw by the move limit.
    pub max_actions: usize,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number.
    pub number: usize,
    /// Index of the player with white.
    pub white: usize,
    /// Index of the player with black.
    pub black: usize,
    /// The start as given.
    pub start: String,
    /// The actions played (split convention).
    pub moves: Vec<String>,
    /// How it ended.
    pub result: GameResult,
    /// Plies in the combined convention.
    pub plies: usize,
}

impl GameRecord {
    /// The index of the winning player, if any.
    pub fn winner(&self) -> Option<usize> {
        self.result.winner.map(|c| match c {
            Color::White => self.white,
            Color::Black => self.black,
        })
    }
}

/// One player's results over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Games played.
    pub games: usize,
    /// Games won.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Games lost by a protocol error (counted in `losses` too).
    pub forfeits: usize,
}

impl Standing {
    /// Player `p`'s standing over `records`.
    pub fn of(records: &[GameRecord], p: usize) -> Standing {
        let mut s = Standing::default();
        for r in records {
            s.games += 1;
            match r.winner() {
                Some(w) if w == p => s.wins += 1,
                Some(_) => {
                    s.losses += 1;
                    if r.result.reason == Reason::Forfeit {
                        s.forfeits += 1;
                    }
                }
                None => s.draws += 1,
            }
        }
        s
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The share of the points, 0 to 1 (0.5 without games).
    pub fn fraction(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.points() / self.games as f64
        }
    }

    /// Half the width of the score's 95 % confidence interval (normal approximation over
    /// the games' results 0, 1/2, 1), as a fraction; `None` with fewer than two games or when
    /// every game ended alike (the approximation needs results that differ).
    pub fn margin95(&self) -> Option<f64> {
        let n = self.games as f64;
        let p = self.fraction();
        let var = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n.max(1.0);
        (self.games >= 2 && var > 0.0).then(|| 1.96 * (var / n).sqrt())
    }

    /// The Elo difference a share `fraction` stands for (infinite at 0 and 1).
    pub fn elo(fraction: f64) -> f64 {
        -400.0 * (1.0 / fraction - 1.0).log10()
    }
}

/// The start of game `k` (0-based) and whether player 0 has white.
pub fn schedule(config: &MatchConfig, k: usize) -> (usize, bool) {
    let n = config.starts.len().max(1);
    if config.pairs {
        ((k / 2) % n, k.is_multiple_of(2))
    } else {
        (k % n, k.is_multiple_of(2))
    }
}

/// Play one game between `white` and `black` from `start` (already checked to parse).
///
/// # Errors
///
/// The message of [`Game::from_text`] if `start` (with its `moves ...`) cannot be read. A player
/// that fails (an `Err` from [`Player::new_game`] or [`Player::choose`], an illegal move) is not an
/// error: it forfeits the game.
pub fn play_game(
    config: &MatchConfig,
    start: &str,
    white: &mut dyn Player,
    black: &mut dyn Player,
) -> Result<(Game, GameResult), String> {
    let (head, moves) = match start.split_once(" moves ") {
        Some((h, m)) => (h, m.split_whitespace().collect::<Vec<_>>()),
        None => (start, Vec::new()),
    };
    let mut game = Game::from_text(config.variant, config.rules, head, &moves)?;
    let forfeit = |side: Color, why: String| GameResult {
        winner: Some(side.other()),
        reason: Reason::Forfeit,
        detail: Some(why),
    };
    if let Err(e) = white.new_game() {
        return Ok((game, forfeit(Color::White, e)));
    }
    if let Err(e) = black.new_game() {
        return Ok((game, forfeit(Color::Black, e)));
    }
    loop {
        if let Some(r) = game.result() {
            return Ok((game, r));
        }
        if game.plies().len() >= config.max_actions {
            return Ok((game, GameResult::new(None, Reason::MoveLimit)));
        }
        let side = game.position().to_move;
        let p: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let token = match p.choose(&game) {
            Ok(t) => t,
            Err(e) => return Ok((game, forfeit(side, e))),
        };
        if matches!(token.as_str(), "none" | "(none)" | "0000") {
            let why = format!("bestmove {token} in a game that is not over");
            return Ok((game, forfeit(side, why)));
        }
        if let Err(e) = game.play_text(&token) {
            return Ok((game, forfeit(side, format!("illegal move '{token}': {e}"))));
        }
    }
}

/// Play a whole match; `on_game` sees each game as it ends.
///
/// # Errors
///
/// The error of [`play_game`] for the first start that cannot be read; the games played before it
/// are lost.
pub fn run_match(
    config: &MatchConfig,
    players: &mut [Box<dyn Player>; 2],
    mut on_game: impl FnMut(&GameRecord),
) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    for k in 0..config.games {
        let (s, first_white) = schedule(config, k);
        let start = config.starts.get(s).cloned().unwrap_or("startpos".into());
        let (w, b) = if first_white { (0, 1) } else { (1, 0) };
        let [p0, p1] = players;
        let (white, black): (&mut dyn Player, &mut dyn Player) = if first_white {
            (p0.as_mut(), p1.as_mut())
        } else {
            (p1.as_mut(), p0.as_mut())
        };
        let (game, result) = play_game(config, &start, white, black)?;
        let rec = GameRecord {
            number: k + 1,
            white: w,
            black: b,
            start,
            moves: game.moves_text(),
            result,
            plies: game.combined_plies(),
        };
        on_game(&rec);
        records.push(rec);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command("millbase uci --dir '/tmp/my tables' \"\" x"),
            ["millbase", "uci", "--dir", "/tmp/my tables", "", "x"]
        );
        assert!(split_command("   ").is_empty());
    }

    #[test]
    fn random_against_greedy_finishes_by_the_rules() {
        let v = Variant::standard();
        let config = MatchConfig {
            variant: v,
            rules: DrawRules::default(),
            games: 4,
            starts: vec!["startpos".into()],
            pairs: true,
            max_actions: 2000,
        };
        let mut players: [Box<dyn Player>; 2] = [
            Box::new(BuiltinPlayer::random(1)),
            Box::new(BuiltinPlayer::greedy(2)),
        ];
        let recs = run_match(&config, &mut players, |_| {}).unwrap();
        assert_eq!(recs.len(), 4);
        for r in &recs {
            assert_ne!(r.result.reason, Reason::Forfeit, "{r:?}");
            assert_ne!(r.result.reason, Reason::MoveLimit, "{r:?}");
            // Replaying the moves gives the same result.
            let mut g = Game::from_start(v, DrawRules::default());
            for m in &r.moves {
                assert!(g.result().is_none());
                g.play_text(m).unwrap();
            }
            assert_eq!(g.result().as_ref(), Some(&r.result));
        }
        // Colours alternate.
        assert_eq!((recs[0].white, recs[1].white), (0, 1));
        // Greedy beats random most of the time.
        let greedy_wins = recs.iter().filter(|r| r.winner() == Some(1)).count();
        assert!(greedy_wins >= 3, "{recs:?}");
    }

    #[test]
    fn standings_and_margins() {
        let s = Standing {
            games: 200,
            wins: 70,
            draws: 100,
            losses: 30,
            forfeits: 0,
        };
        assert_eq!(s.points(), 120.0);
        assert!((s.fraction() - 0.6).abs() < 1e-12);
        // var = (70 * 0.16 + 100 * 0.01 + 30 * 0.36) / 200 = 0.115
        let want = 1.96 * (0.115f64 / 200.0).sqrt();
        let m = s.margin95().unwrap();
        assert!((m - want).abs() < 1e-12, "{m}");
        let alike = Standing {
            games: 2,
            wins: 2,
            draws: 0,
            losses: 0,
            forfeits: 0,
        };
        assert_eq!(alike.margin95(), None);
        assert!((Standing::elo(0.5)).abs() < 1e-9);
        assert!((Standing::elo(0.6) - 70.437).abs() < 1e-3);
        assert!(Standing::elo(0.4) < 0.0);
    }
}
