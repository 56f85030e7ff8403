//! Table format v2: round trips over solved sectors and synthetic values, the specific errors
//! for files of another variant, version or kind, damaged and truncated files (never a panic,
//! never a wrong answer), and probing from many threads.

use millbase::format::UNUSED;
use millbase::format::{Corruption, TableSet, WdlLayout, WriteOptions, write_sector};
use millbase::format::{FileKind, HEADER_LEN, distance_path, sector_is_complete, wdl_path};
use millbase::sectors::{Component, SectorIndex};
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{Sector, TableError, Wdl};
use millbase::{Value, Variant};
use proptest::prelude::*;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// 3-3, 3-4 and 4-3 of the standard game, solved once per test binary.
fn solved() -> &'static SolvedValues {
    static SOLVED: OnceLock<SolvedValues> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let v = Variant::standard();
        let mut solved = SolvedValues::new();
        for s in [Sector::moving(3, 3), Sector::moving(3, 4)] {
            for out in solve_component(&v, &Component::of(&v, s), &solved, &SolveOptions::default())
                .unwrap()
            {
                solved.insert(out.sector, Arc::new(out.values));
            }
        }
        assert_eq!(Component::of(&v, Sector::moving(3, 4)).sectors().len(), 2);
        solved
    })
}

fn std() -> Variant {
    Variant::standard()
}

const S33: Sector = Sector::moving(3, 3);

fn write_all(dir: &Path, options: &WriteOptions) {
    for (&s, values) in solved() {
        let r = write_sector(dir, &std(), s, values, options).unwrap();
        let used = values.iter().filter(|&&c| c != UNUSED).count() as u64;
        assert_eq!(r.positions, used);
        assert_eq!(
            r.wdl_bytes,
            std::fs::metadata(wdl_path(dir, s)).unwrap().len()
        );
        assert!(r.wdl_bits_per_position() < 2.0, "{r:?}");
    }
}

/// Every value read back, whole and slot by slot.
fn assert_reads_back(set: &TableSet, sector: Sector, values: &[u16]) {
    assert_eq!(set.read_values(sector).unwrap(), values, "{sector}");
    for (slot, &code) in values.iter().enumerate() {
        let value = set.value(sector, slot as u64).unwrap();
        assert_eq!(value, Value::decode(code), "{sector} slot {slot}");
        assert_eq!(set.wdl(sector, slot as u64).unwrap(), value.map(Wdl::of));
    }
}

#[test]
fn solved_sectors_round_trip() {
    for options in [
        WriteOptions::default(),
        WriteOptions {
            level: 1,
            block_slots: 1000,
            ..WriteOptions::default()
        },
        WriteOptions {
            wdl_layout: WdlLayout::Bytes,
            block_slots: 1000,
            ..WriteOptions::default()
        },
        WriteOptions {
            level: 19,
            distance_level: 3,
            wdl_layout: WdlLayout::Auto,
            ..WriteOptions::default()
        },
    ] {
        let dir = tempfile::tempdir().unwrap();
        write_all(dir.path(), &options);
        let set = TableSet::new(dir.path(), std()).with_cache_bytes(1 << 20);
        for (&s, values) in solved() {
            assert_reads_back(&set, s, values);
            assert!(sector_is_complete(dir.path(), &std(), s));
            let check = set.check_sector(s).unwrap();
            assert!(check.distance_bytes.is_some());
            let wdl = set.header(s, FileKind::Wdl).unwrap();
            assert_eq!(wdl.block_slots, options.block_slots);
            assert_eq!(wdl.level, options.level);
            if options.wdl_layout != WdlLayout::Auto {
                let bits = (options.wdl_layout == WdlLayout::Bytes) as u8 * 6 + 2;
                assert_eq!(wdl.symbol_bits, bits, "{s}");
            }
            let distance = set.header(s, FileKind::Distance).unwrap();
            assert_eq!(distance.level, options.distance_level);
        }
        assert_eq!(set.max_plies(S33).unwrap(), 26);
        assert_eq!(set.header(S33, FileKind::Distance).unwrap().symbol_bits, 8);
    }
}

