//! The console: libtest's `test NAME ... ok|FAILED|ignored` line for each
//! test, perfmark's indented summary lines under it (DESIGN §1 "Output"),
//! and with `--verbose` the full account of the measurement (Boyer's
//! `toStringFull`, seed 002).

use std::fmt::Write as _;

use super::facts::{clock_line, test_facts};
use super::fmt::{fmt_bound, fmt_ns, fmt_rate};
use super::TestReport;
use crate::checks::allocs::fmt_allocations;
use crate::checks::Verdict;
use crate::measure::SampleKind;
use crate::stats;
use crate::stats::compare::words::plain_percent;

/// The line under a test measured by per-call sampling
/// (`Bencher::iter_per_call`).
pub const PER_CALL_NOTE: &str = "per-call sampling (Falco): each call timed alone after a random \
     wait, so the mean is unbiased even below the timer's resolution; only the mean is \
     meaningful, not the median";

/// What perfmark's lines under a test's line start with.
pub const INDENT: &str = "    ";

/// Bins of the `--verbose` text histogram.
const TEXT_HISTOGRAM_BINS: usize = 12;
/// Width of the fullest bar of the `--verbose` text histogram, in characters.
const TEXT_HISTOGRAM_WIDTH: usize = 40;
/// Lags of the autocorrelation `--verbose` lists.
const VERBOSE_LAGS: usize = 10;

/// The start of a test's line, printed before it runs: `test NAME ... `.
pub fn test_line_start(name: &str) -> String {
    format!("test {name} ... ")
}

/// What ends a test's line once it ran: `ok`, or `FAILED` when it failed.
pub fn outcome_word(t: &TestReport) -> &'static str {
    if t.verdict == Verdict::Fail {
        "FAILED"
    } else {
        "ok"
    }
}

/// The whole line of a test that was not run: `test NAME ... ignored`, with
/// the reason after a comma when the attribute gave one.
pub fn ignored_line(name: &str, why: Option<&str>) -> String {
    match why {
        Some(why) => format!("{}ignored, {why}", test_line_start(name)),
        None => format!("{}ignored", test_line_start(name)),
    }
}

/// The lines printed under a test's line, indented: its summary lines and,
/// when `verbose`, its full account.
pub fn lines_under(t: &TestReport, verbose: bool) -> Vec<String> {
    let mut lines = summary_lines(t);
    if verbose {
        lines.extend(verbose_lines(t));
    }
    lines.into_iter().map(|l| format!("{INDENT}{l}")).collect()
}

/// The summary lines of a test (unindented): the estimate with its CI and
/// the rate, the summary statistics, one reason per check, what a
/// comparison with a stored baseline could detect, the warnings.
pub fn summary_lines(t: &TestReport) -> Vec<String> {
    let mut lines = Vec::new();
    if let (Some(e), Some(m)) = (&t.estimate, &t.measurement) {
        // `95%`, or `99.92%` for a level corrected for the run's family.
        let mut line = format!(
            "{} {}/iter [{}, {}] ({} CI, {} samples × {} iters)",
            e.statistic.as_str(),
            fmt_ns(e.ns_per_iter),
            fmt_ns(e.ci_low),
            fmt_ns(e.ci_high),
            plain_percent(e.confidence),
            t.samples,
            t.iters_per_sample,
        );
        if let (Some(work), Some(rate)) = (t.work, t.rate_per_s) {
            let _ = write!(line, " · {}", fmt_rate(work, rate));
        }
        lines.push(line);
        if m.kind == SampleKind::PerCall {
            lines.push(PER_CALL_NOTE.to_owned());
        }
        if let Some(s) = &t.summary {
            lines.push(format!(
                "mean {} · sd {} · min {} · cov {:.1}% · first call {}",
                fmt_ns(s.mean),
                fmt_ns(s.sd),
                fmt_ns(s.min),
                s.cov * 100.0,
                fmt_ns(m.first_call_ns),
            ));
        }
        if let Some(line) = clock_line(t) {
            lines.push(line);
        }
    }
    if let Some(a) = &t.allocations {
        lines.push(format!(
            "heap: {} (counted untimed over {} iterations)",
            fmt_allocations(a),
            a.iterations
        ));
    }
    if let Some(c) = &t.complexity {
        lines.extend(c.lines());
    }
    lines.extend(t.reasons.iter().cloned());
    if let Some(c) = t.baseline.as_ref().and_then(|b| b.comparison.as_ref()) {
        lines.push(c.detection());
    }
    lines.extend(t.warnings.iter().map(|w| format!("warning: {w}")));
    lines
}

