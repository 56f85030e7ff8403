//! Writing the two files of a sector: symbol streams with "don't care" entries, blocks
//! compressed in parallel, atomic replacement of the files.

use super::format::{BlockEntry, Header};
use super::symbols::{
    distance_symbols, wdl_symbols, wdl_symbols_by_group_context, wdl_symbols_by_slot_context,
};
use super::{
    BLOCK_ENTRY_LEN, COMPRESSION_ZSTD, DEFAULT_BLOCK_SLOTS, DEFAULT_LEVEL, FileKind, HEADER_LEN,
    INDEX_SCHEME, MAX_BLOCK_SLOTS, TRAILER_LEN, TableError, distance_path, for_each_orbit_run,
    symbols_of, wdl_path,
};
use crate::game::rules::Variant;
use crate::game::value::{MAX_PLIES, NMoveRule, UNUSED, Value};
use crate::sector::index::{Sector, SectorIndex};
use crate::sector::reach::ReachFilter;
use rayon::prelude::*;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use xxhash_rust::xxh3::xxh3_64;

/// How WDL symbols are laid out in a block before compression (docs/FORMAT.md, "Block
/// contents").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WdlLayout {
    /// Four 2-bit symbols to a byte (header symbol width 2): the default, and the smaller at
    /// the default level.
    #[default]
    Packed,
    /// One symbol per byte (symbol width 8): four times the input, but zstd's matches need
    /// not start at a multiple of four slots; at level 19 moving-phase files come out about
    /// 9 % smaller, placing-phase ones slightly larger.
    Bytes,
    /// Whichever of the two compresses a sample of the sector's blocks (every 16th) smaller.
    Auto,
}

/// How to write a sector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// zstd compression level of the WDL file (1 to 22; 9 by default: level 19 saves about
    /// 8 % more and takes about 20 times as long).
    pub level: i32,
    /// zstd compression level of the distance file (9 by default).
    pub distance_level: i32,
    /// Layout of the WDL symbols (packed by default).
    pub wdl_layout: WdlLayout,
    /// Slots per block, a positive multiple of 4 (65,536 by default). Smaller blocks make
    /// a cold probe cheaper and compress worse.
    pub block_slots: u32,
    /// The N-move rule the values were solved under (none by default); recorded in both
    /// headers with the endgame N-move rule it gives ([`NMoveRule::endgame_in`]), and it
    /// decides how values map to symbols (under the rule in force in the sector,
    /// [`NMoveRule::with_stones`]).
    pub rule: NMoveRule,
    /// The values of positions no game reaches (`reach`) may be [`UNUSED`]; they
    /// are stored as "don't care" and the headers say so
    /// (`FLAG_UNREACHABLE_DONT_CARE`). Off by default.
    pub unreachable_dont_care: bool,
    /// WDL symbols where a removing move reaches the value may be stored lower, for the
    /// reader to resolve (`FLAG_REMOVAL_DONT_CARE`, docs/FORMAT.md). Finding those positions
    /// needs the tables of the sectors removals lead to, so only [`super::compact_sector`]
    /// honours it; [`write_sector`] refuses it. Off by default.
    pub removal_dont_care: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            level: DEFAULT_LEVEL,
            distance_level: DEFAULT_LEVEL,
            wdl_layout: WdlLayout::Packed,
            block_slots: DEFAULT_BLOCK_SLOTS,
            rule: NMoveRule::NONE,
            unreachable_dont_care: false,
            removal_dont_care: false,
        }
    }
}

/// What [`write_sector`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteReport {
    /// The sector.
    pub sector: Sector,
    /// Positions up to symmetry with a stored value (used slots, less the positions no game
    /// reaches when they are "don't care").
    pub positions: u64,
    /// Largest distance symbol (0 if none): without the N-move rule the largest distance of
    /// a win or loss.
    pub max_plies: u16,
    /// Path of the WDL file.
    pub wdl_path: PathBuf,
    /// Size of the WDL file in bytes.
    pub wdl_bytes: u64,
    /// Path of the distance file.
    pub distance_path: PathBuf,
    /// Size of the distance file in bytes.
    pub distance_bytes: u64,
    /// Time taken (checking, compressing, writing and syncing both files).
    pub elapsed: Duration,
}

impl WriteReport {
    /// Size of the WDL file in bits per position.
    pub fn wdl_bits_per_position(&self) -> f64 {
        self.wdl_bytes as f64 * 8.0 / self.positions.max(1) as f64
    }

