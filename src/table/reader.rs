//! Reading tables: a [`TableSet`] over a directory opens files lazily (memory maps), checks
//! them on open, decompresses blocks on demand into a shared cache and verifies each block's
//! checksum when it is decompressed.

use super::cache::{BlockCache, Key};
use super::file::{TableAccess, TableFile, distance_symbol, wdl_symbol};
use super::format::{Expect, Header};
use super::removal::{FLAG_REMOVAL_DONT_CARE, NO_REMOVAL, resolve_symbol};
use super::status::companions;
use super::{
    Corruption, FLAG_UNREACHABLE_DONT_CARE, FileKind, SYMBOL_DRAW, SYMBOL_LOSS, SYMBOL_RULE_DRAW,
    SYMBOL_WIN, TableError, Wdl, for_each_orbit_run, is_used, table_path, unreachable_in_run,
    value_of_symbols, wdl_of_symbol,
};
use crate::game::rules::Variant;
use crate::game::value::{NMoveRule, UNUSED, Value};
use crate::sector::index::{Sector, SectorIndex};
use crate::sector::reach::ReachFilter;
use rayon::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Default capacity of the block cache: 64 MiB.
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// A sector's index and lazily opened files.
struct SectorEntry {
    index: SectorIndex,
    files: [OnceLock<TableFile>; 2],
    opening: Mutex<()>,
}

/// Counts of a sector's WDL file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WdlCounts {
    /// Used slots.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws (under an N-move rule: at counter 0, cursed wins and blessed losses included).
    pub draws: u64,
    /// Under an N-move rule: positions decided without the rule and drawn by it at counter 0
    /// (cursed wins and blessed losses; the WDL file alone does not tell which).
    pub rule_draws: u64,
}

/// What [`TableSet::check_sector`] checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectorCheck {
    /// Size of the WDL file in bytes.
    pub wdl_bytes: u64,
    /// Size of the distance file in bytes, if there is one.
    pub distance_bytes: Option<u64>,
}

/// The tables of one variant in one directory, for probing from any number of threads.
///
/// Files are opened (memory-mapped) on first use and their headers and block tables checked
/// then; a missing or damaged file is reported on every use until it is repaired. Blocks are
/// decompressed on demand, their checksums verified, and kept in a cache of bounded size
/// shared by all threads. A directory with only `.mbw` files answers [`TableSet::wdl`];
/// [`TableSet::value`] needs the `.mbd` files too.
///
/// # Errors
///
/// The methods that read a sector's files share these *file errors*:
/// [`TableError::NoSuchSector`] for a sector that does not fit the variant, and for each file
/// needed, naming it: [`TableError::Missing`] if it is not there, [`TableError::NotRegular`]
/// if the path is not a regular file, [`TableError::Io`] if it cannot be read, and
/// [`TableError::Corrupt`] if it is not a valid table of the variant and sector (wrong magic,
/// version, variant, rules, sector or slot count, a bad header or block table, a wrong
/// length, a block that fails its checksum or does not decompress), if the distance file was
/// not written with its WDL file ([`Corruption::NotCompanion`]), or if it was solved under
/// another N-move rule than the set's ([`Corruption::OtherNMoveRule`]).
pub struct TableSet {
    dir: PathBuf,
    variant: Variant,
    /// The N-move rule of the tables: given, or learnt from the first file opened; every
    /// other file must have the same.
    rule: OnceLock<NMoveRule>,
    /// Per sector, by [`TableSet::sector_number`].
    sectors: Vec<OnceLock<Box<SectorEntry>>>,
    cache: BlockCache,
    access: TableAccess,
}

impl TableSet {
    /// The tables of `variant` in `dir`, with a block cache of `DEFAULT_CACHE_BYTES`.
    /// Nothing is opened yet.
    pub fn new(dir: impl Into<PathBuf>, variant: Variant) -> TableSet {
        let radix = variant.stones as usize + 1;
        TableSet {
            dir: dir.into(),
            variant,
            rule: OnceLock::new(),
            sectors: (0..radix.pow(4)).map(|_| OnceLock::new()).collect(),
            cache: BlockCache::new(DEFAULT_CACHE_BYTES),
            access: TableAccess::Read,
        }
    }