/// Synthetic values for every used slot of 3-3: wins and losses up to `max`, some draws.
fn synthetic(max: u16) -> Vec<u16> {
    let index = SectorIndex::new(&std(), S33);
    (0..index.slots())
        .map(|slot| match index.position(slot) {
            None => UNUSED,
            Some(_) => {
                let n = (slot * 7919 % (max as u64 + 1)) as u16;
                match slot % 5 {
                    0 => Value::Draw,
                    1 | 2 => Value::Win(n),
                    _ => Value::Loss(n),
                }
                .encode()
            }
        })
        .collect()
}

#[test]
fn distances_beyond_255_use_two_bytes() {
    for (max, bits) in [(255, 8), (256, 16), (0x3FFE, 16)] {
        let dir = tempfile::tempdir().unwrap();
        let values = synthetic(max);
        let r = write_sector(dir.path(), &std(), S33, &values, &WriteOptions::default()).unwrap();
        assert_eq!(r.max_plies, max);
        let set = TableSet::new(dir.path(), std());
        let h = set.header(S33, FileKind::Distance).unwrap();
        assert_eq!((h.symbol_bits, h.max_plies), (bits, max));
        assert_reads_back(&set, S33, &values);
        set.check_sector(S33).unwrap();
    }
}

#[test]
fn writer_rejects_values_that_do_not_fit_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let good = synthetic(30);
    let unused = good.iter().position(|&c| c == UNUSED).unwrap();
    let used = good.iter().position(|&c| c != UNUSED).unwrap();
    let mut cases = vec![good[1..].to_vec()];
    for (slot, code) in [(unused, 0), (used, UNUSED), (used, 0x1234), (used, 0xBFFF)] {
        let mut v = good.clone();
        v[slot] = code;
        cases.push(v);
    }
    for values in cases {
        let r = write_sector(dir.path(), &std(), S33, &values, &WriteOptions::default());
        assert!(matches!(r, Err(TableError::InvalidInput(_))), "{r:?}");
    }
    let odd = WriteOptions {
        block_slots: 1001,
        ..WriteOptions::default()
    };
    assert!(write_sector(dir.path(), &std(), S33, &good, &odd).is_err());
    let r = write_sector(
        dir.path(),
        &std(),
        Sector::moving(10, 3),
        &good,
        &WriteOptions::default(),
    );
    assert!(matches!(r, Err(TableError::NoSuchSector { .. })), "{r:?}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

fn corrupt(r: Result<impl std::fmt::Debug, TableError>) -> (std::path::PathBuf, Corruption) {
    match r {
        Err(TableError::Corrupt { path, problem }) => (path, problem),
        other => panic!("expected a corrupt-file error, got {other:?}"),
    }
}

fn patched(dir: &Path, path: &Path, f: impl FnOnce(&mut Vec<u8>)) -> TableSet {
    let mut bytes = std::fs::read(path).unwrap();
    f(&mut bytes);
    std::fs::write(path, &bytes).unwrap();
    TableSet::new(dir, std())
}

/// A WDL file of symbol width 8 whose block 0 decompresses to a byte above 3 at slot 5
/// (rebuilt with valid checksums, docs/FORMAT.md): every read of that block reports the slot
/// and the file.
/// Change the first block of the WDL file `w` (blocks of 1,000 slots) with `change`, keeping
/// every checksum valid.
fn rewrite_first_wdl_block(w: &Path, bytes_per_block: usize, change: impl FnOnce(&mut [u8])) {
    use xxhash_rust::xxh3::xxh3_64;
    let file = std::fs::read(w).unwrap();
    let u32_at = |o: usize| u32::from_le_bytes(file[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(file[o..o + 8].try_into().unwrap());
    let blocks = u32_at(76) as usize;
    let mut data: Vec<Vec<u8>> = (0..blocks)
        .map(|b| {
            let (offset, len) = (u64_at(128 + 20 * b) as usize, u32_at(128 + 20 * b + 8));
            file[offset..offset + len as usize].to_vec()
        })
        .collect();
    let mut symbols = zstd::bulk::decompress(&data[0], bytes_per_block).unwrap();
    change(&mut symbols);
    data[0] = zstd::bulk::compress(&symbols, 1).unwrap();
    let mut table = Vec::new();
    let mut offset = (128 + 20 * blocks) as u64;
    for block in &data {
        table.extend_from_slice(&offset.to_le_bytes());
        table.extend_from_slice(&(block.len() as u32).to_le_bytes());
        table.extend_from_slice(&xxh3_64(block).to_le_bytes());
        offset += block.len() as u64;
    }
    let mut header = file[..128].to_vec();
    header[112..120].copy_from_slice(&xxh3_64(&table).to_le_bytes());
    let checksum = xxh3_64(&header[..120]);
    header[120..].copy_from_slice(&checksum.to_le_bytes());
    let mut rebuilt = [header, table, data.concat()].concat();
    rebuilt.extend_from_slice(&xxh3_64(&rebuilt).to_le_bytes());
    std::fs::write(w, &rebuilt).unwrap();
}

/// `millbase verify --quiet --dir DIR SECTOR`: exit code and standard error.
fn verify_cli(dir: &Path, sector: &str) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_millbase"))
        .args(["verify", "--quiet", "--dir"])
        .arg(dir)
        .arg(sector)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_wdl_symbol_byte_above_3_is_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let options = WriteOptions {
        wdl_layout: WdlLayout::Bytes,
        block_slots: 1000,
        ..WriteOptions::default()
    };
    write_sector(d, &std(), S33, &solved()[&S33], &options).unwrap();
    let w = wdl_path(d, S33);
    assert_eq!(std::fs::read(&w).unwrap()[17], 8);
    rewrite_first_wdl_block(&w, 1000, |symbols| symbols[5] = 7);

    let set = TableSet::new(d, std());
    let index = SectorIndex::new(&std(), S33);
    let used = (0..1000).find(|&s| index.position(s).is_some()).unwrap();
    let (path, p) = corrupt(set.wdl(S33, used));
    assert_eq!(path, w);
    assert_eq!(p, Corruption::BadSymbol { slot: 5, symbol: 7 });
    let e = set.value(S33, used).unwrap_err().to_string();
    assert!(e.contains("3-3-0-0.mbw") && e.contains("slot 5"), "{e}");
    assert!(set.read_values(S33).is_err());
    assert!(set.check_sector(S33).is_err());
    // The other blocks still read.
    assert_eq!(
        set.value(S33, 1500).unwrap(),
        Value::decode(solved()[&S33][1500])
    );
    // Every checksum holds, but decoding a block of one symbol per byte already finds it.
    assert!(set.check_checksums(S33).is_err());
    let (code, err) = verify_cli(d, "3-3");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("3-3-0-0.mbw") && err.contains("slot 5") && err.contains("1 bad file"),
        "{err}"
    );
}

/// A packed symbol 3 (a rule draw) in a table without an N-move rule passes every checksum
/// and block decoding; reading the values finds it, and `verify` blames the file.
#[test]
fn a_rule_draw_symbol_in_a_rule_free_table_is_found_by_verify() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let options = WriteOptions {
        wdl_layout: WdlLayout::Packed,
        block_slots: 1000,
        ..WriteOptions::default()
    };
    write_sector(d, &std(), S33, &solved()[&S33], &options).unwrap();
    let index = SectorIndex::new(&std(), S33);
    let used = (0..1000).find(|&s| index.position(s).is_some()).unwrap() as usize;
    rewrite_first_wdl_block(&wdl_path(d, S33), 250, |packed| {
        packed[used / 4] |= 3 << (2 * (used % 4))
    });
    let set = TableSet::new(d, std());
    assert!(set.check_checksums(S33).is_ok());
    assert!(set.check_sector(S33).is_err());
    let (code, err) = verify_cli(d, "3-3");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("3-3-0-0.mbw") && err.contains(&format!("slot {used}")),
        "{err}"
    );
}

