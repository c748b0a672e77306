//! The slice policy of a paired comparison: what to time next, when to
//! stop, and the verdict of `--compare-with`.
//!
//! The policy runs over a [`PairDriver`], which the coordinator implements
//! over two worker processes (one of each build) and the simulation over a
//! simulated machine (`tests/paired_simulation.rs`). The statistics are in
//! [`crate::paired::stats`]; `docs/design/paired-comparison.md` explains the design
//! and gives the simulation's figures.
//!
//! One comparison, step by step:
//!
//! 1. Open the first process pair and read the harness's loop overhead
//!    (one figure for both sides, subtracted from both: `T'e = Tt/n − h`,
//!    as the university lecture "Performance measurement" writes it), so
//!    that k times the work reads k times the time even for bodies of a
//!    nanosecond.
//! 2. Find the iterations per slice on the head: grow `n` (at least
//!    doubling, as Peter Sestoft's Mark5 in "Microbenchmarks in Java and
//!    C#" (2016)) until a slice lasts
//!    [`PairedPlan::slice_target`]. Both sides and all later pairs use that
//!    `n`, so every slice pair compares equal work.
//! 3. In each process pair, run [`PairedPlan::slices_per_pair`] slice pairs
//!    in ABBA order: base then head, head then base, base then head… (as
//!    tango-bench swaps the order on every sample). Each side is warmed for
//!    a whole slice in a fresh process (page faults, lazy initialization,
//!    cold caches): the head by a discarded slice when the pair opens, the
//!    base by an untimed warm run before its first slice; a slice that follows
//!    the other side is preceded by a short one
//!    ([`PairedPlan::switch_warm_share`] of a slice) to refill caches and
//!    predictors. The ABBA order cancels whatever order effect is left, and
//!    [`PairedEstimate::order_effect`] measures it.
//! 4. At the looks of the [`LookSchedule`] (every [`PairedPlan::look_every`]
//!    pairs from [`PairedPlan::min_pairs`]), estimate the ratio at that
//!    look's level and stop when the interval is clear of the tolerance
//!    either way (its lower bound above `1 + tolerance`: a regression; its
//!    upper bound below: none possible) or as narrow as
//!    [`PairedPlan::precision`]. Otherwise go on, up to
//!    [`PairedPlan::max_pairs`] or [`PairedPlan::max_time`]. The verdict
//!    is then [`decide`](crate::paired::stats::decide)'s on the estimate of the look that stopped.
//!
//! When the driver has several links of each build
//! ([`PairDriver::layouts`]), process pair `p` runs link `p mod k` of each
//! side, and the pairs that ran the same links are pooled into one unit of
//! replication before the estimate (their slice pairs concatenated, so
//! their quads stay whole): pairs that share a layout are not independent
//! draws of it. With at least as many links as pairs, every pair is a unit
//! of its own.

use std::time::Duration;

use serde::Serialize;

use crate::measure::{Measurement, SampleKind, StopReason};
use crate::observe::ThreadObservation;
use crate::paired::record::PairedStop;
use crate::paired::stats::{LookSchedule, PairCenter, PairedEstimate, PairedVerdict};
use crate::verdicts::Outcome;
pub use crate::worker::Side;

/// Runs timed slices of one test in a pair of processes, one per build.
pub trait PairDriver {
    /// What can go wrong (a worker that crashed, hung or speaks another
    /// protocol); [`run_paired`] stops at the first error and returns it.
    type Error;

    /// Start a fresh process pair (one new base process + one new head
    /// process, both ready to serve slices of the test). The previous pair,
    /// if any, is finished.
    fn open_pair(&mut self) -> Result<(), Self::Error>;

    /// Run `iters` iterations on one side of the current pair and return the
    /// timed block's duration. The worker first runs `warm_iters` iterations
    /// untimed when `warm_iters > 0`.
    fn slice(&mut self, side: Side, iters: u64, warm_iters: u64) -> Result<Duration, Self::Error>;

    /// The harness's own cost per iteration in ns, measured with an empty
    /// routine on the head side of the current pair (`None` when the
    /// routine kind has no empty twin, e.g. `iter_custom`). One figure
    /// serves both sides.
    fn loop_overhead_ns(&mut self) -> Result<Option<f64>, Self::Error>;

    /// Time since the comparison started (the real clock for processes;
    /// simulated time in tests).
    fn elapsed(&self) -> Duration;

    /// What the worker of the last slice observed of its measuring thread
    /// over that slice ([`crate::observe`]), once; `None` when it said
    /// nothing (the default).
    fn last_observation(&mut self) -> Option<ThreadObservation> {
        None
    }

    /// How many links (layouts) of each build the driver cycles through,
    /// process pair `p` running link `p mod layouts()` of each side; 1 (the
    /// default) when each build comes in one link, every pair then being
    /// its own unit of replication.
    fn layouts(&self) -> usize {
        1
    }
}

