//! The statistics of a table directory: per sector, the counts of its values and the size of
//! its files.

use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use crate::sector::index::Sector;
use crate::solve::SectorStats;
use crate::table::{TableDir, TableError, TableSet, distance_path, wdl_path};
use std::path::PathBuf;

/// The statistics of the tables of a directory ([`stats`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DirStats {
    /// The N-move rule of the tables (at counter 0 the counts are those of values under it).
    pub rule: NMoveRule,
    /// Per sector, in the order asked for.
    pub sectors: Vec<SectorSummary>,
}

/// The statistics of one sector's tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SectorSummary {
    /// The sector.
    pub sector: Sector,
    /// The counts of its values. Without distance files only `positions`, `wins`, `losses`
    /// and `draws` are known (cursed wins and blessed losses counted as draws).
    pub stats: SectorStats,
    /// Were distances read (false in a WDL-only directory)?
    pub distances: bool,
    /// Size of the WDL file in bits per position (whole file: header, block table,
    /// checksums), `None` if its size cannot be read.
    pub wdl_bits_per_position: Option<f64>,
    /// Size of the distance file in bits per position, `None` if there is none.
    pub distance_bits_per_position: Option<f64>,
}

/// The statistics of `sectors` in the directory of `listing` (tables of `variant`): every
/// value read with its distance, or in a WDL-only directory the counts of its WDL file.
///
/// # Errors
///
/// The [file errors](crate::format::TableSet#errors) of the directory's first WDL file (which
/// gives the rule) and of the files read; [`TableError::Missing`] for a sector without the
/// files the rule for missing halves asks for ([`TableDir::missing_half`]).
pub fn stats(
    variant: &Variant,
    listing: &TableDir,
    sectors: &[Sector],
) -> Result<DirStats, TableError> {
    let dir = listing.dir();
    let tables = TableSet::new(dir, *variant);
    let rule = tables.detect_rule()?.unwrap_or_default();
    let mut rows = Vec::new();
    for &s in sectors {
        // The rule for missing halves: both files, or the WDL file in a WDL-only directory.
        if let Some(e) = listing.missing_half(s) {
            return Err(e);
        }
        // With the distance file: every value; without (a WDL-only directory): the counts.
        let (stats, distances) = if !listing.wdl_only() {
            let values = tables.read_values(s)?;
            (SectorStats::of_under(&values, tables.rule_in(s)), true)
        } else {
            let c = tables.wdl_counts(s)?;
            let stats = SectorStats {
                positions: c.positions,
                wins: c.wins,
                losses: c.losses,
                // Without the DTR files cursed wins and blessed losses are not told apart.
                draws: c.draws,
                ..SectorStats::default()
            };
            (stats, false)
        };
        let bits = |path: PathBuf| {
            std::fs::metadata(path)
                .ok()
                .map(|m| m.len() as f64 * 8.0 / stats.positions.max(1) as f64)
        };
        rows.push(SectorSummary {
            sector: s,
            stats,
            distances,
            wdl_bits_per_position: bits(wdl_path(dir, s)),
            distance_bits_per_position: bits(distance_path(dir, s)),
        });
    }
    Ok(DirStats {
        rule,
        sectors: rows,
    })
}
