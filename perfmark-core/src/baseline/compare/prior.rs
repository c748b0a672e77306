//! The machine's between-run spread, estimated from many tests at once: the
//! prior `σ₀` (with its weight `ν₀`) that a recording over several processes
//! (`cargo perfmark baseline --runs N`) stores beside its baselines.
//!
//! Each test of a recording gives a between-run sd `sᵢ` with only `R − 1`
//! degrees of freedom (4 for five runs): alone it is a poor estimate, and
//! the t quantile it would need (2.1 at 4 df, one-sided 95%) costs much of
//! the rule's power. Averaging the tests' variances would be sound only if
//! every test moved alike between processes, which a recording of a real
//! suite contradicts (spreads from 2% to 36% across perfmark's own suite,
//! `docs/design/regression-rule.md`). Smyth (2004, "Linear models and empirical
//! Bayes methods for assessing differential expression in microarray
//! experiments", the `limma` package) answers both: take the tests' true
//! variances as drawn from a scaled inverse-χ² distribution with `d₀`
//! degrees of freedom around `s₀²`, estimate `s₀²` and `d₀` by matching the
//! mean and the variance of `ln sᵢ²` (whose distribution under that model
//! is known: a log-χ² plus a log-inverse-χ²), and give each test the
//! posterior variance `(d₀·s₀² + dᵢ·sᵢ²)/(d₀ + dᵢ)` with `d₀ + dᵢ` degrees
//! of freedom. That posterior is exactly what [`super::RegressionRule`]
//! computes from a prior `(σ₀, ν₀) = (s₀, d₀)`: this file only estimates
//! the prior.
//!
//! Two guards, because a recording has tens of tests, not limma's
//! thousands:
//! - `d₀` is capped at the degrees of freedom of the *other* tests of the
//!   recording (`Σ dᵢ − max dᵢ`): a test's own spread is part of the data
//!   the prior was estimated from, and the prior must not count it again as
//!   if it were independent evidence; with a single test there is no prior
//!   to estimate (`None`).
//! - a zero `sᵢ` (runs that agreed to the last bit) is raised to
//!   `10⁻⁵ × median(sᵢ²)` before its logarithm is taken, as limma does.

use super::Spread;
use crate::stats::dist::quantile;
use statrs::function::gamma::digamma;

/// Below this many degrees of freedom of the other tests, no prior is
/// estimated: the variance of `ln sᵢ²` needs at least two tests, and the
/// cap on `d₀` would leave the prior no weight.
const MIN_OTHER_DF: f64 = 1.0;

/// The prior `(s₀, d₀)` of the tests' between-run spreads, estimated from
/// each test's measured [`Spread`] (its sd of log estimates and its degrees
/// of freedom, `runs − 1`) by Smyth's moment method (see the module
/// documentation): `sd` is `s₀`, `df` is `d₀`, capped at the degrees of
/// freedom of the other tests. `None` when fewer than two spreads with a
/// positive df are given, or when every one of them is zero.
///
/// Spreads with a non-finite or negative sd, or a df that is not positive,
/// are left out.
pub fn moderated_prior(spreads: &[Spread]) -> Option<Spread> {
    let usable: Vec<Spread> = spreads
        .iter()
        .copied()
        .filter(|s| s.sd.is_finite() && s.sd >= 0.0 && s.df.is_finite() && s.df > 0.0)
        .collect();
    let total_df: f64 = usable.iter().map(|s| s.df).sum();
    let largest_df = usable.iter().map(|s| s.df).fold(0.0, f64::max);
    let cap = total_df - largest_df;
    if usable.len() < 2 || cap < MIN_OTHER_DF {
        return None;
    }
    let variances: Vec<f64> = usable.iter().map(|s| s.sd * s.sd).collect();
    let median = quantile(&variances, 0.5);
    if median <= 0.0 || !median.is_finite() {
        return None;
    }
    let least = 1e-5 * median;
    // eᵢ = ln sᵢ² − ψ(dᵢ/2) + ln(dᵢ/2): mean ln s₀² − ψ(d₀/2) + ln(d₀/2),
    // variance ψ'(dᵢ/2) + ψ'(d₀/2).
    let e: Vec<f64> = usable
        .iter()
        .zip(&variances)
        .map(|(s, &v)| v.max(least).ln() - digamma(s.df / 2.0) + (s.df / 2.0).ln())
        .collect();
    let k = e.len() as f64;
    let mean_e = e.iter().sum::<f64>() / k;
    let var_e = e.iter().map(|x| (x - mean_e).powi(2)).sum::<f64>() / (k - 1.0);
    let sampling = usable.iter().map(|s| trigamma(s.df / 2.0)).sum::<f64>() / k;
    let excess = var_e - sampling;
    let d0 = if excess > 0.0 {
        (2.0 * trigamma_inverse(excess)).min(cap)
    } else {
        cap
    };
    let s0_sq = (mean_e + digamma(d0 / 2.0) - (d0 / 2.0).ln()).exp();
    Some(Spread {
        sd: s0_sq.sqrt(),
        df: d0,
    })
}

