//! Every quantile perfmark uses, in one place: the sample quantile of data,
//! and the quantiles (and the tail probabilities) of the normal, Student-t,
//! χ² and binomial distributions.
//!
//! A lecture on performance evaluation takes `z_{1−α/2}` and
//! `t_{1−α/2; n−1}` from printed tables; here statrs computes them, for any
//! level and for fractional degrees of freedom, with one correction where
//! statrs is not accurate enough in a regime perfmark uses:
//! - **the t quantile at more than `T_CORNISH_FISHER_DF` (1,000) degrees of
//!   freedom.** statrs inverts its incomplete beta function, whose error
//!   grows with the degrees of freedom: against values computed with mpmath
//!   at 40 digits it is 3e-8 off at df = 2,000, 2e-5 at df = 10⁵, 3e-3 at
//!   df = 10⁶ and 17% at df = 10⁷ (the tests below hold these). A sample
//!   of per-call timings has tens of thousands of degrees of freedom. There
//!   the Cornish–Fisher expansion of t in z (Abramowitz and Stegun, 26.7.5,
//!   to the 1/ν⁴ term) is exact to rounding.
//!
//! The binomial quantile is a bisection over statrs's CDF rather than its
//! `inverse_cdf`, which unwraps (panics) where the CDF is not monotone at
//! the rounding level (n ≥ 10⁵).
//!
//! No function here panics. Inputs outside a function's domain give NaN
//! (or `None`), so a bad number shows up as NaN in a report instead of
//! aborting a test run; each function documents its edge cases.

use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

/// Degrees of freedom above which [`t_quantile`] uses the Cornish–Fisher
/// expansion instead of statrs (whose t quantile is within 1e-12 of the
/// true value up to df = 500 and 3e-9 off at df = 1,000).
const T_CORNISH_FISHER_DF: f64 = 1e3;

/// Whether `p` is a probability: in `[0, 1]`, not NaN.
fn is_probability(p: f64) -> bool {
    (0.0..=1.0).contains(&p)
}

/// The probability below the upper end of a two-sided interval at
/// `confidence`: `(1 + c) / 2`, the `1 − α/2` of `z_{1−α/2}` (0.975 for a
/// 95% interval).
pub fn upper_tail_probability(confidence: f64) -> f64 {
    0.5 + confidence / 2.0
}

/// The standard normal quantile `z_p = Φ⁻¹(p)`: the value a standard normal
/// variable falls below with probability `p`.
///
/// Edge cases: `p = 0` gives −∞ and `p = 1` gives +∞; a `p` that is NaN or
/// outside `[0, 1]` gives NaN.
pub fn normal_quantile(p: f64) -> f64 {
    if !is_probability(p) {
        f64::NAN
    } else if p == 0.0 {
        f64::NEG_INFINITY
    } else if p == 1.0 {
        f64::INFINITY
    } else {
        Normal::standard().inverse_cdf(p)
    }
}

#[cfg(feature = "compare")]
/// The upper tail of Student's t distribution with `df` degrees of freedom,
/// `P(T > t)`: the one-sided p-value of a t statistic.
///
/// Edge cases: `df = +∞` gives the normal tail; NaN for `t` NaN or for `df`
/// NaN or not positive; 0 at `t = +∞` and 1 at `t = −∞`.
pub fn t_upper_tail(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        f64::NAN
    } else if df.is_infinite() {
        Normal::standard().sf(t)
    } else {
        StudentsT::new(0.0, 1.0, df).map_or(f64::NAN, |d| d.sf(t))
    }
}

/// Student's t quantile at probability `p` with `df` degrees of freedom
/// (fractional allowed, as Welch's approximation gives).
///
/// Edge cases: as [`normal_quantile`] for `p` (−∞ at 0, +∞ at 1, NaN
/// outside); `df = +∞` gives the normal quantile; NaN for `df` NaN or not
/// positive.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if !is_probability(p) || p == 0.0 || p == 1.0 || df.is_infinite() {
        return normal_quantile(p);
    }
    if df > T_CORNISH_FISHER_DF {
        return t_cornish_fisher(p, df);
    }
    StudentsT::new(0.0, 1.0, df).map_or(f64::NAN, |t| t.inverse_cdf(p))
}

