//! Reports: what one run of a test binary found, and its forms.
//!
//! The runner assembles a [`Report`]: one [`TestReport`] per test, written
//! once when every step of the run on that test is done, from what was
//! measured and what the checks decided (the runner's `Outcome`). The
//! forms it takes are one module each: [`console`] (the lines under
//! `test NAME ... ok` and the `--verbose` account), [`json`]
//! (`report.json`, typed both ways) and [`markdown`] (`summary.md`). The
//! facts that `--verbose` and the page state in words come from [`facts`];
//! numbers are printed by [`fmt`]. [`Report::write`] writes the files
//! through the crate's atomic file helper ([`crate::fs`]).
//!
//! The page ([`PAGE_FILE`]) is not the test binary's: `cargo perfmark
//! report` draws it from `report.json`, so what every test binary links
//! stays lean. It reads a [`Report`] back and names the verdict and outcome
//! enums this module re-exports, and the statistics of [`plot`], all
//! without the `internals` feature.
//!
//! This file holds the data and its assembly only, and imports none of the
//! forms: they import it (the files are written from `write.rs`).

pub mod bencher;
pub mod console;
pub mod facts;
pub mod fmt;
pub mod json;
pub mod markdown;
pub(crate) mod words;
mod write;
pub use write::PAGE_FILE;

// With `internals` for the page's tests in cargo-perfmark. Not a public API.
#[cfg(any(test, feature = "internals"))]
#[doc(hidden)]
pub mod fixtures;

use crate::allocations::Allocations;
pub use crate::baseline::record::BaselineRecord;
use crate::baseline::run_spreads::Prior;
use crate::bencher::Work;
use crate::budget::BudgetRecord;
pub use crate::checks::{Outcome, Source, Verdict};
use crate::clock::Clock;
use crate::complexity::ComplexityRecord;
pub use crate::cpus::CpuRecord;
use crate::measure::Measurement;
use crate::observe::{Coverage, Interference};
use crate::paired::{ComparisonRecord, RunComparison};
use crate::platform::Platform;
pub use crate::processes::ProcessSpread;
use crate::stats::{
    Estimate, Interval, Modality, NoiseDiagnosis, Outliers, SerialCorrelation, Statistic, Summary,
};

pub use fmt::{fmt_ns, fmt_rate, rate_per_s};

/// The statistics a plot of a test's samples is drawn with: the same
/// functions the runtime decides with, so that a page's fences and bins
/// are those of the report.
#[cfg(feature = "tool")]
pub mod plot {
    pub use crate::stats::{bulk, histogram, tukey, Bulk, Histogram, Outliers};
}

/// Version of `report.json`'s format ([`json`]).
pub const REPORT_SCHEMA: u32 = 1;

/// The whole run, as written to `report.json`.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Report {
    /// Format version ([`REPORT_SCHEMA`]).
    pub schema: u32,
    /// The test target (binary) name, e.g. `perf`.
    pub target: String,
    /// The machine and toolchain.
    pub platform: Platform,
    /// The machine's noise floor: relative spread of a task with no
    /// intrinsic variation, when measured.
    pub noise_floor: Option<f64>,
    /// Environment warnings (unoptimized build, governor, load, VM).
    pub environment_warnings: Vec<String>,
    /// One entry per test selected by the filters.
    pub tests: Vec<TestReport>,
    /// Wall time of the whole run, in seconds.
    pub finished_in_s: f64,
    /// In compare mode (`--compare-with`): the base and what was compared.
    pub comparison: Option<RunComparison>,
    /// Which sources of interference figures this machine has, and the
    /// thresholds a test is warned at ([`crate::observe`]).
    pub interference: Option<Coverage>,
    /// The machine-wide measurement lock this run held while measuring;
    /// absent when nothing was measured or the lock was not taken.
    pub machine_lock: Option<MachineLockRecord>,
    /// What the process spent before its first test, when it measured.
    pub startup: Option<Startup>,
    /// Run-level control of false failures: whether every verdict was
    /// decided at the Bonferroni-corrected level, and how many there were.
    pub family_wise: Option<FamilyWise>,
    /// The prior between-run spread the run's verdicts started from (a
    /// setting, the machine's recording, or the default).
    pub between_run_prior: Option<Prior>,
    /// How each threaded function's time per iteration grew with its
    /// thread counts ([`scaling_of`]); absent when no function ran on
    /// several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scaling: Vec<ScalingLine>,
}

