//! Export to Malom's database format, as the Sanmill app's perfect-database reader reads it
//! (docs/MALOM.md has the format as written here, the mapping and the limits).
//!
//! A directory holds `std_W_B_WF_BF.sec2` per sector and one text file `std.secval`. A `.sec2`
//! file is a 64-byte header, one 3-byte entry per position of Malom's own index of the
//! sector, and a trailer. Malom's index numbers the points in its own order
//! ([`MALOM_POINTS`]) and enumerates, for every orbit of the side to move's stone set (by
//! increasing representative), every opponent set among the remaining points by
//! colexicographic rank: unlike millbase's index it has no unused slots, and positions that
//! are symmetric to each other may have several entries. Each entry gets the value of its
//! position, looked up in millbase's tables through millbase's index (which maps symmetric
//! positions to one slot), so symmetric positions get the same value.

use super::{AtomicFile, ExportError};
use crate::game::rules::{Bits, MIN_STONES, Variant};
use crate::game::value::Value;
use crate::sector::index::{Sector, SectorIndex, binomial, combinations, next_combination};
use crate::sector::index::{pdep, pext};
use crate::table::{FLAG_UNREACHABLE_DONT_CARE, FileKind, TableDir, TableSet, table_path};
use rayon::prelude::*;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Malom's numbering of the 24 points: point `i` of Malom's index is the `i`-th name (outer
/// square from a4 clockwise, then the middle square from b4, then the inner one from c4).
pub const MALOM_POINTS: [&str; 24] = [
    "a4", "a7", "d7", "g7", "g4", "g1", "d1", "a1", // outer
    "b4", "b6", "d6", "f6", "f4", "f2", "d2", "b2", // middle
    "c4", "c5", "d5", "e5", "e4", "e3", "d3", "c3", // inner
];

/// Version field of a `.sec2` header.
pub const SEC2_VERSION: i32 = 2;
/// Bytes per entry.
pub const ENTRY_BYTES: usize = 3;
/// Bits of the first field (key1) of an entry, for std.
pub const SPLIT_BITS: u32 = 12;
/// Length of a `.sec2` header.
pub const SEC2_HEADER_LEN: usize = 64;
/// Length of the trailer of a `.sec2` file without escaped entries (the count, 0).
pub const SEC2_TRAILER_LEN: usize = 4;
/// `virt_win_val` of `std.secval`: key1 plus the sector's value equals it for a win.
pub const VIRT_WIN: i32 = 299;
/// `virt_loss_val` of `std.secval`: key1 plus the sector's value equals it for a loss.
pub const VIRT_LOSS: i32 = -299;
/// Largest distance an entry holds (key2 is a signed 12-bit field whose most negative
/// value is the escape).
pub const MAX_KEY2: u16 = (1 << (24 - SPLIT_BITS - 1)) - 1;

/// The file name prefix of the standard game's files.
pub const PREFIX: &str = "std";

/// Name of the `.secval` file.
pub fn secval_name() -> String {
    format!("{PREFIX}.secval")
}

/// Name of a sector's file, e.g. `std_3_3_0_0.sec2` (W, B, WF, BF counted from the side to
/// move, as millbase's sectors are).
pub fn sec2_name(sector: Sector) -> String {
    format!(
        "{PREFIX}_{}_{}_{}_{}.sec2",
        sector.w, sector.b, sector.wf, sector.bf
    )
}

/// Can this variant be exported (Malom's standard database: the standard rules only)?
pub fn supports(v: &Variant) -> bool {
    let std = Variant::standard();
    v.name == std.name && v.fingerprint() == std.fingerprint()
}

/// The sectors of Malom's standard database (498): every sector reachable from the empty
/// board when counting stones only — a placement or a move may always remove an opponent
/// stone from the board, whatever the geometry — among those where both sides have at
/// least three stones (on board plus in hand). Sanmill's reader looks up only these. Sorted.
pub fn malom_sectors() -> Vec<Sector> {
    let stones = Variant::standard().stones;
    let start = Sector::new(0, 0, stones, stones);
    let live = |s: &Sector| s.w + s.wf >= MIN_STONES && s.b + s.bf >= MIN_STONES;
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(s) = stack.pop() {
        let mut next = Vec::new();
        if s.wf > 0 {
            next.push(Sector::new(s.b, s.w + 1, s.bf, s.wf - 1));
            if s.b > 0 {
                next.push(Sector::new(s.b - 1, s.w + 1, s.bf, s.wf - 1));
            }
        } else if s.w >= MIN_STONES {
            next.push(Sector::new(s.b, s.w, s.bf, 0));
            if s.b > 0 {
                next.push(Sector::new(s.b - 1, s.w, s.bf, 0));
            }
        }
        for t in next {
            if live(&t) && seen.insert(t) {
                stack.push(t);
            }
        }
    }
    let sorted: BTreeSet<Sector> = seen.into_iter().collect();
    sorted.into_iter().collect()
}

/// The text of `std.secval` declaring `sectors` (in the order given), each with value 0 (so that key1 is 299 for
/// a win and −299 for a loss in every sector, and every draw is the same draw).
pub fn secval_text(sectors: &[Sector]) -> String {
    let mut text = format!(
        "virt_loss_val: {VIRT_LOSS}\nvirt_win_val: {VIRT_WIN}\n{}\n",
        sectors.len()
    );
    for s in sectors {
        text.push_str(&format!("{} {} {} {} 0\n", s.w, s.b, s.wf, s.bf));
    }
    text
}

/// The 64-byte header of a `.sec2` file.
pub fn sec2_header() -> [u8; SEC2_HEADER_LEN] {
    let mut h = [0u8; SEC2_HEADER_LEN];
    h[0..4].copy_from_slice(&SEC2_VERSION.to_le_bytes());
    h[4..8].copy_from_slice(&(ENTRY_BYTES as i32).to_le_bytes());
    h[8..12].copy_from_slice(&(SPLIT_BITS as i32).to_le_bytes());
    h[12] = 0; // stone_diff
    h
}

/// The 3-byte entry of a value in millbase's 16-bit encoding (`value`): a draw is
/// key1 = key2 = 0; a win key1 = 299, a loss key1 = −299, with key2 the plies to the end of
/// the game. `None` for an unused slot, a malformed code or a distance above [`MAX_KEY2`].
#[inline]
pub fn entry_of_code(code: u16) -> Option<[u8; ENTRY_BYTES]> {
    let (key1, plies) = match Value::decode(code)? {
        Value::Draw => return Some([0; ENTRY_BYTES]),
        Value::Win(n) => (VIRT_WIN, n),
        Value::Loss(n) => (VIRT_LOSS, n),
    };
    if plies > MAX_KEY2 {
        return None;
    }
    let mask = (1u32 << SPLIT_BITS) - 1;
    let e = (key1 as u32 & mask) | ((plies as u32) << SPLIT_BITS);
    let b = e.to_le_bytes();
    Some([b[0], b[1], b[2]])
}

/// Malom's numbering against millbase's, and the orbits of stone sets in Malom's numbering.
struct MalomTables {
    /// Sets in Malom's numbering to millbase's, by byte.
    to_millbase: [[Bits; 256]; 3],
    /// Orbit representatives of k-point sets in Malom's numbering (the numerically, i.e.
    /// colexicographically, smallest member), by increasing representative.
    reps: Vec<OnceLock<Vec<Bits>>>,
    /// The board's symmetries as permutations of Malom's point numbers.
    syms: Vec<[u8; 24]>,
}

fn malom_tables() -> &'static MalomTables {
    static T: OnceLock<MalomTables> = OnceLock::new();
    T.get_or_init(|| {
        let board = Variant::standard().board();
        let to_mb: Vec<u8> = MALOM_POINTS
            .iter()
            .map(|n| board.point(n).expect("a point of the standard board"))
            .collect();
        let mut from_mb = [0u8; 24];
        for (m, &p) in to_mb.iter().enumerate() {
            from_mb[p as usize] = m as u8;
        }
        let mut to_millbase = [[0; 256]; 3];
        for (chunk, table) in to_millbase.iter_mut().enumerate() {
            for (byte, entry) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    if byte & (1 << bit) != 0 {
                        *entry |= 1 << to_mb[chunk * 8 + bit];
                    }
                }
            }
        }
        let syms = board
            .symmetries()
            .iter()
            .map(|perm| {
                let mut s = [0u8; 24];
                for (m, out) in s.iter_mut().enumerate() {
                    *out = from_mb[perm[to_mb[m] as usize] as usize];
                }
                s
            })
            .collect();
        MalomTables {
            to_millbase,
            reps: (0..=24).map(|_| OnceLock::new()).collect(),
            syms,
        }
    })
}

