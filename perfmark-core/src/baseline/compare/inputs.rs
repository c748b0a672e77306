//! What the regression rule compares: one run's estimate, and the baseline
//! that one or more recorded runs reduce to.

use serde::{Deserialize, Serialize};

use super::{check_time, CompareError};
use crate::stats::dist::{normal_quantile, t_quantile, upper_tail_probability};
use crate::stats::summary::{geometric_mean, mean, sd_about};
use crate::stats::Interval;

/// One process's estimate of a test's time per iteration as the rule takes
/// it: the point in ns/iter and its within-run confidence interval, checked
/// for the log scale (a positive time, an ordered interval). Made from the
/// current run's [`crate::stats::Estimate`] or from a stored baseline's
/// estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunEstimate {
    /// The point estimate, in nanoseconds per iteration; must be positive and
    /// finite for any comparison.
    pub point_ns: f64,
    /// Its within-run confidence interval, in nanoseconds per iteration
    /// (covering the run's worker processes when it measured some).
    pub ci: Interval,
    /// The spread between the processes that measured this run, when it
    /// measured the test in worker processes too (`crate::processes`): the
    /// rule pools it with the baseline's and the prior
    /// ([`super::RegressionRule::test_spread_with`]).
    pub processes: Option<Spread>,
    /// The degrees of freedom of the t quantile the interval was made with
    /// (an interval combined over worker processes); `None`: a
    /// normal-theory interval.
    pub df: Option<f64>,
}

impl RunEstimate {
    /// An estimate from its point (ns/iter) and within-run interval.
    ///
    /// # Errors
    ///
    /// When the point is not positive and finite, the interval's confidence
    /// is not in (0, 1), or its ends are NaN or reversed.
    pub fn new(point_ns: f64, ci: Interval) -> Result<Self, CompareError> {
        let estimate = RunEstimate {
            point_ns,
            ci,
            processes: None,
            df: None,
        };
        estimate.check("estimate")?;
        Ok(estimate)
    }

    /// The same estimate, with the spread between the processes that
    /// measured it.
    #[must_use]
    pub fn with_processes(mut self, processes: Option<Spread>) -> Self {
        self.processes = processes;
        self
    }

    /// The same estimate, its interval made with a t quantile on `df`
    /// degrees of freedom (`None` or not finite: a normal-theory interval).
    #[must_use]
    pub fn with_df(mut self, df: Option<f64>) -> Self {
        self.df = df.filter(|d| d.is_finite() && *d >= 1.0);
        self
    }

    /// The standard error of `ln(point_ns)` implied by the within-run
    /// interval on the log scale: `(ln high − ln low) / (2·q)` with `q` the
    /// two-sided quantile the interval was made with, Student's t on its
    /// degrees of freedom where it has them ([`RunEstimate::with_df`]),
    /// else the normal one. Reading a t interval back with the normal
    /// quantile would inflate its standard error by `t/z` (1.42 for 4 df at
    /// 95%, 2.62 at 99.9%).
    ///
    /// An interval whose low end is not positive falls back to the relative
    /// half-width, `(high − low) / (2·z·point)` (the delta method); a
    /// degenerate interval `[x, x]` gives 0; an interval with an infinite end
    /// gives `f64::INFINITY` (nothing can then be significant). The result
    /// is unspecified (possibly NaN) for an estimate that [`RunEstimate::new`]
    /// would reject.
    pub fn log_se(&self) -> f64 {
        let Interval {
            low,
            high,
            confidence,
        } = self.ci;
        if !(low.is_finite() && high.is_finite()) {
            return f64::INFINITY;
        }
        let p = upper_tail_probability(confidence);
        let z = self
            .df
            .map_or_else(|| normal_quantile(p), |df| t_quantile(p, df));
        if low > 0.0 {
            (high.ln() - low.ln()) / (2.0 * z)
        } else {
            (high - low) / (2.0 * z * self.point_ns)
        }
    }