#[test]
fn specific_errors_for_foreign_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_all(d, &WriteOptions::default());
    let w = wdl_path(d, S33);
    let original = std::fs::read(&w).unwrap();
    let restore = || std::fs::write(&w, &original).unwrap();

    // Another variant; the same name with other rules.
    let lasker = Variant::by_name("lasker").unwrap();
    let other = TableSet::new(d, lasker);
    let (path, p) = corrupt(other.wdl(S33, 0));
    assert_eq!(path, w);
    assert!(matches!(p, Corruption::OtherVariant { ref found, .. } if found == "std"));
    assert!(
        p.to_string().contains("variant 'std', expected 'lasker'"),
        "{p}"
    );
    let changed = Variant {
        fly_at: None,
        ..std()
    };
    let (_, p) = corrupt(TableSet::new(d, changed).wdl(S33, 0));
    assert!(matches!(p, Corruption::OtherRules { .. }), "{p:?}");

    let set = patched(d, &w, |b| b[0] = b'X');
    assert_eq!(corrupt(set.wdl(S33, 0)).1, Corruption::WrongMagic);
    restore();
    let set = patched(d, &w, |b| b[8] = 3);
    assert_eq!(corrupt(set.wdl(S33, 0)).1, Corruption::Version(3));
    let set = patched(d, &w, |b| b[8] = 1);
    let e = set.wdl(S33, 0).unwrap_err().to_string();
    assert!(e.contains("3-3-0-0.mbw") && e.contains("version 1"), "{e}");
    restore();
    let set = patched(d, &w, |b| b[70] ^= 1);
    assert_eq!(corrupt(set.wdl(S33, 0)).1, Corruption::HeaderChecksum);
    restore();

    // A WDL file where the distance file should be.
    std::fs::copy(&w, distance_path(d, S33)).unwrap();
    let (_, p) = corrupt(TableSet::new(d, std()).value(S33, 0));
    assert!(matches!(p, Corruption::BadHeader(_)), "{p:?}");

    // A distance file of another write of the same sector.
    let other_dir = tempfile::tempdir().unwrap();
    let fast = WriteOptions {
        distance_level: 1,
        ..WriteOptions::default()
    };
    write_sector(other_dir.path(), &std(), S33, &solved()[&S33], &fast).unwrap();
    std::fs::copy(distance_path(other_dir.path(), S33), distance_path(d, S33)).unwrap();
    let set = TableSet::new(d, std());
    assert!(set.wdl(S33, 0).is_ok());
    let (path, p) = corrupt(set.value(S33, 0));
    assert_eq!((path, p), (distance_path(d, S33), Corruption::NotCompanion));
    assert!(!sector_is_complete(d, &std(), S33));

    // Slots and sectors that do not exist.
    let slots = set.index(S33).unwrap().slots();
    assert!(matches!(
        set.wdl(S33, slots),
        Err(TableError::SlotOutOfRange { .. })
    ));
    assert!(matches!(
        set.wdl(Sector::moving(10, 10), 0),
        Err(TableError::NoSuchSector { .. })
    ));
}

