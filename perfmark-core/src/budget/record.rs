//! What `report.json` keeps of a test's budget decision, and the decision
//! itself: pure, from the estimate (or the sampler's look) and the budget.

use super::looks::BudgetLook;
use crate::stats::{Estimate, Interval};
use crate::verdicts::Outcome;

/// What `report.json` keeps of a test's budget decision (its `budget`
/// object).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct BudgetRecord {
    /// The budget, ns per iteration.
    pub budget_ns: f64,
    /// Where the CI lies: [`Outcome::Under`], [`Outcome::Over`],
    /// [`Outcome::InconclusiveUnder`] or [`Outcome::InconclusiveOver`]; a
    /// CI that straddles the budget is decided on the point estimate,
    /// passed at or below it, failed above.
    pub outcome: Outcome,
    /// The estimate over the budget (1.0 = exactly on budget).
    pub ratio: f64,
    /// The sampler's look at the budget that decided, with its CI; absent
    /// when the estimate's own CI decided (no look was taken).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<BudgetLook>,
    /// Whether the budget lies so near the estimate that the verdict may
    /// flip between runs ([`super::near_line`]); written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub may_flip: bool,
}

impl BudgetRecord {
    /// Decides the budget from the estimate: by its CI unless the CI
    /// straddles the budget ([`crate::stats::Interval::straddles`], the rule
    /// the sampler also stops on), then by the point estimate. A CI with a
    /// NaN end straddles nothing and lies above every budget.
    pub fn decide(estimate: &Estimate, budget_ns: f64) -> BudgetRecord {
        BudgetRecord::decide_at(estimate, None, budget_ns)
    }

    /// [`BudgetRecord::decide`] on the CI of the sampler's `look` at the
    /// budget when there is one (the estimate's point still breaks a tie),
    /// on the estimate's own CI otherwise.
    pub fn decide_at(
        estimate: &Estimate,
        look: Option<&BudgetLook>,
        budget_ns: f64,
    ) -> BudgetRecord {
        let ci = &look.map_or(estimate.ci, |l| l.ci);
        let outcome = if ci.straddles(budget_ns) {
            if estimate.point <= budget_ns {
                Outcome::InconclusiveUnder
            } else {
                Outcome::InconclusiveOver
            }
        } else if ci.high <= budget_ns {
            Outcome::Under
        } else {
            Outcome::Over
        };
        BudgetRecord {
            budget_ns,
            outcome,
            ratio: estimate.point / budget_ns,
            look: look.copied(),
            may_flip: false,
        }
    }

    /// The CI the budget was decided on: the look's, or the estimate's.
    pub fn interval(&self, estimate: &Estimate) -> Interval {
        self.look.map_or(estimate.ci, |l| l.ci)
    }

    /// Whether the test passes this check.
    pub fn passed(&self) -> bool {
        !self.outcome.fails()
    }

    /// Whether the CI left the decision to the point estimate.
    pub fn inconclusive(&self) -> bool {
        matches!(
            self.outcome,
            Outcome::InconclusiveUnder | Outcome::InconclusiveOver
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Interval;

    fn est(point: f64, low: f64, high: f64) -> Estimate {
        Estimate::median_at(point, low, high, 100)
    }

    #[test]
    fn budget_outcomes() {
        assert_eq!(
            BudgetRecord::decide(&est(10.0, 9.0, 11.0), 11.0).outcome,
            Outcome::Under
        );
        assert_eq!(
            BudgetRecord::decide(&est(10.0, 9.0, 11.0), 8.9).outcome,
            Outcome::Over
        );
        let straddle = BudgetRecord::decide(&est(10.0, 9.0, 11.0), 10.5);
        assert_eq!(straddle.outcome, Outcome::InconclusiveUnder);
        assert!(straddle.passed() && straddle.inconclusive());
        let over = BudgetRecord::decide(&est(10.0, 9.0, 11.0), 9.5);
        assert_eq!(over.outcome, Outcome::InconclusiveOver);
        assert!(!over.passed());
        // On the boundary: "at or below" passes, the low end equal to the budget is not "above".
        assert!(BudgetRecord::decide(&est(10.0, 9.0, 11.0), 11.0).passed());
        assert!(BudgetRecord::decide(&est(10.0, 9.0, 11.0), 9.0).inconclusive());
    }

    #[test]
    fn a_look_decides_on_its_own_ci_and_says_its_level() {
        // The estimate's 95% CI clears the budget, the look's stricter one
        // does not: the look decides.
        let e = est(10.0, 9.5, 10.5);
        let look = BudgetLook {
            look: 4,
            max_looks: 4,
            last: true,
            ci: Interval {
                low: 9.0,
                high: 11.0,
                confidence: 0.99375,
            },
        };
        let check = BudgetRecord::decide_at(&e, Some(&look), 10.8);
        assert_eq!(check.outcome, Outcome::InconclusiveUnder);
        let reason = check.reason(&e);
        assert!(
            reason.starts_with("inconclusive against budget 10.80 ns: CI [9.000 ns, 11.00 ns]"),
            "{reason}"
        );
        assert!(
            reason.ends_with("look 4 of up to 4 at the budget, on a 99.375% CI so that all looks together keep 95%"),
            "{reason}"
        );
        // A look at the test's own level adds nothing to the sentence.
        let plain = BudgetLook {
            ci: Interval {
                confidence: 0.95,
                ..look.ci
            },
            ..look
        };
        let reason = BudgetRecord::decide_at(&e, Some(&plain), 12.0).reason(&e);
        assert!(reason.ends_with("(83% of budget)"), "{reason}");
    }

    #[test]
    fn a_budget_below_the_resolution_is_inconclusive() {
        // Samples that came out negative: read as 0, up to 0.3 ns.
        let raw = est(-0.2, -0.3, -0.1);
        let read = crate::stats::at_resolution(&raw, 0.001).estimate;
        let check = BudgetRecord::decide(&read, 0.1);
        assert_eq!(check.outcome, Outcome::InconclusiveUnder);
        assert!(check.passed() && check.inconclusive());
        // A budget above what the measurement resolves is decided.
        assert_eq!(BudgetRecord::decide(&read, 1.0).outcome, Outcome::Under);
        // Read raw, the negative CI would pass any budget outright.
        assert_eq!(BudgetRecord::decide(&raw, 0.1).outcome, Outcome::Under);
    }

    #[test]
    fn reasons_name_the_budget_and_ci() {
        let e = est(60.0, 59.0, 61.0);
        let check = BudgetRecord::decide(&e, 50.0);
        let reason = check.reason(&e);
        assert!(reason.starts_with("over budget 50.00 ns"), "{reason}");
        assert!(reason.contains("[59.00 ns, 61.00 ns]"), "{reason}");
        assert!(reason.contains("120% of budget"), "{reason}");
    }
}
