//! Checks: what every decision a measured test is passed or failed by has
//! in common. Each check lives with its feature (`check.rs` in
//! [`crate::budget`], [`crate::baseline`], [`crate::paired`],
//! [`crate::allocations`]; the instruction limit in
//! [`crate::instructions`]).
//!
//! Each check sees the same [`Subject`] (the test's name, its resolved
//! plan and tolerance, its measurement and its verdict estimate) and returns
//! a [`Finding`]: what it decided, as its feature's own value with the
//! numbers it decided on and the record `report.json` keeps ([`Said`]),
//! and the [`Warning`]s that qualify it. Values only: whether the test
//! fails is derived from them ([`Said::fails`]), and their sentences are
//! made by `report::words` when the test's report is written. The runner
//! runs the list of checks it built for the run and folds the findings into
//! the test's outcome; adding a check means one `check.rs` in its feature's
//! folder, one entry in that list, one variant here and its words.
//!
//! The complexity check is the exception: it judges a group of tests (one
//! per argument) rather than one measurement, so the runner calls
//! [`crate::complexity::check::decide`] for the group's own test, `NAME::complexity`.

use std::time::Duration;

use perfmark_options::Complexity;

use crate::allocations::said::AllocationsSaid;
use crate::allocations::Allocations;
use crate::baseline::said::BaselineSaid;
use crate::budget::said::BudgetSaid;
use crate::complexity::said::ComplexitySaid;
use crate::instructions::count::InstructionsSaid;
use crate::measure::{Measurement, Plan};
use crate::observe::Interference;
#[cfg(feature = "compare")]
use crate::paired::record::PairedStop;
#[cfg(feature = "compare")]
use crate::paired::said::PairedSaid;
use crate::processes::ProcessSpread;
use crate::stats::{Estimate, Mode, Outliers, Statistic};
pub use crate::verdicts::{Outcome, Verdict};

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

/// What a check, or the runner, said of a test: the decision with the
/// numbers it was made on, one variant per feature, each holding that
/// feature's own value (and the record `report.json` keeps of it). Whether
/// it fails the test is derived from those numbers ([`Said::fails`]); its
/// sentence is made from them by `report::words`, when the test's report
/// is written.
#[derive(Debug, Clone)]
pub enum Said {
    /// The budget check's.
    Budget(BudgetSaid),
    /// The check against the stored baseline's.
    Baseline(BaselineSaid),
    #[cfg(feature = "compare")]
    /// The paired comparison with another build's.
    Paired(PairedSaid),
    /// The allocation limit's.
    Allocations(AllocationsSaid),
    /// The growth over `args` against the declared class.
    Complexity(ComplexitySaid),
    /// Instruction counts' (`--instructions`).
    Instructions(InstructionsSaid),
    /// The runner's own.
    Runner(RunnerSaid),
}

impl Said {
    /// What gave it.
    pub fn source(&self) -> Source {
        match self {
            Said::Budget(_) => Source::Budget,
            Said::Baseline(_) => Source::Baseline,
            #[cfg(feature = "compare")]
            Said::Paired(_) => Source::Paired,
            Said::Allocations(_) => Source::Allocations,
            Said::Complexity(_) => Source::Complexity,
            Said::Instructions(_) => Source::Instructions,
            Said::Runner(RunnerSaid::NotInBase) => Source::NotInBase,
            Said::Runner(_) => Source::Runner,
        }
    }

    /// Whether it fails the test: the one place a finding's outcome is
    /// decided, from each feature's own values.
    pub fn fails(&self) -> bool {
        match self {
            Said::Budget(b) => b.fails(),
            Said::Baseline(b) => b.fails(),
            #[cfg(feature = "compare")]
            Said::Paired(p) => p.fails(),
            Said::Allocations(a) => a.fails(),
            Said::Complexity(c) => c.fails(),
            Said::Instructions(i) => i.fails(),
            Said::Runner(r) => r.fails(),
        }
    }
}

