//! The machine's noise floor: the spread of a task with no variation of its
//! own, measured once per run (the `noiseTask` of Boyer's "Robust Java
//! benchmarking", 2008), so that a
//! test whose spread is no larger can be told the spread is the machine's.
//!
//! The task is a 64-bit Galois linear feedback shift register advanced a
//! fixed number of steps: a shift, an and, a negation and an xor per step,
//! each depending on the one before, with no memory traffic and no branch.
//! It does the same work every time, so whatever spread its timings show
//! comes from the machine (interrupts, other tenants, frequency changes).
//! perfmark-kernels has the same register with its known-answer tests; the
//! runtime keeps its own copy so that it does not depend on the kernels.

use std::hint::black_box;
use std::time::Duration;

use super::driver::loop_block;
use super::{Adaptive, LocalDriver, Plan, Policy, SampleKind};
use crate::clock;
use crate::stats;

/// Taps of the register: x^64 + x^63 + x^61 + x^60 + 1, a primitive
/// polynomial, so the register cycles through every non-zero state.
const TAPS: u64 = 0xD800_0000_0000_0000;

/// Register steps per iteration of the noise task.
const STEPS: u64 = 64;

/// Advances the register `steps` steps.
#[inline]
fn lfsr_advance(mut state: u64, steps: u64) -> u64 {
    for _ in 0..steps {
        state = (state >> 1) ^ ((state & 1).wrapping_neg() & TAPS);
    }
    state
}

/// Measures the noise task for about 150 ms and returns its robust
/// relative spread (IQR / 1.349 / median) as a fraction.
pub fn measure() -> f64 {
    let mut plan = Plan::new(
        0.95,
        0.005,
        Duration::from_millis(150),
        Duration::from_millis(30),
    );
    plan.clock = clock::info();
    let mut state = 0xACE1_u64;
    let mut task = || {
        state = lfsr_advance(black_box(state), STEPS);
        state
    };
    let timed = |n: u64| loop_block(n, &mut task);
    let empty = |n: u64| loop_block(n, &mut || ());
    let mut driver = LocalDriver::new(SampleKind::Loop, timed, Some(empty));
    let measurement = Adaptive::new(plan).measure(&mut driver);
    stats::robust_spread(&stats::summarize(&measurement.samples_ns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_register_is_the_kernels_lfsr() {
        for state in [1u64, 0xACE1, 0xDEAD_BEEF_CAFE_F00D, u64::MAX] {
            for steps in [0, 1, 63, 64, 1000] {
                assert_eq!(
                    lfsr_advance(state, steps),
                    perfmark_kernels::noise::lfsr_advance(state, steps),
                    "state {state:#x}, {steps} steps"
                );
            }
        }
    }
}
