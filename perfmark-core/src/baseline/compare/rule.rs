//! The regression rule and its parameters.
//!
//! Work on the log scale. Let `d = ln(current) − ln(baseline)`, where the
//! baseline point is the geometric mean of `R ≥ 1` per-process estimates.
//! Its variance is
//!
//! ```text
//! Var(d) = se_cur² + se_base²/R + 2·σ_b²
//! ```
//!
//! with `se_cur` the current run's within-run log standard error (derived from
//! its CI), `se_base` the baseline's within-run log standard error
//! ([`BaselineEstimate::within_log_se`]: the root mean square over its runs
//! when every run's CI is known, the median run's for a stored baseline,
//! which keeps only that run's CI), and `σ_b` the between-run standard
//! deviation of log estimates: the current process draws its own between-run
//! offset, and the baseline's mean carries a whole one too, not the average
//! of `R`: the `R` runs of a recording session share the machine's state of
//! that hour (the reference machine's 5-process baseline sat 7.4% off as a
//! whole). The rule with the machine-state reference
//! ([`super::compare_with_reference`]) divides that shared state out and
//! keeps `1 + 1/R` for what is left.
//!
//! `σ_b` is never assumed to be zero. With `R = 1` it is the prior `σ₀`
//! (the one the [`RegressionRule`] is given: the machine's recorded spread,
//! a user's setting, or [`DEFAULT_BETWEEN_RUN_SD`]). With `R ≥ 2` the
//! measured standard deviation `s` (with `R − 1` degrees of freedom) is
//! pooled with the prior, the prior counting as `ν₀` pseudo-degrees of
//! freedom (the "moderated" variance of empirical Bayes, Smyth 2004):
//!
//! ```text
//! σ_b² = (ν₀·σ₀² + (R − 1)·s²) / (ν₀ + R − 1),    df = ν₀ + R − 1
//! ```
//!
//! and `d / √Var(d)` is taken as Student's t with `df` degrees of freedom.
//! The prior is also a floor on `σ_b` by default
//! ([`RegressionRule::prior_is_floor`]): a baseline whose few runs happened
//! to agree, or were recorded too close together in time to see the
//! machine's drift, never gets a spread below the machine's.
//!
//! The decision is **one-sided** at the test's confidence `c`: the test fails
//! only on a slowdown, so the false-failure rate the confidence promises is
//! `1 − c`. The interval reported, [`Comparison::ci`], has the one-sided
//! bounds at `c` as its ends, which makes it a two-sided interval at
//! `2c − 1` (90% for `c = 0.95`); its `confidence` field says so.
//!
//! The verdict is [`Outcome::Regressed`] when the interval's low end is above
//! 1 (slower, significantly) **and** the point ratio is above
//! `1 + tolerance`: the tolerance is applied to the point estimate, not to
//! the interval's low end. Speed-ups mirror the rule on the log scale:
//! [`Outcome::Improved`] when the interval's high end is below 1 and the ratio
//! below `1 / (1 + tolerance)`; an improvement is never a failure.
//!
//! Every comparison also states what it could have seen:
//! [`Comparison::min_detectable_slowdown`], the true slowdown this rule
//! catches with probability [`DETECTION_POWER`] given this comparison's
//! standard error. The verdict fails exactly when
//! `d > T = max(t_{c,df}·se, ln(1 + tolerance))`; a true log-slowdown `δ`
//! gives `d ~ N(δ, se²)`, so it fails with probability `Φ((δ − T)/se)`,
//! which is `DETECTION_POWER` at `δ = T + z_{DETECTION_POWER}·se`.
//!
//! Why each of these choices, with the simulated rates that decided them:
//! `docs/design/regression-rule.md`.

use serde::Serialize;

use super::{
    check_confidence, BaselineEstimate, CompareError, Comparison, Outcome, RunEstimate, Spread,
};
use crate::stats::dist::{normal_quantile, t_quantile};
use crate::stats::Interval;

