//! The files this process holds in table directories — its component locks, the temporary
//! files of its writes, its solver's scratch file until it is unlinked — recorded while they
//! exist, so that a process stopped by a signal removes them before it exits: an interrupted
//! run leaves only finished tables behind.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The files this process made in table directories and removes when a signal stops it.
static HELD: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// The record of held files, locked. The signal handler keeps it locked until the process
/// ends, so that no thread makes (or forgets) a file after the clean-up.
fn held() -> MutexGuard<'static, Option<HashSet<PathBuf>>> {
    HELD.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Make the file at `path` with `create` and record it as held (both under the record's
/// lock, so that a signal never falls between them).
pub(crate) fn create_held<T>(path: &Path, create: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let mut record = held();
    let made = create()?;
    record
        .get_or_insert_with(HashSet::new)
        .insert(path.to_path_buf());
    Ok(made)
}

/// Record the file at `path` as held if `check` (run under the record's lock, so that a
/// signal never falls between the check and the record) says so; returns what it said.
pub(crate) fn hold_if<E>(path: &Path, check: impl FnOnce() -> Result<bool, E>) -> Result<bool, E> {
    let mut record = held();
    let hold = check()?;
    if hold {
        record
            .get_or_insert_with(HashSet::new)
            .insert(path.to_path_buf());
    }
    Ok(hold)
}

/// Whether the file at `path` is recorded as held.
#[cfg(test)]
pub(crate) fn is_held(path: &Path) -> bool {
    held().as_ref().is_some_and(|set| set.contains(path))
}

/// Forget a held file: it was renamed into place or unlinked.
pub(crate) fn forget_held(path: &Path) {
    if let Some(set) = held().as_mut() {
        set.remove(path);
    }
}

/// Remove a held file and forget it.
pub(crate) fn remove_held(path: &Path) {
    let mut record = held();
    let _ = fs::remove_file(path);
    if let Some(set) = record.as_mut() {
        set.remove(path);
    }
}

/// Remove this process's lock and temporary files in table directories (component locks,
/// the temporary files of table writes, a solver's scratch file not yet unlinked), and keep
/// new ones from being recorded: from this call on, any thread of the process that is about
/// to make such a file (or to forget one) waits forever. For a program that ends the process
/// right after, when a signal stops it (the `millbase` program does so on SIGINT, SIGTERM and
/// SIGHUP), so that an interrupted run leaves only finished tables behind; the next run
/// resumes from them. Returns how many files it removed (0 on a second call).
///
/// It locks a mutex and removes files: call it from an ordinary thread that waits for
/// signals (such as signal-hook's `Signals` iterator), not from inside a signal handler.
/// A library leaves signals to its host: millbase installs no handler of its own.
pub fn remove_held_files() -> usize {
    static CLEANED: AtomicBool = AtomicBool::new(false);
    if CLEANED.swap(true, Ordering::SeqCst) {
        return 0;
    }
    let mut record = held();
    let removed = record.take().unwrap_or_default();
    for path in &removed {
        let _ = fs::remove_file(path);
    }
    // Locked until the process ends: no thread makes a file after the clean-up.
    std::mem::forget(record);
    removed.len()
}
