//! The spread between processes, measured in every run: after a test is
//! measured in the runner's process, it is measured again, briefly, in
//! fresh worker processes of the same binary, so that the run knows how far
//! apart processes of unchanged code land *here and now*, and its verdicts
//! allow for it.
//!
//! One process cannot know whether its own state is typical. On a shared
//! 16-CPU host a HashMap test ran 42.5 µs in one process and 57–61 µs in
//! half of the later ones: a state that lasts a whole process (where its
//! pages and its CPU landed), which no sample inside the process sees and
//! no machine-wide reference measures. pyperf answers with 20 worker
//! processes by default (Victor Stinner, pyperf's documentation, "Runs,
//! values, warmups, outer and inner loops"); perfmark measures a few, with
//! the paired comparison's workers ([`crate::paired`]): two process pairs,
//! each pair's two workers held on one CPU and their slices interleaved,
//! each worker at its own stack and heap offsets.
//!
//! Each process gives one estimate (the median of its slices; the runner's
//! process its verdict statistic), and with them:
//! - the test's point is their geometric mean, and its interval is
//!   Student's t over their logarithms (widened to hold the runner's own
//!   interval): a budget's interval covers the processes
//!   ([`over_processes`]);
//! - the standard deviation of their logarithms, with `k − 1` degrees of
//!   freedom, is this run's between-process spread ([`ProcessSpread`]),
//!   which the regression rule pools with the recording's and its prior
//!   ([`crate::baseline::compare::RegressionRule::test_spread_with`]), and
//!   which `--save-baseline` stores with the test's entry.
//!
//! The policy is written over [`PairDriver`], so that it is tested on
//! simulated processes whose offsets are known.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::paired::measure::{PairDriver, Side};
use crate::measure::{Measurement, SampleKind};
use crate::baseline::compare::Spread;
use crate::stats::dist::{quantile_sorted, sorted_copy, t_quantile, upper_tail_probability};
use crate::stats::summary::{mean, sd_about};
use crate::stats::{Estimate, Interval};

/// Process pairs started for each test (two workers each): with the
/// runner's own process, five estimates and four degrees of freedom.
//
// Chosen from figures (docs/design/placement-and-processes.md): at one pair the
// spread has 2 df and its two-sided 95% t quantile (4.30) makes every
// interval wide; at three pairs the phase costs half as much again for a
// quantile of 2.45 instead of 2.78. Two pairs also put one pair on each CPU
// of a 2-CPU machine.
pub const PAIRS: usize = 2;

/// Timed slices each worker runs.
pub const SLICES: usize = 5;

/// The time a worker's slice aims at: long enough to be timed to 0.1% by
/// a clock of 50 ns cost, short enough that five processes of five slices
/// stay near a quarter of a second.
pub const SLICE_TARGET: Duration = Duration::from_millis(5);

/// The warm-up a worker runs, untimed, before its first slice, at most:
/// page faults, lazy initialization and cold caches of a fresh process.
pub const WARM_CAP: Duration = Duration::from_millis(30);

/// How a test's worker processes are measured: equal work per slice in
/// every process.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProcessPlan {
    /// Process pairs to start.
    pub pairs: usize,
    /// Timed slices per worker.
    pub slices: usize,
    /// Iterations per slice.
    pub iters: u64,
    /// Untimed iterations before a worker's first slice.
    pub warm_iters: u64,
    /// The harness's cost per iteration, ns, subtracted from every slice
    /// as from the runner's samples (0 for `iter_custom`).
    pub overhead_ns: f64,
}

