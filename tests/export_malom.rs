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

/// The file name of a sector's `.sec2` file.
fn sec2_name(s: (u8, u8, u8, u8)) -> String {
    format!("std_{}_{}_{}_{}.sec2", s.0, s.1, s.2, s.3)
}

/// Open a database directory the way a reader that checks it first does (Sanmill's database
/// query, as docs/MALOM.md describes it): every sector `std.secval` declares must have its
/// `.sec2` file, with the header of the format and the length its index needs (entries, the
/// trailer's count and that many escaped pairs); otherwise the whole directory is refused.
fn open_checked(dir: &Path) -> Result<Reader, String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut reader = Reader::new(dir);
    let mut declared: Vec<_> = reader.secval.keys().copied().collect();
    declared.sort();
    let missing: Vec<String> = declared
        .iter()
        .map(|&s| sec2_name(s))
        .filter(|n| !dir.join(n).is_file())
        .collect();
    if let Some(first) = missing.first() {
        return Err(format!(
            "database incomplete: {}/{} declared sectors have their files (no {first})",
            declared.len() - missing.len(),
            declared.len()
        ));
    }
    for s in declared {
        let path = dir.join(sec2_name(s));
        let mut file = std::fs::File::open(&path).unwrap();
        let len = file.metadata().unwrap().len();
        let mut header = [0u8; 64];
        file.read_exact(&mut header)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let i32_at = |b: &[u8], o: usize| i32::from_le_bytes(b[o..o + 4].try_into().unwrap());
        if (i32_at(&header, 0), i32_at(&header, 4), i32_at(&header, 8)) != (2, 3, 12)
            || header[12..].iter().any(|&b| b != 0)
        {
            return Err(format!("{}: not a .sec2 header", path.display()));
        }
        let (w, b) = (s.0 as u32, s.1 as u32);
        let entries = reader.reps(w).len() as u64 * choose(24 - w as u64, b as u64);
        let mut count = [0u8; 4];
        file.seek(SeekFrom::Start(64 + 3 * entries))
            .and_then(|_| file.read_exact(&mut count))
            .map_err(|e| format!("{}: too short: {e}", path.display()))?;
        let escaped = i32_at(&count, 0) as u64;
        if len != 68 + 3 * entries + 8 * escaped {
            return Err(format!(
                "{}: {len} bytes for {entries} entries",
                path.display()
            ));
        }
    }
    Ok(reader)
}

/// The sectors whose `.sec2` files `dir` holds.
fn sec2_files(dir: &Path) -> BTreeSet<(u8, u8, u8, u8)> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let f: Vec<u8> = name
                .strip_prefix("std_")?
                .strip_suffix(".sec2")?
                .split('_')
                .map(|x| x.parse().unwrap())
                .collect();
            Some((f[0], f[1], f[2], f[3]))
        })
        .collect()
}

/// The 498 sectors of Malom's std database, derived here: every sector reachable from the
/// empty board by stone counts, a removal allowed after any placement or move, both sides
/// keeping three stones or more.
fn malom_sectors() -> BTreeSet<(u8, u8, u8, u8)> {
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
    seen
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
    /// Standard output and error of the export.
    stdout: String,
    stderr: String,
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
        Fixture {
            _tmp: tmp,
            tables,
            out,
            stdout: so,
            stderr: err,
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
fn secval_declares_the_sectors_exported_and_a_checking_reader_opens_it() {
    let f = fixture();
    let reader = open_checked(&f.out).unwrap();
    assert_eq!((reader.virt_loss, reader.virt_win), (-299, 299));
    assert!(reader.secval.values().all(|&v| v == 0));
    // Exactly the sectors written: every sector of Malom's database that the tables hold.
    let declared: BTreeSet<_> = reader.secval.keys().copied().collect();
    let files = sec2_files(&f.out);
    assert_eq!(declared, files);
    let tables: BTreeSet<_> = std::fs::read_dir(&f.tables)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            Some(parse(name.strip_suffix(".mbw")?))
        })
        .filter(|s| malom_sectors().contains(s))
        .collect();
    assert_eq!(files, tables);
    for s in ["3-3", "5-3", "0-1-3-2", "3-3-1-1", "1-1-2-2"] {
        assert!(declared.contains(&parse(s)), "{s}: {declared:?}");
    }
    // No temporary files left.
    let names: Vec<String> = std::fs::read_dir(&f.out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), files.len() + 1, "{names:?}");
}

