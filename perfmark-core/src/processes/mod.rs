//! The spread between processes, measured where it can change a verdict:
//! after a test is measured in the runner's process, it may be measured
//! again, briefly, in fresh worker processes of the same binary, so that
//! the run knows how far apart processes of unchanged code land *here and
//! now*, and its verdicts allow for it.
//!
//! One process cannot know whether its own state is typical. On a shared
//! 16-CPU host a HashMap test ran 42.5 µs in one process and 57–61 µs in
//! half of the later ones: a state that lasts a whole process (where its
//! pages and its CPU landed), which no sample inside the process sees and
//! no machine-wide reference measures. pyperf answers with 20 worker
//! processes by default (Victor Stinner, pyperf's documentation, "Runs,
//! values, warmups, outer and inner loops"); perfmark measures a few, and
//! only where they can change the verdict:
//!
//! - **Independent workers.** Workers run one at a time ([`run`]), each
//!   held on a CPU of an order drawn for the test that starts away from the
//!   CPU the runner measured on, its slices contiguous after its own
//!   untimed warm-up, at its own stack and heap offsets. Nothing else of
//!   the run measures meanwhile, so no two estimates share a CPU's
//!   moment.
//! - **A model that knows each process's precision** ([`combine`]): the
//!   runner's estimate (its serial-correlation interval read back as a
//!   standard error) and each worker's (its slices) are combined by a
//!   random-effects model moderated by the spread learned on this machine
//!   ([`learned`]). With no spread between processes the interval is the
//!   pooled one, which longer sampling narrows; with a real per-process
//!   state it covers the processes.
//! - **Spent where a verdict is close** ([`take_looks`]; the runner's
//!   step is `runner/one_test.rs`): the runner decides alone when its
//!   intervals, widened by the learned spread, settle every check and no
//!   stored baseline is compared or recorded. Otherwise [`FIRST_LOOK`]
//!   workers run, and [`WORKERS`] in all when the first look leaves a check
//!   failing or undecided or the processes beyond the history; a recording
//!   runs every worker in one look; a test with a budget splits its α
//!   between the looks ([`WorkerRun::new`]).
//!
//! The phase is written over [`WorkerDriver`], so that it is tested on
//! simulated processes whose states are known.

use std::time::Duration;

use serde::Serialize;

use crate::baseline::compare::Spread;
use crate::measure::{Measurement, SampleKind};
use crate::stats::dist::{quantile_sorted, sorted_copy};
use crate::stats::summary::{mean, sd_about};
use crate::stats::{Estimate, Interval};

pub mod combine;
pub mod learned;
mod workers;

pub use combine::{random_effects, Combined, Prior, Unit};
pub use workers::{OwnWorkers, WorkerDriver};

/// Workers a test that needs them gets at most: with the runner's own
/// process, five estimates.
pub const WORKERS: usize = 4;

/// Workers run before the first look: a verdict they settle stops there.
pub const FIRST_LOOK: usize = 2;

/// Timed slices each worker runs, back to back after its warm-up.
pub const SLICES: usize = 5;

/// The time a worker's slice aims at: long enough to be timed to 0.1% by
/// a clock of 50 ns cost, short enough that four workers of five slices
/// stay near a quarter of a second.
pub const SLICE_TARGET: Duration = Duration::from_millis(5);

/// The warm-up a worker runs, untimed, before its first slice, at most:
/// page faults, lazy initialization and cold caches of a fresh process.
pub const WARM_CAP: Duration = Duration::from_millis(30);

