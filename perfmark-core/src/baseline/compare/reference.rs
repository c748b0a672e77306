//! The regression rule with a machine-state reference: perfmark's own
//! workload, timed beside the test both when the baseline was recorded and
//! now, says how much the machine itself moved in between.
//!
//! Let `d = ln(current / baseline)` for the test and `ρ = ln(reference now
//! / reference then)` for the machine. A test follows the machine's move in
//! part: `d = δ + β·ρ + e`, where `δ` is the change of the code, `β` how
//! much the test follows the reference (1 for code bound by the core's
//! speed as the reference is, less for code bound by memory) and `e` the
//! residual between-process noise, whose spread `σ_r` is far smaller than
//! the spread of the machine's moves (on the reference machine, processes
//! back to back moved 0.5–1.9% where processes an hour apart moved 7.4%
//! together).
//!
//! `β` of a test is not known, and guessing it wrong either hides a
//! regression (assuming 1 for a test that does not follow the machine,
//! when the machine is slower now) or invents one (assuming 1 when the
//! machine is faster now). The rule assumes only `0 ≤ β ≤ 1` and keeps
//! both ends:
//!
//! ```text
//! d_low  = d − max(ρ, 0)      the code's change if the test follows the machine
//!                              as far as helps it
//! d_high = d − min(ρ, 0)      … as little as helps it
//! ```
//!
//! `δ` lies between them up to the noise. The interval is
//! `[exp(d_low − t·se_low), exp(d_high + t·se_high)]` and the test fails
//! only when `d_low` is significant and beyond the tolerance: for every
//! `β` in `[0, 1]`, `d − β·ρ ≥ d_low`, so an unchanged test fails at most
//! `1 − c` of the time whatever it follows. The price is that a moved
//! machine widens the interval by the move: the minimum detectable slowdown
//! is `exp(T + |ρ| + z·se) − 1`, `T` the failing threshold, and that is
//! what the comparison prints. When the reference shows the machine in
//! the recording's state (`ρ` near 0), the interval is the residual's
//! alone, far narrower than a rule without a reference can afford.
//!
//! The variances: `se² = se_cur² + se_base²/R + σ_r²·(1 + 1/R)` on both
//! ends, plus the reference ratio's own `se_ρ²` on the end that subtracts
//! `ρ`. `σ_r` is the residual prior ([`super::DEFAULT_RESIDUAL_PRIOR`],
//! or the machine's recorded one) pooled with the baseline's own residual
//! spread over `R` processes, as [`super::RegressionRule::test_spread`]
//! pools. A recording session shares one machine state among its processes;
//! dividing each run by its own reference removes that shared offset, which
//! is why `1/R` is kept here and not in the rule without a reference.
//!
//! The reason a regression is never hidden by the reference: the
//! reference is perfmark's code, so a change to the user's code moves `d`
//! and not `ρ`; and the rule subtracts only a machine slowdown the
//! reference measured, never more than it measured.

use serde::Serialize;

use super::inputs::between_run_spread;
use super::rule::TestSpread;
use super::{
    check_time, BaselineEstimate, CompareError, Comparison, Outcome, RegressionRule, RunEstimate,
    Spread, DETECTION_POWER, MIN_RESIDUAL_SD,
};
use crate::stats::dist::{normal_quantile, t_quantile};
use crate::stats::line::weighted_line;
use crate::stats::Interval;

/// How much the machine moved between a baseline and the current run, as
/// the machine-state reference measured it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct MachineShift {
    /// The reference's time now over its time in the baseline: 1.08 when
    /// the machine is 8% slower now.
    pub ratio: f64,
    /// Standard error of `ln(ratio)`, from both references' intervals.
    pub log_se: f64,
}

impl MachineShift {
    /// The shift from the reference measured with the baseline, `then`,
    /// to the one measured now (each a median time per step with its CI).
    ///
    /// # Errors
    ///
    /// When either is not a positive, finite time.
    pub fn between(then: &RunEstimate, now: &RunEstimate) -> Result<Self, CompareError> {
        then.check("baseline's reference")?;
        now.check("current reference")?;
        check_time(now.point_ns / then.point_ns, "reference ratio")?;
        Ok(MachineShift {
            ratio: now.point_ns / then.point_ns,
            log_se: (then.log_se().powi(2) + now.log_se().powi(2)).sqrt(),
        })
    }

