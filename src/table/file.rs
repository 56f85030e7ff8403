//! One open table file: its header and block table checked on open, its blocks read (by
//! positioned reads or a memory map), checksummed and decompressed on demand.

use super::format::{Expect, Header, block_entry, stored_file_checksum};
use super::open::{open_regular, read_prefix};
use super::{Corruption, FileKind, TRAILER_LEN, TableError};
use crate::sector::index::Sector;
use memmap2::Mmap;
use rayon::prelude::*;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fs;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// Source of file ids for cache keys, unique in the process.
static NEXT_FILE_ID: AtomicU64 = AtomicU64::new(1);

/// How a [`TableSet`](super::TableSet) reads its files.
///
/// The default, [`TableAccess::Read`], reads each compressed block with a positioned read when
/// it is needed: a file that is truncated or rewritten while it is open gives an error naming
/// it (or, if the bytes changed, a checksum error), never undefined behaviour.
/// [`TableAccess::MemoryMap`] maps the files instead, which saves a system call per block
/// read; it is only sound while no table file is truncated or modified in place (see
/// [`TableSet::with_memory_map`](super::TableSet::with_memory_map)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableAccess {
    /// Positioned reads of the blocks (safe whatever happens to the files).
    #[default]
    Read,
    /// Memory maps (the caller vouches that files are never changed in place).
    MemoryMap,
}

/// The bytes of an open table file.
enum Bytes {
    /// A memory map of the whole file.
    Mapped(Mmap),
    /// The open file, read with positioned reads.
    File(fs::File),
}

/// One open, header-checked table file.
pub(super) struct TableFile {
    pub(super) path: PathBuf,
    bytes: Bytes,
    /// The file's length when it was opened.
    pub(super) len: u64,
    pub(super) header: Header,
    /// The block table, read and checked when the file was opened.
    table: Box<[u8]>,
    /// The whole-file checksum stored in the trailer.
    pub(super) stored_checksum: u64,
    /// Cache key prefix.
    pub(super) id: u64,
}

impl TableFile {
    /// Open `path` (a regular file only), check its header and its length against `expect`
    /// and the file's metadata, then read (or map) and check its block table.
    pub(super) fn open(
        path: &Path,
        sector: Sector,
        expect: &Expect,
        access: TableAccess,
    ) -> Result<TableFile, TableError> {
        let io = |error: std::io::Error| TableError::Io {
            path: path.to_path_buf(),
            error,
        };
        let corrupt = |problem| TableError::Corrupt {
            path: path.to_path_buf(),
            problem,
        };
        let opened = open_regular(path, || TableError::Missing {
            path: path.to_path_buf(),
            sector,
            kind: expect.kind,
        })?;
        // The header and the length it allows are checked before anything else is read.
        let first = read_prefix(&opened, super::HEADER_LEN).map_err(io)?;
        let header = Header::parse_header(&first, opened.len, expect).map_err(corrupt)?;
        header.check_table_fits(opened.len).map_err(corrupt)?;
        let len = opened.len;
        let bytes = match access {
            TableAccess::Read => Bytes::File(opened.file),
            TableAccess::MemoryMap => {
                // SAFETY: the caller of `TableSet::with_memory_map` guarantees that table
                // files are not truncated or modified in place while they are open (millbase
                // itself only ever replaces them by rename, which leaves open maps intact).
                let map = unsafe { Mmap::map(&opened.file) }.map_err(io)?;
                if map.len() as u64 != len {
                    // Changed since its length was read: not a file written by rename.
                    return Err(corrupt(Corruption::Truncated {
                        len: map.len() as u64,
                        expected: len,
                    }));
                }
                Bytes::Mapped(map)
            }
        };
        let mut file = TableFile {
            path: path.to_path_buf(),
            bytes,
            len,
            header,
            table: Box::default(),
            stored_checksum: 0,
            id: NEXT_FILE_ID.fetch_add(1, Ordering::Relaxed),
        };
        let h = &file.header;
        let table = file
            .read_at(
                h.table_offset,
                (h.blocks_offset() - h.table_offset) as usize,
            )?
            .into_owned();
        file.header
            .check_block_table(&table, len)
            .map_err(corrupt)?;
        file.table = table.into_boxed_slice();
        let trailer = file.read_at(len - TRAILER_LEN as u64, TRAILER_LEN)?;
        file.stored_checksum = stored_file_checksum(&trailer);
        Ok(file)
    }

