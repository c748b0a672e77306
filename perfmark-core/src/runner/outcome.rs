//! What running one test gave. While the run's steps work on a test (the
//! measurement, its judging, a re-measurement, the instruction count),
//! what was measured ([`Measured`]) and what was decided ([`Judged`]) are
//! kept apart in its [`Outcome`]; the test's report is then written once
//! from them ([`Outcome::finish`]), and nothing changes it afterwards: the
//! complexity tests, the baseline save and the reports only read it.

use crate::allocations::Allocations;
use crate::baseline::record::BaselineRecord;
use crate::bencher::Work;
use crate::budget::BudgetRecord;
use crate::checks::{Finding, Record, Source, Verdict};
use crate::clock::Clock;
use crate::complexity::ComplexityRecord;
use crate::cpus::CpuRecord;
use crate::instructions::InstructionCount;
use crate::measure::Measurement;
use crate::observe::Interference;
use crate::paired::ComparisonRecord;
use crate::processes::ProcessSpread;
use crate::registry::PerfTest;
use crate::report::{reasons_text, Diagnostics, EstimateRecord, Reason, Remeasured, TestReport};
use crate::stats::{Outliers, Summary};

/// What measuring a test gave, before anything was decided on it.
#[derive(Debug, Default)]
pub(crate) struct Measured {
    /// The clock the samples are in.
    pub(crate) measure: Clock,
    /// Where the test was measured.
    pub(crate) cpu: Option<CpuRecord>,
    /// What the OS knew about other work meanwhile.
    pub(crate) interference: Option<Interference>,
    /// For a CPU-timed test, its wall time per iteration.
    pub(crate) wall_ns_per_iter: Option<f64>,
    /// The argument's size, for a test of a function that declares
    /// `complexity`.
    pub(crate) size: Option<u64>,
    /// Heap allocations per iteration, when counted.
    pub(crate) allocations: Option<Allocations>,
    /// Work per iteration, when declared.
    pub(crate) work: Option<Work>,
    /// The panic message, when the body panicked.
    pub(crate) panic: Option<String>,
    /// The samples and how they were taken.
    pub(crate) measurement: Option<Measurement>,
    /// Warnings about the measurement itself, said before the verdict's.
    pub(crate) warnings: Vec<String>,
}

/// What was decided on a test: the findings folded in, in the order they
/// came, and the figures the verdict rests on.
#[derive(Debug, Default)]
pub(crate) struct Judged {
    /// An unoptimized build's test: run, not measured.
    pub(crate) not_measured: bool,
    /// One reason per finding, in order.
    pub(crate) reasons: Vec<Reason>,
    /// The findings' and the figures' warnings.
    pub(crate) warnings: Vec<String>,
    /// The verdict statistic with its CI.
    pub(crate) estimate: Option<EstimateRecord>,
    /// The samples' summary.
    pub(crate) summary: Option<Summary>,
    /// Tukey outlier counts.
    pub(crate) outliers: Option<Outliers>,
    /// The full statistical account of the samples.
    pub(crate) diagnostics: Option<Diagnostics>,
    /// Rate from the work and the estimate, per second.
    pub(crate) rate_per_s: Option<f64>,
    /// The spread between the processes that measured the test.
    pub(crate) processes: Option<ProcessSpread>,
    /// The budget check's record.
    pub(crate) budget: Option<BudgetRecord>,
    /// The stored-baseline check's record.
    pub(crate) baseline: Option<BaselineRecord>,
    /// The paired check's record.
    pub(crate) comparison: Option<ComparisonRecord>,
    /// The complexity check's record.
    pub(crate) complexity: Option<ComplexityRecord>,
    /// The instruction count and its comparisons.
    pub(crate) instructions: Option<InstructionCount>,
}

impl Judged {
    /// The verdict the reasons give: failed when any reason failed the
    /// test, else not measured or passed.
    pub(crate) fn verdict(&self) -> Verdict {
        if self.reasons.iter().any(|r| r.fails) {
            Verdict::Fail
        } else if self.not_measured {
            Verdict::NotMeasured
        } else {
            Verdict::Pass
        }
    }