impl MalomTables {
    #[inline]
    fn to_millbase(&self, set: Bits) -> Bits {
        let t = &self.to_millbase;
        t[0][(set & 0xff) as usize]
            | t[1][((set >> 8) & 0xff) as usize]
            | t[2][((set >> 16) & 0xff) as usize]
    }

    fn reps(&self, k: u32) -> &[Bits] {
        self.reps[k as usize].get_or_init(|| {
            let image = |sym: &[u8; 24], set: Bits| {
                let mut out = 0;
                let mut s = set;
                while s != 0 {
                    let p = s.trailing_zeros();
                    s &= s - 1;
                    out |= 1 << sym[p as usize];
                }
                out
            };
            let mut reps = Vec::new();
            let mut set: Bits = if k == 0 { 0 } else { (1 << k) - 1 };
            for _ in 0..binomial(24, k) {
                if self.syms.iter().all(|sym| image(sym, set) >= set) {
                    reps.push(set);
                }
                set = next_combination(set);
            }
            reps
        })
    }
}

/// Malom's index of one sector of the standard game: entry `orbit × C(24 − W, B) + rank`
/// holds the position whose mover's stones are the orbit's representative and whose
/// opponent's stones are the set of colexicographic rank `rank` among the other points.
pub struct MalomIndex {
    /// The sector.
    pub sector: Sector,
    reps: &'static [Bits],
    per_orbit: u32,
    them_by_rank: &'static [Bits],
}