    pub(super) fn check(&self, what: &str) -> Result<(), CompareError> {
        check_time(self.point_ns, what)?;
        let Interval {
            low,
            high,
            confidence,
        } = self.ci;
        if !(confidence > 0.0 && confidence < 1.0) {
            return Err(CompareError::new(format!(
                "{what}: the interval's confidence must be strictly between 0 and 1; \
                 got {confidence}"
            )));
        }
        if low.is_nan() || high.is_nan() || low > high {
            return Err(CompareError::new(format!(
                "{what}: the interval must have ordered, non-NaN ends; got [{low}, {high}]"
            )));
        }
        Ok(())
    }
}

/// A between-run spread: how much the estimate of a test moves from one
/// process to another, with the degrees of freedom it is known to. The one
/// value type of every such spread: a test's measured spread
/// ([`between_run_spread`], `runs − 1` df), the prior a rule starts from
/// ([`super::RegressionRule::prior`], its weight in pseudo-degrees of
/// freedom), a machine's prior estimated from many tests
/// ([`super::moderated_prior`]), and the spread in effect for one test
/// ([`super::TestSpread`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// Standard deviation of the log per-process estimates (`ln(ns/iter)`),
    /// i.e. approximately the relative spread (0.02 ≈ 2%). It includes the
    /// within-run noise of those estimates.
    pub sd: f64,
    /// Its degrees of freedom: `runs − 1` for one test's runs; a prior's
    /// weight (`ν₀`, `d₀`) in pseudo-degrees of freedom, `f64::INFINITY`
    /// for a prior taken as known.
    pub df: f64,
}

/// The between-run spread of `R` per-process estimates of one test (ns/iter
/// each): the sample standard deviation of their logarithms, with `R − 1`
/// degrees of freedom. This is what `cargo perfmark baseline --runs N` records
/// beside the baseline. `Ok(None)` for a single estimate: one run measures
/// no spread (and the rule then uses the prior, never zero).
///
/// # Errors
///
/// When `points_ns` is empty or holds a value that is not positive and
/// finite.
pub fn between_run_spread(points_ns: &[f64]) -> Result<Option<Spread>, CompareError> {
    if points_ns.is_empty() {
        return Err(CompareError::new(
            "between-run spread: at least one per-process estimate is needed; got none".into(),
        ));
    }
    let mut logs = Vec::with_capacity(points_ns.len());
    for &x in points_ns {
        check_time(x, "between-run spread")?;
        logs.push(x.ln());
    }
    if logs.len() < 2 {
        return Ok(None);
    }
    Ok(Some(Spread {
        sd: sd_about(&logs, mean(&logs)),
        df: (logs.len() - 1) as f64,
    }))
}

/// A test's stored baseline reduced to what the regression rule needs: the
/// baseline's point estimate and the two parts of its uncertainty (within
/// each recorded run, and between runs). The counterpart of the current
/// run's [`RunEstimate`].
///
/// Build it with [`BaselineEstimate::from_runs`] from the per-process
/// estimates; a store that keeps only the aggregate can fill the fields
/// directly, keeping their contracts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BaselineEstimate {
    /// The baseline point: the geometric mean of the per-process points, in
    /// ns/iter (for one run, its point).
    pub point_ns: f64,
    /// How many processes the baseline was recorded over, `R ≥ 1`.
    pub runs: usize,
    /// The baseline's within-run log standard error: the root mean square
    /// of the per-process ones ([`RunEstimate::log_se`]) as
    /// [`BaselineEstimate::from_runs`] computes it. A store that keeps one
    /// run's interval fills in that run's (the stored baseline: its median
    /// run's, see `baseline::check`).
    pub within_log_se: f64,
    /// The measured between-run spread ([`between_run_spread`]); `None` when
    /// `runs == 1`.
    pub spread: Option<Spread>,
    /// The spread between the processes that measured the recording (each
    /// run's runner process and its workers, pooled over the runs); `None`
    /// when it was measured in one process per run.
    pub processes: Option<Spread>,
}

