//! Compacting a table directory into another one, a sector at a time: the positions no game
//! reaches become "don't care" (smaller files, the same value at every reachable position).
//! Each sector of the output is written under its component lock, so that an interrupted run
//! resumes and two runs never write the same sector.

use crate::build::generate::remove_stale_temporaries;
use crate::build::lock::ComponentLock;
use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use crate::sector::graph::{Component, MoveSectors, is_live};
use crate::sector::index::Sector;
use crate::table::{
    CompactReport, CompactSource, FileKind, TableError, TableSet, WdlLayout, WriteOptions,
    compact_sector_from, sector_status, wdl_path,
};
use std::fmt;
use std::path::{Path, PathBuf};

/// The options of a [`Compaction`].
#[derive(Clone, Debug)]
pub struct CompactOptions {
    /// How the files are written. Its `rule` is ignored: the output keeps the source's rule,
    /// and `unreachable_dont_care` is always set.
    pub write: WriteOptions,
    /// Bytes of the source's sectors resolved from "removal don't care" symbols to keep for
    /// the sectors whose removals lead to them.
    pub cache_bytes: usize,
}

/// What [`Compaction::sector`] did with a sector.
#[derive(Clone, Debug)]
pub enum Compacted {
    /// The output already held the sector compacted with these options: kept as it is.
    Kept,
    /// The sector was compacted: its figures.
    Written(CompactReport),
}

/// Why a [`Compaction`] cannot start.
#[derive(Debug)]
pub enum CompactError {
    /// The source's tables cannot be read (their rule is learnt from the first WDL file).
    Table(TableError),
    /// The output directory holds tables of another N-move rule than the source.
    OtherRule {
        /// The output directory.
        out: PathBuf,
        /// The rule of its tables.
        found: NMoveRule,
        /// The source directory.
        dir: PathBuf,
        /// The rule of the source's tables.
        expected: NMoveRule,
    },
    /// With removal don't-care, the files of `sector` are read back through those of `needs`
    /// in the output, which its removals lead to: `needs` must be compacted first (in this
    /// run, named with it, or in an earlier one).
    RemovalTargetMissing {
        /// The sector to compact.
        sector: Sector,
        /// The sector its removals lead to, not in the output.
        needs: Sector,
        /// The output directory.
        out: PathBuf,
    },
}

impl fmt::Display for CompactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompactError::Table(e) => e.fmt(f),
            CompactError::OtherRule {
                out,
                found,
                dir,
                expected,
            } => write!(
                f,
                "{}: holds tables of another N-move rule ({}) than {} ({})",
                out.display(),
                found.n(),
                dir.display(),
                expected.n()
            ),
            CompactError::RemovalTargetMissing { sector, needs, out } => write!(
                f,
                "sector {sector} needs sector {needs}, which its removals lead to, compacted \
                 in {} first",
                out.display()
            ),
        }
    }
}

impl std::error::Error for CompactError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompactError::Table(e) => Some(e),
            _ => None,
        }
    }
}

impl From<TableError> for CompactError {
    fn from(e: TableError) -> Self {
        CompactError::Table(e)
    }
}

/// A compaction of the tables of one directory into another, one sector at a time
/// ([`Compaction::sector`]); the source is only read.
pub struct Compaction {
    variant: Variant,
    source: CompactSource<'static>,
    out: PathBuf,
    options: WriteOptions,
}

