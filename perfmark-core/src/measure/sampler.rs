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

use crate::budget::looks::{BudgetLooks, LOOK_GROWTH};
use super::{resolution_per_iter_ns, Driver, Measurement, Policy, SampleKind, StopReason};
use crate::clock::{self, Clock, ClockInfo};
use crate::stats::{self, Estimate};

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

/// Measures the routine behind `driver` as `plan` asks. Inlined into the
/// test's body, with the driver, so that the timed loop sees the routine's
/// captured variables as the test's own locals (see [`Policy`]).
#[inline(always)]
fn run<D: Driver + ?Sized>(plan: &Plan, driver: &mut D) -> Measurement {
    let kind = driver.kind();
    let mut timed = |n: u64| driver.run(n);
    let started = Stopwatch::start(plan.elapsed);
    // The clock's read pair is part of every block we time ourselves.
    // Per-call blocks sum readings of single calls: their read pairs are
    // the harness's cost per iteration, measured with the empty routine.
    let read_pair_ns = match kind {
        SampleKind::Custom | SampleKind::PerCall => 0.0,
        SampleKind::Loop | SampleKind::Batched => plan.clock.overhead_ns,
    };
    let statistic = kind.verdict_statistic();
    let first_call_ns = (ns(timed(1)) - read_pair_ns).max(0.0);

    if plan.smoke {
        let mut samples_ns = vec![first_call_ns];
        for _ in 1..SMOKE_ITERATIONS {
            samples_ns.push((ns(timed(1)) - read_pair_ns).max(0.0));
        }
        let sampling_ns = started.ns_or(samples_ns.iter().sum());
        return Measurement {
            kind,
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
        };
    }

    let min_block_ns = ns(plan.clock.min_block());
    let loop_overhead_ns = loop_overhead_ns(driver, min_block_ns, read_pair_ns);
    let mut timed = |n: u64| driver.run(n);

    // Warm-up: grow n until a block is long enough, then run blocks until
    // their time settles (or the cap). Both phases warm caches, branch
    // predictors and the CPU's frequency.
    let warmup_clock = Stopwatch::start(plan.elapsed);
    let mut reported_warmup_ns = first_call_ns;
    let mut n: u64 = 1;
    // The first call is often cold (page faults, lazy initialization):
    // size the blocks from a second call.
    let mut block_ns = ns(timed(1));
    let mut warmup_blocks = 1u64;
    while block_ns < min_block_ns
        && n < MAX_ITERS_PER_SAMPLE
        && warmup_clock.ns_or(reported_warmup_ns) < ns(plan.warmup.max(plan.max_time))
    {
        n = grow(n, block_ns, min_block_ns);
        block_ns = ns(timed(n));
        reported_warmup_ns += block_ns;
        warmup_blocks += 1;
    }
    let mut recent: Vec<f64> = Vec::new();
    let mut warmup_settled = false;
    while warmup_clock.ns_or(reported_warmup_ns) < ns(plan.warmup)
        && reported_warmup_ns < ns(plan.warmup)
    {
        recent.push(ns(timed(n)));
        reported_warmup_ns += recent[recent.len() - 1];
        warmup_blocks += 1;
        if settled(&recent) {
            warmup_settled = true;
            break;
        }
    }
    let warmup_ns = warmup_clock.ns_or(reported_warmup_ns);

    // Sampling.
    let per_iter = |block_ns: f64| (block_ns - read_pair_ns) / n as f64 - loop_overhead_ns;
    let resolution_ns = resolution_per_iter_ns(kind, &plan.clock, n);
    let sampling_clock = Stopwatch::start(plan.elapsed);
    let max_time_ns = ns(plan.max_time);
    let mut reported_ns = 0.0;
    let mut samples_ns: Vec<f64> = Vec::new();
    let mut next_check = PILOT_SAMPLES;
    let mut planned_samples = MIN_SAMPLES;
    // Sample count at which the CI first looked good enough, awaiting
    // confirmation (see CONFIRM_FRACTION).
    let mut candidate: Option<usize> = None;
    // With a budget: its looks, whether they have begun (the precision was
    // reached), and the sample count of the next interim look.
    let mut looks = plan
        .budget_ns
        .map(|_| BudgetLooks::new(plan.confidence, statistic));
    let mut looking = false;
    let mut next_look: Option<usize> = None;
    let mut budget_look = None;
    // The machine-state reference after every sample, on the wall clock;
    // not when the sampler reads no clock (synthetic timings).
    let with_reference = plan.elapsed == Elapsed::WallClock;
    let mut reference_ns: Vec<f64> = Vec::new();
    let stop = loop {
        let block = ns(timed(n));
        reported_ns += block;
        samples_ns.push(per_iter(block));
        if with_reference {
            reference_ns.push(super::reference::sample_ns_per_step());
        }
        let taken = samples_ns.len();
        let elapsed_ns = sampling_clock.ns_or(reported_ns).max(reported_ns);
        let out_of_time = elapsed_ns >= max_time_ns || taken >= MAX_SAMPLES;
        if !looking && taken >= next_check {
            let estimate = stats::estimate_with(&samples_ns, plan.confidence, statistic);
            if precise_enough(&estimate, plan.precision) && taken >= MIN_SAMPLES {
                // Stopping the first time an interval looks narrow favours
                // intervals that are narrow by chance (optional stopping):
                // independent synthetic samples covered their truth 91% of
                // the time at 95%. Stop only when the interval still holds
                // after a quarter more samples.
                match candidate {
                    Some(first) if taken >= confirm_at(first) => {
                        if looks.is_none() {
                            break StopReason::Precision;
                        }
                        // Precise enough: the budget's first look is now.
                        looking = true;
                        next_look = Some(taken);
                    }
                    Some(first) => next_check = confirm_at(first),
                    None => {
                        candidate = Some(taken);
                        next_check = confirm_at(taken);
                    }
                }
            } else {
                candidate = None;
                planned_samples = plan_samples(&estimate, plan.precision, taken);
                next_check = next_check_at(taken, planned_samples);
            }
        }
        if let (Some(budget_ns), Some(looks)) = (plan.budget_ns, looks.as_mut()) {
            // An interim look that falls on the last sample gives way to
            // the last look, which spends the share it would have.
            if next_look.is_some_and(|at| taken >= at) && !out_of_time {
                let look = looks.look(&samples_ns, resolution_ns, false);
                if look.clears(budget_ns) {
                    budget_look = Some(look);
                    break StopReason::Precision;
                }
                next_look = looks.interim_left().then_some(taken * LOOK_GROWTH);
            }
            if out_of_time {
                budget_look = Some(looks.look(&samples_ns, resolution_ns, true));
            }
        }
        if elapsed_ns >= max_time_ns {
            break StopReason::MaxTime;
        }
        if taken >= MAX_SAMPLES {
            break StopReason::SampleCap;
        }
    };

    Measurement {
        kind,
        samples_ns,
        iters_per_sample: n,
        first_call_ns,
        loop_overhead_ns,
        warmup_ns,
        warmup_blocks,
        warmup_settled,
        sampling_ns: sampling_clock.ns_or(reported_ns),
        stop,
        planned_samples,
        budget_look,
        reference_ns,
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

/// The sample count that confirms a stop first considered at `first`.
fn confirm_at(first: usize) -> usize {
    first + ((first as f64 * CONFIRM_FRACTION).ceil() as usize).max(1)
}

fn precise_enough(estimate: &Estimate, precision: f64) -> bool {
    estimate.ci.relative_half_width(estimate.point) <= precision
}

/// Samples needed for the target precision, from the current interval: the
/// half-width shrinks as 1/√n, so n' = n · (w / e)² (the lecture "Performance
/// measurement"'s n = (z·s / (e·x̄))², with the interval's own z, spread and
/// correction for serial correlation already inside w).
fn plan_samples(estimate: &Estimate, precision: f64, n: usize) -> usize {
    let w = estimate.ci.relative_half_width(estimate.point);
    if !w.is_finite() {
        return n * 2;
    }
    let ratio = (w / precision).powi(2);
    ((n as f64 * ratio).ceil() as usize).clamp(MIN_SAMPLES, MAX_SAMPLES)
}

/// When to look at the CI again: at the planned count, but never more than
/// half as many samples again as we have (the plan is refined as we go),
/// and never less than one more.
fn next_check_at(n: usize, planned: usize) -> usize {
    planned.clamp(n + 1, n + (n / 2).max(1))
}

#[cfg(test)]
mod tests;
