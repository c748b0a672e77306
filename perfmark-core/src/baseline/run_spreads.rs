//! How much a test's estimate moves between processes on this machine, as
//! the run knows it: the one source both the regression check and the
//! budget check's near-the-line note read (docs/design/regression-rule.md, "Where
//! the between-run spread comes from").
//!
//! The run's [`Prior`] `σ₀`, first found first used ([`PriorSource`]):
//! 1. the user's setting, `--between-run-sd 3%` / `PERFMARK_BETWEEN_RUN_SD`;
//! 2. the spread recorded with the baseline file by `cargo perfmark baseline
//!    --runs N`, when recorded on this machine
//!    ([`crate::baseline::RecordedSpread`]);
//! 3. [`DEFAULT_PRIOR`].
//!
//! A recording never takes the prior below the default: runs recorded
//! minutes apart do not see the drift of hours and days that lies between
//! a baseline and the run that checks it, and the default was calibrated
//! over an hour (docs/design/regression-rule.md, "Calibrating the prior on a
//! machine"). Only the user's setting can go below it.
//!
//! A test whose stored baseline was recorded over several processes on
//! this machine pools its own measured spread with that prior
//! ([`RegressionRule::test_spread`]), and the prior is a floor: a test
//! whose few runs happened to agree never gets a spread below the
//! machine's. Every other test uses the prior. [`RunSpreads`] answers for
//! each test of a run.
//!
//! Against a baseline with the machine-state reference the rule uses the
//! run's residual prior instead ([`Prior::residual`]: the setting, the
//! recording's residual, or [`DEFAULT_RESIDUAL_PRIOR`]), which a
//! recording may take below its default, and the residual spread and
//! tracking of the test's own runs.
//!
//! Imports go one way: the regression check uses this file, never the
//! reverse.

use serde::Serialize;

use crate::baseline::compare::{
    BaselineEstimate, CompareError, RegressionRule, RunEstimate, Spread, Tracking,
    DEFAULT_BETWEEN_RUN_SD, DEFAULT_PRIOR, DEFAULT_RESIDUAL_PRIOR, MIN_RESIDUAL_SD,
};
use crate::baseline::{BaselineFile, Entry, Fingerprint};
use crate::stats::geometric_mean;

/// Where the run's prior between-run spread came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum PriorSource {
    /// [`DEFAULT_PRIOR`]: nothing was measured or set.
    Default,
    /// The user's `--between-run-sd` / `PERFMARK_BETWEEN_RUN_SD`.
    Setting,
    /// The baseline file's [`crate::baseline::RecordedSpread`], measured on
    /// this machine.
    Recorded {
        /// Tests the recording pooled.
        tests: usize,
        /// Processes per test.
        runs: usize,
        /// The sd the recording measured; the prior is this or the
        /// default, whichever is larger.
        #[serde(default)]
        recorded_sd: f64,
    },
}

/// The run's prior between-run spread: `σ₀` with its weight `ν₀`, and
/// where it came from (`report.json`'s top-level `between_run_prior`, and
/// each test's `baseline.prior`: `sd`, `df`, `source`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Prior {
    /// `σ₀`, the sd of log estimates between processes (0.075 ≈ 7.5%), with
    /// its weight `ν₀` in pseudo-degrees of freedom.
    #[serde(flatten)]
    pub spread: Spread,
    /// Where it came from.
    pub source: PriorSource,
    /// The residual prior `σ_r` with its weight: the spread left once each
    /// run is divided by the machine-state reference measured beside it,
    /// which the rule uses instead of `σ₀` when the baseline and the run
    /// both have the reference (`baseline::compare::compare_with_reference`).
    /// The setting's sd, the recording's residual, or the default; reports
    /// written before it read the default.
    #[serde(default = "default_residual")]
    pub residual: Spread,
}

#[cfg(feature = "tool")]
fn default_residual() -> Spread {
    DEFAULT_RESIDUAL_PRIOR
}

