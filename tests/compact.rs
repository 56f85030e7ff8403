//! `millbase compact`: every reachable position keeps its value, exactly the positions an
//! independent statement of the criterion calls unreachable become "don't care", the result
//! equals what `generate --skip-unreachable` writes, verifies, and a rerun resumes.

mod common;

use common::millbase;
use millbase::format::TableSet;
use millbase::format::{UNUSED, read_table, wdl_path};
use millbase::rules::Bits;
use millbase::sectors::SectorIndex;
use millbase::{NMoveRule, Sector, Variant};
use std::fs;
use std::path::Path;

/// Largest number of pairwise disjoint mills among the mills `stones` forms (brute force).
fn disjoint_mills(mills: &[Bits], stones: Bits) -> u32 {
    let formed: Vec<Bits> = mills.iter().copied().filter(|&m| m & stones == m).collect();
    (0u32..1 << formed.len())
        .filter(|subset| {
            let mut used: Bits = 0;
            formed.iter().enumerate().all(|(i, &m)| {
                if subset & (1 << i) == 0 {
                    return true;
                }
                let free = used & m == 0;
                used |= m;
                free
            })
        })
        .map(u32::count_ones)
        .max()
        .unwrap_or(0)
}

/// The documented criterion (docs/FORMAT.md), written here from its statement: a side with
/// a mill while the opponent has lost no stone; and, while both sides hold stones in hand,
/// a side with more disjoint mills than stones the opponent has lost.
fn unreachable(v: &Variant, s: Sector, us: Bits, them: Bits) -> bool {
    let mills = v.board().mills();
    let lost_them = (v.stones - s.b - s.bf) as u32;
    let lost_us = (v.stones - s.w - s.wf) as u32;
    let placing = s.wf > 0 && s.bf > 0 && !v.move_while_placing;
    let bad = |stones: Bits, lost_other: u32| {
        if placing {
            disjoint_mills(mills, stones) > lost_other
        } else {
            lost_other == 0 && disjoint_mills(mills, stones) > 0
        }
    };
    bad(us, lost_them) || bad(them, lost_us)
}

/// Compare every slot of every sector of `full` with `compact`: the same value, except at
/// the positions [`unreachable`] names, which are unused in `compact`. Returns how many were.
fn compare_dirs(v: &Variant, full: &Path, compact: &Path, rule: NMoveRule) -> u64 {
    let tables = TableSet::new(compact, *v)
        .with_rule(rule)
        .with_cache_bytes(0);
    let mut masked = 0;
    let mut sectors = 0;
    for entry in fs::read_dir(full).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".mbw") else {
            continue;
        };
        let sector: Sector = stem.parse().unwrap();
        sectors += 1;
        let before = read_table(full, v, sector).unwrap();
        let after = tables.read_values(sector).unwrap();
        assert!(tables.unreachable_dont_care(sector).unwrap(), "{sector}");
        let index = SectorIndex::new(v, sector);
        for (slot, (&b, &a)) in before.iter().zip(&after).enumerate() {
            match index.position(slot as u64) {
                None => assert_eq!((b, a), (UNUSED, UNUSED), "{sector} slot {slot}"),
                Some((us, them)) if unreachable(v, sector, us, them) => {
                    assert_ne!(b, UNUSED, "{sector} slot {slot}");
                    assert_eq!(a, UNUSED, "{sector} slot {slot}: unreachable, yet a value");
                    masked += 1;
                }
                Some(_) => assert_eq!(a, b, "{sector} slot {slot}: value changed"),
            }
        }
    }
    assert!(sectors > 50, "only {sectors} sectors compared");
    masked
}

fn run_ok(args: &[&str]) -> String {
    let (code, out, err) = millbase(args);
    assert_eq!(code, 0, "millbase {args:?}: {err}");
    out
}

/// Files of `a` and `b` are the same set, byte for byte.
fn assert_same_files(a: &Path, b: &Path) {
    let mut names: Vec<_> = fs::read_dir(a)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    let mut other: Vec<_> = fs::read_dir(b)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    other.sort();
    assert_eq!(names, other);
    for n in names {
        let (x, y) = (fs::read(a.join(&n)).unwrap(), fs::read(b.join(&n)).unwrap());
        assert!(x == y, "{} differs", n.to_string_lossy());
    }
}