    /// Checks that the shift is usable: a positive, finite ratio and a
    /// finite, non-negative standard error.
    fn check(&self) -> Result<(), CompareError> {
        check_time(self.ratio, "reference ratio")?;
        if !(self.log_se >= 0.0 && self.log_se.is_finite()) {
            return Err(CompareError::new(format!(
                "reference ratio's standard error must be finite and >= 0; got {}",
                self.log_se
            )));
        }
        Ok(())
    }
}

/// How much a test follows the machine-state reference: the range its
/// `β` is taken to lie in (see the module documentation). Unknown, it is
/// `[0, 1]`; a recording whose processes saw the machine in different
/// states measures it ([`fit_runs`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Tracking {
    /// The least share of the machine's move the test is taken to follow.
    pub low: f64,
    /// The greatest.
    pub high: f64,
}

/// The spread of the recording's references (sd of their logs) below which
/// the machine did not move enough for a slope to mean anything.
const MIN_REFERENCE_SPREAD: f64 = 0.02;

/// The confidence of the measured range of `β`.
const TRACKING_CONFIDENCE: f64 = 0.95;

/// What a recording over several processes says about a test once the
/// machine-state reference measured beside each run is taken into
/// account ([`fit_runs`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordedFit {
    /// The runs' spread left once the machine's part is taken out: the sd
    /// of their log estimates about the fitted line when the tracking was
    /// measured (`R − 2` degrees of freedom), else of their log estimates
    /// each divided by its own reference (`R − 1`).
    pub residual: Spread,
    /// How much the test follows the reference.
    pub tracking: Tracking,
}

/// The residual spread and the tracking of a test recorded over several
/// processes: each run's estimate and the reference measured beside it
/// (ns; same order). `None` with fewer than 2 runs, unequal lengths or a
/// time that is not positive.
///
/// When the references spread by at least 2% (sd of their logs) over at
/// least 3 runs, the machine moved during the recording: the tracking is
/// the least-squares slope of the log estimates on the log references with
/// its 95% interval (Student's t, `R − 2` degrees of freedom), clamped to
/// `[0, 1.5]`, and the residual is the spread about that line. Otherwise
/// the tracking is [`Tracking::UNKNOWN`] and the residual is the spread of
/// the runs each divided by its own reference.
pub fn fit_runs(estimates_ns: &[f64], references_ns: &[f64]) -> Option<RecordedFit> {
    let n = estimates_ns.len();
    if n < 2 || references_ns.len() != n {
        return None;
    }
    let x: Vec<f64> = references_ns.iter().map(|r| r.ln()).collect();
    let y: Vec<f64> = estimates_ns.iter().map(|e| e.ln()).collect();
    if x.iter().chain(&y).any(|v| !v.is_finite()) {
        return None;
    }
    let Some(line) = fit_line(&x, &y).filter(|l| l.x_sd >= MIN_REFERENCE_SPREAD) else {
        // The machine stood still: each run over its own reference.
        let ratios: Vec<f64> = estimates_ns
            .iter()
            .zip(references_ns)
            .map(|(e, r)| e / r)
            .collect();
        return Some(RecordedFit {
            residual: between_run_spread(&ratios).ok()??,
            tracking: Tracking::UNKNOWN,
        });
    };
    let half = t_quantile(0.5 + TRACKING_CONFIDENCE / 2.0, line.df) * line.slope_se;
    let (low, high) = (
        (line.slope - half).clamp(0.0, 1.5),
        (line.slope + half).clamp(0.0, 1.5),
    );
    Some(RecordedFit {
        residual: Spread {
            sd: line.residual_sd,
            df: line.df,
        },
        tracking: if low < high {
            Tracking { low, high }
        } else {
            Tracking::UNKNOWN
        },
    })
}

