//! The verdict estimate: a point estimate of the chosen statistic with a
//! confidence interval that accounts for serial correlation.
//!
//! Two intervals are computed for every estimate. `naive_ci` assumes
//! independent samples, as every peer harness does. `ci` replaces
//! the sample size by the effective sample size of the series
//! ([`effective_sample_size`]), so correlated samples widen it; this is the
//! interval the budget verdict and the adaptive stop use. Coverage of both is
//! measured by simulation in `tests/stats_simulation.rs` and tabulated in
//! `docs/design/statistics.md`.

use serde::Serialize;

use super::autocorr::{effective_sample_size, effective_sample_size_of_signs};
use super::dist::{
    normal_quantile, quantile_sorted, sorted_copy, t_quantile, upper_tail_probability,
    value_at_rank,
};
use super::interval::Interval;
use super::modality::{density_at, silverman_bandwidth};
use super::outliers::fences_sorted;
use super::summary::{mean, sd_about};

/// The statistic a test's verdict is decided on.
///
/// Interrupt spikes (Newcomer, "Profiling for performance": 5 ms samples in
/// a 100 µs loop) must not move a
/// verdict, which rules out the plain mean; the candidates are the median and
/// the mean after removing upper outliers. The default is [`Statistic::Median`]
/// until a study of its stability between processes picks one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Statistic {
    /// The sample median, with an order-statistic interval.
    #[default]
    Median,
    /// The arithmetic mean of all samples, with a Student-t interval. Not
    /// robust: one spike moves it.
    Mean,
    /// The mean of the samples at or below the upper mild Tukey fence
    /// (`q3 + 1.5·iqr`), as BenchmarkDotNet's `OutlierMode.RemoveUpper`:
    /// spikes go, fast samples stay (they are real).
    MeanRemoveUpper,
}

impl Statistic {
    /// Every statistic, for studies that compare them.
    pub const ALL: [Statistic; 3] = [
        Statistic::Median,
        Statistic::Mean,
        Statistic::MeanRemoveUpper,
    ];

    /// The snake_case name used in JSON and in output: `median`, `mean`,
    /// `mean_remove_upper`.
    pub fn as_str(self) -> &'static str {
        match self {
            Statistic::Median => "median",
            Statistic::Mean => "mean",
            Statistic::MeanRemoveUpper => "mean_remove_upper",
        }
    }
}

impl std::fmt::Display for Statistic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A point estimate with its serial-correlation-aware interval and, for
/// comparison, the interval that assumes independent samples.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Estimate {
    /// Which statistic `point` is.
    pub statistic: Statistic,
    /// The statistic's value on the samples (NaN when there are none).
    pub point: f64,
    /// Confidence interval corrected for serial correlation: the verdict's.
    pub ci: Interval,
    /// Confidence interval assuming independent samples (for reports and for
    /// showing what the correction changed).
    pub naive_ci: Interval,
    /// Number of samples given.
    pub n: usize,
    /// Effective number of independent samples behind `ci`, in `[1, 2n]`
    /// (above `n` only for anti-correlated series; see [`estimate_with`] for
    /// the series it is computed on, and [`super::effective_sample_size`]).
    pub effective_n: f64,
}

#[cfg(test)]
impl Estimate {
    /// A median of `point` with the 95% interval `[low, high]` over `n`
    /// independent samples: what tests of an estimate's readers start from.
    pub(crate) fn median_at(point: f64, low: f64, high: f64, n: usize) -> Estimate {
        let ci = Interval {
            low,
            high,
            confidence: 0.95,
        };
        Estimate {
            statistic: Statistic::Median,
            point,
            ci,
            naive_ci: ci,
            n,
            effective_n: n as f64,
        }
    }
}

#[cfg(any(test, feature = "internals"))]
/// [`estimate_with`] for the default statistic ([`Statistic::default`]).
///
/// # Panics
/// When `confidence` is not strictly between 0 and 1.
pub fn estimate(xs: &[f64], confidence: f64) -> Estimate {
    estimate_with(xs, confidence, Statistic::default())
}

