//! The cost of synchronization when nobody competes for it: taking a free
//! lock, and reading through atomics instead of plain loads.
//!
//! Source: Peter Sestoft, "Microbenchmarks in Java and C#" (2016): "Cost
//! of taking a free lock" (about 4.5 ns in
//! Java) and "Cost of volatile": an `isSorted` check over an int array ran
//! 5× slower when the array was read through a `volatile` field (3.4 µs
//! versus 17.2 µs), because "the JIT compiler performs fewer
//! optimizations". Rust's counterpart of a volatile read is an atomic load
//! with acquire ordering: on x86 it is still a plain `mov`, but the compiler
//! may not merge, reorder or vectorize such loads, which is the point.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use crate::rng::SplitMix64;

/// A counter behind a `Mutex` that only one thread ever uses.
#[derive(Debug, Default)]
pub struct UncontendedLock {
    count: Mutex<u64>,
}

impl UncontendedLock {
    /// A counter at zero.
    pub fn new() -> Self {
        UncontendedLock::default()
    }

    /// Locks, increments the counter, unlocks; returns the new count. One
    /// lock/unlock pair (an atomic compare-and-swap and an atomic swap on
    /// the fast path) around one addition.
    ///
    /// # Panics
    /// When the mutex is poisoned (a thread panicked while holding it),
    /// which this type never does.
    #[inline]
    pub fn increment(&self) -> u64 {
        let mut count = self.count.lock().expect("the counter's mutex is poisoned");
        *count += 1;
        *count
    }
}

/// An ascending array of `u32` held twice: as plain integers and as
/// atomics, for Sestoft's sortedness check.
#[derive(Debug)]
pub struct SortedArrays {
    plain: Vec<u32>,
    atomic: Vec<AtomicU32>,
}

impl SortedArrays {
    /// `len` non-decreasing pseudo-random values (gaps of 0 to 15, drawn
    /// from `seed`), so every check must read the whole array to answer
    /// "sorted".
    pub fn new(len: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut value = 0u32;
        let plain: Vec<u32> = (0..len)
            .map(|_| {
                value += rng.below(16) as u32;
                value
            })
            .collect();
        let atomic = plain.iter().map(|&v| AtomicU32::new(v)).collect();
        SortedArrays { plain, atomic }
    }

    /// The number of elements: each check does `len() - 1` comparisons.
    pub fn len(&self) -> usize {
        self.plain.len()
    }

    /// Whether the arrays are empty.
    pub fn is_empty(&self) -> bool {
        self.plain.is_empty()
    }

    /// Swaps elements `i` and `i + 1` in both arrays (to make them unsorted
    /// when they differ).
    ///
    /// # Panics
    /// When `i + 1` is out of bounds.
    pub fn swap_adjacent(&mut self, i: usize) {
        self.plain.swap(i, i + 1);
        self.atomic.swap(i, i + 1);
    }

    /// Whether the plain array is non-decreasing, with ordinary loads.
    /// Every pair is compared (no early exit), so the compiler is free to
    /// vectorize the loop, as the JIT is with Sestoft's non-volatile array:
    /// `len() - 1` comparisons.
    pub fn is_sorted_plain(&self) -> bool {
        let tail = self.plain.get(1..).unwrap_or_default();
        self.plain
            .iter()
            .zip(tail)
            .fold(true, |sorted, (a, b)| sorted & (a <= b))
    }

    /// Whether the atomic array is non-decreasing, loading each element
    /// with `Ordering::Acquire` (Java's volatile read): the same
    /// comparisons as [`is_sorted_plain`](Self::is_sorted_plain), but the
    /// compiler must do one separate load per element, in order, so it
    /// cannot vectorize.
    pub fn is_sorted_atomic(&self) -> bool {
        let Some(first) = self.atomic.first() else {
            return true;
        };
        let mut prev = first.load(Ordering::Acquire);
        let mut sorted = true;
        for a in &self.atomic[1..] {
            let v = a.load(Ordering::Acquire);
            sorted &= prev <= v;
            prev = v;
        }
        sorted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counter_counts() {
        let lock = UncontendedLock::new();
        for n in 1..=1000 {
            assert_eq!(lock.increment(), n);
        }
    }

    #[test]
    fn both_checks_agree_on_sorted_and_unsorted_arrays() {
        let mut arrays = SortedArrays::new(1000, 4);
        assert_eq!(arrays.len(), 1000);
        assert!(arrays.is_sorted_plain());
        assert!(arrays.is_sorted_atomic());
        // Find a strict step and break it.
        let i = (0..999)
            .find(|&i| arrays.plain[i] < arrays.plain[i + 1])
            .unwrap();
        arrays.swap_adjacent(i);
        assert!(!arrays.is_sorted_plain());
        assert!(!arrays.is_sorted_atomic());
    }

    #[test]
    fn empty_and_single_arrays_are_sorted() {
        for len in [0, 1] {
            let arrays = SortedArrays::new(len, 0);
            assert!(arrays.is_sorted_plain() && arrays.is_sorted_atomic());
        }
    }
}
