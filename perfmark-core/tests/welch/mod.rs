//! Before/after comparisons as "Performance measurement", a university
//! lecture on performance evaluation ("Comparing Alternatives"), teaches
//! them: the CI of a difference of means
//! of unpaired samples with Welch's degrees of freedom, and the same on a
//! log scale for a ratio. Times are positive and their errors
//! multiplicative, so a ratio is compared on the log scale, where it becomes
//! a difference and its interval stays positive.
//!
//! perfmark's verdicts use none of these (the regression rule is
//! `perfmark_core::baseline::compare::compare`); the simulation in
//! `compare_simulation.rs` uses them to show what a comparison that ignores
//! the spread between processes gets wrong. So they live with that test.

use perfmark_core::baseline::compare::RunEstimate;
use perfmark_core::stats::dist::upper_tail_probability;
use perfmark_core::stats::{normal_quantile, t_quantile, Interval};

/// A difference of two means, `after − before`, with its two-sided interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    /// `mean(after) − mean(before)`, in the samples' unit.
    pub difference: f64,
    /// Two-sided interval of the difference at the requested confidence.
    pub ci: Interval,
    /// Standard error of the difference, `√(s₁²/n₁ + s₂²/n₂)`.
    pub se: f64,
    /// Welch–Satterthwaite degrees of freedom of the t quantile used.
    pub df: f64,
}

/// A ratio of two estimates, `after / before` (or `numerator / denominator`),
/// with its two-sided interval, computed on the log scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ratio {
    /// The ratio; > 1 means `after` is slower.
    pub ratio: f64,
    /// Two-sided interval of the ratio at the requested confidence: the
    /// exponential of the log-scale interval, so always positive.
    pub ci: Interval,
}

/// The CI of `mean(after) − mean(before)` for two unpaired samples (the
/// lecture's "non-corresponding measurements"): `d ± t·√(s₁²/n₁ + s₂²/n₂)` with the
/// t quantile at Welch's degrees of freedom
/// `(v₁ + v₂)² / (v₁²/(n₁−1) + v₂²/(n₂−1))`, `vᵢ = sᵢ²/nᵢ`, which does not
/// assume equal variances. When both samples have zero variance the
/// interval is `[d, d]` and `df = n₁ + n₂ − 2`.
///
/// # Errors
///
/// When either sample has fewer than 2 values or a non-finite value, or the
/// confidence is not strictly between 0 and 1.
pub fn welch_difference(
    before: &[f64],
    after: &[f64],
    confidence: f64,
) -> Result<Difference, String> {
    if !(confidence > 0.0 && confidence < 1.0) {
        return Err(format!(
            "confidence must be strictly between 0 and 1; got {confidence}"
        ));
    }
    let (mean_before, var_before) = mean_var(before, "before")?;
    let (mean_after, var_after) = mean_var(after, "after")?;
    let (n_before, n_after) = (before.len() as f64, after.len() as f64);
    let v_before = var_before / n_before;
    let v_after = var_after / n_after;
    let se = (v_before + v_after).sqrt();
    let df = if se > 0.0 {
        (v_before + v_after).powi(2)
            / (v_before.powi(2) / (n_before - 1.0) + v_after.powi(2) / (n_after - 1.0))
    } else {
        n_before + n_after - 2.0
    };
    let difference = mean_after - mean_before;
    let half = t_quantile(upper_tail_probability(confidence), df) * se;
    Ok(Difference {
        difference,
        ci: Interval {
            low: difference - half,
            high: difference + half,
            confidence,
        },
        se,
        df,
    })
}

/// The CI of the ratio of geometric means `gm(after) / gm(before)` of two
/// unpaired samples of times: [`welch_difference`] on the logarithms,
/// exponentiated.
///
/// # Errors
///
/// As [`welch_difference`], and when a sample holds a value that is not
/// positive and finite.
pub fn welch_log_ratio(before: &[f64], after: &[f64], confidence: f64) -> Result<Ratio, String> {
    let logs = |xs: &[f64], what: &str| -> Result<Vec<f64>, String> {
        xs.iter()
            .map(|&x| {
                if x > 0.0 && x.is_finite() {
                    Ok(x.ln())
                } else {
                    Err(format!(
                        "{what}: a time must be positive and finite; got {x}"
                    ))
                }
            })
            .collect()
    };
    let diff = welch_difference(&logs(before, "before")?, &logs(after, "after")?, confidence)?;
    Ok(Ratio {
        ratio: diff.difference.exp(),
        ci: Interval {
            low: diff.ci.low.exp(),
            high: diff.ci.high.exp(),
            confidence,
        },
    })
}