pub use crate::threads::{Placement, ScalingLine, ScalingPoint, ThreadsRecord};

/// The scaling lines of a run's `reports`: the measured tests of each
/// function that ran on two thread counts or more, by their estimates.
pub fn scaling_of(reports: &[TestReport]) -> Vec<ScalingLine> {
    crate::threads::scaling_lines(reports.iter().filter_map(|t| {
        let threads = t.threads.as_ref()?;
        let estimate = t.estimate.as_ref()?;
        Some((
            t.name.as_str(),
            threads.function.as_str(),
            threads.count,
            estimate.ns_per_iter,
        ))
    }))
}

/// The machine-wide measurement lock of a run (`report.json`'s
/// `machine_lock`): one perfmark process measures at a time on a machine.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct MachineLockRecord {
    /// The lock file.
    pub path: String,
    /// How long the run waited for another process to finish measuring, s.
    pub waited_s: f64,
}

/// The per-process start-up before the first test (`report.json`'s
/// `startup`): what each test costs on top under a runner that starts a
/// process per test (cargo-nextest).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Startup {
    /// Calibrating the clock's resolution and cost, s.
    pub clock_calibration_s: f64,
    /// Measuring the machine's noise floor (or reading the one shared by
    /// an earlier test of the same nextest run), s.
    pub noise_floor_s: f64,
    /// Whether the noise floor was shared by an earlier test of the same
    /// nextest run rather than measured.
    pub noise_floor_shared: bool,
}

/// `report.json`'s top-level `family_wise` object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct FamilyWise {
    /// Whether each verdict was decided at `1 − (1 − c)/verdicts` (on, and
    /// more than one verdict), so the chance of any false failure in the
    /// run is at most `1 − c`.
    pub enabled: bool,
    /// Verdicts the run decided: budgets, and regressions against a stored
    /// baseline or a base build.
    pub verdicts: usize,
}

/// What a run's family-wise correction bounded (the footer says it): the
/// verdicts it covered and the sum of their levels' complements.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FamilyBound {
    /// Verdicts the run planned.
    pub verdicts: usize,
    /// The chance that any of them failed falsely by its CI, at most: the
    /// sum of `1 − level` over them.
    pub bound: f64,
    /// Budgets whose CI straddled the line, decided on the estimate: not
    /// covered.
    pub straddled: usize,
    /// Complexity verdicts, each at its test's own confidence: not counted.
    pub complexity: usize,
}