impl MalomIndex {
    /// The index of `sector` (of the standard game).
    pub fn new(sector: Sector) -> MalomIndex {
        MalomIndex {
            sector,
            reps: malom_tables().reps(sector.w as u32),
            per_orbit: binomial(24 - sector.w as u32, sector.b as u32),
            them_by_rank: combinations(24 - sector.w as u32, sector.b as u32),
        }
    }

    /// Number of entries (every one holds a position).
    pub fn entries(&self) -> u64 {
        self.reps.len() as u64 * self.per_orbit as u64
    }

    /// Number of orbits of the mover's stone sets.
    pub fn orbits(&self) -> usize {
        self.reps.len()
    }

    /// Entries per orbit: C(24 − W, B).
    pub fn per_orbit(&self) -> u32 {
        self.per_orbit
    }

    /// The position of entry `e` as (mover's stones, opponent's stones) in millbase's point
    /// numbering.
    pub fn position(&self, e: u64) -> (Bits, Bits) {
        let orbit = (e / self.per_orbit as u64) as usize;
        let rank = (e % self.per_orbit as u64) as usize;
        let t = malom_tables();
        let us = self.reps[orbit];
        let them = pdep(self.them_by_rank[rank], 0xFF_FFFF & !us);
        (t.to_millbase(us), t.to_millbase(them))
    }
}