/// How a paired comparison is to be run. [`PairedPlan::new`] documents the
/// defaults and why.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedPlan {
    /// The test's confidence, one-sided: the false-failure rate of unchanged
    /// code is at most `1 − confidence` over all looks together.
    pub confidence: f64,
    /// The relative tolerance (0.05 for 5%): a slowdown must exceed it, on
    /// the point estimate, to fail.
    pub tolerance: f64,
    /// How long one timed slice should last.
    pub slice_target: Duration,
    /// Cap on the whole comparison, process starts included. No process
    /// pair is started that the last pair's duration says would end past it.
    pub max_time: Duration,
    /// Process pairs before the first look (at least 2; 3 or more gives the
    /// t quantile at least 2 degrees of freedom).
    pub min_pairs: usize,
    /// Cap on process pairs (taken down to the last look of the schedule).
    pub max_pairs: usize,
    /// Slice pairs per process pair; made even (the ABBA order needs pairs
    /// of slice pairs), and lowered for slow bodies so that `min_pairs`
    /// pairs fit in `max_time`.
    pub slices_per_pair: usize,
    /// Stop once the interval's relative half-width is at most this.
    pub precision: f64,
    /// Pairs between looks after `min_pairs`.
    pub look_every: usize,
    /// The looks and their shares of `1 − confidence`; `None` for
    /// [`LookSchedule::equal`]`(min_pairs, max_pairs, look_every)`.
    pub looks: Option<LookSchedule>,
    /// How each process pair's log ratios are reduced to one center.
    pub center: PairCenter,
    /// Untimed warm run before a slice that follows the other side, as a
    /// share of the slice's iterations (rounded down; 0 disables it).
    pub switch_warm_share: f64,
    /// Whether each side is warmed for a whole slice in a fresh process: the
    /// head by a discarded slice when the pair opens, the base by an untimed
    /// warm run before its first slice.
    pub first_slice_warm: bool,
}

impl PairedPlan {
    /// A plan at one-sided `confidence` and `tolerance`, capped at
    /// `max_time`, with these defaults:
    ///
    /// - `slice_target` 10 ms: short enough that the machine rarely changes
    ///   state within a slice pair (tango-bench's and the figure);
    /// - `slices_per_pair` 6 (three ABBA quads, so the per-pair median has
    ///   one to spare); the spread *between* process pairs dominates, so
    ///   more pairs buy more than longer pairs;
    /// - `min_pairs` 4, `max_pairs` 10, a look every 2 pairs: 4 looks at 4,
    ///   6, 8 and 10 pairs, each with a quarter of `1 − confidence`;
    /// - `precision` 1% (the runner's default);
    /// - warm runs of a whole slice in fresh processes and of a tenth of a
    ///   slice after each switch of side.
    ///
    /// One process pair then takes 12 timed slices of 10–12 ms, a discarded
    /// one, warm runs and the start of two processes (20–50 ms): about
    /// 0.2 s. Unchanged code and clear regressions stop at the first look,
    /// in about 0.9 s; changes near the tolerance use all 10 pairs, about
    /// 2.2 s. In the simulation the median time is below 2 s for every true
    /// change (`docs/design/paired-comparison.md`); 12 pairs took it to 2.3 s next
    /// to the tolerance for about one point more detection there.
    pub fn new(confidence: f64, tolerance: f64, max_time: Duration) -> Self {
        PairedPlan {
            confidence,
            tolerance,
            slice_target: Duration::from_millis(10),
            max_time,
            min_pairs: 4,
            max_pairs: 10,
            slices_per_pair: 6,
            precision: 0.01,
            look_every: 2,
            looks: None,
            center: PairCenter::QuadMedian,
            switch_warm_share: 0.1,
            first_slice_warm: true,
        }
    }

    /// The look schedule in force.
    pub fn schedule(&self) -> LookSchedule {
        self.looks.clone().unwrap_or_else(|| {
            let min = self.min_pairs.max(2);
            LookSchedule::equal(min, self.max_pairs.max(min), self.look_every.max(1))
        })
    }
}

/// One base slice and the head slice next to it, as times per iteration
/// with the loop overhead subtracted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct SlicePair {
    /// Index of the process pair it ran in (0-based).
    pub pair: usize,
    /// Whether the head slice ran first.
    pub head_first: bool,
    /// Base time per iteration, ns.
    pub base_ns: f64,
    /// Head time per iteration, ns.
    pub head_ns: f64,
    /// The base worker's measuring thread over its slice, when reported.
    pub base_observed: Option<ThreadObservation>,
    /// The head worker's measuring thread over its slice, when reported.
    pub head_observed: Option<ThreadObservation>,
}

impl SlicePair {
    /// `ln(head / base)`; not finite when a time is not positive.
    pub fn log_ratio(&self) -> f64 {
        (self.head_ns / self.base_ns).ln()
    }
}

