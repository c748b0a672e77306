//! Budgets near the line: whether a budget lies so near the estimate that
//! its verdict may flip from one process to the next, which the budget
//! check then notes on its verdict line ([`super::BudgetRecord::may_flip`]).
//!
//! The budget's CI covers this process's estimate (about ±0.5% on a quiet
//! test), but the estimate itself moves between processes by the machine's
//! between-run spread `σ_b` (2% and more; [`crate::baseline::run_spreads`]). A budget
//! closer to the estimate than that can pass in one run and fail in the
//! next with nothing changed, however narrow the CI: the verdict line then
//! says so, e.g. `…; may flip between runs: the budget is 2.1% above the
//! estimate, and runs here differ by about 4%`.
//!
//! "Near" is within [`FLIP_SDS`] between-run sds on the log scale: about
//! 95% of runs land within that distance of the typical estimate, so a
//! budget further out is crossed by chance about 1 run in 40 or less.

/// How many between-run sds a budget must lie from the estimate for its
/// verdict to count as stable between runs.
pub const FLIP_SDS: f64 = 2.0;

/// Whether a budget of `budget_ns` lies near an estimate of `estimate_ns`
/// when runs differ by a between-run sd of `sd` (a fraction): the spread
/// it lies within, [`FLIP_SDS`] sds on the log scale, or `None` when it
/// lies at least that far away or a number is not usable.
pub fn near_spread(budget_ns: f64, estimate_ns: f64, sd: f64) -> Option<f64> {
    if !(budget_ns > 0.0 && estimate_ns > 0.0 && sd > 0.0 && sd.is_finite()) {
        return None;
    }
    let margin = (budget_ns / estimate_ns).ln();
    let spread = FLIP_SDS * sd;
    // Inputs were checked finite and positive above, so margin is a number.
    (margin.abs() < spread).then_some(spread)
}