impl BaselineEstimate {
    /// Reduces `R ≥ 1` per-process estimates of one test: geometric-mean
    /// point, RMS within-run log standard error, and between-run spread.
    ///
    /// # Errors
    ///
    /// When `runs` is empty or an estimate is invalid (see
    /// [`RunEstimate::new`]).
    pub fn from_runs(runs: &[RunEstimate]) -> Result<Self, CompareError> {
        for run in runs {
            run.check("baseline run")?;
        }
        let points: Vec<f64> = runs.iter().map(|r| r.point_ns).collect();
        let spread = between_run_spread(&points)?;
        let count = runs.len() as f64;
        let mean_sq_se = runs.iter().map(|r| r.log_se().powi(2)).sum::<f64>() / count;
        Ok(BaselineEstimate {
            point_ns: geometric_mean(&points),
            runs: runs.len(),
            within_log_se: mean_sq_se.sqrt(),
            spread,
            processes: None,
        })
    }

    pub(super) fn check(&self) -> Result<(), CompareError> {
        check_time(self.point_ns, "baseline")?;
        if self.runs == 0 {
            return Err(CompareError::new(
                "baseline: the number of runs must be at least 1; got 0".into(),
            ));
        }
        if self.within_log_se.is_nan() || self.within_log_se < 0.0 {
            return Err(CompareError::new(format!(
                "baseline: the within-run log standard error must be 0 or more; got {}",
                self.within_log_se
            )));
        }
        if let Some(spread) = self.spread {
            if !(spread.sd >= 0.0 && spread.sd.is_finite() && spread.df > 0.0) {
                return Err(CompareError::new(format!(
                    "baseline: the between-run spread must have a finite sd >= 0 and df > 0; \
                     got sd {} with df {}",
                    spread.sd, spread.df
                )));
            }
        }
        Ok(())
    }
}

/// A run estimate at 95% for the tests of `compare/`.
#[cfg(test)]
pub(crate) fn test_run(point_ns: f64, low: f64, high: f64) -> RunEstimate {
    RunEstimate::new(
        point_ns,
        Interval {
            low,
            high,
            confidence: 0.95,
        },
    )
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_run as run;

    #[test]
    fn log_se_reads_the_interval() {
        let z = normal_quantile(0.975);
        let e = run(100.0, 100.0 * (-0.01 * z).exp(), 100.0 * (0.01 * z).exp());
        assert!((e.log_se() - 0.01).abs() < 1e-12);
        assert_eq!(run(5.0, 5.0, 5.0).log_se(), 0.0);
        // A low end at zero falls back to the relative half-width.
        let e = run(1.0, 0.0, 2.0);
        assert!((e.log_se() - 1.0 / z).abs() < 1e-12);
        let e = run(1.0, 0.5, f64::INFINITY);
        assert_eq!(e.log_se(), f64::INFINITY);
    }

    #[test]
    fn spread_is_the_sd_of_logs() {
        let e = std::f64::consts::E;
        let s = between_run_spread(&[1.0, e, e * e]).unwrap().unwrap();
        assert!((s.sd - 1.0).abs() < 1e-12 && s.df == 2.0);
        assert_eq!(between_run_spread(&[3.0]).unwrap(), None);
        assert!(between_run_spread(&[]).is_err());
        assert!(between_run_spread(&[1.0, -1.0]).is_err());
    }

    #[test]
    fn baseline_uses_the_geometric_mean() {
        let b = BaselineEstimate::from_runs(&[run(100.0, 99.0, 101.0), run(400.0, 396.0, 404.0)])
            .unwrap();
        assert!((b.point_ns - 200.0).abs() < 1e-9);
        assert_eq!(b.runs, 2);
        assert!((b.spread.unwrap().sd - 4f64.ln() / 2f64.sqrt()).abs() < 1e-12);
        assert!(b.within_log_se > 0.0);
    }

    #[test]
    fn invalid_estimates_are_errors_that_say_what_is_accepted() {
        let ci = Interval {
            low: 1.0,
            high: 2.0,
            confidence: 0.95,
        };
        let err = RunEstimate::new(0.0, ci).unwrap_err();
        assert!(err.to_string().contains("positive and finite"), "{err}");
        let err = RunEstimate::new(
            1.5,
            Interval {
                low: 2.0,
                high: 1.0,
                ..ci
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("ordered"), "{err}");
        assert!(BaselineEstimate::from_runs(&[]).is_err());
    }
}
