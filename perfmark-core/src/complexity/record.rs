//! What `report.json` keeps of a complexity test: the points the fit
//! used, the candidates' fits and the verdict on the declared class.

use crate::stats::Interval;

/// One argument's test as the check used it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ComplexityPoint {
    /// The argument's test, e.g. `sort::1000`.
    pub test: String,
    /// Its size (`perfmark::Size` of the argument).
    pub size: u64,
    /// Its estimate, ns per iteration.
    pub ns_per_iter: f64,
    /// Lower end of the estimate's CI, ns per iteration.
    #[serde(deserialize_with = "crate::stats::null_as_neg_infinity")]
    pub ci_low: f64,
    /// Upper end of the estimate's CI, ns per iteration.
    #[serde(deserialize_with = "crate::stats::null_as_infinity")]
    pub ci_high: f64,
    /// The CI's confidence level.
    pub confidence: f64,
}

/// One candidate class's fit, `t = constant + coefficient · g(n)`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct CandidateRecord {
    /// The class as written: `1`, `log n`, `n`, `n log n`, `n^2`, `n^3`.
    pub class: String,
    /// The constant, ns per iteration.
    pub constant_ns: f64,
    /// The coefficient of `g(n)` (log₂ for the log classes), ns.
    pub coefficient_ns: f64,
    /// RMS of the relative residuals, as a fraction.
    pub relative_rms: f64,
}

/// What `report.json` keeps of a complexity decision (the `complexity`
/// object of a `NAME::complexity` test).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ComplexityRecord {
    /// The declared class as written: `n log n`.
    pub declared: String,
    /// The best-fitting class, when a fit was made.
    pub fitted: Option<String>,
    /// The exponent k of `time ∝ n^k` over the sizes.
    pub exponent: Option<f64>,
    /// Its two-sided CI, at `confidence`.
    pub exponent_ci: Option<Interval>,
    /// The declared class's own exponent over the same sizes.
    pub declared_exponent: Option<f64>,
    /// How much faster than declared the time grows, as a power of n.
    pub excess: Option<f64>,
    /// The one-sided lower confidence bound of `excess`.
    pub excess_low: Option<f64>,
    /// The margin the bound must exceed to fail ([`crate::complexity::fit::MARGIN`]).
    pub margin: f64,
    /// The smallest excess these sizes could have caught.
    pub detectable_excess: Option<f64>,
    /// The test's confidence level.
    pub confidence: f64,
    /// Whether the check failed: filled from the fit's decision
    /// ([`GrowthFit::fails`](crate::complexity::fit::GrowthFit::fails)), or
    /// true when no fit was made, as the finding decides it.
    pub fails: bool,
    /// Why no fit was made, when none was.
    pub error: Option<String>,
    /// Each argument's test: size and estimate.
    pub points: Vec<ComplexityPoint>,
    /// Every candidate class's fit, slowest-growing first.
    pub candidates: Vec<CandidateRecord>,
}

impl ComplexityRecord {
    /// The smallest and the largest size of the record's points, `(0, 0)`
    /// when it has none.
    pub fn size_range(&self) -> (u64, u64) {
        let low = self.points.iter().map(|p| p.size).min().unwrap_or(0);
        let high = self.points.iter().map(|p| p.size).max().unwrap_or(0);
        (low, high)
    }
}
