//! How much a test's estimate moves between processes on this machine, as
//! the run knows it: the one source both the regression check and the
//! budget check's near-the-line note read (docs/regression-rule.md, "Where
//! the between-run spread comes from").
//!
//! The prior `σ₀` of the run, first found first used:
//! 1. the user's setting, `--between-run-sd 3%` / `PERFMARK_BETWEEN_RUN_SD`;
//! 2. the spread recorded with the baseline file by `cargo xtask baseline
//!    --runs N`, when recorded on this machine ([`RecordedSpread`]);
//! 3. [`DEFAULT_BETWEEN_RUN_SD`].
//!
//! A recording never takes the prior below the default: runs recorded
//! minutes apart do not see the drift of hours and days that lies between
//! a baseline and the run that checks it, and the default was calibrated
//! over an hour (docs/regression-rule.md, "Calibrating the prior on a
//! machine"). Only the user's setting can go below it.
//!
//! A test whose stored baseline was recorded over several processes on
//! this machine pools its own measured spread with that prior
//! ([`RegressionRule::effective_spread`]), and the prior is a floor: a test
//! whose few runs happened to agree never gets a spread below the
//! machine's. Every other test uses the prior.

use serde::{Deserialize, Serialize};

use crate::baseline::{BaselineFile, Entry, Fingerprint, RecordedSpread};
use crate::stats::compare::{RegressionRule, DEFAULT_BETWEEN_RUN_SD, DEFAULT_PRIOR_DF};

use super::regression::baseline_estimate;

/// Where the run's prior between-run spread came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum PriorSource {
    /// [`DEFAULT_BETWEEN_RUN_SD`]: nothing was measured or set.
    Default,
    /// The user's `--between-run-sd` / `PERFMARK_BETWEEN_RUN_SD`.
    Setting,
    /// The baseline file's [`RecordedSpread`], measured on this machine.
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

/// The run's prior between-run spread: `σ₀` with its weight `ν₀`, and its
/// source (`report.json`'s top-level `between_run_prior`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MachinePrior {
    /// `σ₀`, the sd of log estimates between processes (0.075 ≈ 7.5%).
    pub sd: f64,
    /// `ν₀`, its weight in pseudo-degrees of freedom.
    pub df: f64,
    /// Where it came from.
    pub source: PriorSource,
}

impl MachinePrior {
    /// The prior of a run: the user's `setting` (a fraction) if any, else
    /// the spread recorded in `file` if it was recorded on the machine
    /// `here` describes, else the default.
    pub fn resolve(
        setting: Option<f64>,
        file: Option<&BaselineFile>,
        here: &Fingerprint,
    ) -> MachinePrior {
        if let Some(sd) = setting {
            return MachinePrior {
                sd,
                df: DEFAULT_PRIOR_DF,
                source: PriorSource::Setting,
            };
        }
        let recorded = file
            .and_then(BaselineFile::between_run_spread)
            .filter(|r| here.compare(&r.fingerprint).is_same_machine());
        match recorded {
            Some(RecordedSpread {
                sd_log,
                df,
                tests,
                runs,
                ..
            }) => MachinePrior {
                sd: sd_log.max(DEFAULT_BETWEEN_RUN_SD),
                df: *df,
                source: PriorSource::Recorded {
                    tests: *tests,
                    runs: *runs,
                    recorded_sd: *sd_log,
                },
            },
            None => MachinePrior {
                sd: DEFAULT_BETWEEN_RUN_SD,
                df: DEFAULT_PRIOR_DF,
                source: PriorSource::Default,
            },
        }
    }

    /// The prior in words, for the header: `between-run sd 2.0% (default;
    /// set --between-run-sd or record with cargo xtask baseline)`.
    pub fn header(&self) -> String {
        let source = match self.source {
            PriorSource::Default => {
                "perfmark's default: record this machine's with `cargo xtask baseline --runs N` \
                 or set --between-run-sd"
                    .to_owned()
            }
            PriorSource::Setting => "set by --between-run-sd / PERFMARK_BETWEEN_RUN_SD".to_owned(),
            PriorSource::Recorded {
                tests,
                runs,
                recorded_sd,
            } if recorded_sd < self.sd => format!(
                "perfmark's default: this machine recorded {:.1}% over {tests} tests × {runs} \
                 processes, and a recording never goes below the default; set \
                 --between-run-sd to go lower",
                recorded_sd * 100.0
            ),
            PriorSource::Recorded { tests, runs, .. } => format!(
                "recorded on this machine over {tests} tests × {runs} processes, weight {:.1} df",
                self.df
            ),
        };
        format!("between-run sd {:.1}% ({source})", self.sd * 100.0)
    }

    /// The regression rule at `confidence` and `tolerance` with this prior,
    /// as a floor.
    pub fn rule(
        &self,
        confidence: f64,
        tolerance: f64,
    ) -> Result<RegressionRule, crate::stats::compare::CompareError> {
        Ok(RegressionRule::new(confidence, tolerance)?
            .with_prior(self.sd, self.df)?
            .prior_as_floor(true))
    }
}

