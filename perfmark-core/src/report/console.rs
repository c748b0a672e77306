//! The console: everything a test binary prints, in the [`Style`] the
//! command line asked for (docs/output.md shows each).
//!
//! - Pretty (the default): on stdout, a header naming the platform,
//!   libtest's `test NAME ... ok|FAILED|ignored` line for each test with
//!   one indented line of perfmark under a passing test and at most four
//!   under a failing one ([`mod@line`]), the failures, a footer of what holds
//!   for the whole run, and libtest's closing `test result:` line. With
//!   `--verbose`, every line of each check and the full account of each
//!   measurement (as Brent Boyer's `toStringFull` in "Robust Java
//!   benchmarking" (2008)).
//! - Terse (`--format terse`, `-q`): libtest's, one character a test
//!   (`.`, `i`, a failure on a line of its own), the failures and the
//!   closing line.
//! - JSON (`--format json`): libtest's events, perfmark's figures on each
//!   test's ([`libtest_json`]).
//!
//! On stderr, in every style, errors and the wait for another run's
//! machine lock.
//!
//! The runner decides what to say; [`Console`] is the one place that says
//! it, one method per kind of line, so the text tools and readers match
//! lives here and nowhere else.

mod header;
pub mod libtest_json;
pub mod line;
mod verbose;

pub use verbose::{summary_lines, verbose_lines};

use std::fmt;
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use super::TestReport;
use crate::checks::Verdict;

/// The line under a test measured by per-call sampling
/// (`Bencher::iter_per_call`).
pub const PER_CALL_NOTE: &str = "per-call sampling (Falco): each call timed alone after a random \
     wait, so the mean is unbiased even below the timer's resolution; only the mean is \
     meaningful, not the median";

/// What perfmark's lines under a test's line start with.
pub const INDENT: &str = "    ";

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

/// The lines printed under a test's line, indented: by default its one
/// line, and why it failed ([`line::default_lines`]); when `verbose`, every
/// summary line and its full account.
pub fn lines_under(t: &TestReport, verbose: bool) -> Vec<String> {
    let lines = if verbose {
        let mut lines = summary_lines(t);
        lines.extend(verbose_lines(t));
        lines
    } else {
        line::default_lines(t)
    };
    lines.into_iter().map(|l| format!("{INDENT}{l}")).collect()
}

/// How the run's account is printed: libtest's `--format`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// libtest's pretty lines, perfmark's under them (the default).
    #[default]
    Pretty,
    /// libtest's terse: one character a test.
    Terse,
    /// libtest's JSON events.
    Json,
}

/// libtest's terse mode breaks its line of characters after this many, and
/// says how far the run got (its `QUIET_MODE_MAX_COLUMN`).
const TERSE_COLUMNS: usize = 88;

/// Where a run's lines go: stdout for the run's own account, stderr for
/// errors and waits, each method one kind of line, as libtest and perfmark
/// print it in the console's [`Style`]. A write that fails panics, as
/// `println!` does.
#[derive(Debug)]
pub struct Console<O: Write = io::Stdout, E: Write = io::Stderr> {
    out: O,
    err: E,
    style: Style,
    verbose: bool,
    /// Terse: characters on the current line, tests done, tests to run.
    column: usize,
    done: usize,
    total: usize,
}

impl Console {
    /// The process's stdout and stderr.
    pub fn stdio() -> Self {
        Console::new(io::stdout(), io::stderr())
    }
}

impl<O: Write, E: Write> Console<O, E> {
    /// A console writing its account to `out` and its errors to `err`,
    /// pretty and not verbose.
    pub fn new(out: O, err: E) -> Self {
        Console {
            out,
            err,
            style: Style::Pretty,
            verbose: false,
            column: 0,
            done: 0,
            total: 0,
        }
    }

    /// Prints in `style`, with every line of each test when `verbose`
    /// (pretty only).
    pub fn set_style(&mut self, style: Style, verbose: bool) {
        self.style = style;
        self.verbose = verbose;
    }

    /// Whether the pretty account is printed (header, lines under tests,
    /// footer).
    fn pretty(&self) -> bool {
        self.style == Style::Pretty
    }

    /// Whether the `--verbose` account is printed.
    pub fn verbose(&self) -> bool {
        self.pretty() && self.verbose
    }

