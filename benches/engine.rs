//! The engine's work for one `go`, in the library (no protocol I/O): a table answer with
//! warm tables, and a fixed-depth search without tables. Solves 3-3, 3-4/4-3 and 4-4 of the
//! standard game into a temporary directory first (a few seconds).
//!
//! `cargo bench --bench engine`. The protocol round trip is measured by
//! `examples/engine_timing.rs` (docs/BENCHMARKS.md, "Engine").

use criterion::{Criterion, criterion_group, criterion_main};
use millbase::Variant;
use millbase::engine::game::{DrawRules, Game};
use millbase::engine::matches::Rng;
use millbase::engine::{Engine, EngineConfig, Limits, Source};
use millbase::format::{WriteOptions, write_sector};
use millbase::movegen::{Convention, legal_moves, outcome, play};
use millbase::notation::PositionInfo;
use millbase::sectors::SectorIndex;
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{Color, Position, Sector};
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Random positions of the solved sectors that are not over; one in four remove-pending.
fn table_positions(v: &Variant, n: usize) -> Vec<Position> {
    let sectors = [(3, 3), (3, 4), (4, 3), (4, 4)].map(|(w, b)| Sector::moving(w, b));
    let mut rng = Rng::new(2026);
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

fn bench(c: &mut Criterion) {
    let v = Variant::standard();
    let dir = tempfile::tempdir().unwrap();
    let mut solved = SolvedValues::new();
    for c in millbase::sectors::solving_order(&v, &[Sector::moving(4, 4)]) {
        if c.sectors().iter().all(|s| solved.contains_key(s)) {
            continue;
        }
        for out in solve_component(&v, &c, &solved, &SolveOptions::default()).unwrap() {
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
    drop(solved);
    let games: Vec<Game> = table_positions(&v, 1000)
        .into_iter()
        .map(|p| Game::new(v, p, PositionInfo::default(), DrawRules::default()))
        .collect();
    let mut engine = Engine::new(EngineConfig::new(v, dir.path().to_path_buf()));
    let stop = AtomicBool::new(false);
    let limits = Limits::default();
    // Warm the tables: one pass over every position.
    for g in &games {
        assert_eq!(engine.think(g, &limits, &stop).source, Source::Tables);
    }
    let mut group = c.benchmark_group("engine");
    let mut i = 0;
    group.bench_function("go_tables_warm", |b| {
        b.iter(|| {
            i = (i + 1) % games.len();
            black_box(engine.think(&games[i], &limits, &stop))
        })
    });
    let start = Game::from_start(v, DrawRules::default());
    let depth = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let mut bare = Engine::new(EngineConfig {
        use_tables: false,
        ..EngineConfig::new(v, dir.path().to_path_buf())
    });
    group.sample_size(10);
    group.bench_function("go_search_start_depth5", |b| {
        b.iter(|| {
            bare.new_game();
            black_box(bare.think(&start, &depth, &stop))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
