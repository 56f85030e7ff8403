//! `remove_held_files`: what a program's signal handler calls before it ends the process. In
//! a test binary of its own, since the record stays locked after it.

use millbase::sectors::Component;
use millbase::tables::ComponentLock;
use millbase::{Sector, Variant};

#[test]
fn held_files_are_removed_once() {
    let dir = tempfile::tempdir().unwrap();
    let c33 = Component::of(&Variant::standard(), Sector::moving(3, 3));
    let lock = ComponentLock::acquire(dir.path(), &c33).unwrap();
    let path = lock.path().to_path_buf();
    assert!(path.exists());
    assert_eq!(millbase::remove_held_files(), 1);
    assert!(!path.exists());
    assert_eq!(millbase::remove_held_files(), 0);
    // Releasing the lock would wait for the record, locked until the process ends.
    std::mem::forget(lock);
}
