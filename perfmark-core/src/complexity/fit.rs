//! How a routine's time grows with the size of its input: the fit behind
//! `complexity = "…"`.
//!
//! Google Benchmark (`MinimalLeastSq` in its `src/complexity.cc`) fits
//! `time = c · g(n)` for each class g of 1, log n, n, n log n, n², n³ by
//! least squares, reports the class with the smallest RMS normalized by the
//! mean time, and never asserts anything. perfmark fits the same classes,
//! and decides a declared class on a fit that carries its uncertainty:
//!
//! - **The exponent.** `ln t` against `ln n` by weighted least squares: the
//!   slope is the exponent k of `t ∝ n^k` over the sizes measured. Each
//!   size's weight is `1 / (se² + τ²)`, `se` the log-scale standard error
//!   from its own CI and τ = [`DRIFT_SD`] the drift between tests measured
//!   at different moments of one run (within-run CIs are far narrower than
//!   the differences between moments, as between runs). The slope's
//!   variance is scaled by the residual variance when the points scatter
//!   more than that predicts (the scale is floored at 1, never trusted to be
//!   smaller on a handful of points: the Knapp–Hartung adjustment of
//!   meta-regression, truncated), with Student's t on `m − 2` degrees of
//!   freedom.
//! - **The excess over the declared class.** The same fit of
//!   `ln(t / g(n))`, g the declared class's function: its slope `e` is how
//!   much faster than declared the time grows, as a power of n (0 when the
//!   declaration is right; negative when a constant cost flattens the small
//!   sizes). The check fails when the one-sided lower confidence bound of
//!   `e` exceeds [`MARGIN`]: the time grows, with significance, at least
//!   n^0.5 faster than declared. A whole polynomial degree too many (n
//!   declared, n² measured: e ≈ 1) is caught; log factors (n log n against
//!   n: e ≈ 0.1–0.2 over practical sizes), constant costs and the cache
//!   hierarchy (a scan slowing 2–4× per element from L1 to RAM: e ≈ 0.1
//!   over four decades) stay under the margin. They cannot be told apart
//!   from one another by timing alone; the fitted class still names the
//!   best fit.
//! - **The candidates.** Each class g fitted as `t = a + c · g(n)` with
//!   a, c ≥ 0, minimizing the squared *relative* residuals (every size
//!   counts alike, the largest does not drown the others; the constant `a`
//!   absorbs a fixed cost per call). The fitted class is the one with the
//!   smallest relative RMS, ties (within [`TIE_RMS`]) going to the slower
//!   growing class.
//!
//! Pure functions of numbers, proven by seeded simulation
//! (`tests/complexity_simulation.rs`).

use perfmark_options::Complexity;

use crate::stats::dist::{normal_quantile, t_quantile, upper_tail_probability};
use crate::stats::line::weighted_line;
use crate::stats::Interval;

/// The margin, as a power of n: the check fails only when the time grows,
/// with significance, at least `n^MARGIN` faster than declared.
pub const MARGIN: f64 = 0.5;

/// Relative spread assumed between tests measured at different moments of
/// one run (5%), added to each size's own standard error: it keeps a
/// handful of very narrow within-run intervals from claiming a precision
/// the drift of the machine between them does not allow.
pub const DRIFT_SD: f64 = 0.05;

/// Fewest sizes a fit is made from: two parameters, and at least two more
/// points to judge the fit by (the macro requires as many `args`).
pub const MIN_SIZES: usize = 4;

/// Candidates whose relative RMS is within this much (absolute, or 10% of
/// the best, whichever is larger) of the best one's count as ties, and the
/// slowest-growing of them is the fitted class: a faster class with a
/// near-zero coefficient fits as well as a slower one without saying more.
pub const TIE_RMS: f64 = 0.01;

/// The time per iteration at one size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizedTime {
    /// The size n (at least 1).
    pub size: f64,
    /// The estimate, ns per iteration.
    pub ns: f64,
    /// Its confidence interval, ns per iteration.
    pub ci: Interval,
}

/// One candidate class fitted as `t = constant + coefficient · g(n)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CandidateFit {
    /// The class.
    pub class: Complexity,
    /// The constant `a`, ns per iteration.
    pub constant_ns: f64,
    /// The coefficient `c` of `g(n)`, ns per iteration per unit of `g`.
    pub coefficient_ns: f64,
    /// RMS of the relative residuals `(t − fit) / t`, as a fraction.
    pub relative_rms: f64,
}

