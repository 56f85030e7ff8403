//! Byte layout of format version 2: the header, the block table and the trailer, encoded and
//! validated with explicit little-endian reads. Every offset and length read from a file is
//! bounds-checked here before anything else uses it (docs/FORMAT.md describes every byte).

use super::{
    BLOCK_ENTRY_LEN, COMPRESSION_ZSTD, Corruption, FileKind, HEADER_LEN, INDEX_SCHEME, MAGIC,
    MAX_BLOCK_SLOTS, TRAILER_LEN, VERSION,
};
use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use crate::sector::index::Sector;
use xxhash_rust::xxh3::xxh3_64;

/// Length of the variant name field.
const NAME_LEN: usize = 16;

/// A variant's name as the header stores it: its first 16 bytes (`twelve-mens-morris` is
/// stored as `twelve-mens-morr`; the rules fingerprint tells the rule sets apart).
pub(crate) fn stored_name(name: &str) -> &str {
    let mut n = name.len().min(NAME_LEN);
    while !name.is_char_boundary(n) {
        n -= 1;
    }
    &name[..n]
}

/// The decoded header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// WDL or distance file.
    pub kind: FileKind,
    /// Bits per stored symbol: 2 (WDL), 8 or 16 (distance).
    pub symbol_bits: u8,
    /// Compression method id (`COMPRESSION_ZSTD`).
    pub compression: u8,
    /// Compression level the writer used (informative).
    pub level: i32,
    /// The sector.
    pub sector: Sector,
    /// Index scheme (`INDEX_SCHEME`).
    pub index_scheme: u32,
    /// Name of the rule variant.
    pub variant: String,
    /// [`Variant::fingerprint`] of the rules the table was solved with.
    pub fingerprint: u64,
    /// Slots of the sector (used and unused).
    pub slots: u64,
    /// Slots per block (a positive multiple of 4).
    pub block_slots: u32,
    /// Number of blocks: `ceil(slots / block_slots)`.
    pub blocks: u32,
    /// Distance file: the largest distance symbol (0 for WDL files): without the N-move
    /// rule the largest distance of a win or loss.
    pub max_plies: u16,
    /// The N-move rule the values were solved under ([`crate::game::value::NMoveRule`]; 0: none).
    pub n_move_rule: u16,
    /// The endgame N-move rule the tables follow under that rule
    /// ([`crate::game::value::NMoveRule::endgame_in`]: the variant's `endgame-n-move-rule`,
    /// in force while either side has exactly three stones on the board, when it is below
    /// `n_move_rule`); 0: none. Every file of a directory has the same.
    pub endgame_n_move_rule: u16,
    /// Flag bits (`FLAG_UNREACHABLE_DONT_CARE`).
    pub flags: u8,
    /// Offset of the block table.
    pub table_offset: u64,
    /// WDL file: whole-file checksum of the distance file written with it (0 if none).
    pub companion: u64,
    /// xxh3-64 of the block table.
    pub table_checksum: u64,
}

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().expect("8 bytes"))
}

impl Header {
    /// Bytes of symbols a block of `n` slots decompresses to.
    pub fn block_bytes(&self, n: u64) -> usize {
        match self.symbol_bits {
            2 => n.div_ceil(4) as usize,
            bits => (n * (bits as u64 / 8)) as usize,
        }
    }

    /// Slots in block `block` (the last block may be short).
    pub fn slots_in_block(&self, block: u32) -> u64 {
        let start = block as u64 * self.block_slots as u64;
        (self.slots - start).min(self.block_slots as u64)
    }

    /// Offset of the first block (the end of the block table).
    pub fn blocks_offset(&self) -> u64 {
        self.table_offset + self.blocks as u64 * BLOCK_ENTRY_LEN as u64
    }

