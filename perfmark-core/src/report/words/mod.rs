//! The verdicts in words: every sentence perfmark says of a test or a run,
//! made here alone, when a report is written, from the values the checks
//! and the runner decided ([`Said`], [`Warning`], the environment's
//! warnings, the records): one file per feature, one for the runner's, one
//! for a measurement's warnings, one for the run's environment. The
//! sentences are part of the output contract (docs/output.md).

pub mod allocations;
pub mod baseline;
pub mod budget;
pub mod complexity;
pub mod cpus;
pub mod environment;
pub mod instructions;
pub mod interference;
pub mod measurement;
pub mod paired;
pub mod processes;
pub mod remeasure;
pub mod runner;

use crate::checks::{Said, Warning};
use crate::report::Reason;

/// What a check or the runner said, in one sentence: a test's reason.
pub fn said(said: &Said) -> String {
    match said {
        Said::Budget(s) => budget::said(s),
        Said::Baseline(s) => baseline::said(s),
        #[cfg(feature = "compare")]
        Said::Paired(s) => paired::said(s),
        Said::Allocations(s) => allocations::said(s),
        Said::Complexity(s) => complexity::said(s),
        Said::Instructions(s) => instructions::said(s),
        Said::Runner(s) => runner::said(s),
    }
}

/// A warning in one sentence, saying what it means for the verdict.
pub fn warning(warning: &Warning) -> String {
    match warning {
        Warning::BudgetInconclusive {
            processes_sd_log,
            max_time_ns,
        } => budget::inconclusive_warning(*processes_sd_log, *max_time_ns),
        Warning::SizesTooClose {
            low,
            high,
            detectable_excess,
        } => complexity::sizes_too_close(*low, *high, *detectable_excess),
        Warning::FasterFitWithinMargin { fitted, declared } => {
            complexity::faster_fit_within_margin(*fitted, *declared)
        }
        #[cfg(feature = "instructions")]
        Warning::CountNotDeterministic {
            min_per_iter,
            max_per_iter,
            rounds,
            processes,
        } => instructions::not_deterministic(*min_per_iter, *max_per_iter, *rounds, *processes),
        #[cfg(feature = "instructions")]
        Warning::CountByOtherCompiler { rustc } => instructions::count_by_other_compiler(rustc),
        #[cfg(feature = "compare")]
        Warning::PairedUndecided { stop, tolerance } => paired::undecided(*stop, *tolerance),
        #[cfg(feature = "compare")]
        Warning::PairedAsymmetry { head, base } => interference::asymmetry(*head, *base),
        Warning::Disturbed(i) => i.warning().unwrap_or_default(),
        Warning::ProcessesBeyondHistory {
            tau_own,
            history,
            processes,
        } => processes::beyond_history(*tau_own, *history, *processes),
        Warning::Samples(samples) => measurement::warning(samples),
        Warning::CpuClockNotForCustom => runner::CPU_CLOCK_NOT_FOR_CUSTOM.to_owned(),
        Warning::ThreadsShareCpus {
            threads,
            candidates,
        } => runner::threads_share_cpus(*threads, *candidates),
        Warning::WorkersFailed { error } => runner::workers_failed(error),
        Warning::Remeasured { first, passed } => remeasure::remeasured(first, *passed),
    }
}

impl Reason {
    /// The reason `said` gives a test: what gave it, whether it fails the
    /// test, and its sentence.
    pub fn of(said: &Said) -> Reason {
        Reason {
            source: Some(said.source()),
            fails: said.fails(),
            text: self::said(said),
        }
    }
}