    /// Size of the distance file in bits per position.
    pub fn distance_bits_per_position(&self) -> f64 {
        self.distance_bytes as f64 * 8.0 / self.positions.max(1) as f64
    }
}

/// Write the values of `sector` (16-bit encoded, [`UNUSED`] exactly at the index's unused
/// slots) as its `.mbd` and `.mbw` files in `dir`, each atomically (temporary file, fsync,
/// rename, fsync of the directory). The distance file is written first, so a WDL file never
/// stands beside an older distance file of the same writer; a sector is complete when both
/// files are present and valid ([`super::sector_is_complete`]).
///
/// # Errors
///
/// [`TableError::InvalidInput`] for what cannot be written: a block size that is not a positive
/// multiple of 4 (at most 2^24 slots), a zstd level outside 1 to 22, `options.removal_dont_care`
/// (see [`crate::format::compact_sector`]), rules that tables do not follow yet
/// ([`Variant::unsupported_by_tables`]), values of the wrong
/// length, or a value code not valid at its slot ([`UNUSED`] at a used slot or a value at an unused
/// one); [`TableError::NoSuchSector`] if `sector` does not fit the variant; [`TableError::Io`]
/// naming the file if a file cannot be written, synced or renamed into place.
pub fn write_sector(
    dir: &Path,
    variant: &Variant,
    sector: Sector,
    values: &[u16],
    options: &WriteOptions,
) -> Result<WriteReport, TableError> {
    if options.removal_dont_care {
        return Err(TableError::InvalidInput(
            "removal don't-care symbols need the tables removals lead to: write the full \
             tables, then rewrite them with compact_sector (millbase compact --removal-dont-care)"
                .into(),
        ));
    }
    write_sector_lowering(dir, variant, sector, values, None, Fill::Repeat, options)
}

/// How the writer chooses the WDL symbols of "don't care" slots (unused, unreachable, or
/// lowerable by a removal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fill {
    /// Repeat the previous slot's symbol where allowed: fast (generation). The byte layout
    /// always fills by context.
    Repeat,
    /// By context: the allowed choice seen most often after the same context in the block
    /// (compaction; a few per cent smaller at high levels).
    Context,
}