    /// Takes in `decided`, a judgement made apart (the processes' looks
    /// judge a test more than once and keep the last): its reasons and
    /// warnings after this one's, its figures and records in place of
    /// this one's (a record it lacks is kept).
    pub(crate) fn absorb(&mut self, decided: Judged) {
        self.not_measured |= decided.not_measured;
        self.reasons.extend(decided.reasons);
        self.warnings.extend(decided.warnings);
        self.estimate = decided.estimate;
        self.summary = decided.summary;
        self.outliers = decided.outliers;
        self.diagnostics = decided.diagnostics;
        self.rate_per_s = decided.rate_per_s;
        self.processes = decided.processes;
        self.budget = decided.budget;
        self.baseline = decided.baseline;
        self.comparison = decided.comparison.or(self.comparison.take());
        self.complexity = decided.complexity.or(self.complexity.take());
        self.instructions = decided.instructions.or(self.instructions.take());
    }

    /// Whether this judgement needs no more processes: no check failed,
    /// the budget, if any, was decided, and the processes, if any, did not
    /// differ beyond what this machine's history allows.
    pub(crate) fn settled(&self) -> bool {
        !self.reasons.iter().any(|r| r.fails)
            && !self.budget.as_ref().is_some_and(|b| b.inconclusive())
            && !self.processes.as_ref().is_some_and(|p| p.beyond_history)
    }

    /// Folds one check's finding in: its reason (failing the test when the
    /// check failed), its warnings, and its record.
    pub(crate) fn record(&mut self, finding: Finding) {
        self.reasons.push(if finding.passed {
            Reason::said(finding.source, finding.reason)
        } else {
            Reason::failing(finding.source, finding.reason)
        });
        self.warnings.extend(finding.warnings);
        match finding.record {
            Some(Record::Budget(r)) => self.budget = Some(r),
            Some(Record::Baseline(r)) => self.baseline = Some(r),
            #[cfg(feature = "compare")]
            Some(Record::Comparison(r)) => self.comparison = Some(r),
            Some(Record::Complexity(r)) => self.complexity = Some(r),
            None => {}
        }
    }

    /// A reason of the runner's own that fails the test.
    pub(crate) fn fail(&mut self, source: Source, text: impl Into<String>) {
        self.reasons.push(Reason::failing(source, text));
    }

    /// A reason of the runner's own that fails nothing.
    pub(crate) fn say(&mut self, source: Source, text: impl Into<String>) {
        self.reasons.push(Reason::said(source, text));
    }
}

/// One test while the run works on it.
#[derive(Debug)]
pub(crate) struct Outcome {
    /// The test's libtest name.
    pub(crate) name: String,
    /// Its source location.
    pub(crate) file: &'static str,
    /// Its line.
    pub(crate) line: u32,
    pub(crate) measured: Measured,
    pub(crate) judged: Judged,
    /// A failure measured under interference and measured again: the
    /// first measurement's account.
    pub(crate) remeasured: Option<Remeasured>,
    /// What libtest prints under `failures:`, when it is not the reasons
    /// (a panic's whole message).
    pub(crate) failure_detail: Option<String>,
    /// The test did not return within its bound and its thread still runs:
    /// no other test may be measured beside it.
    pub(crate) hung: bool,
    /// Wall time the test took, s.
    pub(crate) duration_s: f64,
}

/// A test's report, written once, with what the run needs of it besides.
pub(crate) struct Finished {
    pub(crate) report: TestReport,
    /// What libtest prints under `failures:` for a failed test.
    pub(crate) failure_detail: Option<String>,
    /// See [`Outcome::hung`].
    pub(crate) hung: bool,
}

impl Outcome {
    /// A test `t`, named `name`, on which nothing is measured or decided
    /// yet.
    pub(crate) fn of(t: &PerfTest, name: String) -> Outcome {
        Outcome::at(name, t.file, t.line)
    }

