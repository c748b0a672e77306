//! A confidence interval, and how it is written to JSON.

#[cfg(feature = "tool")]
use serde::{Deserialize, Deserializer};
use serde::{Serialize, Serializer};

/// A two-sided confidence interval `[low, high]` at level `confidence`.
///
/// Bounds may be infinite when the data cannot bound the statistic at that
/// level (for instance the median of fewer than 6 samples at 95%): such an
/// interval contains every value and has infinite width, so no verdict is
/// ever decided on it. In JSON an infinite bound is written as `null` and read
/// back as −∞ (`low`) or +∞ (`high`), since JSON has no infinities.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Interval {
    /// Lower bound (−∞ when unbounded).
    #[serde(
        serialize_with = "finite_or_null",
        deserialize_with = "null_as_neg_infinity"
    )]
    pub low: f64,
    /// Upper bound (+∞ when unbounded).
    #[serde(
        serialize_with = "finite_or_null",
        deserialize_with = "null_as_infinity"
    )]
    pub high: f64,
    /// Confidence level in (0, 1), e.g. 0.95.
    pub confidence: f64,
}

impl Interval {
    /// The interval that bounds nothing: `(−∞, +∞)`.
    pub fn unbounded(confidence: f64) -> Self {
        Interval {
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
            confidence,
        }
    }

    /// Whether `low <= x <= high`.
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }

    /// Whether a limit at `value` lies inside the interval so that the
    /// interval cannot decide on which side of it the truth is:
    /// `low <= value < high`. This is the budget rule (docs/verdicts.md,
    /// "The rules") in one place, for the sampler that keeps sampling
    /// while it holds and the budget check that calls the verdict
    /// inconclusive when it still holds.
    ///
    /// The ends are not symmetric, because the verdict is not: an interval
    /// whose high end equals the limit lies "at or below" it (decided: within
    /// the budget), while one whose low end equals the limit does not lie
    /// above it (undecided). An interval with a NaN end straddles nothing.
    pub fn straddles(&self, value: f64) -> bool {
        self.low <= value && value < self.high
    }

    /// `high - low` (+∞ when a bound is infinite).
    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// Half the width relative to `point`: `(high - low) / 2 / |point|`, the
    /// "precision" the adaptive stop compares with the test's target.
    /// 0 for a zero-width interval; +∞ when a bound is infinite or when
    /// `point` is 0 and the width is not.
    pub fn relative_half_width(&self, point: f64) -> f64 {
        let width = self.width();
        if width == 0.0 {
            0.0
        } else if !width.is_finite() || point == 0.0 {
            f64::INFINITY
        } else {
            width / 2.0 / point.abs()
        }
    }
}

fn finite_or_null<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_some(x)
    } else {
        s.serialize_none()
    }
}

#[cfg(feature = "tool")]
pub(crate) fn null_as_neg_infinity<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NEG_INFINITY))
}

#[cfg(feature = "tool")]
pub(crate) fn null_as_infinity<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
}

/// An [`Interval`] nested in a record and written flat, as three of the
/// record's own fields: `ci_low`, `ci_high` (`null` when unbounded, read
/// back as ∓∞) and `confidence`. `report.json`'s estimates name their
/// interval so; a record holds it as one `Interval` with
/// `#[serde(flatten, with = "crate::stats::interval::ci_fields")]`.
pub(crate) mod ci_fields {
    use super::{finite_or_null, Interval};
    #[cfg(feature = "tool")]
    use super::{null_as_infinity, null_as_neg_infinity};
    #[cfg(feature = "tool")]
    use serde::{Deserialize, Deserializer};
    use serde::{Serialize, Serializer};

    #[derive(Serialize)]
    #[cfg_attr(feature = "tool", derive(Deserialize))]
    struct Fields {
        #[serde(
            serialize_with = "finite_or_null",
            deserialize_with = "null_as_neg_infinity"
        )]
        ci_low: f64,
        #[serde(
            serialize_with = "finite_or_null",
            deserialize_with = "null_as_infinity"
        )]
        ci_high: f64,
        confidence: f64,
    }

    /// Writes `ci` as the three fields.
    pub(crate) fn serialize<S: Serializer>(ci: &Interval, s: S) -> Result<S::Ok, S::Error> {
        Fields {
            ci_low: ci.low,
            ci_high: ci.high,
            confidence: ci.confidence,
        }
        .serialize(s)
    }

    /// Reads the three fields back as one interval.
    #[cfg(feature = "tool")]
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Interval, D::Error> {
        let f = Fields::deserialize(d)?;
        Ok(Interval {
            low: f.ci_low,
            high: f.ci_high,
            confidence: f.confidence,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_half_width() {
        let i = Interval {
            low: 90.0,
            high: 110.0,
            confidence: 0.95,
        };
        assert_eq!(i.relative_half_width(100.0), 0.1);
        assert_eq!(i.relative_half_width(0.0), f64::INFINITY);
        assert_eq!(
            Interval::unbounded(0.95).relative_half_width(1.0),
            f64::INFINITY
        );
    }

    #[test]
    fn straddles_is_the_budget_rule() {
        let i = Interval {
            low: 9.0,
            high: 11.0,
            confidence: 0.95,
        };
        assert!(i.straddles(10.0));
        // at or below the limit: decided
        assert!(!i.straddles(11.0) && !i.straddles(12.0));
        // the low end on the limit is not "above" it: undecided
        assert!(i.straddles(9.0));
        assert!(!i.straddles(8.9));
        assert!(Interval::unbounded(0.95).straddles(1e9));
        let nan = Interval { low: f64::NAN, ..i };
        assert!(!nan.straddles(10.0) && !i.straddles(f64::NAN));
    }

    #[test]
    fn infinite_bounds_round_trip_through_json() {
        let i = Interval {
            low: f64::NEG_INFINITY,
            high: 3.5,
            confidence: 0.9,
        };
        let json = serde_json::to_string(&i).unwrap();
        assert_eq!(json, r#"{"low":null,"high":3.5,"confidence":0.9}"#);
        assert_eq!(serde_json::from_str::<Interval>(&json).unwrap(), i);
        let up: Interval =
            serde_json::from_str(r#"{"low":1,"high":null,"confidence":0.9}"#).unwrap();
        assert_eq!(up.high, f64::INFINITY);
    }
}
