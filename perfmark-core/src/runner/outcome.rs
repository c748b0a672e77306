//! What running one test gave. While the run's steps work on a test (the
//! measurement, its judging, a re-measurement, the instruction count),
//! what was measured ([`Measured`]) and what was decided ([`Judged`]) are
//! kept apart in its [`Outcome`]; the test's report is then written once
//! from them ([`Outcome::finish`]), and nothing changes it afterwards: the
//! complexity tests, the baseline save and the reports only read it.

use crate::allocations::Allocations;
use crate::baseline::record::BaselineRecord;
use crate::baseline::said::BaselineSaid;
use crate::bencher::Work;
use crate::budget::said::BudgetSaid;
use crate::budget::BudgetRecord;
use crate::checks::{Finding, Said, Verdict, Warning};
use crate::clock::Clock;
use crate::complexity::ComplexityRecord;
use crate::cpus::CpuRecord;
use crate::instructions::count::InstructionsSaid;
use crate::instructions::InstructionCount;
use crate::measure::Measurement;
use crate::observe::Interference;
#[cfg(feature = "compare")]
use crate::paired::said::PairedSaid;
use crate::paired::ComparisonRecord;
use crate::processes::ProcessSpread;
use crate::registry::PerfTest;
use crate::report::words;
use crate::report::{Diagnostics, EstimateRecord, Reason, Remeasured, TestReport};
use crate::stats::{Outliers, Summary};
use crate::verdicts;

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
    /// For a threaded test, its team and each thread's own time.
    pub(crate) threads: Option<crate::threads::ThreadsRecord>,
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
    pub(crate) warnings: Vec<Warning>,
}

/// What was decided on a test: the findings folded in, in the order they
/// came, and the figures the verdict rests on.
#[derive(Debug, Default)]
pub(crate) struct Judged {
    /// An unoptimized build's test: run, not measured.
    pub(crate) not_measured: bool,
    /// What each finding said, in order: the test's reasons.
    pub(crate) said: Vec<Said>,
    /// The findings' and the figures' warnings.
    pub(crate) warnings: Vec<Warning>,
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
    /// The verdict the findings give: failed when any of them fails the
    /// test, else not measured or passed.
    pub(crate) fn verdict(&self) -> Verdict {
        if self.fails() {
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
        self.said.extend(decided.said);
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
        !self.fails()
            && !self.budget.as_ref().is_some_and(|b| b.inconclusive())
            && !self.processes.as_ref().is_some_and(|p| p.beyond_history)
    }

    /// Whether any finding fails the test.
    fn fails(&self) -> bool {
        self.said.iter().any(Said::fails)
    }

    /// Folds one check's finding in: what it said, its warnings, and the
    /// record it keeps.
    pub(crate) fn record(&mut self, finding: Finding) {
        self.warnings.extend(finding.warnings);
        self.say(finding.said);
    }

    /// Takes in what a check or the runner `said`, and the record it keeps
    /// in `report.json`, if any.
    pub(crate) fn say(&mut self, said: Said) {
        match &said {
            Said::Budget(BudgetSaid::Decided { record, .. }) => self.budget = Some(record.clone()),
            Said::Baseline(BaselineSaid::Checked { record, .. }) => {
                self.baseline = Some(BaselineRecord::clone(record));
            }
            #[cfg(feature = "compare")]
            Said::Paired(PairedSaid::Compared { record, .. }) => {
                self.comparison = Some(ComparisonRecord::clone(record));
            }
            Said::Complexity(c) => {
                if let Some(record) = c.record() {
                    self.complexity = Some(record.clone());
                }
            }
            _ => {}
        }
        self.said.push(said);
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
    pub(crate) remeasured: Option<Remeasure>,
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
            hung: false,
            duration_s: 0.0,
        }
    }

    /// The verdict so far.
    pub(crate) fn verdict(&self) -> Verdict {
        self.judged.verdict()
    }

    /// The test's report, written once from what was measured and decided,
    /// its reasons and warnings said in words here; a failed test's detail
    /// is its panic's message, else its reasons.
    pub(crate) fn finish(self) -> Finished {
        let failure_detail = (self.verdict() == Verdict::Fail).then(|| {
            words::runner::failure_detail(self.measured.panic.as_deref(), &self.judged.said)
        });
        let hung = self.hung;
        Finished {
            report: self.into_report(),
            failure_detail,
            hung,
        }
    }

