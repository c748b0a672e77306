//! Boyer's noise task: a linear feedback shift register (LFSR) advanced a
//! fixed number of steps.
//!
//! Source: Brent Boyer, "Robust Java benchmarking" (2008) and its
//! `bb.util.Benchmark`, whose `noiseTask` is an `LfsrAdvancer`: a task that
//! "repeatedly performs a very simple but irreducible computation", creates
//! nothing, and so should always take the same time; whatever spread its
//! timings show is the machine's (context switches, timer error), not its
//! own. perfmark's runner measures [`lfsr_advance`] once per run for its
//! noise floor.
//!
//! The register is a 64-bit Galois LFSR over the primitive polynomial
//! x^64 + x^63 + x^61 + x^60 + 1, so every non-zero state lies on one cycle
//! of length 2^64 − 1 (proven in the tests by jumping around the whole
//! cycle). One step is a shift, an and, a negation and an xor on a
//! register: no memory traffic, no branch, and each step depends on the one
//! before, so the steps cannot be overlapped or vectorized.

/// The tap mask of the Galois LFSR: bits 63, 62, 60 and 59, i.e. the
/// polynomial x^64 + x^63 + x^61 + x^60 + 1 (taps 64, 63, 61, 60).
pub const LFSR_TAPS: u64 = 0xD800_0000_0000_0000;

/// Register operations per step (shift, and, negate, and, xor): the work
/// one step does, for rates.
pub const LFSR_OPS_PER_STEP: u64 = 5;

/// Advances the register one step: shift right, and xor the taps in when
/// the bit shifted out was 1.
///
/// A zero state stays zero forever; seed the register with any non-zero
/// value.
#[inline]
pub fn lfsr_step(state: u64) -> u64 {
    (state >> 1) ^ ((state & 1).wrapping_neg() & LFSR_TAPS)
}

/// Advances the register `steps` steps and returns the new state: the
/// noise task. Costs `steps` dependent register steps (about a nanosecond
/// each), touches no memory and allocates nothing.
///
/// Equal to `steps` calls of [`lfsr_step`]; [`lfsr_jump`] computes the same
/// state in O(log steps) and is what the tests check this against.
#[inline]
pub fn lfsr_advance(state: u64, steps: u64) -> u64 {
    let mut s = state;
    for _ in 0..steps {
        s = lfsr_step(s);
    }
    s
}

/// Undoes one [`lfsr_step`]: the register is invertible (a permutation of
/// the non-zero states).
#[inline]
pub fn lfsr_step_back(state: u64) -> u64 {
    // After a step the top bit is 1 exactly when the taps were xored in
    // (the shift always clears it, and bit 63 of the taps is set).
    if state >> 63 == 1 {
        ((state ^ LFSR_TAPS) << 1) | 1
    } else {
        state << 1
    }
}

/// The state after `steps` steps, computed by squaring the step's 64×64
/// matrix over GF(2): O(64² · log steps) word operations, so it can jump
/// 2^64 − 1 steps. An independent check of [`lfsr_advance`], and a way to
/// prove the cycle length.
pub fn lfsr_jump(state: u64, steps: u64) -> u64 {
    let mut power = step_matrix();
    let mut result = state;
    let mut left = steps;
    while left > 0 {
        if left & 1 == 1 {
            result = apply(&power, result);
        }
        power = compose(&power, &power);
        left >>= 1;
    }
    result
}

/// A linear map on 64-bit vectors over GF(2), stored by columns: column
/// `j` is the image of the unit vector `1 << j`.
type BitMatrix = [u64; 64];

fn step_matrix() -> BitMatrix {
    let mut m = [0u64; 64];
    for (j, column) in m.iter_mut().enumerate() {
        *column = lfsr_step(1u64 << j);
    }
    m
}

fn apply(m: &BitMatrix, v: u64) -> u64 {
    let mut out = 0;
    for (j, column) in m.iter().enumerate() {
        if (v >> j) & 1 == 1 {
            out ^= column;
        }
    }
    out
}

/// `a ∘ b`: first `b`, then `a`.
fn compose(a: &BitMatrix, b: &BitMatrix) -> BitMatrix {
    let mut m = [0u64; 64];
    for (out, column) in m.iter_mut().zip(b) {
        *out = apply(a, *column);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_step_from_one_is_the_tap_mask() {
        assert_eq!(lfsr_step(1), LFSR_TAPS);
        assert_eq!(lfsr_step(2), 1);
        assert_eq!(lfsr_step(0), 0);
    }

    #[test]
    fn advance_agrees_with_the_matrix_jump() {
        for (seed, steps) in [(1, 0), (1, 1), (0xDEAD_BEEF, 1000), (u64::MAX, 65_537)] {
            assert_eq!(
                lfsr_advance(seed, steps),
                lfsr_jump(seed, steps),
                "seed {seed:#x}"
            );
        }
    }

    #[test]
    fn step_back_inverts_step() {
        let mut s = 0x0123_4567_89AB_CDEF;
        for _ in 0..10_000 {
            let next = lfsr_step(s);
            assert_eq!(lfsr_step_back(next), s);
            s = next;
        }
    }

    #[test]
    fn the_polynomial_is_primitive_so_the_cycle_is_maximal() {
        // The step map has order dividing 2^64 - 1 = 3·5·17·257·641·65537·6700417
        // and equal to it exactly when no proper divisor (2^64 - 1)/p returns
        // to the start: then every non-zero state lies on one 2^64 - 1 cycle.
        let period = u64::MAX;
        let start = 1;
        assert_eq!(lfsr_jump(start, period), start);
        for p in [3u64, 5, 17, 257, 641, 65_537, 6_700_417] {
            assert_eq!(period / p * p, period);
            assert_ne!(
                lfsr_jump(start, period / p),
                start,
                "order divides (2^64-1)/{p}"
            );
        }
    }

    #[test]
    fn no_short_cycle_in_the_first_million_steps() {
        let start = 0x5EED;
        let mut s = start;
        for _ in 0..1_000_000 {
            s = lfsr_step(s);
            assert_ne!(s, start);
            assert_ne!(s, 0);
        }
    }
}
