//! What the runner says of a test it could not judge, or judged with a
//! caveat: an unoptimized build, a panic, a body that handed no routine to
//! the Bencher, a CPU clock the platform lacks, worker processes that
//! failed, a test the base build lacks, a paired comparison that failed,
//! and the members of a complexity group that could not be fitted.

use std::time::Duration;

use crate::checks::{RunnerSaid, Said};
use crate::report::fmt::{fmt_ns, plain_percent};
use crate::report::{facts, FamilyBound, FamilyWise, ScalingLine, Startup, TestReport};
use crate::stats::bonferroni_confidence;

/// What the runner said of a test, in one sentence.
pub fn said(said: &RunnerSaid) -> String {
    match said {
        RunnerSaid::NotMeasured => NOT_MEASURED_UNOPTIMIZED.to_owned(),
        RunnerSaid::CpuClockMissing => CPU_CLOCK_MISSING.to_owned(),
        RunnerSaid::NoRoutine => NO_ROUTINE.to_owned(),
        RunnerSaid::Panicked { headline } => panicked(headline),
        RunnerSaid::Hung { bound, rule } => hung(*bound, *rule),
        RunnerSaid::NoThread { error } => format!("could not start a thread for the test: {error}"),
        RunnerSaid::NotInBase => NOT_IN_BASE.to_owned(),
        RunnerSaid::FailedTwice { first, again } => {
            super::remeasure::failed_twice(first, again.as_deref())
        }
        RunnerSaid::Ignored { why } => ignored(why.as_deref()),
    }
}

/// What libtest prints under `failures:` for a failed test: the whole
/// `panic` message when the body panicked (and a failure under
/// interference twice after it), else every reason `said`, one a line.
pub fn failure_detail(panic: Option<&str>, said: &[Said]) -> String {
    let Some(message) = panic else {
        let reasons: Vec<String> = said.iter().map(super::said).collect();
        return reasons.join("\n");
    };
    let mut detail = panicked_detail(message);
    for twice in said
        .iter()
        .filter(|s| matches!(s, Said::Runner(RunnerSaid::FailedTwice { .. })))
    {
        detail.push('\n');
        detail.push_str(&super::said(twice));
    }
    detail
}

/// What a test of an unoptimized build says: it ran a few times and was
/// not measured.
pub const NOT_MEASURED_UNOPTIMIZED: &str =
    "not measured: unoptimized build, run `cargo test --release`";

/// Why a test with `measure = "cpu"` fails where the thread's CPU clock is
/// missing.
pub const CPU_CLOCK_MISSING: &str = "measure = \"cpu\" needs the thread's CPU clock \
     (CLOCK_THREAD_CPUTIME_ID), which this platform does not have here; remove the option to \
     measure wall time";

/// Why a test whose body returned without timing anything fails.
pub const NO_ROUTINE: &str = "the test never handed a routine to the Bencher: call b.iter, \
     b.iter_batched, b.iter_batched_ref, b.iter_per_call or b.iter_custom once";

/// The warning of a test with `measure = "cpu"` that reports its own times.
pub const CPU_CLOCK_NOT_FOR_CUSTOM: &str =
    "measure = \"cpu\" does not apply to iter_custom: the routine's own times are used as given";

/// A threaded test whose threads could not each be held on a CPU of
/// their own.
pub fn threads_share_cpus(threads: usize, candidates: usize) -> String {
    let why = match candidates {
        0 => "this run holds no thread on a CPU (not pinned)".to_owned(),
        n => format!("this machine has {n} CPUs to hold them on"),
    };
    format!(
        "{threads} threads, not each on a CPU of its own: {why}; they were left to the \
         scheduler, and their times include waiting for a CPU"
    )
}

/// What a test of the head that the base build lacks says in a paired
/// comparison.
pub const NOT_IN_BASE: &str = "new: not in the base build, not compared";

/// The reason of a test whose body panicked: `panicked: ` and the
/// message's first line.
fn panicked(headline: &str) -> String {
    format!("panicked: {headline}")
}

/// What libtest prints under `failures:` for a test whose body panicked:
/// the whole message.
fn panicked_detail(message: &str) -> String {
    format!("panicked at {message}")
}

/// The reason of an ignored test: `ignored`, with `why` when the attribute
/// gave one.
fn ignored(why: Option<&str>) -> String {
    match why {
        Some(why) => format!("ignored: {why}"),
        None => "ignored".to_owned(),
    }
}

/// The warning of a test measured in this process alone because its
/// worker processes failed with `error`.
pub fn workers_failed(error: &str) -> String {
    format!("measured in this process only: its worker processes failed ({error})")
}