    /// A test named `name` at `file:line`, nothing measured or decided yet.
    pub(crate) fn at(name: String, file: &'static str, line: u32) -> Outcome {
        Outcome {
            name,
            file,
            line,
            measured: Measured::default(),
            judged: Judged::default(),
            remeasured: None,
            failure_detail: None,
            hung: false,
            duration_s: 0.0,
        }
    }

    /// The verdict so far.
    pub(crate) fn verdict(&self) -> Verdict {
        self.judged.verdict()
    }

    /// The test's report, written once from what was measured and decided;
    /// a failed test's detail is its panic's message, else its reasons.
    pub(crate) fn finish(self) -> Finished {
        let Outcome {
            name,
            file,
            line,
            measured,
            judged,
            remeasured,
            failure_detail,
            hung,
            duration_s,
        } = self;
        let verdict = judged.verdict();
        let failure_detail = match verdict {
            Verdict::Fail => failure_detail.or_else(|| Some(reasons_text(&judged.reasons))),
            _ => None,
        };
        let (samples, iters_per_sample) = measured
            .measurement
            .as_ref()
            .map_or((0, 0), |m| (m.samples_ns.len(), m.iters_per_sample));
        let mut warnings = measured.warnings;
        warnings.extend(judged.warnings);
        let report = TestReport {
            name,
            verdict,
            reasons: judged.reasons,
            estimate: judged.estimate,
            samples,
            iters_per_sample,
            warnings,
            budget: judged.budget,
            summary: judged.summary,
            outliers: judged.outliers,
            work: measured.work,
            rate_per_s: judged.rate_per_s,
            panic: measured.panic,
            measurement: measured.measurement,
            diagnostics: judged.diagnostics,
            baseline: judged.baseline,
            comparison: judged.comparison,
            interference: measured.interference,
            remeasured,
            size: measured.size,
            complexity: judged.complexity,
            measure: measured.measure,
            wall_ns_per_iter: measured.wall_ns_per_iter,
            allocations: measured.allocations,
            cpu: measured.cpu,
            processes: judged.processes,
            instructions: judged.instructions,
            file: file.to_owned(),
            line,
            duration_s,
        };
        Finished {
            report,
            failure_detail,
            hung,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::BudgetOutcome;

    #[test]
    fn a_failed_finding_fails_the_test_and_keeps_its_record() {
        let mut o = Outcome::at("t".to_owned(), "x.rs", 1);
        o.judged
            .record(Finding::pass(Source::Budget, "no budget: measured only"));
        assert_eq!(o.verdict(), Verdict::Pass);
        let budget = BudgetRecord {
            budget_ns: 50.0,
            outcome: BudgetOutcome::Over,
            ratio: 1.2,
            look: None,
            may_flip: false,
        };
        o.judged.record(Finding {
            source: Source::Budget,
            passed: false,
            reason: "over budget".to_owned(),
            warnings: vec!["w".to_owned()],
            record: Some(Record::Budget(budget)),
        });
        assert_eq!(o.verdict(), Verdict::Fail);
        assert_eq!(
            o.judged.reasons,
            [
                Reason::said(Source::Budget, "no budget: measured only"),
                Reason::failing(Source::Budget, "over budget")
            ]
        );
        // A later passing check does not undo the failure.
        o.judged.record(Finding::pass(Source::Allocations, "fine"));
        assert_eq!(o.verdict(), Verdict::Fail);
        // The report is written once, with all of it.
        let report = o.finish().report;
        assert_eq!(report.verdict, Verdict::Fail);
        assert_eq!(report.warnings, ["w"]);
        assert_eq!(
            report.budget.as_ref().map(|b| b.outcome),
            Some(BudgetOutcome::Over)
        );
        // report.json keeps the words alone.
        let json = serde_json::to_value(&report.reasons).unwrap();
        assert_eq!(
            json,
            serde_json::json!(["no budget: measured only", "over budget", "fine"])
        );
    }
}