    /// The same, reading the files through memory maps ([`TableAccess::MemoryMap`]) instead
    /// of positioned reads: one system call less per block read, and the operating system's
    /// page cache shared between processes.
    ///
    /// # Safety
    ///
    /// While the set is open, no table file of the directory may be truncated or modified in
    /// place, by this process or any other: reading a mapped page of a truncated file kills
    /// the process (`SIGBUS`), and bytes changed under a map break Rust's guarantees for the
    /// slices read from it. Replacing a file by rename (as `millbase generate` does) and
    /// deleting it are safe: open maps keep the old file. Damaged but unchanging files are
    /// fine in both modes: their checksums are verified.
    pub unsafe fn with_memory_map(mut self) -> TableSet {
        self.access = TableAccess::MemoryMap;
        self
    }

    /// How the files are read.
    pub fn access(&self) -> TableAccess {
        self.access
    }

    /// The same with a block cache of about `bytes` bytes (0: no caching).
    pub fn with_cache_bytes(mut self, bytes: usize) -> TableSet {
        self.cache = BlockCache::new(bytes);
        self
    }

    /// The same, accepting only tables solved under `rule` (by default the first file opened
    /// decides, and files of any other rule are refused).
    pub fn with_rule(self, rule: NMoveRule) -> TableSet {
        let _ = self.rule.set(rule);
        self
    }

    /// The N-move rule of the tables: given with [`TableSet::with_rule`], or that of the
    /// first file opened; `None` while no file has been opened.
    pub fn rule(&self) -> Option<NMoveRule> {
        self.rule.get().copied()
    }

