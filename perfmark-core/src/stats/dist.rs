//! Every quantile perfmark uses, in one place: the sample quantile of data,
//! and the quantiles (and the one tail probability) of the normal,
//! Student-t, χ² and binomial distributions.
//!
//! The lecture on performance evaluation (seed 004, "Confidence Intervals")
//! takes `z_{1−α/2}` and `t_{1−α/2; n−1}` from printed tables; here they are
//! computed, for any level and for fractional degrees of freedom, by
//! perfmark's own functions (on the special functions of [`super::special`];
//! statrs did it until issue 13, and `statrs_agreement.rs` holds these
//! within 1e-10 of the true values, from mpmath, and of statrs where
//! statrs is that accurate):
//! - the normal quantile: Wichura's algorithm AS 241 (`PPND16`, Applied
//!   Statistics 37, 1988), rational approximations accurate to about 1e-16;
//! - the t and χ² quantiles: Newton's method on the logarithm of the tail
//!   probability, kept inside a bracket that bisection shrinks whenever a
//!   step would leave it (Numerical Recipes' `rtsafe`), started from the
//!   Cornish–Fisher expansion of t in z (Abramowitz and Stegun 26.7.5) or
//!   from Wilson and Hilferty's cube-root approximation of χ² (A&S 26.4.17);
//! - the binomial quantile: bisection over the counts on the CDF
//!   `P(X ≤ k) = I_{1−p}(n − k, k + 1)`.
//!
//! No function here panics. Inputs outside a function's domain give NaN
//! (or `None`), so a bad number shows up as NaN in a report instead of
//! aborting a test run; each function documents its edge cases.

use super::special::{beta_reg, gamma_pq, ln_beta, ln_gamma};

/// Degrees of freedom above which [`t_quantile`] returns the normal
/// quantile: the two then agree to about 1e-7.
const T_AS_NORMAL_DF: f64 = 1e7;

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

/// A polynomial's value at `x`, its coefficients from the constant term up
/// (Horner's rule).
fn polynomial(coefficients: &[f64], x: f64) -> f64 {
    coefficients.iter().rev().fold(0.0, |sum, c| sum * x + c)
}

/// The standard normal quantile `z_p = Φ⁻¹(p)`: the value a standard normal
/// variable falls below with probability `p`. Wichura's AS 241 (`PPND16`):
/// one rational function of `(p − ½)²` in the centre, two of
/// `√(−ln min(p, 1 − p))` in the tails; relative error about 1e-16.
///
/// Edge cases: `p = 0` gives −∞ and `p = 1` gives +∞; a `p` that is NaN or
/// outside `[0, 1]` gives NaN.
// Wichura's coefficients as published, beyond f64's 17 digits.
#[allow(clippy::excessive_precision)]
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 8] = [
        3.387_132_872_796_366_608,
        1.331_416_678_917_843_774_5e2,
        1.971_590_950_306_551_442_7e3,
        1.373_169_376_550_946_112_5e4,
        4.592_195_393_154_987_145_7e4,
        6.726_577_092_700_870_085_3e4,
        3.343_057_558_358_812_810_5e4,
        2.509_080_928_730_122_672_7e3,
    ];
    const B: [f64; 8] = [
        1.0,
        4.231_333_070_160_091_125_2e1,
        6.871_870_074_920_579_083e2,
        5.394_196_021_424_751_107_7e3,
        2.121_379_430_158_659_586_7e4,
        3.930_789_580_009_271_061e4,
        2.872_908_573_572_194_267_4e4,
        5.226_495_278_852_854_561e3,
    ];
    const C: [f64; 8] = [
        1.423_437_110_749_683_577_34,
        4.630_337_846_156_545_295_9,
        5.769_497_221_460_691_405_5,
        3.647_848_324_763_204_605_04,
        1.270_458_252_452_368_382_58,
        2.417_807_251_774_506_117_7e-1,
        2.272_384_498_926_918_458_33e-2,
        7.745_450_142_783_414_076_4e-4,
    ];
    const D: [f64; 8] = [
        1.0,
        2.053_191_626_637_758_821_87,
        1.676_384_830_183_803_849_4,
        6.897_673_349_851_000_045_5e-1,
        1.481_039_764_274_800_745_9e-1,
        1.519_866_656_361_645_719_66e-2,
        5.475_938_084_995_344_946e-4,
        1.050_750_071_644_416_843_24e-9,
    ];
    const E: [f64; 8] = [
        6.657_904_643_501_103_777_2,
        5.463_784_911_164_114_369_9,
        1.784_826_539_917_291_335_8,
        2.965_605_718_285_048_912_3e-1,
        2.653_218_952_657_612_309_3e-2,
        1.242_660_947_388_078_438_6e-3,
        2.711_555_568_743_487_578_15e-5,
        2.010_334_399_292_288_132_65e-7,
    ];
    const F: [f64; 8] = [
        1.0,
        5.998_322_065_558_879_376_9e-1,
        1.369_298_809_227_358_053_1e-1,
        1.487_536_129_085_061_485_25e-2,
        7.868_691_311_456_132_591e-4,
        1.846_318_317_510_054_681_8e-5,
        1.421_511_758_316_445_888_7e-7,
        2.044_263_103_389_939_785_64e-15,
    ];
    if !is_probability(p) {
        return f64::NAN;
    } else if p == 0.0 {
        return f64::NEG_INFINITY;
    } else if p == 1.0 {
        return f64::INFINITY;
    }
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        let r = 0.180_625 - q * q;
        return q * polynomial(&A, r) / polynomial(&B, r);
    }
    let tail = if q < 0.0 { p } else { 1.0 - p };
    let r = (-tail.ln()).sqrt();
    let z = if r <= 5.0 {
        polynomial(&C, r - 1.6) / polynomial(&D, r - 1.6)
    } else {
        polynomial(&E, r - 5.0) / polynomial(&F, r - 5.0)
    };
    if q < 0.0 {
        -z
    } else {
        z
    }
}

