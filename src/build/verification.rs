//! Verifying a table directory, a sector at a time: its files' checksums, then every value
//! re-derived from its successors' values ([`verify_sector`]), with the blame on the
//! right file. A damaged, missing or unreadable file is reported once, naming it, and the
//! sectors whose successors it holds are "not verifiable", counted apart.

use crate::build::verify::{Mismatch, ValueLookup, VerifyOptions, verify_sector};
use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use crate::sector::graph::successor_sectors;
use crate::sector::index::Sector;
use crate::table::{TableDir, TableError, TableSet, Wdl, distance_path, wdl_path};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The options of a [`Verification`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerificationOptions {
    /// Bytes of decompressed blocks to cache for the look-ups that resolve "removal don't
    /// care" symbols (other tables are read whole, without it).
    pub cache_bytes: usize,
    /// The most disagreeing values to report per sector (all are counted).
    pub max_mismatches: usize,
}

/// What [`Verification::sector`] found, in the order found.
#[derive(Debug)]
pub enum Finding {
    /// A file that is missing, not a regular file, unreadable, damaged or of other rules
    /// (reported once per file).
    BadFile {
        /// The file: the one the error names, or the sector's WDL file.
        path: PathBuf,
        /// What is wrong ([`TableError::kind_word`] says it in a word).
        error: TableError,
    },
    /// A sector not verifiable because a file of one of its successors is bad.
    Unverifiable {
        /// The sector.
        sector: Sector,
        /// Its WDL file.
        file: PathBuf,
        /// The successor's bad file (reported before as [`Finding::BadFile`]).
        successor_file: PathBuf,
        /// What is wrong with that file, in a word.
        word: &'static str,
    },
    /// Values of a sector that disagree with what its successors give.
    Disagree {
        /// The sector.
        sector: Sector,
        /// How many values disagree.
        wrong: u64,
        /// The first of them ([`VerificationOptions::max_mismatches`]), each with the file it is
        /// wrong in: the WDL file when the win/draw/loss differs, else the distance file.
        mismatches: Vec<(PathBuf, Mismatch)>,
        /// The files wrong, each once.
        files: Vec<PathBuf>,
    },
}

/// The outcome of a verification so far ([`Verification::report`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Sectors verified (with [`Verification::sector`], whatever was found).
    pub sectors: usize,
    /// Positions whose values were checked.
    pub positions: u64,
    /// The bad files, in the order found, each with what is wrong in a word.
    pub bad_files: Vec<(PathBuf, &'static str)>,
    /// Files with values that disagree with their successors'.
    pub wrong_files: Vec<PathBuf>,
    /// Sectors not verifiable because a successor's file is bad, with that file.
    pub unverifiable: Vec<(Sector, PathBuf)>,
}

impl VerifyReport {
    /// Did every checksum and value agree?
    pub fn is_ok(&self) -> bool {
        self.bad_files.is_empty() && self.wrong_files.is_empty() && self.unverifiable.is_empty()
    }
}

/// Whole sectors loaded for verification.
struct Loaded {
    values: HashMap<Sector, Vec<u16>>,
    wdl_only: bool,
}

impl ValueLookup for Loaded {
    fn values(&self, sector: Sector) -> Option<&[u16]> {
        self.values.get(&sector).map(|v| v.as_slice())
    }

    fn wdl_only(&self) -> bool {
        self.wdl_only
    }
}

/// A verification of the tables of a directory, one sector at a time; the sectors its moves
/// lead to are read as needed and kept while the next sectors need them.
pub struct Verification {
    variant: Variant,
    listing: TableDir,
    tables: TableSet,
    rule: NMoveRule,
    options: VerificationOptions,
    /// Loaded sectors still needed.
    cache: HashMap<Sector, Vec<u16>>,
    /// The words of the bad files, by path.
    bad: BTreeMap<PathBuf, &'static str>,
    /// The bad file of each sector found bad, so that a sector is checked once.
    failed: HashMap<Sector, PathBuf>,
    report: VerifyReport,
}

impl Verification {
    /// Prepare verifying the tables of `variant` listed in `listing`, under the N-move rule of
    /// the directory's first WDL file (every file must have the same: a file of another rule
    /// is reported as damaged, naming it, when it is checked).
    pub fn new(variant: &Variant, listing: TableDir, options: VerificationOptions) -> Verification {
        // Whole reads bypass the block cache; tables with removal don't-care symbols use it.
        let tables = TableSet::new(listing.dir(), *variant).with_cache_bytes(options.cache_bytes);
        let rule = tables.detect_rule().ok().flatten().unwrap_or_default();
        Verification {
            variant: *variant,
            listing,
            tables,
            rule,
            options,
            cache: HashMap::new(),
            bad: BTreeMap::new(),
            failed: HashMap::new(),
            report: VerifyReport::default(),
        }
    }

    /// The N-move rule the tables are verified under.
    pub fn rule(&self) -> NMoveRule {
        self.rule
    }

    /// Does the directory hold WDL files only (then only win/draw/loss is verified)?
    pub fn wdl_only(&self) -> bool {
        self.listing.wdl_only()
    }

    /// The slots of `sector` (the work of verifying it), 0 if it does not fit the variant.
    pub fn slots(&self, sector: Sector) -> u64 {
        self.tables.index(sector).map_or(0, |i| i.slots())
    }

    /// What has been found so far.
    pub fn report(&self) -> &VerifyReport {
        &self.report
    }

    /// Verify `sector`: its own files (present under the rule for missing halves, every
    /// checksum), then every value from its successors' (reading those not read yet);
    /// `advance` is called with the slots done. Returns what was found, in order.
    pub fn sector(&mut self, s: Sector, advance: &(dyn Fn(u64) + Sync)) -> Vec<Finding> {
        let mut found = Vec::new();
        self.report.sectors += 1;
        let dir = self.listing.dir().to_path_buf();
        // The sector's own files: present under the rule, and every checksum (their symbols
        // are checked when the sector is read whole below, or were when it was read as a
        // successor of an earlier sector).
        let own = match self.listing.missing_half(s) {
            Some(e) => Err(e),
            None => self.tables.check_checksums(s).map(drop),
        };
        if let Err(e) = own {
            self.bad_file(e, &dir, s, &mut found);
            return found;
        }
        // The sector and everything its moves lead to; keep only those still needed. A
        // successor's bad file is reported once, and blocks this sector's verification.
        let mut needed: Vec<Sector> = successor_sectors(&self.variant, s);
        if self.variant.repeated_mills_restricted {
            // Positions with a bar are played out over every sector below (verify's
            // `LookupBelow`).
            let mut k = 0;
            while k < needed.len() {
                for t in successor_sectors(&self.variant, needed[k]) {
                    if !needed.contains(&t) && t != s {
                        needed.push(t);
                    }
                }
                k += 1;
            }
        }
        needed.push(s);
        self.cache.retain(|k, _| needed.contains(k));
        let mut blocked = None;
        for &n in &needed {
            if self.cache.contains_key(&n) {
                continue;
            }
            if let Some(path) = self.failed.get(&n) {
                blocked.get_or_insert(path.clone());
                continue;
            }
            match self.load(n) {
                Ok(values) => {
                    self.cache.insert(n, values);
                }
                Err(e) => {
                    self.bad_file(e, &dir, n, &mut found);
                    if n != s {
                        blocked.get_or_insert(self.failed[&n].clone());
                    }
                }
            }
        }
        if self.failed.contains_key(&s) {
            return found;
        }
        if let Some(path) = blocked {
            found.push(Finding::Unverifiable {
                sector: s,
                file: wdl_path(&dir, s),
                successor_file: path.clone(),
                word: self.bad[&path],
            });
            self.report.unverifiable.push((s, path));
            advance(self.slots(s));
            return found;
        }
        let wdl_only = self.wdl_only();
        let lookup = Loaded {
            values: std::mem::take(&mut self.cache),
            wdl_only,
        };
        let verify = VerifyOptions {
            rule: self.rule,
            max_report: self.options.max_mismatches,
            progress: advance,
        };
        let (checked, wrong, mismatches) = verify_sector(&self.variant, s, &lookup, &verify);
        self.cache = lookup.values;
        self.report.positions += checked;
        if wrong > 0 {
            let mut files: Vec<PathBuf> = Vec::new();
            let mismatches: Vec<(PathBuf, Mismatch)> = mismatches
                .into_iter()
                .map(|m| {
                    let file = mismatch_file(&dir, s, &m, wdl_only);
                    if !files.contains(&file) {
                        files.push(file.clone());
                    }
                    (file, m)
                })
                .collect();
            self.report.wrong_files.extend(files.iter().cloned());
            found.push(Finding::Disagree {
                sector: s,
                wrong,
                mismatches,
                files,
            });
        }
        found
    }

    /// Record a bad file of `sector` (reported once per file).
    fn bad_file(&mut self, e: TableError, dir: &Path, sector: Sector, found: &mut Vec<Finding>) {
        let path = blame(&e, dir, sector);
        if !self.bad.contains_key(&path) {
            let word = e.kind_word();
            self.bad.insert(path.clone(), word);
            self.report.bad_files.push((path.clone(), word));
            found.push(Finding::BadFile {
                path: path.clone(),
                error: e,
            });
        }
        self.failed.insert(sector, path);
    }

    /// Load the values of `sector` for the lookup (win/draw/loss only in a WDL-only
    /// directory), under the rule for missing halves.
    fn load(&self, sector: Sector) -> Result<Vec<u16>, TableError> {
        if let Some(e) = self.listing.missing_half(sector) {
            return Err(e);
        }
        if self.listing.wdl_only() {
            self.tables.read_wdl_values(sector)
        } else {
            self.tables.read_values(sector)
        }
    }
}

/// The file an error is about: the one it names, or the WDL file of `sector`.
fn blame(e: &TableError, dir: &Path, sector: Sector) -> PathBuf {
    e.path()
        .map_or_else(|| wdl_path(dir, sector), Path::to_path_buf)
}

/// The file a disagreeing value is wrong in: the WDL file when the win/draw/loss differs,
/// else the distance file.
fn mismatch_file(dir: &Path, sector: Sector, m: &Mismatch, wdl_only: bool) -> PathBuf {
    match m {
        Mismatch::Value {
            stored: Some(stored),
            derived,
            ..
        } if !wdl_only && Wdl::of(*stored) == Wdl::of(*derived) => distance_path(dir, sector),
        _ => wdl_path(dir, sector),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blame_names_the_file_the_error_names_or_the_wdl_file() {
        let dir = Path::new("/d");
        let s = Sector::moving(4, 4);
        let denied = TableError::Io {
            path: distance_path(dir, s),
            error: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        };
        assert_eq!(blame(&denied, dir, s), Path::new("/d/4-4-0-0.mbd"));
        assert_eq!(denied.kind_word(), "unreadable");
        let invalid = TableError::InvalidInput("x".into());
        assert_eq!(blame(&invalid, dir, s), Path::new("/d/4-4-0-0.mbw"));
    }
}
