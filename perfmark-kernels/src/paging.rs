//! Touching pages of a fresh allocation: the cost of page faults.
//!
//! Source: Joseph M. Newcomer, "Profiling for performance", Dr. Dobb's
//! Journal (1993), on calibrating a profiler: "malloc a
//! large amount of memory … access bytes one page apart to start forcing
//! paging to occur. Run the test accessing 5 pages, 10 pages, 100 pages,
//! and so on." On a modern OS the first write to each page of a fresh
//! anonymous mapping is a minor fault: the kernel finds a zeroed page and
//! maps it, which costs far more than the write itself.
//!
//! On Linux the fresh memory comes straight from the kernel (`mmap` of
//! anonymous memory with transparent huge pages declined, `munmap` on
//! drop), so every page of it is untouched when the timing starts, whatever
//! the allocator has cached, and each page is its own fault. Elsewhere it
//! comes from `std::alloc::alloc_zeroed`, which for large sizes usually
//! maps fresh pages too, but small sizes may reuse pages already touched.

/// The page counts of Newcomer's experiment.
pub const PAGE_TOUCH_COUNTS: [usize; 4] = [5, 10, 100, 1000];

/// Pages touched per round of the perf suite, whatever the mapping size:
/// a round is `PAGES_PER_ROUND / pages` fresh mappings of `pages` pages
/// each, so every size does the same number of page faults and the time
/// per round compares the cost per page across sizes (one budget for all).
/// Each count of [`PAGE_TOUCH_COUNTS`] divides it.
pub const PAGES_PER_ROUND: usize = 1000;

/// The size of a memory page on this machine, in bytes.
pub fn page_size_bytes() -> usize {
    os::page_size_bytes()
}

/// A fresh, untouched, page-aligned allocation of whole pages.
#[derive(Debug)]
pub struct FreshPages {
    region: os::Region,
    pages: usize,
    page_bytes: usize,
}

impl FreshPages {
    /// Maps `pages` fresh pages. Untimed setup: mapping does not touch
    /// them.
    ///
    /// # Panics
    /// When `pages` is zero or the memory cannot be obtained.
    pub fn new(pages: usize) -> Self {
        assert!(pages > 0, "FreshPages needs at least one page, got 0");
        let page_bytes = page_size_bytes();
        let region = os::Region::map(pages * page_bytes, page_bytes);
        FreshPages {
            region,
            pages,
            page_bytes,
        }
    }

    /// The number of pages.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Writes one byte to each page (its first byte, set to the page's
    /// number modulo 251 plus one) and returns the sum of the bytes
    /// written: `pages()` writes, and on fresh memory `pages()` page
    /// faults. Touching again costs only the writes.
    pub fn touch(&mut self) -> u64 {
        let mut sum = 0u64;
        let base = self.region.as_mut_ptr();
        for p in 0..self.pages {
            let value = (p % 251) as u8 + 1;
            // SAFETY: `p * page_bytes` is below the region's length
            // (`pages * page_bytes`), so the pointer is inside the live
            // region, which this struct owns exclusively (`&mut self`).
            // Volatile, so the write happens even though nothing reads it.
            unsafe { base.add(p * self.page_bytes).write_volatile(value) };
            sum += u64::from(value);
        }
        sum
    }

    /// The first byte of page `p` (for checking what [`touch`](Self::touch)
    /// wrote).
    ///
    /// # Panics
    /// When `p` is not below [`pages`](Self::pages).
    pub fn first_byte(&self, p: usize) -> u8 {
        assert!(p < self.pages, "page {p} is out of range 0..{}", self.pages);
        // SAFETY: in bounds by the assertion; the region is live and
        // initialized (fresh mappings and `alloc_zeroed` read as zero).
        unsafe {
            self.region
                .as_ptr()
                .add(p * self.page_bytes)
                .read_volatile()
        }
    }
}

#[cfg(target_os = "linux")]
mod os {
    use std::ffi::{c_int, c_long, c_void};

    const PROT_READ: c_int = 0x1;
    const PROT_WRITE: c_int = 0x2;
    const MAP_PRIVATE: c_int = 0x02;
    const MAP_ANONYMOUS: c_int = 0x20;
    const SC_PAGESIZE: c_int = 30;
    const MADV_NOHUGEPAGE: c_int = 15;

    extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            offset: i64,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> c_int;
        fn madvise(addr: *mut c_void, len: usize, advice: c_int) -> c_int;
        fn sysconf(name: c_int) -> c_long;
    }

    pub(super) fn page_size_bytes() -> usize {
        // SAFETY: sysconf has no preconditions; it returns -1 on error.
        let size = unsafe { sysconf(SC_PAGESIZE) };
        usize::try_from(size)
            .ok()
            .filter(|&s| s > 0)
            .unwrap_or(4096)
    }

    /// An anonymous private mapping, unmapped on drop.
    #[derive(Debug)]
    pub(super) struct Region {
        ptr: *mut u8,
        len: usize,
    }

    impl Region {
        pub(super) fn map(len: usize, _align: usize) -> Region {
            // SAFETY: a null hint, fd -1 and offset 0 with MAP_ANONYMOUS ask
            // the kernel for `len` fresh zeroed bytes; nothing existing is
            // affected. The result is checked against MAP_FAILED below.
            let ptr = unsafe {
                mmap(
                    std::ptr::null_mut(),
                    len,
                    PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            assert!(
                ptr as isize != -1 && !ptr.is_null(),
                "mmap of {len} bytes failed: {}",
                std::io::Error::last_os_error()
            );
            // Ask for base pages even where transparent huge pages are on
            // ("always"), so that N pages touched are N faults. Failure
            // (a kernel without THP) changes nothing, so it is ignored.
            // SAFETY: the range is exactly the mapping just made.
            unsafe { madvise(ptr, len, MADV_NOHUGEPAGE) };
            Region {
                ptr: ptr.cast(),
                len,
            }
        }

        pub(super) fn as_mut_ptr(&mut self) -> *mut u8 {
            self.ptr
        }

        pub(super) fn as_ptr(&self) -> *const u8 {
            self.ptr
        }
    }

    impl Drop for Region {
        fn drop(&mut self) {
            // SAFETY: `ptr` and `len` are exactly those of a mapping made by
            // `map` and not unmapped since (drop runs once).
            unsafe { munmap(self.ptr.cast(), self.len) };
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod os {
    use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};

    /// Apple's arm64 processes have 16 KiB pages; Windows and the other
    /// targets perfmark builds for, 4 KiB.
    pub(super) fn page_size_bytes() -> usize {
        if cfg!(all(target_vendor = "apple", target_arch = "aarch64")) {
            16 << 10
        } else {
            4 << 10
        }
    }

    /// A zeroed, page-aligned heap block, freed on drop.
    #[derive(Debug)]
    pub(super) struct Region {
        ptr: *mut u8,
        layout: Layout,
    }

    impl Region {
        pub(super) fn map(len: usize, align: usize) -> Region {
            let layout = Layout::from_size_align(len, align).expect("page layout is valid");
            // SAFETY: the layout has a non-zero size (at least one page).
            let ptr = unsafe { alloc_zeroed(layout) };
            if ptr.is_null() {
                handle_alloc_error(layout);
            }
            Region { ptr, layout }
        }

        pub(super) fn as_mut_ptr(&mut self) -> *mut u8 {
            self.ptr
        }

        pub(super) fn as_ptr(&self) -> *const u8 {
            self.ptr
        }
    }

    impl Drop for Region {
        fn drop(&mut self) {
            // SAFETY: allocated by `alloc_zeroed` with this very layout, and
            // freed once.
            unsafe { dealloc(self.ptr, self.layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_count_divides_a_round() {
        assert!(PAGE_TOUCH_COUNTS
            .iter()
            .all(|&p| PAGES_PER_ROUND / p * p == PAGES_PER_ROUND));
    }

    #[test]
    fn page_size_is_a_power_of_two() {
        let size = page_size_bytes();
        assert!(size >= 4096 && size.is_power_of_two(), "{size}");
    }

    #[test]
    fn fresh_pages_read_as_zero_and_keep_what_touch_wrote() {
        for pages in PAGE_TOUCH_COUNTS {
            let mut fresh = FreshPages::new(pages);
            assert_eq!(fresh.pages(), pages);
            assert_eq!(fresh.first_byte(pages - 1), 0);
            let want: u64 = (0..pages).map(|p| (p % 251) as u64 + 1).sum();
            assert_eq!(fresh.touch(), want);
            for p in 0..pages {
                assert_eq!(fresh.first_byte(p), (p % 251) as u8 + 1);
            }
            assert_eq!(fresh.touch(), want, "touching again writes the same bytes");
        }
    }
}
