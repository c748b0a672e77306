//! The adaptive sampler, the [`Policy`] of a normal run: first call,
//! loop-overhead calibration, iterations per sample, warm-up, and the
//! adaptive number of samples.
//!
//! The steps, from the sources (Brent Boyer, "Robust Java benchmarking" and
//! its `bb.util.Benchmark`, 2008; Peter Sestoft, "Microbenchmarks in Java
//! and C#", 2016; Joseph M. Newcomer, "Profiling for performance", 1993;
//! "Performance measurement", a university lecture on performance
//! evaluation):
//! 1. the first call is timed on its own (Boyer's `timeExecFirst`);
//! 2. the harness's per-iteration cost `h` is measured with an empty routine
//!    and subtracted, T'e = Tt/n − h (the lecture);
//! 3. `n` grows until a block lasts [`ClockInfo::min_block`] (Sestoft's Mark5
//!    doubling; Boyer's `determineNumberExecutions`), so the clock's
//!    overhead and gating error are negligible (Newcomer; the lecture);
//! 4. blocks run until their time settles or the warm-up cap is reached;
//! 5. samples are taken until the CI of the verdict statistic reaches the
//!    target precision — planned from the pilot as n = (z·s / (e·x̄))²
//!    (the lecture), which with the CI's own correction for serial correlation
//!    accounts for correlated samples — or until `max_time`;
//! 6. with a budget, the budget is looked at from then on only at the looks
//!    of [`crate::budget::looks`] (at most five before `max_time`, each at a
//!    stricter level), so that looking again and again does not raise the
//!    chance of a wrong verdict above the test's confidence;
//! 7. after every sample, one sample of perfmark's machine-state
//!    [`super::reference`] (about 10 µs), which the comparison with a
//!    stored baseline reads to see whether the machine moved.

use std::time::{Duration, Instant};

use super::{resolution_per_iter_ns, Driver, Measurement, Policy, SampleKind, StopReason};
use crate::budget::BudgetLook;
use crate::clock::{self, Clock, ClockInfo};
use crate::stats;

/// How a test is to be measured: the attribute's options resolved against
/// the defaults and the environment.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Confidence level of the CIs.
    pub confidence: f64,
    /// Target relative half-width of the CI.
    pub precision: f64,
    /// Cap on the sampling phase (after warm-up).
    pub max_time: Duration,
    /// Cap on the warm-up phase.
    pub warmup: Duration,
    /// The budget, per iteration, in ns: sampling goes on while the CI
    /// straddles it, up to the looks of [`crate::budget::looks`].
    pub budget_ns: Option<f64>,
    /// Unoptimized build: run a few iterations and measure nothing.
    pub smoke: bool,
    /// Which clock times the blocks (`measure`).
    pub measure: Clock,
    /// The calibration of that clock.
    pub clock: ClockInfo,
    /// The limit on heap allocations per iteration (`allocs`), checked on
    /// the untimed counting pass.
    pub allocs: Option<u64>,
    /// What the caps are measured against.
    pub elapsed: Elapsed,
}

/// What the caps (`max_time`, `warmup`) count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Elapsed {
    /// The wall clock, and for sampling the block times the driver reported
    /// when they add up to more (a custom timer that reports more than it
    /// takes is capped on what it reports).
    #[default]
    WallClock,
    #[cfg_attr(not(any(test, feature = "internals")), allow(dead_code))] // made by `Plan::simulated`
    /// Only the block times the driver reported: the sampler reads no clock,
    /// so a measurement of synthetic `iter_custom` timings is a pure
    /// function of them, whatever the machine's speed (for simulations).
    Reported,
}

impl Plan {
    /// A plan with the given caps, for the current process's clock.
    pub fn new(confidence: f64, precision: f64, max_time: Duration, warmup: Duration) -> Self {
        Plan {
            confidence,
            precision,
            max_time,
            warmup,
            budget_ns: None,
            smoke: false,
            measure: Clock::Wall,
            clock: clock::info(),
            elapsed: Elapsed::WallClock,
            allocs: None,
        }
    }

