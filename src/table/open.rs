//! Opening table files without trusting what the path names: only regular files are opened
//! (a named pipe would block every reader, a device such as `/dev/zero` would be read
//! without end), the open itself never blocks, and the length comes from the opened file's
//! own metadata, so that sizes can be checked before anything is read or mapped.

use super::TableError;
use std::fs::{self, File, FileType};
use std::io;
use std::os::unix::fs::{FileExt, FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// A regular file opened for reading, and its length.
pub(crate) struct Opened {
    /// The open file.
    pub file: File,
    /// Its length in bytes, from `fstat` of the open file.
    pub len: u64,
}

/// What a file type is, for messages ("a named pipe").
pub(crate) fn describe(t: FileType) -> &'static str {
    if t.is_fifo() {
        "a named pipe"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a dangling symbolic link"
    } else {
        "a special file"
    }
}

/// Open `path` for reading if it is a regular file (symbolic links to regular files are
/// followed); `missing` makes the error for a path that names nothing. Anything else is
/// [`TableError::NotRegular`] naming the path, checked both before opening (so that a named
/// pipe is never opened) and on the opened file (in case the path changed meanwhile).
pub(crate) fn open_regular(
    path: &Path,
    missing: impl FnOnce() -> TableError,
) -> Result<Opened, TableError> {
    let io = |error: io::Error| TableError::Io {
        path: path.to_path_buf(),
        error,
    };
    let not_regular = |what| TableError::NotRegular {
        path: path.to_path_buf(),
        what,
    };
    match fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(m) => return Err(not_regular(describe(m.file_type()))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // Nothing there, or a symbolic link to nothing.
            return Err(match fs::symlink_metadata(path) {
                Ok(m) if m.file_type().is_symlink() => not_regular(describe(m.file_type())),
                _ => missing(),
            });
        }
        Err(e) => return Err(io(e)),
    }
    // Non-blocking, so that a named pipe put in place since the check cannot block the open;
    // reads of regular files ignore the flag.
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                missing()
            } else {
                io(e)
            }
        })?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular(describe(meta.file_type())));
    }
    Ok(Opened {
        file,
        len: meta.len(),
    })
}

/// The first `min(len, max)` bytes of an opened file of `len` bytes (a file that became
/// shorter meanwhile is an error).
pub(crate) fn read_prefix(opened: &Opened, max: usize) -> io::Result<Vec<u8>> {
    let n = opened.len.min(max as u64) as usize;
    let mut buf = vec![0u8; n];
    opened.file.read_exact_at(&mut buf, 0)?;
    Ok(buf)
}
