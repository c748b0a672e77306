//! The special functions under [`super::dist`]'s distributions: ln Γ,
//! digamma, and the regularized incomplete gamma and beta functions.
//!
//! perfmark computed these with statrs until issue 13 ("a lighter clean
//! build"): statrs and what it brings (`approx`, `num-traits`, `libm`,
//! `thiserror`) were 7 crates and about 8 s of compiler time in every
//! user's clean build, for the few functions below. statrs stays a
//! dev-dependency: `statrs_agreement.rs` holds these functions to it and
//! to mpmath's reference values (`reference_values.py`).
//!
//! The sources, in our words:
//! - ln Γ and digamma: Stirling's series with its Bernoulli-number
//!   correction terms (Abramowitz and Stegun 6.1.40 and 6.3.18), used at
//!   `x ≥ 10` and reached from smaller `x` by the recurrences
//!   `Γ(x + 1) = x Γ(x)` and `ψ(x + 1) = ψ(x) + 1/x`.
//! - The incomplete gamma function: the power series below `x < a + 1` and
//!   Legendre's continued fraction above it (Press et al., *Numerical
//!   Recipes*, 3rd ed., §6.2), the fraction evaluated by the modified Lentz
//!   method (Lentz 1976; Thompson and Barnett 1986).
//! - The incomplete beta function: its continued fraction (Numerical
//!   Recipes §6.4), by the same Lentz method, on whichever side of
//!   `x = (a + 1) / (a + b + 2)` it converges fast.
//! - The factors `xᵃ e⁻ˣ / Γ(a)` and `xᵃ yᵇ / B(a, b)` in front of both:
//!   written, for large parameters, with `ln(1 + t) − t` and the Stirling
//!   corrections instead of differences of ln Γ values, after DiDonato and
//!   Morris (ACM TOMS 708, 1992, `brcomp`) and R's `lbeta`. A difference of
//!   two ln Γ values near 1e8 (df = 1e7) would lose eight digits.
//!
//! Every function takes its arguments already checked by its caller in
//! `dist` (`a, b > 0`, `0 ≤ x ≤ 1`, …) and never panics.

/// ½ ln(2π).
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// Relative accuracy the series and continued fractions stop at.
const EPSILON: f64 = 1e-16;

/// Smallest magnitude the Lentz method lets a denominator take.
const TINY: f64 = 1e-300;

/// Terms of a series or continued fraction before giving up: enough for
/// parameters up to about 1e9, whose fractions need `O(√a)` terms.
const MAX_TERMS: usize = 1_000_000;

/// Stirling's correction `δ(x) = ln Γ(x) − [(x − ½) ln x − x + ½ ln 2π]`
/// for `x ≥ 10`: the series `Σ B₂ₖ / (2k (2k − 1) x²ᵏ⁻¹)` (A&S 6.1.41), whose
/// eighth term is below 1e-17 of the first there.
fn stirling_correction(x: f64) -> f64 {
    const C: [f64; 8] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
        -3617.0 / 122_400.0,
    ];
    let inv2 = 1.0 / (x * x);
    let mut sum = 0.0;
    for c in C.iter().rev() {
        sum = sum * inv2 + c;
    }
    sum / x
}

/// `ln Γ(x)` for `x > 0`; NaN for `x` NaN or not positive, +∞ for +∞.
pub(crate) fn ln_gamma(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    // Up to x + n ≥ 10, keeping the product x (x + 1) … (x + n − 1) to
    // divide out at the end.
    let mut z = x;
    let mut product = 1.0;
    while z < 10.0 {
        product *= z;
        z += 1.0;
    }
    (z - 0.5) * z.ln() - z + LN_SQRT_2PI + stirling_correction(z) - product.ln()
}

/// The digamma function `ψ(x) = d/dx ln Γ(x)`, for `x > 0` (NaN otherwise):
/// the recurrence up to `x ≥ 10`, then the asymptotic series
/// `ln x − 1/(2x) − Σ B₂ₖ / (2k x²ᵏ)` (A&S 6.3.18), whose seventh term is
/// below 1e-15 there.
pub(crate) fn digamma(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    const C: [f64; 7] = [
        1.0 / 12.0,
        -1.0 / 120.0,
        1.0 / 252.0,
        -1.0 / 240.0,
        1.0 / 132.0,
        -691.0 / 32_760.0,
        1.0 / 12.0,
    ];
    let mut z = x;
    let mut shift = 0.0;
    while z < 10.0 {
        shift += 1.0 / z;
        z += 1.0;
    }
    let inv2 = 1.0 / (z * z);
    let mut series = 0.0;
    for c in C.iter().rev() {
        series = series * inv2 + c;
    }
    z.ln() - 0.5 / z - series * inv2 - shift
}