    #[cfg(any(test, feature = "internals"))]
    /// A plan for simulations: the caps count only the reported times
    /// ([`Elapsed::Reported`]) and the clock is a fixed nominal one (1 ns
    /// resolution, 20 ns per read), so no clock is read or calibrated and a
    /// run through `iter_custom` depends on its synthetic timings alone.
    pub fn simulated(
        confidence: f64,
        precision: f64,
        max_time: Duration,
        warmup: Duration,
    ) -> Self {
        Plan {
            confidence,
            precision,
            max_time,
            warmup,
            budget_ns: None,
            smoke: false,
            clock: ClockInfo {
                resolution_ns: 1.0,
                overhead_ns: 20.0,
            },
            elapsed: Elapsed::Reported,
            measure: Clock::Wall,
            allocs: None,
        }
    }
}

/// A stopwatch that reads the wall clock, or nothing under
/// [`Elapsed::Reported`].
struct Stopwatch(Option<Instant>);

impl Stopwatch {
    fn start(elapsed: Elapsed) -> Self {
        Stopwatch(match elapsed {
            Elapsed::WallClock => Some(Instant::now()),
            Elapsed::Reported => None,
        })
    }

    /// The wall time since the start, in ns; `reported_ns` when no clock is
    /// read.
    fn ns_or(&self, reported_ns: f64) -> f64 {
        self.0.map_or(reported_ns, |start| ns(start.elapsed()))
    }
}

/// Samples before the CI is first looked at.
const PILOT_SAMPLES: usize = 10;
/// No verdict on fewer samples than this, unless `max_time` runs out.
const MIN_SAMPLES: usize = 30;
/// Share of more samples a narrow-enough interval must stay narrow over
/// before sampling stops.
const CONFIRM_FRACTION: f64 = 0.25;
/// Hard cap on samples (a custom timer reporting tiny times could otherwise
/// run long: `max_time` also counts the reported time).
const MAX_SAMPLES: usize = 20_000;
/// Cap on iterations per sample: a custom timer that reports zero time
/// must not grow `n` without end.
pub(crate) const MAX_ITERS_PER_SAMPLE: u64 = 1 << 40;
/// Runs of the routine in an unoptimized build.
const SMOKE_ITERATIONS: u64 = 3;
/// Warm-up: blocks compared in each of the two windows.
const SETTLE_WINDOW: usize = 5;
/// Warm-up has settled when the median block time of the last window is
/// within this fraction of the window before it.
const SETTLE_TOLERANCE: f64 = 0.02;

/// The adaptive sampler: measures a routine until its CI reaches the
/// plan's precision (and is clear of the budget), or until `max_time`.
#[derive(Debug, Clone)]
pub struct Adaptive {
    plan: Plan,
}

impl Adaptive {
    /// The sampler for `plan`.
    pub fn new(plan: Plan) -> Self {
        Adaptive { plan }
    }
}

impl Policy for Adaptive {
    #[inline(always)]
    fn measure<D: Driver + ?Sized>(&mut self, driver: &mut D) -> Measurement {
        run(&self.plan, driver)
    }
}

/// Measures the routine behind `driver` as `plan` asks: the first call,
/// the harness's cost, the warm-up, then samples until the stopping rule
/// ends it. Inlined into the test's body, with the driver and every step
/// that runs it, so that the timed loop sees the routine's captured
/// variables as the test's own locals (see [`Policy`]).
#[inline(always)]
fn run<D: Driver + ?Sized>(plan: &Plan, driver: &mut D) -> Measurement {
    let kind = driver.kind();
    let started = Stopwatch::start(plan.elapsed);
    // The clock's read pair is part of every block we time ourselves.
    // Per-call blocks sum readings of single calls: their read pairs are
    // the harness's cost per iteration, measured with the empty routine.
    let read_pair_ns = match kind {
        SampleKind::Custom | SampleKind::PerCall => 0.0,
        SampleKind::Loop | SampleKind::Batched | SampleKind::Threads => plan.clock.overhead_ns,
    };
    let first_call_ns = (ns(driver.run(1)) - read_pair_ns).max(0.0);
    if plan.smoke {
        return smoke(driver, first_call_ns, read_pair_ns, started);
    }
    let min_block_ns = ns(plan.clock.min_block());
    let loop_overhead_ns = loop_overhead_ns(driver, min_block_ns, read_pair_ns);
    let warm = warm_up(plan, driver, first_call_ns, min_block_ns);
    let sampled = sample(plan, driver, warm.n, read_pair_ns, loop_overhead_ns);
    Measurement {
        kind,
        samples_ns: sampled.samples_ns,
        iters_per_sample: warm.n,
        first_call_ns,
        loop_overhead_ns,
        warmup_ns: warm.ns,
        warmup_blocks: warm.blocks,
        warmup_settled: warm.settled,
        sampling_ns: sampled.sampling_ns,
        stop: sampled.stop,
        planned_samples: sampled.planned_samples,
        budget_look: sampled.budget_look,
        reference_ns: sampled.reference_ns,
    }
}

