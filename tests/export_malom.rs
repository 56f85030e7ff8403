//! `millbase export --format malom`: the exported files read back by an independent reader of
//! Malom's format (written here from the description in docs/MALOM.md, sharing no code with
//! the exporter: its own point numbering, symmetries, orbits, ranks and entry decoding) agree
//! with `probe` on every position of the moving sectors with w + b <= 8 and on sampled
//! positions of placing sectors, including sectors no game reaches; tables that cannot be
//! represented are refused.

use millbase::{Color, Position, Sector, Tablebase, Value, Variant};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod common;

use common::millbase as run;

// ---------------------------------------------------------------------------------------
// An independent reader of Malom's format.
// ---------------------------------------------------------------------------------------

/// Malom's point order: outer square from a4 clockwise, middle from b4, inner from c4.
const POINTS: [&str; 24] = [
    "a4", "a7", "d7", "g7", "g4", "g1", "d1", "a1", "b4", "b6", "d6", "f6", "f4", "f2", "d2", "b2",
    "c4", "c5", "d5", "e5", "e4", "e3", "d3", "c3",
];

fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

struct Reader {
    /// The 16 symmetries as permutations of Malom's point numbers.
    syms: Vec<[usize; 24]>,
    /// Orbit representatives of k-sets, increasing.
    reps: HashMap<u32, Vec<u32>>,
    /// The sector values of std.secval.
    secval: HashMap<(u8, u8, u8, u8), i32>,
    virt_win: i32,
    virt_loss: i32,
}

impl Reader {
    fn new(dir: &Path) -> Reader {
        // Symmetries: rotation by a quarter turn (two steps along every ring), reflection in
        // the a4-g4 line, and swapping the inner and outer rings; closed under composition.
        let rot: [usize; 24] = std::array::from_fn(|p| p / 8 * 8 + (p % 8 + 2) % 8);
        let refl: [usize; 24] = std::array::from_fn(|p| p / 8 * 8 + (8 - p % 8) % 8);
        let swap: [usize; 24] = std::array::from_fn(|p| (2 - p / 8) * 8 + p % 8);
        let id: [usize; 24] = std::array::from_fn(|p| p);
        let mut syms = vec![id];
        let mut i = 0;
        while i < syms.len() {
            for g in [rot, refl, swap] {
                let c: [usize; 24] = std::array::from_fn(|p| g[syms[i][p]]);
                if !syms.contains(&c) {
                    syms.push(c);
                }
            }
            i += 1;
        }
        assert_eq!(syms.len(), 16);
        let text = std::fs::read_to_string(dir.join("std.secval")).expect("std.secval");
        let mut lines = text.lines();
        let virt_loss: i32 = lines
            .next()
            .unwrap()
            .strip_prefix("virt_loss_val: ")
            .unwrap()
            .parse()
            .unwrap();
        let virt_win: i32 = lines
            .next()
            .unwrap()
            .strip_prefix("virt_win_val: ")
            .unwrap()
            .parse()
            .unwrap();
        let count: usize = lines.next().unwrap().trim().parse().unwrap();
        let mut secval = HashMap::new();
        for line in lines {
            let f: Vec<i32> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            assert_eq!(f.len(), 5, "{line}");
            secval.insert((f[0] as u8, f[1] as u8, f[2] as u8, f[3] as u8), f[4]);
        }
        assert_eq!(secval.len(), count);
        Reader {
            syms,
            reps: HashMap::new(),
            secval,
            virt_win,
            virt_loss,
        }
    }

    fn image(&self, s: usize, set: u32) -> u32 {
        (0..24)
            .filter(|p| set >> p & 1 != 0)
            .fold(0, |acc, p| acc | 1 << self.syms[s][p])
    }

    fn reps(&mut self, k: u32) -> &Vec<u32> {
        if !self.reps.contains_key(&k) {
            let mut reps = Vec::new();
            for set in 0u32..1 << 24 {
                if set.count_ones() == k && (0..16).all(|s| self.image(s, set) >= set) {
                    reps.push(set);
                }
            }
            self.reps.insert(k, reps);
        }
        &self.reps[&k]
    }