/// The Cornish–Fisher expansion of Student's t quantile in the normal
/// quantile `z = z_p` and `1/ν`, to the `1/ν⁴` term (Abramowitz and Stegun,
/// 26.7.5). Its error is of order `z¹¹/ν⁵`: below 1e-14 relative for
/// `ν > 1,000` and `p` within `[5e-8, 1 − 5e-8]`.
fn t_cornish_fisher(p: f64, df: f64) -> f64 {
    let z = normal_quantile(p);
    let z2 = z * z;
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92_160.0;
    z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df
}

/// The χ² quantile at probability `p` with `df` degrees of freedom.
///
/// Edge cases: `p = 0` gives 0 and `p = 1` gives +∞; `df` NaN or not
/// positive, or `p` NaN or outside `[0, 1]`, gives NaN.
///
/// statrs's iteration stops at an absolute step of 1e-9, so a quantile far
/// below 1e-9 (df ≤ 1.5 at p ≤ 1e-4) reads about 1e-9: an interval of a
/// spread from two samples at 99.99% confidence is that much too narrow.
pub fn chi_squared_quantile(p: f64, df: f64) -> f64 {
    if !is_probability(p) || df.is_nan() || df <= 0.0 {
        f64::NAN
    } else if p == 0.0 {
        0.0
    } else if p == 1.0 {
        f64::INFINITY
    } else {
        ChiSquared::new(df).map_or(f64::NAN, |d| d.inverse_cdf(p))
    }
}

/// The upper tail of the χ² distribution with `df` degrees of freedom,
/// `P(X > x)`: the p-value of a χ² statistic `x`.
///
/// Edge cases: 1 for `x <= 0`; NaN for `x` NaN or for `df` NaN or not
/// positive.
pub fn chi_squared_upper_tail(x: f64, df: f64) -> f64 {
    if x.is_nan() || df.is_nan() || df <= 0.0 {
        f64::NAN
    } else if x <= 0.0 {
        1.0
    } else {
        ChiSquared::new(df).map_or(f64::NAN, |d| d.sf(x))
    }
}