/// The CI of `numerator / denominator` for two independent estimates (valid
/// ones: [`RunEstimate::new`] checked them), from their log-scale standard
/// errors ([`RunEstimate::log_se`]): `exp(ln(a/b) ± z·√(se_a² + se_b²))`
/// with a normal quantile (the estimates' own intervals are large-sample
/// ones); `[0, ∞]` when a standard error is infinite.
///
/// This is the *within-run-only* comparison: it ignores the spread between
/// processes and is therefore not the regression rule; across two processes
/// of unchanged code it calls a difference significant far more often than
/// `1 − confidence`.
pub fn ratio_of_estimates(
    numerator: &RunEstimate,
    denominator: &RunEstimate,
    confidence: f64,
) -> Ratio {
    let log_ratio = numerator.point_ns.ln() - denominator.point_ns.ln();
    let log_se = numerator.log_se().hypot(denominator.log_se());
    let half = normal_quantile(upper_tail_probability(confidence)) * log_se;
    let ci = if half.is_finite() {
        Interval {
            low: (log_ratio - half).exp(),
            high: (log_ratio + half).exp(),
            confidence,
        }
    } else {
        Interval {
            low: 0.0,
            high: f64::INFINITY,
            confidence,
        }
    };
    Ratio {
        ratio: log_ratio.exp(),
        ci,
    }
}

/// Mean and unbiased variance of at least two finite values.
fn mean_var(xs: &[f64], what: &str) -> Result<(f64, f64), String> {
    if xs.len() < 2 {
        return Err(format!(
            "{what}: at least 2 samples are needed; got {}",
            xs.len()
        ));
    }
    if let Some(bad) = xs.iter().find(|x| !x.is_finite()) {
        return Err(format!("{what}: samples must be finite numbers; got {bad}"));
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Ok((mean, var))
}

#[test]
fn welch_matches_a_hand_computation() {
    // before: mean 3, s² 2.5, n 5; after: mean 7, s² 14, n 6.
    // v = 0.5 + 2.3333 = 2.8333, se = 1.68325,
    // df = 2.8333² / (0.25/4 + 5.4444/5) = 6.97226.
    let before = [1.0, 2.0, 3.0, 4.0, 5.0];
    let after = [2.0, 4.0, 6.0, 8.0, 10.0, 12.0];
    let d = welch_difference(&before, &after, 0.95).unwrap();
    assert!((d.difference - 4.0).abs() < 1e-12);
    assert!((d.se - 1.683_250_3).abs() < 1e-6, "se {}", d.se);
    assert!((d.df - 6.972_26).abs() < 1e-4, "df {}", d.df);
    // t(0.975, 6.97) ≈ 2.3660 (between t(7) = 2.3646 and t(6) = 2.4469).
    let half = d.ci.high - d.difference;
    assert!((half / d.se - 2.366).abs() < 2e-3, "t {}", half / d.se);
    assert!((d.ci.low + d.ci.high - 8.0).abs() < 1e-9);
}

#[test]
fn welch_with_zero_variance_is_a_point() {
    let d = welch_difference(&[2.0, 2.0], &[3.0, 3.0, 3.0], 0.9).unwrap();
    assert_eq!((d.ci.low, d.ci.high, d.df), (1.0, 1.0, 3.0));
}

#[test]
fn welch_rejects_what_it_cannot_use() {
    let err = welch_difference(&[1.0], &[1.0, 2.0], 0.95).unwrap_err();
    assert!(err.contains("at least 2 samples"), "{err}");
    let err = welch_difference(&[1.0, 2.0], &[1.0, 2.0], 1.0).unwrap_err();
    assert!(err.contains("strictly between 0 and 1"), "{err}");
    let err = welch_log_ratio(&[1.0, 0.0], &[1.0, 2.0], 0.95).unwrap_err();
    assert!(err.contains("positive and finite"), "{err}");
}

#[test]
fn log_ratio_of_scaled_samples_is_the_scale() {
    let before = [10.0, 11.0, 12.0, 9.5, 10.5];
    let after: Vec<f64> = before.iter().map(|x| x * 1.25).collect();
    let r = welch_log_ratio(&before, &after, 0.95).unwrap();
    assert!((r.ratio - 1.25).abs() < 1e-12);
    assert!(r.ci.low < 1.25 && r.ci.high > 1.25 && r.ci.low > 0.0);
}