/// Check that the tables of `sector` in `dir` can be exported exactly: both files present,
/// no N-move rule, unreachable positions solved. The errors name the file.
///
/// # Errors
///
/// [`ExportError::Table`] with [`crate::TableError::Missing`] if the WDL file is not there, and
/// with the [file errors](crate::format::TableSet#errors) of either file; [`ExportError::Unrepresentable`]
/// naming the file if the distance file is missing (a WDL-only table), or the tables were solved
/// under an N-move rule or with unreachable positions left unsolved.
pub fn check_exportable(
    tables: &TableSet,
    listing: &TableDir,
    sector: Sector,
) -> Result<(), ExportError> {
    let dir = tables.dir();
    let files = listing.files(sector);
    if !files.wdl {
        return Err(ExportError::Table(crate::table::TableError::Missing {
            path: table_path(dir, sector, FileKind::Wdl),
            sector,
            kind: FileKind::Wdl,
        }));
    }
    if !files.distance {
        return Err(ExportError::Unrepresentable {
            path: table_path(dir, sector, FileKind::Distance),
            reason: "no such file: Malom's format stores the distance of every win and loss, \
                     which a WDL-only table does not have"
                .into(),
        });
    }
    let header = tables.header(sector, FileKind::Wdl)?;
    let path = table_path(dir, sector, FileKind::Wdl);
    if header.n_move_rule != 0 {
        return Err(ExportError::Unrepresentable {
            path,
            reason: format!(
                "solved under the {}-move rule; Malom's format holds values without an \
                 N-move rule",
                header.n_move_rule
            ),
        });
    }
    if header.flags & FLAG_UNREACHABLE_DONT_CARE != 0 {
        return Err(ExportError::Unrepresentable {
            path,
            reason: "generated with --skip-unreachable, but Malom's index holds every \
                     position, reachable or not"
                .into(),
        });
    }
    tables.header(sector, FileKind::Distance)?;
    Ok(())
}

/// What exporting one sector wrote.
#[derive(Clone, Debug)]
pub struct SectorExport {
    /// The sector.
    pub sector: Sector,
    /// The file written.
    pub path: PathBuf,
    /// Entries written (positions of Malom's index).
    pub entries: u64,
    /// File length in bytes.
    pub bytes: u64,
}

