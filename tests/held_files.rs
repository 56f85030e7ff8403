//! `remove_held_files`: what a program's signal handler calls before it ends the process. In
//! a test binary of its own, since the record stays locked after it.

use millbase::Sector;
use millbase::tables::ComponentLock;

#[test]
fn held_files_are_removed_once() {
    let dir = tempfile::tempdir().unwrap();
    let lock = ComponentLock::acquire(dir.path(), Sector::moving(3, 3)).unwrap();
    let path = lock.path().to_path_buf();
    assert!(path.exists());
    assert_eq!(millbase::remove_held_files(), 1);
    assert!(!path.exists());
    assert_eq!(millbase::remove_held_files(), 0);
    // Releasing the lock would wait for the record, locked until the process ends.
    std::mem::forget(lock);
}
