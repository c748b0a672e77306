//! The words of a test's verdict, budget, sampling and stop, for the facts.

use crate::checks::Verdict;

use crate::budget::BudgetRecord;
use crate::measure::{SampleKind, StopReason};
use crate::report::fmt::{fmt_ns, fmt_percent};
use crate::verdicts::Outcome;

/// A verdict in words for people: `pass`, `fail`, `ignored`, `not measured`
/// (`report.json` spells the last `not_measured`: [`Verdict::as_str`]).
pub fn verdict_words(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::Ignored => "ignored",
        Verdict::NotMeasured => "not measured",
    }
}

/// The budget, where the CI lies against it, and the estimate's share of it.
pub(super) fn budget_words(b: &BudgetRecord) -> String {
    let outcome = match b.outcome {
        Outcome::Under => "CI under",
        Outcome::Over => "CI over",
        Outcome::InconclusiveUnder => "inconclusive, estimate under",
        Outcome::InconclusiveOver => "inconclusive, estimate over",
        // Only the four above are a budget's outcomes (`Outcome`'s doc).
        other => other.as_str(),
    };
    format!(
        "{} ({outcome}, estimate at {})",
        fmt_ns(b.budget_ns),
        fmt_percent(b.ratio, 0)
    )
}

pub(super) fn kind_words(kind: SampleKind) -> &'static str {
    match kind {
        SampleKind::Loop => "the routine in a loop (iter)",
        SampleKind::Batched => "inputs prepared untimed (iter_batched)",
        SampleKind::Custom => "times reported by the test (iter_custom)",
        SampleKind::Threads => {
            "the routine on every thread of the test at once, from their common start to the \
             last one's end (iter_shared)"
        }
        SampleKind::PerCall => {
            "each call timed alone on an input prepared untimed, after a random wait \
             (iter_per_call, Falco's per-call sampling): only the mean is meaningful"
        }
    }
}

pub(super) fn stop_words(stop: StopReason) -> &'static str {
    match stop {
        StopReason::Precision => "the CI reached the target precision",
        StopReason::MaxTime => "max_time ran out",
        StopReason::SampleCap => "the sample cap was reached",
        StopReason::Smoke => "smoke run in an unoptimized build",
    }
}