/// [`write_sector`], and with `lowerable` (one bit per slot) also the removal don't-care
/// symbols of `super::removal`: at a slot whose bit is set a removal reaches the value, and
/// the WDL file may store a lower symbol there (chosen by `fill`); both headers then carry
/// [`super::FLAG_REMOVAL_DONT_CARE`]. The distance file is the same either way.
pub(crate) fn write_sector_lowering(
    dir: &Path,
    variant: &Variant,
    sector: Sector,
    values: &[u16],
    lowerable: Option<&[u64]>,
    fill: Fill,
    options: &WriteOptions,
) -> Result<WriteReport, TableError> {
    let start = Instant::now();
    let invalid = |what: String| Err(TableError::InvalidInput(what));
    if options.block_slots == 0
        || !options.block_slots.is_multiple_of(4)
        || options.block_slots > MAX_BLOCK_SLOTS
    {
        return invalid(format!(
            "block size {} slots: must be a positive multiple of 4, at most {MAX_BLOCK_SLOTS}",
            options.block_slots
        ));
    }
    for level in [options.level, options.distance_level] {
        if !(1..=22).contains(&level) {
            return invalid(format!("zstd level {level}: must be 1 to 22"));
        }
    }
    let unsupported = crate::sector::graph::unsupported_in(variant, sector);
    if !unsupported.is_empty() {
        return invalid(format!(
            "tables do not follow the rule(s) {} of {variant} yet",
            unsupported.join(", ")
        ));
    }
    if !sector.fits(variant) {
        return Err(TableError::NoSuchSector {
            sector,
            variant: variant.name,
        });
    }
    let index = SectorIndex::new(variant, sector);
    if values.len() as u64 != index.slots() {
        return invalid(format!(
            "{} values for sector {sector}, which has {} slots",
            values.len(),
            index.slots()
        ));
    }
    // Values map to symbols under the rule in force in the sector (the variant's lower
    // endgame N where a side has three stones on the board); the headers record the tables'
    // rule and that endgame N.
    let in_sector = WriteOptions {
        rule: options.rule.with_stones(variant, [sector.w, sector.b]),
        ..*options
    };
    let (positions, max_plies) = check_values(variant, &index, values, &in_sector)?;
    let blocks = index.slots().div_ceil(options.block_slots as u64);
    let blocks = u32::try_from(blocks)
        .map_err(|_| TableError::InvalidInput(format!("{blocks} blocks: use larger blocks")))?;
    let wide = max_plies > u8::MAX as u16;
    let header = |kind, symbol_bits, max_plies, level| Header {
        kind,
        symbol_bits,
        compression: COMPRESSION_ZSTD,
        level,
        sector,
        index_scheme: INDEX_SCHEME,
        variant: variant.name.to_string(),
        fingerprint: variant.fingerprint(),
        slots: index.slots(),
        block_slots: options.block_slots,
        blocks,
        max_plies,
        n_move_rule: options.rule.n(),
        endgame_n_move_rule: options.rule.endgame_in(variant),
        flags: if options.unreachable_dont_care {
            super::FLAG_UNREACHABLE_DONT_CARE
        } else {
            0
        } | if lowerable.is_some() {
            super::FLAG_REMOVAL_DONT_CARE
        } else {
            0
        },
        table_offset: HEADER_LEN as u64,
        companion: 0,
        table_checksum: 0,
    };
    if lowerable.is_some_and(|set| (set.len() as u64) < index.slots().div_ceil(64)) {
        return invalid(format!(
            "sector {sector}: the set of lowerable slots is shorter than the sector"
        ));
    }
    let (layout, wdl_blocks, dist_blocks) =
        compress_blocks(values, lowerable, fill, &in_sector, wide)?;

    let dist = assemble(
        header(
            FileKind::Distance,
            if wide { 16 } else { 8 },
            max_plies,
            options.distance_level,
        ),
        &dist_blocks,
    );
    let distance_path = distance_path(dir, sector);
    write_atomic(dir, &distance_path, &dist)?;
    let wdl_bits = match layout {
        WdlLayout::Bytes => 8,
        _ => 2,
    };
    let mut wdl_header = header(FileKind::Wdl, wdl_bits, 0, options.level);
    wdl_header.companion = super::format::stored_file_checksum(&dist);
    let wdl = assemble(wdl_header, &wdl_blocks);
    let wdl_path = wdl_path(dir, sector);
    write_atomic(dir, &wdl_path, &wdl)?;
    Ok(WriteReport {
        sector,
        positions,
        max_plies,
        wdl_path,
        wdl_bytes: wdl.len() as u64,
        distance_path,
        distance_bytes: dist.len() as u64,
        elapsed: start.elapsed(),
    })
}

/// Check that unused codes stand exactly at unused slots (and, with
/// [`WriteOptions::unreachable_dont_care`], possibly at positions no game reaches) and every
/// other code is a value; returns the number of values and the largest distance symbol.
fn check_values(
    variant: &Variant,
    index: &SectorIndex,
    values: &[u16],
    options: &WriteOptions,
) -> Result<(u64, u16), TableError> {
    const CHUNK: usize = 1 << 16;
    let rule = options.rule;
    let reach = ReachFilter::new(variant, index.sector).filter(|_| options.unreachable_dont_care);
    values
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let start = (c * CHUNK) as u64;
            let (mut positions, mut max_plies, mut bad) = (0u64, 0u16, None);
            for_each_orbit_run(index, start..start + chunk.len() as u64, |run, all_used| {
                for slot in run {
                    let code = chunk[(slot - start) as usize];
                    let used = all_used || index.position(slot).is_some();
                    let dont_care = |slot| {
                        let (us, them) = index.position_of_used(slot);
                        reach.is_some_and(|f| f.unreachable(us, them))
                    };
                    let ok = match (used, Value::decode(code)) {
                        (false, _) => code == UNUSED,
                        (true, None) => code == UNUSED && dont_care(slot),
                        (true, Some(v)) => {
                            let symbol = symbols_of(v, rule).1;
                            max_plies = max_plies.max(symbol);
                            v.plies().unwrap_or(0) <= MAX_PLIES
                                && (!rule.is_active() || v.plies() != Some(0))
                        }
                    };
                    positions += (used && code != UNUSED) as u64;
                    if !ok && bad.is_none() {
                        bad = Some((slot, code, used));
                    }
                }
            });
            match bad {
                Some((slot, code, used)) => Err(TableError::InvalidInput(format!(
                    "sector {}: {} slot {slot} holds code {code:#06x}",
                    index.sector,
                    if used { "used" } else { "unused" }
                ))),
                None => Ok((positions, max_plies)),
            }
        })
        .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1.max(b.1))))
}

