//! Checks: what every decision a measured test is passed or failed by has
//! in common. Each check lives with its feature (`check.rs` in
//! [`crate::budget`], [`crate::baseline`], [`crate::paired`],
//! [`crate::allocations`]; the instruction limit in
//! [`crate::instructions`]).
//!
//! Each check sees the same [`Subject`] (the test's name, its resolved
//! plan and tolerance, its measurement and its verdict estimate) and returns
//! a [`Finding`]: passed or not, one reason in words, warnings, and the
//! record `report.json` keeps of it ([`Record`], which names each feature's
//! record type). The runner runs the list of checks it built for the run
//! and folds the findings into the test's outcome; adding a check means one
//! `check.rs` in its feature's folder, one entry in that list, and its
//! option.
//!
//! The complexity check is the exception: it judges a group of tests (one
//! per argument) rather than one measurement, so the runner calls
//! [`crate::complexity::check::decide`] for the group's own test, `NAME::complexity`.

use crate::allocations::Allocations;
use crate::baseline::record::BaselineRecord;
use crate::budget::record::BudgetRecord;
use crate::complexity::record::ComplexityRecord;
#[cfg(feature = "compare")]
use crate::paired::record::ComparisonRecord;
use crate::processes::ProcessSpread;
use crate::measure::{Measurement, Plan};
use crate::stats::Estimate;

/// The outcome of a test, as `report.json` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check passed.
    Pass,
    /// A check failed, or the body panicked.
    Fail,
    /// `ignore`d and not asked for.
    Ignored,
    /// Unoptimized build: run as a smoke test, nothing enforced.
    NotMeasured,
}

impl Verdict {
    /// `report.json`'s spelling: `pass`, `fail`, `ignored`, `not_measured`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Ignored => "ignored",
            Verdict::NotMeasured => "not_measured",
        }
    }
}

/// What a check sees of one measured test.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// The test's libtest name.
    pub name: &'a str,
    /// How it was measured: confidence, budget, caps.
    pub plan: &'a Plan,
    /// The regression tolerance resolved for this test, as a fraction.
    pub tolerance: f64,
    /// What the sampler measured.
    pub measurement: &'a Measurement,
    /// The verdict statistic with its CI, read at the measurement's
    /// resolution ([`crate::stats::at_resolution`]).
    pub estimate: &'a Estimate,
    /// What the untimed counting pass found; `None` when allocations were
    /// not counted.
    pub allocations: Option<&'a Allocations>,
    /// The measurement's resolution per iteration, in ns
    /// ([`Measurement::resolution_ns`]).
    pub resolution_ns: f64,
    /// The spread between the processes that measured the test, when
    /// worker processes did ([`crate::processes`]); the estimate then
    /// covers them already.
    pub processes: Option<&'a ProcessSpread>,
}

impl Subject<'_> {
    /// Whether the estimate is below the measurement's resolution: the time
    /// cannot be told from zero, and no ratio to it means anything.
    pub fn below_resolution(&self) -> bool {
        crate::stats::is_below_resolution(self.estimate.point, self.resolution_ns)
    }
}

/// What `report.json` keeps of a check, beside its reason.
#[derive(Debug, Clone)]
pub enum Record {
    /// The budget check (`budget`).
    Budget(BudgetRecord),
    /// The check against the stored baseline (`baseline`).
    Baseline(BaselineRecord),
    #[cfg(feature = "compare")]
    /// The paired comparison with another build (`comparison`).
    Comparison(ComparisonRecord),
    /// The growth over `args` against the declared class (`complexity`).
    Complexity(ComplexityRecord),
}

/// One check's decision about one test.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The check that decided.
    pub source: Source,
    /// Whether the test passes this check.
    pub passed: bool,
    /// The reason in words, one sentence, for the summary and
    /// `report.json`'s `reasons`.
    pub reason: String,
    /// Warnings that qualify the decision.
    pub warnings: Vec<String>,
    /// The check's record, when it keeps one.
    pub record: Option<Record>,
}

impl Finding {
    /// A finding of `source` that passes with `reason` and keeps no record.
    pub fn pass(source: Source, reason: impl Into<String>) -> Self {
        Finding {
            source,
            passed: true,
            reason: reason.into(),
            warnings: Vec::new(),
            record: None,
        }
    }

    /// A finding of `source` that fails with `reason` and keeps no record.
    pub fn fail(source: Source, reason: impl Into<String>) -> Self {
        Finding {
            passed: false,
            ..Finding::pass(source, reason)
        }
    }
}

/// What gave a test's reason: a check, or the runner itself. The console
/// picks reasons out by it, never by their words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The budget check ([`crate::budget::Budget`]).
    Budget,
    /// The stored-baseline check ([`crate::baseline::check::Regression`]).
    Baseline,
    /// The paired comparison with a base build ([`crate::paired::Paired`]).
    Paired,
    /// A test of the head that the base build lacks, in a paired
    /// comparison: not compared.
    NotInBase,
    /// The allocation limit ([`crate::allocations::check::Allocs`]).
    Allocations,
    /// The declared growth class of a `NAME::complexity` test.
    Complexity,
    /// Instruction counts (`--instructions`).
    Instructions,
    /// The runner: a panic, a hang, an unoptimized build, a re-measurement.
    Runner,
}

/// A decision about a measured test.
pub trait Check {
    /// Decides about `subject`; `None` when the check does not apply to it
    /// and has nothing to say. A check that applies but cannot decide
    /// (nothing stored to compare with, a time below resolution) says why.
    fn check(&self, subject: &Subject<'_>) -> Option<Finding>;
}
