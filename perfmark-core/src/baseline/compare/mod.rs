//! The regression rule: is the current run of a test slower than its stored
//! baseline, with significance at the test's confidence and by more than
//! its tolerance?
//!
//! Its variance counts the spread *between* processes, not only the spread
//! inside one: two runs of unchanged code differ far more than either run's
//! own CI says (BenchmarkDotNet#1484: 0.2–2% inside a run, up to 20% across
//! runs). The "mistakes and pitfalls" of Peter Sestoft, "Microbenchmarks in
//! Java and C#" (2016), name the causes: turbo mode, thermal throttling and
//! background work "at unpredictable times" move a whole process, not
//! single samples.
//!
//! The pieces, each in its own file:
//! - what is compared: one run's [`RunEstimate`], and the
//!   [`BaselineEstimate`] that `R ≥ 1` recorded runs reduce to, with their
//!   measured [`Spread`] ([`between_run_spread`]);
//! - the rule: [`RegressionRule`] (confidence, tolerance, prior
//!   [`Spread`]), the [`TestSpread`] it uses against a baseline, and
//!   [`compare`], the formula;
//! - the prior a machine's recording gives the rule: [`moderated_prior`],
//!   the tests' between-run spreads pooled by empirical Bayes;
//! - the result: [`Comparison`] with its verdict (an [`Outcome`]) and its
//!   minimum detectable slowdown, and [`Comparison::reason`] /
//!   [`Comparison::detection`], the verdict and what it could see in words.
//!
//! `docs/design/regression-rule.md` has the formula with its justification, the
//! calibration of the prior on perfmark's reference machine, and the
//! simulation (`tests/compare_simulation.rs`) that proves the rule's
//! false-alarm and detection rates.

use std::fmt;

pub(crate) mod inputs;
mod outcome;
#[cfg(feature = "tool")]
mod prior;
mod reference;
mod rule;

pub use crate::verdicts::Outcome;
#[cfg(feature = "internals")]
pub use inputs::between_run_spread;
pub use inputs::{BaselineEstimate, RunEstimate, Spread};
pub use outcome::Comparison;
#[cfg(feature = "tool")]
pub use prior::moderated_prior;
pub use reference::{compare_with_reference, fit_runs, MachineShift, RecordedFit, Tracking};
#[cfg(feature = "internals")]
pub use reference::{fit_line, LineFit};
pub use rule::{
    compare, RegressionRule, TestSpreadSource, DEFAULT_BETWEEN_RUN_SD, DEFAULT_PRIOR,
    DEFAULT_RESIDUAL_PRIOR, DETECTION_POWER, MIN_RESIDUAL_SD,
};
#[cfg(feature = "internals")]
pub use rule::{TestSpread, DEFAULT_PRIOR_DF};

/// Why a comparison could not be made: one of its inputs lies outside the
/// domain the function accepts (a non-positive or non-finite time, a
/// confidence outside its range, too few samples, a negative tolerance).
///
/// Every error of this module is of that one kind, so there are no variants
/// to match on; the message says which input was wrong and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareError {
    message: String,
}

impl CompareError {
    fn new(message: String) -> Self {
        CompareError { message }
    }
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CompareError {}

/// `Ok` when `x` is a time the log scale accepts: positive and finite.
fn check_time(x: f64, what: &str) -> Result<(), CompareError> {
    if x > 0.0 && x.is_finite() {
        Ok(())
    } else {
        Err(CompareError::new(format!(
            "{what}: a time per iteration must be positive and finite to compare on a log scale; \
             got {x} ns"
        )))
    }
}

/// `Ok` when `lowest < confidence < 1`.
fn check_confidence(confidence: f64, lowest: f64) -> Result<(), CompareError> {
    if confidence > lowest && confidence < 1.0 {
        Ok(())
    } else {
        Err(CompareError::new(format!(
            "confidence must be strictly between {lowest} and 1 (e.g. 0.95); got {confidence}"
        )))
    }
}