/// The trigamma function `ψ'(x)`, for `x > 0`: the recurrence
/// `ψ'(x) = ψ'(x + 1) + 1/x²` up to `x ≥ 6`, then the asymptotic series
/// `1/x + 1/(2x²) + 1/(6x³) − 1/(30x⁵) + 1/(42x⁷) − 1/(30x⁹)` (Abramowitz
/// and Stegun 6.4.12), accurate to about 1e-10 there.
fn trigamma(mut x: f64) -> f64 {
    let mut sum = 0.0;
    while x < 6.0 {
        sum += 1.0 / (x * x);
        x += 1.0;
    }
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    let series = inv
        + inv2 / 2.0
        + inv * inv2 * (1.0 / 6.0 - inv2 * (1.0 / 30.0 - inv2 * (1.0 / 42.0 - inv2 / 30.0)));
    sum + series
}

/// The `x > 0` with `ψ'(x) = y`, for `y > 0`: bisection on a log scale
/// (`ψ'` falls from +∞ at 0 to 0 at +∞, so the root is unique). Values of
/// `y` beyond the bracket give its end: `1e-8` or `1e12`.
fn trigamma_inverse(y: f64) -> f64 {
    let (mut low, mut high) = (1e-8_f64, 1e12_f64);
    if trigamma(high) >= y {
        return high;
    }
    if trigamma(low) <= y {
        return low;
    }
    for _ in 0..200 {
        let mid = (low * high).sqrt();
        if trigamma(mid) > y {
            low = mid;
        } else {
            high = mid;
        }
        if high / low < 1.0 + 1e-12 {
            break;
        }
    }
    (low * high).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigamma_and_its_inverse_on_known_values() {
        let pi2 = std::f64::consts::PI.powi(2);
        assert!((trigamma(1.0) - pi2 / 6.0).abs() < 1e-9);
        assert!((trigamma(0.5) - pi2 / 2.0).abs() < 1e-9);
        assert!((trigamma(10.0) - 0.105_166_335_681_685).abs() < 1e-9);
        for x in [0.05, 0.7, 2.0, 13.0, 400.0] {
            let back = trigamma_inverse(trigamma(x));
            assert!((back / x - 1.0).abs() < 1e-8, "{x}: {back}");
        }
    }

    #[test]
    fn equal_spreads_give_that_spread_with_the_capped_weight() {
        // Five tests whose spreads are all 3% with 4 df: no excess variance,
        // so d₀ is the cap, 16 (the other four tests' df).
        let spreads = [Spread { sd: 0.03, df: 4.0 }; 5];
        let prior = moderated_prior(&spreads).unwrap();
        assert_eq!(prior.df, 16.0);
        // s₀ is 3% scaled by the log-χ² bias correction at d₀ = 16:
        // exp(ψ(2) − ln 2 + ψ(8) − ln 8)^(1/2) · 3%.
        let bias = digamma(2.0) - 2f64.ln() - digamma(8.0) + 8f64.ln();
        let expected = 0.03 * (-bias).exp().sqrt();
        assert!((prior.sd - expected).abs() < 1e-12, "{prior:?} {expected}");
    }

    #[test]
    fn too_little_to_pool_is_none() {
        assert_eq!(moderated_prior(&[]), None);
        assert_eq!(moderated_prior(&[Spread { sd: 0.02, df: 4.0 }]), None);
        assert_eq!(moderated_prior(&[Spread { sd: 0.0, df: 4.0 }; 3]), None);
        // Unusable entries are left out, not fatal.
        let mixed = [
            Spread {
                sd: f64::NAN,
                df: 4.0,
            },
            Spread { sd: 0.02, df: 0.0 },
            Spread { sd: 0.02, df: 4.0 },
            Spread { sd: 0.03, df: 4.0 },
        ];
        let prior = moderated_prior(&mixed).unwrap();
        assert!(
            prior.df <= 4.0 && prior.sd > 0.01 && prior.sd < 0.04,
            "{prior:?}"
        );
    }
}
