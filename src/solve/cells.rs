//! The solver's working cells (one 32-bit atomic per slot), in memory or, when a component
//! does not fit the memory allowed, in a memory-mapped scratch file that the kernel pages to
//! disk as needed.

use std::ops::Deref;
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Zeroed cells of one sector.
pub(crate) enum Cells {
    /// Anonymous memory (transparent huge pages where the kernel allows).
    Heap(Vec<AtomicU32>),
    /// A shared mapping of a scratch file, unlinked as soon as it is mapped: its disk space
    /// is freed when the mapping goes, however the process ends.
    Mapped(memmap2::MmapMut, usize),
}

impl Cells {
    /// `len` zeroed cells in memory.
    pub(crate) fn in_memory(len: usize) -> Cells {
        // `vec![0; n]` takes fresh zeroed pages from the system without touching them, so
        // the advice applies before the first write.
        let zeros = vec![0u32; len];
        crate::memory::advise_huge_pages(&zeros);
        let mut zeros = std::mem::ManuallyDrop::new(zeros);
        // SAFETY: AtomicU32 has the same size, alignment and bit validity as u32; the buffer
        // is handed over whole (pointer, length, capacity) and never used through `zeros`.
        Cells::Heap(unsafe {
            Vec::from_raw_parts(zeros.as_mut_ptr() as *mut AtomicU32, len, zeros.capacity())
        })
    }

    /// `len` zeroed cells in a scratch file in `dir` (a name of its own per process and
    /// call, so that workers sharing `dir` never meet), mapped and unlinked at once.
    pub(crate) fn in_file(dir: &Path, len: usize) -> std::io::Result<Cells> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            ".millbase-cells-{}-{}.scratch",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = dir.join(name);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        let mapped = (|| {
            // A sparse file: it reads as zeros, and takes disk space only where written.
            file.set_len((len * 4).max(1) as u64)?;
            // SAFETY: the file is ours alone (created above under a unique name, unlinked
            // below); nothing else maps or changes it.
            unsafe { memmap2::MmapMut::map_mut(&file) }
        })();
        let removed = std::fs::remove_file(&path);
        let map = mapped?;
        removed?;
        Ok(Cells::Mapped(map, len))
    }
}

impl Deref for Cells {
    type Target = [AtomicU32];

    fn deref(&self) -> &[AtomicU32] {
        match self {
            Cells::Heap(cells) => cells,
            // SAFETY: the mapping is page-aligned and at least `len * 4` bytes long; atomics
            // may alias the shared memory of a file only this process uses.
            Cells::Mapped(map, len) => unsafe {
                std::slice::from_raw_parts(map.as_ptr() as *const AtomicU32, *len)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn file_backed_cells_start_at_zero_keep_writes_and_leave_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let cells = Cells::in_file(dir.path(), 1 << 20).unwrap();
        assert_eq!(cells.len(), 1 << 20);
        assert!(cells.iter().all(|c| c.load(Relaxed) == 0));
        cells[12345].store(0xdead_beef, Relaxed);
        cells[(1 << 20) - 1].fetch_add(7, Relaxed);
        assert_eq!(cells[12345].load(Relaxed), 0xdead_beef);
        assert_eq!(cells[(1 << 20) - 1].load(Relaxed), 7);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let empty = Cells::in_file(dir.path(), 0).unwrap();
        assert!(empty.is_empty());
        assert!(Cells::in_file(&dir.path().join("absent"), 10).is_err());
    }
}
