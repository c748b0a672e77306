//! The result of the regression rule: the verdict and the numbers behind it.

use serde::Serialize;

use super::TestSpreadSource;
use crate::stats::Interval;
use crate::verdicts::Outcome;

/// A run compared with its baseline by the regression rule
/// ([`super::compare()`]); [`Comparison::reason`] puts it in words.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Comparison {
    /// `current / baseline` time per iteration; > 1 is slower.
    pub ratio: f64,
    /// Interval of the ratio whose ends are the one-sided bounds at
    /// [`Comparison::confidence`]; as a two-sided interval its confidence is
    /// `2c − 1`, which its `confidence` field holds.
    pub ci: Interval,
    /// The test's confidence `c` (one-sided).
    pub confidence: f64,
    /// The relative tolerance (0.05 for 5%).
    pub tolerance: f64,
    /// The between-run sd of log estimates used, `σ_b`.
    pub between_run_sd: f64,
    /// Degrees of freedom of the t quantile (`f64::INFINITY`: normal).
    pub between_run_df: f64,
    /// Where `between_run_sd` came from.
    pub between_run_source: TestSpreadSource,
    /// The baseline's measured between-run sd, when it has one.
    pub measured_between_run_sd: Option<f64>,
    /// Standard error of `ln(ratio)`, all terms included.
    pub log_se: f64,
    /// The smallest true slowdown this comparison catches with probability
    /// [`super::DETECTION_POWER`] (9 times in 10), as a fraction (0.12 for
    /// +12%): `exp(max(t·se, ln(1 + tolerance)) + z·se) − 1`. Slowdowns
    /// below it mostly pass unseen. Infinite when the interval is.
    #[serde(default = "not_recorded")]
    pub min_detectable_slowdown: f64,
    /// The verdict: [`Outcome::Regressed`] (the only one that fails),
    /// [`Outcome::SlowerWithinTolerance`], [`Outcome::NoSignificantChange`],
    /// [`Outcome::FasterWithinTolerance`] or [`Outcome::Improved`].
    pub verdict: Outcome,
    /// How much the machine moved since the baseline, when both had the
    /// machine-state reference ([`super::compare_with_reference`]); the
    /// ratio and interval above then allow for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<super::MachineShift>,
    /// `current / baseline` before the machine's move was allowed for
    /// (present with `machine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_ratio: Option<f64>,
    /// The share of the machine's move the test was taken to follow
    /// (present with `machine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tracking: Option<super::Tracking>,
}

/// What a report written before the field existed reads as.
#[cfg(feature = "tool")]
fn not_recorded() -> f64 {
    f64::NAN
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regression_fails() {
        assert!(Outcome::Regressed.fails());
        for change in [
            Outcome::SlowerWithinTolerance,
            Outcome::NoSignificantChange,
            Outcome::FasterWithinTolerance,
            Outcome::Improved,
        ] {
            assert!(!change.fails(), "{change:?}");
            assert_eq!(
                serde_json::to_string(&change).unwrap(),
                format!("\"{}\"", change.as_str())
            );
        }
    }
}
