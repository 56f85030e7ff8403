//! The files this process holds in table directories — its component locks, the temporary
//! files of its writes, its solver's scratch file until it is unlinked — recorded while they
//! exist, so that a process stopped by a signal removes them before it exits: an interrupted
//! run leaves only finished tables behind.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
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

/// The conventional name of a signal this process handles.
#[cfg(feature = "cli")]
fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        n => format!("signal {n}"),
    }
}

/// From now on, SIGINT (Ctrl-C), SIGTERM and SIGHUP remove the lock and temporary files
/// this process holds, print one line on standard error saying so and end it with status 128 + the signal's
/// number (130, 143, 129), whatever its threads are doing. SIGXFSZ is ignored, so that a
/// file-size limit (`ulimit -f`) makes writes fail with an error naming the file instead of
/// killing the process. Installed once; later calls do nothing. Only the program (feature
/// `cli`) stops on signals: a library leaves them to its host.
#[cfg(feature = "cli")]
pub(crate) fn stop_cleanly_on_signals() -> io::Result<()> {
    use std::sync::OnceLock;
    static INSTALLED: OnceLock<()> = OnceLock::new();
    if INSTALLED.get().is_some() {
        return Ok(());
    }
    // SAFETY: setting a signal's disposition to "ignore" has no preconditions.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
    let mut signals =
        signal_hook::iterator::Signals::new([libc::SIGINT, libc::SIGTERM, libc::SIGHUP])?;
    std::thread::Builder::new()
        .name("millbase-signals".into())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            // Locked until the end: no thread makes a file after this.
            let mut record = held();
            let removed = record.take().unwrap_or_default();
            for path in &removed {
                let _ = fs::remove_file(path);
            }
            // Below a progress bar, if one is drawn.
            use std::io::IsTerminal;
            let newline = if io::stderr().is_terminal() { "\n" } else { "" };
            eprintln!(
                "{newline}millbase: stopped by {}: its lock and temporary files removed, the \
                 finished tables kept; run the same command again to resume",
                signal_name(signal)
            );
            // Without running destructors or exit handlers while other threads work.
            signal_hook::low_level::exit(128 + signal);
        })?;
    let _ = INSTALLED.set(());
    Ok(())
}