/// The fit of measured times against their sizes, and the verdict on a
/// declared class.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthFit {
    /// The declared class.
    pub declared: Complexity,
    /// The exponent k of `t ∝ n^k` over the sizes measured.
    pub exponent: f64,
    /// Its two-sided confidence interval.
    pub exponent_ci: Interval,
    /// The declared class's own exponent over the same sizes: the slope of
    /// `ln g(n)` against `ln n` (1 for n, about 1.1 for n log n).
    pub declared_exponent: f64,
    /// How much faster than declared the time grows, as a power of n.
    pub excess: f64,
    /// The one-sided lower confidence bound of `excess`.
    pub excess_low: f64,
    /// The smallest excess these sizes could have shown to exceed the
    /// margin: [`MARGIN`] plus the bound's distance below the estimate.
    /// Above 1, the sizes are too few or too close together to catch even
    /// a whole power of n too many.
    pub detectable_excess: f64,
    /// The best-fitting candidate class.
    pub fitted: Complexity,
    /// Every candidate, from the slowest-growing class to the fastest.
    pub candidates: Vec<CandidateFit>,
    /// The residual standard deviation of the exponent's fit, log scale.
    pub residual_sd: f64,
    /// Degrees of freedom of the t quantiles: sizes − 2.
    pub df: f64,
}

impl GrowthFit {
    /// Whether the declared class is refuted: the excess's lower bound
    /// lies beyond [`MARGIN`].
    pub fn fails(&self) -> bool {
        self.excess_low > MARGIN
    }
}

/// Whether `points` can be fitted: every size at least 1, every time
/// positive and finite, and at least [`MIN_SIZES`] distinct sizes.
fn check_points(points: &[SizedTime]) -> Result<(), GrowthError> {
    for p in points {
        if !(p.size.is_finite() && p.size >= 1.0) {
            return Err(GrowthError::BadSize { size: p.size });
        }
        if !(p.ns.is_finite() && p.ns > 0.0) {
            return Err(GrowthError::BadTime {
                size: p.size,
                ns: p.ns,
            });
        }
    }
    let mut sizes: Vec<f64> = points.iter().map(|p| p.size).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    if sizes.len() < MIN_SIZES {
        return Err(GrowthError::TooFewSizes {
            distinct: sizes.len(),
        });
    }
    Ok(())
}

/// Why no fit could be made.
#[derive(Debug, Clone, PartialEq)]
pub enum GrowthError {
    /// Fewer than [`MIN_SIZES`] distinct sizes.
    TooFewSizes {
        /// How many distinct sizes there were.
        distinct: usize,
    },
    /// A size below 1 (or not finite).
    BadSize {
        /// The size.
        size: f64,
    },
    /// A time that is not positive and finite: too fast to time, or
    /// unmeasured.
    BadTime {
        /// The size it was measured at.
        size: f64,
        /// The time, ns per iteration.
        ns: f64,
    },
}

impl std::fmt::Display for GrowthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GrowthError::TooFewSizes { distinct } => write!(
                f,
                "{distinct} distinct sizes; a growth class is fitted over at least {MIN_SIZES}"
            ),
            GrowthError::BadSize { size } => {
                write!(f, "size {size} is not a size: sizes are at least 1")
            }
            GrowthError::BadTime { size, ns } => write!(
                f,
                "the time at size {size} is {ns} ns per iteration: too fast to time, so no growth \
                 can be read from it; give each iteration more work"
            ),
        }
    }
}

