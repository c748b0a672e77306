//! The budget check: pass when the CI of the time per iteration lies at or
//! below the budget, fail when it lies above it. A CI that still straddles
//! the budget when sampling had to stop is decided on the point estimate
//! and called inconclusive. When the run knows how much estimates move
//! between processes, the verdict line also says when the budget lies so
//! close to the estimate that the verdict may flip from one run to the next
//! ([`super::near_line`]).
//!
//! The CI is the one of the sampler's look at the budget that stopped it
//! ([`crate::budget::looks`]): at a level stricter than the test's
//! confidence when the sampler looked more than once, so that the looks
//! together keep the test's error rate (docs/design/budget-rule.md).

use super::near_line::near_spread;
use super::record::BudgetRecord;
use super::said::BudgetSaid;
use crate::baseline::run_spreads::RunSpreads;
use crate::checks::{Check, Finding, Said, Subject, Warning};

/// The budget check of a run: applies to every measured test, and decides
/// those with a `budget`. Made with the run's between-run spreads
/// ([`Budget::new`]), its verdict line carries the near-the-line note;
/// without them ([`Budget::default`]), the decision alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget<'a> {
    spreads: Option<&'a RunSpreads<'a>>,
}

impl<'a> Budget<'a> {
    /// The budget check of a run whose tests' between-run spreads are
    /// `spreads`.
    pub fn new(spreads: &'a RunSpreads<'a>) -> Self {
        Budget {
            spreads: Some(spreads),
        }
    }
}

impl Check for Budget<'_> {
    fn check(&self, subject: &Subject<'_>) -> Option<Finding> {
        let Some(budget_ns) = subject.plan.budget_ns else {
            return Some(Finding::new(Said::Budget(BudgetSaid::NoBudget)));
        };
        let estimate = subject.estimate;
        let look = subject.measurement.budget_look.as_ref();
        let mut record = BudgetRecord::decide_at(estimate, look, budget_ns);
        let mut warnings = Vec::new();
        if record.inconclusive() {
            warnings.push(Warning::BudgetInconclusive {
                processes_sd_log: subject.processes.filter(|p| p.sets_interval).map(|p| p.tau),
                max_time_ns: subject.plan.max_time.as_nanos() as f64,
            });
        }
        let between_run_sd = self.spreads.map(|s| s.sd_of(subject.name));
        record.may_flip =
            between_run_sd.is_some_and(|sd| near_spread(budget_ns, estimate.point, sd).is_some());
        Some(Finding {
            said: Said::Budget(BudgetSaid::Decided {
                record,
                estimate: estimate.clone(),
                between_run_sd,
            }),
            warnings,
        })
    }
}
