//! The table files of a directory, and the one rule for missing halves.
//!
//! A directory is **WDL-only** when it holds at least one `.mbw` file and no `.mbd` file at
//! all: it answers win/draw/loss questions without distances. In any other directory every
//! sector needs both of its files, and a `.mbw` without its `.mbd` (or a `.mbd` without its
//! `.mbw`, an orphan) is an error naming the missing file. docs/FORMAT.md states the rule.
//!
//! A directory also holds the tables of **one variant**: [`TableDir::other_variant`] finds a
//! table of another one, so that `generate` and `compact` refuse to write beside (and over)
//! it and the readers say so at start.

use super::format::{Expect, Header};
use super::open::{open_regular, read_prefix};
use super::{
    Corruption, DISTANCE_EXTENSION, FileKind, HEADER_LEN, TableError, WDL_EXTENSION, table_path,
};
use crate::game::rules::Variant;
use crate::game::value::NMoveRule;
use crate::sector::index::Sector;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// Which files of a sector a directory holds (by name: they may still be damaged, or not
/// regular files).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableFiles {
    /// A `.mbw` entry is there.
    pub wdl: bool,
    /// A `.mbd` entry is there.
    pub distance: bool,
}

/// The table files found in a directory, by sector: what the directory holds by the files'
/// names, before any is opened.
#[derive(Clone, Debug)]
pub struct TableDir {
    dir: PathBuf,
    sectors: BTreeMap<Sector, TableFiles>,
}

/// Check that `dir` is a directory that can be listed, with a one-line error naming it in
/// the user's terms otherwise: "no such directory", "not a directory", or what the system
/// said.
///
/// # Errors
///
/// [`TableError::Io`] naming `dir`, with one of those reasons.
pub fn check_table_dir(dir: &Path) -> Result<(), TableError> {
    let err = |kind: io::ErrorKind, what: &str| TableError::Io {
        path: dir.to_path_buf(),
        error: io::Error::new(kind, what.to_string()),
    };
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(err(io::ErrorKind::NotADirectory, "not a directory")),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err(err(io::ErrorKind::NotFound, "no such directory"))
        }
        Err(e) => Err(TableError::Io {
            path: dir.to_path_buf(),
            error: e,
        }),
    }
}

impl TableDir {
    /// List the entries of `dir` named like table files (`<w>-<b>-<wf>-<bf>.mbw` or `.mbd`);
    /// other entries (temporary files, lock files, anything else) are ignored.
    ///
    /// # Errors
    ///
    /// [`TableError::Io`] naming `dir` if it does not exist, is not a directory or cannot be
    /// listed.
    pub fn scan(dir: &Path) -> Result<TableDir, TableError> {
        check_table_dir(dir)?;
        let io = |error| TableError::Io {
            path: dir.to_path_buf(),
            error,
        };
        let mut sectors: BTreeMap<Sector, TableFiles> = BTreeMap::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let name = entry.map_err(io)?.file_name();
            let Some(name) = name.to_str() else { continue };
            let Some((stem, ext)) = name.rsplit_once('.') else {
                continue;
            };
            let Ok(sector) = stem.parse::<Sector>() else {
                continue;
            };
            // Only the canonical spelling, so that the file is the one readers open.
            if sector.file_stem() != stem {
                continue;
            }
            let files = sectors.entry(sector).or_default();
            match ext {
                WDL_EXTENSION => files.wdl = true,
                DISTANCE_EXTENSION => files.distance = true,
                _ => {}
            }
        }
        sectors.retain(|_, f| f.wdl || f.distance);
        Ok(TableDir {
            dir: dir.to_path_buf(),
            sectors,
        })
    }

    /// The directory listed.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// No table file at all?
    pub fn is_empty(&self) -> bool {
        self.sectors.is_empty()
    }

    /// Every sector with at least one file, in [`Sector`] order.
    pub fn sectors(&self) -> impl Iterator<Item = Sector> + '_ {
        self.sectors.keys().copied()
    }

    /// The files of `sector` the directory holds.
    pub fn files(&self, sector: Sector) -> TableFiles {
        self.sectors.get(&sector).copied().unwrap_or_default()
    }

    /// Is this a WDL-only directory: at least one `.mbw` file and no `.mbd` file at all?
    pub fn wdl_only(&self) -> bool {
        self.sectors.values().any(|f| f.wdl) && !self.sectors.values().any(|f| f.distance)
    }

    /// The error for a missing half of `sector` under the rule: in a WDL-only directory the
    /// WDL file is needed, in any other directory both files are; `None` when the files the
    /// rule asks for are there (they may still be damaged).
    pub fn missing_half(&self, sector: Sector) -> Option<TableError> {
        let files = self.files(sector);
        let missing = if !files.wdl {
            FileKind::Wdl
        } else if !files.distance && !self.wdl_only() {
            FileKind::Distance
        } else {
            return None;
        };
        Some(TableError::Missing {
            path: table_path(&self.dir, sector, missing),
            sector,
            kind: missing,
        })
    }
}

impl TableDir {
    /// The first table file (by sector, the WDL file first) whose header says it belongs to
    /// another variant than `variant`, or to the same name under other rules, as the error
    /// naming the file and both variants ("D/3-3-0-0.mbw: table of variant 'six', expected
    /// 'std'"); `None` if there is none. Only headers are read. Files that cannot be read or
    /// whose header is damaged are left to the commands that use them (which report them, or
    /// solve them again); so are entries that are not regular files, never opened here.
    pub fn other_variant(&self, variant: &Variant) -> Option<TableError> {
        self.other_tables(variant, None)
    }

