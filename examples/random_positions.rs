//! Print random positions of moving sectors of the standard game, one Sanmill position string
//! per line (input for `millbase probe --batch`): not over, either side to move, a quarter of
//! them remove-pending. The same seed gives the same positions.
//!
//! ```sh
//! cargo run --release --example random_positions -- 100000            # 3-3, 3-4, 4-3, 4-4
//! cargo run --release --example random_positions -- 1000 7 3-3 5-5    # seed 7, two sectors
//! ```

#[path = "../tests/common/sample.rs"]
mod sample;

use millbase::Variant;
use millbase::engine::matches::Rng;
use millbase::notation::format_position;
use std::io::{self, BufWriter, Write};

fn usage() -> ! {
    eprintln!("usage: random_positions COUNT [SEED] [W-B ...]   (default sectors 3-3 3-4 4-3 4-4)");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| usage());
    let seed: u64 = match args.get(1) {
        Some(a) => a.parse().unwrap_or_else(|_| usage()),
        None => 1,
    };
    let mut sectors = Vec::new();
    for a in args.iter().skip(2) {
        let (w, b) = a.split_once('-').unwrap_or_else(|| usage());
        let (w, b): (u8, u8) = match (w.parse(), b.parse()) {
            (Ok(w), Ok(b)) if (3..=9).contains(&w) && (3..=9).contains(&b) => (w, b),
            _ => usage(),
        };
        sectors.push((w, b));
    }
    if sectors.is_empty() {
        sectors.extend_from_slice(&sample::SMALL_SECTORS);
    }
    let v = Variant::standard();
    let mut rng = Rng::new(seed);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut written = 0;
    while written < count {
        if let Some(pos) = sample::random_position(&mut rng, &sectors) {
            if writeln!(out, "{}", format_position(&v, &pos)).is_err() {
                return; // a closed pipe
            }
            written += 1;
        }
    }
    let _ = out.flush();
}