/// The default prior between-run standard deviation of log estimates,
/// `σ₀`: how much the estimate of unchanged code moves from one process to
/// another, minutes or more apart, as a standard deviation of
/// `ln(ns/iter)` (0.075 ≈ 7.5%).
///
/// It is the prior of last resort: a comparison uses, in this order, the
/// spread the user sets (`--between-run-sd`, `PERFMARK_BETWEEN_RUN_SD`),
/// the machine's spread recorded in the baseline file by
/// `cargo perfmark baseline --runs N` (when recorded on this machine, and
/// only when above this default), and this default. It is used alone
/// against a baseline recorded in a single process, and pooled with a
/// test's measured spread (weight [`DEFAULT_PRIOR_DF`]) otherwise, never
/// going below it.
///
/// Too small a prior raises false alarms; too large a prior only costs
/// detection power. How to measure a machine's figure:
/// `docs/design/regression-rule.md`, "Calibrating the prior on a machine".
//
// Calibration: measured alone on the reference machine (a 2-core shared
// KVM guest), `cargo xtask alarms --runs 20 --pause 90s` over 47 minutes
// with nothing else running: the six alarm tests' log-ratios to a fixed
// baseline had a pooled sd of 7.39% over 20 processes (114 df; 6.8–8.1%
// per test), and their mean sat 7.4% above the baseline recorded minutes
// earlier: the root mean square, 10.5%, is √2 × 7.4%, what two independent
// draws of a 7.4% offset give. All tests of one process moved together:
// the machine's speed itself drifts. Processes run back to back measure
// far less (1.9%), which is why a recording never lowers the prior.
// Nothing else in the workspace repeats the number: the docs and the
// simulation read it.
pub const DEFAULT_BETWEEN_RUN_SD: f64 = 0.075;

/// The weight of the prior [`DEFAULT_BETWEEN_RUN_SD`], in pseudo-degrees of
/// freedom `ν₀`: pooling with a baseline of `R` runs gives the prior
/// `ν₀ / (ν₀ + R − 1)` of the weight, and the rule's t quantile has
/// `ν₀ + R − 1` degrees of freedom. 4 makes the prior worth five runs of
/// measurement, and keeps false alarms near the nominal rate when a test is
/// up to 1.5 times noisier than the prior says (`docs/design/regression-rule.md`,
/// the miscalibration table).
pub const DEFAULT_PRIOR_DF: f64 = 4.0;

/// The prior a rule starts from when nothing was measured or set:
/// [`DEFAULT_BETWEEN_RUN_SD`] with the weight [`DEFAULT_PRIOR_DF`].
pub const DEFAULT_PRIOR: Spread = Spread {
    sd: DEFAULT_BETWEEN_RUN_SD,
    df: DEFAULT_PRIOR_DF,
};

/// The default residual between-run sd `σ_r`: how much a test's estimate
/// moves between processes once each is divided by the machine-state
/// reference measured beside it ([`super::compare_with_reference`]), as a
/// standard deviation of log estimates (0.025 ≈ 2.5%).
///
/// Used with the weight [`DEFAULT_PRIOR_DF`] when the baseline and the run
/// both have the reference, in place of [`DEFAULT_BETWEEN_RUN_SD`]: what the
/// machine's drift adds is then measured, not assumed. A recording over
/// several processes (`cargo perfmark baseline --runs N`) replaces it with
/// the machine's own residual, which may be lower (never below
/// [`MIN_RESIDUAL_SD`]).
//
// Calibration: on the reference machine (a 2-core shared KVM guest),
// processes back to back moved 0.5–1.9% (max/min over ten) with the
// machine still, and the tests of one process an hour later moved 12–17%
// while the machine moved about as much: a residual of ±2.5% around the
// common move. docs/design/regression-rule.md, "The machine-state reference",
// has the figures measured with the reference itself.
pub const DEFAULT_RESIDUAL_SD: f64 = 0.025;

/// The residual prior a rule with the reference starts from when nothing
/// was recorded: [`DEFAULT_RESIDUAL_SD`] with the weight [`DEFAULT_PRIOR_DF`].
pub const DEFAULT_RESIDUAL_PRIOR: Spread = Spread {
    sd: DEFAULT_RESIDUAL_SD,
    df: DEFAULT_PRIOR_DF,
};

/// The least residual sd a rule with the reference uses, whatever a
/// recording measured: runs that agreed to the last digit say little about
/// runs days later.
pub const MIN_RESIDUAL_SD: f64 = 0.005;