/// An ordinary least-squares line `y = a + slope · x` through paired
/// values, with what a reader of it needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineFit {
    /// The slope.
    pub slope: f64,
    /// Its standard error, from the residuals.
    pub slope_se: f64,
    /// The sd of the residuals about the line (`n − 2` denominator).
    pub residual_sd: f64,
    /// Degrees of freedom of the residuals, `n − 2`.
    pub df: f64,
    /// The sample sd of `x` (`n − 1` denominator): how far `x` moved.
    pub x_sd: f64,
}

/// The least-squares line of `y` on `x` (equal lengths). `None` with fewer
/// than 3 pairs or when `x` does not vary.
pub fn fit_line(x: &[f64], y: &[f64]) -> Option<LineFit> {
    let n = x.len();
    if n < 3 || y.len() != n {
        return None;
    }
    let line = weighted_line(x, y, &vec![1.0; n]);
    if line.sxx.is_nan() || line.sxx <= 0.0 {
        return None;
    }
    let df = (n - 2) as f64;
    let residual_sd = (line.weighted_rss / df).sqrt();
    Some(LineFit {
        slope: line.slope,
        slope_se: residual_sd / line.sxx.sqrt(),
        residual_sd,
        df,
        x_sd: (line.sxx / (n - 1) as f64).sqrt(),
    })
}

impl Tracking {
    /// Nothing known: `β` anywhere from 0 (code bound by memory, which the
    /// core's clock does not move) to 1 (code bound by the core's speed,
    /// like the reference).
    pub const UNKNOWN: Tracking = Tracking {
        low: 0.0,
        high: 1.0,
    };

    /// The share of a move `rho` (log) subtracted at the low end of the
    /// code's change, and at the high end: the largest and the smallest
    /// `β·ρ` over the range.
    fn ends(&self, rho: f64) -> (f64, f64) {
        let (a, b) = (self.low * rho, self.high * rho);
        (a.max(b), a.min(b))
    }
}

/// The regression rule with the machine's move known (see the module
/// documentation): `current` against `baseline` under `rule`, whose prior
/// is the residual one and whose baseline spread, when recorded, is the
/// spread of the runs each divided by its own reference.
///
/// The returned [`Comparison`]'s `ratio` is the middle of what the code's
/// change can be, `exp(d − ρ/2)`; its interval spans both ends; `machine`
/// holds the shift and `raw_ratio` the ratio before any of it was taken
/// out. Only [`Outcome::Regressed`] fails.
///
/// # Errors
///
/// When an input is invalid (a non-positive time, a confidence outside
/// (0.5, 1), a negative tolerance, a non-finite shift); the message names it.
pub fn compare_with_reference(
    baseline: &BaselineEstimate,
    current: &RunEstimate,
    shift: &MachineShift,
    tracking: Tracking,
    rule: &RegressionRule,
) -> Result<Comparison, CompareError> {
    rule.check()?;
    baseline.check()?;
    current.check("current estimate")?;
    shift.check()?;
    let TestSpread { mut spread, source } = rule.test_spread_with(baseline, current.processes);
    spread.sd = spread.sd.max(MIN_RESIDUAL_SD);
    let base_var = residual_var(baseline, current, spread.sd);
    let rho = shift.ratio.ln();
    let rho_var = shift.log_se.powi(2);
    let d = current.point_ns.ln() - baseline.point_ns.ln();
    let (most, least) = tracking.ends(rho);
    let beta = tracking.high.max(tracking.low.abs());
    let var = base_var + beta * beta * rho_var;
    let (d_low, d_high) = (d - most, d - least);
    let (var_low, var_high) = (var, var);
    let t = t_quantile(rule.confidence, spread.df);
    let (se_low, se_high) = (var_low.sqrt(), var_high.sqrt());
    let ci = Interval {
        low: (d_low - t * se_low).exp(),
        high: (d_high + t * se_high).exp(),
        confidence: 2.0 * rule.confidence - 1.0,
    };
    let threshold = (t * se_low).max(rule.tolerance.ln_1p());
    let min_detectable_slowdown = (threshold
        + (tracking.high - tracking.low) * rho.abs()
        + normal_quantile(DETECTION_POWER) * se_low)
        .exp_m1();
    let verdict = verdict_between(&ci, d_low, d_high, rule.tolerance);
    Ok(Comparison {
        ratio: ((d_low + d_high) / 2.0).exp(),
        ci,
        confidence: rule.confidence,
        tolerance: rule.tolerance,
        between_run_sd: spread.sd,
        between_run_df: spread.df,
        between_run_source: source,
        measured_between_run_sd: baseline.spread.map(|s| s.sd),
        log_se: se_low.max(se_high),
        min_detectable_slowdown,
        verdict,
        machine: Some(*shift),
        raw_ratio: Some(d.exp()),
        tracking: Some(tracking),
    })
}