/// A compressed block and its checksum.
struct Compressed {
    bytes: Vec<u8>,
    checksum: u64,
}

/// Every block's WDL symbols in `layout` (not [`WdlLayout::Auto`]), compressed at
/// `options.level`: lowered where `lowerable` allows (filled by `fill`), unless (packed
/// layout) the block's plain symbols compress smaller (a stored true symbol resolves to itself, so readers
/// resolve either). `only`: compress just the blocks it accepts (a sample), `None` for the
/// others.
fn compress_wdl(
    values: &[u16],
    lowerable: Option<&[u64]>,
    fill: Fill,
    layout: WdlLayout,
    options: &WriteOptions,
    only: impl Fn(usize) -> bool + Sync,
) -> Result<Vec<Option<Compressed>>, TableError> {
    let block_slots = options.block_slots as usize;
    values
        .par_chunks(block_slots)
        .enumerate()
        .map_init(
            || zstd::bulk::Compressor::new(options.level),
            |compressor, (b, block)| {
                if !only(b) {
                    return Ok(None);
                }
                let compressor = compressor.as_mut().map_err(compress_error)?;
                let first = (b * block_slots) as u64;
                let symbols = |lowerable| match (layout, fill) {
                    (WdlLayout::Bytes, _) => {
                        wdl_symbols_by_slot_context(block, first, lowerable, options.rule)
                    }
                    (_, Fill::Context) if lowerable.is_some() => {
                        wdl_symbols_by_group_context(block, first, lowerable, options.rule)
                    }
                    _ => wdl_symbols(block, first, lowerable, options.rule),
                };
                let mut wdl = compress(compressor, &symbols(lowerable))?;
                if lowerable.is_some() && layout == WdlLayout::Packed {
                    // Lowering helps most blocks but can break a pattern the compressor
                    // liked: keep the plain block where it is smaller. (Not tried in the
                    // byte layout, where compression costs five times as much; there the
                    // context fill follows the block's statistics, and `Auto` falls back
                    // to the packed layout where the lowered bytes compress worse.)
                    let plain = compress(compressor, &symbols(None))?;
                    if plain.bytes.len() < wdl.bytes.len() {
                        wdl = plain;
                    }
                }
                Ok(Some(wdl))
            },
        )
        .collect()
}

/// One compressed block.
fn compress(
    compressor: &mut zstd::bulk::Compressor<'static>,
    symbols: &[u8],
) -> Result<Compressed, TableError> {
    let bytes = compressor.compress(symbols).map_err(compress_error)?;
    Ok(Compressed {
        checksum: xxh3_64(&bytes),
        bytes,
    })
}

/// The WDL symbol streams of every block in the layout chosen (for [`WdlLayout::Auto`]: by
/// compressing every 16th block both ways), and the distance symbol streams, compressed.
fn compress_blocks(
    values: &[u16],
    lowerable: Option<&[u64]>,
    fill: Fill,
    options: &WriteOptions,
    wide: bool,
) -> Result<(WdlLayout, Vec<Compressed>, Vec<Compressed>), TableError> {
    let (layout, wdl) = match options.wdl_layout {
        WdlLayout::Auto => {
            // The sample's blocks of the layout kept are not compressed again.
            let sample = |b: usize| b.is_multiple_of(16);
            let bytes = compress_wdl(values, lowerable, fill, WdlLayout::Bytes, options, sample)?;
            let packed = compress_wdl(values, lowerable, fill, WdlLayout::Packed, options, sample)?;
            let size = |blocks: &[Option<Compressed>]| -> usize {
                blocks.iter().flatten().map(|c| c.bytes.len()).sum()
            };
            let (layout, sampled) = if size(&bytes) < size(&packed) {
                (WdlLayout::Bytes, bytes)
            } else {
                (WdlLayout::Packed, packed)
            };
            let rest = compress_wdl(values, lowerable, fill, layout, options, |b| !sample(b))?;
            let merged = sampled
                .into_iter()
                .zip(rest)
                .map(|(a, b)| a.or(b))
                .collect();
            (layout, merged)
        }
        layout => (
            layout,
            compress_wdl(values, lowerable, fill, layout, options, |_| true)?,
        ),
    };
    let dist = values
        .par_chunks(options.block_slots as usize)
        .map_init(
            || zstd::bulk::Compressor::new(options.distance_level),
            |compressor, block| {
                let compressor = compressor.as_mut().map_err(compress_error)?;
                compress(compressor, &distance_symbols(block, options.rule, wide))
            },
        )
        .collect::<Result<Vec<_>, TableError>>()?;
    let wdl: Vec<Compressed> = wdl.into_iter().flatten().collect();
    debug_assert_eq!(wdl.len(), dist.len());
    Ok((layout, wdl, dist))
}

