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
    /// A shared mapping of a scratch file, its space reserved on disk, unlinked as soon as it
    /// is mapped: its disk space is freed when the mapping goes, however the process ends.
    Mapped(memmap2::MmapMut, usize),
}

impl Cells {
    /// `len` zeroed cells in memory.
    pub(crate) fn in_memory(len: usize) -> Cells {
        // `vec![0; n]` takes fresh zeroed pages from the system without touching them, so
        // the advice applies before the first write.
        let zeros = vec![0u32; len];
        crate::sys::memory::advise_huge_pages(&zeros);
        let mut zeros = std::mem::ManuallyDrop::new(zeros);
        // SAFETY: AtomicU32 has the same size, alignment and bit validity as u32; the buffer
        // is handed over whole (pointer, length, capacity) and never used through `zeros`.
        Cells::Heap(unsafe {
            Vec::from_raw_parts(zeros.as_mut_ptr() as *mut AtomicU32, len, zeros.capacity())
        })
    }

    /// `len` zeroed cells in a scratch file in `dir` (a name of its own per process and
    /// call, so that workers sharing `dir` never meet), mapped and unlinked at once. The
    /// file's disk space is reserved before it is mapped, so that a disk too small for it is
    /// this error (saying how much was needed) rather than a `SIGBUS` at the first write to
    /// a page the disk has no room for.
    pub(crate) fn in_file(dir: &Path, len: usize) -> std::io::Result<Cells> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!(
            ".millbase-cells-{}-{}.scratch",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let path = dir.join(name);
        // Recorded while it has a name, so that a signal meanwhile removes it.
        let file = crate::sys::held::create_held(&path, || {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
        })?;
        let bytes = (len * 4).max(1) as u64;
        let mapped = reserve(&file, bytes).and_then(|()| {
            // SAFETY: the file is ours alone (created above under a unique name, unlinked
            // below); nothing else maps or changes it, and its blocks are allocated.
            unsafe { memmap2::MmapMut::map_mut(&file) }
        });
        crate::sys::held::remove_held(&path);
        Ok(Cells::Mapped(mapped?, len))
    }
}

/// Allocate `bytes` bytes of disk space to `file` (reading as zeros): `ENOSPC` on a full disk
/// and `EFBIG` beyond a file-size limit come now, with the size in the message.
fn reserve(file: &std::fs::File, bytes: u64) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let Ok(length) = libc::off_t::try_from(bytes) else {
        return Err(std::io::Error::from_raw_os_error(libc::EFBIG));
    };
    // SAFETY: posix_fallocate on a file descriptor we own; no memory is passed. It returns
    // the error number instead of setting errno, and emulates the call where the file system
    // has no fallocate.
    let code = loop {
        match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, length) } {
            libc::EINTR => continue,
            code => break code,
        }
    };
    if code == 0 {
        return Ok(());
    }
    let error = std::io::Error::from_raw_os_error(code);
    Err(std::io::Error::new(
        error.kind(),
        format!("{:.1} MiB needed: {error}", bytes as f64 / (1 << 20) as f64),
    ))
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
