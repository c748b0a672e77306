//! What the budget check found, as values: its sentence is made in
//! `report/words`.

use super::record::BudgetRecord;
use crate::stats::Estimate;

/// What the budget check said of a test.
#[derive(Debug, Clone)]
pub enum BudgetSaid {
    /// The test has no budget: measured only.
    NoBudget,
    /// The budget decided: its record, the estimate it was decided on
    /// (the CI is the record's look's when it has one), and the test's
    /// between-run sd, a fraction, when the run knows it (the near-the-line
    /// note, [`BudgetRecord::may_flip`], is said with it).
    Decided {
        /// What `report.json` keeps.
        record: BudgetRecord,
        /// The verdict estimate.
        estimate: Estimate,
        /// The test's between-run sd, when known.
        between_run_sd: Option<f64>,
    },
}

impl BudgetSaid {
    /// Whether it fails the test: a decided budget that did not pass.
    pub fn fails(&self) -> bool {
        match self {
            BudgetSaid::NoBudget => false,
            BudgetSaid::Decided { record, .. } => !record.passed(),
        }
    }
}