/// How a test's worker processes are measured: equal work per slice in
/// every process.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProcessPlan {
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
    /// fewer slices (down to 3) where four workers of five would take more
    /// than a quarter of `max_time`. `None` when there is nothing to time
    /// (no samples).
    pub fn for_measurement(m: &Measurement, max_time: Duration) -> Option<ProcessPlan> {
        let per_sample_ns = sorted_median(&m.samples_ns)? + m.loop_overhead_ns;
        let sample_ns = (per_sample_ns * m.iters_per_sample as f64).max(1.0);
        let samples = (SLICE_TARGET.as_nanos() as f64 / sample_ns).ceil().max(1.0);
        let iters = (samples as u64).saturating_mul(m.iters_per_sample.max(1));
        let slice_ns = sample_ns * samples;
        let warm_ns = m.warmup_ns.min(WARM_CAP.as_nanos() as f64).max(slice_ns);
        let warm_iters = ((warm_ns / slice_ns).ceil() as u64).saturating_mul(iters);
        let affordable = (0.25 * max_time.as_nanos() as f64 / (WORKERS as f64 * slice_ns)).floor();
        let slices = (affordable as usize).clamp(3, SLICES);
        let overhead_ns = if m.kind == SampleKind::Custom {
            0.0
        } else {
            m.loop_overhead_ns
        };
        Some(ProcessPlan {
            slices,
            iters,
            warm_iters,
            overhead_ns,
        })
    }
}

/// The per-iteration times of each worker's slices, in the order the
/// workers ran.
pub type WorkerSlices = Vec<Vec<f64>>;

/// Runs one worker per entry of `cpus`, one at a time, over `driver`:
/// each started on its CPU (`None`: where the scheduler puts it), its
/// first slice preceded by its untimed warm-up, its slices back to back,
/// then finished. Returns each worker's slices and the CPU it was held on.
///
/// # Errors
/// The driver's first error (a worker that crashed, hung or refused).
pub fn run<D: WorkerDriver>(
    driver: &mut D,
    plan: &ProcessPlan,
    cpus: &[Option<usize>],
) -> Result<(WorkerSlices, Vec<Option<usize>>), D::Error> {
    let mut workers = Vec::with_capacity(cpus.len());
    let mut held = Vec::with_capacity(cpus.len());
    for &cpu in cpus {
        driver.start(cpu)?;
        let mut slices = Vec::with_capacity(plan.slices);
        for s in 0..plan.slices {
            let warm = if s == 0 { plan.warm_iters } else { 0 };
            let took = driver.slice(plan.iters, warm)?;
            slices.push(took.as_nanos() as f64 / plan.iters as f64 - plan.overhead_ns);
        }
        held.push(driver.finish()?);
        workers.push(slices);
    }
    Ok((workers, held))
}

/// The CPUs a test's workers are held on, in turn: `candidates` in an
/// order drawn with `draw`, the runner's CPU (`runner`) moved last so that
/// the first workers sample the CPUs the runner did not.
pub fn cpu_order(
    candidates: &[usize],
    runner: Option<usize>,
    draw: impl FnMut() -> u64,
) -> Vec<usize> {
    let mut order = crate::cpus::shuffled(candidates, draw);
    if let Some(r) = runner {
        if let Some(at) = order.iter().position(|&c| c == r) {
            let cpu = order.remove(at);
            order.push(cpu);
        }
    }
    order
}

/// What the worker phase of one test gave: each worker's slices, under
/// which plan, with which prior, and how long the phase took.
#[derive(Debug, Clone)]
pub struct WorkerRun {
    /// Each worker's per-iteration slice times ([`run`]).
    pub workers: WorkerSlices,
    /// The plan they were measured under.
    pub plan: ProcessPlan,
    /// Wall time of the phase, process starts and setups included.
    pub elapsed: Duration,
    /// Each worker's CPU, when it was held on one.
    pub cpus: Vec<Option<usize>>,
    /// The spread learned on this machine, which moderates the run's own.
    pub prior: Prior,
    /// Looks taken: 1 when the first [`FIRST_LOOK`] workers settled the
    /// verdict, 2 when every worker ran.
    pub looks: usize,
    /// The looks the test's α is split between (Bonferroni): 2 where the
    /// first workers may settle a budget, 1 where every worker runs
    /// whatever they show or no budget is decided ([`WorkerRun::new`]).
    /// Each look decides at `1 − α / split`.
    pub split: usize,
}

impl WorkerRun {
    /// A phase about to start under `plan` with `prior`: every worker in
    /// one look when `every`, else looks after [`FIRST_LOOK`] and
    /// [`WORKERS`]. A test with a `budget` splits its α between the looks
    /// (Bonferroni): a look may stop on a budget decided either way, and
    /// both ways are errors. Without one, a look stops only on a pass, a
    /// failure is decided at the last look alone, and no split is needed
    /// for the false failures the confidence bounds.
    pub fn new(plan: ProcessPlan, prior: Prior, every: bool, budget: bool) -> WorkerRun {
        WorkerRun {
            workers: Vec::new(),
            plan,
            elapsed: Duration::ZERO,
            cpus: Vec::new(),
            prior,
            looks: 0,
            split: if every || !budget { 1 } else { 2 },
        }
    }
}