    /// The 128 header bytes, checksum included.
    pub(crate) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
        h[16] = self.kind.byte();
        h[17] = self.symbol_bits;
        h[18] = self.compression;
        h[19] = self.flags;
        h[20..24].copy_from_slice(&self.level.to_le_bytes());
        h[24..28].copy_from_slice(&[self.sector.w, self.sector.b, self.sector.wf, self.sector.bf]);
        h[28..32].copy_from_slice(&self.index_scheme.to_le_bytes());
        let name = self.variant.as_bytes();
        let n = name.len().min(NAME_LEN);
        h[32..32 + n].copy_from_slice(&name[..n]);
        h[48..56].copy_from_slice(&self.fingerprint.to_le_bytes());
        h[56..64].copy_from_slice(&self.slots.to_le_bytes());
        h[64..66].copy_from_slice(&self.endgame_n_move_rule.to_le_bytes());
        // 66..72: reserved, 0.
        h[72..76].copy_from_slice(&self.block_slots.to_le_bytes());
        h[76..80].copy_from_slice(&self.blocks.to_le_bytes());
        // 80..92: dictionary offset and length, 0 (no dictionary).
        h[92..94].copy_from_slice(&self.max_plies.to_le_bytes());
        h[94..96].copy_from_slice(&self.n_move_rule.to_le_bytes());
        h[96..104].copy_from_slice(&self.table_offset.to_le_bytes());
        h[104..112].copy_from_slice(&self.companion.to_le_bytes());
        h[112..120].copy_from_slice(&self.table_checksum.to_le_bytes());
        let sum = xxh3_64(&h[..HEADER_LEN - 8]);
        h[HEADER_LEN - 8..].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// Decode and check the header from the first bytes of a file of `len` bytes (`file`
    /// holds its first [`HEADER_LEN`] bytes, or all of a shorter file): magic, version, header
    /// checksum, field ranges, variant, rules fingerprint, kind, sector and slot count against
    /// the expectation, and `len` against the smallest and largest length the header allows.
    /// Nothing past the header is read, so a reader can check the size before mapping.
    pub(crate) fn parse_header(
        file: &[u8],
        len: u64,
        expect: &Expect,
    ) -> Result<Header, Corruption> {
        if file.len() < 12 {
            return Err(truncated(len, HEADER_LEN as u64));
        }
        if &file[0..8] != MAGIC {
            return Err(Corruption::WrongMagic);
        }
        let version = u32_at(file, 8);
        if version != VERSION {
            return Err(Corruption::Version(version));
        }
        if file.len() < HEADER_LEN {
            return Err(truncated(len, HEADER_LEN as u64));
        }
        let h = &file[..HEADER_LEN];
        if xxh3_64(&h[..HEADER_LEN - 8]) != u64_at(h, HEADER_LEN - 8) {
            return Err(Corruption::HeaderChecksum);
        }
        let bad = |what: String| Err(Corruption::BadHeader(what));
        if u32_at(h, 12) != HEADER_LEN as u32 {
            return bad(format!(
                "header length {}, expected {HEADER_LEN}",
                u32_at(h, 12)
            ));
        }
        let Some(kind) = FileKind::from_byte(h[16]) else {
            return bad(format!("unknown file kind byte {:#04x}", h[16]));
        };
        let name_end = h[32..48].iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
        let header = Header {
            kind,
            symbol_bits: h[17],
            compression: h[18],
            level: u32_at(h, 20) as i32,
            sector: Sector::new(h[24], h[25], h[26], h[27]),
            index_scheme: u32_at(h, 28),
            variant: String::from_utf8_lossy(&h[32..32 + name_end]).into_owned(),
            fingerprint: u64_at(h, 48),
            slots: u64_at(h, 56),
            block_slots: u32_at(h, 72),
            blocks: u32_at(h, 76),
            max_plies: u16_at(h, 92),
            n_move_rule: u16_at(h, 94),
            endgame_n_move_rule: u16_at(h, 64),
            flags: h[19],
            table_offset: u64_at(h, 96),
            companion: u64_at(h, 104),
            table_checksum: u64_at(h, 112),
        };
        let reserved_zero = h[19] & !super::KNOWN_FLAGS == 0
            && h[32 + name_end..48].iter().all(|&b| b == 0)
            && h[66..72].iter().all(|&b| b == 0);
        if !reserved_zero {
            return bad("reserved bytes are not zero".into());
        }
        if u64_at(h, 80) != 0 || u32_at(h, 88) != 0 {
            return bad("has a compression dictionary, which this version does not use".into());
        }
        // The expected variant, rules and sector first: the most useful message for a file in
        // the wrong place.
        if header.variant != stored_name(expect.variant.name) {
            return Err(Corruption::OtherVariant {
                found: header.variant,
                expected: expect.variant.name.to_string(),
            });
        }
        if header.fingerprint != expect.variant.fingerprint() {
            return Err(Corruption::OtherRules {
                found: header.fingerprint,
                expected: expect.variant.fingerprint(),
                differences: expect
                    .variant
                    .differences_to(header.fingerprint)
                    .unwrap_or_default(),
            });
        }
        if let Some(rule) = expect.rule
            && header.n_move_rule != rule.n()
        {
            return Err(Corruption::OtherNMoveRule {
                found: header.n_move_rule,
                expected: rule.n(),
            });
        }
        // The endgame N-move rule the variant asked for gives under the file's N-move rule.
        if let Some(rule) = NMoveRule::new(header.n_move_rule) {
            let expected = rule.endgame_in(expect.variant);
            if header.endgame_n_move_rule != expected {
                return Err(Corruption::OtherEndgameRule {
                    found: header.endgame_n_move_rule,
                    expected,
                    n: rule.n(),
                });
            }
        }
        if header.kind != expect.kind {
            return bad(format!(
                "a {} file where a {} file was expected",
                header.kind, expect.kind
            ));
        }
        if header.sector != expect.sector {
            return Err(Corruption::OtherSector {
                found: header.sector,
                expected: expect.sector,
            });
        }
        if header.slots != expect.slots {
            return Err(Corruption::SlotCount {
                found: header.slots,
                expected: expect.slots,
            });
        }
        header.check_fields()?;
        header.check_length(len)?;
        Ok(header)
    }

