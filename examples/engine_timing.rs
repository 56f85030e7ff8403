//! The engine through its protocol, timed from the client's side: the time from writing
//! `go` to reading the `bestmove` line of a `millbase uci` child process.
//!
//! 1. Table answers with warm tables: random positions of 3-3, 3-4/4-3 and 4-4 (one in four
//!    remove-pending), each once to warm the tables, then each timed.
//! 2. Movetime adherence: positions from random games from the empty board (outside the
//!    tables), `go movetime MS` for several MS; the time taken against MS.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example engine_timing -- target/release/millbase /tmp/t44
//! ```
//!
//! The table directory is generated (`millbase generate --dir DIR 4-4`) if it has no tables.

use millbase::Variant;
use millbase::engine::matches::Rng;
use millbase::movegen::{Convention, legal_moves, outcome, play};
use millbase::notation::format_position;
use millbase::sectors::SectorIndex;
use millbase::{Color, Position, Sector};
use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

struct Engine {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Send `go ...` and wait for the answer; the time in between and the answer line.
    fn go(&mut self, go: &str) -> (Duration, String) {
        let t = Instant::now();
        self.send(go);
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "engine exited"
            );
            if line.contains(" bestmove ") {
                return (t.elapsed(), line.trim_end().to_string());
            }
        }
    }

    fn ready(&mut self) {
        self.send("isready");
        let mut line = String::new();
        while line.trim_end() != "readyok" {
            line.clear();
            self.stdout.read_line(&mut line).unwrap();
        }
    }
}

/// The `time` field (ms) of an answer line.
fn engine_ms(line: &str) -> u64 {
    let mut words = line.split_whitespace();
    words.find(|&w| w == "time");
    words.next().and_then(|t| t.parse().ok()).unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn table_positions(v: &Variant, n: usize, rng: &mut Rng) -> Vec<Position> {
    let sectors = [(3, 3), (3, 4), (4, 3), (4, 4)].map(|(w, b)| Sector::moving(w, b));
    let mut out = Vec::new();
    while out.len() < n {
        let s = sectors[rng.below(sectors.len())];
        let index = SectorIndex::new(v, s);
        let Some((us, them)) = index.position(rng.next_u64() % index.slots()) else {
            continue;
        };
        let to_move = [Color::White, Color::Black][rng.below(2)];
        let mut stones = [0; 2];
        stones[to_move.index()] = us;
        stones[to_move.other().index()] = them;
        let mut pos = Position::new(stones, [0, 0], to_move);
        if outcome(v, &pos).is_some() {
            continue;
        }
        if rng.below(4) == 0
            && let Some(p) = legal_moves(v, &pos, Convention::Split)
                .into_iter()
                .map(|m| play(v, &pos, m))
                .find(|p| p.pending_removal())
        {
            pos = p;
        }
        out.push(pos);
    }
    out
}

/// Positions after 4 to 40 random plies from the empty board (none over).
fn game_positions(v: &Variant, n: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::start(v);
        for _ in 0..4 + rng.below(37) {
            let moves = legal_moves(v, &pos, Convention::Combined);
            if moves.is_empty() {
                break;
            }
            pos = play(v, &pos, moves[rng.below(moves.len())]);
        }
        if outcome(v, &pos).is_none() && pos.total(Color::White) + pos.total(Color::Black) > 12 {
            out.push(pos);
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bin = args
        .get(1)
        .map_or("target/release/millbase", |s| s.as_str());
    let dir = args
        .get(2)
        .map_or("/tmp/millbase-engine-timing", |s| s.as_str());
    let v = Variant::standard();
    if !std::path::Path::new(dir).join("4-4-0-0.mbd").exists() {
        let ok = Command::new(bin)
            .args(["generate", "--quiet", "--dir", dir, "4-4"])
            .status()
            .unwrap();
        assert!(ok.success());
    }
    let mut child = Command::new(bin)
        .args(["uci", "--dir", dir])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut e = Engine {
        stdin: child.stdin.take().unwrap(),
        stdout: BufReader::new(child.stdout.take().unwrap()),
    };
    e.send("uci");
    e.ready();
    let mut rng = Rng::new(2026);

    let positions = table_positions(&v, 2000, &mut rng);
    let fens: Vec<String> = positions.iter().map(|p| format_position(&v, p)).collect();
    for f in &fens {
        e.send(&format!("position fen {f}"));
        let (_, line) = e.go("go");
        assert!(!line.ends_with("bestmove none"), "{line}");
    }
    // Wall time seen by the client, and the engine's own `time` (ms) of each answer.
    let mut times = Vec::new();
    let mut inside = Vec::new();
    for f in &fens {
        e.send(&format!("position fen {f}"));
        let (t, line) = e.go("go");
        times.push(t);
        inside.push(engine_ms(&line));
    }
    times.sort();
    inside.sort_unstable();
    println!(
        "go with warm tables, {} positions: median {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.9).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().unwrap().as_secs_f64() * 1e3,
    );
    println!(
        "  engine's own time (whole ms): {} of {} answers took 1 ms or more, max {} ms",
        inside.iter().filter(|&&t| t >= 1).count(),
        inside.len(),
        inside.last().unwrap()
    );

    let searched = game_positions(&v, 10, &mut rng);
    println!(
        "movetime adherence ({} positions outside the tables):",
        searched.len()
    );
    for ms in [20u64, 50, 100, 200, 500, 1000] {
        let mut own = Vec::new();
        let mut ratios: Vec<f64> = searched
            .iter()
            .map(|p| {
                e.send(&format!("position fen {}", format_position(&v, p)));
                let (t, line) = e.go(&format!("go movetime {ms}"));
                own.push(engine_ms(&line) as f64 / ms as f64);
                t.as_secs_f64() * 1e3 / ms as f64
            })
            .collect();
        own.sort_by(f64::total_cmp);
        ratios.sort_by(f64::total_cmp);
        let over = ratios.iter().filter(|&&r| r > 1.1).count();
        println!(
            "  movetime {ms:>4} ms: time/movetime min {:.3}, median {:.3}, max {:.3}; over 110 %: {over}",
            ratios[0],
            ratios[ratios.len() / 2],
            ratios[ratios.len() - 1],
        );
        println!(
            "                    engine's own time/movetime: median {:.3}, max {:.3}",
            own[own.len() / 2],
            own[own.len() - 1]
        );
    }
    e.send("quit");
    let _ = child.wait();
}