/// Estimates `statistic` from `xs` (samples in the order they were taken: the
/// order carries the serial correlation) with intervals at `confidence`.
///
/// - **Median**: the interval runs between order statistics at fractional
///   ranks `(n-1)/2 ∓ z·√n/2 · √(n/n_eff)` (0-based), interpolated linearly —
///   the binomial (distribution-free) interval of the median in its normal
///   form with continuity correction, its rank offset widened by
///   `√(n/n_eff)`. `n_eff` is the effective sample size of the signs
///   `sign(x_t − median)`: the median's variance is that of the fraction of
///   samples below it, so their correlation is the one that matters (see
///   [`super::effective_sample_size`]; the AR(1) bound there is taken
///   through the arcsine law, which relates the signs' correlation to the
///   samples').
/// - **Mean**: `x̄ ± t_{n_eff−1} · s/√n_eff` with `n_eff` the effective sample
///   size of the samples themselves (degrees of freedom within `[1, n−1]`).
/// - **MeanRemoveUpper**: the mean of the samples at or below `q3 + 1.5·iqr`,
///   `± t_{n_eff−1} · s_ψ/√n_eff` where `s_ψ` and `n_eff` are the standard
///   deviation and effective sample size of the statistic's influence values
///   (which account for the fence being estimated too).
///
/// Degenerate inputs never panic: with no samples the point is NaN and both
/// intervals are unbounded; when a rank falls outside the sample (the median
/// of fewer than 6 samples at 95%) or a mean has a single sample, that side is
/// infinite (see [`Interval`]); samples that are all equal give `[x, x]`.
/// Cost: O(n log n) plus O(n) per autocorrelation lag summed (usually a few).
///
/// # Panics
/// When `confidence` is not strictly between 0 and 1.
pub fn estimate_with(xs: &[f64], confidence: f64, statistic: Statistic) -> Estimate {
    assert!(
        confidence > 0.0 && confidence < 1.0,
        "confidence must be strictly between 0 and 1, got {confidence}"
    );
    let n = xs.len();
    if n == 0 {
        let ci = Interval::unbounded(confidence);
        return Estimate {
            statistic,
            point: f64::NAN,
            ci,
            naive_ci: ci,
            n,
            effective_n: 0.0,
        };
    }
    let sorted = sorted_copy(xs);
    match statistic {
        Statistic::Median => {
            let point = quantile_sorted(&sorted, 0.5);
            let signs: Vec<f64> = xs.iter().map(|&x| sign(x - point)).collect();
            let effective_n = effective_sample_size_of_signs(&signs);
            let naive_ci = median_interval(&sorted, confidence, n as f64);
            let mut ci = median_interval(&sorted, confidence, effective_n);
            if !(ci.low.is_finite() && ci.high.is_finite()) {
                // Too few effective samples for order statistics to bound
                // the median (a series that drifts or switches state: its
                // signs barely change). Fall back to batch medians, whose
                // spread is that drift, rather than give up on a long run.
                if let Some(batched) = batch_median_interval(xs, point, confidence) {
                    ci = Interval {
                        low: batched.low.min(naive_ci.low),
                        high: batched.high.max(naive_ci.high),
                        confidence,
                    };
                }
            }
            Estimate {
                statistic,
                point,
                ci,
                naive_ci,
                n,
                effective_n,
            }
        }
        Statistic::Mean => mean_estimate(xs, confidence),
        Statistic::MeanRemoveUpper => remove_upper_estimate(xs, &sorted, confidence),
    }
}