    /// Field ranges that do not depend on the rest of the file.
    fn check_fields(&self) -> Result<(), Corruption> {
        let bad = |what: String| Err(Corruption::BadHeader(what));
        if self.index_scheme != INDEX_SCHEME {
            return bad(format!("unknown index scheme {}", self.index_scheme));
        }
        if self.compression != COMPRESSION_ZSTD {
            return bad(format!("unknown compression id {}", self.compression));
        }
        let bits_ok = match self.kind {
            FileKind::Wdl => matches!(self.symbol_bits, 2 | 8),
            FileKind::Distance => matches!(self.symbol_bits, 8 | 16),
        };
        if !bits_ok {
            return bad(format!(
                "symbol width {} bits in a {} file",
                self.symbol_bits, self.kind
            ));
        }
        if self.n_move_rule > crate::game::value::NMoveRule::MAX_N {
            return bad(format!(
                "N-move rule with N = {} (at most {})",
                self.n_move_rule,
                crate::game::value::NMoveRule::MAX_N
            ));
        }
        if self.kind == FileKind::Wdl && self.max_plies != 0 {
            return bad("WDL header with a largest distance".into());
        }
        if self.kind == FileKind::Distance {
            if self.companion != 0 {
                return bad("distance header with a companion checksum".into());
            }
            if self.max_plies > crate::game::value::MAX_PLIES
                || (self.symbol_bits == 8) != (self.max_plies <= u8::MAX as u16)
            {
                return bad(format!(
                    "largest distance {} with {}-bit symbols",
                    self.max_plies, self.symbol_bits
                ));
            }
        }
        if self.block_slots == 0
            || !self.block_slots.is_multiple_of(4)
            || self.block_slots > MAX_BLOCK_SLOTS
        {
            return bad(format!(
                "block size {} slots (a positive multiple of 4, at most {MAX_BLOCK_SLOTS})",
                self.block_slots
            ));
        }
        if self.blocks as u64 != self.slots.div_ceil(self.block_slots as u64) {
            return bad(format!(
                "{} blocks of {} slots for {} slots",
                self.blocks, self.block_slots, self.slots
            ));
        }
        if self.table_offset != HEADER_LEN as u64 {
            return Err(Corruption::BadBlockTable(format!(
                "block table at offset {}, expected {HEADER_LEN}",
                self.table_offset
            )));
        }
        Ok(())
    }

    /// The largest compressed length of block `block`: see `max_compressed_len`.
    pub fn max_block_len(&self, block: u32) -> u64 {
        max_compressed_len(self.block_bytes(self.slots_in_block(block)) as u64)
    }

    /// The file length must lie between the header, block table and trailer alone and that
    /// plus the largest compressed length of every block; checked from the file's metadata
    /// before anything else is read or mapped.
    fn check_length(&self, len: u64) -> Result<(), Corruption> {
        let min = self.blocks_offset() + TRAILER_LEN as u64;
        if len < min {
            return Err(truncated(len, min));
        }
        let max = match self.blocks {
            0 => min,
            n => {
                let full = self.max_block_len(0);
                min + (n as u64 - 1) * full + self.max_block_len(n - 1)
            }
        };
        if len > max {
            return Err(Corruption::TooLong { len, max });
        }
        Ok(())
    }

