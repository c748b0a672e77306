//! The machine-state reference: a workload of perfmark's own, timed beside
//! each test's samples, so that a comparison with a stored baseline can see
//! whether the machine itself is slower or faster than when the baseline
//! was recorded.
//!
//! A stored baseline compares two processes that ran hours or days apart.
//! On a shared virtual machine the processes can run in different states of
//! the host (another clock frequency, a busy neighbour on the same core):
//! the whole process moves, every test with it. Normalizing by the user's
//! own tests would hide a regression that touches them all; the reference
//! is code the user does not write, so a change to the user's code moves
//! the test's ratio and never the reference's.
//!
//! The workload is a chain of dependent multiply, rotate and xor steps on
//! one register: its time is the latency of the core's integer pipeline
//! times the step count, whatever the memory system or the branch
//! predictor do, and it does not depend on where the linker put it (the
//! loop is latency-bound, not fetch-bound). It therefore follows the
//! core's clock and its share of the physical core, which is what moved
//! every test of a process together on the reference machine; a test bound
//! by memory follows it only in part, which is why the regression rule
//! never assumes a test follows it fully (`baseline::compare::reference`).
//!
//! One reference sample of [`STEPS`] steps (about 10 µs) is taken after
//! every sample of the test: at least a millisecond each
//! ([`crate::clock::ClockInfo::min_block`]), so the reference costs about
//! 1% of a test's sampling time, and its samples span the test's.

use std::hint::black_box;
use std::time::Instant;

use crate::stats::{self, Estimate, Statistic};

/// Steps in one reference sample: about 10 µs on a 3–4 GHz core (5 cycles
/// per step). Fixed, so that the time per step of two processes is
/// comparable whatever their speed.
pub const STEPS: u64 = 8_192;

/// Runs the reference chain of `steps` steps from `seed` and returns its
/// last value (kept by the caller through [`black_box`], so the chain
/// cannot be folded away).
#[inline(never)]
fn chain(seed: u64, steps: u64) -> u64 {
    let mut x = seed | 1;
    for i in 0..steps {
        // Each step needs the previous one's result: a multiply (3–4
        // cycles), a rotate and an xor, never run in parallel.
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23) ^ i;
    }
    x
}

/// One reference sample: the time of [`STEPS`] steps, in ns per step, on
/// the wall clock.
pub fn sample_ns_per_step() -> f64 {
    let seed = black_box(0x5EED_u64);
    let start = Instant::now();
    let x = chain(seed, black_box(STEPS));
    let elapsed = start.elapsed();
    black_box(x);
    elapsed.as_nanos() as f64 / STEPS as f64
}

/// The reference's estimate over a test's reference samples (ns per step):
/// their median with its CI at `confidence`, as the test's own verdict
/// statistic is estimated. When the correction for serial correlation
/// leaves that CI unbounded (a few samples on a loaded machine), the CI of
/// independent samples stands in: the reference's spread is far below the
/// machine's moves it is there to see. `None` with fewer than 2 samples, or
/// when no finite, positive interval contains the median.
pub fn estimate(samples_ns: &[f64], confidence: f64) -> Option<Estimate> {
    if samples_ns.len() < 2 {
        return None;
    }
    let mut e = stats::estimate_with(samples_ns, confidence, Statistic::Median);
    let usable = |ci: &crate::stats::Interval| {
        ci.low > 0.0 && ci.high.is_finite() && ci.low <= e.point && e.point <= ci.high
    };
    if !usable(&e.ci) {
        e.ci = e.naive_ci;
    }
    (e.point > 0.0 && e.point.is_finite() && usable(&e.ci)).then_some(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_is_a_pure_function_of_its_seed_and_length() {
        assert_eq!(chain(7, 100), chain(7, 100));
        assert_ne!(chain(7, 100), chain(7, 101));
        assert_ne!(chain(7, 100), chain(9, 100));
    }

    #[test]
    fn twice_the_steps_take_about_twice_the_time() {
        // Medians of 31 timings each: 4× the steps read 3–5× the time.
        let time = |steps: u64| {
            let mut t: Vec<f64> = (0..31)
                .map(|_| {
                    let start = Instant::now();
                    black_box(chain(black_box(3), black_box(steps)));
                    start.elapsed().as_nanos() as f64
                })
                .collect();
            t.sort_by(f64::total_cmp);
            t[15]
        };
        let ratio = time(4 * STEPS) / time(STEPS);
        assert!((3.0..5.0).contains(&ratio), "4× the steps read {ratio:.2}×");
    }

    #[test]
    fn a_sample_is_a_positive_time_per_step_and_the_estimate_its_median() {
        let samples: Vec<f64> = (0..20).map(|_| sample_ns_per_step()).collect();
        assert!(samples.iter().all(|s| *s > 0.0 && s.is_finite()));
        let e = estimate(&samples, 0.95).unwrap();
        assert!(e.ci.low <= e.point && e.point <= e.ci.high);
        assert!(estimate(&samples[..1], 0.95).is_none());
        // Serially correlated samples (a slow stretch, then a fast one):
        // still a finite interval around the median.
        let drifting: Vec<f64> = (0..38).map(|i| if i < 19 { 1.3 } else { 1.1 }).collect();
        let e = estimate(&drifting, 0.95).unwrap();
        assert!(e.ci.low > 0.0 && e.ci.high.is_finite(), "{:?}", e.ci);
    }
}
