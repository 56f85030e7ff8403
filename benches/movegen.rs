//! Move generation and un-move generation over a fixed set of random positions.
//!
//! Run with `cargo bench --bench movegen`. The positions come from random games of the
//! standard variant (fixed seed), a mix of placing and moving phases.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use millbase::movegen::{Convention, legal_moves, play, unmoves};
use millbase::{Position, Variant};
use std::hint::black_box;

/// Number of positions in the benchmark set.
const POSITIONS: usize = 300;

/// SplitMix64, for a reproducible position set.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions reached by random games of random length (0 to 59 plies) in the combined
/// convention, keeping only games that are not over.
fn positions(v: &Variant) -> Vec<Position> {
    let mut rng = Rng(2026);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let len = rng.below(60);
        let mut pos = Position::start(v);
        for _ in 0..len {
            let moves = legal_moves(v, &pos, Convention::Combined);
            if moves.is_empty() {
                break;
            }
            pos = play(v, &pos, moves[rng.below(moves.len())]);
        }
        if !legal_moves(v, &pos, Convention::Combined).is_empty() {
            out.push(pos);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let v = Variant::standard();
    let set = positions(&v);
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(set.len() as u64));
    for (name, conv) in [
        ("legal_moves_combined", Convention::Combined),
        ("legal_moves_split", Convention::Split),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                set.iter()
                    .map(|p| legal_moves(&v, black_box(p), conv).len())
                    .sum::<usize>()
            })
        });
    }
    group.bench_function("unmoves", |b| {
        b.iter(|| {
            set.iter()
                .map(|p| unmoves(&v, black_box(p)).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