#[test]
fn per_sector_lines_and_the_summary_go_to_standard_output() {
    let f = fixture();
    let lines: Vec<&str> = f.stdout.lines().collect();
    let files = sec2_files(&f.out);
    assert_eq!(lines.len(), files.len() + 1, "{}", f.stdout);
    for s in files {
        let name = sec2_name(s);
        let len = std::fs::metadata(f.out.join(&name)).unwrap().len();
        let line = format!("{name}: {} entries, {len} bytes", (len - 68) / 3);
        assert!(lines.contains(&line.as_str()), "{line}: {}", f.stdout);
    }
    let done = lines.last().unwrap();
    let n = lines.len() - 1;
    assert!(
        done.starts_with(&format!("done: {n} sectors exported (")),
        "{done}"
    );
    assert!(
        done.ends_with(&format!(
            "declares the {n} sectors whose .sec2 files it holds"
        )),
        "{done}"
    );
    assert_eq!(f.stderr, "", "--quiet: nothing on standard error");
}

/// `--declare-all-sectors` declares Malom's 498 sectors (the set derived here); with files
/// missing, it warns, and a reader that checks the directory refuses it. Exports into the
/// same directory add up; a damaged file there is refused before anything is written.
#[test]
fn declaring_all_sectors_and_exporting_in_parts() {
    let f = fixture();
    let tmp = tempfile::tempdir().unwrap();
    let all = tmp.path().join("all");
    let (code, so, err) = export(&f.tables, &all, &["--declare-all-sectors", "3-3"]);
    assert_eq!(code, 0, "{err}");
    let reader = Reader::new(&all);
    let declared: BTreeSet<_> = reader.secval.keys().copied().collect();
    let derived = malom_sectors();
    assert_eq!(derived.len(), 498);
    assert_eq!(declared, derived);
    assert!(
        so.contains("declares all 498 sectors of Malom's database, 497 of them without"),
        "{so}"
    );
    assert!(
        err.starts_with("millbase: warning: ") && err.contains("refuses"),
        "{err}"
    );
    let refused = open_checked(&all).err().expect("refused");
    assert!(refused.contains("1/498 declared sectors"), "{refused}");

    // In parts: each export declares what the directory then holds.
    let parts = tmp.path().join("parts");
    for (s, declared) in [("3-3", 1), ("3-4", 2), ("3-3", 2)] {
        let (code, so, err) = export(&f.tables, &parts, &[s]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(err, "");
        let r = open_checked(&parts).unwrap();
        assert_eq!(r.secval.len(), declared, "{so}");
    }
    let secval = std::fs::read_to_string(parts.join("std.secval")).unwrap();
    assert_eq!(
        secval,
        "virt_loss_val: -299\nvirt_win_val: 299\n2\n3 3 0 0 0\n3 4 0 0 0\n"
    );
    // A damaged file of an earlier export: refused, naming it, nothing written.
    let victim = parts.join("std_3_4_0_0.sec2");
    let len = std::fs::metadata(&victim).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&victim)
        .unwrap()
        .set_len(len - 3)
        .unwrap();
    let (code, _, err) = export(&f.tables, &parts, &["4-3"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{}: {} bytes", victim.display(), len - 3)),
        "{err}"
    );
    assert!(!parts.join("std_4_3_0_0.sec2").exists());
    assert_eq!(
        std::fs::read_to_string(parts.join("std.secval")).unwrap(),
        secval
    );
    assert!(open_checked(&parts).is_err());
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
    let reachable = millbase::sectors::reachable_sectors(&Variant::standard());
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
