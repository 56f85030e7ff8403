//! Whether a sector's files in a directory are complete: what a finished sector means to
//! the generator and to resuming runs.

use super::file::{TableAccess, TableFile};
use super::format::{Expect, Header};
use super::{Corruption, FileKind, TableError, table_path};
use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use crate::sector::index::{Sector, SectorIndex};
use std::path::Path;

/// Are both files of `sector` in `dir` present and valid: headers, block tables, whole-file
/// checksums, and the distance file written together with the WDL file? This is what a
/// finished sector means to the generator. Reads both files afresh (no maps are kept).
/// Tables solved under an N-move rule are not complete here: see `sector_is_complete_under`.
pub fn sector_is_complete(dir: &Path, variant: &Variant, sector: Sector) -> bool {
    sector_is_complete_under(dir, variant, NMoveRule::NONE, sector)
}

/// [`sector_is_complete`] for tables solved under `rule`.
pub fn sector_is_complete_under(
    dir: &Path,
    variant: &Variant,
    rule: NMoveRule,
    sector: Sector,
) -> bool {
    sector_status(dir, variant, rule, sector).is_ok()
}

/// Why `sector` in `dir` is not complete under `rule` (`sector_is_complete_under`), naming
/// the file: the first of its two files (WDL, then distance) that is missing, not a regular
/// file, unreadable, damaged or of another rule, or the distance file when it was not
/// written with the WDL file.
///
/// # Errors
///
/// The first problem found: [`TableError::NoSuchSector`] if `sector` does not fit the variant;
/// [`TableError::Missing`], [`TableError::NotRegular`] or [`TableError::Io`] for a file that is not
/// there, not a regular file or unreadable; [`TableError::Corrupt`] for a file that is damaged (any
/// checksum), of another variant, sector or N-move rule than `rule`
/// ([`Corruption::OtherNMoveRule`]), or a distance file not written with its WDL file
/// ([`Corruption::NotCompanion`]).
pub fn sector_status(
    dir: &Path,
    variant: &Variant,
    rule: NMoveRule,
    sector: Sector,
) -> Result<(), TableError> {
    if !sector.fits(variant) {
        return Err(TableError::NoSuchSector {
            sector,
            variant: variant.name,
        });
    }
    let slots = SectorIndex::new(variant, sector).slots();
    let open = |kind| {
        let expect = Expect {
            variant,
            kind,
            sector,
            slots,
            rule: Some(rule),
        };
        let file = TableFile::open(
            &table_path(dir, sector, kind),
            sector,
            &expect,
            TableAccess::Read,
        )?;
        if !file.file_checksum_ok()? {
            return Err(file.corrupt(Corruption::FileChecksum));
        }
        Ok(file)
    };
    let wdl = open(FileKind::Wdl)?;
    let dist = open(FileKind::Distance)?;
    if !companions(&wdl.header, &dist.header, dist.stored_checksum) {
        return Err(dist.corrupt(Corruption::NotCompanion));
    }
    Ok(())
}

/// Was the distance file with this header and whole-file checksum written with this WDL
/// file?
pub(super) fn companions(wdl: &Header, dist: &Header, dist_checksum: u64) -> bool {
    wdl.companion == dist_checksum && wdl.block_slots == dist.block_slots
}
