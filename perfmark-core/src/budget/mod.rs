//! The budget, `#[perf_test(budget = "50ns")]`, the whole feature in one
//! place:
//!
//! - [`looks`]: when the adaptive sampler looks at the budget and at what
//!   level, so that looking more than once keeps the test's confidence;
//! - [`record`]: the decision, the estimate's interval against the
//!   budget, and what `report.json` keeps of it; [`check`]: that decision
//!   as one of the run's checks, a value the report puts in words;
//! - [`near_line`]: the note a verdict gets when the budget lies within
//!   the machine's between-run spread of the estimate.

pub mod check;
pub mod looks;
pub mod near_line;
pub mod record;
pub mod said;

pub use check::Budget;
pub use looks::BudgetLook;
pub use record::BudgetRecord;