    /// `len` bytes at `offset` (within the length the file had when opened). A file that
    /// has become shorter since is an error naming it.
    pub(super) fn read_at(&self, offset: u64, len: usize) -> Result<Cow<'_, [u8]>, TableError> {
        match &self.bytes {
            Bytes::Mapped(map) => Ok(Cow::Borrowed(&map[offset as usize..offset as usize + len])),
            Bytes::File(file) => {
                let mut buf = vec![0; len];
                file.read_exact_at(&mut buf, offset).map_err(|error| {
                    if error.kind() == std::io::ErrorKind::UnexpectedEof {
                        self.corrupt(Corruption::Truncated {
                            len: file.metadata().map_or(0, |m| m.len()),
                            expected: self.len,
                        })
                    } else {
                        TableError::Io {
                            path: self.path.clone(),
                            error,
                        }
                    }
                })?;
                Ok(Cow::Owned(buf))
            }
        }
    }

    /// Does the whole-file checksum in the trailer match?
    pub(super) fn file_checksum_ok(&self) -> Result<bool, TableError> {
        let body = self.len - TRAILER_LEN as u64;
        let mut hasher = Xxh3::new();
        const CHUNK: u64 = 4 << 20;
        let mut at = 0;
        while at < body {
            let n = CHUNK.min(body - at);
            hasher.update(&self.read_at(at, n as usize)?);
            at += n;
        }
        Ok(hasher.digest() == self.stored_checksum)
    }

    pub(super) fn corrupt(&self, problem: Corruption) -> TableError {
        TableError::Corrupt {
            path: self.path.clone(),
            problem,
        }
    }

    /// Check the block's checksum and decompress it.
    pub(super) fn decode_block(&self, block: u32) -> Result<Box<[u8]>, TableError> {
        thread_local! {
            static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
                const { RefCell::new(None) };
        }
        let h = &self.header;
        // Offsets and lengths were checked against the file length when it was opened.
        let e = block_entry(&self.table, block);
        let data = self.read_at(e.offset, e.len as usize)?;
        let data = &data[..];
        if xxh3_64(data) != e.checksum {
            return Err(self.corrupt(Corruption::BlockChecksum { block }));
        }
        let expected = h.block_bytes(h.slots_in_block(block));
        let failed = |message: String| self.corrupt(Corruption::Decompression { block, message });
        let out = DECOMPRESSOR.with(|d| {
            let mut d = d.borrow_mut();
            if d.is_none() {
                *d = Some(zstd::bulk::Decompressor::new().map_err(|e| failed(e.to_string()))?);
            }
            let d = d.as_mut().expect("set above");
            d.decompress(data, expected)
                .map_err(|e| failed(e.to_string()))
        })?;
        if out.len() != expected {
            return Err(failed(format!("{} bytes, expected {expected}", out.len())));
        }
        if h.kind == FileKind::Wdl && h.symbol_bits == 8 {
            return self.pack_wdl_bytes(block, &out);
        }
        Ok(out.into_boxed_slice())
    }

    /// A WDL block stored one symbol per byte, packed four to a byte as readers keep every
    /// WDL block; a byte above 3 is a bad symbol.
    fn pack_wdl_bytes(&self, block: u32, symbols: &[u8]) -> Result<Box<[u8]>, TableError> {
        if let Some(j) = symbols.iter().position(|&s| s > 3) {
            let slot = block as u64 * self.header.block_slots as u64 + j as u64;
            return Err(self.corrupt(Corruption::BadSymbol {
                slot,
                symbol: symbols[j] as u16,
            }));
        }
        let mut packed = vec![0u8; symbols.len().div_ceil(4)];
        let whole = symbols.len() / 4;
        for (out, four) in packed.iter_mut().zip(symbols.chunks_exact(4)) {
            // Four symbols of 2 bits at bits 0, 8, 16 and 24 move to bits 0, 2, 4 and 6.
            let v = u32::from_le_bytes([four[0], four[1], four[2], four[3]]);
            *out = (v | v >> 6 | v >> 12 | v >> 18) as u8;
        }
        for (k, &s) in symbols[4 * whole..].iter().enumerate() {
            packed[whole] |= s << (2 * k);
        }
        Ok(packed.into_boxed_slice())
    }

    /// Verify every block (checksum and decompression), then the whole-file checksum.
    pub(super) fn check_all(&self) -> Result<(), TableError> {
        (0..self.header.blocks)
            .into_par_iter()
            .try_for_each(|b| self.decode_block(b).map(drop))?;
        if !self.file_checksum_ok()? {
            return Err(self.corrupt(Corruption::FileChecksum));
        }
        Ok(())
    }
}

/// Symbol of slot `j` of a decompressed WDL block.
#[inline]
pub(super) fn wdl_symbol(block: &[u8], j: usize) -> u8 {
    (block[j / 4] >> (2 * (j % 4))) & 3
}

/// Symbol of slot `j` of a decompressed distance block.
#[inline]
pub(super) fn distance_symbol(block: &[u8], j: usize, wide: bool) -> u16 {
    if wide {
        u16::from_le_bytes([block[2 * j], block[2 * j + 1]])
    } else {
        block[j] as u16
    }
}