    /// As [`TableDir::other_variant`], and with `rule` given also the first table solved
    /// under another N-move rule than `rule` ("D/3-3-0-0.mbw: solved under no N-move rule,
    /// the other tables under the N-move rule with N = 10 ..."): a directory holds the tables
    /// of one variant and one rule.
    pub fn other_tables(&self, variant: &Variant, rule: Option<NMoveRule>) -> Option<TableError> {
        self.sectors.iter().find_map(|(&sector, files)| {
            [
                (files.wdl, FileKind::Wdl),
                (files.distance, FileKind::Distance),
            ]
            .into_iter()
            .filter(|&(present, _)| present)
            .find_map(|(_, kind)| {
                foreign(
                    &table_path(&self.dir, sector, kind),
                    variant,
                    rule,
                    kind,
                    sector,
                )
            })
        })
    }
}

/// The error for the file at `path` if its header names another variant or other rules (or,
/// with `rule` given, another N-move rule).
fn foreign(
    path: &Path,
    variant: &Variant,
    rule: Option<NMoveRule>,
    kind: FileKind,
    sector: Sector,
) -> Option<TableError> {
    let opened = open_regular(path, || TableError::InvalidInput(String::new())).ok()?;
    let prefix = read_prefix(&opened, HEADER_LEN).ok()?;
    // The variant and the rules fingerprint are checked before the sector and the size.
    let expect = Expect {
        variant,
        kind,
        sector,
        slots: 0,
        rule,
    };
    match Header::parse_header(&prefix, opened.len, &expect) {
        Err(
            problem @ (Corruption::OtherVariant { .. }
            | Corruption::OtherRules { .. }
            | Corruption::OtherNMoveRule { .. }
            | Corruption::OtherEndgameRule { .. }),
        ) => Some(TableError::Corrupt {
            path: path.to_path_buf(),
            problem,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_of_another_variant_or_other_rules_are_found_by_their_headers() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let six = Variant::by_name("six").unwrap();
        let s33 = Sector::moving(3, 3);
        let options = crate::build::generate::GenerateOptions::default();
        crate::build::generate::generate(&six, d, &[s33], &options).unwrap();
        let t = TableDir::scan(d).unwrap();
        assert!(t.other_variant(&six).is_none());
        let e = t.other_variant(&Variant::standard()).unwrap();
        assert_eq!(e.path(), Some(d.join("3-3-0-0.mbw").as_path()));
        assert!(
            e.to_string()
                .ends_with("3-3-0-0.mbw: table of variant 'six', expected 'std'"),
            "{e}"
        );
        // The same name with other rules (six has no flying).
        let changed = Variant {
            fly_at: Some(3),
            ..six
        };
        let e = t.other_variant(&changed).unwrap();
        assert!(e.to_string().contains("solved with other rules"), "{e}");
        // A damaged WDL header is left to the commands that read it; the distance file
        // beside it still tells.
        let w = d.join("3-3-0-0.mbw");
        let mut bytes = std::fs::read(&w).unwrap();
        bytes[40] ^= 1;
        std::fs::write(&w, &bytes).unwrap();
        let e = TableDir::scan(d)
            .unwrap()
            .other_variant(&Variant::standard());
        assert_eq!(e.unwrap().path(), Some(d.join("3-3-0-0.mbd").as_path()));
        std::fs::remove_file(d.join("3-3-0-0.mbd")).unwrap();
        let t = TableDir::scan(d).unwrap();
        assert!(t.other_variant(&Variant::standard()).is_none());
    }

    #[test]
    fn the_rule_for_missing_halves() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let touch = |name: &str| std::fs::write(d.join(name), b"").unwrap();
        let (s33, s34) = (Sector::moving(3, 3), Sector::moving(3, 4));
        assert!(TableDir::scan(d).unwrap().is_empty());
        for name in [
            "3-3-0-0.mbw",
            "3-4-0-0.mbw",
            "3-3.mbw",
            "4-4-0-0.mbw.1-2.tmp",
            "x.mbd",
        ] {
            touch(name);
        }
        let t = TableDir::scan(d).unwrap();
        assert!(t.wdl_only());
        assert_eq!(t.sectors().collect::<Vec<_>>(), vec![s33, s34]);
        assert!(t.missing_half(s33).is_none());
        // One distance file: every sector needs both halves.
        touch("3-3-0-0.mbd");
        let t = TableDir::scan(d).unwrap();
        assert!(!t.wdl_only());
        assert!(t.missing_half(s33).is_none());
        let e = t.missing_half(s34).unwrap();
        assert_eq!(e.path(), Some(d.join("3-4-0-0.mbd").as_path()));
        // An orphaned distance file.
        std::fs::remove_file(d.join("3-3-0-0.mbw")).unwrap();
        let e = TableDir::scan(d).unwrap().missing_half(s33).unwrap();
        assert_eq!(e.path(), Some(d.join("3-3-0-0.mbw").as_path()));
        // Not a directory, no directory.
        let e = TableDir::scan(&d.join("3-3-0-0.mbd")).unwrap_err();
        assert!(
            e.to_string().ends_with("3-3-0-0.mbd: not a directory"),
            "{e}"
        );
        let e = TableDir::scan(&d.join("nothing")).unwrap_err();
        assert!(e.to_string().ends_with("nothing: no such directory"), "{e}");
    }
}
