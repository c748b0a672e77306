//! Memory latency by pointer chasing over a footprint.
//!
//! Source: Peter Sestoft, "Microbenchmarks in Java and C#" (2016), "Cost of
//! memory access": `k = arr[k]` over
//! an array holding one cycle, "memory footprint equals cycle length", run
//! for footprints from a few KiB to hundreds of MiB; the time per access
//! steps up each time the footprint outgrows a cache level.
//!
//! The footprint is cut into `footprint / stride` slots, one per `stride`
//! bytes (64 by default: one cache line each), and the slots are linked
//! into a single cycle in a random order (Sattolo's algorithm). Each load's
//! address comes out of the load before it, and the order has no pattern,
//! so neither out-of-order execution nor the hardware prefetcher can hide
//! the latency: every step costs one full trip to whichever level of the
//! memory hierarchy holds the footprint.

use crate::rng::SplitMix64;

/// The default distance between two slots: one 64-byte cache line.
pub const DEFAULT_STRIDE_BYTES: usize = 64;

/// Loads per call of [`PointerChase::walk`] in the perf suite: enough that
/// a call lasts far longer than the clock's overhead even in L1 (about 2 µs
/// on the reference machine), short enough that a call beyond the caches
/// stays near 200 µs.
pub const CHASE_STEPS_PER_CALL: u64 = 1024;

/// Footprints of the latency curve: 1 KiB to 256 MiB, doubling.
pub const LATENCY_FOOTPRINTS_BYTES: [usize; 19] = {
    let mut sizes = [0usize; 19];
    let mut i = 0;
    while i < sizes.len() {
        sizes[i] = 1024 << i;
        i += 1;
    }
    sizes
};

/// A footprint of memory holding one random cycle through all its slots.
#[derive(Debug, Clone)]
pub struct PointerChase {
    /// `next[s * words_per_slot]` is the index (in words) of the slot after
    /// slot `s`; the other words of each slot are padding, never read.
    next: Vec<usize>,
    slots: usize,
}

impl PointerChase {
    /// Builds a cycle over `footprint_bytes / stride_bytes` slots, in an
    /// order drawn from `seed`. Setup, not timed: it writes the whole
    /// footprint once (so the pages are resident before any timing) and
    /// costs a few nanoseconds per byte.
    ///
    /// # Panics
    /// When `stride_bytes` is not a positive multiple of the word size
    /// (8 bytes on 64-bit targets), or when the footprint holds fewer than
    /// two slots.
    pub fn new(footprint_bytes: usize, stride_bytes: usize, seed: u64) -> Self {
        let word = std::mem::size_of::<usize>();
        assert!(
            stride_bytes >= word && stride_bytes & (word - 1) == 0,
            "stride must be a positive multiple of {word} bytes, got {stride_bytes}"
        );
        let slots = footprint_bytes / stride_bytes;
        assert!(
            slots >= 2,
            "footprint of {footprint_bytes} bytes holds {slots} slot(s) of {stride_bytes} bytes; \
             a cycle needs at least 2"
        );
        let words_per_slot = stride_bytes / word;
        let mut order: Vec<usize> = (0..slots).collect();
        sattolo(&mut order, &mut SplitMix64::new(seed));
        let mut next = vec![0usize; slots * words_per_slot];
        // Sattolo's permutation is one cycle: slot s is followed by order[s].
        for (s, &t) in order.iter().enumerate() {
            next[s * words_per_slot] = t * words_per_slot;
        }
        PointerChase { next, slots }
    }

    /// The number of slots in the cycle, which is also the cycle's length.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The footprint in bytes (slots × stride).
    pub fn footprint_bytes(&self) -> usize {
        self.next.len() * std::mem::size_of::<usize>()
    }

    /// A position to start walking from (slot 0).
    pub fn start(&self) -> usize {
        0
    }

    /// Follows the cycle `steps` loads from `from` (a position returned by
    /// [`start`](Self::start) or by an earlier `walk`) and returns where it
    /// ended. `steps` dependent loads, no other memory traffic. Carry the
    /// position from call to call, so that successive calls walk on around
    /// the whole footprint instead of revisiting the same few slots.
    ///
    /// # Panics
    /// When `from` is not a position of this cycle (out of bounds).
    #[inline]
    pub fn walk(&self, from: usize, steps: u64) -> usize {
        let mut k = from;
        for _ in 0..steps {
            k = self.next[k];
        }
        k
    }
}

/// Sattolo's variant of Fisher–Yates: a uniformly random permutation that
/// is a single cycle (the swap partner is drawn from `0..i`, never `i`).
fn sattolo(items: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cycle_visits_every_slot_once() {
        for (footprint, stride) in [(1024, 64), (4096, 8), (64 * 1024, 128), (3 * 64, 64)] {
            let chase = PointerChase::new(footprint, stride, 1);
            let slots = footprint / stride;
            assert_eq!(chase.slots(), slots);
            assert_eq!(chase.footprint_bytes(), footprint);
            let mut seen = vec![false; slots];
            let mut k = chase.start();
            for _ in 0..slots {
                let slot = k * std::mem::size_of::<usize>() / stride;
                assert!(!seen[slot], "slot {slot} visited twice");
                seen[slot] = true;
                k = chase.walk(k, 1);
            }
            assert_eq!(
                k,
                chase.start(),
                "the cycle closes after exactly {slots} steps"
            );
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn walking_composes() {
        let chase = PointerChase::new(16 * 1024, 64, 9);
        let a = chase.walk(chase.start(), 100);
        assert_eq!(chase.walk(a, 50), chase.walk(chase.start(), 150));
        assert_eq!(
            chase.walk(chase.start(), chase.slots() as u64 * 3),
            chase.start()
        );
    }

    #[test]
    fn the_order_is_not_sequential() {
        // A prefetcher-friendly order would step to the neighbouring slot.
        let chase = PointerChase::new(64 * 1024, 64, 5);
        let mut k = chase.start();
        let mut neighbours = 0;
        for _ in 0..chase.slots() {
            let n = chase.walk(k, 1);
            if n.abs_diff(k) == 8 {
                neighbours += 1;
            }
            k = n;
        }
        assert!(
            neighbours < 10,
            "{neighbours} of {} steps went to a neighbour",
            chase.slots()
        );
    }

    #[test]
    fn footprints_double_from_1_kib_to_256_mib() {
        assert_eq!(LATENCY_FOOTPRINTS_BYTES[0], 1024);
        assert_eq!(LATENCY_FOOTPRINTS_BYTES[18], 256 << 20);
        assert!(LATENCY_FOOTPRINTS_BYTES
            .windows(2)
            .all(|w| w[1] == 2 * w[0]));
    }

    #[test]
    #[should_panic(expected = "at least 2")]
    fn rejects_a_one_slot_footprint() {
        PointerChase::new(64, 64, 0);
    }
}
