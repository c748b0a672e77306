//! The budget, `#[perf_test(budget = "50ns")]`, the whole feature in one
//! place:
//!
//! - [`looks`]: when the adaptive sampler looks at the budget and at what
//!   level, so that looking more than once keeps the test's confidence;
//! - [`check`]: the verdict, the estimate's interval against the budget,
//!   and the record `report.json` keeps of it;
//! - [`near_line`]: the note a verdict gets when the budget lies within
//!   the machine's between-run spread of the estimate.

pub mod check;
pub mod looks;
pub mod near_line;

pub use check::{Budget, BudgetOutcome, BudgetRecord};
pub use looks::BudgetLook;