    /// The test's report: its figures and records as they are, its reasons
    /// and warnings in words.
    fn into_report(self) -> TestReport {
        let Outcome {
            name,
            file,
            line,
            measured,
            judged,
            remeasured,
            hung: _,
            duration_s,
        } = self;
        let verdict = judged.verdict();
        let (samples, iters_per_sample) = measured
            .measurement
            .as_ref()
            .map_or((0, 0), |m| (m.samples_ns.len(), m.iters_per_sample));
        let warnings: Vec<String> = measured
            .warnings
            .iter()
            .chain(&judged.warnings)
            .map(words::warning)
            .collect();
        let baseline = judged
            .baseline
            .map(|record| words::baseline::completed(record, &judged.said));
        TestReport {
            name,
            verdict,
            reasons: judged.said.iter().map(Reason::of).collect(),
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
            baseline,
            comparison: judged.comparison,
            interference: measured.interference,
            remeasured: remeasured.map(Remeasure::into_record),
            size: measured.size,
            complexity: judged.complexity,
            measure: measured.measure,
            wall_ns_per_iter: measured.wall_ns_per_iter,
            threads: measured.threads,
            allocations: measured.allocations,
            cpu: measured.cpu,
            processes: judged.processes,
            instructions: judged.instructions,
            unchecked_instruction_limit: unchecked_limit(&judged.said),
            file: file.to_owned(),
            line,
            duration_s,
        }
    }
}

/// The `instructions` limit that a run without counting left unchecked,
/// when `said` says so.
fn unchecked_limit(said: &[Said]) -> Option<u64> {
    said.iter().find_map(|said| match said {
        Said::Instructions(InstructionsSaid::LimitNotChecked { limit }) => Some(*limit),
        _ => None,
    })
}

/// A failure measured under interference, re-measured once: the first
/// measurement's account and what the second decided, kept until the
/// test's report is written ([`Remeasured`] is what it keeps).
#[derive(Debug)]
pub(crate) struct Remeasure {
    /// What the first measurement's findings said, the failure among them.
    pub(crate) first_said: Vec<Said>,
    /// The first measurement's estimate, ns per iteration.
    pub(crate) first_ns_per_iter: Option<f64>,
    /// What the OS saw during the first measurement.
    pub(crate) first_interference: Interference,
    /// The re-measurement's cap on sampling, s.
    pub(crate) max_time_s: f64,
    /// What the re-measurement found.
    pub(crate) outcome: verdicts::Outcome,
}

impl Remeasure {
    /// What `report.json` keeps of it, the first reasons in words.
    pub(crate) fn into_record(self) -> Remeasured {
        Remeasured {
            first_reasons: self.first_said.iter().map(Reason::of).collect(),
            first_ns_per_iter: self.first_ns_per_iter,
            first_interference: self.first_interference,
            max_time_s: self.max_time_s,
            outcome: self.outcome,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocations::said::AllocationsSaid;
    use crate::allocations::AllocCount;
    use crate::checks::Source;
    use crate::stats::Estimate;

    #[test]
    fn a_failed_finding_fails_the_test_and_keeps_its_record() {
        let mut o = Outcome::at("t".to_owned(), "x.rs", 1);
        o.judged
            .record(Finding::new(Said::Budget(BudgetSaid::NoBudget)));
        assert_eq!(o.verdict(), Verdict::Pass);
        let estimate = Estimate::median_at(60.0, 59.0, 61.0, 100);
        let record = BudgetRecord::decide(&estimate, 50.0);
        assert_eq!(record.outcome, verdicts::Outcome::Over);
        o.judged.record(Finding {
            said: Said::Budget(BudgetSaid::Decided {
                record,
                estimate,
                between_run_sd: None,
            }),
            warnings: vec![Warning::CpuClockNotForCustom],
        });
        assert_eq!(o.verdict(), Verdict::Fail);
        assert_eq!(
            o.judged.said.iter().map(Said::source).collect::<Vec<_>>(),
            [Source::Budget, Source::Budget]
        );
        // A later passing check does not undo the failure.
        let none = AllocCount {
            allocs: 0,
            bytes: 0,
        };
        o.judged
            .record(Finding::new(Said::Allocations(AllocationsSaid {
                limit: 1,
                counted: Some(Allocations::per_iteration(none, 100, Some(1))),
            })));
        assert_eq!(o.verdict(), Verdict::Fail);
        // The report is written once, with all of it, in words.
        let report = o.finish().report;
        assert_eq!(report.verdict, Verdict::Fail);
        assert_eq!(
            report.warnings,
            ["measure = \"cpu\" does not apply to iter_custom: the routine's own times are used \
              as given"]
        );
        assert_eq!(
            report.budget.as_ref().map(|b| b.outcome),
            Some(verdicts::Outcome::Over)
        );
        assert_eq!(
            report.reasons.iter().map(|r| r.fails).collect::<Vec<_>>(),
            [false, true, false]
        );
        // report.json keeps the words alone.
        let json = serde_json::to_value(&report.reasons).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                "no budget: measured only",
                "over budget 50.00 ns: CI [59.00 ns, 61.00 ns] lies above it (120% of budget)",
                "within allocation limit 1: 0 allocations per iteration"
            ])
        );
    }
}