/// The full account of a measured test (unindented), for `--verbose`: its
/// facts ([`test_facts`], as the HTML page states them) one per line, then
/// in text what the page draws: every candidate statistic, the Tukey
/// fences, the first autocorrelation lags, and a histogram. Nothing for a
/// test that was not measured.
pub fn verbose_lines(t: &TestReport) -> Vec<String> {
    let (Some(m), Some(d)) = (&t.measurement, &t.diagnostics) else {
        return Vec::new();
    };
    let mut lines: Vec<String> = test_facts(t)
        .into_iter()
        .map(|f| format!("{}: {}", f.label, f.value))
        .collect();
    if !d.candidates.is_empty() {
        lines.push("candidate statistics:".to_owned());
        lines.extend(d.candidates.iter().map(|c| {
            format!(
                "  {:<18} {} [{}, {}]",
                c.statistic.as_str(),
                fmt_ns(c.point),
                fmt_bound(c.ci.low),
                fmt_bound(c.ci.high)
            )
        }));
    }
    if let Some(o) = &t.outliers {
        let fences: Vec<String> = o.fences.iter().map(|&f| fmt_ns(f)).collect();
        lines.push(format!("Tukey fences: {}", fences.join(" · ")));
    }
    if !d.serial.lags.is_empty() {
        let lags: Vec<String> = d
            .serial
            .lags
            .iter()
            .take(VERBOSE_LAGS)
            .map(|r| format!("{r:+.2}"))
            .collect();
        lines.push(format!(
            "autocorrelation by lag 1..{}: {}",
            lags.len(),
            lags.join(" ")
        ));
    }
    lines.push("histogram (ns/iter):".to_owned());
    lines.extend(
        stats::text_histogram(&m.samples_ns, TEXT_HISTOGRAM_BINS, TEXT_HISTOGRAM_WIDTH)
            .into_iter()
            .map(|l| format!("  {l}")),
    );
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    #[test]
    fn the_summary_lines_of_a_measured_test() {
        let report = fixtures::realistic();
        let lines = summary_lines(&report.tests[0]);
        assert_eq!(
            lines,
            [
                "median 41.03 ns/iter [40.77 ns, 41.31 ns] (95% CI, 120 samples × 4096 iters) · 1.561 GB/s",
                "mean 41.47 ns · sd 2.756 ns · min 39.65 ns · cov 6.6% · first call 1.234 µs",
                "median 41.03 ns/iter",
                "warning: 3 outliers of 120 samples (3 high, 0 of them severe; 0 low)",
            ]
        );
        let under = lines_under(&report.tests[0], false);
        assert_eq!(under.len(), 4);
        assert!(under.iter().all(|l| l.starts_with(INDENT)));
        // A comparison with a stored baseline says what it could detect,
        // right after the reasons.
        let compared = summary_lines(&report.tests[3]);
        let at = compared
            .iter()
            .position(|l| l.starts_with("this comparison can detect slowdowns above +"))
            .expect("a detection line");
        assert_eq!(at, 2 + report.tests[3].reasons.len(), "{compared:?}");
    }

    #[test]
    fn cpu_time_and_allocations_have_lines_of_their_own() {
        use crate::allocations::{AllocCount, Allocations};
        use crate::clock::Clock;
        let mut t = fixtures::realistic().tests[0].clone();
        let plain = summary_lines(&t);
        t.measure = Clock::Cpu;
        t.wall_ns_per_iter = Some(4.0 * t.estimate.as_ref().unwrap().ns_per_iter);
        t.allocations = Some(Allocations::per_iteration(
            AllocCount {
                allocs: 4096,
                bytes: 4096 * 48,
            },
            4096,
            None,
        ));
        let lines = summary_lines(&t);
        assert_eq!(lines.len(), plain.len() + 2);
        assert_eq!(
            lines[2],
            "times are thread CPU time (measure = \"cpu\") · wall median 164.1 ns/iter over the \
             same blocks; on the CPU 25% of its wall time"
        );
        assert_eq!(
            lines[3],
            "heap: 1 allocation (48 B) per iteration (counted untimed over 4096 iterations)"
        );
    }

    #[test]
    fn test_lines_as_libtest_prints_them() {
        let report = fixtures::realistic();
        assert_eq!(outcome_word(&report.tests[0]), "ok");
        assert_eq!(outcome_word(&report.tests[2]), "FAILED");
        assert_eq!(test_line_start("a::b"), "test a::b ... ");
        assert_eq!(ignored_line("slow", None), "test slow ... ignored");
        assert_eq!(
            ignored_line("slow", Some("needs a disk")),
            "test slow ... ignored, needs a disk"
        );
    }

    #[test]
    fn verbose_lines_state_the_facts_then_the_figures_in_text() {
        let report = fixtures::realistic();
        let t = &report.tests[0];
        let lines = verbose_lines(t);
        let facts = test_facts(t);
        for (line, fact) in lines.iter().zip(&facts) {
            assert_eq!(*line, format!("{}: {}", fact.label, fact.value));
        }
        let rest = &lines[facts.len()..];
        assert_eq!(
            rest[0],
            "Tukey fences: 37.76 ns · 39.17 ns · 42.93 ns · 44.34 ns"
        );
        assert!(rest[1].starts_with("autocorrelation by lag 1..10: +0.02 +0.15"));
        assert_eq!(rest[2], "histogram (ns/iter):");
        assert_eq!(rest.len(), 3 + TEXT_HISTOGRAM_BINS);
        let ignored = &report.tests[4];
        assert!(verbose_lines(ignored).is_empty());
        assert!(lines_under(ignored, true).is_empty());
    }
}