/// The binomial quantile: the smallest count `k` of successes in `trials`
/// trials of success probability `success` with `P(X <= k) >= p`.
///
/// Edge cases: `p = 0` gives 0 and `p = 1` gives the largest possible count
/// (`trials`, or 0 when `success` is 0); `None` when `p` or `success` is NaN
/// or outside `[0, 1]`.
pub fn binomial_quantile(p: f64, trials: u64, success: f64) -> Option<u64> {
    if !is_probability(p) {
        return None;
    }
    let dist = Binomial::new(success, trials).ok()?;
    if p <= dist.cdf(0) {
        return Some(0);
    }
    if p == 1.0 {
        return Some(trials);
    }
    // P(X ≤ low) < p ≤ P(X ≤ high): bisect to adjacent counts.
    let (mut low, mut high) = (0, trials);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if dist.cdf(mid) >= p {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

/// A copy of `xs` sorted ascending in [`f64::total_cmp`] order, which never
/// panics and puts any NaN at an end (negative NaNs first, positive NaNs
/// last), where [`quantile_sorted`] looks for it.
pub fn sorted_copy(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    v
}

/// The sample quantile of `xs` (any order) at probability `p`: sorts a copy,
/// O(n log n), then [`quantile_sorted`], whose rule and edge cases apply.
pub fn quantile(xs: &[f64], p: f64) -> f64 {
    quantile_sorted(&sorted_copy(xs), p)
}

/// The sample quantile at probability `p` of data sorted ascending by
/// [`f64::total_cmp`] (as [`sorted_copy`] returns it). O(1).
///
/// **The rule**: linear interpolation between order statistics at the
/// 0-based fractional rank `p · (n − 1)`, Hyndman and Fan's type 7 (R's and
/// NumPy's default), so quartiles agree with what a user gets from a
/// spreadsheet. Worked example: for `[1, 2, 3, 10]` at `p = 0.75` the rank is
/// 2.25 and the quantile `3 + 0.25 · (10 − 3) = 4.75`.
///
/// **Edge cases**:
/// - empty data: NaN;
/// - one value: that value, whatever `p`;
/// - `p = 0` and `p = 1`: exactly the smallest and the largest value;
/// - `p` NaN or outside `[0, 1]`: NaN (not clamped: a caller asking for
///   the 1.2 quantile has a bug that a clamp would hide);
/// - NaN in the data: NaN. NaN has no place in an order, so no quantile of
///   such data means anything; sorting by `total_cmp` puts it at an end, so
///   the check costs two comparisons.
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    if !is_probability(p) || sorted.is_empty() {
        return f64::NAN;
    }
    value_at_rank(sorted, p * (sorted.len() - 1) as f64)
}

/// The value at the 0-based fractional rank `rank` of data sorted as for
/// [`quantile_sorted`]: the order statistics either side of it,
/// interpolated linearly (rank 2.25 is a quarter of the way from the third
/// value to the fourth). This is the rule [`quantile_sorted`] applies, for
/// callers that compute ranks themselves (order-statistic intervals).
///
/// Edge cases: NaN for empty data, for NaN in the data, and for a rank that
/// is NaN or outside `[0, n − 1]`.
pub fn value_at_rank(sorted: &[f64], rank: f64) -> f64 {
    let (Some(&first), Some(&last_value)) = (sorted.first(), sorted.last()) else {
        return f64::NAN;
    };
    let last = sorted.len() - 1;
    if first.is_nan() || last_value.is_nan() || !(0.0..=last as f64).contains(&rank) {
        return f64::NAN;
    }
    let lo = rank.floor() as usize;
    let hi = (lo + 1).min(last);
    let frac = rank - lo as f64;
    if frac == 0.0 {
        sorted[lo]
    } else {
        sorted[lo] + frac * (sorted[hi] - sorted[lo])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() < tolerance
    }

    #[test]
    fn normal_quantiles_agree_with_tables() {
        assert!(close(normal_quantile(0.975), 1.959_964, 1e-6));
        assert!(close(normal_quantile(0.95), 1.644_854, 1e-6));
        assert_eq!(normal_quantile(0.5), 0.0);
        assert!(close(normal_quantile(0.025), -1.959_964, 1e-6));
        assert!(close(
            normal_quantile(upper_tail_probability(0.99)),
            2.575_829,
            1e-6
        ));
    }

    #[test]
    fn normal_quantile_edges() {
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        for bad in [f64::NAN, -0.1, 1.1, f64::INFINITY] {
            assert!(normal_quantile(bad).is_nan(), "p = {bad}");
        }
    }

    #[test]
    fn t_quantiles_agree_with_tables() {
        assert!(close(t_quantile(0.975, 10.0), 2.228_139, 1e-5));
        assert!(close(t_quantile(0.95, 4.0), 2.131_847, 1e-5));
        assert!(close(t_quantile(0.975, 1.0), 12.706_205, 1e-4));
        // between t(7) = 2.3646 and t(6) = 2.4469
        let fractional = t_quantile(0.975, 6.97);
        assert!(fractional > 2.3646 && fractional < 2.4469, "{fractional}");
    }

    /// Values from mpmath at 40 digits: (p, df, t). The Cornish–Fisher
    /// branch holds them to 1e-12 where statrs is 3e-8 (df = 2,000) to 17%
    /// (df = 10⁷) off.
    const T_LARGE_DF: [(f64, f64, f64); 10] = [
        (5e-08, 1000.0, -5.366090553369944),
        (0.025, 1000.0, -1.9623390808264085),
        (0.9999999, 1000.0, 5.23599846939222),
        (0.75, 1000.0, 0.6747351646070094),
        (0.0001, 100000.0, -3.7191543826413445),
        (0.75, 100000.0, 0.6744922035532922),
        (0.975, 100000.0, 1.9599877075346093),
        (1e-06, 100000.0, -4.753704716391288),
        (0.999, 100000.0, 3.0903138094272373),
        (0.99, 1000.0, 2.330082674755513),
    ];

    #[test]
    fn t_quantiles_at_many_degrees_of_freedom_are_exact() {
        for (p, df, t) in T_LARGE_DF {
            let ours = t_quantile(p, df);
            assert!(
                ((ours - t) / t).abs() < 1e-12,
                "p = {p}, df = {df}: {ours} vs {t}"
            );
        }
        // Just below the switch, statrs is used and as accurate.
        let t = t_quantile(0.975, 999.0);
        assert!(
            (t - t_cornish_fisher(0.975, 999.0)).abs() < 1e-10 * t,
            "{t}"
        );
        // df = 10⁷: the normal quantile plus about 1e-7.
        let gap = t_quantile(0.975, 1e7) - normal_quantile(0.975);
        assert!(gap > 0.0 && gap < 1e-6, "{gap}");
    }

    #[test]
    fn t_quantile_edges() {
        let z = normal_quantile(0.95);
        assert_eq!(t_quantile(0.95, f64::INFINITY), z);
        assert!((t_quantile(0.95, 1e8) - z).abs() < 1e-7);
        assert_eq!(t_quantile(0.0, 5.0), f64::NEG_INFINITY);
        assert_eq!(t_quantile(1.0, 5.0), f64::INFINITY);
        for (p, df) in [(0.95, 0.0), (0.95, -1.0), (0.95, f64::NAN), (1.5, 5.0)] {
            assert!(t_quantile(p, df).is_nan(), "p = {p}, df = {df}");
        }
    }

    #[test]
    fn chi_squared_agrees_with_tables() {
        assert!(close(chi_squared_quantile(0.975, 9.0), 19.022_768, 1e-5));
        assert!(close(chi_squared_quantile(0.025, 9.0), 2.700_389, 1e-5));
        assert!(close(chi_squared_upper_tail(19.022_768, 9.0), 0.025, 1e-7));
        assert_eq!(chi_squared_quantile(0.0, 3.0), 0.0);
        assert_eq!(chi_squared_quantile(1.0, 3.0), f64::INFINITY);
        assert!(chi_squared_quantile(0.5, 0.0).is_nan());
        assert!(chi_squared_quantile(f64::NAN, 3.0).is_nan());
        assert_eq!(chi_squared_upper_tail(0.0, 3.0), 1.0);
        assert!(chi_squared_upper_tail(1.0, -1.0).is_nan());
    }

    #[test]
    fn binomial_quantiles() {
        // Binomial(20, 0.05): P(X ≤ 3) = 0.984, P(X ≤ 4) = 0.997
        assert_eq!(binomial_quantile(0.99, 20, 0.05), Some(4));
        assert_eq!(binomial_quantile(0.98, 20, 0.05), Some(3));
        assert_eq!(binomial_quantile(0.0, 20, 0.05), Some(0));
        assert_eq!(binomial_quantile(1.0, 20, 0.05), Some(20));
        assert_eq!(binomial_quantile(1.2, 20, 0.05), None);
        assert_eq!(binomial_quantile(0.5, 20, f64::NAN), None);
    }

    #[test]
    fn sample_quantiles_interpolate_like_r_type_7() {
        // R: quantile(c(1, 2, 3, 10), c(0, .25, .5, .75, 1)) = 1 1.75 2.5 4.75 10
        let xs = [10.0, 1.0, 3.0, 2.0];
        let expected = [
            (0.0, 1.0),
            (0.25, 1.75),
            (0.5, 2.5),
            (0.75, 4.75),
            (1.0, 10.0),
        ];
        for (p, q) in expected {
            assert!(close(quantile(&xs, p), q, 1e-12), "p = {p}");
        }
        assert_eq!(value_at_rank(&[1.0, 2.0, 3.0, 10.0], 2.25), 4.75);
    }

    #[test]
    fn sample_quantile_edges() {
        assert!(quantile(&[], 0.5).is_nan());
        for p in [0.0, 0.3, 1.0] {
            assert_eq!(quantile(&[7.0], p), 7.0);
        }
        let xs = [3.0, -1.0, 2.0];
        assert_eq!(quantile(&xs, 0.0), -1.0);
        assert_eq!(quantile(&xs, 1.0), 3.0);
        for bad in [f64::NAN, -0.01, 1.01] {
            assert!(quantile(&xs, bad).is_nan(), "p = {bad}");
        }
        // NaN data is rejected wherever the NaN is and whatever its sign
        assert!(quantile(&[1.0, f64::NAN, 3.0], 0.5).is_nan());
        assert!(quantile(&[1.0, -f64::NAN, 3.0], 0.0).is_nan());
        assert!(value_at_rank(&[1.0, 2.0], 1.5).is_nan());
        assert!(value_at_rank(&[1.0, 2.0], -0.5).is_nan());
        assert!(value_at_rank(&[], 0.0).is_nan());
    }
}
