//! Re-measuring a failure measured under interference.
//!
//! Other work only ever takes time from a measurement; it never gives any.
//! So a pass measured under interference stands (the code was fast enough
//! even slowed down), but a budget or regression failure measured while
//! other work took its time may be the machine's. Such a failure is
//! measured once more, and the second measurement decides:
//!
//! - it passes: the test passes, and a warning says that the first
//!   measurement failed under interference;
//! - it fails without interference: the failure stands, as any failure;
//! - it fails under interference again: the test **fails**, and its reasons
//!   say that both measurements were disturbed, by how much, and that the
//!   failure may be the machine's.
//!
//! Why fail rather than call it inconclusive: a machine that stays loaded
//! would otherwise pass every real regression measured on it, and a CI
//! runner that is always busy would never fail. Failing keeps the rule's
//! detection on a loaded machine what it was, and the words tell the
//! reader not to trust it blindly. The re-measurement can only turn a
//! failure into a pass when an undisturbed (or less disturbed) measurement
//! passes, which it does with the rule's own error rates: the false-failure
//! rate under intermittent load drops, and a real regression is missed
//! only as often as one undisturbed measurement misses it.

use std::time::Duration;

use super::outcome::{Outcome, Remeasure};
use crate::checks::{RunnerSaid, Said, Verdict, Warning};
use crate::measure::Measurement;
use crate::verdicts;

/// Whether `outcome` is a failure to measure again: a budget or
/// regression failure (the body returned and its samples were judged)
/// measured under interference.
pub(super) fn wanted(outcome: &Outcome) -> bool {
    outcome.verdict() == Verdict::Fail
        && outcome.measured.panic.is_none()
        && outcome.judged.estimate.is_some()
        && outcome
            .measured
            .interference
            .as_ref()
            .is_some_and(|i| i.disturbed)
}

/// The re-measurement's cap on sampling: what the first measurement left of
/// `max_time`, and at least a quarter of it, so that the test's sampling
/// stays within 1¼ × `max_time` (each measurement's warm-up is capped on
/// its own, as always).
pub(super) fn max_time(max_time: Duration, first: Option<&Measurement>) -> Duration {
    let used = first.map_or(0.0, |m| m.sampling_ns.max(0.0));
    let left = Duration::from_nanos((max_time.as_nanos() as f64 - used).max(0.0) as u64);
    left.max(max_time / 4)
}