impl Compaction {
    /// Prepare compacting the tables of `variant` in `dir` into `out` (an existing
    /// directory): learns the source's N-move rule, which the output's tables must share,
    /// and with `options.write.removal_dont_care` checks that every sector the removals of
    /// `sectors` lead to is in `out` already or among `sectors`.
    ///
    /// # Errors
    ///
    /// [`CompactError::Table`] with the [file errors](crate::format::TableSet#errors) of the
    /// source's first WDL file; [`CompactError::OtherRule`] if `out` holds tables of another
    /// rule; [`CompactError::RemovalTargetMissing`] for the first sector whose removals lead to
    /// a sector neither compacted nor named.
    pub fn new(
        variant: &Variant,
        dir: &Path,
        out: &Path,
        sectors: &[Sector],
        options: &CompactOptions,
    ) -> Result<Compaction, CompactError> {
        let source = TableSet::new(dir, *variant);
        let rule = source.detect_rule()?.unwrap_or_default();
        let out_tables = TableSet::new(out, *variant).with_cache_bytes(0);
        if let Ok(Some(other)) = out_tables.detect_rule()
            && other != rule
        {
            return Err(CompactError::OtherRule {
                out: out.to_path_buf(),
                found: other,
                dir: dir.to_path_buf(),
                expected: rule,
            });
        }
        // Sectors are read whole; the block cache serves the rare look-up of a removal that
        // leads to a don't-care slot of a removal don't-care source.
        let source = CompactSource::owning(source.with_rule(rule), options.cache_bytes);
        let options = WriteOptions {
            rule,
            unreachable_dont_care: true,
            ..options.write
        };
        if options.removal_dont_care {
            removal_targets_present(variant, sectors, out)?;
        }
        Ok(Compaction {
            variant: *variant,
            source,
            out: out.to_path_buf(),
            options,
        })
    }

    /// The N-move rule of the tables (the source's, kept by the output).
    pub fn rule(&self) -> NMoveRule {
        self.options.rule
    }

    /// Compact `sector` into the output, under its lock (waiting while another process holds
    /// it), after removing the temporary files a killed process left; a sector already
    /// compacted there with the same options is kept.
    ///
    /// # Errors
    ///
    /// [`TableError::Io`] naming the lock file if the lock cannot be taken; the errors of
    /// [`compact_sector`](crate::format::compact_sector) for the source's files (read) and
    /// the output's (written).
    pub fn sector(&self, sector: Sector) -> Result<Compacted, TableError> {
        // One process per sector of the output at a time; a killed one's temporary files go.
        // The lock of the sector's component, the one `generate` takes in the output.
        let component = Component::of(&self.variant, sector);
        let _lock = ComponentLock::acquire(&self.out, &component)?;
        remove_stale_temporaries(&self.out, &[sector]);
        if self.already_compacted(sector) {
            return Ok(Compacted::Kept);
        }
        compact_sector_from(&self.source, &self.out, sector, &self.options).map(Compacted::Written)
    }

    /// Is `sector` already compacted in the output with these options (both files complete,
    /// under the rule, flagged, same levels, block size and, unless `auto`, WDL layout)?
    fn already_compacted(&self, sector: Sector) -> bool {
        let (out, v, options) = (&self.out, &self.variant, &self.options);
        if sector_status(out, v, options.rule, sector).is_err() {
            return false;
        }
        let tables = TableSet::new(out, *v)
            .with_rule(options.rule)
            .with_cache_bytes(0);
        tables.unreachable_dont_care(sector).unwrap_or(false)
            && tables
                .removal_dont_care_of(sector)
                .is_ok_and(|r| r == options.removal_dont_care)
            && tables.header(sector, FileKind::Wdl).is_ok_and(|h| {
                h.level == options.level
                    && h.block_slots == options.block_slots
                    && match options.wdl_layout {
                        WdlLayout::Packed => h.symbol_bits == 2,
                        WdlLayout::Bytes => h.symbol_bits == 8,
                        WdlLayout::Auto => true,
                    }
            })
            && tables
                .header(sector, FileKind::Distance)
                .is_ok_and(|h| h.level == options.distance_level)
    }
}

/// With removal don't-care, each sector's written files are read back through the tables in
/// `out` of the sectors its removals lead to: they must be compacted first, in this run or an
/// earlier one.
fn removal_targets_present(
    v: &Variant,
    sectors: &[Sector],
    out: &Path,
) -> Result<(), CompactError> {
    for &s in sectors {
        let moves = MoveSectors::of(v, s);
        for t in moves.taking() {
            if !is_live(v, t) || sectors.contains(&t) {
                continue;
            }
            if !wdl_path(out, t).exists() {
                return Err(CompactError::RemovalTargetMissing {
                    sector: s,
                    needs: t,
                    out: out.to_path_buf(),
                });
            }
        }
    }
    Ok(())
}
