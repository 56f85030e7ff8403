//! `millbase compact --removal-dont-care`: WDL symbols lowered only where a removing move
//! reaches the value (checked against the full tables with a removal search written here),
//! every reader resolves them back to the exact values (with distances, from the WDL files
//! alone, through probes), `verify` passes, and the WDL files shrink.

mod common;

use common::millbase;
use millbase::format::TableSet;
use millbase::format::{UNUSED, read_table, wdl_path};
use millbase::movegen::{Convention, legal_moves, play};
use millbase::rules::Bits;
use millbase::sectors::SectorIndex;
use millbase::{Color, NMoveRule, Position, Sector, Tablebase, Value, Variant, Wdl};
use std::fs;
use std::path::Path;

fn run_ok(args: &[&str]) -> String {
    let (code, out, err) = millbase(args);
    assert_eq!(code, 0, "millbase {args:?}: {err}");
    out
}

/// The stored WDL symbols of a `.mbw` file and its symbol width, decoded from docs/FORMAT.md
/// alone (symbol width at 17, header fields at 72 and 76, 20-byte block entries from 128, one
/// zstd frame per block; width 2: four symbols to a byte, width 8: one per byte).
fn raw_symbols(path: &Path, slots: u64) -> (Vec<u8>, u8) {
    let bytes = fs::read(path).unwrap();
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    let (width, block_slots, blocks) = (bytes[17], u32_at(72) as u64, u32_at(76) as usize);
    let mut out = Vec::with_capacity(slots as usize);
    for b in 0..blocks {
        let entry = 128 + 20 * b;
        let (offset, len) = (u64_at(entry) as usize, u32_at(entry + 8) as usize);
        let k = block_slots.min(slots - b as u64 * block_slots) as usize;
        let compressed = &bytes[offset..offset + len];
        match width {
            2 => {
                let data = zstd::bulk::decompress(compressed, k.div_ceil(4)).unwrap();
                out.extend((0..k).map(|j| (data[j / 4] >> (2 * (j % 4))) & 3));
            }
            8 => {
                let data = zstd::bulk::decompress(compressed, k).unwrap();
                assert_eq!(data.len(), k);
                assert!(data.iter().all(|&s| s <= 3), "{}", path.display());
                out.extend(data);
            }
            _ => panic!("{}: WDL symbol width {width}", path.display()),
        }
    }
    (out, width)
}

/// The WDL symbol of a value under the rule `n` (docs/FORMAT.md "Symbols").
fn symbol(v: Value, n: u16) -> u8 {
    match v {
        Value::Draw => 0,
        Value::Win(d) if n == 0 || d <= n => 1,
        Value::Loss(d) if n == 0 || d <= n => 2,
        _ => 3,
    }
}

/// Win 1, draw 0 (symbols 0 and 3), loss −1.
fn rank(symbol: u8) -> i8 {
    match symbol {
        1 => 1,
        2 => -1,
        _ => 0,
    }
}

/// The best rank among the removing moves of the position, from the full tables.
fn best_removal(tb: &Tablebase, v: &Variant, s: Sector, us: Bits, them: Bits) -> Option<i8> {
    let pos = Position::new([us, them], [s.wf, s.bf], Color::White);
    legal_moves(v, &pos, Convention::Combined)
        .into_iter()
        .filter(|m| m.removes())
        .map(|m| match tb.wdl(&play(v, &pos, m)).unwrap() {
            Wdl::Win => -1,
            Wdl::Draw => 0,
            Wdl::Loss => 1,
        })
        .max()
}

fn wdl_bytes(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".mbw"))
        .map(|e| e.metadata().unwrap().len())
        .sum()
}

