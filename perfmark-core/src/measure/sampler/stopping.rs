//! When sampling stops: the target precision, confirmed over a quarter
//! more samples; the budget's looks once that precision is reached; and
//! the caps (`max_time`, the sample cap). Pure decisions over the samples
//! taken and the time elapsed: no clock is read here.

use super::{CONFIRM_FRACTION, MAX_SAMPLES, MIN_SAMPLES, PILOT_SAMPLES};
use crate::budget::looks::{BudgetLooks, LOOK_GROWTH};
use crate::budget::BudgetLook;
use crate::measure::{SampleKind, StopReason};
use crate::stats::{self, Estimate, Statistic};

/// The stopping rule of one test's sampling phase, with what it has seen.
pub(super) struct StopRule {
    confidence: f64,
    precision: f64,
    statistic: Statistic,
    budget_ns: Option<f64>,
    /// The estimate's resolution per iteration, ns (for the budget's looks).
    resolution_ns: f64,
    max_time_ns: f64,
    /// The sample count at which the CI is looked at next.
    next_check: usize,
    /// Samples the precision is expected to need, from the last look.
    pub(super) planned_samples: usize,
    /// Sample count at which the CI first looked good enough, awaiting
    /// confirmation (see [`CONFIRM_FRACTION`]).
    candidate: Option<usize>,
    /// With a budget: its looks.
    looks: Option<BudgetLooks>,
    /// Whether the budget's looks have begun (the precision was reached).
    looking: bool,
    /// The sample count of the next interim look.
    next_look: Option<usize>,
    /// The look at the budget that decided, once one has.
    pub(super) budget_look: Option<BudgetLook>,
}

impl StopRule {
    /// The rule for `plan`'s sampling of a routine of `kind`.
    pub(super) fn new(plan: &super::Plan, kind: SampleKind, resolution_ns: f64) -> Self {
        let statistic = kind.verdict_statistic();
        StopRule {
            confidence: plan.confidence,
            precision: plan.precision,
            statistic,
            budget_ns: plan.budget_ns,
            resolution_ns,
            max_time_ns: super::ns(plan.max_time),
            next_check: PILOT_SAMPLES,
            planned_samples: MIN_SAMPLES,
            candidate: None,
            looks: plan
                .budget_ns
                .map(|_| BudgetLooks::new(plan.confidence, statistic)),
            looking: false,
            next_look: None,
            budget_look: None,
        }
    }

    /// After a sample: why sampling stops now, or `None` to go on.
    /// `elapsed_ns` is the sampling phase's time so far.
    pub(super) fn after_sample(
        &mut self,
        samples_ns: &[f64],
        elapsed_ns: f64,
    ) -> Option<StopReason> {
        let taken = samples_ns.len();
        let out_of_time = elapsed_ns >= self.max_time_ns || taken >= MAX_SAMPLES;
        if !self.looking && taken >= self.next_check && self.precise(samples_ns) {
            if self.looks.is_none() {
                return Some(StopReason::Precision);
            }
            // Precise enough: the budget's first look is now.
            self.looking = true;
            self.next_look = Some(taken);
        }
        if let Some(stop) = self.look_at_budget(samples_ns, out_of_time) {
            return Some(stop);
        }
        if elapsed_ns >= self.max_time_ns {
            return Some(StopReason::MaxTime);
        }
        (taken >= MAX_SAMPLES).then_some(StopReason::SampleCap)
    }

    /// Looks at the CI: whether the target precision is reached and
    /// confirmed. Stopping the first time an interval looks narrow favours
    /// intervals that are narrow by chance (optional stopping): independent
    /// synthetic samples covered their truth 91% of the time at 95%. So a
    /// first narrow interval is a candidate, confirmed only when it still
    /// holds after a quarter more samples; a wide one plans the samples
    /// still needed.
    fn precise(&mut self, samples_ns: &[f64]) -> bool {
        let taken = samples_ns.len();
        let estimate = stats::estimate_with(samples_ns, self.confidence, self.statistic);
        if !(precise_enough(&estimate, self.precision) && taken >= MIN_SAMPLES) {
            self.candidate = None;
            self.planned_samples = plan_samples(&estimate, self.precision, taken);
            self.next_check = next_check_at(taken, self.planned_samples);
            return false;
        }
        match self.candidate {
            Some(first) if taken >= confirm_at(first) => true,
            Some(first) => {
                self.next_check = confirm_at(first);
                false
            }
            None => {
                self.candidate = Some(taken);
                self.next_check = confirm_at(taken);
                false
            }
        }
    }

    /// The budget's looks, once they have begun: an interim look when one
    /// is due (one that falls on the last sample gives way to the last
    /// look, which spends the share it would have), the last look when
    /// time is out. Stops when a look's CI clears the budget.
    fn look_at_budget(&mut self, samples_ns: &[f64], out_of_time: bool) -> Option<StopReason> {
        let (Some(budget_ns), Some(looks)) = (self.budget_ns, self.looks.as_mut()) else {
            return None;
        };
        let taken = samples_ns.len();
        if self.next_look.is_some_and(|at| taken >= at) && !out_of_time {
            let look = looks.look(samples_ns, self.resolution_ns, false);
            if look.clears(budget_ns) {
                self.budget_look = Some(look);
                return Some(StopReason::Precision);
            }
            self.next_look = looks.interim_left().then_some(taken * LOOK_GROWTH);
        }
        if out_of_time {
            self.budget_look = Some(looks.look(samples_ns, self.resolution_ns, true));
        }
        None
    }
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
