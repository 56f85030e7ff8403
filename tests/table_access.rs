//! How tables are read: positioned reads by default, memory maps on request. Both give the
//! same answers, and a file truncated while a `Tablebase` has it open gives errors naming it
//! (or correct answers from blocks read before), never a crash.

mod common;
#[path = "common/sample.rs"]
mod sample;

use millbase::engine::matches::Rng;
use millbase::format::TableAccess;
use millbase::{Position, ProbeError, Tablebase, Value, Variant};
use std::fs::OpenOptions;

fn tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::generate(dir.path(), &[], &["4-4"]);
    dir
}

fn positions(n: usize) -> Vec<Position> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    while out.len() < n {
        if let Some(p) = sample::random_position(&mut rng, &[(4, 4)]) {
            out.push(p);
        }
    }
    out
}

#[test]
fn memory_maps_and_positioned_reads_agree() {
    let dir = tables();
    let v = Variant::standard();
    let read = Tablebase::open(dir.path(), v).unwrap();
    // SAFETY: nothing modifies the files of this temporary directory.
    let mapped = unsafe { Tablebase::open(dir.path(), v).unwrap().with_memory_map() };
    for pos in positions(5000) {
        assert_eq!(read.value(&pos).unwrap(), mapped.value(&pos).unwrap());
        assert_eq!(
            read.move_values(&pos).unwrap(),
            mapped.move_values(&pos).unwrap()
        );
    }
    assert_eq!(
        millbase::format::TableSet::new(dir.path(), v).access(),
        TableAccess::Read
    );
}

#[test]
fn a_table_truncated_while_open_is_an_error_naming_it() {
    let dir = tables();
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap().with_cache_bytes(0);
    let positions = positions(3000);
    let before: Vec<Value> = positions.iter().map(|p| tb.value(p).unwrap()).collect();
    let victim = dir.path().join("4-4-0-0.mbd");
    let len = std::fs::metadata(&victim).unwrap().len();
    OpenOptions::new()
        .write(true)
        .open(&victim)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    let (mut same, mut errors) = (0, 0);
    for (pos, want) in positions.iter().zip(&before) {
        match tb.value(pos) {
            Ok(got) => {
                assert_eq!(got, *want);
                same += 1;
            }
            Err(e @ ProbeError::Table(_)) => {
                let text = e.to_string();
                assert!(text.contains("4-4-0-0.mbd"), "{text}");
                errors += 1;
            }
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    // Blocks in the first half still read; those past the cut are reported.
    assert!(same > 0 && errors > 0, "{same} answers, {errors} errors");
}