/// The workers run by each look: every worker at once, or
/// [`FIRST_LOOK`] and then the rest.
pub fn look_sizes(every: bool) -> &'static [usize] {
    if every {
        &[WORKERS]
    } else {
        &[FIRST_LOOK, WORKERS]
    }
}

/// The sequential looks of a test's worker phase: for each look of
/// [`look_sizes`], `more(upto)` runs workers until `upto` have run and
/// gives the phase so far, `judge` decides on it, and the phase stops at
/// the first judgement `settled` accepts, or after the last look. Returns
/// the last judgement.
///
/// # Errors
/// The first error of `more` (a worker that crashed, hung or refused).
pub fn take_looks<J, E>(
    every: bool,
    mut more: impl FnMut(usize) -> Result<WorkerRun, E>,
    judge: impl Fn(&WorkerRun) -> J,
    settled: impl Fn(&J) -> bool,
) -> Result<J, E> {
    let sizes = look_sizes(every);
    let mut last = None;
    for (look, &upto) in sizes.iter().enumerate() {
        let mut looked = more(upto)?;
        looked.looks = look + 1;
        let judged = judge(&looked);
        let done = settled(&judged);
        last = Some(judged);
        if done {
            break;
        }
    }
    Ok(last.expect("at least one look"))
}

/// The spread between processes one run measured (`report.json`'s per-test
/// `processes`; a baseline entry's `processes`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ProcessSpread {
    /// Each process's estimate, ns/iter: the runner's first, then each
    /// worker's (the geometric mean of its slices).
    pub estimates_ns: Vec<f64>,
    /// Each process's share of the combined estimate's weight, in the same
    /// order.
    #[serde(default)]
    pub weights: Vec<f64>,
    /// The standard deviation of the estimates' natural logarithms, each
    /// process's own sampling noise included.
    pub sd_log: f64,
    /// Its degrees of freedom: processes − 1.
    pub df: f64,
    /// The between-process sd this run measured beyond each process's own
    /// sampling (Paule–Mandel, no smaller than DerSimonian–Laird; log
    /// scale), before the learned prior.
    #[serde(default)]
    pub tau_own: f64,
    /// The between-process sd the interval used: this run's moderated by
    /// the spread learned on this machine.
    #[serde(default)]
    pub tau: f64,
    /// Its degrees of freedom (the prior's and this run's).
    #[serde(default)]
    pub tau_df: f64,
    /// Timed slices per worker.
    pub slices: usize,
    /// Iterations per slice.
    pub iters_per_slice: u64,
    /// Wall time of the worker phase, s (process starts and setups
    /// included).
    pub elapsed_s: f64,
    /// The CPU each worker was held on (`null` where it was not).
    #[serde(default, alias = "pair_cpus")]
    pub cpus: Vec<Option<usize>>,
    /// Looks the phase took (1: its first workers settled the verdict).
    #[serde(default)]
    pub looks: usize,
    /// Whether the processes differed more than this machine's history
    /// for the test allows: the interval then rests on them alone, and the
    /// first look does not settle the test.
    #[serde(default)]
    pub beyond_history: bool,
    /// Whether the combination widened the runner's own interval: the
    /// processes, rather than the runner's samples alone, set it.
    #[serde(default)]
    pub sets_interval: bool,
}

