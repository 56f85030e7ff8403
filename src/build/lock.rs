//! One lock per component in a table directory, so that processes sharing the directory
//! (two `generate` runs, or the workers of a cluster) never solve the same component at
//! once.
//!
//! The lock is an advisory `flock(2)` on the file `<first sector>.lock` in the table
//! directory (e.g. `4-5-0-0.lock` for the component 4-5-0-0 + 5-4-0-0). The holder writes
//! its process id into the file and removes the file before it lets go. The kernel releases
//! the lock of a process that dies, even by `kill -9`: a stale lock file is then taken by
//! the next process and removed by it. A process that opened a lock file that its holder
//! removed meanwhile notices that the path names another file (or none) and tries again, so
//! two processes never hold the same component.
//!
//! The lock files are recorded as held ([`crate::sys::held`]), so that a process stopped by a
//! signal removes them before it exits.

use crate::sector::graph::Component;
use crate::table::TableError;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// A held component lock; dropping it removes the lock file and releases the lock.
#[derive(Debug)]
pub struct ComponentLock {
    file: File,
    path: PathBuf,
}

/// Path of the lock file of `component` (named by its first sector).
pub fn lock_path(dir: &Path, component: &Component) -> PathBuf {
    dir.join(format!("{}.lock", component.first().file_stem()))
}

/// `flock` the file, retrying on interruption; `Ok(false)` if `wait` is false and another
/// process holds it.
fn flock(file: &File, wait: bool) -> io::Result<bool> {
    let op = libc::LOCK_EX | if wait { 0 } else { libc::LOCK_NB };
    loop {
        // SAFETY: flock on a file descriptor we own; no memory is passed.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EWOULDBLOCK) if !wait => return Ok(false),
            _ => return Err(e),
        }
    }
}

impl ComponentLock {
    /// Take the lock of `component` in `dir`, waiting as long as another process holds it.
    ///
    /// # Errors
    ///
    /// [`TableError::Io`] naming the lock file if it cannot be created, opened (a symbolic link
    /// there is not followed), locked or written; [`TableError::NotRegular`] if something other
    /// than a regular file (a named pipe, a directory) stands at its path.
    pub fn acquire(dir: &Path, component: &Component) -> Result<ComponentLock, TableError> {
        Ok(Self::take(dir, component, true)?.expect("a waiting lock is always taken"))
    }

    /// Take the lock if no other process holds it; `None` if one does.
    ///
    /// # Errors
    ///
    /// As [`ComponentLock::acquire`]; a lock held by another process is `Ok(None)`, not an error.
    pub fn try_acquire(
        dir: &Path,
        component: &Component,
    ) -> Result<Option<ComponentLock>, TableError> {
        Self::take(dir, component, false)
    }

    /// The process id written by the current holder of the lock, if it can be read.
    pub fn holder(dir: &Path, component: &Component) -> Option<u32> {
        // Never blocks: not on a named pipe put in its place, nor on a long file.
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(lock_path(dir, component))
            .ok()?;
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut text = String::new();
        file.take(32).read_to_string(&mut text).ok()?;
        text.trim().parse().ok()
    }

    fn take(
        dir: &Path,
        component: &Component,
        wait: bool,
    ) -> Result<Option<ComponentLock>, TableError> {
        let path = lock_path(dir, component);
        let io = |error| TableError::Io {
            path: path.clone(),
            error,
        };
        loop {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .mode(0o644)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)
                .map_err(io)?;
            let meta = file.metadata().map_err(io)?;
            if !meta.is_file() {
                return Err(TableError::NotRegular {
                    path: path.clone(),
                    what: crate::table::open::describe(meta.file_type()),
                });
            }
            if !flock(&file, wait).map_err(io)? {
                return Ok(None);
            }
            // The previous holder removes the file before it unlocks: make sure the path
            // still names the file we locked, or start again with the file it names now.
            let ours = file.metadata().map_err(io)?;
            // Checked and recorded as held under the record's lock: a signal removes the
            // file only if it is ours.
            let same = crate::sys::held::hold_if(&path, || match fs::symlink_metadata(&path) {
                Ok(now) => Ok(now.dev() == ours.dev() && now.ino() == ours.ino()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
                Err(e) => Err(io(e)),
            })?;
            if !same {
                continue;
            }
            let mut written = &file;
            let pid = written
                .set_len(0)
                .and_then(|()| written.rewind())
                .and_then(|_| writeln!(written, "{}", std::process::id()));
            // From here on, dropping the lock removes the file.
            let lock = ComponentLock { file, path };
            pid.map_err(|error| TableError::Io {
                path: lock.path.clone(),
                error,
            })?;
            return Ok(Some(lock));
        }
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ComponentLock {
    fn drop(&mut self) {
        // Remove the file while still holding the lock (see the module documentation);
        // closing the file then releases the lock.
        crate::sys::held::remove_held(&self.path);
        let _ = self.file.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Variant;
    use crate::sector::index::Sector;
    use crate::sys::held::{create_held, forget_held, is_held, remove_held};

    fn std_component(w: u8, b: u8) -> Component {
        Component::of(&Variant::standard(), Sector::moving(w, b))
    }

    #[test]
    fn held_files_are_recorded_while_they_exist() {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("x.tmp");
        create_held(&tmp, || File::create(&tmp)).unwrap();
        assert!(is_held(&tmp));
        forget_held(&tmp);
        assert!(!is_held(&tmp) && tmp.exists());
        create_held(&tmp, || Ok(())).unwrap();
        remove_held(&tmp);
        assert!(!is_held(&tmp) && !tmp.exists());
        // A failed creation records nothing.
        let absent = dir.path().join("no/such/dir");
        assert!(create_held(&absent, || File::create(&absent)).is_err());
        assert!(!is_held(&absent));
        // A lock is recorded once taken, and forgotten with its file when dropped.
        let lock = ComponentLock::acquire(dir.path(), &std_component(3, 4)).unwrap();
        let path = lock.path().to_path_buf();
        assert!(is_held(&path));
        drop(lock);
        assert!(!is_held(&path) && !path.exists());
    }

    #[test]
    fn one_holder_at_a_time_and_no_file_left() {
        let dir = tempfile::tempdir().unwrap();
        // Named by its smallest sector, from either sector.
        let s = std_component(5, 4);
        let held = ComponentLock::try_acquire(dir.path(), &s).unwrap().unwrap();
        assert_eq!(held.path(), dir.path().join("4-5-0-0.lock"));
        assert_eq!(
            ComponentLock::holder(dir.path(), &std_component(4, 5)),
            Some(std::process::id())
        );
        // flock locks belong to the open file: a second open in this process is refused.
        assert!(
            ComponentLock::try_acquire(dir.path(), &s)
                .unwrap()
                .is_none()
        );
        // Another component is independent.
        let other = ComponentLock::try_acquire(dir.path(), &std_component(3, 3)).unwrap();
        assert!(other.is_some());
        // A waiter gets the lock once the holder lets go.
        let waiter = std::thread::spawn({
            let d = dir.path().to_path_buf();
            move || ComponentLock::acquire(&d, &s).unwrap()
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!waiter.is_finished());
        drop(held);
        let second = waiter.join().unwrap();
        assert!(second.path().exists());
        drop(second);
        drop(other);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