    /// The N-move rule of the tables, from the first WDL file of the directory (by sector
    /// order); `None` in a directory without WDL files. Fails if that file is not a valid
    /// table, or was solved under another rule than the one given or learnt before.
    ///
    /// # Errors
    ///
    /// [`TableError::Io`] naming the directory if it cannot be listed; the [file
    /// errors](TableSet#errors) of the first WDL file ([`Corruption::OtherNMoveRule`] if it was
    /// solved under another rule than the one given or learnt before).
    pub fn detect_rule(&self) -> Result<Option<NMoveRule>, TableError> {
        let io = |error| TableError::Io {
            path: self.dir.clone(),
            error,
        };
        let mut sectors: Vec<Sector> = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            if let Ok((sector, FileKind::Wdl)) = parse_file_name(&path)
                && sector.fits(&self.variant)
            {
                sectors.push(sector);
            }
        }
        match sectors.into_iter().min() {
            None => Ok(self.rule()),
            Some(sector) => {
                let e = self.entry(sector)?;
                self.file(e, FileKind::Wdl)?;
                Ok(self.rule())
            }
        }
    }

    /// The rule of the tables for decoding (none until a file is open).
    #[inline]
    fn current_rule(&self) -> NMoveRule {
        self.rule().unwrap_or_default()
    }

    /// The N-move rule in force in `sector` of these tables, under which its values are
    /// stored and its symbols decoded: the tables' rule, or the variant's lower endgame N
    /// while a side has exactly three stones on the board ([`NMoveRule::with_stones`]); none
    /// until a file is open.
    #[inline]
    pub fn rule_in(&self, sector: Sector) -> NMoveRule {
        self.current_rule()
            .with_stones(&self.variant, [sector.w, sector.b])
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    fn entry(&self, sector: Sector) -> Result<&SectorEntry, TableError> {
        if !sector.fits(&self.variant) {
            return Err(TableError::NoSuchSector {
                sector,
                variant: self.variant.name,
            });
        }
        let r = self.variant.stones as usize + 1;
        let n = ((sector.w as usize * r + sector.b as usize) * r + sector.wf as usize) * r
            + sector.bf as usize;
        Ok(self.sectors[n].get_or_init(|| {
            Box::new(SectorEntry {
                index: SectorIndex::new(&self.variant, sector),
                files: [OnceLock::new(), OnceLock::new()],
                opening: Mutex::new(()),
            })
        }))
    }

    /// The index of `sector`, to compute slots of positions.
    ///
    /// # Errors
    ///
    /// [`TableError::NoSuchSector`] if `sector` does not fit the variant (more stones than the
    /// board or the game allows). No file is read.
    pub fn index(&self, sector: Sector) -> Result<&SectorIndex, TableError> {
        Ok(&self.entry(sector)?.index)
    }

    /// The open file of `kind` of the sector, opening it if needed. Opening the distance file
    /// opens the WDL file too and checks that they were written together.
    #[inline]
    fn file<'a>(&self, e: &'a SectorEntry, kind: FileKind) -> Result<&'a TableFile, TableError> {
        match e.files[kind.slot()].get() {
            Some(f) => Ok(f),
            None => self.open(e, kind),
        }
    }

    #[cold]
    fn open<'a>(&self, e: &'a SectorEntry, kind: FileKind) -> Result<&'a TableFile, TableError> {
        let _guard = e.opening.lock().unwrap_or_else(|p| p.into_inner());
        let sector = e.index.sector;
        let load = |kind: FileKind| {
            let expect = Expect {
                variant: &self.variant,
                kind,
                sector,
                slots: e.index.slots(),
                rule: self.rule(),
            };
            let file = TableFile::open(
                &table_path(&self.dir, sector, kind),
                sector,
                &expect,
                self.access,
            )?;
            // The first file opened decides the rule of the set (another thread may have
            // decided it since `expect` was made).
            let rule = *self.rule.get_or_init(|| {
                NMoveRule::new(file.header.n_move_rule).expect("checked with the header")
            });
            if file.header.n_move_rule != rule.n() {
                return Err(file.corrupt(Corruption::OtherNMoveRule {
                    found: file.header.n_move_rule,
                    expected: rule.n(),
                }));
            }
            Ok(file)
        };
        let [wdl_slot, dist_slot] = &e.files;
        let wdl = match wdl_slot.get() {
            Some(f) => f,
            None => {
                let f = load(FileKind::Wdl)?;
                wdl_slot.get_or_init(|| f)
            }
        };
        if kind == FileKind::Wdl {
            return Ok(wdl);
        }
        if let Some(f) = dist_slot.get() {
            return Ok(f);
        }
        let dist = load(FileKind::Distance)?;
        if !companions(&wdl.header, &dist.header, dist.stored_checksum) {
            return Err(dist.corrupt(Corruption::NotCompanion));
        }
        Ok(dist_slot.get_or_init(|| dist))
    }

    /// Is the WDL file of `sector` there, with a valid header and block table?
    pub fn has_sector(&self, sector: Sector) -> bool {
        self.entry(sector)
            .and_then(|e| self.file(e, FileKind::Wdl))
            .is_ok()
    }

    /// Is the distance file of `sector` there, valid, and written with its WDL file?
    pub fn has_distances(&self, sector: Sector) -> bool {
        self.entry(sector)
            .and_then(|e| self.file(e, FileKind::Distance))
            .is_ok()
    }

    /// Largest distance of a win or loss in `sector` (from the distance file's header).
    ///
    /// # Errors
    ///
    /// The [file errors](TableSet#errors) of the distance file of `sector` and of its WDL file,
    /// which opening it opens too.
    pub fn max_plies(&self, sector: Sector) -> Result<u16, TableError> {
        let e = self.entry(sector)?;
        Ok(self.file(e, FileKind::Distance)?.header.max_plies)
    }

    /// The header of the file of `kind` of `sector`.
    ///
    /// # Errors
    ///
    /// The [file errors](TableSet#errors) of the file of `kind` of `sector` (and of its WDL file,
    /// which opening the distance file opens too).
    pub fn header(&self, sector: Sector, kind: FileKind) -> Result<Header, TableError> {
        let e = self.entry(sector)?;
        Ok(self.file(e, kind)?.header.clone())
    }

    /// Read the symbol of `slot` from `file` through the cache.
    #[inline]
    fn symbol(&self, file: &TableFile, slot: u64) -> Result<u16, TableError> {
        let h = &file.header;
        let block = (slot / h.block_slots as u64) as u32;
        let j = (slot % h.block_slots as u64) as usize;
        let key: Key = file.id << 32 | block as u64;
        let wide = h.symbol_bits == 16;
        let wdl = h.kind == FileKind::Wdl;
        self.cache.with_block(
            key,
            || file.decode_block(block),
            |b| {
                if wdl {
                    wdl_symbol(b, j) as u16
                } else {
                    distance_symbol(b, j, wide)
                }
            },
        )
    }

    /// The filter of the positions whose symbols are "don't care" in this sector's files
    /// (`None` if the files were written without them, or no position can be one).
    fn dont_care_filter(&self, e: &SectorEntry, wdl: &TableFile) -> Option<ReachFilter> {
        (wdl.header.flags & FLAG_UNREACHABLE_DONT_CARE != 0)
            .then(|| ReachFilter::new(&self.variant, e.index.sector))
            .flatten()
    }

    /// Are the positions no game reaches "don't care" in the tables of `sector` (so that a
    /// value read at such a slot means nothing)?
    ///
    /// # Errors
    ///
    /// The [file errors](TableSet#errors) of the WDL file of `sector`.
    pub fn unreachable_dont_care(&self, sector: Sector) -> Result<bool, TableError> {
        let e = self.entry(sector)?;
        let wdl = self.file(e, FileKind::Wdl)?;
        Ok(wdl.header.flags & FLAG_UNREACHABLE_DONT_CARE != 0)
    }

    /// Check the slot number and whether it is used.
    #[inline]
    fn used(&self, e: &SectorEntry, slot: u64) -> Result<bool, TableError> {
        let slots = e.index.slots();
        if slot >= slots {
            return Err(TableError::SlotOutOfRange {
                sector: e.index.sector,
                slot,
                slots,
            });
        }
        Ok(is_used(&e.index, slot))
    }

    /// Win, draw or loss of `slot` of `sector`; `None` for an unused slot.
    ///
    /// # Errors
    ///
    /// The [file errors](TableSet#errors) of the WDL file of `sector` (and of the block read);
    /// [`TableError::SlotOutOfRange`] if `slot` is not below the sector's slot count;
    /// [`TableError::Corrupt`] with [`Corruption::BadSymbol`] if the slot holds a symbol that means
    /// nothing. For a file with removal don't-care symbols, the same errors of the sectors its
    /// removals lead to.
    #[inline]
    pub fn wdl(&self, sector: Sector, slot: u64) -> Result<Option<Wdl>, TableError> {
        let e = self.entry(sector)?;
        let file = self.file(e, FileKind::Wdl)?;
        if !self.used(e, slot)? {
            return Ok(None);
        }
        let symbol = self.symbol(file, slot)?;
        let rule = self.rule_in(sector);
        if wdl_of_symbol(symbol as u8, rule).is_none() {
            return Err(file.corrupt(Corruption::BadSymbol { slot, symbol }));
        }
        let symbol = self.resolved(e, file, slot, symbol as u8)?;
        Ok(wdl_of_symbol(symbol, rule))
    }

    /// Does the WDL file store removal don't-care symbols ([`FLAG_REMOVAL_DONT_CARE`])?
    #[inline]
    fn removal_dont_care(wdl: &TableFile) -> bool {
        wdl.header.flags & FLAG_REMOVAL_DONT_CARE != 0
    }

    /// The symbol a reader takes at used `slot` whose stored, valid WDL symbol is `raw`:
    /// `raw` itself, unless the file stores removal don't-care symbols and the best removal
    /// raises it (`super::removal`).
    #[inline]
    fn resolved(
        &self,
        e: &SectorEntry,
        wdl: &TableFile,
        slot: u64,
        raw: u8,
    ) -> Result<u8, TableError> {
        if raw == SYMBOL_WIN || !Self::removal_dont_care(wdl) {
            return Ok(raw);
        }
        let Some((us, them)) = e.index.position(slot) else {
            return Ok(raw);
        };
        Ok(resolve_symbol(
            raw,
            self.best_removal(e.index.sector, us, them)?,
        ))
    }

    /// [`TableSet::resolved`] for the whole-sector reads: an invalid `raw` symbol is returned
    /// as it is (for the caller to report), and a failed look-up is kept in `failed` (the
    /// first one) while `raw` is returned.
    #[inline]
    fn resolved_or_note(
        &self,
        e: &SectorEntry,
        wdl: &TableFile,
        slot: u64,
        raw: u8,
        failed: &mut Option<TableError>,
    ) -> u8 {
        // Plain tables and wins first: the solver reads its dependencies through here.
        if raw == SYMBOL_WIN
            || !Self::removal_dont_care(wdl)
            || wdl_of_symbol(raw, self.rule_in(e.index.sector)).is_none()
        {
            return raw;
        }
        self.resolved(e, wdl, slot, raw).unwrap_or_else(|err| {
            failed.get_or_insert(err);
            raw
        })
    }

    /// Whether a sector's WDL file stores removal don't-care symbols (flag bit 1): its stored
    /// symbols may be lower than the values, which every read of this set resolves.
    ///
    /// # Errors
    ///
    /// The [file errors](TableSet#errors) of the WDL file of `sector`.
    pub fn removal_dont_care_of(&self, sector: Sector) -> Result<bool, TableError> {
        let e = self.entry(sector)?;
        Ok(Self::removal_dont_care(self.file(e, FileKind::Wdl)?))
    }

    /// Value with distance of `slot` of `sector`; `None` for an unused slot. Needs both files
    /// ([`TableError::Missing`] names the `.mbd` file when it is not there).
    ///
    /// # Errors
    ///
    /// As [`TableSet::wdl`], for both files of `sector`: [`TableError::Missing`] names the `.mbd`
    /// file when only the WDL file is there, and a distance beyond the header's maximum is
    /// [`Corruption::BadSymbol`].
    #[inline]
    pub fn value(&self, sector: Sector, slot: u64) -> Result<Option<Value>, TableError> {
        let e = self.entry(sector)?;
        let dist = self.file(e, FileKind::Distance)?;
        let wdl_file = self.file(e, FileKind::Wdl)?;
        if !self.used(e, slot)? {
            return Ok(None);
        }
        let rule = self.rule_in(sector);
        let symbol = self.symbol(wdl_file, slot)? as u8;
        if wdl_of_symbol(symbol, rule).is_none() {
            return Err(wdl_file.corrupt(Corruption::BadSymbol {
                slot,
                symbol: symbol.into(),
            }));
        }
        let symbol = self.resolved(e, wdl_file, slot, symbol)?;
        if symbol == SYMBOL_DRAW {
            return Ok(Some(Value::Draw));
        }
        let d = self.symbol(dist, slot)?;
        match value_of_symbols(symbol, d, rule, dist.header.max_plies) {
            Some(v) => Ok(Some(v)),
            None => Err(dist.corrupt(Corruption::BadSymbol { slot, symbol: d })),
        }
    }

    /// Every value of `sector` in the 16-bit encoding of `value` ([`UNUSED`] at
    /// unused slots), decoded in parallel without going through the cache.
    ///
    /// # Errors
    ///
    /// The [file errors](TableSet#errors) of both files of `sector` (every block is read and
    /// checked); [`TableError::Corrupt`] with [`Corruption::BadSymbol`] for a used slot holding a
    /// symbol that means nothing. For a file with removal don't-care symbols, the errors of reading
    /// the sectors its removals lead to.
    pub fn read_values(&self, sector: Sector) -> Result<Vec<u16>, TableError> {
        self.read_values_resolving(sector, None)
    }

    /// [`TableSet::read_values`], resolving removal don't-care symbols with `best_removal`
    /// (per slot: the best removal's rank, or [`NO_REMOVAL`]) instead of look-ups in the
    /// removals' sectors: for a caller that holds those sectors' values already.
    pub(crate) fn read_values_with_removals(
        &self,
        sector: Sector,
        best_removal: &[i8],
    ) -> Result<Vec<u16>, TableError> {
        self.read_values_resolving(sector, Some(best_removal))
    }

    fn read_values_resolving(
        &self,
        sector: Sector,
        best_removal: Option<&[i8]>,
    ) -> Result<Vec<u16>, TableError> {
        let e = self.entry(sector)?;
        let dist = self.file(e, FileKind::Distance)?;
        let wdl = self.file(e, FileKind::Wdl)?;
        let block_slots = wdl.header.block_slots as usize;
        let wide = dist.header.symbol_bits == 16;
        let max_plies = dist.header.max_plies;
        let rule = self.rule_in(sector);
        let reach = self.dont_care_filter(e, wdl);
        let mut out = vec![0u16; e.index.slots() as usize];
        // The solver reads dependencies at random: back them with huge pages.
        crate::sys::memory::advise_huge_pages(&out);
        out.par_chunks_mut(block_slots)
            .enumerate()
            .try_for_each(|(b, chunk)| {
                let (wb, db) = (wdl.decode_block(b as u32)?, dist.decode_block(b as u32)?);
                let start = (b * block_slots) as u64;
                let mut bad = None;
                let mut failed: Option<TableError> = None;
                let mut unreachable = Vec::new();
                for_each_orbit_run(&e.index, start..start + chunk.len() as u64, |run, all| {
                    if let Some(f) = &reach {
                        unreachable_in_run(&e.index, f, run.clone(), &mut unreachable);
                    }
                    for slot in run.clone() {
                        if unreachable.get((slot - run.start) as usize) == Some(&true) {
                            chunk[(slot - start) as usize] = UNUSED;
                            continue;
                        }
                        let j = (slot - start) as usize;
                        chunk[j] = if !all && e.index.position(slot).is_none() {
                            UNUSED
                        } else {
                            let symbol = wdl_symbol(&wb, j);
                            let d = distance_symbol(&db, j, wide);
                            let symbol = match best_removal {
                                Some(best)
                                    if Self::removal_dont_care(wdl)
                                        && wdl_of_symbol(symbol, rule).is_some() =>
                                {
                                    let r = best.get(slot as usize).copied().unwrap_or(NO_REMOVAL);
                                    resolve_symbol(symbol, (r != NO_REMOVAL).then_some(r))
                                }
                                _ => self.resolved_or_note(e, wdl, slot, symbol, &mut failed),
                            };
                            if wdl_of_symbol(symbol, rule).is_none() {
                                bad.get_or_insert((false, slot, symbol as u16));
                                0
                            } else if let Some(v) = value_of_symbols(symbol, d, rule, max_plies) {
                                v.encode()
                            } else {
                                bad.get_or_insert((true, slot, d));
                                0
                            }
                        };
                    }
                });
                if let Some(err) = failed {
                    return Err(err);
                }
                match bad {
                    None => Ok(()),
                    Some((in_dist, slot, symbol)) => {
                        let file = if in_dist { dist } else { wdl };
                        Err(file.corrupt(Corruption::BadSymbol { slot, symbol }))
                    }
                }
            })?;
        Ok(out)
    }

    /// Win, draw or loss of every slot of `sector` from its WDL file alone, in the 16-bit
    /// encoding of `value` with distance 0 (a win is `Win(0)`, a loss `Loss(0)`;
    /// [`UNUSED`] at unused slots): for checks of a WDL-only directory.
    ///
    /// # Errors
    ///
    /// As [`TableSet::read_values`], for the WDL file alone.
    pub fn read_wdl_values(&self, sector: Sector) -> Result<Vec<u16>, TableError> {
        let e = self.entry(sector)?;
        let wdl = self.file(e, FileKind::Wdl)?;
        let block_slots = wdl.header.block_slots as usize;
        let rule = self.rule_in(sector);
        let reach = self.dont_care_filter(e, wdl);
        let mut out = vec![0u16; e.index.slots() as usize];
        out.par_chunks_mut(block_slots)
            .enumerate()
            .try_for_each(|(b, chunk)| {
                let wb = wdl.decode_block(b as u32)?;
                let start = (b * block_slots) as u64;
                let mut bad = None;
                let mut failed: Option<TableError> = None;
                let mut unreachable = Vec::new();
                for_each_orbit_run(&e.index, start..start + chunk.len() as u64, |run, all| {
                    if let Some(f) = &reach {
                        unreachable_in_run(&e.index, f, run.clone(), &mut unreachable);
                    }
                    for slot in run.clone() {
                        let j = (slot - start) as usize;
                        chunk[j] = if unreachable.get((slot - run.start) as usize) == Some(&true)
                            || (!all && e.index.position(slot).is_none())
                        {
                            UNUSED
                        } else {
                            let symbol = wdl_symbol(&wb, j);
                            let symbol = self.resolved_or_note(e, wdl, slot, symbol, &mut failed);
                            match wdl_of_symbol(symbol, rule) {
                                Some(Wdl::Draw) => Value::Draw.encode(),
                                Some(Wdl::Win) => Value::Win(0).encode(),
                                Some(Wdl::Loss) => Value::Loss(0).encode(),
                                None => {
                                    bad.get_or_insert((slot, symbol as u16));
                                    0
                                }
                            }
                        };
                    }
                });
                if let Some(err) = failed {
                    return Err(err);
                }
                match bad {
                    None => Ok(()),
                    Some((slot, symbol)) => {
                        Err(wdl.corrupt(Corruption::BadSymbol { slot, symbol }))
                    }
                }
            })?;
        Ok(out)
    }

    /// Count the wins, losses and draws of `sector` from its WDL file alone.
    ///
    /// # Errors
    ///
    /// As [`TableSet::read_values`], for the WDL file alone.
    pub fn wdl_counts(&self, sector: Sector) -> Result<WdlCounts, TableError> {
        let e = self.entry(sector)?;
        let wdl = self.file(e, FileKind::Wdl)?;
        let block_slots = wdl.header.block_slots as u64;
        let rule = self.rule_in(sector);
        let reach = self.dont_care_filter(e, wdl);
        (0..wdl.header.blocks)
            .into_par_iter()
            .map(|b| {
                let wb = wdl.decode_block(b)?;
                let start = b as u64 * block_slots;
                let end = start + wdl.header.slots_in_block(b);
                let mut c = WdlCounts::default();
                let mut bad = None;
                let mut failed: Option<TableError> = None;
                let mut unreachable = Vec::new();
                for_each_orbit_run(&e.index, start..end, |run, all| {
                    if let Some(f) = &reach {
                        unreachable_in_run(&e.index, f, run.clone(), &mut unreachable);
                    }
                    for slot in run.clone() {
                        if unreachable.get((slot - run.start) as usize) == Some(&true)
                            || (!all && e.index.position(slot).is_none())
                        {
                            continue;
                        }
                        c.positions += 1;
                        let symbol = wdl_symbol(&wb, (slot - start) as usize);
                        let symbol = self.resolved_or_note(e, wdl, slot, symbol, &mut failed);
                        match symbol {
                            SYMBOL_DRAW => c.draws += 1,
                            SYMBOL_WIN => c.wins += 1,
                            SYMBOL_LOSS => c.losses += 1,
                            SYMBOL_RULE_DRAW if rule.is_active() => {
                                c.draws += 1;
                                c.rule_draws += 1;
                            }
                            s => {
                                bad.get_or_insert((slot, s as u16));
                            }
                        }
                    }
                });
                if let Some(err) = failed {
                    return Err(err);
                }
                match bad {
                    Some((slot, symbol)) => {
                        Err(wdl.corrupt(Corruption::BadSymbol { slot, symbol }))
                    }
                    None => Ok(c),
                }
            })
            .try_reduce(WdlCounts::default, |a, b| {
                Ok(WdlCounts {
                    positions: a.positions + b.positions,
                    wins: a.wins + b.wins,
                    losses: a.losses + b.losses,
                    draws: a.draws + b.draws,
                    rule_draws: a.rule_draws + b.rule_draws,
                })
            })
    }

    /// Verify every checksum of the file at `path` (named `<sector>.mbw` or `<sector>.mbd`):
    /// header, block table, each block (and that it decompresses), the whole file. Reads the
    /// file afresh, not through the maps of this set.
    ///
    /// # Errors
    ///
    /// [`TableError::InvalidInput`] if `path` is not named like a table file;
    /// [`TableError::NoSuchSector`] if its sector does not fit the variant; the [file
    /// errors](TableSet#errors) of the file, [`Corruption::BlockChecksum`] or
    /// [`Corruption::Decompression`] for the first damaged block, and [`Corruption::FileChecksum`]
    /// for a whole-file mismatch.
    pub fn check_file(&self, path: &Path) -> Result<(), TableError> {
        let (sector, kind) = parse_file_name(path)?;
        let e = self.entry(sector)?;
        let expect = Expect {
            variant: &self.variant,
            kind,
            sector,
            slots: e.index.slots(),
            rule: self.rule(),
        };
        TableFile::open(path, sector, &expect, TableAccess::Read)?.check_all()
    }

    /// Verify every checksum of the files of `sector` (the distance file if there is one, and
    /// that it belongs to the WDL file), and that every used slot holds a meaningful symbol.
    ///
    /// # Errors
    ///
    /// The errors of [`TableSet::check_checksums`], then those of reading every symbol
    /// ([`TableSet::read_values`], or [`TableSet::wdl_counts`] without a distance file).
    pub fn check_sector(&self, sector: Sector) -> Result<SectorCheck, TableError> {
        let check = self.check_checksums(sector)?;
        if check.distance_bytes.is_some() {
            self.read_values(sector)?;
        } else {
            self.wdl_counts(sector)?;
        }
        Ok(check)
    }

    /// The checksums of [`TableSet::check_sector`] (every block's and each whole file's, and
    /// that the distance file belongs to the WDL file), without reading the symbols: for a
    /// caller that reads the whole sector next anyway.
    ///
    /// # Errors
    ///
    /// The [file errors](TableSet#errors) of the files of `sector` (a missing distance file is not
    /// an error: [`SectorCheck::distance_bytes`] is `None` then), and [`TableError::Corrupt`] for
    /// the first checksum that does not match: [`Corruption::BlockChecksum`] or
    /// [`Corruption::Decompression`] for a block, [`Corruption::FileChecksum`] for a whole file.
    pub fn check_checksums(&self, sector: Sector) -> Result<SectorCheck, TableError> {
        let e = self.entry(sector)?;
        let wdl = self.file(e, FileKind::Wdl)?;
        wdl.check_all()?;
        let dist = match self.file(e, FileKind::Distance) {
            Ok(d) => Some(d),
            Err(TableError::Missing {
                kind: FileKind::Distance,
                ..
            }) => None,
            Err(err) => return Err(err),
        };
        if let Some(d) = dist {
            d.check_all()?;
        }
        Ok(SectorCheck {
            wdl_bytes: wdl.len,
            distance_bytes: dist.map(|d| d.len),
        })
    }
}

/// Sector and kind of a table file name `<w>-<b>-<wf>-<bf>.mbw|mbd`.
fn parse_file_name(path: &Path) -> Result<(Sector, FileKind), TableError> {
    let bad = || {
        TableError::InvalidInput(format!(
            "{}: not a table file name (<w>-<b>-<wf>-<bf>.mbw or .mbd)",
            path.display()
        ))
    };
    let stem = path.file_stem().and_then(|s| s.to_str()).ok_or_else(bad)?;
    let kind = match path.extension().and_then(|s| s.to_str()) {
        Some(super::WDL_EXTENSION) => FileKind::Wdl,
        Some(super::DISTANCE_EXTENSION) => FileKind::Distance,
        _ => return Err(bad()),
    };
    Ok((stem.parse().map_err(|_| bad())?, kind))
}
