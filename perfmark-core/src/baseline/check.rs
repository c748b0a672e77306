//! The regression check against a stored baseline: fail when the run is
//! slower than the baseline with significance at the test's confidence,
//! the uncertainty including the between-process spread, and by more than
//! the tolerance. The rule itself is pure statistics
//! ([`crate::baseline::compare`]); this file finds the test's entry, decides
//! whether it may be used at all (a comparable machine and toolchain,
//! [`Fingerprint::compare`]; the same statistic), and picks the rule that
//! decides the outcome. When the entry and the run both measured perfmark's
//! machine-state reference ([`crate::measure::reference`]), the rule
//! allows for how far the machine moved in between
//! ([`compare::compare_with_reference`]) on the residual spread and the
//! tracking the entry's runs measured; otherwise it assumes the machine's
//! between-run spread ([`compare::compare`]). Both spreads come from the
//! run's [`Prior`](super::run_spreads::Prior) (a setting, the machine's recording, or the defaults).
//! It returns what it found as values ([`BaselineSaid`]), the entry's
//! [`MachineMatch`] among them.

use super::said::{BaselineSaid, NotUsed};

use super::record::BaselineRecord;
use super::resolution;
use super::run_spreads::{baseline_estimate, residual_baseline_estimate, RunSpreads};
use crate::baseline::compare::{self, CompareError, Comparison, MachineShift, RunEstimate};
use crate::baseline::{BaselineFile, Entry, Fingerprint, MachineMatch, StoredReference};
use crate::checks::{Check, Finding, Said, Subject};
use crate::measure::reference;

/// The regression check of a run: the loaded baseline file, this
/// machine's fingerprint, and the run's between-run spreads.
#[derive(Debug, Clone, Copy)]
pub struct Regression<'a> {
    file: &'a BaselineFile,
    here: &'a Fingerprint,
    spreads: &'a RunSpreads<'a>,
}

impl<'a> Regression<'a> {
    /// The check against the entries of `file`, measured on the machine
    /// `here` describes, with the prior of `spreads`.
    pub fn new(file: &'a BaselineFile, here: &'a Fingerprint, spreads: &'a RunSpreads<'a>) -> Self {
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
            return Some(Finding::new(Said::Baseline(BaselineSaid::NoEntry {
                path: self.file.path().to_path_buf(),
            })));
        };
        let machine = self.here.compare(entry.fingerprint());
        let mut record = BaselineRecord {
            path: self.file.path().display().to_string(),
            runs: entry.between_runs().map_or(1, |b| b.runs),
            comparison: None,
            not_used: None,
            // Only when that is why it was not used: a baseline of another
            // clock says so first.
            other_machine: entry.clock() == subject.plan.measure && !machine.is_comparable(),
            machine_note: None,
            prior: Some(*self.spreads.prior()),
        };
        let not_used = match self.usable(subject, entry, &machine) {
            Err(why) => Some(why),
            Ok(()) => match self.compare(subject, entry) {
                Ok(comparison) => {
                    record.comparison = Some(comparison);
                    None
                }
                Err(e) => Some(NotUsed::Unusable(e)),
            },
        };
        Some(Finding::new(Said::Baseline(BaselineSaid::Checked {
            record: Box::new(record),
            machine: Box::new(machine),
            not_used,
        })))
    }
}

impl Regression<'_> {
    /// Whether `entry` may be compared with the run of `subject`: the same
    /// clock, a comparable `machine`, times above the resolution, the same
    /// statistic; else why not.
    fn usable(
        &self,
        subject: &Subject<'_>,
        entry: &Entry,
        machine: &MachineMatch,
    ) -> Result<(), NotUsed> {
        let statistic = subject.estimate.statistic;
        if entry.clock() != subject.plan.measure {
            return Err(NotUsed::OtherClock {
                stored: entry.clock(),
                measured: subject.plan.measure,
            });
        }
        if !machine.is_comparable() {
            return Err(NotUsed::OtherMachine);
        }
        if let Some(why) = resolution::not_comparable(subject, entry) {
            return Err(NotUsed::BelowResolution(why));
        }
        if entry.estimate().statistic != statistic.as_str() {
            return Err(NotUsed::OtherStatistic {
                stored: entry.estimate().statistic.clone(),
                measured: statistic,
            });
        }
        Ok(())
    }

    /// The regression rule on `subject`'s run against `entry`: with the
    /// machine-state reference when both measured it, else on the
    /// between-run spread.
    fn compare(&self, subject: &Subject<'_>, entry: &Entry) -> Result<Comparison, CompareError> {
        let estimate = subject.estimate;
        let prior = self.spreads.prior();
        let (confidence, tolerance) = (estimate.ci.confidence, subject.tolerance);
        let processes = subject.processes.map(|p| p.spread());
        // An interval combined over worker processes was made with
        // Student's t on the combination's degrees of freedom.
        let df = subject.processes.map(|_| estimate.effective_n - 1.0);
        let current = RunEstimate::new(estimate.point, estimate.ci)
            .map(|c| c.with_processes(processes).with_df(df));
        match machine_shift(subject, entry) {
            // Both measured the machine-state reference: the rule that
            // allows for the machine's move, on the residual spread.
            Some(shift) => prior.residual_rule(confidence, tolerance).and_then(|rule| {
                let (baseline, tracking) = residual_baseline_estimate(entry)?;
                compare::compare_with_reference(&baseline, &current?, &shift?, tracking, &rule)
            }),
            None => prior
                .rule(confidence, tolerance)
                .and_then(|rule| compare::compare(&baseline_estimate(entry)?, &current?, &rule)),
        }
    }
}

/// How much the machine moved between `entry`'s recording and this run, by
/// the machine-state reference measured beside each; `None` when either
/// has none (a file written before the reference, a run that read no
/// clock of its own), and the rule without the reference applies.
fn machine_shift(
    subject: &Subject<'_>,
    entry: &Entry,
) -> Option<Result<MachineShift, CompareError>> {
    machine_shift_since(
        entry.reference()?,
        &subject.measurement.reference_ns,
        subject.estimate.ci.confidence,
    )
}

/// How much the machine moved since the reference `then` was stored, by the
/// reference samples `now_ns` (ns per step) of a run at `confidence`:
/// `None` when those samples give no estimate
/// ([`reference::estimate`]).
///
/// # Errors
///
/// When either reference is not a positive time
/// ([`MachineShift::between`]).
pub fn machine_shift_since(
    then: &StoredReference,
    now_ns: &[f64],
    confidence: f64,
) -> Option<Result<MachineShift, CompareError>> {
    let now = reference::estimate(now_ns, confidence)?;
    Some(
        RunEstimate::new(then.ns_per_step, then.interval())
            .and_then(|then| MachineShift::between(&then, &RunEstimate::new(now.point, now.ci)?)),
    )
}
