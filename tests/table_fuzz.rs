//! Fuzzing the table reader (a bounded number of proptest cases, run by CI): arbitrary bytes,
//! random mutations of a valid table, and mutations whose checksums are recomputed so that
//! the reader trusts the damaged header, block table or blocks and goes all the way in.
//! Every reader entry point must return (no panic, no hang) and no single allocation may be
//! larger than the sector's values need: a hostile header never makes the reader allocate
//! what the file does not hold.

use millbase::format::{
    FileKind, HEADER_LEN, distance_path, sector_is_complete, sector_status, table_path, wdl_path,
};
use millbase::format::{TableSet, WriteOptions, write_sector};
use millbase::sectors::Component;
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{NMoveRule, Sector, Variant};
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use xxhash_rust::xxh3::xxh3_64;

/// The system allocator, recording the largest single allocation.
struct Largest;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Largest = Largest;

/// No allocation made while reading a fuzzed 3-3 table of Three Men's Morris (a few hundred
/// slots) may come near this: a reader trusting a hostile length would exceed it.
const ALLOCATION_BOUND: usize = 4 << 20;

fn three() -> Variant {
    Variant::by_name("three").unwrap()
}

const S33: Sector = Sector::moving(3, 3);

/// The two files of Three Men's Morris 3-3, written with 16-slot blocks (many blocks).
fn fixture() -> &'static (Vec<u8>, Vec<u8>) {
    static FILES: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    FILES.get_or_init(|| {
        let v = three();
        let c = Component::of(&v, S33);
        let solved =
            solve_component(&v, &c, &SolvedValues::new(), &SolveOptions::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let options = WriteOptions {
            block_slots: 16,
            ..WriteOptions::default()
        };
        write_sector(dir.path(), &v, S33, &solved[0].values, &options).unwrap();
        (
            std::fs::read(wdl_path(dir.path(), S33)).unwrap(),
            std::fs::read(distance_path(dir.path(), S33)).unwrap(),
        )
    })
}

/// Recompute every checksum of a (mutated) file where its own fields say they are: the
/// header checksum, the block table checksum, each block's checksum and the trailer.
fn reseal(b: &mut [u8]) {
    let u32_at = |b: &[u8], o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
    if b.len() < HEADER_LEN + 8 {
        return;
    }
    let blocks = u32_at(b, 76) as usize;
    let table_end = HEADER_LEN.saturating_add(blocks.saturating_mul(20));
    if table_end <= b.len() {
        for i in 0..blocks {
            let e = HEADER_LEN + 20 * i;
            let (off, len) = (u64_at(b, e) as usize, u32_at(b, e + 8) as usize);
            if off.checked_add(len).is_some_and(|end| end <= b.len()) {
                let sum = xxh3_64(&b[off..off + len]);
                b[e + 12..e + 20].copy_from_slice(&sum.to_le_bytes());
            }
        }
        let sum = xxh3_64(&b[HEADER_LEN..table_end]);
        b[112..120].copy_from_slice(&sum.to_le_bytes());
    }
    let sum = xxh3_64(&b[..HEADER_LEN - 8]);
    b[HEADER_LEN - 8..HEADER_LEN].copy_from_slice(&sum.to_le_bytes());
    let n = b.len() - 8;
    let sum = xxh3_64(&b[..n]);
    b[n..].copy_from_slice(&sum.to_le_bytes());
}

/// Put `bytes` in place of one file of 3-3 and call every reader entry point; all must
/// return, and no allocation may exceed [`ALLOCATION_BOUND`].
fn read_everything(kind: FileKind, bytes: &[u8], probes: &[u64]) {
    let (w, d) = fixture();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(wdl_path(p, S33), w).unwrap();
    std::fs::write(distance_path(p, S33), d).unwrap();
    std::fs::write(table_path(p, S33, kind), bytes).unwrap();
    LARGEST.store(0, Ordering::Relaxed);
    exercise(p);
    let largest = LARGEST.load(Ordering::Relaxed);
    assert!(
        largest < ALLOCATION_BOUND,
        "an allocation of {largest} bytes"
    );
    let set = TableSet::new(p, three()).with_cache_bytes(1 << 16);
    let slots = set.index(S33).unwrap().slots();
    for &slot in probes {
        let _ = set.value(S33, slot % slots);
        let _ = set.wdl(S33, slot % slots);
    }
}

