//! Table files: one solved sector per file, with a header naming variant, sector and format
//! version, and a checksum. Writes are atomic (temporary file, then rename).
//!
//! Format version 1 stores the 16-bit value of every slot uncompressed; docs/FORMAT.md
//! describes every byte.

use crate::index::{Sector, SectorIndex};
use crate::rules::Variant;
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use xxhash_rust::xxh3::xxh3_64;

/// File magic.
pub const MAGIC: &[u8; 8] = b"MILLBASE";
/// Current format version.
pub const VERSION: u32 = 1;
/// Header length in bytes.
pub const HEADER_LEN: usize = 64;
/// Index scheme 1: orbit of the side to move's stones × rank of the opponent's stones.
pub const INDEX_SCHEME: u32 = 1;
/// Value encoding 1: u16 per slot (see [`crate::value`]).
pub const VALUE_ENCODING: u32 = 1;
/// File name extension.
pub const EXTENSION: &str = "mbt";

/// What is wrong with a table file.
#[derive(Debug)]
pub enum TableError {
    /// The file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The file's bytes are not a valid table for the expected variant and sector.
    Corrupt(PathBuf, String),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            TableError::Corrupt(p, what) => write!(f, "{}: {what}", p.display()),
        }
    }
}

impl std::error::Error for TableError {}

/// Path of the table of `sector` in `dir`.
pub fn table_path(dir: &Path, sector: Sector) -> PathBuf {
    dir.join(format!("{}.{EXTENSION}", sector.file_stem()))
}

fn header(variant: &Variant, sector: Sector, slots: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    let name = variant.name.as_bytes();
    h[16..16 + name.len()].copy_from_slice(name);
    h[32..40].copy_from_slice(&variant.fingerprint().to_le_bytes());
    h[40..44].copy_from_slice(&[sector.w, sector.b, sector.wf, sector.bf]);
    h[44..48].copy_from_slice(&INDEX_SCHEME.to_le_bytes());
    h[48..56].copy_from_slice(&slots.to_le_bytes());
    h[56..60].copy_from_slice(&VALUE_ENCODING.to_le_bytes());
    h
}

/// Write the values of `sector` to `dir` atomically; returns the file's path.
pub fn write_table(
    dir: &Path,
    variant: &Variant,
    sector: Sector,
    values: &[u16],
) -> Result<PathBuf, TableError> {
    let path = table_path(dir, sector);
    let tmp = path.with_extension(format!("{EXTENSION}.tmp"));
    let io = |e| TableError::Io(tmp.clone(), e);
    let mut bytes = Vec::with_capacity(HEADER_LEN + values.len() * 2 + 8);
    bytes.extend_from_slice(&header(variant, sector, values.len() as u64));
    for v in values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let sum = xxh3_64(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    fs::create_dir_all(dir).map_err(|e| TableError::Io(dir.to_path_buf(), e))?;
    let mut f = fs::File::create(&tmp).map_err(io)?;
    f.write_all(&bytes).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    fs::rename(&tmp, &path).map_err(|e| TableError::Io(path.clone(), e))?;
    Ok(path)
}

/// Read and check the table of `sector`: header fields, size and checksum.
pub fn read_table(dir: &Path, variant: &Variant, sector: Sector) -> Result<Vec<u16>, TableError> {
    let path = table_path(dir, sector);
    let bytes = fs::read(&path).map_err(|e| TableError::Io(path.clone(), e))?;
    let slots = SectorIndex::new(variant, sector).slots();
    check_bytes(&bytes, variant, sector, slots).map_err(|what| TableError::Corrupt(path, what))?;
    Ok(bytes[HEADER_LEN..HEADER_LEN + slots as usize * 2]
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect())
}

/// Read only the header of a table and say whether it is complete and for this variant.
pub fn table_is_valid(dir: &Path, variant: &Variant, sector: Sector) -> bool {
    read_table(dir, variant, sector).is_ok()
}

fn check_bytes(bytes: &[u8], variant: &Variant, sector: Sector, slots: u64) -> Result<(), String> {
    if bytes.len() < HEADER_LEN + 8 {
        return Err(format!(
            "truncated: {} bytes, shorter than a header",
            bytes.len()
        ));
    }
    if &bytes[0..8] != MAGIC {
        return Err("not a millbase table (wrong magic)".into());
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    let version = u32_at(8);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this build reads {VERSION}"
        ));
    }
    let name_end = bytes[16..32].iter().position(|&b| b == 0).unwrap_or(16);
    let name = String::from_utf8_lossy(&bytes[16..16 + name_end]);
    if name != variant.name {
        return Err(format!(
            "table of variant '{name}', expected '{}'",
            variant.name
        ));
    }
    if u64_at(32) != variant.fingerprint() {
        return Err("rules fingerprint differs from this build's rules".into());
    }
    let found = Sector::new(bytes[40], bytes[41], bytes[42], bytes[43]);
    if found != sector {
        return Err(format!("holds sector {found}, expected {sector}"));
    }
    if u32_at(44) != INDEX_SCHEME || u32_at(56) != VALUE_ENCODING {
        return Err("unknown index scheme or value encoding".into());
    }
    if u64_at(48) != slots {
        return Err(format!("{} slots, expected {slots}", u64_at(48)));
    }
    let expect_len = HEADER_LEN as u64 + slots * 2 + 8;
    if bytes.len() as u64 != expect_len {
        return Err(format!(
            "truncated or padded: {} bytes, expected {expect_len}",
            bytes.len()
        ));
    }
    let body = &bytes[..bytes.len() - 8];
    let stored = u64_at(bytes.len() - 8);
    if xxh3_64(body) != stored {
        return Err("checksum mismatch (damaged file)".into());
    }
    Ok(())
}
