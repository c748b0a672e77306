//! Whether this binary was built with its code layout pinned: every
//! function aligned to [`PINNED_ALIGNMENT`] bytes, as `cargo perfmark
//! compare` builds both sides of a comparison (docs/design/paired-comparison.md,
//! "Code layout").
//!
//! The binary tells from its own functions' addresses. Without the
//! pinning, LLVM aligns a function to 16 bytes on x86-64, so each of
//! [`PROBES`] starts on a 64-byte boundary with probability ¼ and all
//! eight with probability 4⁻⁸ ≈ 1.5e-5; with it, always.

use std::hint::black_box;

/// The function alignment of a pinned build, in bytes.
pub(crate) const PINNED_ALIGNMENT: usize = 64;

// Eight small functions with different bodies (identical ones could be
// merged into one), whose addresses are taken so each is emitted on its
// own.
#[inline(never)]
fn probe_0(x: u64) -> u64 {
    x.wrapping_mul(3)
}
#[inline(never)]
fn probe_1(x: u64) -> u64 {
    x ^ 0x5555
}
#[inline(never)]
fn probe_2(x: u64) -> u64 {
    x.rotate_left(7)
}
#[inline(never)]
fn probe_3(x: u64) -> u64 {
    x.wrapping_add(11)
}
#[inline(never)]
fn probe_4(x: u64) -> u64 {
    x >> 3
}
#[inline(never)]
fn probe_5(x: u64) -> u64 {
    x.wrapping_sub(x >> 1)
}
#[inline(never)]
fn probe_6(x: u64) -> u64 {
    x.count_ones() as u64
}
#[inline(never)]
fn probe_7(x: u64) -> u64 {
    x.swap_bytes()
}

/// The functions whose addresses tell.
const PROBES: [fn(u64) -> u64; 8] = [
    probe_0, probe_1, probe_2, probe_3, probe_4, probe_5, probe_6, probe_7,
];

/// Whether every address in `addresses` is a multiple of `alignment`
/// (false for none).
pub(crate) fn all_aligned(addresses: &[usize], alignment: usize) -> bool {
    !addresses.is_empty() && addresses.iter().all(|a| a % alignment == 0)
}

/// Whether this binary's functions are aligned as a pinned build's are.
pub(crate) fn pinned() -> bool {
    let addresses: Vec<usize> = PROBES.iter().map(|&f| black_box(f) as usize).collect();
    all_aligned(&addresses, PINNED_ALIGNMENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_is_every_address_or_none() {
        assert!(all_aligned(&[0, 64, 128 * 3], 64));
        assert!(!all_aligned(&[64, 80], 64));
        assert!(!all_aligned(&[], 64));
    }

    #[test]
    fn the_probes_are_distinct_functions() {
        let mut addresses: Vec<usize> = PROBES.iter().map(|&f| f as usize).collect();
        addresses.sort_unstable();
        addresses.dedup();
        assert_eq!(addresses.len(), PROBES.len());
    }
}