/// The between-run spread of each test of a run: the run's
/// [`MachinePrior`], pooled with a test's own measured spread where its
/// stored baseline has one.
#[derive(Debug, Clone, Copy)]
pub struct BetweenRun<'a> {
    prior: MachinePrior,
    file: Option<&'a BaselineFile>,
    here: &'a Fingerprint,
}

impl<'a> BetweenRun<'a> {
    /// The spreads of a run with `prior`, its baselines `file` (none in
    /// compare mode, with `--no-baseline`, or when there is no file) and
    /// this machine's fingerprint `here`.
    pub fn new(prior: MachinePrior, file: Option<&'a BaselineFile>, here: &'a Fingerprint) -> Self {
        BetweenRun { prior, file, here }
    }

    /// The run's prior.
    pub fn prior(&self) -> &MachinePrior {
        &self.prior
    }

    /// The baseline entry of `test` when it may be used to fail it: stored,
    /// and recorded on this machine.
    pub fn usable_entry(&self, test: &str) -> Option<&'a Entry> {
        let entry = self.file?.get(test)?;
        self.here
            .compare(entry.fingerprint())
            .is_same_machine()
            .then_some(entry)
    }

    /// The between-run sd of `test`'s estimate (`σ_b`, a fraction): the
    /// spread the regression rule uses against its stored baseline when it
    /// has a usable one, the prior otherwise.
    pub fn sd_of(&self, test: &str) -> f64 {
        let (Some(entry), Ok(rule)) = (self.usable_entry(test), self.prior.rule(0.95, 0.0)) else {
            return self.prior.sd;
        };
        match baseline_estimate(entry) {
            Ok(baseline) => rule.effective_spread(&baseline).sd,
            Err(_) => self.prior.sd,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_wins_then_the_recording_then_the_default() {
        let here = Fingerprint::current("rustc", "release", "0.1.0");
        let default = MachinePrior::resolve(None, None, &here);
        assert_eq!(default.sd, DEFAULT_BETWEEN_RUN_SD);
        assert_eq!(default.source, PriorSource::Default);
        let words = format!(
            "between-run sd {:.1}% (perfmark's default",
            DEFAULT_BETWEEN_RUN_SD * 100.0
        );
        assert!(default.header().starts_with(&words), "{}", default.header());
        let set = MachinePrior::resolve(Some(0.035), None, &here);
        assert_eq!((set.sd, set.df), (0.035, DEFAULT_PRIOR_DF));
        assert_eq!(set.source, PriorSource::Setting);
        let spreads = BetweenRun::new(set, None, &here);
        assert_eq!(spreads.sd_of("anything"), 0.035);
        assert!(spreads.usable_entry("anything").is_none());
    }

    /// Baselines of three tests over five processes on `here`, whose
    /// estimates step by `steps` (log scale) from one process to the next.
    fn recording(here: &Fingerprint, steps: [(&str, f64); 3]) -> Vec<Entry> {
        use crate::baseline::{recorded_for_test, StoredEstimate};
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
                recorded_for_test(&runs)
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
        let prior = MachinePrior::resolve(None, Some(&file), &here);
        assert_eq!(prior.sd, DEFAULT_BETWEEN_RUN_SD);
        assert!(
            prior
                .header()
                .contains("a recording never goes below the default"),
            "{}",
            prior.header()
        );
        // Every test, however well its runs agreed, gets at least the prior.
        let spreads = BetweenRun::new(prior, Some(&file), &here);
        for test in ["a", "b", "c"] {
            assert_eq!(spreads.sd_of(test), DEFAULT_BETWEEN_RUN_SD);
        }
        // The user may go lower, deliberately.
        let set = MachinePrior::resolve(Some(0.005), Some(&file), &here);
        assert_eq!(BetweenRun::new(set, Some(&file), &here).sd_of("a"), 0.005);
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

        let prior = MachinePrior::resolve(None, Some(&file), &here);
        assert_eq!(
            prior.source,
            PriorSource::Recorded {
                tests: 3,
                runs: 5,
                recorded_sd: recorded.sd_log
            }
        );
        assert!(recorded.sd_log > DEFAULT_BETWEEN_RUN_SD);
        assert_eq!((prior.sd, prior.df), (recorded.sd_log, recorded.df));
        // The setting still wins; another machine's recording is not used.
        let set = MachinePrior::resolve(Some(0.05), Some(&file), &here);
        assert_eq!(set.source, PriorSource::Setting);
        let mut elsewhere = here.clone();
        elsewhere.cpu_model = "another CPU".to_owned();
        let other = MachinePrior::resolve(None, Some(&file), &elsewhere);
        assert_eq!(other.source, PriorSource::Default);

        // Each recorded test pools its own spread with the prior, which is
        // a floor: the noisier test gets the larger spread, the quieter
        // one the prior; an unknown test the prior.
        let spreads = BetweenRun::new(prior, Some(&file), &here);
        let (a, b) = (spreads.sd_of("a"), spreads.sd_of("b"));
        assert!(a == prior.sd && prior.sd < b, "{a} {} {b}", prior.sd);
        assert_eq!(spreads.sd_of("unknown"), prior.sd);
        assert!(BetweenRun::new(other, Some(&file), &elsewhere)
            .usable_entry("a")
            .is_none());
    }
}
