//! The console: everything a test binary prints. On stdout, a header
//! naming the platform, libtest's `test NAME ... ok|FAILED|ignored` line
//! for each test with perfmark's indented summary lines under it, the
//! failures, and libtest's closing `test result:` line; with `--verbose`,
//! the full account of each measurement (as Brent Boyer's `toStringFull`
//! in "Robust Java benchmarking" (2008)). On stderr, errors and the wait
//! for another run's machine lock.
//!
//! The runner decides what to say; [`Console`] is the one place that says
//! it, one method per kind of line, so the text tools and readers match
//! lives here and nowhere else.

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use super::facts::{clock_line, test_facts};
use super::fmt::{fmt_bound, fmt_ns, fmt_rate};
use super::TestReport;
use crate::checks::allocs::fmt_allocations;
use crate::checks::Verdict;
use crate::measure::SampleKind;
use crate::platform::Platform;
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

/// Where a run's lines go: stdout for the run's own account, stderr for
/// errors and waits, each method one kind of line, as libtest and perfmark
/// print it. A write that fails panics, as `println!` does.
#[derive(Debug)]
pub struct Console<O: Write = io::Stdout, E: Write = io::Stderr> {
    out: O,
    err: E,
}

impl Console {
    /// The process's stdout and stderr.
    pub fn stdio() -> Self {
        Console::new(io::stdout(), io::stderr())
    }
}

impl<O: Write, E: Write> Console<O, E> {
    /// A console writing its account to `out` and its errors to `err`.
    pub fn new(out: O, err: E) -> Self {
        Console { out, err }
    }

    /// The two writers, for a caller that wrote to buffers.
    pub fn into_inner(self) -> (O, E) {
        (self.out, self.err)
    }

    fn say(&mut self, line: fmt::Arguments<'_>) {
        if let Err(e) = writeln!(self.out, "{line}") {
            panic!("failed printing to stdout: {e}");
        }
    }

    fn blank(&mut self) {
        self.say(format_args!(""));
    }

    /// `--help`: the usage text as it is.
    pub fn usage(&mut self, text: &str) {
        if let Err(e) = write!(self.out, "{text}") {
            panic!("failed printing to stdout: {e}");
        }
    }

    /// An error that stops the run: `error: MESSAGE` on stderr.
    pub fn error(&mut self, message: impl fmt::Display) {
        if let Err(e) = writeln!(self.err, "error: {message}") {
            panic!("failed printing to stderr: {e}");
        }
    }

    /// On stderr, before waiting for the machine-wide lock at `path`
    /// (stdout's first line is the header's, which readers look for).
    pub fn waiting_for_lock(&mut self, path: &Path) {
        if let Err(e) = writeln!(
            self.err,
            "waiting for another perfmark run measuring on this machine to finish ({})",
            path.display()
        ) {
            panic!("failed printing to stderr: {e}");
        }
    }

    /// `--list`: one `NAME: test` line per test, and libtest's count
    /// after a blank line unless `terse`.
    pub fn list(&mut self, names: &[String], terse: bool) {
        for name in names {
            self.say(format_args!("{name}: test"));
        }
        if !terse {
            self.blank();
            self.say(format_args!("{} tests, 0 benchmarks", names.len()));
        }
    }