/// The test's outcome once `second`, the re-measurement of the failure
/// `first` (capped at `max_time`), has decided it. A re-measurement that
/// did not return within its bound decides alone: the test failed as hung,
/// and the run stops.
pub(super) fn combine(first: Outcome, second: Outcome, max_time: Duration) -> Outcome {
    let Some(first_interference) = first.measured.interference.clone() else {
        return first;
    };
    if second.hung {
        return second;
    }
    let mut outcome = second;
    let again = outcome
        .measured
        .interference
        .clone()
        .filter(|i| i.disturbed);
    let decided = match (outcome.verdict(), &again) {
        (Verdict::Fail, Some(_)) => verdicts::Outcome::FailedUnderInterference,
        (Verdict::Fail, None) => verdicts::Outcome::Failed,
        _ => verdicts::Outcome::Passed,
    };
    if decided == verdicts::Outcome::FailedUnderInterference {
        // Said under the test's line with the failing checks' reasons.
        outcome.judged.say(Said::Runner(RunnerSaid::FailedTwice {
            first: Box::new(first_interference.clone()),
            again: again.map(Box::new),
        }));
    } else {
        outcome.judged.warnings.push(Warning::Remeasured {
            first: first_interference.clone(),
            passed: decided == verdicts::Outcome::Passed,
        });
    }
    outcome.remeasured = Some(Remeasure {
        first_said: first.judged.said,
        first_ns_per_iter: first.judged.estimate.map(|e| e.ns_per_iter),
        first_interference,
        max_time_s: max_time.as_secs_f64(),
        outcome: decided,
    });
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::said::BudgetSaid;
    use crate::report::fixtures::{self, interference};
    use crate::report::Reason;
    use crate::stats::estimate;

    /// A measured test, failed over its budget or passed under it, with
    /// `wait_ms` of interference.
    fn outcome(fails: bool, wait_ms: u64) -> Outcome {
        let samples: Vec<f64> = (0..60).map(|i| 40.0 + f64::from(i % 7)).collect();
        let budget = if fails { 30.0 } else { 60.0 };
        let report = fixtures::measured("t", samples.clone(), Some(budget));
        let mut o = Outcome::at("t".to_owned(), "x.rs", 1);
        o.measured.interference = Some(interference(wait_ms));
        o.measured.measurement = report.measurement;
        o.judged.estimate = report.estimate;
        o.judged.say(Said::Budget(BudgetSaid::Decided {
            record: report.budget.expect("a budget record"),
            estimate: estimate(&samples, 0.95),
            between_run_sd: None,
        }));
        assert_eq!(o.verdict() == Verdict::Fail, fails);
        o
    }

    #[test]
    fn only_a_judged_failure_under_interference_is_measured_again() {
        assert!(interference(300).disturbed && !interference(5).disturbed);
        assert!(wanted(&outcome(true, 300)));
        assert!(!wanted(&outcome(true, 5)));
        assert!(!wanted(&outcome(false, 300)));
        let mut panicked = outcome(true, 300);
        panicked.measured.panic = Some("boom".into());
        assert!(!wanted(&panicked));
        let mut unobserved = outcome(true, 300);
        unobserved.measured.interference = None;
        assert!(!wanted(&unobserved));
    }

    #[test]
    fn the_remeasurement_gets_what_is_left_of_max_time_and_at_least_a_quarter() {
        let mut m = fixtures::measured("t", vec![1.0; 40], None)
            .measurement
            .unwrap();
        let cap = Duration::from_secs(2);
        m.sampling_ns = 0.5e9;
        assert_eq!(max_time(cap, Some(&m)), Duration::from_millis(1500));
        m.sampling_ns = 2.1e9;
        assert_eq!(max_time(cap, Some(&m)), Duration::from_millis(500));
        assert_eq!(max_time(cap, None), cap);
    }

    #[test]
    fn a_quiet_pass_decides_and_the_first_failure_is_recorded() {
        let first = outcome(true, 300);
        let first_reasons: Vec<Reason> = first.judged.said.iter().map(Reason::of).collect();
        let o = combine(first, outcome(false, 5), Duration::from_secs(1)).finish();
        assert_eq!(o.report.verdict, Verdict::Pass);
        assert_eq!(o.failure_detail, None);
        let r = o.report.remeasured.as_ref().unwrap();
        assert_eq!(r.outcome, verdicts::Outcome::Passed);
        assert_eq!(r.first_reasons, first_reasons);
        assert_eq!(r.max_time_s, 1.0);
        let w = o.report.warnings.last().unwrap();
        assert!(
            w.starts_with("re-measured: the first measurement failed while 30% of its time"),
            "{w}"
        );
        assert!(w.ends_with("measured again, it passed"), "{w}");
    }

    #[test]
    fn a_remeasurement_that_hangs_decides_alone() {
        let mut hung = outcome(true, 0);
        hung.judged.estimate = None;
        hung.judged.said = vec![Said::Runner(RunnerSaid::Hung {
            bound: Duration::from_secs(92),
            rule: None,
        })];
        hung.hung = true;
        let o = combine(outcome(true, 300), hung, Duration::from_secs(1)).finish();
        assert!(o.hung);
        assert!(o.report.reasons[0]
            .text
            .starts_with("did not return within 92 s"));
        assert_eq!(o.report.reasons.len(), 1);
        assert!(o.report.remeasured.is_none());
    }

    #[test]
    fn a_quiet_failure_stands() {
        let o = combine(outcome(true, 300), outcome(true, 5), Duration::from_secs(1)).finish();
        assert_eq!(o.report.verdict, Verdict::Fail);
        assert!(o.failure_detail.is_some());
        assert_eq!(
            o.report.remeasured.as_ref().unwrap().outcome,
            verdicts::Outcome::Failed
        );
        assert!(o
            .report
            .warnings
            .last()
            .unwrap()
            .ends_with("the failure stands"));
    }

    #[test]
    fn a_failure_under_interference_twice_fails_with_the_reason_stated() {
        let o = combine(
            outcome(true, 300),
            outcome(true, 200),
            Duration::from_secs(1),
        )
        .finish();
        assert_eq!(o.report.verdict, Verdict::Fail);
        let reason = &o.report.reasons.last().unwrap().text;
        assert!(
            reason.starts_with(
                "failed twice under interference (30% then 20% of the time taken by other work)"
            ),
            "{reason}"
        );
        assert!(o.failure_detail.unwrap().ends_with(reason.as_str()));
        assert_eq!(
            o.report.remeasured.unwrap().outcome,
            verdicts::Outcome::FailedUnderInterference
        );
    }
}