#[cfg(feature = "compare")]
/// [`estimate_with`] for samples taken in independent groups that each
/// carry an offset of their own: the head's slices of a paired comparison,
/// a group per worker process (`groups[i]` is sample `i`'s group). Within
/// a group the samples share the process's layout and state, so the order
/// of the samples says little of how far the next process will land, and
/// an interval from their serial correlation alone can be unbounded (the
/// signs barely change within a group). With two or more groups, the
/// interval is Student's t over the group centers (medians, or means for
/// the mean statistics): `point ± t_{g−1} · s_g / √g`, widened where
/// needed to hold the independent-samples interval, and the effective
/// sample size is the number of groups `g`. The point is
/// [`estimate_with`]'s. With fewer than two groups, or `groups` not as
/// long as `xs`, it is [`estimate_with`]'s estimate as it is.
///
/// # Panics
/// When `confidence` is not strictly between 0 and 1.
pub fn estimate_in_groups(
    xs: &[f64],
    groups: &[usize],
    confidence: f64,
    statistic: Statistic,
) -> Estimate {
    let mut e = estimate_with(xs, confidence, statistic);
    if groups.len() != xs.len() {
        return e;
    }
    let mut ids = groups.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() < 2 {
        return e;
    }
    let centers: Vec<f64> = ids
        .iter()
        .map(|id| {
            let members: Vec<f64> = xs
                .iter()
                .zip(groups)
                .filter(|(_, g)| *g == id)
                .map(|(x, _)| *x)
                .collect();
            match statistic {
                Statistic::Median => quantile_sorted(&sorted_copy(&members), 0.5),
                Statistic::Mean | Statistic::MeanRemoveUpper => mean(&members),
            }
        })
        .collect();
    let g = centers.len() as f64;
    let sd = sd_about(&centers, mean(&centers));
    let half = t_quantile(upper_tail_probability(confidence), g - 1.0) * sd / g.sqrt();
    e.ci = Interval {
        low: (e.point - half).min(e.naive_ci.low),
        high: (e.point + half).max(e.naive_ci.high),
        confidence,
    };
    e.effective_n = g.min(e.n as f64);
    e
}

/// The mean of `xs` with its t intervals.
fn mean_estimate(xs: &[f64], confidence: f64) -> Estimate {
    let n = xs.len();
    let point = mean(xs);
    let sd = sd_about(xs, point);
    let effective_n = effective_sample_size(xs);
    Estimate {
        statistic: Statistic::Mean,
        point,
        ci: t_interval(point, sd, n, effective_n, confidence),
        naive_ci: t_interval(point, sd, n, n as f64, confidence),
        n,
        effective_n,
    }
}

/// The mean below the upper mild fence, with t intervals whose standard
/// error comes from the statistic's influence function.
///
/// With `f = q3 + 1.5·(q3 − q1)`, kept share `B = F(f)` and point `T`, the
/// influence of a sample `x` is
/// `ψ(x) = 1{x ≤ f}(x − T)/B + p(f)(f − T)/B · ψ_f(x)`, where
/// `ψ_f = 2.5 ψ_{q3} − 1.5 ψ_{q1}` and `ψ_{q}(x) = (P − 1{x ≤ q}) / p(q)` is the
/// influence of the quantile at probability `P`. The first term is the
/// mean's own; the second is the fence moving with the sample, which matters
/// when the density `p` at the fence is not negligible (skewed timings): it
/// lifts coverage on log-normal samples from about 91% to the nominal level.
/// Densities come from a Gaussian kernel estimate. `Var(T) ≈ Var(ψ)/n_eff`
/// with `n_eff` the effective sample size of the series `ψ(x_t)`, in time
/// order.
fn remove_upper_estimate(xs: &[f64], sorted: &[f64], confidence: f64) -> Estimate {
    let n = xs.len();
    let [_, _, fence, _] = fences_sorted(sorted);
    let (q1, q3) = (quantile_sorted(sorted, 0.25), quantile_sorted(sorted, 0.75));
    let kept: Vec<f64> = xs.iter().copied().filter(|&x| x <= fence).collect();
    let point = mean(&kept);
    let share = kept.len() as f64 / n as f64;
    let bandwidth = silverman_bandwidth(sorted);
    // how far the point moves per unit of fence, times the fence's influence
    let fence_term: Option<(f64, f64, f64)> = if bandwidth > 0.0 && bandwidth.is_finite() {
        let (p1, p3) = (
            density_at(sorted, q1, bandwidth),
            density_at(sorted, q3, bandwidth),
        );
        let slope = density_at(sorted, fence, bandwidth) * (fence - point) / share;
        (p1 > 0.0 && p3 > 0.0).then_some((slope, p1, p3))
    } else {
        None
    };
    let influence: Vec<f64> = xs
        .iter()
        .map(|&x| {
            let own = if x <= fence { (x - point) / share } else { 0.0 };
            let moved = fence_term.map_or(0.0, |(slope, p1, p3)| {
                let below = |q: f64| if x <= q { 1.0 } else { 0.0 };
                slope * (2.5 * (0.75 - below(q3)) / p3 - 1.5 * (0.25 - below(q1)) / p1)
            });
            own + moved
        })
        .collect();
    let sd = sd_about(&influence, mean(&influence));
    let effective_n = effective_sample_size(&influence);
    Estimate {
        statistic: Statistic::MeanRemoveUpper,
        point,
        ci: t_interval(point, sd, n, effective_n, confidence),
        naive_ci: t_interval(point, sd, n, n as f64, confidence),
        n,
        effective_n,
    }
}

