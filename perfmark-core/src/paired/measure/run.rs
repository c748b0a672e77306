//! The paired comparison's loop: process pairs started, warmed and sliced,
//! a look at the estimate after each, until the verdict is clear, precise
//! enough, or out of time or pairs.

use std::time::Duration;

use super::*;
use crate::measure::sampler::{grow, MAX_ITERS_PER_SAMPLE};
use crate::paired::stats::{decide, paired_estimate_with, LookSchedule, PairedEstimate};

/// Runs a paired comparison over `driver` as `plan` asks (see the module
/// documentation for the steps) and returns every slice pair with the
/// final estimate and verdict.
///
/// # Errors
/// The driver's first error, as it is.
pub fn run_paired<D: PairDriver>(
    driver: &mut D,
    plan: &PairedPlan,
) -> Result<PairedMeasurement, D::Error> {
    let schedule = plan.schedule();
    let layouts = driver.layouts().max(1);
    let last_look = schedule.pairs()[schedule.pairs().len() - 1];
    let max_pairs = plan.max_pairs.clamp(1, last_look);
    let max_time_ns = ns(plan.max_time);
    let start_ns = ns(driver.elapsed());
    let elapsed_ns = |d: &D| ns(d.elapsed()) - start_ns;

    driver.open_pair()?;
    let open_ns = elapsed_ns(driver);
    let loop_overhead_ns = driver.loop_overhead_ns()?;
    let overhead_ns = loop_overhead_ns.unwrap_or(0.0).max(0.0);

    // The iterations per slice, found on the head (which it also warms).
    let target_ns = ns(plan.slice_target);
    let mut iters: u64 = 1;
    let mut search_slices = 0;
    let slice_ns = loop {
        let block_ns = ns(driver.slice(Side::Head, iters, 0)?);
        search_slices += 1;
        if block_ns >= target_ns
            || iters >= MAX_ITERS_PER_SAMPLE
            || elapsed_ns(driver) >= max_time_ns
        {
            break block_ns;
        }
        iters = grow(iters, block_ns, target_ns);
    };

    // Slow bodies: fewer slice pairs per process pair, so that `min_pairs`
    // pairs fit in `max_time` (at least one ABBA quad each).
    let mut slices_per_pair = (plan.slices_per_pair.max(2) / 2) * 2;
    let per_pair_budget_ns = max_time_ns / plan.min_pairs.max(2) as f64 - open_ns;
    let fitting = (per_pair_budget_ns / (2.0 * slice_ns.max(1.0))).floor();
    if fitting < slices_per_pair as f64 {
        slices_per_pair = ((fitting.max(0.0) as usize / 2) * 2).max(2);
    }
    let first_slice_warm_iters = if plan.first_slice_warm { iters } else { 0 };
    let switch_warm_iters = (iters as f64 * plan.switch_warm_share.max(0.0)) as u64;

    let per_iter = |block: Duration| {
        let raw = ns(block) / iters as f64;
        // The overhead is the least-disturbed empty block, so it is below a
        // real iteration; the floor only guards against a timer's hiccup.
        (raw - overhead_ns).max(raw * 0.01)
    };

    let mut slice_pairs: Vec<SlicePair> = Vec::new();
    let mut pairs_opened = 1;
    let mut discarded_slices = 0;
    let mut looks = 0;
    // The look and estimate of the last analysis, and the pair count at it.
    let mut last: Option<(usize, usize, Option<PairedEstimate>)> = None;
    let mut pair_start_ns = 0.0;
    let stop = 'pairs: loop {
        let pair = pairs_opened - 1;
        if pair > 0 {
            driver.open_pair()?;
            if plan.first_slice_warm {
                // A fresh head is warmed by a discarded slice *before* the
                // base's first slice (as the search warmed the first pair's
                // head), so that the first head slice timed follows the base
                // like every other head-second slice: warming the head just
                // before it would spare that one slice the order effect and
                // leave it in the first quad, uncancelled.
                driver.slice(Side::Head, iters, 0)?;
                discarded_slices += 1;
            }
        }
        // Which sides have run in this pair, and which ran last.
        let mut warm = [false, plan.first_slice_warm];
        let mut previous: Option<Side> = if plan.first_slice_warm {
            Some(Side::Head)
        } else {
            None
        };
        for k in 0..slices_per_pair {
            let head_first = k % 2 == 1;
            let order = if head_first {
                [Side::Head, Side::Base]
            } else {
                [Side::Base, Side::Head]
            };
            let mut times = [0.0; 2];
            let mut observed = [None; 2];
            for side in order {
                let warm_iters = if !warm[side.index()] {
                    first_slice_warm_iters
                } else if previous != Some(side) {
                    switch_warm_iters
                } else {
                    0
                };
                times[side.index()] = per_iter(driver.slice(side, iters, warm_iters)?);
                observed[side.index()] = driver.last_observation();
                warm[side.index()] = true;
                previous = Some(side);
            }
            slice_pairs.push(SlicePair {
                pair,
                head_first,
                base_ns: times[Side::Base.index()],
                head_ns: times[Side::Head.index()],
                base_observed: observed[Side::Base.index()],
                head_observed: observed[Side::Head.index()],
            });
        }
        let now_ns = elapsed_ns(driver);
        let pair_ns = now_ns - pair_start_ns;
        pair_start_ns = now_ns;

        let done = pairs_opened;
        if let Some(look) = schedule
            .look_for(done)
            .filter(|&k| schedule.pairs()[k] == done)
        {
            looks += 1;
            let est = analyze(&slice_pairs, done, layouts, &schedule, look, plan);
            last = Some((look, done, est));
            if let Some(est) = est {
                // Clear of the tolerance either way. A regression stops
                // early only when its lower bound is beyond the tolerance:
                // stopping on "significant and point beyond the tolerance"
                // at every look would give a change just inside the
                // tolerance one chance per look for its point to stray
                // beyond it (+4% against 5% failed 23% of the time in the
                // simulation, instead of 11%). The last look decides by the
                // rule itself.
                let up = 1.0 + plan.tolerance;
                if est.lower_one_sided > up || est.upper_one_sided < up {
                    break 'pairs PairedStop::Clear;
                }
                if est.interval.relative_half_width(est.ratio) <= plan.precision {
                    break 'pairs PairedStop::Precision;
                }
            }
        }
        if done >= max_pairs {
            break PairedStop::MaxPairs;
        }
        if now_ns + pair_ns > max_time_ns {
            break PairedStop::MaxTime;
        }
        pairs_opened += 1;
    };

    // The final analysis: the last look if it saw all the data, else the
    // pending look whose share it spends (the time ran out before it).
    let (look, est) = match last {
        Some((look, at, est)) if at == pairs_opened => (look, est),
        _ => {
            let look = schedule
                .look_for(pairs_opened)
                .unwrap_or(schedule.pairs().len() - 1);
            looks += 1;
            (
                look,
                analyze(&slice_pairs, pairs_opened, layouts, &schedule, look, plan),
            )
        }
    };
    let verdict = match &est {
        Some(est) => decide(est, layouts > 1, plan.confidence, plan.tolerance),
        None => PairedVerdict {
            change: PairedChange::Inconclusive,
            fails: false,
            confidence: plan.confidence,
            tolerance: plan.tolerance,
            significantly_slower: false,
        },
    };
    Ok(PairedMeasurement {
        iters_per_slice: iters,
        slices_per_pair,
        slice_pairs,
        loop_overhead_ns,
        pairs_opened,
        search_slices,
        discarded_slices,
        first_slice_warm_iters,
        switch_warm_iters,
        stop,
        elapsed_ns: elapsed_ns(driver),
        confidence: plan.confidence,
        tolerance: plan.tolerance,
        looks,
        final_confidence: schedule.confidence_at(look, plan.confidence),
        p_slower: est.map_or(1.0, |e| schedule.adjusted_p(look, e.p_slower)),
        order_effect: est.map(|e| e.order_effect),
        estimate: est,
        verdict,
        layouts,
    })
}

/// The estimate after `pairs` process pairs at the level of look `look`.
fn analyze(
    slice_pairs: &[SlicePair],
    pairs: usize,
    layouts: usize,
    schedule: &LookSchedule,
    look: usize,
    plan: &PairedPlan,
) -> Option<PairedEstimate> {
    let confidence = schedule.confidence_at(look, plan.confidence);
    paired_estimate_with(
        &log_ratios_by_unit(slice_pairs, pairs, layouts),
        confidence,
        plan.center,
    )
}