/// An unoptimized build: [`SMOKE_ITERATIONS`] single calls (the first
/// already made), one sample each, and nothing decided from them.
#[inline(always)]
fn smoke<D: Driver + ?Sized>(
    driver: &mut D,
    first_call_ns: f64,
    read_pair_ns: f64,
    started: Stopwatch,
) -> Measurement {
    let mut samples_ns = vec![first_call_ns];
    for _ in 1..SMOKE_ITERATIONS {
        samples_ns.push((ns(driver.run(1)) - read_pair_ns).max(0.0));
    }
    let sampling_ns = started.ns_or(samples_ns.iter().sum());
    Measurement {
        kind: driver.kind(),
        samples_ns,
        iters_per_sample: 1,
        first_call_ns,
        loop_overhead_ns: 0.0,
        warmup_ns: 0.0,
        warmup_blocks: 0,
        warmup_settled: false,
        sampling_ns,
        stop: StopReason::Smoke,
        planned_samples: 0,
        budget_look: None,
        reference_ns: Vec::new(),
    }
}

/// What the warm-up found: the iterations per sample, and its own account.
struct Warm {
    /// Iterations per block from here on.
    n: u64,
    /// Time the warm-up took, ns (the first call included).
    ns: f64,
    /// Blocks it ran.
    blocks: u64,
    /// Whether the block times settled before the cap.
    settled: bool,
}

/// Warm-up: grows n until a block lasts `min_block_ns`, then runs blocks
/// until their time settles (or the cap). Both phases warm caches, branch
/// predictors and the CPU's frequency.
#[inline(always)]
fn warm_up<D: Driver + ?Sized>(
    plan: &Plan,
    driver: &mut D,
    first_call_ns: f64,
    min_block_ns: f64,
) -> Warm {
    let clock = Stopwatch::start(plan.elapsed);
    let mut reported_ns = first_call_ns;
    let mut n: u64 = 1;
    // The first call is often cold (page faults, lazy initialization):
    // size the blocks from a second call.
    let mut block_ns = ns(driver.run(1));
    let mut blocks = 1u64;
    while block_ns < min_block_ns
        && n < MAX_ITERS_PER_SAMPLE
        && clock.ns_or(reported_ns) < ns(plan.warmup.max(plan.max_time))
    {
        n = grow(n, block_ns, min_block_ns);
        block_ns = ns(driver.run(n));
        reported_ns += block_ns;
        blocks += 1;
    }
    let mut recent: Vec<f64> = Vec::new();
    let mut settled_early = false;
    while clock.ns_or(reported_ns) < ns(plan.warmup) && reported_ns < ns(plan.warmup) {
        recent.push(ns(driver.run(n)));
        reported_ns += recent[recent.len() - 1];
        blocks += 1;
        if settled(&recent) {
            settled_early = true;
            break;
        }
    }
    Warm {
        n,
        ns: clock.ns_or(reported_ns),
        blocks,
        settled: settled_early,
    }
}

/// What the sampling phase took.
struct Sampled {
    samples_ns: Vec<f64>,
    reference_ns: Vec<f64>,
    sampling_ns: f64,
    stop: StopReason,
    planned_samples: usize,
    budget_look: Option<BudgetLook>,
}

