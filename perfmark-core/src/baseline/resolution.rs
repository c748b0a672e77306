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

pub use super::said::BelowResolution;
use crate::baseline::Entry;
use crate::checks::Subject;
use crate::stats::is_below_resolution;

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