/// `prior` (its sd with its weight in pseudo-degrees of freedom) pooled
/// with `measured` spreads: `(ν₀σ₀² + Σ dfᵢ·sᵢ²) / (ν₀ + Σ dfᵢ)` with
/// `ν₀ + Σ dfᵢ` degrees of freedom, the moderated variance of empirical
/// Bayes (Smyth 2004).
fn pool(prior: Spread, measured: &[Spread]) -> Spread {
    let df = prior.df + measured.iter().map(|s| s.df).sum::<f64>();
    let var = (prior.df * prior.sd.powi(2)
        + measured.iter().map(|s| s.df * s.sd.powi(2)).sum::<f64>())
        / df;
    Spread { sd: var.sqrt(), df }
}

/// The probability at which [`Comparison::min_detectable_slowdown`] is
/// stated: a true slowdown of that size fails the test 9 times in 10.
pub const DETECTION_POWER: f64 = 0.9;

/// How the spread in effect for one test was formed: the prior alone, or
/// the prior pooled with the test's own measured spread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TestSpreadSource {
    /// The prior alone: the baseline was recorded in one process (or the
    /// rule's prior has infinite weight).
    Prior,
    /// The spread measured over `runs` processes, pooled with the prior.
    Pooled {
        /// Processes the baseline was recorded over.
        runs: usize,
    },
    /// The spreads between the processes that measured the recording and
    /// this run (each the runner's process and its workers), with the
    /// recording's between-run spread when it has one, pooled with the
    /// prior.
    Processes {
        /// Runs the baseline was recorded over (1 for `--save-baseline`).
        runs: usize,
        /// Degrees of freedom the processes of the recording and of this
        /// run gave, together.
        df: usize,
    },
}

/// The between-run spread in effect for one test against its baseline
/// ([`RegressionRule::test_spread`]), and how it was formed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TestSpread {
    /// `σ_b` with the degrees of freedom of the rule's t quantile
    /// (`f64::INFINITY`: normal).
    pub spread: Spread,
    /// Prior alone, or pooled with a measurement.
    pub source: TestSpreadSource,
}

/// The parameters of the regression rule for one test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RegressionRule {
    /// The test's confidence `c`, in (0.5, 1): the decision is one-sided at
    /// `c`, so unchanged code fails at most `1 − c` of the time when the
    /// spread is right.
    pub confidence: f64,
    /// Relative tolerance (0.05 for "5%"): a significant slowdown fails only
    /// when the point ratio exceeds `1 + tolerance`.
    pub tolerance: f64,
    /// The prior between-run spread: `σ₀ > 0` with its weight `ν₀ > 0` in
    /// pseudo-degrees of freedom; `df = f64::INFINITY` means the prior is
    /// taken as known and measured spreads are ignored.
    pub prior: Spread,
    /// Whether the prior is also a floor: the spread used is never below
    /// `prior.sd`, however small the baseline's measured spread. On by
    /// default: a baseline recorded back to back measured a spread half of
    /// what runs minutes apart show on the reference machine, and failed
    /// 5 of 18 unchanged test-runs (`docs/design/regression-rule.md`, "Calibrating
    /// the prior on a machine").
    pub prior_is_floor: bool,
}

impl RegressionRule {
    /// A rule with the given confidence and tolerance and the default prior
    /// ([`DEFAULT_PRIOR`]), as a floor.
    ///
    /// # Errors
    ///
    /// When the confidence is not strictly between 0.5 and 1 or the tolerance
    /// is not finite and ≥ 0.
    pub fn new(confidence: f64, tolerance: f64) -> Result<Self, CompareError> {
        let rule = RegressionRule {
            confidence,
            tolerance,
            prior: DEFAULT_PRIOR,
            prior_is_floor: true,
        };
        rule.check()?;
        Ok(rule)
    }

    /// The same rule with the prior used as a floor (`true`, the default)
    /// or only pooled with the measured spread (`false`: the model of
    /// Smyth's moderated variance, which the calibrated-prior simulation
    /// proves).
    pub fn prior_as_floor(self, floor: bool) -> Self {
        RegressionRule {
            prior_is_floor: floor,
            ..self
        }
    }