/// What a paired comparison measured and decided.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct PairedMeasurement {
    /// Iterations in every timed slice, both sides.
    pub iters_per_slice: u64,
    /// Slice pairs per process pair.
    pub slices_per_pair: usize,
    /// Every slice pair, in the order taken.
    pub slice_pairs: Vec<SlicePair>,
    /// The per-iteration loop overhead subtracted from both sides, ns
    /// (`None`: the routine kind has none, nothing subtracted).
    pub loop_overhead_ns: Option<f64>,
    /// Process pairs started.
    pub pairs_opened: usize,
    /// Head slices run (untimed for the comparison) to find
    /// `iters_per_slice`.
    pub search_slices: usize,
    /// Head slices run and discarded to warm a fresh head process (one per
    /// process pair after the first, when [`PairedPlan::first_slice_warm`]).
    pub discarded_slices: usize,
    /// Untimed warm iterations before the base's first slice in a fresh
    /// process.
    pub first_slice_warm_iters: u64,
    /// Untimed warm iterations before a slice that follows the other side.
    pub switch_warm_iters: u64,
    /// Why sampling stopped.
    pub stop: PairedStop,
    /// Time the comparison took, process starts included, ns.
    pub elapsed_ns: f64,
    /// The test's one-sided confidence.
    pub confidence: f64,
    /// The relative tolerance.
    pub tolerance: f64,
    /// Looks taken at the estimate.
    pub looks: usize,
    /// The one-sided level of the final estimate's bounds: the share of
    /// `1 − confidence` that the look schedule gave the final look.
    pub final_confidence: f64,
    /// The final estimate (`None` with fewer than two process pairs).
    pub estimate: Option<PairedEstimate>,
    /// The verdict (before any correction across the run's tests).
    pub verdict: PairedVerdict,
    /// One-sided p-value of "the head is not slower", adjusted for the
    /// looks ([`LookSchedule::adjusted_p`]). 1 without an estimate.
    pub p_slower: f64,
    /// The measured order effect ([`PairedEstimate::order_effect`]).
    pub order_effect: Option<f64>,
    /// Links of each build cycled through ([`PairDriver::layouts`]).
    #[serde(default = "one")]
    pub layouts: usize,
}

#[cfg(feature = "tool")]
fn one() -> usize {
    1
}

impl PairedMeasurement {
    /// Time per iteration of every head slice, ns, in the order taken: the
    /// samples a budget is checked on.
    pub fn head_samples_ns(&self) -> Vec<f64> {
        self.slice_pairs.iter().map(|s| s.head_ns).collect()
    }

    /// The head's side as the measurement of a test of `kind` whose first
    /// call took `first_call_ns` in its worker: its slices are the samples,
    /// each of [`PairedMeasurement::iters_per_slice`] iterations; the whole
    /// comparison's time is the sampling time, and its stop the matching
    /// [`StopReason`]. Its warm-up is the workers' (untimed here: 0 blocks,
    /// taken as settled), and it has no budget look or machine-state
    /// reference of its own (the paired verdict needs neither).
    pub fn head_measurement(&self, kind: SampleKind, first_call_ns: f64) -> Measurement {
        Measurement {
            kind,
            samples_ns: self.head_samples_ns(),
            iters_per_sample: self.iters_per_slice,
            first_call_ns,
            loop_overhead_ns: self.loop_overhead_ns.unwrap_or(0.0),
            warmup_ns: 0.0,
            warmup_blocks: 0,
            warmup_settled: true,
            sampling_ns: self.elapsed_ns,
            stop: match self.stop {
                PairedStop::MaxTime => StopReason::MaxTime,
                PairedStop::MaxPairs => StopReason::SampleCap,
                PairedStop::Clear | PairedStop::Precision => StopReason::Precision,
            },
            planned_samples: self.slice_pairs.len(),
            budget_look: None,
            reference_ns: Vec::new(),
        }
    }

    #[cfg(any(test, feature = "internals"))]
    /// Time per iteration of every base slice, ns, in the order taken.
    pub fn base_samples_ns(&self) -> Vec<f64> {
        self.slice_pairs.iter().map(|s| s.base_ns).collect()
    }

    #[cfg(any(test, feature = "internals"))]
    /// The log ratios grouped by unit of replication (process pairs that
    /// ran the same links pooled), in the order taken: the input of
    /// [`crate::paired::stats::paired_estimate`].
    pub fn log_ratios_by_pair(&self) -> Vec<Vec<f64>> {
        log_ratios_by_unit(&self.slice_pairs, self.pairs_opened, self.layouts)
    }
}

/// The log ratios of the first `pairs` process pairs, grouped by unit of
/// replication: pair `p` belongs to unit `p mod layouts` (every pair its
/// own when `layouts` is 1 or at least `pairs`).
fn log_ratios_by_unit(slice_pairs: &[SlicePair], pairs: usize, layouts: usize) -> Vec<Vec<f64>> {
    let units = if layouts <= 1 {
        pairs
    } else {
        pairs.min(layouts)
    };
    let mut by_unit = vec![Vec::new(); units];
    for s in slice_pairs.iter().filter(|s| s.pair < pairs) {
        by_unit[s.pair % units.max(1)].push(s.log_ratio());
    }
    by_unit
}

fn ns(d: Duration) -> f64 {
    d.as_nanos() as f64
}

mod calibrate;
mod run;
pub use run::run_paired;

#[cfg(test)]
mod tests;
