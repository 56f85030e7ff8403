//! Print positions of random games of the standard game from the empty board, one Sanmill
//! position string per line (input for `millbase probe --batch`): each game is played with
//! uniformly random legal moves (removals as separate moves) for a random number of plies
//! up to MAX_PLIES and its last position is printed unless the game is over. Every position
//! is reachable, so this samples the placing and the moving phase of a whole-game table
//! directory, including one whose unreachable positions are "don't care". The same seed
//! gives the same positions.
//!
//! ```sh
//! cargo run --release --example random_games -- 100000             # seed 1, up to 80 plies
//! cargo run --release --example random_games -- 1000 7 40          # seed 7, up to 40 plies
//! ```

use millbase::engine::matches::Rng;
use millbase::movegen::{Convention, legal_moves, outcome, play};
use millbase::notation::format_position;
use millbase::{Position, Variant};
use std::io::{self, BufWriter, Write};

fn usage() -> ! {
    eprintln!("usage: random_games COUNT [SEED] [MAX_PLIES]   (defaults: seed 1, 80 plies)");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse = |i: usize, default: u64| match args.get(i) {
        Some(a) => a.parse::<u64>().unwrap_or_else(|_| usage()),
        None => default,
    };
    if args.is_empty() || args.len() > 3 {
        usage();
    }
    let count = parse(0, 0);
    let seed = parse(1, 1);
    let max_plies = parse(2, 80).max(1) as usize;
    let v = Variant::standard();
    let mut rng = Rng::new(seed);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut written = 0;
    while written < count {
        let plies = 1 + rng.below(max_plies);
        let mut pos = Position::start(&v);
        let mut over = false;
        for _ in 0..plies {
            let moves = legal_moves(&v, &pos, Convention::Split);
            if moves.is_empty() || outcome(&v, &pos).is_some() {
                over = true;
                break;
            }
            pos = play(&v, &pos, moves[rng.below(moves.len())]);
        }
        if over || outcome(&v, &pos).is_some() {
            continue;
        }
        if writeln!(out, "{}", format_position(&v, &pos)).is_err() {
            return; // a closed pipe
        }
        written += 1;
    }
    let _ = out.flush();
}