    /// Colexicographic rank of `set` collapsed onto the points of `free`.
    fn rank(set: u32, free: u32) -> u64 {
        let mut r = 0;
        let mut i = 0;
        let mut j = 0;
        for p in 0..24 {
            if free >> p & 1 != 0 {
                if set >> p & 1 != 0 {
                    i += 1;
                    r += choose(j, i);
                }
                j += 1;
            }
        }
        r
    }

    fn unrank(mut r: u64, k: u64, free: u32) -> u32 {
        let idx: Vec<u32> = (0..24).filter(|p| free >> p & 1 != 0).collect();
        let mut set = 0;
        let mut j = idx.len() as u64;
        for i in (1..=k).rev() {
            j -= 1;
            while choose(j, i) > r {
                j -= 1;
            }
            r -= choose(j, i);
            set |= 1 << idx[j as usize];
        }
        set
    }

    /// Malom's index of the position (mover's set, opponent's set) in Malom's numbering.
    fn index(&mut self, w: u32, b: u32, us: u32, them: u32) -> u64 {
        let s = (0..16).min_by_key(|&s| self.image(s, us)).unwrap();
        let rep = self.image(s, us);
        let them = self.image(s, them);
        let orbit = self.reps(w).binary_search(&rep).unwrap() as u64;
        orbit * choose(24 - w as u64, b as u64) + Reader::rank(them, !rep & 0xFF_FFFF)
    }
}

/// A `.sec2` file read whole.
struct Sec2 {
    entries: Vec<u32>,
    escaped: HashMap<u32, i32>,
}

fn read_sec2(path: &Path) -> Sec2 {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let i32_at = |o: usize| i32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    assert_eq!(i32_at(0), 2, "version");
    assert_eq!(i32_at(4), 3, "entry size");
    assert_eq!(i32_at(8), 12, "split");
    assert_eq!(bytes[12], 0, "stone_diff");
    assert!(bytes[13..64].iter().all(|&b| b == 0), "padding");
    // The entry count is not stored: the trailer's count is the last field read, so find
    // it by trying the count from the length: entries end where count and pairs begin.
    let body = bytes.len() - 64;
    let mut found = None;
    for escaped in 0..=1000usize {
        let tail = 4 + 8 * escaped;
        if tail > body || !(body - tail).is_multiple_of(3) {
            continue;
        }
        let n = (body - tail) / 3;
        if i32_at(64 + 3 * n) as usize == escaped {
            found = Some((n, escaped));
            break;
        }
    }
    let (n, escaped) = found.expect("a trailer");
    let entries = (0..n)
        .map(|i| {
            let o = 64 + 3 * i;
            u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], 0])
        })
        .collect();
    let escaped = (0..escaped)
        .map(|j| {
            let o = 64 + 3 * n + 4 + 8 * j;
            (i32_at(o) as u32, i32_at(o + 4))
        })
        .collect();
    Sec2 { entries, escaped }
}

/// A value read from Malom's files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MalomValue {
    Win(i32),
    Loss(i32),
    Draw,
    /// "see the symmetric position": apply this symmetry and look again.
    Symmetric(usize),
}

fn decode(reader: &Reader, sector: (u8, u8, u8, u8), file: &Sec2, index: u64) -> MalomValue {
    let e = file.entries[index as usize];
    let key1 = ((e & 0xFFF) as i32) << 20 >> 20;
    let mut key2 = ((e >> 12) as i32) << 20 >> 20;
    if key2 == -2048 {
        key2 = file.escaped[&(index as u32)];
    }
    if key1 == 0 {
        return if key2 >= 0 {
            MalomValue::Draw
        } else {
            MalomValue::Symmetric((-(key2 + 1)) as usize)
        };
    }
    let abs = key1 + reader.secval[&sector];
    if abs == reader.virt_win {
        MalomValue::Win(key2)
    } else if abs == reader.virt_loss {
        MalomValue::Loss(key2)
    } else {
        MalomValue::Draw
    }
}