#[test]
fn wdl_only_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_all(d, &WriteOptions::default());
    for &s in solved().keys() {
        std::fs::remove_file(distance_path(d, s)).unwrap();
    }
    let set = TableSet::new(d, std());
    let values = &solved()[&S33];
    for (slot, &code) in values.iter().enumerate() {
        assert_eq!(
            set.wdl(S33, slot as u64).unwrap(),
            Value::decode(code).map(Wdl::of)
        );
    }
    let used = values.iter().position(|&c| c != UNUSED).unwrap() as u64;
    let e = set.value(S33, used).unwrap_err();
    assert!(
        matches!(&e, TableError::Missing { path, kind: FileKind::Distance, .. }
            if *path == distance_path(d, S33)),
        "{e:?}"
    );
    assert!(e.to_string().contains("3-3-0-0.mbd"), "{e}");
    assert!(set.read_values(S33).is_err());
    let counts = set.wdl_counts(S33).unwrap();
    assert_eq!(
        (counts.positions, counts.wins, counts.losses, counts.draws),
        (169_626, 140_621, 28_736, 269)
    );
    assert_eq!(set.check_sector(S33).unwrap().distance_bytes, None);
    assert!(set.has_sector(S33) && !set.has_distances(S33));
    assert!(!sector_is_complete(d, &std(), S33));
    let missing = TableSet::new(d, std()).wdl(Sector::moving(5, 5), 0);
    assert!(matches!(missing, Err(TableError::Missing { .. })));
}

#[test]
fn many_threads_read_what_one_thread_reads() {
    let dir = tempfile::tempdir().unwrap();
    write_all(
        dir.path(),
        &WriteOptions {
            block_slots: 4096,
            ..WriteOptions::default()
        },
    );
    // A cache far smaller than the tables: blocks are evicted and reloaded all the time.
    let set = TableSet::new(dir.path(), std()).with_cache_bytes(64 << 10);
    let sectors: Vec<Sector> = solved().keys().copied().collect();
    std::thread::scope(|scope| {
        for t in 0..8u64 {
            let (set, sectors) = (&set, &sectors);
            scope.spawn(move || {
                let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ t;
                for _ in 0..30_000 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let s = sectors[(x % sectors.len() as u64) as usize];
                    let values = &solved()[&s];
                    let slot = (x >> 8) % values.len() as u64;
                    let expected = Value::decode(values[slot as usize]);
                    assert_eq!(set.value(s, slot).unwrap(), expected);
                    assert_eq!(set.wdl(s, slot).unwrap(), expected.map(Wdl::of));
                }
            });
        }
    });
    fn send_sync<T: Send + Sync>() {}
    send_sync::<TableSet>();
}