/// `ln(1 + t) − t` for `t > −1`, without the cancellation of the direct
/// difference near 0 (its power series there).
fn ln_1p_minus(t: f64) -> f64 {
    if t.abs() > 0.1 {
        return t.ln_1p() - t;
    }
    // −t²/2 + t³/3 − …: |t| ≤ 0.1, so 16 terms reach 1e-17 of the first.
    let mut power = t * t;
    let mut sum = 0.0;
    for k in 2..=17 {
        let term = power / k as f64;
        sum += if k % 2 == 0 { -term } else { term };
        power *= t;
    }
    sum
}

/// `ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b)` for `a, b > 0`, in the
/// form of R's `lbeta` when a parameter is large, so that no two large
/// ln Γ values are subtracted.
pub(crate) fn ln_beta(a: f64, b: f64) -> f64 {
    let (small, large) = if a < b { (a, b) } else { (b, a) };
    let sum = small + large;
    if small >= 10.0 {
        let corr =
            stirling_correction(small) + stirling_correction(large) - stirling_correction(sum);
        -0.5 * large.ln()
            + LN_SQRT_2PI
            + corr
            + (small - 0.5) * (small / sum).ln()
            + large * (-small / sum).ln_1p()
    } else if large >= 10.0 {
        let corr = stirling_correction(large) - stirling_correction(sum);
        ln_gamma(small) + corr + small - small * sum.ln() + (large - 0.5) * (-small / sum).ln_1p()
    } else {
        ln_gamma(small) + ln_gamma(large) - ln_gamma(sum)
    }
}

/// `xᵃ e⁻ˣ / Γ(a)`, the factor in front of both incomplete gamma
/// functions, for `a > 0`, `x > 0`.
fn gamma_prefactor(a: f64, x: f64) -> f64 {
    if a >= 10.0 {
        // a ln x − x − ln Γ(a) = a (ln(1 + t) − t) + ½ ln a − ½ ln 2π − δ(a)
        // with x = a (1 + t): no large terms cancel.
        let t = (x - a) / a;
        (a * ln_1p_minus(t) + 0.5 * a.ln() - LN_SQRT_2PI - stirling_correction(a)).exp()
    } else {
        (a * x.ln() - x - ln_gamma(a)).exp()
    }
}

/// The regularized incomplete gamma functions `(P(a, x), Q(a, x))`, lower
/// and upper, `P + Q = 1`, for `a > 0` and `x ≥ 0` (`x = +∞` gives (1, 0)).
/// The smaller of the two is computed directly, the other as its
/// complement, so each keeps its relative accuracy where it is small.
pub(crate) fn gamma_pq(a: f64, x: f64) -> (f64, f64) {
    if x.is_nan() || a.is_nan() || a <= 0.0 || x < 0.0 {
        return (f64::NAN, f64::NAN);
    }
    if x == 0.0 {
        return (0.0, 1.0);
    }
    if x.is_infinite() {
        return (1.0, 0.0);
    }
    let front = gamma_prefactor(a, x);
    if x < a + 1.0 {
        // P = front / a · Σₙ xⁿ / ((a + 1) … (a + n))
        let mut term = 1.0 / a;
        let mut sum = term;
        let mut denominator = a;
        for _ in 0..MAX_TERMS {
            denominator += 1.0;
            term *= x / denominator;
            sum += term;
            if term.abs() < sum.abs() * EPSILON {
                break;
            }
        }
        let p = (front * sum).min(1.0);
        (p, 1.0 - p)
    } else {
        // Q = front · 1/(x + 1 − a − 1·(1 − a)/(x + 3 − a − 2·(2 − a)/(x + 5 − a − …)))
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / TINY;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..MAX_TERMS {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < TINY {
                d = TINY;
            }
            c = b + an / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < EPSILON {
                break;
            }
        }
        let q = (front * h).min(1.0);
        (1.0 - q, q)
    }
}

/// `xᵃ yᵇ / B(a, b)` with `y = 1 − x`, for `a, b > 0` and `0 < x < 1`.
fn beta_prefactor(a: f64, b: f64, x: f64, y: f64) -> f64 {
    if a >= 10.0 && b >= 10.0 {
        // With x (a + b) = a (1 + s) and y (a + b) = b (1 + u), a s + b u = 0,
        // so a ln x + b ln y − ln B(a, b) =
        //   a (ln(1 + s) − s) + b (ln(1 + u) − u) + ½ ln(ab / (a + b))
        //   − ½ ln 2π − δ(a) − δ(b) + δ(a + b)   (Stirling, TOMS 708's brcomp).
        let sum = a + b;
        let s = (x * b - y * a) / a;
        let u = (y * a - x * b) / b;
        let corr = stirling_correction(a) + stirling_correction(b) - stirling_correction(sum);
        (a * ln_1p_minus(s) + b * ln_1p_minus(u) + 0.5 * (a * b / sum).ln() - LN_SQRT_2PI - corr)
            .exp()
    } else {
        // ln x from the exact y where x is near 1 (and ln y likewise): with
        // a = 5e6 (t at df = 1e7), a · ln x from a rounded x would already
        // be 5e-10 off.
        let ln_x = if x > 0.5 { (-y).ln_1p() } else { x.ln() };
        let ln_y = if y > 0.5 { (-x).ln_1p() } else { y.ln() };
        (a * ln_x + b * ln_y - ln_beta(a, b)).exp()
    }
}

