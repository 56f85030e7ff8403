//! Exporting solved tables to other programs' database formats.
//!
//! Layer 7 of the library (docs/DESIGN.md, "Layers"), a program on top: it imports only
//! `table` (it reads the files as they are), `sector` and
//! `game`.
//!
//! One format so far: [`malom`], the `.sec2` / `.secval` files of Malom (Gévay & Danner) as
//! the Sanmill app's perfect-database reader reads them (docs/MALOM.md). An exporter reads
//! millbase tables through [`crate::table::TableSet`] and writes every output file atomically
//! (a temporary name beside it, fsync, rename), so an interrupted export never leaves a
//! partial file under a final name.

pub mod malom;

use crate::sector::index::Sector;
use crate::table::{TableError, temporary_path};
use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why an export cannot be done.
#[derive(Debug)]
pub enum ExportError {
    /// The tables hold values the target format cannot represent (solved under an N-move
    /// rule, without distances, with unreachable positions left unsolved) or belong to a
    /// variant the format does not cover; `path` names the file or directory concerned.
    Unrepresentable {
        /// The table file (or directory) that cannot be exported.
        path: PathBuf,
        /// Why, in plain words.
        reason: String,
    },
    /// A sector that is not part of the target format's database.
    NotInFormat {
        /// The sector.
        sector: Sector,
        /// What the format holds instead.
        reason: String,
    },
    /// A table needed is missing or damaged (the error names the file).
    Table(TableError),
    /// An output file could not be written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the operating system said.
        error: io::Error,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Unrepresentable { path, reason } => {
                write!(f, "{}: cannot be exported: {reason}", path.display())
            }
            ExportError::NotInFormat { sector, reason } => {
                write!(f, "sector {sector} cannot be exported: {reason}")
            }
            ExportError::Table(e) => write!(f, "{e}"),
            ExportError::Io { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

/// The wrapped [`TableError`] or [`io::Error`] is the error's source.
impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExportError::Table(e) => Some(e),
            ExportError::Io { error, .. } => Some(error),
            ExportError::Unrepresentable { .. } | ExportError::NotInFormat { .. } => None,
        }
    }
}

impl From<TableError> for ExportError {
    fn from(e: TableError) -> ExportError {
        ExportError::Table(e)
    }
}

impl ExportError {
    /// Is this the user's doing (input that cannot be exported, missing or damaged tables)
    /// rather than a failure to write the output?
    pub fn is_input_error(&self) -> bool {
        !matches!(self, ExportError::Io { .. })
    }
}

/// A file being written under a temporary name beside its final `path`; [`AtomicFile::commit`]
/// syncs it and renames it into place. Dropped without commit, the temporary file is removed.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    out: Option<BufWriter<fs::File>>,
}

impl AtomicFile {
    /// Start writing `path` (its directory must exist).
    ///
    /// # Errors
    ///
    /// [`ExportError::Io`] naming the temporary file if it cannot be created (the directory is
    /// missing or not writable, or a temporary file of an interrupted export is in the way).
    pub fn create(path: &Path) -> Result<AtomicFile, ExportError> {
        let tmp = temporary_path(path);
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|error| ExportError::Io {
                path: tmp.clone(),
                error,
            })?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            out: Some(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// Append bytes.
    ///
    /// # Errors
    ///
    /// [`ExportError::Io`] naming the temporary file if the bytes cannot be written.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), ExportError> {
        let out = self.out.as_mut().expect("not committed yet");
        out.write_all(bytes).map_err(|error| ExportError::Io {
            path: self.tmp.clone(),
            error,
        })
    }

    /// Flush, fsync, rename over the final path and fsync the directory.
    ///
    /// # Errors
    ///
    /// [`ExportError::Io`] naming the temporary file if it cannot be flushed or synced, or the
    /// final path if the rename fails.
    pub fn commit(mut self) -> Result<(), ExportError> {
        let out = self.out.take().expect("not committed yet");
        let tmp = self.tmp.clone();
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |error| ExportError::Io { path, error }
        };
        let file = out.into_inner().map_err(|e| io(&tmp)(e.into_error()))?;
        file.sync_all().map_err(io(&tmp))?;
        drop(file);
        fs::rename(&tmp, &self.path).map_err(io(&self.path))?;
        if let Some(dir) = self.path.parent()
            && let Ok(d) = fs::File::open(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            })
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.is_some() {
            self.out = None;
            let _ = fs::remove_file(&self.tmp);
        }
    }
}