/// 3-3 written with small blocks (26 of them), and the bytes of both files.
fn damage_fixture() -> &'static (tempfile::TempDir, Vec<u8>, Vec<u8>) {
    static FIXTURE: OnceLock<(tempfile::TempDir, Vec<u8>, Vec<u8>)> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let options = WriteOptions {
            block_slots: 8192,
            ..WriteOptions::default()
        };
        write_sector(dir.path(), &std(), S33, &solved()[&S33], &options).unwrap();
        let w = std::fs::read(wdl_path(dir.path(), S33)).unwrap();
        let d = std::fs::read(distance_path(dir.path(), S33)).unwrap();
        (dir, w, d)
    })
}

/// Write 3-3 with one file replaced by `bytes`; every read must fail or give the true
/// values (fail if `unreadable`), every check must fail, and nothing may panic.
fn damaged_never_lies(kind: FileKind, bytes: &[u8], probes: &[u64], unreadable: bool) {
    let (_, w, d) = damage_fixture();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let (wb, db) = match kind {
        FileKind::Wdl => (bytes, &d[..]),
        FileKind::Distance => (&w[..], bytes),
    };
    std::fs::write(wdl_path(p, S33), wb).unwrap();
    std::fs::write(distance_path(p, S33), db).unwrap();
    let values = &solved()[&S33];
    let set = TableSet::new(p, std()).with_cache_bytes(1 << 20);
    for &slot in probes {
        let slot = slot % values.len() as u64;
        if let Ok(v) = set.value(S33, slot) {
            assert_eq!(v, Value::decode(values[slot as usize]), "slot {slot}");
        }
        if let Ok(v) = set.wdl(S33, slot) {
            assert_eq!(v, Value::decode(values[slot as usize]).map(Wdl::of));
        }
    }
    match set.read_values(S33) {
        Ok(read) => assert!(!unreadable && read == values[..]),
        Err(e) => assert!(matches!(e, TableError::Corrupt { .. }), "{e:?}"),
    }
    if unreadable {
        assert!(set.value(S33, probes[0] % values.len() as u64).is_err());
    }
    let _ = set.wdl_counts(S33);
    assert!(set.check_sector(S33).is_err());
    let path = match kind {
        FileKind::Wdl => wdl_path(p, S33),
        FileKind::Distance => distance_path(p, S33),
    };
    assert!(set.check_file(&path).is_err());
    assert!(!sector_is_complete(p, &std(), S33));
}

fn kind() -> impl Strategy<Value = FileKind> {
    prop_oneof![Just(FileKind::Wdl), Just(FileKind::Distance)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn flipped_bytes_are_detected(
        kind in kind(),
        near_start in any::<bool>(),
        at in any::<u64>(),
        mask in 1u8..,
        probes in proptest::collection::vec(any::<u64>(), 20),
    ) {
        let (_, w, d) = damage_fixture();
        let mut bytes = if kind == FileKind::Wdl { w.clone() } else { d.clone() };
        // Half the flips hit the header and block table, which are small.
        let range = if near_start { HEADER_LEN as u64 + 26 * 20 } else { bytes.len() as u64 };
        bytes[(at % range) as usize] ^= mask;
        damaged_never_lies(kind, &bytes, &probes, false);
    }

    #[test]
    fn truncated_files_are_detected(
        kind in kind(),
        at in any::<u64>(),
        probes in proptest::collection::vec(any::<u64>(), 5),
    ) {
        let (_, w, d) = damage_fixture();
        let bytes = if kind == FileKind::Wdl { w } else { d };
        let cut = &bytes[..(at % bytes.len() as u64) as usize];
        damaged_never_lies(kind, cut, &probes, true);
        let set = TableSet::new(damage_fixture().0.path(), std());
        prop_assert!(set.check_sector(S33).is_ok());
    }
}