    /// The header: perfmark and the platform (Peter Sestoft's SystemInfo,
    /// "Microbenchmarks in Java and C#" (2016)), the timers and the noise
    /// floor, a word when the build is not `measuring`, the run's
    /// `warnings`, and where the reports go.
    pub fn header(
        &mut self,
        p: &Platform,
        noise_floor: Option<f64>,
        measuring: bool,
        warnings: &[String],
        report_dir: &Path,
    ) {
        let kernel = p
            .kernel
            .as_deref()
            .map(|k| format!(" {k}"))
            .unwrap_or_default();
        self.say(format_args!(
            "perfmark {} · {}{kernel} {} · {} · {} cores · {} · {} build",
            p.perfmark_version, p.os, p.arch, p.cpu_model, p.cores, p.rustc, p.profile
        ));
        let floor = match noise_floor {
            Some(f) => format!("noise floor {:.2}% (LFSR task, robust spread)", f * 100.0),
            None => "noise floor not measured".to_owned(),
        };
        self.say(format_args!(
            "timer: Instant, resolution {}, overhead {} per read · {floor}",
            fmt_ns(p.clock.resolution_ns),
            fmt_ns(p.clock.overhead_ns)
        ));
        if let Some(cpu) = &p.cpu_clock {
            self.say(format_args!(
                "cpu timer (measure = \"cpu\"): thread CPU time, resolution {}, overhead {} per read",
                fmt_ns(cpu.resolution_ns),
                fmt_ns(cpu.overhead_ns)
            ));
        }
        if !measuring {
            self.say(format_args!("unoptimized build: tests run as smoke tests and are not measured; run `cargo test --release` (or set PERFMARK_FORCE=1)"));
        }
        for w in warnings {
            self.say(format_args!("warning: {w}"));
        }
        self.say(format_args!("reports: {}", report_dir.display()));
    }

    /// The run waited `waited` for the machine-wide lock at `path`.
    pub fn lock_waited(&mut self, waited: Duration, path: &Path) {
        self.say(format_args!(
            "machine lock: waited {:.2} s for another perfmark run measuring on this machine ({})",
            waited.as_secs_f64(),
            path.display()
        ));
    }

    /// What the start-up cost (under nextest, where every test pays it).
    pub fn startup(&mut self, line: &str) {
        self.say(format_args!("{line}"));
    }

    /// Compare mode's header: the base build, and the run's family-wise
    /// correction in `family_words`.
    pub fn comparing(&mut self, base: &Path, family_words: &str) {
        self.say(format_args!(
            "comparing with base {} (paired, slice by slice; {family_words}; stored baselines not read)",
            base.display()
        ));
    }

    /// How the run's verdicts are decided (`family_words`) and where the
    /// between-run spread comes from (`prior_header`).
    pub fn verdicts(&mut self, family_words: &str, prior_header: &str) {
        self.say(format_args!("verdicts: {family_words}"));
        self.say(format_args!("{prior_header}"));
    }

    /// libtest's `running N tests`, after a blank line.
    pub fn running(&mut self, tests: usize) {
        self.blank();
        self.say(format_args!(
            "running {tests} test{}",
            if tests == 1 { "" } else { "s" }
        ));
    }

    /// A test that is not run: its whole line ([`ignored_line`]).
    pub fn ignored(&mut self, name: &str, why: Option<&str>) {
        self.say(format_args!("{}", ignored_line(name, why)));
    }

    /// The start of a test's line, before it runs, flushed so that the
    /// reader sees which test is running.
    pub fn test_started(&mut self, name: &str) {
        let written = write!(self.out, "{}", test_line_start(name)).and_then(|()| self.out.flush());
        if let Err(e) = written {
            panic!("failed printing to stdout: {e}");
        }
    }

    /// The end of a test's line ([`outcome_word`]) and the lines under it
    /// ([`lines_under`]).
    pub fn test_finished(&mut self, t: &TestReport, verbose: bool) {
        self.say(format_args!("{}", outcome_word(t)));
        for line in lines_under(t, verbose) {
            self.say(format_args!("{line}"));
        }
    }

    /// Under a hung test: `left` tests after it were not run.
    pub fn run_stopped(&mut self, left: usize) {
        self.say(format_args!(
            "{INDENT}run stopped: {left} test(s) after it were not run"
        ));
    }

    /// Compare mode: the base's tests this build does not have.
    pub fn removed(&mut self, names: &[String]) {
        if names.is_empty() {
            return;
        }
        self.blank();
        for name in names {
            self.say(format_args!(
                "removed: {name} (in the base build only, not compared)"
            ));
        }
    }