/// One test's outcome. The first six fields are the stable core.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct TestReport {
    /// The libtest name, e.g. `sorting::sort_1k`.
    pub name: String,
    /// `pass`, `fail`, `ignored` or `not_measured`.
    pub verdict: Verdict,
    /// One human-readable sentence per check.
    pub reasons: Vec<Reason>,
    /// The verdict statistic with its CI (absent for ignored tests and
    /// tests whose body panicked before measuring).
    pub estimate: Option<EstimateRecord>,
    /// Number of samples.
    pub samples: usize,
    /// Iterations per sample.
    pub iters_per_sample: u64,
    /// Warnings about this test's measurement.
    pub warnings: Vec<String>,
    /// The budget check, when a budget was given and enforced.
    pub budget: Option<BudgetRecord>,
    /// Mean, median, sd, min, COV, quartiles of the samples.
    pub summary: Option<Summary>,
    /// Tukey outlier counts.
    pub outliers: Option<Outliers>,
    /// Work per iteration, when declared.
    pub work: Option<Work>,
    /// Rate from the work and the estimate, in the work's unit per second.
    pub rate_per_s: Option<f64>,
    /// The panic message, when the body panicked.
    pub panic: Option<String>,
    /// Everything the sampler recorded, including every sample.
    pub measurement: Option<Measurement>,
    /// The full statistical account of the samples.
    pub diagnostics: Option<Diagnostics>,
    /// The comparison with the stored baseline, when there is one.
    pub baseline: Option<BaselineRecord>,
    /// The paired comparison with the base build (`--compare-with`).
    pub comparison: Option<ComparisonRecord>,
    /// What the OS knew about other work during the measurement
    /// ([`crate::observe`]); absent when interference is not observed.
    pub interference: Option<Interference>,
    /// A failure measured under interference and re-measured once: the
    /// first measurement, and what the second (whose figures are the ones
    /// above) decided.
    pub remeasured: Option<Remeasured>,
    /// The argument's size (`perfmark::Size`), for a test of a function
    /// that declares `complexity`.
    pub size: Option<u64>,
    /// For a `NAME::complexity` test: the fit of the arguments' times
    /// against their sizes, and the verdict on the declared class.
    pub complexity: Option<ComplexityRecord>,
    /// The clock the estimate and samples are in: `wall`, or `cpu` for
    /// `measure = "cpu"` (absent in reports from before the option: wall).
    #[serde(default)]
    pub measure: Clock,
    /// For a CPU-timed test: the median wall time per iteration over the
    /// same blocks, ns, so that time spent sleeping or waiting shows.
    pub wall_ns_per_iter: Option<f64>,
    /// For a threaded test (`threads = [..]`): its team, where it ran, and
    /// each thread's own time per iteration ([`crate::threads`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<crate::threads::ThreadsRecord>,
    /// Heap allocations and bytes per iteration, from the untimed counting
    /// pass; absent when allocations were not counted.
    pub allocations: Option<Allocations>,
    /// Where the test was measured: the CPU its measuring thread was held
    /// on, or each process pair's ([`crate::cpus`]); absent where the
    /// allowed CPUs could not be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuRecord>,
    /// The spread between the processes that measured the test: this one
    /// and its worker processes ([`crate::processes`]); absent when none
    /// were started (`--no-processes`, a paired comparison, a test that
    /// failed before it was measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processes: Option<ProcessSpread>,
    /// Instructions per iteration counted under Callgrind, with what they
    /// were compared with (`--instructions`, [`crate::instructions`]);
    /// absent when the run did not count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<crate::instructions::InstructionCount>,
    /// The test's `instructions` limit when this run did not count it, so
    /// that the limit went unchecked: the test's line marks it. Not written
    /// to `report.json`, whose `reasons` say it.
    #[serde(skip)]
    pub unchecked_instruction_limit: Option<u64>,
    /// Source location of the test.
    pub file: String,
    /// Line of the test.
    pub line: u32,
    /// Wall time of this test, in seconds.
    pub duration_s: f64,
}

/// One reason a test's verdict gives: what gave it, whether it failed the
/// test, and its words, all three made from the finding that gave it
/// ([`Reason::of`]): whether it fails is [`Said::fails`](crate::checks::Said::fails)'s,
/// never decided here. `report.json`'s `reasons` hold the words alone, and
/// a reason read back from one knows nothing else.
#[derive(Debug, Clone, PartialEq)]
pub struct Reason {
    /// What gave it; `None` when read back from `report.json`.
    pub source: Option<Source>,
    /// Whether it failed the test.
    pub fails: bool,
    /// The reason in words, one sentence.
    pub text: String,
}

#[cfg(any(test, feature = "internals"))]
impl Reason {
    /// A reason of `source` that fails nothing.
    pub fn said(source: Source, text: impl Into<String>) -> Reason {
        Reason {
            source: Some(source),
            fails: false,
            text: text.into(),
        }
    }

    /// A reason of `source` that fails the test.
    pub fn failing(source: Source, text: impl Into<String>) -> Reason {
        Reason {
            fails: true,
            ..Reason::said(source, text)
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl serde::Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

#[cfg(feature = "tool")]
impl<'de> serde::Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Reason {
            source: None,
            fails: false,
            text: String::deserialize(d)?,
        })
    }
}