/// Six Men's Morris, whole game, without the rule and under N = 10.
#[test]
fn compaction_keeps_every_reachable_value_and_equals_generate_skip_unreachable() {
    let v = Variant::by_name("six").unwrap();
    for n in ["0", "10"] {
        let tmp = tempfile::tempdir().unwrap();
        let (full, compact, skipped) = (
            tmp.path().join("full"),
            tmp.path().join("compact"),
            tmp.path().join("skipped"),
        );
        let path = |p: &Path| p.to_str().unwrap().to_string();
        let common = ["--variant", "six", "--quiet"];
        let generate = |dir: &Path, extra: &[&str]| {
            let d = path(dir);
            let mut args = vec!["generate", "--all", "--n-move-rule", n, "--dir", &d];
            args.extend_from_slice(&common);
            args.extend_from_slice(extra);
            run_ok(&args);
        };
        generate(&full, &[]);
        generate(&skipped, &["--skip-unreachable"]);
        let (f, c) = (path(&full), path(&compact));
        // In the packed layout (the generator's) the files are those of generate
        // --skip-unreachable; `auto` may choose one symbol per byte for some sectors.
        let out = run_ok(&[
            "compact",
            "--variant",
            "six",
            "--quiet",
            "--wdl-layout",
            "packed",
            "--dir",
            &f,
            &c,
        ]);
        assert!(out.contains("compacted 77 sector(s) (0 kept)"), "{out}");

        let rule = NMoveRule::new(n.parse().unwrap()).unwrap();
        let masked = compare_dirs(&v, &full, &compact, rule);
        assert!(masked > 100_000, "{masked} positions masked");
        assert!(out.contains(&format!(" {masked} of ")), "{out}");
        assert_same_files(&compact, &skipped);

        let out = run_ok(&["verify", "--variant", "six", "--quiet", "--dir", &c]);
        assert!(out.starts_with("ok: 77 sectors"), "{out}");

        // A rerun (layout auto: any layout will do) keeps everything, and removes what a
        // killed writer left behind.
        let stale = compact.join("3-3-2-2.mbw.4242-7.tmp");
        fs::write(&stale, b"partial").unwrap();
        let before = fs::read(wdl_path(&compact, "3-3-2-2".parse().unwrap())).unwrap();
        let out = run_ok(&["compact", "--variant", "six", "--dir", &f, &c]);
        assert!(
            out.contains("all 77 sector(s) already compacted, kept"),
            "{out}"
        );
        let after = fs::read(wdl_path(&compact, "3-3-2-2".parse().unwrap())).unwrap();
        assert_eq!(before, after);
        assert!(!stale.exists(), "stale temporary file left");
        let names: Vec<String> = fs::read_dir(&compact)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| !n.ends_with(".mbw") && !n.ends_with(".mbd"))
            .collect();
        assert!(names.is_empty(), "left in OUT: {names:?}");
    }
}

#[test]
fn bad_input_exits_2_naming_the_problem() {
    let tmp = tempfile::tempdir().unwrap();
    let full = tmp.path().join("full");
    let d = full.to_str().unwrap();
    run_ok(&["generate", "--variant", "six", "--quiet", "--dir", d, "4-4"]);

    // The output must not be the input.
    let (code, _, err) = millbase(&["compact", "--variant", "six", "--dir", d, d]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("must differ from --dir"), "{err}");

    // An output that is a file, not a directory: the same message as `export`'s.
    let file = tmp.path().join("a-file");
    fs::write(&file, b"not a directory").unwrap();
    let f = file.to_str().unwrap();
    for command in ["compact", "export"] {
        let mut args = vec![command, "--dir", d, f];
        if command == "export" {
            args.splice(1..1, ["--format", "malom"]);
        } else {
            args.splice(1..1, ["--variant", "six"]);
        }
        let (code, _, err) = millbase(&args);
        assert_eq!(code, 2, "{command}: {err}");
        assert_eq!(
            err.trim_end(),
            format!("millbase: error: {f}: not a directory (OUT names the output directory)"),
            "{command}"
        );
    }
    assert_eq!(fs::read(&file).unwrap(), b"not a directory");

    // A sector that is not there.
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    let (code, _, err) = millbase(&["compact", "--variant", "six", "--dir", d, o, "5-5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no tables of sector 5-5-0-0"), "{err}");

    // A WDL-only directory cannot be compacted.
    let wdl_only = tmp.path().join("wdl-only");
    fs::create_dir(&wdl_only).unwrap();
    let name = "4-4-0-0.mbw";
    fs::copy(full.join(name), wdl_only.join(name)).unwrap();
    let w = wdl_only.to_str().unwrap();
    let (code, _, err) = millbase(&["compact", "--variant", "six", "--dir", w, o]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds WDL files only"), "{err}");

    // A damaged source block: exit 2 naming the file, and nothing written for it.
    let victim = wdl_path(&full, "4-4-0-0".parse().unwrap());
    let mut bytes = fs::read(&victim).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x10;
    fs::write(&victim, bytes).unwrap();
    let (code, _, err) = millbase(&["compact", "--variant", "six", "--dir", d, o]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(victim.to_str().unwrap()), "{err}");
    assert!(!wdl_path(&out, "4-4-0-0".parse().unwrap()).exists());

    // A bad block size is a usage error.
    let (code, _, err) = millbase(&[
        "compact",
        "--variant",
        "six",
        "--dir",
        d,
        "--block-size",
        "6",
        o,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--block-size 6"), "{err}");
    // So are an unknown WDL layout and a level out of range.
    for (option, value, says) in [
        ("--wdl-layout", "nibbles", "expected packed, bytes or auto"),
        ("--distance-level", "23", "--distance-level"),
    ] {
        let (code, _, err) =
            millbase(&["compact", "--variant", "six", "--dir", d, option, value, o]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
