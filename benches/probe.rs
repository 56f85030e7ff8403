//! Probe latency through the public API (`Tablebase`): a position's value and its best
//! moves, warm (blocks cached) and cold (no cache). Solves 3-3 and 3-4/4-3 of the standard
//! game into a temporary directory first (a few seconds).
//!
//! `cargo bench --bench probe`

use criterion::{Criterion, criterion_group, criterion_main};
use millbase::format::{TableSet, WriteOptions, write_sector};
use millbase::sectors::Component;
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{Color, Position, Sector, Tablebase, Variant};
use std::hint::black_box;
use std::sync::Arc;

fn positions(v: &Variant, n: usize) -> Vec<Position> {
    let mut x = 2026u64;
    let mut out = Vec::with_capacity(n);
    let sectors = [
        Sector::moving(3, 3),
        Sector::moving(3, 4),
        Sector::moving(4, 3),
    ];
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let s = sectors[(x % 3) as usize];
        let index = millbase::sectors::SectorIndex::new(v, s);
        if let Some((us, them)) = index.position((x >> 8) % index.slots()) {
            let to_move = if x & 1 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mut stones = [0; 2];
            stones[to_move.index()] = us;
            stones[to_move.other().index()] = them;
            out.push(Position::new(stones, [0, 0], to_move));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let v = Variant::standard();
    let dir = tempfile::tempdir().unwrap();
    let mut solved = SolvedValues::new();
    for s in [Sector::moving(3, 3), Sector::moving(3, 4)] {
        for out in
            solve_component(&v, &Component::of(&v, s), &solved, &SolveOptions::default()).unwrap()
        {
            write_sector(
                dir.path(),
                &v,
                out.sector,
                &out.values,
                &WriteOptions::default(),
            )
            .unwrap();
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    let sample = positions(&v, 4096);
    let tb = Tablebase::open(dir.path(), v).unwrap();
    for p in &sample {
        tb.move_values(p).unwrap(); // warm every block the benchmarks touch
    }
    let mut g = c.benchmark_group("probe");
    let mut i = 0;
    g.bench_function("value_warm", |b| {
        b.iter(|| {
            i = (i + 1) % sample.len();
            black_box(tb.value(&sample[i]).unwrap())
        })
    });
    g.bench_function("best_moves_warm", |b| {
        b.iter(|| {
            i = (i + 1) % sample.len();
            black_box(tb.best_moves(&sample[i]).unwrap())
        })
    });
    g.bench_function("value_cold", |b| {
        b.iter_batched(
            || Tablebase::open(dir.path(), v).unwrap(),
            |fresh| {
                i = (i + 1) % sample.len();
                black_box(fresh.value(&sample[i]).unwrap())
            },
            criterion::BatchSize::PerIteration,
        )
    });
    // No block cache: every probe reads and decompresses its blocks, by positioned reads
    // (the default) or from memory maps.
    let uncached = Tablebase::open(dir.path(), v).unwrap().with_cache_bytes(0);
    g.bench_function("value_uncached_read", |b| {
        b.iter(|| {
            i = (i + 1) % sample.len();
            black_box(uncached.value(&sample[i]).unwrap())
        })
    });
    // SAFETY: nothing modifies the files of this temporary directory.
    let mapped = unsafe { Tablebase::open(dir.path(), v).unwrap().with_memory_map() };
    let mapped = mapped.with_cache_bytes(0);
    g.bench_function("value_uncached_mmap", |b| {
        b.iter(|| {
            i = (i + 1) % sample.len();
            black_box(mapped.value(&sample[i]).unwrap())
        })
    });
    g.finish();
    let _ = TableSet::new(dir.path(), v);
}

criterion_group!(benches, bench);
criterion_main!(benches);