/// `point ± t_{df} · sd / √n_eff` with `df = n_eff − 1` kept within
/// `[1, n − 1]`; unbounded
/// for a single sample, `[point, point]` when `sd` is 0.
fn t_interval(point: f64, sd: f64, n: usize, n_eff: f64, confidence: f64) -> Interval {
    if n < 2 {
        return Interval::unbounded(confidence);
    }
    let df = (n_eff - 1.0).clamp(1.0, (n - 1) as f64);
    let half = t_quantile(upper_tail_probability(confidence), df) * sd / n_eff.sqrt();
    Interval {
        low: point - half,
        high: point + half,
        confidence,
    }
}

/// Order-statistic interval of the median of sorted data whose ranks are as
/// uncertain as those of `n_eff` independent samples.
fn median_interval(sorted: &[f64], confidence: f64, n_eff: f64) -> Interval {
    let n = sorted.len() as f64;
    let z = normal_quantile(upper_tail_probability(confidence));
    let offset = z * n.sqrt() / 2.0 * (n / n_eff).sqrt();
    let centre = (n - 1.0) / 2.0;
    let (lo, hi) = (centre - offset, centre + offset);
    Interval {
        low: if lo < 0.0 {
            f64::NEG_INFINITY
        } else {
            value_at_rank(sorted, lo)
        },
        high: if hi > n - 1.0 {
            f64::INFINITY
        } else {
            value_at_rank(sorted, hi)
        },
        confidence,
    }
}

/// Contiguous batches of [`batch_median_interval`].
const BATCHES: usize = 10;
/// Fewest samples per batch of [`batch_median_interval`].
const MIN_BATCH_SAMPLES: usize = 10;

/// The batch-medians interval (the batch-means method of simulation output
/// analysis, with medians): the series cut into [`BATCHES`] contiguous
/// batches, `point ± t_{B−1} · sd(batch medians) / √B`. Used only when the
/// effective sample size is too small for the order-statistic interval to
/// be bounded; `None` for fewer than [`MIN_BATCH_SAMPLES`] samples per
/// batch (a median of fewer says little, and short series keep the honest
/// unbounded interval: at n = 30 the fallback lowered the AR(1) coverage).
fn batch_median_interval(xs: &[f64], point: f64, confidence: f64) -> Option<Interval> {
    if xs.len() < MIN_BATCH_SAMPLES * BATCHES {
        return None;
    }
    let size = xs.len() / BATCHES;
    let medians: Vec<f64> = xs
        .chunks(size)
        .take(BATCHES)
        .map(|batch| quantile_sorted(&sorted_copy(batch), 0.5))
        .collect();
    let sd = sd_about(&medians, mean(&medians));
    let half = t_quantile(upper_tail_probability(confidence), (BATCHES - 1) as f64) * sd
        / (BATCHES as f64).sqrt();
    Some(Interval {
        low: point - half,
        high: point + half,
        confidence,
    })
}

fn sign(d: f64) -> f64 {
    if d > 0.0 {
        1.0
    } else if d < 0.0 {
        -1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests;