impl Prior {
    /// The prior of a run: the user's `setting` (a fraction) if any, else
    /// the spread recorded in `file` if it was recorded on the machine
    /// `here` describes, else the default.
    pub fn resolve(setting: Option<f64>, file: Option<&BaselineFile>, here: &Fingerprint) -> Prior {
        if let Some(sd) = setting {
            let spread = Spread {
                sd,
                ..DEFAULT_PRIOR
            };
            return Prior {
                spread,
                source: PriorSource::Setting,
                residual: spread,
            };
        }
        let recorded = file
            .and_then(BaselineFile::between_run_spread)
            .filter(|r| here.compare(&r.fingerprint).is_comparable());
        match recorded {
            Some(r) => Prior {
                // A recording below the default does not lower the prior
                // without the reference, and does not lend it its weight
                // either: the default with the default's weight, so that a
                // quiet recording never makes the rule more aggressive.
                spread: if r.sd_log >= DEFAULT_BETWEEN_RUN_SD {
                    r.spread()
                } else {
                    DEFAULT_PRIOR
                },
                source: PriorSource::Recorded {
                    tests: r.tests,
                    runs: r.runs,
                    recorded_sd: r.sd_log,
                },
                // With the reference, what the machine's drift adds is
                // measured at each comparison: the recording's residual
                // stands, even below the default.
                residual: r.residual.map_or(DEFAULT_RESIDUAL_PRIOR, |s| Spread {
                    sd: s.sd.max(MIN_RESIDUAL_SD),
                    df: s.df,
                }),
            },
            None => Prior {
                spread: DEFAULT_PRIOR,
                source: PriorSource::Default,
                residual: DEFAULT_RESIDUAL_PRIOR,
            },
        }
    }

    /// The regression rule at `confidence` and `tolerance` with this prior,
    /// as a floor.
    ///
    /// # Errors
    ///
    /// When the confidence, the tolerance or the prior is out of the rule's
    /// range ([`RegressionRule::new`], [`RegressionRule::with_prior`]).
    pub fn rule(&self, confidence: f64, tolerance: f64) -> Result<RegressionRule, CompareError> {
        Ok(RegressionRule::new(confidence, tolerance)?
            .with_prior(self.spread)?
            .prior_as_floor(true))
    }

    /// The rule with the machine-state reference at `confidence` and
    /// `tolerance`: the residual prior, pooled with a test's own residual
    /// spread and not a floor (a recording may lower it; the rule keeps
    /// [`MIN_RESIDUAL_SD`] as its own floor).
    ///
    /// # Errors
    ///
    /// As [`Prior::rule`].
    pub fn residual_rule(
        &self,
        confidence: f64,
        tolerance: f64,
    ) -> Result<RegressionRule, CompareError> {
        Ok(RegressionRule::new(confidence, tolerance)?
            .with_prior(self.residual)?
            .prior_as_floor(false))
    }
}

/// The between-run spread of each test of a run: the run's [`Prior`],
/// pooled with a test's own measured spread where its stored baseline has
/// one.
#[derive(Debug, Clone, Copy)]
pub struct RunSpreads<'a> {
    prior: Prior,
    file: Option<&'a BaselineFile>,
    here: &'a Fingerprint,
}

impl<'a> RunSpreads<'a> {
    /// The spreads of a run with `prior`, its baselines `file` (none in
    /// compare mode, with `--no-baseline`, or when there is no file) and
    /// this machine's fingerprint `here`.
    pub fn new(prior: Prior, file: Option<&'a BaselineFile>, here: &'a Fingerprint) -> Self {
        RunSpreads { prior, file, here }
    }

    /// The run's prior.
    pub fn prior(&self) -> &Prior {
        &self.prior
    }

    /// The baseline entry of `test` when it may be used to fail it: stored,
    /// and recorded on this machine.
    pub fn usable_entry(&self, test: &str) -> Option<&'a Entry> {
        let entry = self.file?.get(test)?;
        self.here
            .compare(entry.fingerprint())
            .is_comparable()
            .then_some(entry)
    }

    /// The between-run sd of `test`'s estimate (`σ_b`, a fraction): the
    /// spread the regression rule uses against its stored baseline when it
    /// has a usable one, the prior otherwise.
    pub fn sd_of(&self, test: &str) -> f64 {
        let (Some(entry), Ok(rule)) = (self.usable_entry(test), self.prior.rule(0.95, 0.0)) else {
            return self.prior.spread.sd;
        };
        match baseline_estimate(entry) {
            Ok(baseline) => rule.test_spread(&baseline).spread.sd,
            Err(_) => self.prior.spread.sd,
        }
    }
}