impl ProcessSpread {
    /// The spread of the processes behind `combined`: `units`' estimates
    /// (the runner's first) and the run's plan. `None` with fewer than two
    /// units.
    pub fn new(units: &[Unit], combined: &Combined, run: &WorkerRun) -> Option<ProcessSpread> {
        if units.len() < 2 {
            return None;
        }
        let estimates_ns: Vec<f64> = units.iter().map(|u| u.log.exp()).collect();
        let (sd_log, df) = log_spread(&estimates_ns)?;
        Some(ProcessSpread {
            estimates_ns,
            weights: combined.weights.clone(),
            sd_log,
            df,
            tau_own: combined.tau2_own.sqrt(),
            tau: combined.tau2.sqrt(),
            tau_df: combined.tau2_df,
            slices: run.plan.slices,
            iters_per_slice: run.plan.iters,
            elapsed_s: run.elapsed.as_secs_f64(),
            cpus: run.cpus.clone(),
            looks: run.looks,
            beyond_history: combined.disagree,
            sets_interval: false,
        })
    }

    /// As the regression rule pools it: this run's own between-process sd
    /// beyond sampling, on processes − 1 degrees of freedom.
    pub fn spread(&self) -> Spread {
        Spread {
            sd: self.tau_own,
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

/// The runner's interval `ci` about `point` (on `effective_n` samples) as
/// a process's estimate ([`Unit::from_interval`]).
pub fn runner_unit(point: f64, ci: Interval, effective_n: f64) -> Option<Unit> {
    Unit::from_interval(point, ci.low, ci.high, ci.confidence, effective_n - 1.0)
}

/// The runner's `interval` about `point` combined with each worker's
/// slices `workers` and `prior` ([`random_effects`]): the units (the
/// runner's first), the combination, and its interval at `confidence`.
///
/// `work_ratio` is the runner's timed blocks over one worker's (its
/// slices): where the processes share the routine's noise, a worker's
/// variance is at least the runner's times that ratio, and a worker's few
/// slices, serially correlated as they may be, never claim less
/// ([`Unit::from_slices_at_least`]); 0 leaves each worker to its slices.
/// `None` when the runner's interval is not a positive finite one, or
/// nothing is left to combine.
pub fn combine_interval(
    point: f64,
    interval: Interval,
    effective_n: f64,
    workers: &[Vec<f64>],
    work_ratio: f64,
    prior: Option<Prior>,
    confidence: f64,
) -> Option<(Vec<Unit>, Combined, Interval)> {
    let runner = runner_unit(point, interval, effective_n)?;
    let floor = Unit {
        var: runner.var * work_ratio,
        ..runner
    };
    let mut units = vec![runner];
    units.extend(
        workers
            .iter()
            .filter_map(|w| Unit::from_slices_at_least(w, floor)),
    );
    let combined = random_effects(&units, prior)?;
    let (low, high) = combined.interval_ns(confidence);
    let ci = Interval {
        low,
        high,
        confidence,
    };
    Some((units, combined, ci))
}

/// The runner's estimate `runner` over the processes: the point and the
/// interval of [`combine_interval`] at `confidence` (the runner's
/// serial-correlation interval as its process's precision), the effective
/// sample size the combination's degrees of freedom + 1; with the units
/// and the combination it was made from. With nothing to combine, `runner`
/// as it is and `None`.
pub fn over_processes(
    runner: &Estimate,
    workers: &[Vec<f64>],
    work_ratio: f64,
    prior: Option<Prior>,
    confidence: f64,
) -> (Estimate, Option<(Vec<Unit>, Combined)>) {
    let Some((units, combined, ci)) = combine_interval(
        runner.point,
        runner.ci,
        runner.effective_n,
        workers,
        work_ratio,
        prior,
        confidence,
    ) else {
        return (runner.clone(), None);
    };
    let mut e = runner.clone();
    // Processes that agree exactly (synthetic timings) keep the runner's
    // time and interval as they are: nothing varied, and the round trip
    // through the logarithms and the variance floor would only blur them.
    let exact = runner.ci.low == runner.point
        && runner.ci.high == runner.point
        && workers.iter().flatten().all(|&x| x == runner.point);
    if !exact {
        if combined.tau2 > 0.0 || (combined.log - runner.point.ln()).abs() > 1e-12 {
            e.point = combined.point_ns();
        }
        e.ci = ci;
        e.effective_n = (combined.df + 1.0).min(2.0 * runner.n as f64).max(1.0);
    }
    (e, Some((units, combined)))
}

/// The median of `xs` (any order); `None` when empty.
fn sorted_median(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| quantile_sorted(&sorted_copy(xs), 0.5))
}

#[cfg(test)]
mod tests;
