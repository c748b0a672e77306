//! The budget's verdict in words: the reason a test passes or fails its
//! budget, the warning of an interval that did not clear it, and the note
//! of a budget that lies within the machine's between-run spread.

use crate::budget::near_line::near_spread;
use crate::budget::record::BudgetRecord;
use crate::budget::said::BudgetSaid;
use crate::report::fmt::{fmt_ns, rounded_percent, trimmed_percent};
use crate::stats::Estimate;
use crate::verdicts::Outcome;

/// What the budget check said, in one sentence for the summary and
/// `report.json`'s `reasons`: the decision, and the near-the-line note
/// when the budget may flip between runs.
pub fn said(said: &BudgetSaid) -> String {
    let BudgetSaid::Decided {
        record,
        estimate,
        between_run_sd,
    } = said
    else {
        return "no budget: measured only".to_owned();
    };
    let mut reason = record.reason(estimate);
    let note = between_run_sd
        .filter(|_| record.may_flip)
        .and_then(|sd| flip_note(record.budget_ns, estimate.point, sd));
    if let Some(note) = note {
        reason.push_str("; ");
        reason.push_str(&note);
    }
    reason
}

impl BudgetRecord {
    /// The reason in words, for the summary and `report.json`.
    pub fn reason(&self, estimate: &Estimate) -> String {
        let budget = fmt_ns(self.budget_ns);
        let interval = self.interval(estimate);
        let ci = format!("[{}, {}]", fmt_ns(interval.low), fmt_ns(interval.high));
        let pct = (self.ratio * 100.0).round();
        let statistic = estimate.statistic.as_str();
        let mut reason = self.outcome_words(&budget, &ci, pct, statistic);
        // A look at a stricter level than the test's own says so: the CI
        // printed here is then wider than the estimate's.
        if let Some(look) = &self.look {
            if (look.ci.confidence - estimate.ci.confidence).abs() > 1e-9 {
                reason.push_str(&format!(
                    "; look {} of up to {} at the budget, on a {} CI so that all looks together \
                     keep {}",
                    look.look,
                    look.max_looks,
                    trimmed_percent(look.ci.confidence, 3),
                    trimmed_percent(estimate.ci.confidence, 3)
                ));
            }
        }
        reason
    }

    fn outcome_words(&self, budget: &str, ci: &str, pct: f64, statistic: &str) -> String {
        match self.outcome {
            Outcome::Under => {
                format!("within budget {budget}: CI {ci} lies at or below it ({pct}% of budget)")
            }
            Outcome::Over => {
                format!("over budget {budget}: CI {ci} lies above it ({pct}% of budget)")
            }
            Outcome::InconclusiveUnder => format!(
                "inconclusive against budget {budget}: CI {ci} straddles it; \
                 passed on the {statistic} ({pct}% of budget)"
            ),
            Outcome::InconclusiveOver => format!(
                "inconclusive against budget {budget}: CI {ci} straddles it; \
                 failed on the {statistic} ({pct}% of budget)"
            ),
            // Only the four above are a budget's outcomes (`Outcome`'s doc);
            // any other is said as report.json spells it.
            other => format!(
                "{} against budget {budget}: CI {ci} ({pct}% of budget)",
                other.as_str()
            ),
        }
    }
}

/// The note for a budget of `budget_ns` against an estimate of
/// `estimate_ns` when runs differ by a between-run sd of `sd` (a fraction),
/// when the budget lies that near ([`near_spread`]): `may flip between
/// runs: the budget is 2.1% above the estimate, and runs here differ by
/// about 4%`.
pub fn flip_note(budget_ns: f64, estimate_ns: f64, sd: f64) -> Option<String> {
    let spread = near_spread(budget_ns, estimate_ns, sd)?;
    let gap = (budget_ns / estimate_ns - 1.0) * 100.0;
    let side = if gap >= 0.0 { "above" } else { "below" };
    Some(format!(
        "may flip between runs: the budget is {:.1}% {side} the estimate, and runs here differ by about \
         {}",
        gap.abs(),
        rounded_percent(spread.exp_m1(), 0.02)
    ))
}

