//! The directory-wide work of `millbase::tables` used as a library, as the program uses it:
//! statistics, verification (with the blame on the damaged file) and compaction (resumable)
//! of the tables of Six Men's Morris 3-3 and 3-4.

use millbase::format::{CompactReport, WriteOptions, wdl_path};
use millbase::sectors::{Sector, SectorIndex};
use millbase::tables::{
    CompactOptions, Compacted, Compaction, Finding, TableDir, Verification, VerificationOptions,
    stats,
};
use millbase::{GenerateOptions, Variant, generate};

fn six() -> Variant {
    Variant::by_name("six").unwrap()
}

fn sectors(listing: &TableDir) -> Vec<Sector> {
    listing.sectors().collect()
}

#[test]
fn statistics_verification_and_compaction_of_a_directory() {
    let v = six();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    generate(&v, d, &[Sector::moving(3, 4)], &GenerateOptions::default()).unwrap();
    let listing = TableDir::scan(d).unwrap();
    assert_eq!(listing.dir(), d);
    assert!(!listing.wdl_only() && listing.other_variant(&v).is_none());
    let all = sectors(&listing);
    assert_eq!(all.len(), 3, "3-3, 3-4 and 4-3: {all:?}");

    // Statistics: every used slot counted once, with both files' sizes.
    let found = stats(&v, &listing, &all).unwrap();
    assert!(!found.rule.is_active());
    for row in &found.sectors {
        let st = row.stats;
        assert!(st.positions > 0 && row.distances);
        assert_eq!(st.positions, st.wins + st.losses + st.draws);
        assert!(st.positions <= SectorIndex::new(&v, row.sector).slots());
        assert!(row.wdl_bits_per_position.unwrap() > 0.0);
        assert!(row.distance_bits_per_position.unwrap() > 0.0);
    }

    // Verification: every value agrees.
    let options = VerificationOptions {
        cache_bytes: 1 << 20,
        max_mismatches: 5,
    };
    let mut verification = Verification::new(&v, listing.clone(), options);
    for &s in &all {
        assert!(verification.sector(s, &|_| {}).is_empty(), "{s}");
    }
    let report = verification.report();
    let positions: u64 = found.sectors.iter().map(|r| r.stats.positions).sum();
    assert!(report.is_ok() && report.sectors == 3);
    assert_eq!(report.positions, positions);

    // Compaction into another directory, then again: kept.
    let out = tempfile::tempdir().unwrap();
    let options = CompactOptions {
        write: WriteOptions::default(),
        cache_bytes: 1 << 20,
    };
    let compaction = Compaction::new(&v, d, out.path(), &all, &options).unwrap();
    let mut written: Vec<CompactReport> = Vec::new();
    for &s in &all {
        match compaction.sector(s).unwrap() {
            Compacted::Written(r) => written.push(r),
            Compacted::Kept => panic!("{s} kept in an empty directory"),
        }
    }
    assert!(
        written
            .iter()
            .all(|r| r.positions_after <= r.positions_before)
    );
    let again = Compaction::new(&v, d, out.path(), &all, &options).unwrap();
    for &s in &all {
        assert!(matches!(again.sector(s).unwrap(), Compacted::Kept), "{s}");
    }

    // A damaged WDL file: reported once, naming it; the sectors reading it are not
    // verifiable.
    let s33 = Sector::moving(3, 3);
    let w = wdl_path(d, s33);
    let mut bytes = std::fs::read(&w).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&w, &bytes).unwrap();
    let mut verification = Verification::new(&v, TableDir::scan(d).unwrap(), options_of());
    let mut bad = Vec::new();
    for &s in &all {
        for f in verification.sector(s, &|_| {}) {
            match f {
                Finding::BadFile { path, error } => bad.push((path, error.kind_word())),
                Finding::Unverifiable { successor_file, .. } => assert_eq!(successor_file, w),
                Finding::Disagree { sector, .. } => panic!("{sector} disagrees"),
            }
        }
    }
    assert_eq!(bad, vec![(w.clone(), "damaged")]);
    let report = verification.report();
    assert!(!report.is_ok());
    assert_eq!(report.bad_files, vec![(w, "damaged")]);
    assert!(!report.unverifiable.is_empty());
}

fn options_of() -> VerificationOptions {
    VerificationOptions {
        cache_bytes: 0,
        max_mismatches: 5,
    }
}