/// The reason of a test that did not return within `bound`, and how to
/// give it longer: the default `rule`, `(factor, grace)` for `factor ×
/// (warmup + max_time) + grace`, or `--timeout` when `None`.
fn hung(bound: Duration, rule: Option<(u32, Duration)>) -> String {
    let how = match rule {
        None => "--timeout / PERFMARK_TIMEOUT".to_owned(),
        Some((factor, grace)) => {
            format!("{factor} × (warmup + max_time) + {} s", grace.as_secs())
        }
    };
    format!(
        "did not return within {} s ({how}): stopped, and the run with it; if the test is \
         meant to take this long, raise the bound with --timeout DURATION or PERFMARK_TIMEOUT",
        fmt_secs(bound)
    )
}

/// Whole seconds as `92`, else to the millisecond: `1.500`.
fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.3}")
    }
}

/// `--instructions` given to a test binary built without perfmark's
/// `instructions` feature.
#[cfg(not(feature = "instructions"))]
pub const WITHOUT_INSTRUCTIONS: &str = "--instructions needs perfmark's `instructions` feature, \
     which this test binary was built without: run `cargo perfmark baseline --instructions` or \
     `cargo perfmark compare --instructions`, which turn it on, or build with `cargo test \
     --release --features perfmark/instructions`";

/// `--compare-with` given to a test binary built without perfmark's
/// `compare` feature.
pub const WITHOUT_COMPARE: &str = "--compare-with needs perfmark's `compare` feature, which \
     this test binary was built without: run `cargo perfmark compare`, which turns it on, or \
     build with `cargo test --release --features perfmark/compare`";

impl Startup {
    /// The header line that says it: `start-up 0.189 s: clock calibration
    /// 5.1 ms, noise floor 183.6 ms (measured)`.
    pub fn line(&self) -> String {
        format!(
            "start-up {:.3} s: clock calibration {}, noise floor {} ({})",
            self.clock_calibration_s + self.noise_floor_s,
            fmt_ns(self.clock_calibration_s * 1e9),
            fmt_ns(self.noise_floor_s * 1e9),
            if self.noise_floor_shared {
                "shared by an earlier test of this nextest run"
            } else {
                "measured"
            }
        )
    }
}

/// How the run's verdicts are decided, for the `--verbose` header (what
/// the correction bounds is known after the run: [`family_statement`]).
pub fn verdicts(family: FamilyWise) -> String {
    if family.enabled {
        format!(
            "family-wise over {m} verdicts (Bonferroni): each at 1 − (1 − c)/{m}, {:.2}% for \
             c = 0.95",
            bonferroni_confidence(0.95, family.verdicts) * 100.0,
            m = family.verdicts,
        )
    } else if family.verdicts > 1 {
        format!(
            "each of {} verdicts at its test's own confidence (--family-wise to keep it for \
             the run as a whole)",
            family.verdicts
        )
    } else {
        "each test at its own confidence".to_owned()
    }
}

/// What the family-wise correction bounded, for the footer.
pub fn family_statement(family: &FamilyBound) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut words = format!(
        "family-wise (Bonferroni over {m} verdicts, each at 1 − (1 − c)/{m}): the chance \
         that any of them failed falsely by its CI is at most {}",
        plain_percent(family.bound),
        m = family.verdicts,
    );
    if family.straddled > 0 {
        words.push_str(&format!(
            "; not covered: {} budget{} whose CI straddled the line, decided on the estimate",
            family.straddled,
            plural(family.straddled)
        ));
    }
    if family.complexity > 0 {
        words.push_str(&format!(
            "; not counted: {} complexity verdict{}, each at its test's own confidence",
            family.complexity,
            plural(family.complexity)
        ));
    }
    words
}

/// The footer's lines: each sentence about baselines recorded on another
/// machine (the same for every test whose baseline came from there), the
/// machine's move when it moved beyond a tolerance, and what the
/// family-wise correction bounded, when the run corrects.
pub fn footer(
    reports: &[TestReport],
    family: Option<&FamilyBound>,
    scaling: &[ScalingLine],
) -> Vec<String> {
    let mut lines: Vec<String> = facts::other_machine_sentences(reports)
        .into_iter()
        .map(|(sentence, tests)| {
            format!(
                "note: {sentence} ({tests} test{})",
                if tests == 1 { "" } else { "s" }
            )
        })
        .collect();
    lines
        .extend(facts::machine_moved_sentence(reports).map(|sentence| format!("note: {sentence}")));
    lines.extend(family.map(family_statement));
    lines.extend(scaling.iter().map(scaling_line));
    lines
}

/// How a threaded function's time per iteration grew with its threads:
/// `scaling lock: 1 thread 20.1 ns, 2 threads 45.3 ns (2.25x), …`.
pub fn scaling_line(line: &ScalingLine) -> String {
    let points: Vec<String> = line
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let threads = match p.threads {
                1 => "1 thread".to_owned(),
                n => format!("{n} threads"),
            };
            let ratio = if i == 0 {
                String::new()
            } else {
                format!(" ({:.2}x)", p.ratio)
            };
            format!("{threads} {}{ratio}", fmt_ns(p.ns_per_iter))
        })
        .collect();
    format!(
        "scaling {}: {} per iteration per thread",
        line.function,
        points.join(", ")
    )
}