    /// libtest's `failures:` sections: each failed test's detail (when it
    /// has one), then their names. Nothing when none failed.
    pub fn failures(&mut self, failures: &[(String, Option<String>)]) {
        if failures.is_empty() {
            return;
        }
        self.blank();
        self.say(format_args!("failures:"));
        for (name, detail) in failures {
            if let Some(detail) = detail {
                self.blank();
                self.say(format_args!("---- {name} ----"));
                self.say(format_args!("{detail}"));
            }
        }
        self.blank();
        self.say(format_args!("failures:"));
        for (name, _) in failures {
            self.say(format_args!("    {name}"));
        }
    }

    /// After `--save-baseline`: the file written (`saved`: its path and
    /// how many tests it holds) and how many of them this run `recorded`,
    /// or that none was; the measured tests left out for an unbounded CI
    /// are named.
    pub fn baselines_saved(
        &mut self,
        saved: Option<(&Path, usize)>,
        recorded: usize,
        unbounded: &[&str],
    ) {
        let left_out = if unbounded.is_empty() {
            String::new()
        } else {
            format!(
                "; not recorded, their CI unbounded (too few samples): {}",
                unbounded.join(", ")
            )
        };
        self.blank();
        match saved {
            None => self.say(format_args!(
                "no baseline saved: no test was measured with a bounded CI{left_out}"
            )),
            Some((path, tests)) => self.say(format_args!(
                "baseline saved: {} ({recorded} of its {tests} tests recorded in this run){left_out}",
                path.display()
            )),
        }
    }

    /// libtest's closing line, between blank lines.
    pub fn result(&mut self, counts: &Counts, finished_in: Duration) {
        self.blank();
        self.say(format_args!(
            "test result: {}. {} passed; {} failed; {} ignored; 0 measured; {} filtered out; finished in {:.2}s",
            if counts.failed == 0 { "ok" } else { "FAILED" },
            counts.passed,
            counts.failed,
            counts.ignored,
            counts.filtered_out,
            finished_in.as_secs_f64(),
        ));
        self.blank();
    }
}

/// The counts of libtest's closing line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Passed, or not measured (an unoptimized build's smoke test).
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// Not run: ignored.
    pub ignored: usize,
    /// Not selected by the filters.
    pub filtered_out: usize,
}

impl Counts {
    /// The counts of `tests`, with `filtered_out` not selected.
    pub fn of(tests: &[TestReport], filtered_out: usize) -> Counts {
        let count = |keep: fn(Verdict) -> bool| tests.iter().filter(|t| keep(t.verdict)).count();
        Counts {
            passed: count(|v| matches!(v, Verdict::Pass | Verdict::NotMeasured)),
            failed: count(|v| v == Verdict::Fail),
            ignored: count(|v| v == Verdict::Ignored),
            filtered_out,
        }
    }
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