/// The upper tail of the standard normal distribution, `P(Z > z)`:
/// `½ Q(½, z²/2)` for `z ≥ 0` (`erfc(x) = Q(½, x²)`), its complement below.
fn normal_upper_tail(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    let half = 0.5 * gamma_pq(0.5, 0.5 * z * z).1;
    if z >= 0.0 {
        half
    } else {
        1.0 - half
    }
}

/// `P(T > t)` for `t ≥ 0` and Student's t with `df` degrees of freedom
/// (finite, positive): `½ I_{ν/(ν+t²)}(ν/2, ½)`.
fn t_upper_tail_nonnegative(t: f64, df: f64) -> f64 {
    let t2 = t * t;
    // x = ν / (ν + t²) and y = 1 − x = t² / (ν + t²), each without the
    // other's rounding.
    let (x, y) = if t2 > df {
        let ratio = df / t2;
        (ratio / (1.0 + ratio), 1.0 / (1.0 + ratio))
    } else {
        (df / (df + t2), t2 / (df + t2))
    };
    0.5 * beta_reg(df / 2.0, 0.5, x, y)
}

/// The upper tail of Student's t distribution with `df` degrees of freedom,
/// `P(T > t)`: the one-sided p-value of a t statistic.
///
/// Edge cases: `df = +∞` gives the normal tail; NaN for `t` NaN or for `df`
/// NaN or not positive; 0 at `t = +∞` and 1 at `t = −∞`.
pub fn t_upper_tail(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        f64::NAN
    } else if df.is_infinite() {
        normal_upper_tail(t)
    } else if t >= 0.0 {
        t_upper_tail_nonnegative(t, df)
    } else {
        1.0 - t_upper_tail_nonnegative(-t, df)
    }
}

/// The `x > 0` at which a monotone tail probability equals `target`:
/// `tail(x)` returns the probability and the density (its derivative's
/// magnitude) at `x`; the probability falls with `x` when `falling`, else
/// it rises. Newton's method on `ln tail(x) − ln target` from `start`,
/// inside a bracket `[low, high]` that every evaluation narrows; a step
/// that would leave the bracket bisects it instead (geometrically while its
/// ends are more than a factor 4 apart, since quantiles span decades).
fn solve_tail(target: f64, start: f64, falling: bool, tail: &dyn Fn(f64) -> (f64, f64)) -> f64 {
    let (mut low, mut high) = (0.0_f64, f64::INFINITY);
    let mut x = if start.is_finite() && start > 0.0 {
        start
    } else {
        1.0
    };
    let ln_target = target.ln();
    for _ in 0..400 {
        let (probability, density) = tail(x);
        let below_root = if falling {
            probability > target
        } else {
            probability < target
        };
        if below_root {
            low = x;
        } else {
            high = x;
        }
        // d ln tail / dx = ∓ density / tail
        let step = (probability.ln() - ln_target) * probability / density;
        let mut next = if falling { x + step } else { x - step };
        if !(next.is_finite() && next > low && next < high) {
            next = if high.is_infinite() {
                4.0 * low.max(x)
            } else if low == 0.0 {
                high / 4.0
            } else if high > 4.0 * low {
                (low * high).sqrt()
            } else {
                0.5 * (low + high)
            };
        }
        // Newton's error squares at each step: a step of 1e-14 leaves the
        // rounding of the tail itself as the only error.
        if (next - x).abs() <= 1e-14 * x
            || (high.is_finite() && high - low <= 4.0 * f64::EPSILON * high)
        {
            return next;
        }
        x = next;
    }
    x
}