    fn event(&mut self, event: &impl serde::Serialize) {
        if let Err(e) = libtest_json::write_event(&mut self.out, event) {
            panic!("failed printing to stdout: {e}");
        }
    }

    fn write_raw(&mut self, text: &str) {
        let written = write!(self.out, "{text}").and_then(|()| self.out.flush());
        if let Err(e) = written {
            panic!("failed printing to stdout: {e}");
        }
    }

    /// Terse: one test's character, breaking the line as libtest does.
    fn terse_char(&mut self, c: char) {
        self.write_raw(&c.to_string());
        self.done += 1;
        self.column += 1;
        if self.column % TERSE_COLUMNS == TERSE_COLUMNS - 1 {
            self.terse_progress();
        }
    }

    fn terse_progress(&mut self) {
        let progress = format!(" {}/{}\n", self.done, self.total);
        self.write_raw(&progress);
        self.column = 0;
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

    /// libtest's `running N tests`, after a blank line; in JSON, the suite's
    /// `started` event.
    pub fn running(&mut self, tests: usize) {
        self.total = tests;
        if self.style == Style::Json {
            self.event(&libtest_json::SuiteStarted::new(tests));
            return;
        }
        self.blank();
        self.say(format_args!(
            "running {tests} test{}",
            if tests == 1 { "" } else { "s" }
        ));
    }

    /// A test that is not run: its whole line ([`ignored_line`]).
    pub fn ignored(&mut self, name: &str, why: Option<&str>) {
        match self.style {
            Style::Pretty => self.say(format_args!("{}", ignored_line(name, why))),
            Style::Terse => self.terse_char('i'),
            Style::Json => {
                self.event(&libtest_json::TestStarted::new(name));
                self.event(&libtest_json::TestFinished::ignored(name, why));
            }
        }
    }

    /// The start of a test's line, before it runs, flushed so that the
    /// reader sees which test is running.
    pub fn test_started(&mut self, name: &str) {
        match self.style {
            Style::Pretty => self.write_raw(&test_line_start(name)),
            Style::Terse => {}
            Style::Json => self.event(&libtest_json::TestStarted::new(name)),
        }
    }

    /// The end of a test's line ([`outcome_word`]) and the lines under it
    /// ([`lines_under`]); `detail` is what `failures:` says of a failed
    /// test (JSON puts it in the event's `stdout`).
    pub fn test_finished(&mut self, t: &TestReport, detail: Option<&str>) {
        match self.style {
            Style::Pretty => {
                self.say(format_args!("{}", outcome_word(t)));
                for line in lines_under(t, self.verbose) {
                    self.say(format_args!("{line}"));
                }
            }
            Style::Terse if t.verdict == Verdict::Fail => {
                // libtest: a failure on a line of its own, with its name.
                if self.column != 0 {
                    self.terse_progress();
                }
                self.done += 1;
                self.write_raw(&format!("{} --- FAILED\n", t.name));
            }
            Style::Terse => self.terse_char('.'),
            Style::Json => self.event(&libtest_json::TestFinished::of(t, detail)),
        }
    }

    /// Under a hung test: `left` tests after it were not run.
    pub fn run_stopped(&mut self, left: usize) {
        if !self.pretty() {
            return;
        }
        self.say(format_args!(
            "{INDENT}run stopped: {left} test(s) after it were not run"
        ));
    }

    /// Compare mode: the base's tests this build does not have.
    pub fn removed(&mut self, names: &[String]) {
        if names.is_empty() || !self.pretty() {
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
        if failures.is_empty() || self.style == Style::Json {
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
        if self.style == Style::Json {
            return;
        }
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

    /// What holds for the run as a whole, once, after its tests (pretty
    /// only): a blank line, then each line.
    pub fn footer(&mut self, lines: &[String]) {
        if lines.is_empty() || !self.pretty() {
            return;
        }
        self.blank();
        for line in lines {
            self.say(format_args!("{line}"));
        }
    }

    /// libtest's closing line, between blank lines; in JSON, the suite's
    /// closing event.
    pub fn result(&mut self, counts: &Counts, finished_in: Duration) {
        if self.style == Style::Json {
            self.event(&libtest_json::SuiteFinished::new(
                counts,
                finished_in.as_secs_f64(),
            ));
            return;
        }
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