/// What the regression rule needs from a stored entry: for a baseline
/// recorded over several processes, the geometric mean of their estimates
/// and their measured spread; for one process, its estimate alone (the rule
/// then assumes the prior spread, never zero).
///
/// The within-run error is the stored interval's, which for a merged entry
/// is the median run's (a merged entry keeps no other run's interval): it
/// stands in for the root mean square over the runs that
/// [`BaselineEstimate::from_runs`] would compute (docs/design/regression-rule.md).
///
/// # Errors
///
/// When the stored estimate is not a positive time with an ordered
/// interval ([`RunEstimate::new`]).
pub fn baseline_estimate(entry: &Entry) -> Result<BaselineEstimate, CompareError> {
    let e = entry.estimate();
    let stored = RunEstimate::new(e.ns_per_iter, e.interval())?.with_df(e.df);
    let processes = entry.processes().map(|p| Spread {
        sd: p.sd_log,
        df: p.df,
    });
    match entry.between_runs() {
        Some(between) if between.runs >= 2 => Ok(BaselineEstimate {
            point_ns: geometric_mean(&between.run_estimates_ns),
            runs: between.runs,
            within_log_se: stored.log_se(),
            spread: Some(Spread {
                sd: between.sd_log,
                df: (between.runs - 1) as f64,
            }),
            processes,
        }),
        _ => Ok(BaselineEstimate {
            processes,
            ..BaselineEstimate::from_runs(&[stored])?
        }),
    }
}

