//! Table format v2: probe latency (warm and cold), full decode and write speed, and, given a
//! directory of tables, the size of every sector's files.
//!
//! `cargo bench --bench table` solves 3-3 and 3-4/4-3 of the standard game (a few seconds),
//! writes them to a temporary directory and measures:
//!
//! * `table/value_warm`, `table/wdl_warm`: one probe of a random position (slot computation
//!   included) whose blocks are cached;
//! * `table/value_cold`: the same with no cache (both blocks decompressed per probe);
//! * `table/read_values_3-4`, `table/write_sector_3-4`: a whole sector.
//!
//! `MILLBASE_TABLE_DIR=DIR cargo bench --bench table` instead prints a Markdown table of
//! the sectors in `DIR` (standard variant): for each, the positions, the sizes of the two
//! files in bytes and bits per position, the time to write them again (level 9) and, for
//! comparison, both files at zstd level 19 and the WDL values as plain 2-bit symbols
//! (unused slots as symbol 3) compressed as one zstd level 19 frame per sector.

use criterion::{Criterion, criterion_group};
use millbase::Sector;
use millbase::Variant;
use millbase::format::{DRAW, UNUSED, WIN_FLAG};
use millbase::format::{TableSet, WriteOptions, WriteReport, write_sector};
use millbase::format::{WDL_EXTENSION, read_table};
use millbase::rules::Bits;
use millbase::sectors::Component;
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Random used positions of the sectors: (sector, us, them).
fn sample(set: &TableSet, sectors: &[Sector], n: usize) -> Vec<(Sector, Bits, Bits)> {
    let mut x = 2026u64;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let s = sectors[(x % sectors.len() as u64) as usize];
        let index = set.index(s).unwrap();
        if let Some((us, them)) = index.position((x >> 8) % index.slots()) {
            out.push((s, us, them));
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let v = Variant::standard();
    let mut solved = SolvedValues::new();
    for s in [Sector::moving(3, 3), Sector::moving(3, 4)] {
        for out in
            solve_component(&v, &Component::of(&v, s), &solved, &SolveOptions::default()).unwrap()
        {
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    for (&s, values) in &solved {
        write_sector(dir.path(), &v, s, values, &WriteOptions::default()).unwrap();
    }
    let sectors: Vec<Sector> = solved.keys().copied().collect();
    let warm = TableSet::new(dir.path(), v);
    let probes = sample(&warm, &sectors, 4096);
    for &(s, us, them) in &probes {
        warm.value(s, warm.index(s).unwrap().slot(us, them))
            .unwrap();
    }
    let mut group = c.benchmark_group("table");
    let probe = |set: &TableSet, i: usize, wdl: bool| {
        let (s, us, them) = probes[i % probes.len()];
        let slot = set.index(s).unwrap().slot(us, them);
        if wdl {
            set.wdl(s, slot).unwrap().is_some()
        } else {
            set.value(s, slot).unwrap().is_some()
        }
    };
    let mut i = 0;
    group.bench_function("value_warm", |b| {
        b.iter(|| {
            i += 1;
            black_box(probe(&warm, i, false))
        })
    });
    group.bench_function("wdl_warm", |b| {
        b.iter(|| {
            i += 1;
            black_box(probe(&warm, i, true))
        })
    });
    let cold = TableSet::new(dir.path(), v).with_cache_bytes(0);
    group.bench_function("value_cold", |b| {
        b.iter(|| {
            i += 1;
            black_box(probe(&cold, i, false))
        })
    });
    group.sample_size(20);
    let s34 = Sector::moving(3, 4);
    group.bench_function("read_values_3-4", |b| {
        b.iter(|| black_box(cold.read_values(s34).unwrap().len()))
    });
    let out = tempfile::tempdir().unwrap();
    group.bench_function("write_sector_3-4", |b| {
        b.iter(|| {
            write_sector(out.path(), &v, s34, &solved[&s34], &WriteOptions::default()).unwrap()
        })
    });
    group.finish();
}

/// Plain 2-bit WDL symbols (unused slots as 3), four to a byte.
fn plain_wdl(values: &[u16]) -> Vec<u8> {
    let mut out = vec![0u8; values.len().div_ceil(4)];
    for (i, &c) in values.iter().enumerate() {
        let symbol = match c {
            UNUSED => 3,
            DRAW => 0,
            c if c & WIN_FLAG != 0 => 1,
            _ => 2,
        };
        out[i / 4] |= symbol << (2 * (i % 4));
    }
    out
}

fn mb(bytes: u64) -> String {
    format!("{:.2}", bytes as f64 / 1e6)
}

fn bits(bytes: u64, positions: u64) -> String {
    format!("{:.3}", bytes as f64 * 8.0 / positions as f64)
}

/// The size table of the sectors in `dir`.
fn sizes(dir: &Path) {
    let v = Variant::standard();
    let mut sectors: Vec<Sector> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(&format!(".{WDL_EXTENSION}"))?
                .parse()
                .ok()
        })
        .collect();
    sectors.sort_by_key(|s| (s.w + s.b, s.w.min(s.b), s.w));
    println!(
        "| sector | positions | .mbw bytes | WDL bits/pos | .mbd bytes | distance bits/pos \
         | write s | .mbw level 19 | .mbd level 19 | write s level 19 | 2-bit WDL, one zstd-19 frame |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let tmp = tempfile::tempdir().unwrap();
    let mut total: Option<(WriteReport, WriteReport, u64)> = None;
    let (mut secs9, mut secs19) = (0.0, 0.0);
    for s in sectors {
        let values = read_table(dir, &v, s).unwrap();
        let r9 = write_sector(tmp.path(), &v, s, &values, &WriteOptions::default()).unwrap();
        let level19 = WriteOptions {
            level: 19,
            distance_level: 19,
            ..WriteOptions::default()
        };
        let r19 = write_sector(tmp.path(), &v, s, &values, &level19).unwrap();
        let t = Instant::now();
        let frame = zstd::bulk::compress(&plain_wdl(&values), 19).unwrap().len() as u64;
        let frame_secs = t.elapsed().as_secs_f64();
        let p = r9.positions;
        println!(
            "| {s} | {p} | {} | {} | {} | {} | {:.2} | {} ({}) | {} ({}) | {:.2} | {} ({}, {frame_secs:.2} s) |",
            r9.wdl_bytes,
            bits(r9.wdl_bytes, p),
            r9.distance_bytes,
            bits(r9.distance_bytes, p),
            r9.elapsed.as_secs_f64(),
            r19.wdl_bytes,
            bits(r19.wdl_bytes, p),
            r19.distance_bytes,
            bits(r19.distance_bytes, p),
            r19.elapsed.as_secs_f64(),
            frame,
            bits(frame, p),
        );
        secs9 += r9.elapsed.as_secs_f64();
        secs19 += r19.elapsed.as_secs_f64();
        total = Some(match total {
            None => (r9, r19, frame),
            Some((mut a, mut b, f)) => {
                for (t, r) in [(&mut a, &r9), (&mut b, &r19)] {
                    t.positions += r.positions;
                    t.wdl_bytes += r.wdl_bytes;
                    t.distance_bytes += r.distance_bytes;
                }
                (a, b, f + frame)
            }
        });
    }
    let Some((a, b, frame)) = total else {
        println!("no tables in {}", dir.display());
        return;
    };
    let p = a.positions;
    println!(
        "| **total** | {p} | {} MB | {} | {} MB | {} | {secs9:.2} | {} MB ({}) | {} MB ({}) | {secs19:.2} | {} MB ({}) |",
        mb(a.wdl_bytes),
        bits(a.wdl_bytes, p),
        mb(a.distance_bytes),
        bits(a.distance_bytes, p),
        mb(b.wdl_bytes),
        bits(b.wdl_bytes, p),
        mb(b.distance_bytes),
        bits(b.distance_bytes, p),
        mb(frame),
        bits(frame, p),
    );
    println!(
        "\nboth files, level 9: {} MB; level 19: {} MB",
        mb(a.wdl_bytes + a.distance_bytes),
        mb(b.wdl_bytes + b.distance_bytes)
    );
}

criterion_group!(benches, bench);

fn main() {
    if let Some(dir) = std::env::var_os("MILLBASE_TABLE_DIR") {
        sizes(Path::new(&dir));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
