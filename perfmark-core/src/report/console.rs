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
    if let Some(line) = t.comparison.as_ref().and_then(|c| c.layout_line()) {
        lines.push(line);
    }
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

    /// Compare mode's header: the base build (its first link), how many
    /// links of each build the process pairs draw from, and the run's
    /// family-wise correction in `family_words`.
    pub fn comparing(
        &mut self,
        base: &Path,
        head_links: usize,
        base_links: usize,
        family_words: &str,
    ) {
        let links = if head_links == 1 && base_links == 1 {
            String::new()
        } else {
            format!(
                "; layouts drawn from {head_links} links of the head and {base_links} of the \
                 base"
            )
        };
        self.say(format_args!(
            "comparing with base {} (paired, slice by slice{links}; {family_words}; stored \
             baselines not read)",
            base.display()
        ));
    }

    /// In a comparison, once: when each build comes in one link, that the
    /// linker's placement of code is the same in every process pair (so
    /// not in the spread), and what draws it; nothing with more links.
    pub fn layout_not_drawn(&mut self, head_links: usize, base_links: usize) {
        if head_links > 1 || base_links > 1 {
            return;
        }
        self.say(format_args!(
            "note: one link of each build: where the linker placed the code is the same in \
             every process pair, so a change in layout alone can read as a change in speed \
             (cargo perfmark compare links each build several times, its functions in other \
             orders, and pairs across the links)"
        ));
    }

    /// In a comparison, once: when the builds' code layout is not pinned
    /// alike (not both built as `cargo perfmark compare` builds them), what
    /// that means for the verdicts; nothing when both are pinned.
    pub fn layout_not_pinned(&mut self, head_pinned: bool, base_pinned: bool) {
        let which = match (head_pinned, base_pinned) {
            (false, false) => "neither build has its code layout pinned",
            (true, false) => "the base has its code layout pinned and the head does not",
            (false, true) => "the head has its code layout pinned and the base does not",
            (true, true) => return,
        };
        self.say(format_args!(
            "note: {which} (cargo perfmark compare builds both with every function aligned to \
             {} bytes): a change of a few percent can be where code landed, not its speed",
            crate::layout::PINNED_ALIGNMENT
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
mod tests;
