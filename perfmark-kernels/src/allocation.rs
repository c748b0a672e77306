//! The cost of heap allocation: creating small boxed objects (Sestoft), and
//! allocating a scratch buffer inside an inner loop versus reusing one
//! (Newcomer).
//!
//! Sources: Peter Sestoft, "Microbenchmarks in Java and C#" (2016), "Cost of
//! object creation" (`new Point(i, i)`, about 80 ns in Java including its
//! `hashCode`); Joseph M. Newcomer, "Profiling for performance", Dr. Dobb's
//! Journal (1993), whose profiling found a storage allocator to be the
//! bottleneck because "a subroutine in the inner loop … called a library
//! routine that did a malloc/free", fixed by "stack-allocated storage outside
//! the loop" (allocations fell from over 1,000,000 to under 1000).

use std::hint::black_box;

use crate::rng::SplitMix64;

/// Sestoft's `Point`: two integers, the smallest useful object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// Horizontal coordinate.
    pub x: i32,
    /// Vertical coordinate.
    pub y: i32,
}

impl Point {
    /// A cheap hash of the point (the role of Java's `hashCode` in Sestoft's
    /// kernel: something to return that depends on the object).
    pub fn hash(&self) -> u64 {
        ((u64::from(self.x as u32) << 32) | u64::from(self.y as u32))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// Creates one `Point` on the heap: one allocation of 8 bytes. Return it
/// (through `black_box`) so that the allocation cannot be optimized away;
/// dropping it is one deallocation, so a timed call that returns the box
/// measures an allocate/free pair.
#[inline]
pub fn create_point(i: i32) -> Box<Point> {
    black_box(Box::new(Point { x: i, y: i }))
}

/// Bytes in one record of the scratch-buffer kernels.
pub const RECORD_BYTES: usize = 64;

/// Records processed per call of the [`Records`] kernels.
pub const RECORDS_PER_CALL: usize = 1000;

/// A batch of fixed-size records, each processed through a scratch buffer:
/// the record is copied into the buffer, transformed there (its bytes
/// reversed, as a stand-in for any in-place decoding), and folded into a
/// checksum; a few nanoseconds per record, so the buffer's cost shows. The three `checksum_*` methods do the same work and return the
/// same value; they differ only in where the scratch buffer comes from.
#[derive(Debug, Clone)]
pub struct Records {
    data: Vec<[u8; RECORD_BYTES]>,
}

impl Records {
    /// `count` records of pseudo-random bytes drawn from `seed`.
    pub fn new(count: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let data = (0..count)
            .map(|_| {
                let mut r = [0u8; RECORD_BYTES];
                for chunk in r.chunks_exact_mut(8) {
                    chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
                }
                r
            })
            .collect();
        Records { data }
    }

    /// The number of records (the work of one call, in items).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Newcomer's slow version: a fresh heap buffer per record (one
    /// malloc/free pair per record, `len()` pairs per call).
    pub fn checksum_malloc_per_record(&self) -> u64 {
        let mut sum = 0u64;
        for record in &self.data {
            // black_box keeps the allocator calls: without it the compiler
            // may turn a short-lived Vec into stack storage.
            let mut scratch: Vec<u8> = black_box(Vec::with_capacity(RECORD_BYTES));
            scratch.extend_from_slice(record);
            sum = fold(sum, &mut scratch);
        }
        sum
    }

    /// The fix with stack storage: a fixed-size array on the stack.
    pub fn checksum_stack_buffer(&self) -> u64 {
        let mut sum = 0u64;
        let mut scratch = [0u8; RECORD_BYTES];
        for record in &self.data {
            scratch.copy_from_slice(record);
            sum = fold(sum, black_box(&mut scratch));
        }
        sum
    }

    /// The fix with a heap buffer allocated once, outside the loop, by the
    /// caller (cleared and refilled per record, never reallocated).
    pub fn checksum_reused_buffer(&self, scratch: &mut Vec<u8>) -> u64 {
        let mut sum = 0u64;
        for record in &self.data {
            scratch.clear();
            scratch.extend_from_slice(record);
            sum = fold(sum, black_box(&mut scratch[..]));
        }
        sum
    }
}

/// Reverses the record in place and folds it into `sum` as eight
/// little-endian words (rotate and xor per word): a few nanoseconds, so that
/// the cost of obtaining the scratch buffer is not hidden behind it.
#[inline]
fn fold(sum: u64, scratch: &mut [u8]) -> u64 {
    scratch.reverse();
    scratch.chunks_exact(8).fold(sum, |acc, w| {
        let word = u64::from_le_bytes(w.try_into().expect("chunks of 8 bytes"));
        acc.rotate_left(5) ^ word
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_hold_their_coordinates() {
        let p = create_point(-7);
        assert_eq!(*p, Point { x: -7, y: -7 });
        assert_ne!(p.hash(), create_point(7).hash());
    }

    /// The checksum written out directly: each record's bytes from last to
    /// first, taken eight at a time as little-endian words, each folded in
    /// by rotating the sum left 5 bits and xoring the word.
    fn reference(records: &Records) -> u64 {
        let mut sum = 0u64;
        for r in &records.data {
            for w in 0..RECORD_BYTES / 8 {
                let mut word = 0u64;
                for i in 0..8 {
                    let byte = r[RECORD_BYTES - 1 - (8 * w + i)];
                    word |= u64::from(byte) << (8 * i);
                }
                sum = sum.rotate_left(5) ^ word;
            }
        }
        sum
    }

    #[test]
    fn the_three_buffers_agree_with_the_reference() {
        let records = Records::new(100, 11);
        assert_eq!(records.len(), 100);
        let want = reference(&records);
        assert_eq!(records.checksum_malloc_per_record(), want);
        assert_eq!(records.checksum_stack_buffer(), want);
        let mut scratch = Vec::with_capacity(RECORD_BYTES);
        assert_eq!(records.checksum_reused_buffer(&mut scratch), want);
        assert_eq!(
            scratch.capacity(),
            RECORD_BYTES,
            "the buffer is reused, not regrown"
        );
    }

    #[test]
    fn a_tiny_batch_by_hand() {
        let records = Records {
            data: vec![[0u8; RECORD_BYTES]],
        };
        assert_eq!(records.checksum_stack_buffer(), 0);
        let mut one = [0u8; RECORD_BYTES];
        // Reversed, byte 0 is the high byte of the last word folded in.
        one[0] = 1;
        let records = Records { data: vec![one] };
        assert_eq!(records.checksum_malloc_per_record(), 1 << 56);
    }
}