    /// The same rule with another prior: its `sd` as
    /// [`DEFAULT_BETWEEN_RUN_SD`], its `df` as [`DEFAULT_PRIOR_DF`] (may be
    /// `f64::INFINITY`).
    ///
    /// # Errors
    ///
    /// When the sd is not positive and finite or the df is not positive.
    pub fn with_prior(self, prior: Spread) -> Result<Self, CompareError> {
        let rule = RegressionRule { prior, ..self };
        rule.check()?;
        Ok(rule)
    }

    /// The between-run spread this rule uses against `baseline`: the prior
    /// alone for a one-run baseline, otherwise the prior pooled with the
    /// measured spread as `(ν₀σ₀² + df·s²) / (ν₀ + df)` with `ν₀ + df`
    /// degrees of freedom (see the module documentation), lifted to the
    /// prior's sd where the prior is a floor.
    pub fn test_spread(&self, baseline: &BaselineEstimate) -> TestSpread {
        let prior = self.prior;
        match baseline.spread {
            Some(measured) if prior.df.is_finite() => {
                let mut pooled = pool(prior, &[measured]);
                // Raised to the floor, the degrees of freedom stay the
                // pool's: the runs bound the spread from above, which is
                // what the t quantile's tail is about. Giving them up (the
                // prior's 4 df alone) cost the family-wise rule a tenth of
                // its detections of +20% in tests/family_simulation.rs with
                // no false failure saved.
                if self.prior_is_floor {
                    pooled.sd = pooled.sd.max(prior.sd);
                }
                TestSpread {
                    spread: pooled,
                    source: TestSpreadSource::Pooled {
                        runs: baseline.runs,
                    },
                }
            }
            _ => TestSpread {
                spread: prior,
                source: TestSpreadSource::Prior,
            },
        }
    }

    /// [`RegressionRule::test_spread`] with the spreads measured between
    /// processes taken in too: the recording's
    /// ([`BaselineEstimate::processes`]) and this run's (`now`), pooled with
    /// each other, `Σ dfᵢ·sᵢ² / Σ dfᵢ`.
    ///
    /// The processes can only widen the spread, never narrow it: where
    /// their pooled sd exceeds the spread without them, it replaces that
    /// sd, and the degrees of freedom stay the spread's without them. They
    /// ran within seconds of one another, and processes back to back move
    /// far less than processes hours apart (on the reference machine, 1.9%
    /// against 7.4%): a wide set says this machine is at least that
    /// unsettled now, but no set of them measures how far recordings made
    /// at different times drift, which is what the degrees of freedom of
    /// the rule's t quantile are about. Pooled into the prior with their
    /// own degrees of freedom, they lowered the threshold `t·sd` (at one
    /// recorded run, a prior of 7.5% on 4 df and processes of 8.5% on
    /// 4 + 4 df gave 14.6% where the prior alone gives 16.0%).
    pub fn test_spread_with(&self, baseline: &BaselineEstimate, now: Option<Spread>) -> TestSpread {
        let without = self.test_spread(baseline);
        let processes: Vec<Spread> = [baseline.processes, now]
            .into_iter()
            .flatten()
            .filter(|s| s.df > 0.0 && s.sd.is_finite())
            .collect();
        if processes.is_empty() || !self.prior.df.is_finite() {
            return without;
        }
        // Pooled with each other alone: no prior weighs in.
        let pooled = pool(Spread { sd: 0.0, df: 0.0 }, &processes);
        if pooled.sd <= without.spread.sd {
            return without;
        }
        TestSpread {
            spread: Spread {
                sd: pooled.sd,
                df: without.spread.df,
            },
            source: TestSpreadSource::Processes {
                runs: baseline.runs,
                df: pooled.df.round() as usize,
            },
        }
    }

    pub(super) fn check(&self) -> Result<(), CompareError> {
        check_confidence(self.confidence, 0.5)?;
        if !(self.tolerance >= 0.0 && self.tolerance.is_finite()) {
            return Err(CompareError::new(format!(
                "regression tolerance must be a finite fraction >= 0 (0.05 for 5%); got {}",
                self.tolerance
            )));
        }
        if !(self.prior.sd > 0.0 && self.prior.sd.is_finite()) {
            return Err(CompareError::new(format!(
                "prior between-run sd must be positive and finite (0.02 for 2%); got {}",
                self.prior.sd
            )));
        }
        if self.prior.df.is_nan() || self.prior.df <= 0.0 {
            return Err(CompareError::new(format!(
                "prior degrees of freedom must be positive (or infinite); got {}",
                self.prior.df
            )));
        }
        Ok(())
    }
}