/// Six Men's Morris, whole game, without the rule and under N = 10; WDL symbols in the layout
/// `compact` chooses at the default level (`auto`) and one per byte at level 19.
#[test]
fn lowered_symbols_resolve_to_the_exact_values() {
    let v = Variant::by_name("six").unwrap();
    for n in [0u16, 10] {
        let tmp = tempfile::tempdir().unwrap();
        let (full, plain) = (tmp.path().join("full"), tmp.path().join("plain"));
        let path = |p: &Path| p.to_str().unwrap().to_string();
        let (f, p) = (path(&full), path(&plain));
        let ns = n.to_string();
        let six = ["--variant", "six", "--quiet"];
        let mut args = vec!["generate", "--all", "--n-move-rule", &ns, "--dir", &f];
        args.extend_from_slice(&six);
        run_ok(&args);
        run_ok(&["compact", "--variant", "six", "--quiet", "--dir", &f, &p]);
        for (layout, level) in [("auto", "9"), ("bytes", "19")] {
            let lowered = tmp.path().join(format!("lowered-{layout}"));
            let wdl_only = tmp.path().join(format!("wdl-only-{layout}"));
            let l = path(&lowered);
            let compact = [
                "compact",
                "--variant",
                "six",
                "--quiet",
                "--removal-dont-care",
                "--wdl-layout",
                layout,
                "--level",
                level,
                "--dir",
                &f,
                &l,
            ];
            let out = run_ok(&compact);
            assert!(out.contains("compacted 77 sector(s) (0 kept)"), "{out}");
            check_lowered(&v, n, &full, &plain, &lowered, &wdl_only, layout);
            // A rerun with the same options keeps the sectors.
            let out = run_ok(
                &compact[..3]
                    .iter()
                    .chain(&compact[4..])
                    .copied()
                    .collect::<Vec<_>>(),
            );
            assert!(out.contains("all 77 sector(s) already compacted"), "{out}");
            if layout == "auto" {
                recompact_from_lowered(&plain, &lowered, &compact, tmp.path());
            }
        }
    }
}

/// The files of `a` and `b` (same names, same bytes).
fn assert_same_files(a: &Path, b: &Path) {
    let names = |d: &Path| {
        let mut n: Vec<_> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        n.sort();
        n
    };
    assert_eq!(names(a), names(b), "{} and {}", a.display(), b.display());
    for name in names(a) {
        let (x, y) = (
            fs::read(a.join(&name)).unwrap(),
            fs::read(b.join(&name)).unwrap(),
        );
        assert!(
            x == y,
            "{:?} differs between {} and {}",
            name,
            a.display(),
            b.display()
        );
    }
}

/// Compacting the lowered directory again (its removal don't-care symbols resolved a whole
/// sector at a time, with and without resolved sectors kept between sectors) gives the same
/// files as compacting the full tables: plain ones, and with `compact`'s options (the
/// command that wrote `lowered` from the full tables) the lowered files themselves.
fn recompact_from_lowered(plain: &Path, lowered: &Path, compact: &[&str], tmp: &Path) {
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let l = path(lowered);
    let again = tmp.join("plain-from-lowered");
    let a = path(&again);
    let six = ["--variant", "six", "--quiet"];
    let mut args = vec!["compact", "--cache-mb", "0", "--dir", &l, &a];
    args.extend_from_slice(&six);
    run_ok(&args);
    assert_same_files(plain, &again);
    let relowered = tmp.join("lowered-from-lowered");
    let r = path(&relowered);
    let n = compact.len();
    let mut args = compact[..n - 3].to_vec();
    args.extend_from_slice(&["--dir", &l, &r]);
    run_ok(&args);
    assert_same_files(lowered, &relowered);
    fs::remove_dir_all(&again).unwrap();
    fs::remove_dir_all(&relowered).unwrap();
}

