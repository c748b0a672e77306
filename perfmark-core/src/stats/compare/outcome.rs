//! The result of the regression rule: the verdict and the numbers behind it.

use super::SpreadSource;
use crate::json::{self, FromJson, Object, ToJson, Value};
use crate::stats::Interval;

/// The outcome of comparing a run with its baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Significantly slower and the ratio above `1 + tolerance`: the test
    /// fails.
    Regressed,
    /// Significantly slower, but by no more than the tolerance.
    SlowerWithinTolerance,
    /// No significant difference in either direction.
    NoSignificantChange,
    /// Significantly faster, but by no more than the tolerance.
    FasterWithinTolerance,
    /// Significantly faster and the ratio below `1 / (1 + tolerance)`:
    /// reported (the baseline could be re-recorded), never a failure.
    Improved,
}

impl Change {
    /// Whether this outcome fails the test: only [`Change::Regressed`].
    pub fn is_failure(self) -> bool {
        self == Change::Regressed
    }

    /// A stable snake_case name, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Regressed => "regressed",
            Change::SlowerWithinTolerance => "slower_within_tolerance",
            Change::NoSignificantChange => "no_significant_change",
            Change::FasterWithinTolerance => "faster_within_tolerance",
            Change::Improved => "improved",
        }
    }
}

/// A run compared with its baseline by the regression rule
/// ([`super::compare()`]); [`Comparison::reason`] puts it in words.
#[derive(Debug, Clone, Copy, PartialEq)]
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
    pub between_run_source: SpreadSource,
    /// The baseline's measured between-run sd, when it has one.
    pub measured_between_run_sd: Option<f64>,
    /// Standard error of `ln(ratio)`, all terms included.
    pub log_se: f64,
    /// The smallest true slowdown this comparison catches with probability
    /// [`super::DETECTION_POWER`] (9 times in 10), as a fraction (0.12 for
    /// +12%): `exp(max(t·se, ln(1 + tolerance)) + z·se) − 1`. Slowdowns
    /// below it mostly pass unseen. Infinite when the interval is.
    pub min_detectable_slowdown: f64,
    /// The verdict.
    pub verdict: Change,
}

crate::json::unit_enum_json!(Change {
    Regressed = "regressed",
    SlowerWithinTolerance = "slower_within_tolerance",
    NoSignificantChange = "no_significant_change",
    FasterWithinTolerance = "faster_within_tolerance",
    Improved = "improved",
});

impl ToJson for Comparison {
    fn to_json(&self) -> Value {
        Object::new()
            .with("ratio", &self.ratio)
            .with("ci", &self.ci)
            .with("confidence", &self.confidence)
            .with("tolerance", &self.tolerance)
            .with("between_run_sd", &self.between_run_sd)
            .with("between_run_df", &self.between_run_df)
            .with("between_run_source", &self.between_run_source)
            .with("measured_between_run_sd", &self.measured_between_run_sd)
            .with("log_se", &self.log_se)
            .with("min_detectable_slowdown", &self.min_detectable_slowdown)
            .with("verdict", &self.verdict)
            .into()
    }
}

impl FromJson for Comparison {
    /// A report written before `min_detectable_slowdown` existed reads it
    /// as NaN (not recorded).
    #[inline]
    fn from_json(value: &Value) -> Result<Self, json::Error> {
        let f = value.fields()?;
        Ok(Comparison {
            ratio: f.get("ratio")?,
            ci: f.get("ci")?,
            confidence: f.get("confidence")?,
            tolerance: f.get("tolerance")?,
            between_run_sd: f.get("between_run_sd")?,
            between_run_df: f.get("between_run_df")?,
            between_run_source: f.get("between_run_source")?,
            measured_between_run_sd: f.get("measured_between_run_sd")?,
            log_se: f.get("log_se")?,
            min_detectable_slowdown: f.get_or_else("min_detectable_slowdown", not_recorded)?,
            verdict: f.get("verdict")?,
        })
    }
}

/// What a report written before the field existed reads as.
fn not_recorded() -> f64 {
    f64::NAN
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::testing;

    #[test]
    fn only_a_regression_fails() {
        assert!(Change::Regressed.is_failure());
        for change in [
            Change::SlowerWithinTolerance,
            Change::NoSignificantChange,
            Change::FasterWithinTolerance,
            Change::Improved,
        ] {
            assert!(!change.is_failure(), "{change:?}");
            assert_eq!(testing::text(&change), format!("\"{}\"", change.as_str()));
        }
    }

    #[test]
    fn json_round_trips() {
        let all = [
            Change::Regressed,
            Change::SlowerWithinTolerance,
            Change::NoSignificantChange,
            Change::FasterWithinTolerance,
            Change::Improved,
        ];
        for change in all {
            testing::round_trips(&change);
        }
        let c = Comparison {
            ratio: 1.25,
            ci: Interval {
                low: 1.125,
                high: 1.5,
                confidence: 0.9,
            },
            confidence: 0.95,
            tolerance: 0.05,
            between_run_sd: 0.075,
            between_run_df: 4.0,
            between_run_source: SpreadSource::Prior,
            measured_between_run_sd: None,
            log_se: 0.0625,
            min_detectable_slowdown: 0.25,
            verdict: Change::Regressed,
        };
        testing::round_trips(&c);
        let pooled = Comparison {
            between_run_source: SpreadSource::Pooled { runs: 3 },
            measured_between_run_sd: Some(0.02),
            verdict: Change::NoSignificantChange,
            ..c
        };
        testing::round_trips(&pooled);
        let text = testing::text(&c);
        assert_eq!(
            text,
            r#"{"ratio":1.25,"ci":{"low":1.125,"high":1.5,"confidence":0.9},"confidence":0.95,"tolerance":0.05,"between_run_sd":0.075,"between_run_df":4.0,"between_run_source":{"kind":"prior"},"measured_between_run_sd":null,"log_se":0.0625,"min_detectable_slowdown":0.25,"verdict":"regressed"}"#
        );
        // written before min_detectable_slowdown existed: not recorded
        let old: Comparison =
            testing::read(&text.replace(r#""min_detectable_slowdown":0.25,"#, ""));
        assert!(old.min_detectable_slowdown.is_nan());
        assert_eq!(old.verdict, Change::Regressed);
        // a normal-theory comparison's infinite df is written as null, read as NaN
        let normal: Comparison = testing::read(&testing::text(&Comparison {
            between_run_df: f64::INFINITY,
            ..c
        }));
        assert!(normal.between_run_df.is_nan());
    }
}
