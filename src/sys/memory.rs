//! Memory hints for the large arrays that the solver reads and writes at random.

/// Ask the kernel to back `data` with transparent huge pages (Linux; a no-op elsewhere or
/// when the kernel declines). Call it before the memory is first written: pages already
/// touched stay small until the kernel's background collapsing gets to them. Random access
/// over gigabytes with 4 KiB pages misses the TLB almost every time; 2 MiB pages avoid most
/// of that.
pub fn advise_huge_pages<T>(data: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = data.as_ptr() as usize;
        let end = start + std::mem::size_of_val(data);
        let aligned_start = start.next_multiple_of(HUGE);
        let aligned_end = end & !(HUGE - 1);
        if aligned_end > aligned_start {
            // SAFETY: the range lies inside `data`'s allocation; MADV_HUGEPAGE changes no
            // contents, only how the kernel backs the pages.
            unsafe {
                libc::madvise(
                    aligned_start as *mut libc::c_void,
                    aligned_end - aligned_start,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = data;
}

/// Ask the processor to bring `cell` into the cache (a hint; nothing on other architectures).
#[inline]
pub fn prefetch<T>(cell: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(cell as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cell;
}