/// Export `sector` from `tables` to `out/std_W_B_WF_BF.sec2` (atomically), calling
/// `progress` with the number of entries done as it goes. The tables must have passed
/// [`check_exportable`].
///
/// # Errors
///
/// [`ExportError::Table`] with the errors of [`TableSet::read_values`];
/// [`ExportError::Unrepresentable`] naming the distance file if a value does not fit a Malom entry;
/// [`ExportError::Io`] if the `.sec2` file cannot be written.
pub fn export_sector(
    tables: &TableSet,
    sector: Sector,
    out: &Path,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SectorExport, ExportError> {
    let values = tables.read_values(sector)?;
    let index = SectorIndex::new(tables.variant(), sector);
    let malom = MalomIndex::new(sector);
    let t = malom_tables();
    let per = malom.per_orbit as usize;
    let path = out.join(sec2_name(sector));
    let mut file = AtomicFile::create(&path)?;
    file.write_all(&sec2_header())?;
    let batch = ((1usize << 22) / per).max(1);
    let mut buf = vec![0u8; batch.min(malom.orbits()) * per * ENTRY_BYTES];
    let dist_path = table_path(tables.dir(), sector, FileKind::Distance);
    for first in (0..malom.orbits()).step_by(batch) {
        let n = batch.min(malom.orbits() - first);
        let bytes = &mut buf[..n * per * ENTRY_BYTES];
        bytes
            .par_chunks_mut(per * ENTRY_BYTES)
            .enumerate()
            .try_for_each(|(i, chunk)| {
                let us_m = malom.reps[first + i];
                let us = t.to_millbase(us_m);
                let frame = index.frame(us);
                let syms = &index.tables.syms;
                let empty_m = 0xFF_FFFF & !us_m;
                for (r, entry) in chunk.chunks_exact_mut(ENTRY_BYTES).enumerate() {
                    let them = t.to_millbase(pdep(malom.them_by_rank[r], empty_m));
                    let slot = index.slot_in_frame(&frame, syms.apply(frame.sym, them));
                    let code = values[slot as usize];
                    let e = entry_of_code(code).ok_or_else(|| ExportError::Unrepresentable {
                        path: dist_path.clone(),
                        reason: format!(
                            "slot {slot} holds value code {code:#06x}, which a Malom entry \
                             cannot hold (distances above {MAX_KEY2} plies are not exported)"
                        ),
                    })?;
                    entry.copy_from_slice(&e);
                }
                Ok::<(), ExportError>(())
            })?;
        file.write_all(bytes)?;
        progress((n * per) as u64);
    }
    file.write_all(&0i32.to_le_bytes())?;
    file.commit()?;
    let entries = malom.entries();
    Ok(SectorExport {
        sector,
        path,
        entries,
        bytes: (SEC2_HEADER_LEN + SEC2_TRAILER_LEN) as u64 + entries * ENTRY_BYTES as u64,
    })
}

/// Write `out/std.secval` (atomically) declaring `sectors` (sorted here).
///
/// # Errors
///
/// [`ExportError::Io`] if the file cannot be written.
pub fn write_secval(out: &Path, sectors: &[Sector]) -> Result<PathBuf, ExportError> {
    let mut sorted = sectors.to_vec();
    sorted.sort();
    sorted.dedup();
    let path = out.join(secval_name());
    let mut file = AtomicFile::create(&path)?;
    file.write_all(secval_text(&sorted).as_bytes())?;
    file.commit()?;
    Ok(path)
}

/// Length in bytes of the `.sec2` file of `sector` as written here.
pub fn sec2_len(sector: Sector) -> u64 {
    (SEC2_HEADER_LEN + SEC2_TRAILER_LEN) as u64
        + MalomIndex::new(sector).entries() * ENTRY_BYTES as u64
}

/// Check a `.sec2` file of `sector` found in an output directory (written by an earlier
/// export): its header and its length as this exporter writes them. `Err` says what is
/// wrong, in plain words.
///
/// # Errors
///
/// A one-line reason: the file cannot be opened or read, its length is not the sector's, or its
/// header is not the one written here.
pub fn check_sec2(path: &Path, sector: Sector) -> Result<(), String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    let want = sec2_len(sector);
    if len != want {
        return Err(format!(
            "{len} bytes, but the file of sector {sector} has {want} (68 + 3 per entry)"
        ));
    }
    let mut header = [0u8; SEC2_HEADER_LEN];
    file.read_exact(&mut header).map_err(|e| e.to_string())?;
    if header != sec2_header() {
        return Err(
            "not the 64-byte header of a .sec2 file (version 2, 3-byte entries, \
                    split 12)"
                .into(),
        );
    }
    Ok(())
}

/// The sectors of Malom's database whose `.sec2` files `out` holds (by name), sorted.
///
/// # Errors
///
/// [`ExportError::Io`] naming `out` if it cannot be listed (a directory that does not exist holds
/// no files: `Ok` with none).
pub fn sec2_files_in(out: &Path) -> Result<Vec<(Sector, PathBuf)>, ExportError> {
    let io = |error| ExportError::Io {
        path: out.to_path_buf(),
        error,
    };
    let all: HashSet<Sector> = malom_sectors().into_iter().collect();
    let mut found = Vec::new();
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(io(e)),
    };
    for entry in entries {
        let path = entry.map_err(io)?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if let Some(&s) = all.iter().find(|&&s| sec2_name(s) == name) {
            found.push((s, path));
        }
    }
    found.sort();
    Ok(found)
}