impl ProcessPlan {
    /// The plan for a test whose runner-process measurement is `m`: slices
    /// of whole samples lasting about [`SLICE_TARGET`], a warm-up of the
    /// runner's own (capped at [`WARM_CAP`]) and at least one slice, and
    /// fewer slices (down to 2) where five would take more than a quarter
    /// of `max_time`. `None` when there is nothing to time (no samples).
    pub fn for_measurement(m: &Measurement, max_time: Duration) -> Option<ProcessPlan> {
        let per_sample_ns = sorted_median(&m.samples_ns)? + m.loop_overhead_ns;
        let sample_ns = (per_sample_ns * m.iters_per_sample as f64).max(1.0);
        let samples = (SLICE_TARGET.as_nanos() as f64 / sample_ns).ceil().max(1.0);
        let iters = (samples as u64).saturating_mul(m.iters_per_sample.max(1));
        let slice_ns = sample_ns * samples;
        let warm_ns = m.warmup_ns.min(WARM_CAP.as_nanos() as f64).max(slice_ns);
        let warm_iters = ((warm_ns / slice_ns).ceil() as u64).saturating_mul(iters);
        let workers = (2 * PAIRS) as f64;
        let affordable = (0.25 * max_time.as_nanos() as f64 / (workers * slice_ns)).floor();
        let slices = (affordable as usize).clamp(2, SLICES);
        let overhead_ns = if m.kind == SampleKind::Custom {
            0.0
        } else {
            m.loop_overhead_ns
        };
        Some(ProcessPlan {
            pairs: PAIRS,
            slices,
            iters,
            warm_iters,
            overhead_ns,
        })
    }
}

/// The per-iteration times of each worker's slices, in the order the
/// workers were started: pair `p`'s head-side worker at `2p`, its other
/// at `2p + 1`.
pub type WorkerSlices = Vec<Vec<f64>>;

/// Runs `plan` over `driver`: for each pair, opens it and runs the slices
/// of its two workers in turn, the order alternating (ABBA) so neither
/// always follows the other; each worker's first slice is preceded by its
/// untimed warm-up. Both "sides" of the driver run this build.
///
/// # Errors
/// The driver's first error (a worker that crashed, hung or refused).
pub fn run<D: PairDriver>(driver: &mut D, plan: &ProcessPlan) -> Result<WorkerSlices, D::Error> {
    let mut workers: WorkerSlices = Vec::with_capacity(2 * plan.pairs);
    for _ in 0..plan.pairs {
        driver.open_pair()?;
        let mut ours = [
            Vec::with_capacity(plan.slices),
            Vec::with_capacity(plan.slices),
        ];
        for s in 0..plan.slices {
            let order = if s % 2 == 0 {
                [Side::Head, Side::Base]
            } else {
                [Side::Base, Side::Head]
            };
            for side in order {
                let warm = if s == 0 { plan.warm_iters } else { 0 };
                let took = driver.slice(side, plan.iters, warm)?;
                let per_iter = took.as_nanos() as f64 / plan.iters as f64 - plan.overhead_ns;
                ours[usize::from(side == Side::Base)].push(per_iter);
            }
        }
        workers.extend(ours);
    }
    Ok(workers)
}

/// What the worker phase of one test gave: each worker's slices, under
/// which plan, and how long the phase took.
#[derive(Debug, Clone)]
pub struct WorkerRun {
    /// Each worker's per-iteration slice times ([`run`]).
    pub workers: WorkerSlices,
    /// The plan they were measured under.
    pub plan: ProcessPlan,
    /// Wall time of the phase, process starts and setups included.
    pub elapsed: Duration,
    /// Each pair's CPU, when its two workers were held on one.
    pub pair_cpus: Vec<Option<usize>>,
}

/// The between-process spread one run measured (`report.json`'s per-test
/// `processes`; a baseline entry's `processes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProcessSpread {
    /// Each process's estimate, ns/iter: the runner's first, then each
    /// worker's median slice.
    pub estimates_ns: Vec<f64>,
    /// The standard deviation of their natural logarithms.
    pub sd_log: f64,
    /// Its degrees of freedom: processes − 1.
    pub df: f64,
    /// Timed slices per worker, and iterations per slice.
    pub slices: usize,
    /// Iterations per slice.
    pub iters_per_slice: u64,
    /// Wall time of the worker phase, s (process starts and setups
    /// included).
    pub elapsed_s: f64,
    /// The CPU each worker pair was held on (`null` where it was not),
    /// both workers of a pair on one: the spread between pairs is then
    /// partly the spread between CPUs.
    #[serde(default)]
    pub pair_cpus: Vec<Option<usize>>,
    /// Whether this spread, rather than the runner's own samples, set the
    /// estimate's interval: more sampling time (`max_time`) then cannot
    /// narrow it, only processes that agree more.
    #[serde(default)]
    pub sets_interval: bool,
}