/// [`baseline_estimate`] for the rule with the machine-state reference,
/// and how much the test follows the machine: the same point and
/// within-run error, with the runs' residual spread
/// ([`crate::baseline::BetweenRuns::residual_fit`]) in place of their raw
/// spread; no spread and unknown tracking when the runs had no references.
///
/// # Errors
///
/// As [`baseline_estimate`].
pub fn residual_baseline_estimate(
    entry: &Entry,
) -> Result<(BaselineEstimate, Tracking), CompareError> {
    let mut estimate = baseline_estimate(entry)?;
    let fit = entry.between_runs().and_then(|b| b.residual_fit());
    estimate.spread = fit.map(|f| f.residual);
    Ok((estimate, fit.map_or(Tracking::UNKNOWN, |f| f.tracking)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::compare::DEFAULT_PRIOR_DF;
    use crate::baseline::RecordedSpread;

    #[test]
    fn the_setting_wins_then_the_recording_then_the_default() {
        let here = Fingerprint::current("rustc", "release", "0.1.0");
        let default = Prior::resolve(None, None, &here);
        assert_eq!(default.spread.sd, DEFAULT_BETWEEN_RUN_SD);
        assert_eq!(default.source, PriorSource::Default);
        let words = format!(
            "between-run sd {:.1}% (perfmark's default",
            DEFAULT_BETWEEN_RUN_SD * 100.0
        );
        assert!(default.header().starts_with(&words), "{}", default.header());
        let set = Prior::resolve(Some(0.035), None, &here);
        assert_eq!((set.spread.sd, set.spread.df), (0.035, DEFAULT_PRIOR_DF));
        assert_eq!(set.source, PriorSource::Setting);
        let spreads = RunSpreads::new(set, None, &here);
        assert_eq!(spreads.sd_of("anything"), 0.035);
        assert!(spreads.usable_entry("anything").is_none());
    }

    /// Baselines of three tests over five processes on `here`, whose
    /// estimates step by `steps` (log scale) from one process to the next.
    fn recording(here: &Fingerprint, steps: [(&str, f64); 3]) -> Vec<Entry> {
        use crate::baseline::{Entry, StoredEstimate};
        steps
            .iter()
            .map(|&(name, step)| {
                let runs: Vec<Entry> = [-2.0, -1.0, 0.0, 1.0, 2.0]
                    .iter()
                    .map(|k: &f64| {
                        let ns = 100.0 * (k * step).exp();
                        let estimate =
                            StoredEstimate::new("median", ns, (ns * 0.999, ns * 1.001), 0.95);
                        Entry::new(name, estimate, vec![ns], 1, here.clone())
                    })
                    .collect();
                Entry::median_run_of(&runs)
            })
            .collect()
    }

    #[test]
    fn a_recording_below_the_default_never_lowers_the_prior() {
        use crate::baseline::BaselineStore;
        let here = Fingerprint::current("rustc", "release", "0.1.0");
        let entries = recording(&here, [("a", 0.002), ("b", 0.004), ("c", 0.003)]);
        let recorded = RecordedSpread::from_entries(&entries).unwrap();
        assert!(recorded.sd_log < DEFAULT_BETWEEN_RUN_SD / 2.0);
        let dir = std::env::temp_dir().join(format!("perfmark-spread-low-{}", std::process::id()));
        let file = BaselineStore::new(&dir)
            .save_recording("perf", &entries, &recorded)
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let prior = Prior::resolve(None, Some(&file), &here);
        assert_eq!(prior.spread.sd, DEFAULT_BETWEEN_RUN_SD);
        assert!(
            prior
                .header()
                .contains("a recording never goes below the default"),
            "{}",
            prior.header()
        );
        // Every test, however well its runs agreed, gets at least the prior.
        let spreads = RunSpreads::new(prior, Some(&file), &here);
        for test in ["a", "b", "c"] {
            assert_eq!(spreads.sd_of(test), DEFAULT_BETWEEN_RUN_SD);
        }
        // The user may go lower, deliberately.
        let set = Prior::resolve(Some(0.005), Some(&file), &here);
        assert_eq!(RunSpreads::new(set, Some(&file), &here).sd_of("a"), 0.005);
    }

    #[test]
    fn a_recording_on_this_machine_gives_the_prior_and_each_test_its_pooled_spread() {
        use crate::baseline::BaselineStore;
        let here = Fingerprint::current("rustc", "release", "0.1.0");
        let entries = recording(&here, [("a", 0.05), ("b", 0.15), ("c", 0.10)]);
        let recorded = RecordedSpread::from_entries(&entries).unwrap();
        let dir = std::env::temp_dir().join(format!("perfmark-spread-{}", std::process::id()));
        let file = BaselineStore::new(&dir)
            .save_recording("perf", &entries, &recorded)
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);

        let prior = Prior::resolve(None, Some(&file), &here);
        assert_eq!(
            prior.source,
            PriorSource::Recorded {
                tests: 3,
                runs: 5,
                recorded_sd: recorded.sd_log
            }
        );
        assert!(recorded.sd_log > DEFAULT_BETWEEN_RUN_SD);
        assert_eq!(
            (prior.spread.sd, prior.spread.df),
            (recorded.sd_log, recorded.df)
        );
        // The setting still wins; another machine's recording is not used.
        let set = Prior::resolve(Some(0.05), Some(&file), &here);
        assert_eq!(set.source, PriorSource::Setting);
        let mut elsewhere = here.clone();
        elsewhere.cpu_model = "another CPU".to_owned();
        let other = Prior::resolve(None, Some(&file), &elsewhere);
        assert_eq!(other.source, PriorSource::Default);

        // Each recorded test pools its own spread with the prior, which is
        // a floor: the noisier test gets the larger spread, the quieter
        // one the prior; an unknown test the prior.
        let spreads = RunSpreads::new(prior, Some(&file), &here);
        let (a, b) = (spreads.sd_of("a"), spreads.sd_of("b"));
        assert!(
            a == prior.spread.sd && prior.spread.sd < b,
            "{a} {} {b}",
            prior.spread.sd
        );
        assert_eq!(spreads.sd_of("unknown"), prior.spread.sd);
        assert!(RunSpreads::new(other, Some(&file), &elsewhere)
            .usable_entry("a")
            .is_none());
    }
}