/// A failure measured under interference, re-measured once
/// (`report.json`'s per-test `remeasured`). The re-measurement decides the
/// verdict; see docs/verdicts.md, "Interference".
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Remeasured {
    /// The first measurement's reasons (one per check), the failure among them.
    pub first_reasons: Vec<Reason>,
    /// The first measurement's estimate, ns per iteration.
    pub first_ns_per_iter: Option<f64>,
    /// What the OS knew about other work during the first measurement.
    pub first_interference: Interference,
    /// The re-measurement's cap on sampling, s: what the first left of
    /// `max_time`, and at least a quarter of it.
    pub max_time_s: f64,
    /// What the re-measurement found: [`Outcome::Passed`],
    /// [`Outcome::Failed`] or [`Outcome::FailedUnderInterference`] (a
    /// failure again, disturbed or not, fails the test).
    pub outcome: Outcome,
}

/// The statistical account of a measured test (`--verbose` prints it).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Diagnostics {
    /// The verdict's statistic: its candidate is the verdict estimate in
    /// full ([`Diagnostics::verdict_estimate`]).
    pub verdict_statistic: Statistic,
    /// Every candidate statistic with its CI (the stability study reads
    /// these), each with its serial-correlation-aware CI, the CI that
    /// independent samples would give, and the effective sample size.
    pub candidates: Vec<Estimate>,
    /// CI of the standard deviation (Boyer).
    pub sd_ci: Interval,
    /// Autocorrelation by lag against chance, Ljung–Box, and the verdict.
    pub serial: SerialCorrelation,
    /// The modes of the samples.
    pub modality: Modality,
    /// Upper bound of a sample's relative error from the timer's resolution
    /// (Newcomer's gating error).
    pub gating_error: f64,
    /// Whether the spread is the machine's (against the run's noise floor).
    pub noise: Option<NoiseDiagnosis>,
}

impl Diagnostics {
    /// The verdict statistic in full, among the candidates (`None` only
    /// in a report that lists none).
    pub fn verdict_estimate(&self) -> Option<&Estimate> {
        self.candidates
            .iter()
            .find(|e| e.statistic == self.verdict_statistic)
    }
}

/// The `estimate` object of `report.json`.
///
/// An infinite CI bound is written as `null`, as in [`Interval`], and read
/// back as −∞ (`ci_low`) or +∞ (`ci_high`).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct EstimateRecord {
    /// `median` or `mean`.
    pub statistic: Statistic,
    /// The point estimate, ns per iteration.
    pub ns_per_iter: f64,
    /// The CI, ns per iteration, written as the record's `ci_low`,
    /// `ci_high` and `confidence`.
    #[serde(flatten, with = "crate::stats::interval::ci_fields")]
    pub ci: Interval,
    /// Effective number of independent samples behind the CI (below the
    /// sample count when samples are serially correlated).
    pub effective_samples: f64,
    /// Whether the estimate is below the measurement's resolution: the
    /// point is then clamped at 0 and the CI reaches up to what the
    /// measurement can resolve ([`crate::stats::at_resolution`]). Written
    /// only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub below_resolution: bool,
}

impl From<&Estimate> for EstimateRecord {
    fn from(e: &Estimate) -> Self {
        EstimateRecord {
            statistic: e.statistic,
            ns_per_iter: e.point,
            ci: e.ci,
            effective_samples: e.effective_n,
            below_resolution: false,
        }
    }
}

impl TestReport {
    /// A report of a test at `file:line` with its verdict and nothing
    /// else: what a test that is not run reports.
    pub fn new(name: String, verdict: Verdict, file: &str, line: u32) -> TestReport {
        TestReport {
            name,
            verdict,
            reasons: Vec::new(),
            estimate: None,
            samples: 0,
            iters_per_sample: 0,
            warnings: Vec::new(),
            budget: None,
            summary: None,
            outliers: None,
            work: None,
            rate_per_s: None,
            panic: None,
            measurement: None,
            diagnostics: None,
            baseline: None,
            comparison: None,
            interference: None,
            remeasured: None,
            size: None,
            complexity: None,
            measure: Clock::Wall,
            wall_ns_per_iter: None,
            threads: None,
            allocations: None,
            cpu: None,
            processes: None,
            instructions: None,
            unchecked_instruction_limit: None,
            file: file.to_owned(),
            line,
            duration_s: 0.0,
        }
    }
}