impl ProcessSpread {
    /// The spread of `runner_ns` (the runner's estimate) and `workers`
    /// (each worker's slice times): `None` when fewer than two processes
    /// give a positive estimate (the logarithm needs one).
    pub fn new(runner_ns: f64, run: &WorkerRun) -> Option<ProcessSpread> {
        let WorkerRun {
            workers,
            plan,
            elapsed,
            pair_cpus,
        } = run;
        let mut estimates_ns = vec![runner_ns];
        estimates_ns.extend(workers.iter().filter_map(|w| sorted_median(w)));
        let (sd_log, df) = log_spread(&estimates_ns)?;
        Some(ProcessSpread {
            estimates_ns,
            sd_log,
            df,
            slices: plan.slices,
            iters_per_slice: plan.iters,
            elapsed_s: elapsed.as_secs_f64(),
            pair_cpus: pair_cpus.clone(),
            sets_interval: false,
        })
    }

    /// As the regression rule pools it.
    pub fn spread(&self) -> Spread {
        Spread {
            sd: self.sd_log,
            df: self.df,
        }
    }

}

/// The standard deviation of the logarithms of `xs` with its degrees of
/// freedom; `None` with fewer than two values or one not positive.
pub fn log_spread(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.len() < 2 || xs.iter().any(|&x| !(x > 0.0 && x.is_finite())) {
        return None;
    }
    let logs: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
    Some((sd_about(&logs, mean(&logs)), (xs.len() - 1) as f64))
}

/// The runner's estimate `runner` widened to the processes: the point is
/// the geometric mean of the process estimates `estimates_ns` (the
/// runner's among them: the center the regression rule compares on its log
/// scale, and one that a single slow process moves less than the mean),
/// and the interval is `point · exp(± t_{k−1} · s / √k)` with `s` the sd of
/// their logarithms, each end at least as far from the point, relatively,
/// as the runner's independent-samples interval's end is from its point
/// (the processes are the independent units, as in
/// [`crate::stats::estimate_in_groups`]: the runner's serial-correlation
/// interval, which can be unbounded when its samples barely change sign,
/// says nothing the processes do not); the effective sample size is `k`.
/// With fewer than two process estimates, or one not positive (a time
/// below the harness's cost), `runner` as it is.
pub fn over_processes(runner: &Estimate, estimates_ns: &[f64]) -> Estimate {
    let Some((point, ci)) = widen(runner.point, runner.naive_ci, estimates_ns) else {
        return runner.clone();
    };
    let mut e = runner.clone();
    e.point = point;
    e.ci = ci;
    e.effective_n = estimates_ns.len() as f64;
    e
}

/// An interval `ci` about `runner_point` widened to the processes, at its
/// own confidence, as [`over_processes`] widens an estimate's: the
/// geometric mean of `estimates_ns` and the interval about it. An end of
/// `ci` that is not a positive finite time bounds nothing and is left
/// out. `None` with fewer than two estimates, one not positive and finite,
/// or a runner's point that is not.
pub fn widen(runner_point: f64, ci: Interval, estimates_ns: &[f64]) -> Option<(f64, Interval)> {
    let (sd_log, df) = log_spread(estimates_ns)?;
    if !(runner_point > 0.0 && runner_point.is_finite()) {
        return None;
    }
    let k = estimates_ns.len() as f64;
    let logs: Vec<f64> = estimates_ns.iter().map(|x| x.ln()).collect();
    // Processes that agree exactly (synthetic timings) give their time
    // itself, not its round trip through the logarithm.
    let point = if sd_log == 0.0 {
        estimates_ns[0]
    } else {
        mean(&logs).exp()
    };
    let half = t_quantile(upper_tail_probability(ci.confidence), df) * sd_log / k.sqrt();
    let usable = |end: f64| end > 0.0 && end.is_finite();
    let below = if usable(ci.low) {
        (ci.low / runner_point).min((-half).exp())
    } else {
        (-half).exp()
    };
    let above = if usable(ci.high) {
        (ci.high / runner_point).max(half.exp())
    } else {
        half.exp()
    };
    let interval = Interval {
        low: point * below,
        high: point * above,
        confidence: ci.confidence,
    };
    Some((point, interval))
}

/// The median of `xs` (any order); `None` when empty.
fn sorted_median(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| quantile_sorted(&sorted_copy(xs), 0.5))
}

#[cfg(test)]
mod tests;
