//! Descriptive statistics of one sample set: the numbers every report shows.
//!
//! Quantiles are [`super::dist::quantile_sorted`]'s (type 7, R's and
//! NumPy's default), so `q1`, `median` and `q3` of the same data agree with
//! what a user gets from a spreadsheet.

use serde::Serialize;

use super::dist::{quantile_sorted, sorted_copy};

/// Mean, median, spread and range of a sample set, in the unit of the input
/// (nanoseconds per iteration when the runtime calls it).
///
/// For an empty input every field except `n` is NaN. For `n = 1`, `sd` and
/// `cov` are 0 (no spread was observed; see [`crate::stats::sd_interval`] for
/// how uncertain that is).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Median (type-7 quantile at 0.5).
    pub median: f64,
    /// Sample standard deviation (divisor `n - 1`).
    pub sd: f64,
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Coefficient of variation `sd / mean` (relative spread, unitless).
    pub cov: f64,
    /// First quartile (type-7 quantile at 0.25).
    pub q1: f64,
    /// Third quartile (type-7 quantile at 0.75).
    pub q3: f64,
}

/// Summarizes `xs` (any order). O(n log n): it sorts a copy.
///
/// NaN inputs are not accepted: the result is then unspecified (the
/// quantiles are NaN), but it does not panic.
pub fn summarize(xs: &[f64]) -> Summary {
    let sorted = sorted_copy(xs);
    summarize_sorted(&sorted)
}

/// [`summarize`] for input already sorted ascending.
pub(crate) fn summarize_sorted(sorted: &[f64]) -> Summary {
    let n = sorted.len();
    if n == 0 {
        return Summary {
            n,
            mean: f64::NAN,
            median: f64::NAN,
            sd: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
            cov: f64::NAN,
            q1: f64::NAN,
            q3: f64::NAN,
        };
    }
    let mean = mean(sorted);
    let sd = sd_about(sorted, mean);
    Summary {
        n,
        mean,
        median: quantile_sorted(sorted, 0.5),
        sd,
        min: sorted[0],
        max: sorted[n - 1],
        cov: if sd == 0.0 { 0.0 } else { sd / mean },
        q1: quantile_sorted(sorted, 0.25),
        q3: quantile_sorted(sorted, 0.75),
    }
}

/// Arithmetic mean; NaN for an empty slice.
pub(crate) fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Geometric mean `exp(mean(ln x))`, the centre of times that vary by
/// ratios ("Performance measurement", a university lecture on performance
/// evaluation, compares performance by ratios and geometric means).
/// NaN for an empty slice or a negative value; 0 when a value is 0.
pub fn geometric_mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

/// Sample standard deviation about a given mean (divisor `n - 1`); 0 for
/// `n <= 1`.
pub(crate) fn sd_about(xs: &[f64], mean: f64) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_values() {
        let s = summarize(&[4.0, 1.0, 3.0, 2.0, 5.0]);
        assert_eq!(s.n, 5);
        assert_eq!(s.mean, 3.0);
        assert_eq!(s.median, 3.0);
        assert_eq!(s.min, 1.0);
        assert_eq!(s.max, 5.0);
        assert_eq!(s.q1, 2.0);
        assert_eq!(s.q3, 4.0);
        assert!((s.sd - 2.5f64.sqrt()).abs() < 1e-12);
        assert!((s.cov - 2.5f64.sqrt() / 3.0).abs() < 1e-12);
    }

    #[test]
    fn quantiles_interpolate_like_r_type_7() {
        // R: quantile(c(1, 2, 3, 10), c(.25, .5, .75)) = 1.75 2.5 4.75
        let s = summarize(&[10.0, 1.0, 3.0, 2.0]);
        assert!((s.q1 - 1.75).abs() < 1e-12);
        assert!((s.median - 2.5).abs() < 1e-12);
        assert!((s.q3 - 4.75).abs() < 1e-12);
    }

    #[test]
    fn geometric_mean_of_ratios() {
        assert!((geometric_mean(&[100.0, 400.0]) - 200.0).abs() < 1e-9);
        assert!((geometric_mean(&[5.0]) - 5.0).abs() < 1e-12);
        assert!(geometric_mean(&[]).is_nan());
        assert!(geometric_mean(&[1.0, -1.0]).is_nan());
    }

    #[test]
    fn tiny_and_empty_inputs_do_not_panic() {
        let one = summarize(&[7.0]);
        assert_eq!(
            (one.mean, one.median, one.sd, one.cov),
            (7.0, 7.0, 0.0, 0.0)
        );
        let two = summarize(&[1.0, 3.0]);
        assert_eq!(two.median, 2.0);
        assert!((two.sd - 2f64.sqrt()).abs() < 1e-12);
        let empty = summarize(&[]);
        assert_eq!(empty.n, 0);
        assert!(empty.mean.is_nan());
    }
}