/// Student's t quantile at probability `p` with `df` degrees of freedom
/// (any positive value, fractional as Welch–Satterthwaite gives them).
///
/// Edge cases: `df = +∞`, or above 1e7, gives [`normal_quantile`]; `df` NaN
/// or not positive gives NaN; `p` as in [`normal_quantile`] (±∞ at 0 and 1,
/// NaN outside `[0, 1]`).
pub fn t_quantile(p: f64, df: f64) -> f64 {
    if df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df > T_AS_NORMAL_DF || !is_probability(p) || p == 0.0 || p == 1.0 {
        return normal_quantile(p);
    }
    if p == 0.5 {
        return 0.0;
    }
    let upper = p > 0.5;
    let tail = if upper { 1.0 - p } else { p };
    // The start: the Cornish–Fisher expansion of t in z = z_{1−tail} and
    // 1/ν (A&S 26.7.5), good to a few digits for ν ≥ 1 and the body; for
    // small ν it overshoots in the tail, where sf(t) ≈ K ν^{(ν−1)/2} t^{−ν}
    // (K = 1 / (√ν B(ν/2, ½))) gives an upper bound instead.
    let z = -normal_quantile(tail);
    let z2 = z * z;
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92_160.0;
    let cornish_fisher = z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
    let ln_k = -0.5 * df.ln() - ln_beta(df / 2.0, 0.5);
    let power_tail = ((ln_k + 0.5 * (df - 1.0) * df.ln() - tail.ln()) / df).exp();
    let start = if cornish_fisher > 0.0 {
        cornish_fisher.min(power_tail)
    } else {
        power_tail
    };
    let density_and_tail = |t: f64| {
        let density = (ln_k - 0.5 * (df + 1.0) * (t * t / df).ln_1p()).exp();
        (t_upper_tail_nonnegative(t, df), density)
    };
    let t = solve_tail(tail, start, true, &density_and_tail);
    if upper {
        t
    } else {
        -t
    }
}

/// The χ² quantile at probability `p` with `df` degrees of freedom.
///
/// Edge cases: `p = 0` gives 0 and `p = 1` gives +∞; `df` NaN or not
/// positive, or `p` NaN or outside `[0, 1]`, gives NaN.
pub fn chi_squared_quantile(p: f64, df: f64) -> f64 {
    if !is_probability(p) || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    } else if p == 0.0 {
        return 0.0;
    } else if p == 1.0 {
        return f64::INFINITY;
    }
    let a = df / 2.0;
    // Wilson–Hilferty: χ²_p ≈ ν (1 − 2/(9ν) + z_p √(2/(9ν)))³; where that
    // fails (small ν, low p) the lower tail's leading term
    // P ≈ (x/2)^a / Γ(a + 1) gives x ≈ 2 (p Γ(a + 1))^{1/a}.
    let h = 2.0 / (9.0 * df);
    let wilson_hilferty = df * (1.0 - h + normal_quantile(p) * h.sqrt()).powi(3);
    let lower_start = 2.0 * ((p.ln() + ln_gamma(a + 1.0)) / a).exp();
    let start = if wilson_hilferty > 0.0 && (p > 0.1 || df >= 2.0) {
        wilson_hilferty
    } else {
        lower_start
    };
    let ln_gamma_a = ln_gamma(a);
    let density = move |x: f64| {
        // x^{a−1} e^{−x/2} / (2^a Γ(a))
        ((a - 1.0) * x.ln() - 0.5 * x - a * std::f64::consts::LN_2 - ln_gamma_a).exp()
    };
    // Solve on whichever tail is below ½, where its logarithm is well
    // conditioned.
    if p <= 0.5 {
        solve_tail(p, start, false, &|x| (gamma_pq(a, x / 2.0).0, density(x)))
    } else {
        solve_tail(1.0 - p, start, true, &|x| {
            (gamma_pq(a, x / 2.0).1, density(x))
        })
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
        gamma_pq(df / 2.0, x / 2.0).1
    }
}

/// `P(X ≤ k)` for `X ~ Binomial(trials, success)`: `I_{1−s}(n − k, k + 1)`.
fn binomial_cdf(k: u64, trials: u64, success: f64) -> f64 {
    if k >= trials {
        1.0
    } else {
        beta_reg((trials - k) as f64, k as f64 + 1.0, 1.0 - success, success)
    }
}

/// The binomial quantile: the smallest count `k` of successes in `trials`
/// trials of success probability `success` with `P(X <= k) >= p`.
///
/// Edge cases: `p = 0` gives 0 and `p = 1` gives the largest possible count
/// (`trials`, or 0 when `success` is 0); `None` when `p` or `success` is NaN
/// or outside `[0, 1]`.
pub fn binomial_quantile(p: f64, trials: u64, success: f64) -> Option<u64> {
    if !is_probability(p) || !is_probability(success) {
        return None;
    }
    if p <= binomial_cdf(0, trials, success) {
        return Some(0);
    }
    if p == 1.0 {
        return Some(trials);
    }
    // P(X ≤ low) < p ≤ P(X ≤ high): bisect to adjacent counts.
    let (mut low, mut high) = (0, trials);
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if binomial_cdf(mid, trials, success) >= p {
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

    #[test]
    fn t_quantile_edges() {
        let z = normal_quantile(0.95);
        assert_eq!(t_quantile(0.95, f64::INFINITY), z);
        assert_eq!(t_quantile(0.95, 1e8), z);
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