/// The checks of [`lowered_symbols_resolve_to_the_exact_values`] on one compacted directory:
/// symbols lowered only where a removal reaches the value, every reader resolving them, the
/// WDL files alone answering probes, `verify` passing.
fn check_lowered(
    v: &Variant,
    n: u16,
    full: &Path,
    plain: &Path,
    lowered: &Path,
    wdl_only: &Path,
    layout: &str,
) {
    let v = *v;
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let l = path(lowered);

    let rule = NMoveRule::new(n).unwrap();
    let full_tb = Tablebase::open(full, v).unwrap();
    let resolved = TableSet::new(lowered, v).with_rule(rule);
    let exact = TableSet::new(plain, v).with_rule(rule).with_cache_bytes(0);
    fs::create_dir(wdl_only).unwrap();
    let (mut lowered_slots, mut reached_slots, mut sectors) = (0u64, 0u64, 0);
    for entry in fs::read_dir(full).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".mbw") else {
            continue;
        };
        fs::copy(lowered.join(&name), wdl_only.join(&name)).unwrap();
        let sector: Sector = stem.parse().unwrap();
        sectors += 1;
        let index = SectorIndex::new(&v, sector);
        let truth = read_table(full, &v, sector).unwrap();
        let reachable = exact.read_values(sector).unwrap();
        // Every reader resolves to the exact values (UNUSED where unreachable).
        assert_eq!(resolved.read_values(sector).unwrap(), reachable, "{sector}");
        assert!(resolved.removal_dont_care_of(sector).unwrap(), "{sector}");
        let (raw, width) = raw_symbols(&wdl_path(lowered, sector), index.slots());
        if layout == "bytes" {
            assert_eq!(width, 8, "{sector}");
        }
        for (slot, &code) in reachable.iter().enumerate() {
            if code == UNUSED {
                continue;
            }
            let value = Value::decode(truth[slot]).unwrap();
            assert_eq!(code, truth[slot]);
            let t = symbol(value, n);
            let (us, them) = index.position(slot as u64).unwrap();
            // The per-slot reads resolve too.
            assert_eq!(resolved.value(sector, slot as u64).unwrap(), Some(value));
            let stored = raw[slot];
            let removal = best_removal(&full_tb, &v, sector, us, them);
            if removal == Some(rank(t)) && (t == 0 || t == 1) {
                reached_slots += 1;
            }
            if stored != t {
                lowered_slots += 1;
                assert!(
                    rank(stored) < rank(t) && (t == 0 || t == 1),
                    "{sector} slot {slot}: {stored} stored for {t}"
                );
                assert_eq!(
                    removal,
                    Some(rank(t)),
                    "{sector} slot {slot}: lowered, but no removal reaches {t}"
                );
            }
        }
    }
    assert_eq!(sectors, 77);
    assert!(
        lowered_slots > 10_000 && lowered_slots <= reached_slots,
        "N = {n}: {lowered_slots} lowered of {reached_slots} a removal reaches"
    );
    let (before, after) = (wdl_bytes(plain), wdl_bytes(lowered));
    // At the default level (where the packed layout wins) lowering makes the files
    // smaller; the byte layout is for high levels.
    if layout == "auto" {
        assert!(after < before, "N = {n}: WDL {before} -> {after} bytes");
    }

    // From the WDL files alone, every position's win/draw/loss through the probe API.
    let alone = Tablebase::open(wdl_only, v).unwrap();
    let mut probed = 0;
    for entry in fs::read_dir(wdl_only).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let sector: Sector = name.strip_suffix(".mbw").unwrap().parse().unwrap();
        let index = SectorIndex::new(&v, sector);
        let reachable = exact.read_values(sector).unwrap();
        for (slot, &code) in reachable.iter().enumerate().step_by(7) {
            let Some(value) = Value::decode(code) else {
                continue;
            };
            let (us, them) = index.position(slot as u64).unwrap();
            let pos = Position::new([us, them], [sector.wf, sector.bf], Color::White);
            let expect = match symbol(value, n) {
                1 => Wdl::Win,
                2 => Wdl::Loss,
                _ => Wdl::Draw,
            };
            assert_eq!(alone.wdl(&pos).unwrap(), expect, "{sector} slot {slot}");
            probed += 1;
        }
    }
    assert!(probed > 100_000, "{probed}");

    // verify re-derives every resolved value from its successors'.
    let out = run_ok(&["verify", "--variant", "six", "--quiet", "--dir", &l]);
    assert!(out.starts_with("ok: 77 sectors"), "{out}");
    let w = path(wdl_only);
    let out = run_ok(&["verify", "--variant", "six", "--quiet", "--dir", &w]);
    assert!(out.starts_with("ok: 77 sectors"), "{out}");
}

/// The sectors removals lead to must be compacted first: a usage error naming them.
#[test]
fn a_missing_removal_target_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let full = tmp.path().join("full");
    let out = tmp.path().join("out");
    let (f, o) = (full.to_str().unwrap(), out.to_str().unwrap());
    run_ok(&["generate", "--variant", "six", "--quiet", "--dir", f, "4-4"]);
    let (code, _, err) = millbase(&[
        "compact",
        "--variant",
        "six",
        "--removal-dont-care",
        "--dir",
        f,
        o,
        "4-4",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("sector 4-4-0-0 needs sector 3-4-0-0"), "{err}");
    // Named together, in any order, they are compacted in order.
    run_ok(&[
        "compact",
        "--variant",
        "six",
        "--quiet",
        "--removal-dont-care",
        "--dir",
        f,
        o,
        "4-4",
        "3-4",
        "4-3",
        "3-3",
    ]);
    assert!(wdl_path(&out, "4-4-0-0".parse().unwrap()).exists());
}