/// What the runner says of a test it could not judge, or judged with a
/// caveat.
#[derive(Debug, Clone, PartialEq)]
pub enum RunnerSaid {
    /// An unoptimized build's test: run a few times, not measured.
    NotMeasured,
    /// `measure = "cpu"` where the thread's CPU clock is missing.
    CpuClockMissing,
    /// The body returned without handing a routine to the Bencher.
    NoRoutine,
    /// The body panicked: the first line of its message.
    Panicked {
        /// The message's first line.
        headline: String,
    },
    /// The body did not return within `bound`, the default `rule` (`factor
    /// × (warmup + max_time) + grace`) or `--timeout` when `None`.
    Hung {
        /// How long the body was given.
        bound: Duration,
        /// `(factor, grace)` of the default bound; `None` under `--timeout`.
        rule: Option<(u32, Duration)>,
    },
    /// No thread could be started for the test.
    NoThread {
        /// Why, as the error displays.
        error: String,
    },
    /// A test of the head that the base build lacks, in a paired
    /// comparison: not compared.
    NotInBase,
    /// A failure measured under `first` interference, measured again and
    /// failed under `again`: the failure may be the machine's.
    FailedTwice {
        /// What the OS saw during the first measurement.
        first: Box<Interference>,
        /// During the second, when it was disturbed.
        again: Option<Box<Interference>>,
    },
    /// An ignored test, with the attribute's reason when it gave one.
    Ignored {
        /// `ignore = "why"`.
        why: Option<String>,
    },
}

impl RunnerSaid {
    /// Whether it fails the test: all but an unoptimized build's test, a
    /// test the base lacks, and an ignored one.
    pub fn fails(&self) -> bool {
        !matches!(
            self,
            RunnerSaid::NotMeasured | RunnerSaid::NotInBase | RunnerSaid::Ignored { .. }
        )
    }
}

/// What qualifies a test's verdict: a warning the console prints under it
/// and `report.json` keeps in words. Each holds the numbers it is said
/// with.
#[derive(Debug, Clone)]
pub enum Warning {
    /// The budget's CI did not clear it: `processes_sd_log`, the sd of the
    /// log estimates of the processes that measured the test, when their
    /// spread set the interval; else sampling stopped at `max_time_ns`.
    BudgetInconclusive {
        /// The processes' spread, when it set the interval.
        processes_sd_log: Option<f64>,
        /// The sampling cap, ns.
        max_time_ns: f64,
    },
    /// Sizes from `low` to `high` that could only catch an excess of
    /// `detectable_excess` (a power of n) beyond the declared class.
    SizesTooClose {
        /// The smallest size.
        low: u64,
        /// The largest size.
        high: u64,
        /// The smallest excess they could catch.
        detectable_excess: f64,
    },
    /// A passing complexity check whose best fit grows faster than the
    /// declared class, by less than the margin.
    FasterFitWithinMargin {
        /// The best-fitting class.
        fitted: Complexity,
        /// The declared class.
        declared: Complexity,
    },
    #[cfg(feature = "instructions")]
    /// An instruction count whose rounds or processes disagree.
    CountNotDeterministic {
        /// The smallest count per iteration over the rounds.
        min_per_iter: f64,
        /// The largest.
        max_per_iter: f64,
        /// Rounds counted in each process.
        rounds: u32,
        /// Counting processes.
        processes: u32,
    },
    #[cfg(feature = "instructions")]
    /// A stored instruction count made by another compiler: not compared.
    CountByOtherCompiler {
        /// That compiler's `rustc --version`.
        rustc: String,
    },
    #[cfg(feature = "compare")]
    /// A paired comparison that stopped, at `stop`, before its interval
    /// cleared the `tolerance` either way.
    PairedUndecided {
        /// Why sampling stopped.
        stop: PairedStop,
        /// The tolerance, a fraction.
        tolerance: f64,
    },
    #[cfg(feature = "compare")]
    /// Other work took `head` of the head's slice time and `base` of the
    /// base's: it hit one side of a paired comparison more than the other.
    PairedAsymmetry {
        /// Share of the head's slice time taken, a fraction.
        head: f64,
        /// Share of the base's.
        base: f64,
    },
    /// Other work took enough of the measurement's time to disturb it.
    Disturbed(Interference),
    /// The processes that measured a test differ (`tau_own`, the sd between
    /// them on the log scale) more than this machine's `history` for it
    /// allows.
    ProcessesBeyondHistory {
        /// The sd between this run's processes, log scale.
        tau_own: f64,
        /// The sd this machine's history gives, log scale.
        history: f64,
        /// Processes that measured the test.
        processes: usize,
    },
    /// What the samples say for the verdict.
    Samples(SampleWarning),
    /// `measure = "cpu"` on a test that reports its own times
    /// (`iter_custom`).
    CpuClockNotForCustom,
    /// A threaded test's threads could not each have a CPU of their own:
    /// `threads` threads, `candidates` CPUs to hold them on.
    ThreadsShareCpus {
        /// Threads of the test.
        threads: usize,
        /// CPUs the run could hold threads on (0: it holds none).
        candidates: usize,
    },
    /// The worker processes failed, so the test was measured in this
    /// process only.
    WorkersFailed {
        /// Why, as the error displays.
        error: String,
    },
    /// A failure under `first` interference, measured again: it `passed`,
    /// or failed too with less interference.
    Remeasured {
        /// What the OS saw during the first measurement.
        first: Interference,
        /// Whether the re-measurement passed.
        passed: bool,
    },
}