/// Sampling: one block of `n` iterations per sample, each followed by a
/// sample of the machine-state reference (on the wall clock; not when the
/// sampler reads no clock), until the [`StopRule`] ends it.
#[inline(always)]
fn sample<D: Driver + ?Sized>(
    plan: &Plan,
    driver: &mut D,
    n: u64,
    read_pair_ns: f64,
    loop_overhead_ns: f64,
) -> Sampled {
    let kind = driver.kind();
    let per_iter = |block_ns: f64| (block_ns - read_pair_ns) / n as f64 - loop_overhead_ns;
    let mut rule = StopRule::new(plan, kind, resolution_per_iter_ns(kind, &plan.clock, n));
    let clock = Stopwatch::start(plan.elapsed);
    let with_reference = plan.elapsed == Elapsed::WallClock;
    let mut reported_ns = 0.0;
    let mut samples_ns: Vec<f64> = Vec::new();
    let mut reference_ns: Vec<f64> = Vec::new();
    let stop = loop {
        let block = ns(driver.run(n));
        reported_ns += block;
        samples_ns.push(per_iter(block));
        if with_reference {
            reference_ns.push(super::reference::sample_ns_per_step());
        }
        let elapsed_ns = clock.ns_or(reported_ns).max(reported_ns);
        if let Some(stop) = rule.after_sample(&samples_ns, elapsed_ns) {
            break stop;
        }
    };
    Sampled {
        samples_ns,
        reference_ns,
        sampling_ns: clock.ns_or(reported_ns),
        stop,
        planned_samples: rule.planned_samples,
        budget_look: rule.budget_look,
    }
}

fn ns(d: Duration) -> f64 {
    d.as_nanos() as f64
}

/// Next iteration count on the way to a block of `target_ns`: aim at the
/// target from the last block's time with 20% to spare, at least doubling
/// (Mark5) and at most ×16 per step so one fast outlier cannot overshoot far.
pub(crate) fn grow(n: u64, block_ns: f64, target_ns: f64) -> u64 {
    let aim = if block_ns > 0.0 {
        (n as f64) * 1.2 * target_ns / block_ns
    } else {
        f64::INFINITY
    };
    let next = aim.clamp(n as f64 * 2.0, n as f64 * 16.0);
    (next as u64).clamp(n + 1, MAX_ITERS_PER_SAMPLE)
}

/// The harness's per-iteration cost: an empty routine timed in blocks of
/// the minimum block length; the smallest of several (the least
/// disturbed). Zero when the driver's harness adds nothing.
///
/// Per-call blocks ([`SampleKind::PerCall`]) take the median instead: their
/// readings are each a whole number of ticks, unbiased only on average
/// (Falco, "Measuring performance via probability", 2009), so the smallest
/// of several sums is biased low, by about one
/// standard deviation of the sum (in simulation, +0.4% on a 300 ns call).
#[inline(always)]
pub(crate) fn loop_overhead_ns<D: Driver + ?Sized>(
    driver: &mut D,
    min_block_ns: f64,
    read_pair_ns: f64,
) -> f64 {
    let per_call = driver.kind() == SampleKind::PerCall;
    let mut empty = |n: u64| driver.run_empty(n).map(ns);
    let Some(mut block_ns) = empty(1) else {
        return 0.0;
    };
    let mut n: u64 = 1;
    while block_ns < min_block_ns && n < MAX_ITERS_PER_SAMPLE {
        n = grow(n, block_ns, min_block_ns);
        block_ns = empty(n).unwrap_or(0.0);
    }
    // A plain loop into an array, not an iterator collected into a Vec:
    // `collect` is not inlined, and the closure handed to it holds the
    // driver, so the routine's captured variables would escape into memory
    // in every timed loop (a 1.8 ns body would read 5.0 ns in `cargo xtask
    // linearity`).
    let mut blocks = [block_ns; 8];
    let mut len = 1;
    for _ in 0..7 {
        if let Some(b) = empty(n) {
            blocks[len] = b;
            len += 1;
        }
    }
    let blocks = &blocks[..len];
    let typical = if per_call {
        stats::quantile(blocks, 0.5)
    } else {
        blocks.iter().copied().fold(f64::INFINITY, f64::min)
    };
    ((typical - read_pair_ns) / n as f64).max(0.0)
}

/// Whether the last window of block times has the same median as the one
/// before it, within [`SETTLE_TOLERANCE`].
fn settled(blocks: &[f64]) -> bool {
    if blocks.len() < 2 * SETTLE_WINDOW {
        return false;
    }
    let median = |window: &[f64]| stats::summarize(window).median;
    let last = median(&blocks[blocks.len() - SETTLE_WINDOW..]);
    let before = median(&blocks[blocks.len() - 2 * SETTLE_WINDOW..blocks.len() - SETTLE_WINDOW]);
    (last - before).abs() <= SETTLE_TOLERANCE * before.abs().max(f64::MIN_POSITIVE)
}

mod stopping;

use stopping::StopRule;

#[cfg(test)]
mod tests;