/// The position of Malom's sets as a millbase position (by point names).
fn position(v: &Variant, s: (u8, u8, u8, u8), us: u32, them: u32) -> Position {
    let board = v.board();
    let conv = |set: u32| {
        (0..24)
            .filter(|p| set >> p & 1 != 0)
            .fold(0u32, |acc, p| acc | 1 << board.point(POINTS[p]).unwrap())
    };
    // In the placing phase the mover has as many stones in hand as the opponent when white
    // is to move and one more when black is; in the moving phase take white.
    let to_move = if s.2 == s.3 {
        Color::White
    } else {
        Color::Black
    };
    let mut p = Position::start(v);
    p.to_move = to_move;
    p.stones[to_move.index()] = conv(us);
    p.stones[to_move.other().index()] = conv(them);
    p.in_hand[to_move.index()] = s.2;
    p.in_hand[to_move.other().index()] = s.3;
    p
}

fn agrees(m: MalomValue, v: Value) -> bool {
    match (m, v) {
        (MalomValue::Win(a), Value::Win(b)) | (MalomValue::Loss(a), Value::Loss(b)) => {
            a == b as i32
        }
        (MalomValue::Draw, Value::Draw) => true,
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// Fixture: tables and their export.
// ---------------------------------------------------------------------------------------

/// Placing sectors: one a game reaches, and ones no game reaches (0-1-3-2: the side to move
/// has lost all six stones it placed) that `generate` must solve when named.
const PLACING: [&str; 3] = ["3-3-1-1", "0-1-3-2", "2-2-2-2"];

struct Fixture {
    _tmp: tempfile::TempDir,
    tables: PathBuf,
    out: PathBuf,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let tables = tmp.path().join("tables");
        let out = tmp.path().join("malom");
        let t = tables.to_str().unwrap();
        let mut args = vec!["generate", "--quiet", "--dir", t, "3-5", "4-4"];
        args.extend(PLACING);
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let (code, so, err) = run(&[
            "export",
            "--format",
            "malom",
            "--quiet",
            "--dir",
            t,
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(so.starts_with("done: "), "{so}");
        Fixture {
            _tmp: tmp,
            tables,
            out,
        }
    })
}

fn parse(s: &str) -> (u8, u8, u8, u8) {
    let s: Sector = s.parse().unwrap();
    (s.w, s.b, s.wf, s.bf)
}

/// Check entries of a sector against probe: every one (`samples` = 0) or about `samples`
/// spread evenly; returns how many.
fn check_sector(
    reader: &mut Reader,
    tb: &Tablebase,
    out: &Path,
    s: (u8, u8, u8, u8),
    samples: u64,
) -> u64 {
    let v = *tb.variant();
    let file = read_sec2(&out.join(format!("std_{}_{}_{}_{}.sec2", s.0, s.1, s.2, s.3)));
    let (w, b) = (s.0 as u32, s.1 as u32);
    let per = choose(24 - w as u64, b as u64);
    let reps = reader.reps(w).clone();
    assert_eq!(file.entries.len() as u64, reps.len() as u64 * per, "{s:?}");
    let step = (file.entries.len() as u64)
        .checked_div(samples)
        .map_or(1, |s| s.max(1));
    let mut checked = 0;
    let mut i = 0u64;
    while i < file.entries.len() as u64 {
        let us = reps[(i / per) as usize];
        let them = Reader::unrank(i % per, b as u64, !us & 0xFF_FFFF);
        let mut m = decode(reader, s, &file, i);
        if let MalomValue::Symmetric(sym) = m {
            let j = reader.index(w, b, reader.image(sym, us), reader.image(sym, them));
            m = decode(reader, s, &file, j);
        }
        let pos = position(&v, s, us, them);
        let want = tb.value(&pos).unwrap();
        assert!(
            agrees(m, want),
            "{s:?} entry {i}: Malom {m:?}, probe {want:?}"
        );
        checked += 1;
        i += step;
    }
    checked
}

#[test]
fn secval_declares_the_498_sectors_of_malom_std() {
    let f = fixture();
    let reader = Reader::new(&f.out);
    assert_eq!((reader.virt_loss, reader.virt_win), (-299, 299));
    // Every sector reachable from the empty board by stone counts, a removal allowed after
    // any placement or move, both sides keeping three stones or more.
    let mut seen = BTreeSet::from([(0u8, 0u8, 9u8, 9u8)]);
    let mut stack = vec![(0u8, 0u8, 9u8, 9u8)];
    while let Some((w, b, wf, bf)) = stack.pop() {
        let mut next = vec![];
        if wf > 0 {
            next.push((b, w + 1, bf, wf - 1));
            if b > 0 {
                next.push((b - 1, w + 1, bf, wf - 1));
            }
        } else if w >= 3 {
            next.push((b, w, bf, 0));
            if b > 0 {
                next.push((b - 1, w, bf, 0));
            }
        }
        for t in next {
            if t.0 + t.2 >= 3 && t.1 + t.3 >= 3 && seen.insert(t) {
                stack.push(t);
            }
        }
    }
    assert_eq!(seen.len(), 498);
    let declared: BTreeSet<_> = reader.secval.keys().copied().collect();
    assert_eq!(declared, seen);
    // Files of the exported sectors only, no temporary files left.
    let mut names: Vec<String> = std::fs::read_dir(&f.out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    assert!(names.contains(&"std_0_1_3_2.sec2".to_string()), "{names:?}");
    assert!(names.contains(&"std_5_3_0_0.sec2".to_string()), "{names:?}");
}

#[test]
fn every_position_of_moving_sectors_up_to_8_stones_agrees_with_probe() {
    let f = fixture();
    let mut reader = Reader::new(&f.out);
    let tb = Tablebase::open(&f.tables, Variant::standard()).unwrap();
    let mut total = 0;
    for s in ["3-3", "3-4", "4-3", "3-5", "5-3", "4-4"] {
        total += check_sector(&mut reader, &tb, &f.out, parse(s), 0);
    }
    // 3-3 has 210,140 entries (169,626 positions up to symmetry plus symmetric duplicates).
    assert!(total > 10_000_000, "{total}");
}

#[test]
fn sampled_positions_of_placing_sectors_agree_with_probe() {
    let f = fixture();
    let mut reader = Reader::new(&f.out);
    let tb = Tablebase::open(&f.tables, Variant::standard()).unwrap();
    let reachable = millbase::reachable_sectors(&Variant::standard());
    assert!(!reachable.contains(&"0-1-3-2".parse().unwrap()));
    for s in PLACING {
        let n = check_sector(&mut reader, &tb, &f.out, parse(s), 20_000);
        assert!(n >= 24, "{s}: {n}");
    }
    // Their successors, also exported: 1-1-2-2 (unreachable) and 4-3-1-0.
    for s in ["1-1-2-2", "3-4-1-0"] {
        check_sector(&mut reader, &tb, &f.out, parse(s), 20_000);
    }
}

#[test]
fn positions_looked_up_by_malom_index_agree_with_probe() {
    // The direction a reader goes: from a position (any of its symmetric forms) to the
    // index, through the reader's own canonicalisation.
    let f = fixture();
    let mut reader = Reader::new(&f.out);
    let tb = Tablebase::open(&f.tables, Variant::standard()).unwrap();
    let v = Variant::standard();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for s in ["4-4", "3-5", "3-3-1-1"] {
        let s = parse(s);
        let file = read_sec2(
            &f.out
                .join(format!("std_{}_{}_{}_{}.sec2", s.0, s.1, s.2, s.3)),
        );
        for _ in 0..2000 {
            let mut us = 0u32;
            while us.count_ones() < s.0 as u32 {
                us |= 1 << rnd(24);
            }
            let mut them = 0u32;
            while them.count_ones() < s.1 as u32 {
                them |= 1 << rnd(24) & !us;
            }
            let i = reader.index(s.0 as u32, s.1 as u32, us, them);
            let m = decode(&reader, s, &file, i);
            let want = tb.value(&position(&v, s, us, them)).unwrap();
            assert!(
                agrees(m, want),
                "{s:?} {us:#x} {them:#x}: {m:?} vs {want:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Refusals.
// ---------------------------------------------------------------------------------------

fn export(dir: &Path, out: &Path, more: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "export",
        "--format",
        "malom",
        "--quiet",
        "--dir",
        dir.to_str().unwrap(),
        out.to_str().unwrap(),
    ];
    args.extend(more);
    run(&args)
}

#[test]
fn tables_that_cannot_be_represented_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // Under an N-move rule.
    let rule = tmp.path().join("rule");
    let (code, _, err) = run(&[
        "generate",
        "--quiet",
        "--n-move-rule",
        "10",
        "--dir",
        rule.to_str().unwrap(),
        "3-3",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = export(&rule, &out, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("3-3-0-0.mbw: cannot be exported: solved under the 10-move rule"),
        "{err}"
    );
    // With unreachable positions left unsolved.
    let skip = tmp.path().join("skip");
    let (code, _, err) = run(&[
        "generate",
        "--quiet",
        "--skip-unreachable",
        "--dir",
        skip.to_str().unwrap(),
        "3-3",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = export(&skip, &out, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("3-3-0-0.mbw: cannot be exported: generated with --skip-unreachable"),
        "{err}"
    );
    // WDL only.
    let f = fixture();
    let wdl = tmp.path().join("wdl");
    std::fs::create_dir(&wdl).unwrap();
    std::fs::copy(f.tables.join("3-3-0-0.mbw"), wdl.join("3-3-0-0.mbw")).unwrap();
    let (code, _, err) = export(&wdl, &out, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("3-3-0-0.mbd: cannot be exported: no such file"),
        "{err}"
    );
    // Nothing was written.
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
}

#[test]
fn missing_sectors_and_bad_requests_are_refused() {
    let f = fixture();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // A named sector that is not solved.
    let (code, _, err) = export(&f.tables, &out, &["5-5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("5-5-0-0.mbw"), "{err}");
    // All 498 asked for.
    let (code, _, err) = export(&f.tables, &out, &["--all"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("0-0-9-9.mbw: no such file"), "{err}");
    assert!(err.contains("millbase generate --malom"), "{err}");
    // A sector outside Malom's database.
    let (code, _, err) = export(&f.tables, &out, &["0-0-8-8"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("sector 0-0-8-8 cannot be exported"), "{err}");
    // Other variants and formats.
    let (code, _, err) = run(&[
        "export",
        "--format",
        "malom",
        "--variant",
        "six",
        "--dir",
        f.tables.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("standard game only"), "{err}");
    let (code, _, err) = run(&[
        "export",
        "--format",
        "syzygy",
        "--dir",
        f.tables.to_str().unwrap(),
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown export format 'syzygy'"), "{err}");
    // A named sector that is solved is exported alone.
    let (code, _, err) = export(&f.tables, &out, &["3-3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.join("std_3_3_0_0.sec2").is_file());
    assert!(!out.join("std_4_4_0_0.sec2").exists());
    assert!(out.join("std.secval").is_file());
}

/// Sampled entries of every sector of an export made elsewhere, against its tables:
/// `MILLBASE_TABLES=DIR MILLBASE_MALOM=OUT cargo test --release --test export_malom --
/// --ignored exported_directory` (used for the w + b <= 10 set of docs/BENCHMARKS.md).
#[test]
#[ignore]
fn exported_directory_agrees_with_probe_on_samples() {
    let tables = PathBuf::from(std::env::var("MILLBASE_TABLES").expect("MILLBASE_TABLES"));
    let out = PathBuf::from(std::env::var("MILLBASE_MALOM").expect("MILLBASE_MALOM"));
    let mut reader = Reader::new(&out);
    let tb = Tablebase::open(&tables, Variant::standard()).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".sec2"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for name in names {
        let f: Vec<u8> = name
            .trim_start_matches("std_")
            .trim_end_matches(".sec2")
            .split('_')
            .map(|x| x.parse().unwrap())
            .collect();
        let n = check_sector(&mut reader, &tb, &out, (f[0], f[1], f[2], f[3]), 200_000);
        println!("{name}: {n} entries agree");
    }
}