    /// Do the header, the block table and the trailer fit in a file of `len` bytes?
    pub(crate) fn check_table_fits(&self, len: u64) -> Result<(), Corruption> {
        let end = self.blocks_offset() + TRAILER_LEN as u64;
        if end > len {
            return Err(truncated(len, end));
        }
        Ok(())
    }

    /// The block table: within the file, matching its checksum, blocks contiguous after it,
    /// each no longer than [`Header::max_block_len`], the trailer right after the last block.
    /// `table` holds the table's bytes as read from a file of `len` bytes (the caller has
    /// checked [`Header::check_table_fits`] before reading them).
    pub(crate) fn check_block_table(&self, table: &[u8], len: u64) -> Result<(), Corruption> {
        self.check_table_fits(len)?;
        let table_end = self.blocks_offset();
        if xxh3_64(table) != self.table_checksum {
            return Err(Corruption::BadBlockTable(
                "block table checksum mismatch".into(),
            ));
        }
        let mut next = table_end;
        for b in 0..self.blocks {
            let e = block_entry(table, b);
            if e.offset != next {
                return Err(Corruption::BadBlockTable(format!(
                    "block {b} at offset {}, expected {next}",
                    e.offset
                )));
            }
            if e.len as u64 > self.max_block_len(b) {
                return Err(Corruption::BadBlockTable(format!(
                    "block {b} of {} compressed bytes, more than the {} a block of its size \
                     may take",
                    e.len,
                    self.max_block_len(b)
                )));
            }
            next = next.saturating_add(e.len as u64);
        }
        let expected = next.saturating_add(TRAILER_LEN as u64);
        if expected != len {
            return Err(truncated(len, expected));
        }
        Ok(())
    }
}

/// The largest compressed length of a block that decompresses to `bytes` bytes:
/// `bytes + bytes / 64 + 1024`, more than any zstd frame of that content needs (zstd's own
/// bound is `bytes + bytes / 256` plus a few dozen bytes).
pub fn max_compressed_len(bytes: u64) -> u64 {
    bytes + bytes / 64 + 1024
}

fn truncated(len: u64, expected: u64) -> Corruption {
    Corruption::Truncated { len, expected }
}

/// What a file must be: its variant, kind, sector and slot count.
pub(crate) struct Expect<'a> {
    /// The variant (name and rules fingerprint).
    pub variant: &'a Variant,
    /// WDL or distance.
    pub kind: FileKind,
    /// The sector.
    pub sector: Sector,
    /// Its slot count.
    pub slots: u64,
    /// The N-move rule the tables must have been solved under (`None`: any).
    pub rule: Option<crate::game::value::NMoveRule>,
}

/// One entry of the block table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockEntry {
    /// Offset of the compressed block from the start of the file.
    pub offset: u64,
    /// Compressed length in bytes.
    pub len: u32,
    /// xxh3-64 of the compressed bytes.
    pub checksum: u64,
}

impl BlockEntry {
    /// The 20 bytes of the entry.
    pub(crate) fn encode(&self) -> [u8; BLOCK_ENTRY_LEN] {
        let mut e = [0u8; BLOCK_ENTRY_LEN];
        e[0..8].copy_from_slice(&self.offset.to_le_bytes());
        e[8..12].copy_from_slice(&self.len.to_le_bytes());
        e[12..20].copy_from_slice(&self.checksum.to_le_bytes());
        e
    }
}

/// Entry `block` of a block table (`table` holds at least `block + 1` entries).
pub(crate) fn block_entry(table: &[u8], block: u32) -> BlockEntry {
    let o = block as usize * BLOCK_ENTRY_LEN;
    BlockEntry {
        offset: u64_at(table, o),
        len: u32_at(table, o + 8),
        checksum: u64_at(table, o + 12),
    }
}

/// The whole-file checksum stored in the trailer (the file is at least a trailer long).
pub(crate) fn stored_file_checksum(file: &[u8]) -> u64 {
    u64_at(file, file.len() - TRAILER_LEN)
}
