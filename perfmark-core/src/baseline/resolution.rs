//! When a stored baseline cannot be compared because one side's time is
//! below the measurement's resolution ([`crate::stats::at_resolution`]):
//! the decision, with which time it was ([`BelowResolution`]), so the
//! comparison is never dropped silently.
//!
//! The regression rule works on a log scale, where a time that cannot be
//! told from zero has no place: its ratio to anything means nothing. The
//! same rule decides "below resolution" for both sides: this run's estimate
//! as the checks read it, and the stored estimate (and each stored run's
//! estimate) at the resolution of the entry's iterations per sample. A
//! stored entry from before the rule may hold a negative time: it reads as
//! below resolution too.

use crate::baseline::Entry;
use crate::checks::Subject;
use crate::stats::{is_below_resolution, Statistic};

/// Which time is below the measurement's resolution, so that a stored
/// baseline is not compared.
#[derive(Debug, Clone, PartialEq)]
pub enum BelowResolution {
    /// This run's `statistic` is below the resolution, `resolution_ns`
    /// per iteration.
    Run {
        /// The run's verdict statistic.
        statistic: Statistic,
        /// The resolution per iteration, ns.
        resolution_ns: f64,
    },
    /// The entry's `statistic` (its name) of `ns_per_iter` is below the
    /// resolution, `resolution_ns` per iteration at the entry's iterations
    /// per sample.
    Stored {
        /// The stored statistic's name, `median`.
        statistic: String,
        /// Its estimate, ns per iteration.
        ns_per_iter: f64,
        /// The resolution per iteration at the entry's iterations per
        /// sample, ns.
        resolution_ns: f64,
    },
    /// Of an entry recorded over `runs` processes, the `run`-th (from 1)
    /// measured `ns_per_iter`, below the resolution.
    StoredRun {
        /// The run, from 1.
        run: usize,
        /// The runs recorded.
        runs: usize,
        /// What it measured, ns per iteration.
        ns_per_iter: f64,
        /// The resolution per iteration at the entry's iterations per
        /// sample, ns.
        resolution_ns: f64,
    },
}

/// Which time keeps the test's run and its stored `entry` from being
/// compared on the resolution's account, or `None` when both times are
/// resolved.
pub(super) fn not_comparable(subject: &Subject<'_>, entry: &Entry) -> Option<BelowResolution> {
    let here = subject.resolution_ns;
    if subject.below_resolution() {
        return Some(BelowResolution::Run {
            statistic: subject.estimate.statistic,
            resolution_ns: here,
        });
    }
    // The resolution per iteration scales with the iterations per sample;
    // the block's timer is the same (a baseline from another machine is
    // never compared).
    let iters_here = subject.measurement.iters_per_sample.max(1) as f64;
    let stored = here * iters_here / entry.iters_per_sample().max(1) as f64;
    let e = entry.estimate();
    if is_below_resolution(e.ns_per_iter, stored) {
        return Some(BelowResolution::Stored {
            statistic: e.statistic.clone(),
            ns_per_iter: e.ns_per_iter,
            resolution_ns: stored,
        });
    }
    let runs = entry.between_runs()?;
    let (i, x) = runs
        .run_estimates_ns
        .iter()
        .enumerate()
        .find(|(_, &x)| is_below_resolution(x, stored))?;
    Some(BelowResolution::StoredRun {
        run: i + 1,
        runs: runs.runs,
        ns_per_iter: *x,
        resolution_ns: stored,
    })
}
