//! The budget's verdict in words: the reason a test passes or fails its
//! budget, the warning of an interval that did not clear it, and the note
//! of a budget that lies within the machine's between-run spread.

use crate::budget::near_line::near_spread;
use crate::budget::record::{BudgetOutcome, BudgetRecord};
use crate::report::fmt::{fmt_ns, rounded_percent, trimmed_percent};
use crate::stats::Estimate;

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
            BudgetOutcome::Under => {
                format!("within budget {budget}: CI {ci} lies at or below it ({pct}% of budget)")
            }
            BudgetOutcome::Over => {
                format!("over budget {budget}: CI {ci} lies above it ({pct}% of budget)")
            }
            BudgetOutcome::InconclusiveUnder => format!(
                "inconclusive against budget {budget}: CI {ci} straddles it; \
                 passed on the {statistic} ({pct}% of budget)"
            ),
            BudgetOutcome::InconclusiveOver => format!(
                "inconclusive against budget {budget}: CI {ci} straddles it; \
                 failed on the {statistic} ({pct}% of budget)"
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
