//! Heap allocations: the counting global allocator that `perfmark::main!()`
//! installs, its process-wide counters, and what a test's counting pass
//! found.
//!
//! [`CountingAlloc`] wraps another allocator (the system's by default) and,
//! while a counting pass is on, adds every allocation to two global atomic
//! counters: calls and bytes. The counters are global, not per thread, so
//! the allocations of threads the routine starts count too, as long as the
//! routine joins them (joining is what makes their counts visible).
//!
//! Counting is switched on only around the untimed counting pass (see
//! [`crate::Bencher`]): while a test is timed, the wrapper costs one
//! relaxed load of a flag and a branch that always goes the same way per
//! allocation, and never an atomic write, so counting never perturbs the
//! timing it would otherwise share cache lines with. Divan counts the same
//! way (a wrapper over the global allocator), but only reports the counts;
//! here they can fail a test (`allocs = N`): the [`check`] does.

pub mod check;
pub mod said;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::ops::{Add, Sub};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

/// Whether a counting pass is on.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Allocation calls counted so far (`alloc`, `alloc_zeroed`, `realloc`).
static ALLOCS: AtomicU64 = AtomicU64::new(0);
/// Bytes those calls asked for (the new size, for `realloc`).
static BYTES: AtomicU64 = AtomicU64::new(0);

/// A global allocator that counts allocations for perfmark, over the
/// allocator `A` that does the work.
///
/// `perfmark::main!()` installs `CountingAlloc<System>`. A crate with its
/// own global allocator wraps it instead, through `main!`'s `allocator`
/// form:
///
/// ```ignore
/// perfmark::main!(allocator = mimalloc::MiMalloc);
/// // or, for an allocator that is not a unit struct:
/// perfmark::main!(allocator: MyAlloc = MyAlloc::new());
/// ```
///
/// What is counted: every call of `alloc`, `alloc_zeroed` and `realloc` (a
/// `realloc` may move the block, so it is an allocation), with the bytes
/// asked for (`realloc`'s new size). Frees are not counted.
#[derive(Debug, Default, Clone, Copy)]
pub struct CountingAlloc<A = System> {
    inner: A,
}

impl<A> CountingAlloc<A> {
    /// Counts the allocations served by `inner`.
    pub const fn new(inner: A) -> Self {
        CountingAlloc { inner }
    }
}

impl CountingAlloc<System> {
    /// Counts the allocations served by the system allocator.
    pub const fn system() -> Self {
        CountingAlloc { inner: System }
    }
}

/// Counts one allocation of `bytes` when a counting pass is on.
#[inline(always)]
fn record(bytes: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        BYTES.fetch_add(bytes as u64, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `inner` with the arguments it was given
// and returns what `inner` returned, so `CountingAlloc<A>` upholds
// `GlobalAlloc`'s contract exactly as far as `A` does; the counting touches
// only atomics and never allocates.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller upholds `alloc`'s contract, which we pass on.
        unsafe { self.inner.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { self.inner.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `inner` through us with `layout`.
        unsafe { self.inner.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: the caller upholds `realloc`'s contract, which we pass on.
        unsafe { self.inner.realloc(ptr, layout, new_size) }
    }
}

/// Allocation counts: calls and bytes, over some stretch of the run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllocCount {
    /// Allocation calls (`alloc`, `alloc_zeroed`, `realloc`).
    pub allocs: u64,
    /// Bytes those calls asked for.
    pub bytes: u64,
}

impl Add for AllocCount {
    type Output = AllocCount;

    fn add(self, other: AllocCount) -> AllocCount {
        AllocCount {
            allocs: self.allocs.wrapping_add(other.allocs),
            bytes: self.bytes.wrapping_add(other.bytes),
        }
    }
}

impl Sub for AllocCount {
    type Output = AllocCount;

    fn sub(self, earlier: AllocCount) -> AllocCount {
        AllocCount {
            allocs: self.allocs.wrapping_sub(earlier.allocs),
            bytes: self.bytes.wrapping_sub(earlier.bytes),
        }
    }
}

/// The counters now. Two reads bracket what is counted, as two clock reads
/// bracket what is timed.
#[inline(always)]
pub fn snapshot() -> AllocCount {
    AllocCount {
        allocs: ALLOCS.load(Ordering::Relaxed),
        bytes: BYTES.load(Ordering::Relaxed),
    }
}

/// A counting pass: counting is on from [`Counting::start`] until the
/// guard is dropped (also when the routine panics, so a panicking test
/// does not leave counting on for the tests after it).
#[derive(Debug)]
pub(crate) struct Counting(());

impl Counting {
    /// Switches counting on.
    #[inline(never)]
    pub(crate) fn start() -> Counting {
        COUNTING.store(true, Ordering::SeqCst);
        Counting(())
    }
}

impl Drop for Counting {
    #[inline(never)]
    fn drop(&mut self) {
        COUNTING.store(false, Ordering::SeqCst);
    }
}

/// Whether this process's global allocator is a [`CountingAlloc`]: one
/// allocation made with counting on must be counted. Probed once.
///
/// False when the test binary was not started by `perfmark::main!()` (a
/// library's own tests), or when a `#[global_allocator]` of another crate
/// was linked in instead: allocations are then reported as not counted,
/// never as zero.
pub fn installed() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        let counting = Counting::start();
        let before = snapshot();
        // `black_box` keeps the optimizer from removing the allocation.
        drop(black_box(Box::new(black_box(0u64))));
        let after = snapshot();
        drop(counting);
        (after - before).allocs > 0
    })
}