/// The regression rule: compares the `current` run's estimate with its
/// `baseline` under `rule` (the formula is in the module documentation; its
/// justification in `docs/design/regression-rule.md`).
///
/// The returned [`Comparison`] holds the ratio `current / baseline`, its
/// interval (one-sided bounds at the rule's confidence), the between-run
/// spread used and the verdict; only [`Outcome::Regressed`] fails a test.
///
/// # Errors
///
/// When the current estimate, the baseline or the rule is invalid (a
/// non-positive time, a confidence outside (0.5, 1), a negative tolerance…);
/// the message names the input.
pub fn compare(
    baseline: &BaselineEstimate,
    current: &RunEstimate,
    rule: &RegressionRule,
) -> Result<Comparison, CompareError> {
    rule.check()?;
    baseline.check()?;
    current.check("current estimate")?;
    let TestSpread { spread, source } = rule.test_spread_with(baseline, current.processes);
    let runs = baseline.runs as f64;
    // The baseline's runs were recorded in one session: they share the
    // machine's state of that hour, so their mean carries a whole offset,
    // not the R-th of one (a 5-process baseline measured 7.4% off as a
    // whole, where 1/R would have said 3.4%).
    let variance =
        current.log_se().powi(2) + baseline.within_log_se.powi(2) / runs + 2.0 * spread.sd.powi(2);
    let log_se = variance.sqrt();
    let log_ratio = current.point_ns.ln() - baseline.point_ns.ln();
    let half = t_quantile(rule.confidence, spread.df) * log_se;
    let ci = log_interval(log_ratio, half, 2.0 * rule.confidence - 1.0);
    let ratio = log_ratio.exp();
    let min_detectable_slowdown = min_detectable_slowdown(
        t_quantile(rule.confidence, spread.df),
        log_se,
        rule.tolerance,
    );
    let verdict = if ci.low > 1.0 {
        if ratio > 1.0 + rule.tolerance {
            Outcome::Regressed
        } else {
            Outcome::SlowerWithinTolerance
        }
    } else if ci.high < 1.0 {
        if ratio < 1.0 / (1.0 + rule.tolerance) {
            Outcome::Improved
        } else {
            Outcome::FasterWithinTolerance
        }
    } else {
        Outcome::NoSignificantChange
    };
    Ok(Comparison {
        ratio,
        ci,
        confidence: rule.confidence,
        tolerance: rule.tolerance,
        between_run_sd: spread.sd,
        between_run_df: spread.df,
        between_run_source: source,
        measured_between_run_sd: baseline.spread.map(|s| s.sd),
        log_se,
        min_detectable_slowdown,
        verdict,
        machine: None,
        raw_ratio: None,
        tracking: None,
    })
}

/// The true slowdown (a fraction: 0.12 for +12%) that the rule fails with
/// probability [`DETECTION_POWER`], given the one-sided quantile `t` it
/// decides with, the standard error `log_se` of the log ratio and the
/// tolerance: `exp(max(t·se, ln(1 + tolerance)) + z·se) − 1` (see the
/// module documentation). Infinite when `log_se` is.
fn min_detectable_slowdown(t: f64, log_se: f64, tolerance: f64) -> f64 {
    let threshold = (t * log_se).max(tolerance.ln_1p());
    let z = normal_quantile(DETECTION_POWER);
    (threshold + z * log_se).exp_m1()
}

/// `exp(center ± half)` as an interval; an infinite or NaN half-width gives
/// `[0, ∞]`.
fn log_interval(center: f64, half: f64, confidence: f64) -> Interval {
    if half.is_finite() {
        Interval {
            low: (center - half).exp(),
            high: (center + half).exp(),
            confidence,
        }
    } else {
        Interval {
            low: 0.0,
            high: f64::INFINITY,
            confidence,
        }
    }
}

#[cfg(test)]
mod tests;