fn exercise(p: &Path) {
    let set = TableSet::new(p, three()).with_cache_bytes(1 << 16);
    let _ = set.wdl(S33, 0);
    let _ = set.value(S33, 1);
    let _ = set.read_values(S33);
    let _ = set.read_wdl_values(S33);
    let _ = set.wdl_counts(S33);
    let _ = set.check_sector(S33);
    let _ = set.check_file(&wdl_path(p, S33));
    let _ = set.check_file(&distance_path(p, S33));
    let _ = set.header(S33, FileKind::Distance);
    let _ = sector_is_complete(p, &three(), S33);
    let _ = sector_status(p, &three(), NMoveRule::NONE, S33);
}

fn kind() -> impl Strategy<Value = FileKind> {
    prop_oneof![Just(FileKind::Wdl), Just(FileKind::Distance)]
}

/// Offsets of header fields that set sizes: symbol width, slot count, block size, block
/// count, largest distance, block table offset.
const SIZE_FIELDS: [(usize, usize); 6] = [(17, 1), (56, 8), (72, 4), (76, 4), (92, 2), (96, 8)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(
        kind in kind(),
        bytes in proptest::collection::vec(any::<u8>(), 0..2048),
        with_magic in any::<bool>(),
    ) {
        let mut bytes = bytes;
        if with_magic && bytes.len() >= 12 {
            bytes[..8].copy_from_slice(b"MILLBASE");
            bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
        }
        read_everything(kind, &bytes, &[0, 7, 100]);
    }

    #[test]
    fn mutated_tables(
        kind in kind(),
        edits in proptest::collection::vec((any::<u64>(), any::<u8>()), 1..8),
        cut in proptest::option::of(any::<u64>()),
        sealed in any::<bool>(),
        probes in proptest::collection::vec(any::<u64>(), 8),
    ) {
        let (w, d) = fixture();
        let mut bytes = if kind == FileKind::Wdl { w.clone() } else { d.clone() };
        for (at, value) in edits {
            let i = (at % bytes.len() as u64) as usize;
            bytes[i] = value;
        }
        if let Some(cut) = cut {
            bytes.truncate((cut % bytes.len() as u64) as usize);
        }
        if sealed {
            reseal(&mut bytes);
        }
        read_everything(kind, &bytes, &probes);
    }

    #[test]
    fn hostile_size_fields_with_valid_checksums(
        kind in kind(),
        field in 0..SIZE_FIELDS.len(),
        value in prop_oneof![any::<u64>(), 0u64..70_000, Just(u32::MAX as u64), Just(1 << 24)],
        probes in proptest::collection::vec(any::<u64>(), 8),
    ) {
        let (w, d) = fixture();
        let mut bytes = if kind == FileKind::Wdl { w.clone() } else { d.clone() };
        let (at, len) = SIZE_FIELDS[field];
        bytes[at..at + len].copy_from_slice(&value.to_le_bytes()[..len]);
        reseal(&mut bytes);
        read_everything(kind, &bytes, &probes);
    }
}

#[test]
fn the_unmutated_fixture_reads_and_reseal_keeps_it_valid() {
    let (w, d) = fixture();
    let (mut w2, mut d2) = (w.clone(), d.clone());
    reseal(&mut w2);
    reseal(&mut d2);
    assert_eq!((&w2, &d2), (w, d));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(wdl_path(dir.path(), S33), w).unwrap();
    std::fs::write(distance_path(dir.path(), S33), d).unwrap();
    assert!(sector_is_complete(dir.path(), &three(), S33));
    let counts = TableSet::new(dir.path(), three()).wdl_counts(S33).unwrap();
    assert_eq!(counts.positions, 228);
}

#[test]
fn a_huge_sparse_file_is_refused_from_its_metadata() {
    let (w, d) = fixture();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(wdl_path(p, S33), w).unwrap();
    std::fs::write(distance_path(p, S33), d).unwrap();
    // The valid file, followed by a terabyte of holes.
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(distance_path(p, S33))
        .unwrap();
    f.set_len(1 << 40).unwrap();
    drop(f);
    let start = std::time::Instant::now();
    LARGEST.store(0, Ordering::Relaxed);
    let e = TableSet::new(p, three()).value(S33, 1).unwrap_err();
    assert!(e.to_string().contains("more than the"), "{e}");
    assert!(e.to_string().contains("3-3-0-0.mbd"), "{e}");
    assert!(sector_status(p, &three(), NMoveRule::NONE, S33).is_err());
    assert!(LARGEST.load(Ordering::Relaxed) < ALLOCATION_BOUND);
    assert!(
        start.elapsed().as_secs() < 5,
        "nothing of the holes was read"
    );
}