/// The continued fraction of `I_x(a, b)` (Numerical Recipes §6.4) by the
/// modified Lentz method; converges fast for `x < (a + 1) / (a + b + 2)`.
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    let qab = a + b;
    let qap = a + 1.0;
    let qam = a - 1.0;
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..MAX_TERMS {
        let m = m as f64;
        let m2 = 2.0 * m;
        // the even step
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        // the odd step
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < EPSILON {
            break;
        }
    }
    h
}

/// The regularized incomplete beta function `I_x(a, b)` for `a, b > 0`,
/// with `y = 1 − x` passed by the caller, who can often compute it without
/// the rounding of `1 − x` (the t distribution's `t² / (ν + t²)`).
/// `x ≤ 0` gives 0 and `x ≥ 1` gives 1.
pub(crate) fn beta_reg(a: f64, b: f64, x: f64, y: f64) -> f64 {
    if a.is_nan() || b.is_nan() || x.is_nan() || y.is_nan() || a <= 0.0 || b <= 0.0 {
        return f64::NAN;
    }
    // x and y are each exact where small; the other rounds to 1 first.
    if x <= 0.0 {
        return 0.0;
    }
    if y <= 0.0 {
        return 1.0;
    }
    let front = beta_prefactor(a, b, x, y);
    if x < (a + 1.0) / (a + b + 2.0) {
        (front * beta_fraction(a, b, x) / a).min(1.0)
    } else {
        (1.0 - front * beta_fraction(b, a, y) / b).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ln √π = ln Γ(½)`.
    const LN_SQRT_PI: f64 = 0.572_364_942_924_700_1;

    fn relative(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    #[test]
    fn ln_gamma_at_known_points() {
        // absolute: ln Γ is 0 at 1 and 2
        assert!(ln_gamma(1.0).abs() < 1e-14);
        assert!(ln_gamma(2.0).abs() < 1e-14);
        // ln Γ(½) = 0.572… comes from (z − ½) ln z − z + … ≈ 14.5 at z = 10.5
        // less ln(½ · 3/2 ⋯ 19/2) ≈ 13.9: the cancellation leaves a few ulp
        // of 14, 2.5e-15 relative here (measured), far inside the 1e-10 the
        // quantiles need (ln Γ enters them only in exponents, where its
        // absolute error counts).
        assert!(relative(ln_gamma(0.5), LN_SQRT_PI) < 1e-14);
        // ln Γ(10) = ln 9!, and ln Γ(¼) from tables
        assert!(relative(ln_gamma(10.0), 362_880f64.ln()) < 1e-15);
        assert!(relative(ln_gamma(0.25), 1.288_022_524_698_077_5) < 1e-14);
        assert!(ln_gamma(0.0).is_nan() && ln_gamma(-1.0).is_nan());
    }

    #[test]
    fn digamma_at_known_points() {
        let euler = 0.577_215_664_901_532_9;
        assert!(relative(digamma(1.0), -euler) < 1e-15);
        // ψ(½) = −γ − 2 ln 2
        assert!(relative(digamma(0.5), -euler - 2.0 * 2f64.ln()) < 1e-15);
        assert!(digamma(0.0).is_nan());
    }

    #[test]
    fn incomplete_functions_at_closed_forms() {
        // P(1, x) = 1 − e⁻ˣ; I_x(1, 1) = x; I_x(a, 1) = xᵃ
        for x in [0.01, 0.5, 1.0, 3.0, 30.0] {
            let (p, q) = gamma_pq(1.0, x);
            assert!(relative(q, (-x).exp()) < 1e-14, "x = {x}");
            assert!((p - (1.0 - (-x).exp())).abs() < 1e-15);
        }
        for x in [0.001, 0.3, 0.5, 0.9] {
            assert!(relative(beta_reg(1.0, 1.0, x, 1.0 - x), x) < 1e-14);
            assert!(relative(beta_reg(2.5, 1.0, x, 1.0 - x), x.powf(2.5)) < 1e-14);
        }
        assert_eq!(beta_reg(2.0, 3.0, 0.0, 1.0), 0.0);
        assert_eq!(beta_reg(2.0, 3.0, 1.0, 0.0), 1.0);
        assert_eq!(gamma_pq(2.0, 0.0), (0.0, 1.0));
        assert!(gamma_pq(-1.0, 1.0).0.is_nan());
    }
}
