//! The first process pair of a paired comparison: the loop overhead, the
//! iterations per slice and the slice pairs per process pair that every
//! later slice uses, and the warm runs that follow from them.

use std::time::Duration;

use super::*;
use crate::measure::sampler::{grow, MAX_ITERS_PER_SAMPLE};

/// The comparison's time frame: when it started and how long it may last,
/// both in ns on the driver's clock.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clock {
    /// The driver's [`PairDriver::elapsed`] when the comparison started.
    start_ns: f64,
    /// [`PairedPlan::max_time`].
    pub(super) max_time_ns: f64,
}

impl Clock {
    /// Starts the clock at the driver's current [`PairDriver::elapsed`]
    /// (read once), with `plan`'s `max_time`.
    pub(super) fn start<D: PairDriver>(driver: &D, plan: &PairedPlan) -> Self {
        Clock {
            start_ns: ns(driver.elapsed()),
            max_time_ns: ns(plan.max_time),
        }
    }

    /// Time since the comparison started, ns (reads the driver's clock once).
    pub(super) fn elapsed_ns<D: PairDriver>(&self, driver: &D) -> f64 {
        ns(driver.elapsed()) - self.start_ns
    }
}

/// What the first process pair fixes for the whole comparison.
#[derive(Clone, Copy, Debug)]
pub(super) struct Calibration {
    /// The driver's loop overhead, as it reported it.
    pub(super) loop_overhead_ns: Option<f64>,
    /// The overhead subtracted from every slice: the reported one, or 0
    /// when there is none or it is negative.
    overhead_ns: f64,
    /// Iterations in every timed slice, both sides.
    pub(super) iters: u64,
    /// Head slices run to find `iters`.
    pub(super) search_slices: usize,
    /// Slice pairs per process pair: even, at least 2.
    pub(super) slices_per_pair: usize,
    /// Untimed warm iterations before the base's first slice in a fresh
    /// process (0 unless [`PairedPlan::first_slice_warm`]).
    pub(super) first_slice_warm_iters: u64,
    /// Untimed warm iterations before a slice that follows the other side.
    pub(super) switch_warm_iters: u64,
}

impl Calibration {
    /// Opens the first process pair, reads the loop overhead and finds the
    /// iterations per slice on the head (which it thereby warms), then fits
    /// the slice pairs per process pair to `max_time`.
    ///
    /// Driver calls, in order: `open_pair`, `elapsed`, `loop_overhead_ns`,
    /// then the search's head slices (see [`find_iters`]).
    ///
    /// # Errors
    /// The driver's first error, as it is.
    pub(super) fn open_first_pair<D: PairDriver>(
        driver: &mut D,
        plan: &PairedPlan,
        clock: &Clock,
    ) -> Result<Self, D::Error> {
        driver.open_pair()?;
        let open_ns = clock.elapsed_ns(driver);
        let loop_overhead_ns = driver.loop_overhead_ns()?;
        let (iters, search_slices, slice_ns) = find_iters(driver, plan, clock)?;
        Ok(Calibration {
            loop_overhead_ns,
            overhead_ns: loop_overhead_ns.unwrap_or(0.0).max(0.0),
            iters,
            search_slices,
            slices_per_pair: fitting_slices_per_pair(plan, clock, open_ns, slice_ns),
            first_slice_warm_iters: if plan.first_slice_warm { iters } else { 0 },
            switch_warm_iters: (iters as f64 * plan.switch_warm_share.max(0.0)) as u64,
        })
    }

    /// A timed slice's duration as time per iteration, ns, with the loop
    /// overhead subtracted. The overhead is the least-disturbed empty block,
    /// so it is below a real iteration; the floor of 1% of the raw time only
    /// guards against a timer's hiccup.
    pub(super) fn per_iter(&self, block: Duration) -> f64 {
        let raw = ns(block) / self.iters as f64;
        (raw - self.overhead_ns).max(raw * 0.01)
    }
}

/// Grows the iterations on the head of the current pair (no warm runs),
/// at least doubling, until a slice lasts [`PairedPlan::slice_target`], the
/// iterations reach [`MAX_ITERS_PER_SAMPLE`], or `max_time` has passed.
/// Returns the iterations, the slices run and the last slice's duration, ns.
///
/// # Errors
/// The driver's first error, as it is.
fn find_iters<D: PairDriver>(
    driver: &mut D,
    plan: &PairedPlan,
    clock: &Clock,
) -> Result<(u64, usize, f64), D::Error> {
    let target_ns = ns(plan.slice_target);
    let mut iters: u64 = 1;
    let mut search_slices = 0;
    loop {
        let block_ns = ns(driver.slice(Side::Head, iters, 0)?);
        search_slices += 1;
        if block_ns >= target_ns
            || iters >= MAX_ITERS_PER_SAMPLE
            || clock.elapsed_ns(driver) >= clock.max_time_ns
        {
            return Ok((iters, search_slices, block_ns));
        }
        iters = grow(iters, block_ns, target_ns);
    }
}

/// [`PairedPlan::slices_per_pair`] made even, and lowered for slow bodies
/// (slices of `slice_ns`, after a pair took `open_ns` to open) so that
/// `min_pairs` pairs fit in `max_time`; never below 2 (one ABBA quad).
fn fitting_slices_per_pair(plan: &PairedPlan, clock: &Clock, open_ns: f64, slice_ns: f64) -> usize {
    let slices_per_pair = (plan.slices_per_pair.max(2) / 2) * 2;
    let per_pair_budget_ns = clock.max_time_ns / plan.min_pairs.max(2) as f64 - open_ns;
    let fitting = (per_pair_budget_ns / (2.0 * slice_ns.max(1.0))).floor();
    if fitting < slices_per_pair as f64 {
        ((fitting.max(0.0) as usize / 2) * 2).max(2)
    } else {
        slices_per_pair
    }
}
