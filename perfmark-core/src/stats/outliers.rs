//! Tukey's fences: how many samples are mild or severe outliers, low or high.
//!
//! Always counted and reported (Brent Boyer's `diagnoseOutliers`, "Robust
//! Java benchmarking" (2008), uses the same box-plot rule). Counting never removes anything: the
//! verdict statistic is chosen to be robust to them instead (see
//! [`crate::stats::Statistic`]).

use serde::Serialize;

use super::dist::{quantile_sorted, sorted_copy};

/// Multiple of the interquartile range beyond the quartiles at which a sample
/// is a mild outlier.
pub const MILD_IQR: f64 = 1.5;
/// Multiple of the interquartile range beyond the quartiles at which a sample
/// is a severe outlier.
pub const SEVERE_IQR: f64 = 3.0;

/// Outlier counts by side and severity, with the fences that define them.
///
/// The four classes are disjoint: a severe outlier is not also counted as
/// mild. With quartiles `q1`, `q3` and `iqr = q3 - q1`, a sample `x` is
/// low severe when `x < q1 - 3·iqr`, low mild when
/// `q1 - 3·iqr <= x < q1 - 1.5·iqr`, high mild when
/// `q3 + 1.5·iqr < x <= q3 + 3·iqr`, high severe when `x > q3 + 3·iqr`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Outliers {
    /// Samples below the low severe fence.
    pub low_severe: usize,
    /// Samples between the low severe and the low mild fence.
    pub low_mild: usize,
    /// Samples between the high mild and the high severe fence.
    pub high_mild: usize,
    /// Samples above the high severe fence.
    pub high_severe: usize,
    /// The fences, in the input's unit: low severe, low mild, high mild, high
    /// severe (ascending). All NaN for an empty input.
    pub fences: [f64; 4],
}

impl Outliers {
    /// All outliers, of any side and severity.
    pub fn total(&self) -> usize {
        self.low_severe + self.low_mild + self.high_mild + self.high_severe
    }

    /// Outliers above the upper mild fence (mild and severe).
    pub fn high(&self) -> usize {
        self.high_mild + self.high_severe
    }
}

/// Counts Tukey outliers of `xs` (any order; quartiles are type-7, as in
/// [`crate::stats::summarize`]). O(n log n). An empty input, or fewer than
/// four samples' worth of spread, simply yields no outliers; it never panics.
pub fn tukey(xs: &[f64]) -> Outliers {
    tukey_sorted(&sorted_copy(xs))
}

/// [`tukey`] for input already sorted ascending.
pub(crate) fn tukey_sorted(sorted: &[f64]) -> Outliers {
    let fences = fences_sorted(sorted);
    let mut out = Outliers {
        low_severe: 0,
        low_mild: 0,
        high_mild: 0,
        high_severe: 0,
        fences,
    };
    for &x in sorted {
        if x < fences[0] {
            out.low_severe += 1;
        } else if x < fences[1] {
            out.low_mild += 1;
        } else if x > fences[3] {
            out.high_severe += 1;
        } else if x > fences[2] {
            out.high_mild += 1;
        }
    }
    out
}

/// The four Tukey fences of sorted data (see [`Outliers::fences`]).
pub(crate) fn fences_sorted(sorted: &[f64]) -> [f64; 4] {
    let q1 = quantile_sorted(sorted, 0.25);
    let q3 = quantile_sorted(sorted, 0.75);
    let iqr = q3 - q1;
    [
        q1 - SEVERE_IQR * iqr,
        q1 - MILD_IQR * iqr,
        q3 + MILD_IQR * iqr,
        q3 + SEVERE_IQR * iqr,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_each_side_and_severity() {
        // 24 values; type-7 quartiles at 0-based ranks 5.75 and 17.25 → 4.75 and 16.25,
        // iqr 11.5: fences -29.75, -12.5, 33.5, 50.75
        let xs: Vec<f64> = [80.0, -25.0, 40.0, -60.0]
            .into_iter()
            .chain((1..=20).map(f64::from))
            .collect();
        let o = tukey(&xs);
        assert_eq!(o.fences, [-29.75, -12.5, 33.5, 50.75]);
        assert_eq!(
            (o.low_severe, o.low_mild, o.high_mild, o.high_severe),
            (1, 1, 1, 1)
        );
        assert_eq!((o.total(), o.high()), (4, 2));
    }

    #[test]
    fn exact_fences_on_known_data() {
        let xs: Vec<f64> = (1..=9).map(f64::from).chain([14.0, 100.0]).collect();
        // type-7 quartiles of 11 values: ranks 2.5 and 7.5 → 3.5 and 8.5, iqr 5
        let o = tukey(&xs);
        assert_eq!(o.fences, [-11.5, -4.0, 16.0, 23.5]);
        assert_eq!(
            (o.low_severe, o.low_mild, o.high_mild, o.high_severe),
            (0, 0, 0, 1)
        );
    }

    #[test]
    fn tiny_inputs_have_no_outliers() {
        assert_eq!(tukey(&[]).total(), 0);
        assert_eq!(tukey(&[1.0]).total(), 0);
        assert_eq!(tukey(&[1.0, 1e9]).total(), 0);
    }
}
