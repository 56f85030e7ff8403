//! `generate --max-memory`: a component that needs more keeps its solver cells in a scratch
//! file and writes the same tables.

mod common;

use common::millbase as run;
use std::path::Path;

/// The names and contents of the files in `dir`, sorted by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn spilled_cells_give_byte_identical_tables_and_leave_nothing_behind() {
    // In Lasker Morris stones move while others are in hand, so its placing components
    // (3-4-1-0 + 4-3-0-1 here) take the cell-based solver too.
    for (variant, sector) in [("std", "4-5"), ("lasker", "3-3-1-1")] {
        let plain = tempfile::tempdir().unwrap();
        let spilled = tempfile::tempdir().unwrap();
        let (p, s) = (
            plain.path().to_str().unwrap(),
            spilled.path().to_str().unwrap(),
        );
        let args = ["generate", "--variant", variant, "--n-move-rule", "10"];
        let (code, out, err) = run(&[&args[..], &["--dir", p, sector]].concat());
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("scratch file"), "{out}");
        let (code, out, err) =
            run(&[&args[..], &["--max-memory", "1", "--dir", s, sector]].concat());
        assert_eq!(code, 0, "{err}");
        // Every component with internal moves spilled (the smallest need more than 1 MiB).
        assert!(
            out.contains("cells in a scratch file (--max-memory)"),
            "{out}"
        );
        let (a, b) = (files(plain.path()), files(spilled.path()));
        assert_eq!(
            a.iter().map(|f| &f.0).collect::<Vec<_>>(),
            b.iter().map(|f| &f.0).collect::<Vec<_>>(),
            "the same files, and no scratch file left"
        );
        assert!(a.len() >= 6, "{variant} {sector}: {} files", a.len());
        for ((name, x), (_, y)) in a.iter().zip(&b) {
            assert!(x == y, "{variant}: {name} differs");
        }
    }
}

#[test]
fn a_memory_limit_of_zero_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, _, err) = run(&["generate", "--max-memory", "0", "--dir", d, "3-3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--max-memory"), "{err}");
}
