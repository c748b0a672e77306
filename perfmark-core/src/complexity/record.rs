//! What `report.json` keeps of a complexity test: the points the fit
//! used, the candidates' fits and the verdict on the declared class.

use perfmark_options::Complexity;

use crate::complexity::fit::{CandidateFit, GrowthError, GrowthFit, MARGIN};
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
    /// The estimate's CI, ns per iteration, written as the record's
    /// `ci_low`, `ci_high` and `confidence`.
    #[serde(flatten, with = "crate::stats::interval::ci_fields")]
    pub ci: Interval,
}

/// One candidate class's fit, `t = constant + coefficient · g(n)`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct CandidateRecord {
    /// The class, written as in the attribute: `1`, `log n`, `n`,
    /// `n log n`, `n^2`, `n^3`.
    #[serde(with = "class_text")]
    pub class: Complexity,
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
    /// The declared class, written as in the attribute: `n log n`.
    #[serde(with = "class_text")]
    pub declared: Complexity,
    /// The best-fitting class, when a fit was made.
    #[serde(with = "class_text::optional")]
    pub fitted: Option<Complexity>,
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
    /// Whether the check failed: the fit's decision
    /// ([`GrowthFit::fails`]), or true when no fit was made.
    pub fails: bool,
    /// Why no fit was made, when none was.
    pub error: Option<String>,
    /// Each argument's test: size and estimate.
    pub points: Vec<ComplexityPoint>,
    /// Every candidate class's fit, slowest-growing first.
    pub candidates: Vec<CandidateRecord>,
}

impl ComplexityRecord {
    /// The record of a fit of `points` against the declared class, at
    /// `confidence`.
    pub fn fitted(points: Vec<ComplexityPoint>, confidence: f64, fit: &GrowthFit) -> Self {
        ComplexityRecord {
            declared: fit.declared,
            fitted: Some(fit.fitted),
            exponent: Some(fit.exponent),
            exponent_ci: Some(fit.exponent_ci),
            declared_exponent: Some(fit.declared_exponent),
            excess: Some(fit.excess),
            excess_low: Some(fit.excess_low),
            margin: MARGIN,
            detectable_excess: Some(fit.detectable_excess),
            confidence,
            fails: fit.fails(),
            error: None,
            points,
            candidates: fit.candidates.iter().map(CandidateRecord::of).collect(),
        }
    }

    /// The record of `points` that could not be fitted, for `error`: it
    /// fails.
    pub fn not_fitted(
        points: Vec<ComplexityPoint>,
        declared: Complexity,
        confidence: f64,
        error: &GrowthError,
    ) -> Self {
        ComplexityRecord {
            declared,
            fitted: None,
            exponent: None,
            exponent_ci: None,
            declared_exponent: None,
            excess: None,
            excess_low: None,
            margin: MARGIN,
            detectable_excess: None,
            confidence,
            fails: true,
            error: Some(error.to_string()),
            points,
            candidates: Vec::new(),
        }
    }

    /// The smallest and the largest size of the record's points, `(0, 0)`
    /// when it has none.
    pub fn size_range(&self) -> (u64, u64) {
        let low = self.points.iter().map(|p| p.size).min().unwrap_or(0);
        let high = self.points.iter().map(|p| p.size).max().unwrap_or(0);
        (low, high)
    }
}

impl CandidateRecord {
    /// What `report.json` keeps of a candidate's fit.
    fn of(c: &CandidateFit) -> Self {
        CandidateRecord {
            class: c.class,
            constant_ns: c.constant_ns,
            coefficient_ns: c.coefficient_ns,
            relative_rms: c.relative_rms,
        }
    }
}

/// A growth class in `report.json`: its text in the attribute (`n log n`),
/// read back into the class.
mod class_text {
    use perfmark_options::Complexity;
    use serde::Serializer;

    pub(super) fn serialize<S: Serializer>(class: &Complexity, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(class.as_str())
    }

    #[cfg(feature = "tool")]
    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Complexity, D::Error> {
        use serde::Deserialize;
        let text = String::deserialize(d)?;
        Complexity::ALL
            .into_iter()
            .find(|c| c.as_str() == text)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "{text:?} is not a growth class: one of 1, log n, n, n log n, n^2, n^3"
                ))
            })
    }

    /// The same for a class that may be absent (`null`).
    pub(super) mod optional {
        use perfmark_options::Complexity;
        use serde::Serializer;

        pub(in super::super) fn serialize<S: Serializer>(
            class: &Option<Complexity>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match class {
                Some(class) => s.serialize_some(class.as_str()),
                None => s.serialize_none(),
            }
        }

        #[cfg(feature = "tool")]
        pub(in super::super) fn deserialize<'de, D: serde::Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Complexity>, D::Error> {
            #[derive(serde::Deserialize)]
            struct Class(#[serde(with = "super")] Complexity);
            serde::Deserialize::deserialize(d).map(|c: Option<Class>| c.map(|Class(c)| c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_writes_its_interval_as_its_own_fields_and_reads_it_back() {
        let point = ComplexityPoint {
            test: "sort::1000".to_owned(),
            size: 1000,
            ns_per_iter: 2.5,
            ci: Interval {
                low: f64::NEG_INFINITY,
                high: 3.25,
                confidence: 0.9,
            },
        };
        let text = serde_json::to_string(&point).unwrap();
        assert_eq!(
            text,
            r#"{"test":"sort::1000","size":1000,"ns_per_iter":2.5,"ci_low":null,"ci_high":3.25,"confidence":0.9}"#
        );
        let back: ComplexityPoint = serde_json::from_str(&text).unwrap();
        assert_eq!(back, point);
    }
}