/// Malom's index of a position given in millbase's numbering: its entry, found through
/// Malom's own orbits (for tests and documentation: the exporter goes the other way).
pub fn malom_entry(sector: Sector, us: Bits, them: Bits) -> u64 {
    let t = malom_tables();
    let mut from_mb = [0u8; 24];
    let board = Variant::standard().board();
    for (m, n) in MALOM_POINTS.iter().enumerate() {
        from_mb[board.point(n).expect("a standard point") as usize] = m as u8;
    }
    let conv = |set: Bits| {
        crate::game::rules::points(set).fold(0 as Bits, |acc, p| acc | 1 << from_mb[p as usize])
    };
    let (us_m, them_m) = (conv(us), conv(them));
    let image = |sym: &[u8; 24], set: Bits| {
        crate::game::rules::points(set).fold(0 as Bits, |acc, p| acc | 1 << sym[p as usize])
    };
    let sym = t
        .syms
        .iter()
        .min_by_key(|s| image(s, us_m))
        .expect("the identity");
    let rep = image(sym, us_m);
    let reps = t.reps(sector.w as u32);
    let orbit = reps.binary_search(&rep).expect("a representative");
    let rank = crate::sector::index::colex_rank(pext(image(sym, them_m), 0xFF_FFFF & !rep));
    orbit as u64 * binomial(24 - sector.w as u32, sector.b as u32) as u64 + rank as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sector::index::BoardTables;

    #[test]
    fn malom_database_has_498_sectors() {
        let s = malom_sectors();
        assert_eq!(s.len(), 498);
        assert!(s.contains(&Sector::new(0, 0, 9, 9)));
        assert!(s.contains(&Sector::new(0, 1, 3, 2)));
        assert!(!s.contains(&Sector::new(0, 0, 8, 8)));
        assert_eq!(s.iter().filter(|s| s.is_moving()).count(), 49);
    }

    #[test]
    fn orbit_counts_match_millbase() {
        let t = malom_tables();
        let b = BoardTables::of(Variant::standard().board_kind);
        assert_eq!(t.syms.len(), 16);
        for k in 0..=9 {
            assert_eq!(t.reps(k).len(), b.orbits(k).len(), "k = {k}");
        }
    }

    #[test]
    fn entries_pack_key1_low_and_key2_high() {
        let decode = |e: [u8; 3]| {
            let v = u32::from_le_bytes([e[0], e[1], e[2], 0]);
            let k1 = ((v & 0xfff) as i32) << 20 >> 20;
            let k2 = ((v >> 12) as i32) << 20 >> 20;
            (k1, k2)
        };
        assert_eq!(decode(entry_of_code(0).unwrap()), (0, 0));
        let win = Value::Win(7).encode();
        assert_eq!(decode(entry_of_code(win).unwrap()), (299, 7));
        let loss = Value::Loss(0).encode();
        assert_eq!(decode(entry_of_code(loss).unwrap()), (-299, 0));
        let far = Value::Loss(2047).encode();
        assert_eq!(decode(entry_of_code(far).unwrap()), (-299, 2047));
        assert!(entry_of_code(Value::Win(2049).encode()).is_none());
        assert!(entry_of_code(crate::game::value::UNUSED).is_none());
    }

    #[test]
    fn entries_and_positions_round_trip() {
        for sector in [Sector::moving(3, 3), Sector::new(0, 2, 8, 7)] {
            let m = MalomIndex::new(sector);
            for e in (0..m.entries()).step_by(97) {
                let (us, them) = m.position(e);
                assert_eq!(us.count_ones(), sector.w as u32);
                assert_eq!(them.count_ones(), sector.b as u32);
                assert_eq!(us & them, 0);
                assert_eq!(
                    malom_entry(sector, us, them) / m.per_orbit() as u64,
                    e / m.per_orbit() as u64
                );
            }
        }
    }
}