/// Fits `points` and judges the `declared` class at `confidence` (the
/// exponent's interval two-sided, the excess's bound one-sided).
///
/// # Errors
/// Fewer than [`MIN_SIZES`] distinct sizes, a size below 1, or a time that
/// is not positive and finite.
pub fn fit_growth(
    points: &[SizedTime],
    declared: Complexity,
    confidence: f64,
) -> Result<GrowthFit, GrowthError> {
    check_points(points)?;
    let x: Vec<f64> = points.iter().map(|p| p.size.ln()).collect();
    let y: Vec<f64> = points.iter().map(|p| p.ns.ln()).collect();
    let g: Vec<f64> = points
        .iter()
        .map(|p| declared.growth(p.size).ln())
        .collect();
    let w: Vec<f64> = points
        .iter()
        .map(|p| 1.0 / (log_se(p).powi(2) + DRIFT_SD * DRIFT_SD))
        .collect();
    let df = (points.len() - 2) as f64;

    let time = weighted_line(&x, &y, &w);
    let excess_y: Vec<f64> = y.iter().zip(&g).map(|(y, g)| y - g).collect();
    let excess = weighted_line(&x, &excess_y, &w);
    let declared_line = weighted_line(&x, &g, &w);

    let two_sided = t_quantile(upper_tail_probability(confidence), df);
    let one_sided = t_quantile(confidence, df);
    let exponent_ci = Interval {
        low: time.slope - two_sided * time.slope_se(df),
        high: time.slope + two_sided * time.slope_se(df),
        confidence,
    };
    let excess_se = excess.slope_se(df);
    let excess_low = excess.slope - one_sided * excess_se;
    let candidates: Vec<CandidateFit> = Complexity::ALL
        .iter()
        .map(|&class| fit_candidate(points, class))
        .collect();
    Ok(GrowthFit {
        declared,
        exponent: time.slope,
        exponent_ci,
        declared_exponent: declared_line.slope,
        excess: excess.slope,
        excess_low,
        detectable_excess: MARGIN + one_sided * excess_se,
        fitted: best_candidate(&candidates),
        candidates,
        residual_sd: (time.weighted_rss / df / mean(&w)).sqrt(),
        df,
    })
}

/// The log-scale standard error of one size's estimate, from its CI: half
/// the CI's width in `ln`, over the normal quantile of its level. An
/// unbounded CI gives a standard error of 1 (a factor of e): the point
/// then barely counts.
fn log_se(p: &SizedTime) -> f64 {
    let z = normal_quantile(upper_tail_probability(p.ci.confidence));
    let se = if p.ci.low > 0.0 && p.ci.high.is_finite() {
        (p.ci.high.ln() - p.ci.low.ln()) / (2.0 * z)
    } else if p.ci.low.is_finite() && p.ci.high.is_finite() {
        (p.ci.high - p.ci.low) / (2.0 * z * p.ns)
    } else {
        1.0
    };
    if se.is_finite() && se >= 0.0 {
        se
    } else {
        1.0
    }
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Fits `t = a + c · g(n)` with a, c ≥ 0 by least squares on the relative
/// residuals `1 − (a + c·g)/t`: a linear problem in (a, c) with regressors
/// `1/t` and `g/t`, solved by its normal equations, and on a boundary when
/// the unconstrained solution is negative in either.
fn fit_candidate(points: &[SizedTime], class: Complexity) -> CandidateFit {
    let p: Vec<f64> = points.iter().map(|pt| 1.0 / pt.ns).collect();
    let q: Vec<f64> = points
        .iter()
        .map(|pt| class.growth(pt.size) / pt.ns)
        .collect();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(a, b)| a * b).sum::<f64>();
    let (spp, sqq, spq) = (dot(&p, &p), dot(&q, &q), dot(&p, &q));
    let (sp, sq) = (p.iter().sum::<f64>(), q.iter().sum::<f64>());
    let constant_only = (sp / spp, 0.0);
    let growth_only = (0.0, sq / sqq);
    let det = spp * sqq - spq * spq;
    let (a, c) = if class == Complexity::Constant || det <= 1e-12 * spp * sqq {
        constant_only
    } else {
        let a = (sp * sqq - sq * spq) / det;
        let c = (sq * spp - sp * spq) / det;
        if a >= 0.0 && c >= 0.0 {
            (a, c)
        } else {
            // On a boundary: the better of the two one-parameter fits.
            let rss = |(a, c): (f64, f64)| -> f64 {
                p.iter()
                    .zip(&q)
                    .map(|(p, q)| (1.0 - a * p - c * q).powi(2))
                    .sum()
            };
            if rss(constant_only) <= rss(growth_only) {
                constant_only
            } else {
                growth_only
            }
        }
    };
    let rss: f64 = p
        .iter()
        .zip(&q)
        .map(|(p, q)| (1.0 - a * p - c * q).powi(2))
        .sum();
    CandidateFit {
        class,
        constant_ns: a,
        coefficient_ns: c,
        relative_rms: (rss / points.len() as f64).sqrt(),
    }
}

/// The slowest-growing candidate whose RMS ties with the best's.
fn best_candidate(candidates: &[CandidateFit]) -> Complexity {
    let best = candidates
        .iter()
        .map(|c| c.relative_rms)
        .fold(f64::INFINITY, f64::min);
    let tie = (best * 1.1).max(best + TIE_RMS);
    candidates
        .iter()
        .find(|c| c.relative_rms <= tie)
        .map_or(Complexity::Constant, |c| c.class)
}

#[cfg(test)]
mod tests;