    /// What `say` prints on a console over buffers: stdout, stderr.
    fn printed(say: impl FnOnce(&mut Console<Vec<u8>, Vec<u8>>)) -> (String, String) {
        let mut console = Console::new(Vec::new(), Vec::new());
        say(&mut console);
        let (out, err) = console.into_inner();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn the_header_names_the_platform_timers_and_reports() {
        let (out, err) = printed(|c| {
            c.header(
                &fixtures::platform(),
                Some(0.0123),
                true,
                &["load average 3.1 above 2 cores".to_owned()],
                Path::new("target/perfmark/perf"),
            );
            c.lock_waited(Duration::from_millis(1500), Path::new("/tmp/perfmark.lock"));
        });
        assert_eq!(
            out,
            "perfmark 0.1.0 · linux 6.1.0-test x86_64 · Test CPU <8 cores> @ 3.0GHz · 2 cores · \
             rustc 1.80.0 · release build\n\
             timer: Instant, resolution 20.00 ns, overhead 24.50 ns per read · noise floor 1.23% \
             (LFSR task, robust spread)\n\
             warning: load average 3.1 above 2 cores\n\
             reports: target/perfmark/perf\n\
             machine lock: waited 1.50 s for another perfmark run measuring on this machine \
             (/tmp/perfmark.lock)\n"
        );
        assert_eq!(err, "");
        let (out, _) =
            printed(|c| c.header(&fixtures::platform(), None, false, &[], Path::new("r")));
        assert!(out.contains("· noise floor not measured\n"), "{out}");
        assert!(
            out.contains("\nunoptimized build: tests run as smoke tests"),
            "{out}"
        );
    }

    #[test]
    fn each_test_has_its_line_and_the_lines_under_it() {
        let report = fixtures::realistic();
        let (out, _) = printed(|c| {
            c.running(1);
            c.test_started(&report.tests[0].name);
            c.test_finished(&report.tests[0], false);
            c.ignored("slow", Some("needs a disk"));
            c.run_stopped(2);
        });
        let mut expected = format!("\nrunning 1 test\ntest {} ... ok\n", report.tests[0].name);
        for line in lines_under(&report.tests[0], false) {
            expected.push_str(&line);
            expected.push('\n');
        }
        expected.push_str("test slow ... ignored, needs a disk\n");
        expected.push_str("    run stopped: 2 test(s) after it were not run\n");
        assert_eq!(out, expected);
        assert_eq!(printed(|c| c.running(3)).0, "\nrunning 3 tests\n");
    }

    #[test]
    fn the_closing_lines_as_libtest_prints_them() {
        let failures = vec![
            ("a".to_owned(), Some("median above the budget".to_owned())),
            ("b".to_owned(), None),
        ];
        let counts = Counts {
            passed: 3,
            failed: 2,
            ignored: 1,
            filtered_out: 4,
        };
        let (out, _) = printed(|c| {
            c.removed(&["gone".to_owned()]);
            c.failures(&failures);
            c.result(&counts, Duration::from_millis(1234));
        });
        assert_eq!(
            out,
            "\nremoved: gone (in the base build only, not compared)\n\
             \nfailures:\n\n---- a ----\nmedian above the budget\n\
             \nfailures:\n    a\n    b\n\
             \ntest result: FAILED. 3 passed; 2 failed; 1 ignored; 0 measured; 4 filtered out; \
             finished in 1.23s\n\n"
        );
        let (out, _) = printed(|c| {
            c.removed(&[]);
            c.failures(&[]);
            c.result(&Counts::default(), Duration::ZERO);
        });
        assert_eq!(
            out,
            "\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; \
             finished in 0.00s\n\n"
        );
    }

    #[test]
    fn counts_take_a_smoke_test_as_passed() {
        let report = fixtures::realistic();
        let counts = Counts::of(&report.tests, 7);
        let of = |v: Verdict| report.tests.iter().filter(|t| t.verdict == v).count();
        assert_eq!(counts.passed, of(Verdict::Pass) + of(Verdict::NotMeasured));
        assert_eq!(counts.failed, of(Verdict::Fail));
        assert_eq!(counts.ignored, of(Verdict::Ignored));
        assert_eq!(counts.filtered_out, 7);
    }

    #[test]
    fn list_saved_baselines_and_errors() {
        let names = vec!["a".to_owned(), "b::1".to_owned()];
        assert_eq!(
            printed(|c| c.list(&names, false)).0,
            "a: test\nb::1: test\n\n2 tests, 0 benchmarks\n"
        );
        assert_eq!(printed(|c| c.list(&names, true)).0, "a: test\nb::1: test\n");
        let (out, _) = printed(|c| {
            c.baselines_saved(Some((Path::new("perf-baselines/perf.json"), 5)), 2, &["x"]);
            c.baselines_saved(None, 0, &[]);
        });
        assert_eq!(
            out,
            "\nbaseline saved: perf-baselines/perf.json (2 of its 5 tests recorded in this run); \
             not recorded, their CI unbounded (too few samples): x\n\
             \nno baseline saved: no test was measured with a bounded CI\n"
        );
        let (out, err) = printed(|c| {
            c.error("--timeout needs a duration");
            c.waiting_for_lock(Path::new("/tmp/l"));
        });
        assert_eq!(out, "");
        assert_eq!(
            err,
            "error: --timeout needs a duration\n\
             waiting for another perfmark run measuring on this machine to finish (/tmp/l)\n"
        );
    }
}