/// The warning of a budget the CI did not clear: when the spread between
/// the processes that measured the test set the interval, that spread
/// (`processes_sd_log`, the sd of their log estimates), else the
/// `max_time` (ns) sampling stopped at.
pub fn inconclusive_warning(processes_sd_log: Option<f64>, max_time_ns: f64) -> String {
    match processes_sd_log {
        Some(sd_log) => format!(
            "the CI did not clear the budget: the processes that measured the test \
             differ by {:.0}% (sd), and the interval spans them; the verdict rests on \
             the point estimate; widen the budget's margin (more max_time does not \
             narrow this interval)",
            100.0 * sd_log.exp_m1()
        ),
        None => format!(
            "the CI did not clear the budget within max_time {}: the verdict rests on \
             the point estimate; raise max_time or the budget's margin",
            fmt_ns(max_time_ns)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_within_the_spread_may_flip() {
        assert_eq!(
            flip_note(102.1, 100.0, 0.02).as_deref(),
            Some(
                "may flip between runs: the budget is 2.1% above the estimate, and runs here \
                 differ by about 4%"
            )
        );
        assert_eq!(
            flip_note(97.0, 100.0, 0.02).as_deref(),
            Some(
                "may flip between runs: the budget is 3.0% below the estimate, and runs here \
                 differ by about 4%"
            )
        );
        assert!(flip_note(99.5, 100.0, 0.005)
            .unwrap()
            .ends_with("about 1.0%"));
        // Beyond two sds: stable enough to say nothing.
        assert_eq!(flip_note(105.0, 100.0, 0.02), None);
        assert_eq!(flip_note(95.0, 100.0, 0.02), None);
        // Nothing to say about numbers that are not times.
        assert_eq!(flip_note(100.0, 0.0, 0.02), None);
        assert_eq!(flip_note(100.0, 100.0, f64::NAN), None);
    }
}

/// The near-the-line note on the budget check's verdict line.
#[cfg(test)]
mod near_the_line {
    use std::time::Duration;

    use crate::baseline::run_spreads::{Prior, RunSpreads};
    use crate::baseline::Fingerprint;
    use crate::bencher::{Bencher, Measurer};
    use crate::budget::Budget;
    use crate::checks::{Check, Finding, Subject};
    use crate::measure::{Adaptive, Plan};

    fn reason(finding: &Finding) -> String {
        crate::report::words::said(&finding.said)
    }

    #[test]
    fn the_budget_verdict_line_carries_the_note() {
        // Exactly 100 ns per iteration through the real sampler, against a
        // budget 2.1% above it, with a between-run sd of 2% set.
        let mut plan = Plan::new(0.95, 0.01, Duration::from_millis(200), Duration::ZERO);
        plan.budget_ns = Some(102.1);
        let mut bencher = Bencher::new(Measurer::Adaptive(Adaptive::new(plan.clone())));
        bencher.iter_custom(|n| Duration::from_nanos(100 * n));
        let (measurement, _) = bencher.finish();
        let m = measurement.expect("measured");
        let estimate = crate::stats::estimate(&m.samples_ns, plan.confidence);
        let subject = Subject {
            name: "near",
            plan: &plan,
            tolerance: 0.05,
            measurement: &m,
            estimate: &estimate,
            resolution_ns: 0.001,
            allocations: None,
            processes: None,
        };
        let here = Fingerprint::current("rustc", "release", "0.1.0");
        let spreads = RunSpreads::new(Prior::resolve(Some(0.02), None, &here), None, &here);
        let finding = Budget::new(&spreads).check(&subject).unwrap();
        let plain = Budget::default().check(&subject).unwrap();
        assert!(!finding.said.fails() && !plain.said.fails());
        assert_eq!(
            reason(&finding),
            format!(
                "{}; may flip between runs: the budget is 2.1% above the estimate, and runs \
                 here differ by about 4%",
                reason(&plain)
            )
        );
        // Far from the line: the budget check's words alone.
        let mut far = plan.clone();
        far.budget_ns = Some(150.0);
        let subject = Subject {
            plan: &far,
            ..subject
        };
        let finding = Budget::new(&spreads).check(&subject).unwrap();
        assert_eq!(
            reason(&finding),
            reason(&Budget::default().check(&subject).unwrap())
        );
    }
}