fn compress_error(e: impl std::fmt::Display) -> TableError {
    TableError::InvalidInput(format!("zstd compression failed: {e}"))
}

/// The file: header, block table, blocks, trailer.
fn assemble(mut header: Header, blocks: &[Compressed]) -> Vec<u8> {
    let data: usize = blocks.iter().map(|b| b.bytes.len()).sum();
    let table_len = blocks.len() * BLOCK_ENTRY_LEN;
    let mut out = Vec::with_capacity(HEADER_LEN + table_len + data + TRAILER_LEN);
    let mut table = Vec::with_capacity(table_len);
    let mut offset = (HEADER_LEN + table_len) as u64;
    for b in blocks {
        let len = b.bytes.len() as u32;
        table.extend_from_slice(
            &BlockEntry {
                offset,
                len,
                checksum: b.checksum,
            }
            .encode(),
        );
        offset += len as u64;
    }
    header.table_checksum = xxh3_64(&table);
    out.extend_from_slice(&header.encode());
    out.extend_from_slice(&table);
    for b in blocks {
        out.extend_from_slice(&b.bytes);
    }
    let sum = xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Source of the per-write part of temporary names, unique in the process.
static NEXT_TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// A temporary name beside `path` that no other write uses: `<name>.<pid>-<n>.tmp`, with
/// this process's id and a number unique in the process (see [`is_temporary_of`]).
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    let n = NEXT_TEMPORARY.fetch_add(1, Ordering::Relaxed);
    name.push(format!(".{}-{n}.tmp", std::process::id()));
    PathBuf::from(name)
}

/// Is `name` a temporary name of the table file named `file_name` (of any process, or the
/// `<name>.tmp` of earlier versions)?
pub fn is_temporary_of(name: &str, file_name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix(file_name)
        .and_then(|r| r.strip_suffix(".tmp"))
    else {
        return false;
    };
    rest.is_empty()
        || rest.strip_prefix('.').is_some_and(|id| {
            let mut parts = id.split('-');
            let digits = |p: Option<&str>| {
                p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            };
            digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
        })
}

/// Write `bytes` to `path` atomically: a temporary file of a name no other write uses
/// ([`temporary_path`], created exclusively), fsync, rename over `path`, fsync of the
/// directory. The temporary file is removed if anything fails before the rename, or if a
/// signal stops the process meanwhile ([`crate::remove_held_files`]).
fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), TableError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| TableError::Io { path, error }
    };
    fs::create_dir_all(dir).map_err(io(dir))?;
    let tmp = temporary_path(path);
    let result = (|| {
        let mut f = crate::sys::held::create_held(&tmp, || {
            fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)
        })?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if let Err(e) = result {
        crate::sys::held::remove_held(&tmp);
        return Err(io(&tmp)(e));
    }
    if let Err(e) = fs::rename(&tmp, path) {
        crate::sys::held::remove_held(&tmp);
        return Err(io(path)(e));
    }
    crate::sys::held::forget_held(&tmp);
    // Make the rename itself durable (a directory can be opened and synced on Unix).
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_unique_and_recognised() {
        let path = Path::new("/d/3-3-0-0.mbw");
        let (a, b) = (temporary_path(path), temporary_path(path));
        assert_ne!(a, b);
        for t in [&a, &b] {
            let name = t.file_name().unwrap().to_str().unwrap();
            assert!(name.contains(&std::process::id().to_string()), "{name}");
            assert!(is_temporary_of(name, "3-3-0-0.mbw"), "{name}");
            assert!(!is_temporary_of(name, "3-3-0-0.mbd"), "{name}");
        }
        assert!(is_temporary_of("3-3-0-0.mbw.tmp", "3-3-0-0.mbw"));
        for other in [
            "3-3-0-0.mbw",
            "3-3-0-0.mbw.x.tmp",
            "3-3-0-0.mbw.1-.tmp",
            "3-3-0-0.lock",
        ] {
            assert!(!is_temporary_of(other, "3-3-0-0.mbw"), "{other}");
        }
    }
}