/// What a measurement's samples say for its verdict, with the figures.
#[derive(Debug, Clone)]
pub enum SampleWarning {
    /// The `raw` estimate is below the measurement's resolution,
    /// `resolution_ns` per iteration, and reads as `read`.
    BelowResolution {
        /// As measured.
        raw: Estimate,
        /// As the checks read it.
        read: Estimate,
        /// The resolution per iteration, ns.
        resolution_ns: f64,
    },
    /// The CI's relative half-width stayed above the `target` precision
    /// until sampling stopped at `max_time_ns`.
    PrecisionNotReached {
        /// The target relative half-width.
        target: f64,
        /// The sampling cap, ns.
        max_time_ns: f64,
        /// The CI's relative half-width reached.
        half_width: f64,
    },
    /// Tukey outliers among `samples`, which the `statistic` includes or
    /// is robust to.
    Outliers {
        /// The counts.
        outliers: Outliers,
        /// Samples taken.
        samples: usize,
        /// The verdict's statistic.
        statistic: Statistic,
    },
    /// Serially correlated samples: `lag1` autocorrelation, worth
    /// `effective_n` independent ones of `n`, with a CI `widened` times as
    /// wide as independence would make it.
    SerialCorrelation {
        /// Lag-1 autocorrelation.
        lag1: f64,
        /// Effective number of independent samples.
        effective_n: f64,
        /// Samples.
        n: usize,
        /// The CI's width over the one independence would give.
        widened: f64,
    },
    /// The samples have several modes.
    Modes(Vec<Mode>),
    /// The timer's resolution allows this relative error per sample
    /// (Newcomer's gating error).
    GatingError(f64),
    /// The samples' spread (`test_cov`) is the machine's: its noise floor
    /// alone is `floor_cov`.
    MachineSpread {
        /// The test's relative spread.
        test_cov: f64,
        /// The noise floor's.
        floor_cov: f64,
    },
}

/// One check's decision about one test, and what qualifies it.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The decision, with its numbers.
    pub said: Said,
    /// Warnings that qualify the decision.
    pub warnings: Vec<Warning>,
}

impl Finding {
    /// A finding that says `said`, with no warning.
    pub fn new(said: Said) -> Self {
        Finding {
            said,
            warnings: Vec::new(),
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