/// What a test's counting pass found (`report.json`'s per-test
/// `allocations`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Allocations {
    /// Heap allocations per iteration: calls of `alloc`, `alloc_zeroed` and
    /// `realloc` over the counted iterations, divided by their number.
    pub allocs_per_iter: f64,
    /// Bytes those allocations asked for, per iteration.
    pub bytes_per_iter: f64,
    /// Iterations of the routine in the counting pass (one sample's worth).
    pub iterations: u64,
    /// The test's `allocs` limit, when it has one.
    pub limit: Option<u64>,
}

impl Allocations {
    /// The per-iteration figures of `count` over `iterations` iterations.
    pub fn per_iteration(count: AllocCount, iterations: u64, limit: Option<u64>) -> Self {
        let n = iterations.max(1) as f64;
        Allocations {
            allocs_per_iter: count.allocs as f64 / n,
            bytes_per_iter: count.bytes as f64 / n,
            iterations,
            limit,
        }
    }

    /// Whether these allocations keep within `limit` per iteration: the
    /// allocation check's rule.
    pub fn within(&self, limit: u64) -> bool {
        self.allocs_per_iter <= limit as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_differences_of_snapshots() {
        let a = AllocCount {
            allocs: 10,
            bytes: 100,
        };
        let b = AllocCount {
            allocs: 13,
            bytes: 148,
        };
        assert_eq!(
            b - a,
            AllocCount {
                allocs: 3,
                bytes: 48
            }
        );
        assert_eq!((b - a) + a, b);
    }

    #[test]
    fn per_iteration_figures() {
        let count = AllocCount {
            allocs: 4096,
            bytes: 4096 * 48,
        };
        let a = Allocations::per_iteration(count, 4096, Some(0));
        assert_eq!((a.allocs_per_iter, a.bytes_per_iter), (1.0, 48.0));
        let none = Allocations::per_iteration(AllocCount::default(), 0, None);
        assert_eq!(none.allocs_per_iter, 0.0);
    }

    #[test]
    fn the_wrapper_counts_only_during_a_pass() {
        // The unit tests' binary has the system allocator, not the wrapper:
        // drive the wrapper by hand. Other tests of this binary may run in
        // parallel, and their allocations count while the pass is on, so
        // only lower bounds are checked.
        let alloc = CountingAlloc::system();
        let layout = Layout::from_size_align(24, 8).unwrap();
        let before = snapshot();
        let counting = Counting::start();
        // SAFETY: a non-zero-size layout; freed below with the same layout.
        let ptr = unsafe { alloc.alloc(layout) };
        assert!(!ptr.is_null());
        // SAFETY: `ptr` was allocated above with `layout`; 40 is non-zero.
        let ptr = unsafe { alloc.realloc(ptr, layout, 40) };
        assert!(!ptr.is_null());
        let during = snapshot() - before;
        drop(counting);
        // SAFETY: `ptr` is the live block of 40 bytes realloc returned.
        unsafe { alloc.dealloc(ptr, Layout::from_size_align(40, 8).unwrap()) };
        assert!(during.allocs >= 2 && during.bytes >= 64, "{during:?}");
    }
}