/// The variance of the test's log ratio `d` before the machine's move is
/// taken out: `se_cur² + se_base²/R + σ_r²·(1 + 1/R)` over the baseline's
/// `R` runs, `σ_r` the residual spread `sd`.
fn residual_var(baseline: &BaselineEstimate, current: &RunEstimate, sd: f64) -> f64 {
    let runs = baseline.runs as f64;
    current.log_se().powi(2)
        + baseline.within_log_se.powi(2) / runs
        + sd.powi(2) * (1.0 + 1.0 / runs)
}

/// The verdict on the interval `ci` of the code's change and the ends
/// `d_low`, `d_high` of its log: only a significant change beyond the
/// `tolerance` at the end nearer 0 is a regression or an improvement.
fn verdict_between(ci: &Interval, d_low: f64, d_high: f64, tolerance: f64) -> Outcome {
    if ci.low > 1.0 {
        if d_low > tolerance.ln_1p() {
            Outcome::Regressed
        } else {
            Outcome::SlowerWithinTolerance
        }
    } else if ci.high < 1.0 {
        if d_high < -tolerance.ln_1p() {
            Outcome::Improved
        } else {
            Outcome::FasterWithinTolerance
        }
    } else {
        Outcome::NoSignificantChange
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::compare::compare;
    use crate::baseline::compare::inputs::test_run as run;

    fn rule() -> RegressionRule {
        RegressionRule::new(0.95, 0.05)
            .unwrap()
            .with_prior(Spread { sd: 0.02, df: 4.0 })
            .unwrap()
            .prior_as_floor(false)
    }

    fn shift(ratio: f64) -> MachineShift {
        MachineShift {
            ratio,
            log_se: 0.001,
        }
    }

    fn base() -> BaselineEstimate {
        BaselineEstimate::from_runs(&[run(100.0, 99.9, 100.1)]).unwrap()
    }

    fn tight(p: f64) -> RunEstimate {
        run(p, p * 0.999, p * 1.001)
    }

    #[test]
    fn an_unmoved_machine_gives_the_rule_without_a_reference() {
        let with = compare_with_reference(
            &base(),
            &tight(112.0),
            &shift(1.0),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap();
        let without = compare(&base(), &tight(112.0), &rule().prior_as_floor(false)).unwrap();
        assert!((with.ratio - without.ratio).abs() < 1e-12);
        assert!((with.ci.low / without.ci.low - 1.0).abs() < 1e-3);
        assert_eq!(with.verdict, Outcome::Regressed);
        assert!((with.raw_ratio.unwrap() - 1.12).abs() < 1e-12);
    }

    #[test]
    fn a_slower_machine_explains_a_slower_test() {
        // The machine is 15% slower now and so is the test: the code did
        // not change. Without the reference, a 2% spread fails it.
        let c = compare_with_reference(
            &base(),
            &tight(115.0),
            &shift(1.15),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap();
        assert_eq!(c.verdict, Outcome::NoSignificantChange, "{c:?}");
        assert!(c.ci.low < 1.0 && c.ci.high > 1.14, "{:?}", c.ci);
        let raw = compare(&base(), &tight(115.0), &rule()).unwrap();
        assert_eq!(raw.verdict, Outcome::Regressed);
        // A 15% slowdown of the code on top is still caught.
        let c = compare_with_reference(
            &base(),
            &tight(115.0 * 1.15),
            &shift(1.15),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap();
        assert_eq!(c.verdict, Outcome::Regressed, "{c:?}");
    }

    #[test]
    fn a_faster_machine_never_makes_an_unchanged_test_fail() {
        // The machine is 15% faster now; a test bound by memory does not
        // follow it and reads what it read. Assuming it followed would
        // read +18%; the rule does not assume it.
        let c = compare_with_reference(
            &base(),
            &tight(100.0),
            &shift(0.85),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap();
        assert!(!c.verdict.fails(), "{c:?}");
        assert!(c.ci.low < 1.0 && c.ci.high > 1.17, "{:?}", c.ci);
    }

    #[test]
    fn the_minimum_detectable_slowdown_grows_by_the_machines_move() {
        let still = compare_with_reference(
            &base(),
            &tight(100.0),
            &shift(1.0),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap();
        let moved = compare_with_reference(
            &base(),
            &tight(100.0),
            &shift(0.9),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap();
        let grown =
            (1.0 + moved.min_detectable_slowdown).ln() - (1.0 + still.min_detectable_slowdown).ln();
        assert!((grown - 0.9f64.ln().abs()).abs() < 0.002, "{grown}");
    }

    #[test]
    fn bad_shifts_are_errors_that_name_the_input() {
        let err = compare_with_reference(
            &base(),
            &tight(100.0),
            &shift(0.0),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("reference ratio"), "{err}");
        let nan = MachineShift {
            ratio: 1.0,
            log_se: f64::NAN,
        };
        let err = compare_with_reference(&base(), &tight(100.0), &nan, Tracking::UNKNOWN, &rule())
            .unwrap_err();
        assert!(err.to_string().contains("standard error"), "{err}");
        let then = run(10.0, 9.9, 10.1);
        let s = MachineShift::between(&then, &run(11.0, 10.9, 11.1)).unwrap();
        assert!((s.ratio - 1.1).abs() < 1e-12 && s.log_se > 0.0);
    }

    #[test]
    fn a_recording_across_machine_states_measures_how_much_a_test_follows() {
        // References 0%, +16%, 0%, +16%, +8%: a test that follows fully,
        // one that follows a third, and one recorded on a still machine.
        let refs = [10.0, 11.6, 10.0, 11.6, 10.8];
        let follows = [100.0, 116.2, 100.3, 115.8, 108.1];
        let fit = fit_runs(&follows, &refs).unwrap();
        let t = fit.tracking;
        assert!(t.low > 0.85 && t.high < 1.15, "{t:?}");
        assert!(fit.residual.sd < 0.005 && fit.residual.df == 3.0, "{fit:?}");
        let third: Vec<f64> = refs
            .iter()
            .zip([0.2, -0.1, 0.0, 0.1, -0.2])
            .map(|(r, e): (&f64, f64)| 100.0 * (r / 10.0).powf(1.0 / 3.0) * (1.0 + e / 100.0))
            .collect();
        let t = fit_runs(&third, &refs).unwrap().tracking;
        assert!(t.low > 0.2 && t.high < 0.5, "{t:?}");
        // A still machine: no tracking, and the spread of the runs each
        // over its reference (here the test's own 6.6% spread).
        let still = fit_runs(&follows, &[10.0, 10.01, 10.0, 9.99, 10.0]).unwrap();
        assert_eq!(still.tracking, Tracking::UNKNOWN);
        assert!((still.residual.sd - 0.074).abs() < 0.01, "{still:?}");
        assert_eq!(still.residual.df, 4.0);
        let two = fit_runs(&follows[..2], &refs[..2]).unwrap();
        assert_eq!((two.tracking, two.residual.df), (Tracking::UNKNOWN, 1.0));
        assert!(fit_runs(&follows[..1], &refs[..1]).is_none());
        assert!(fit_runs(&follows, &refs[..4]).is_none());
        // Known to follow: a slower machine now with a faster test reads
        // the code's own change, and the interval is no wider for it.
        let known = Tracking {
            low: 0.95,
            high: 1.05,
        };
        let c = compare_with_reference(&base(), &tight(90.0 * 1.10), &shift(0.90), known, &rule())
            .unwrap();
        assert_eq!(c.verdict, Outcome::Regressed, "{c:?}");
        let blind = compare_with_reference(
            &base(),
            &tight(90.0 * 1.10),
            &shift(0.90),
            Tracking::UNKNOWN,
            &rule(),
        )
        .unwrap();
        assert!(!blind.verdict.fails(), "{blind:?}");
    }
}
