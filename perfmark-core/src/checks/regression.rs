//! The regression check against a stored baseline (DESIGN §1): fail when
//! the run is slower than the baseline with significance at the test's
//! confidence, the uncertainty including the between-process spread, and
//! by more than the tolerance. The rule itself is pure statistics
//! ([`crate::stats::compare`]); this file finds the test's entry, decides
//! whether it may be used at all (same machine, same statistic), and words
//! the outcome. The prior between-run spread comes from the run's
//! [`BetweenRun`] (a setting, the machine's recording, or the default).

use super::spread::{BetweenRun, MachinePrior};
use super::{resolution, Check, Finding, Record, Subject};
use crate::baseline::{BaselineFile, Entry, Fingerprint};
use crate::stats::compare::{
    self, BaselineEstimate, CompareError, Comparison, RunEstimate, Spread,
};
use crate::stats::geometric_mean;

/// A test's check against its stored baseline, as `report.json` keeps it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct BaselineCheck {
    /// The baseline file.
    pub path: String,
    /// Processes the baseline was recorded over.
    pub runs: usize,
    /// The regression rule's result, when the baseline was used.
    pub comparison: Option<Comparison>,
    /// Why the baseline was not used to fail (another machine, another
    /// statistic, an unusable estimate).
    pub not_used: Option<String>,
    /// Whether the baseline was not used for having been recorded on
    /// another machine: `not_used` then names both machines, a sentence the
    /// same for every test whose baseline came from there (the Markdown and
    /// HTML tables say it once).
    #[serde(default)]
    pub other_machine: bool,
    /// The run's prior between-run spread the rule started from.
    #[serde(default)]
    pub prior: Option<MachinePrior>,
}

/// The regression check of a run: the loaded baseline file, this
/// machine's fingerprint, and the run's between-run spreads.
#[derive(Debug, Clone, Copy)]
pub struct Regression<'a> {
    file: &'a BaselineFile,
    here: &'a Fingerprint,
    spreads: &'a BetweenRun<'a>,
}

impl<'a> Regression<'a> {
    /// The check against the entries of `file`, measured on the machine
    /// `here` describes, with the prior of `spreads`.
    pub fn new(file: &'a BaselineFile, here: &'a Fingerprint, spreads: &'a BetweenRun<'a>) -> Self {
        Regression {
            file,
            here,
            spreads,
        }
    }
}

impl Check for Regression<'_> {
    fn check(&self, subject: &Subject<'_>) -> Option<Finding> {
        let Some(entry) = self.file.get(subject.name) else {
            return Some(Finding::pass(format!(
                "no baseline for this test in {}: not compared; record one with --save-baseline",
                self.file.path().display()
            )));
        };
        let estimate = subject.estimate;
        let machine = self.here.compare(entry.fingerprint());
        let mut record = BaselineCheck {
            path: self.file.path().display().to_string(),
            runs: entry.between_runs().map_or(1, |b| b.runs),
            comparison: None,
            not_used: None,
            // Only when that is why it was not used: a baseline of another
            // clock says so first.
            other_machine: entry.clock() == subject.plan.measure && !machine.is_same_machine(),
            prior: Some(*self.spreads.prior()),
        };
        let mut passed = true;
        let reason = if entry.clock() != subject.plan.measure {
            format!(
                "baseline not used: it records {}, this test measures {}; re-record with \
                 --save-baseline",
                entry.clock().words(),
                subject.plan.measure.words()
            )
        } else if !machine.is_same_machine() {
            machine.to_string()
        } else if let Some(why) = resolution::not_comparable(subject, entry) {
            why
        } else if entry.estimate().statistic != estimate.statistic.as_str() {
            format!(
                "baseline not used: it records the {}, this run the {}; re-record with --save-baseline",
                entry.estimate().statistic,
                estimate.statistic.as_str()
            )
        } else {
            let prior = self.spreads.prior();
            let result = prior
                .rule(estimate.ci.confidence, subject.tolerance)
                .and_then(|rule| {
                    let baseline = baseline_estimate(entry)?;
                    compare::compare(
                        &baseline,
                        &RunEstimate::new(estimate.point, estimate.ci)?,
                        &rule,
                    )
                });
            match result {
                Ok(comparison) => {
                    passed = !comparison.verdict.is_failure();
                    let reason = comparison.reason();
                    record.comparison = Some(comparison);
                    reason
                }
                Err(e) => format!("baseline not used: {e}"),
            }
        };
        if record.comparison.is_none() {
            record.not_used = Some(reason.clone());
        }
        Some(Finding {
            passed,
            reason,
            warnings: Vec::new(),
            record: Some(Record::Baseline(record)),
        })
    }
}

/// What the regression rule needs from a stored entry: for a baseline
/// recorded over several processes, the geometric mean of their estimates
/// and their measured spread; for one process, its estimate alone (the rule
/// then assumes the prior spread, never zero).
///
/// The within-run error is the stored interval's, which for a merged entry
/// is the median run's (`cargo perfmark baseline` keeps no other run's
/// interval): it stands in for the root mean square over the runs that
/// [`BaselineEstimate::from_runs`] would compute (docs/regression-rule.md).
pub(super) fn baseline_estimate(entry: &Entry) -> Result<BaselineEstimate, CompareError> {
    let e = entry.estimate();
    let stored = RunEstimate::new(e.ns_per_iter, e.interval())?;
    match entry.between_runs() {
        Some(between) if between.runs >= 2 => Ok(BaselineEstimate {
            point_ns: geometric_mean(&between.run_estimates_ns),
            runs: between.runs,
            within_log_se: stored.log_se(),
            spread: Some(Spread {
                sd: between.sd_log,
                df: (between.runs - 1) as f64,
            }),
        }),
        _ => BaselineEstimate::from_runs(&[stored]),
    }
}
