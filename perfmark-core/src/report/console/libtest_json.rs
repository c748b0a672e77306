//! `--format json`: libtest's JSON events, one object a line, as libtest
//! writes them (its `formatters/json.rs`: the same fields in the same
//! order, the same spacing, `exec_time` in seconds as a plain number), so
//! that what reads a test binary's JSON (IDE test explorers, cargo2junit,
//! CI annotators) reads a perf test binary's. perfmark's figures ride on
//! each test's event in a field of their own, `perfmark`
//! ([`Figures`]), which libtest's readers ignore.
//!
//! The events are derived with serde and written by [`LibtestFormatter`],
//! which spaces them as libtest does: `{ "type": "suite", "event":
//! "started", "test_count": 4 }`.

use std::io;

use serde::Serialize;

use super::{line, Counts};
use crate::budget::BudgetRecord;
use crate::checks::Verdict;
use crate::report::{EstimateRecord, TestReport};

/// `{ "type": "suite", "event": "started", "test_count": N }`.
#[derive(Debug, Serialize)]
pub struct SuiteStarted {
    #[serde(rename = "type")]
    kind: &'static str,
    event: &'static str,
    test_count: usize,
}

impl SuiteStarted {
    /// The event of a run of `test_count` tests.
    pub fn new(test_count: usize) -> Self {
        SuiteStarted {
            kind: "suite",
            event: "started",
            test_count,
        }
    }
}

/// `{ "type": "test", "event": "started", "name": "…" }`.
#[derive(Debug, Serialize)]
pub struct TestStarted<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    event: &'static str,
    name: &'a str,
}

impl<'a> TestStarted<'a> {
    /// The event of test `name` starting.
    pub fn new(name: &'a str) -> Self {
        TestStarted {
            kind: "test",
            event: "started",
            name,
        }
    }
}

/// `{ "type": "test", "name": "…", "event": "ok"|"failed"|"ignored", … }`:
/// libtest's fields, then perfmark's figures.
#[derive(Debug, Serialize)]
pub struct TestFinished<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'a str,
    event: &'static str,
    /// The test's wall time, s.
    #[serde(skip_serializing_if = "Option::is_none")]
    exec_time: Option<f64>,
    /// For a failed test, why (libtest puts the test's captured output
    /// here).
    #[serde(skip_serializing_if = "Option::is_none")]
    stdout: Option<String>,
    /// For an ignored test, the attribute's reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    perfmark: Option<Figures<'a>>,
}

impl<'a> TestFinished<'a> {
    /// The event of test `t` finished; `detail` is what libtest prints
    /// under `failures:` for it.
    pub fn of(t: &'a TestReport, detail: Option<&str>) -> Self {
        let event = match t.verdict {
            Verdict::Fail => "failed",
            Verdict::Ignored => "ignored",
            Verdict::Pass | Verdict::NotMeasured => "ok",
        };
        // Why it failed: the lines under its line, then what `failures:`
        // says that they do not (a panic's message and place).
        let stdout = (t.verdict == Verdict::Fail).then(|| {
            let mut lines = line::default_lines(t);
            for extra in detail.into_iter().flat_map(str::lines) {
                if !lines.iter().any(|l| l == extra) {
                    lines.push(extra.to_owned());
                }
            }
            let mut text = lines.join("\n");
            text.push('\n');
            text
        });
        TestFinished {
            kind: "test",
            name: &t.name,
            event,
            exec_time: Some(t.duration_s),
            stdout,
            message: None,
            perfmark: Some(Figures::of(t)),
        }
    }

    /// The event of test `name` not run, with the attribute's reason `why`.
    pub fn ignored(name: &'a str, why: Option<&'a str>) -> Self {
        TestFinished {
            kind: "test",
            name,
            event: "ignored",
            exec_time: None,
            stdout: None,
            message: why,
            perfmark: None,
        }
    }
}

/// perfmark's figures of a test, on its event.
#[derive(Debug, Serialize)]
pub struct Figures<'a> {
    /// `pass`, `fail`, `ignored` or `not_measured`, as `report.json`.
    verdict: Verdict,
    /// The line the default output prints under the test's.
    summary: Option<String>,
    /// What needs the reader, in words (the `!` marks of that line).
    marks: Vec<String>,
    /// The verdict statistic with its CI, ns per iteration.
    estimate: Option<&'a EstimateRecord>,
    /// The rate from the declared work, in its unit per second.
    rate_per_s: Option<f64>,
    /// The budget decision.
    budget: Option<&'a BudgetRecord>,
    /// The change against the stored baseline or the base build.
    change: Option<Change>,
    /// One sentence per check, as `report.json`'s `reasons`.
    reasons: &'a [crate::report::Reason],
    /// Every warning, as `report.json`'s `warnings`.
    warnings: &'a [String],
}

/// A test's change against what it was compared with.
#[derive(Debug, Serialize)]
struct Change {
    /// `baseline` (a stored one) or `base` (a base build, paired).
    against: &'static str,
    /// New time over old.
    ratio: f64,
    ratio_low: f64,
    ratio_high: f64,
    /// The rule's outcome, as `report.json` spells it.
    verdict: &'static str,
}

impl<'a> Figures<'a> {
    fn of(t: &'a TestReport) -> Self {
        let stored = t
            .baseline
            .as_ref()
            .and_then(|b| b.comparison.as_ref())
            .map(|c| Change {
                against: "baseline",
                ratio: c.ratio,
                ratio_low: c.ci.low,
                ratio_high: c.ci.high,
                verdict: c.verdict.as_str(),
            });
        let paired = t.comparison.as_ref().map(|c| Change {
            against: "base",
            ratio: c.ratio,
            ratio_low: c.ratio_low,
            ratio_high: c.ratio_high,
            verdict: c.change.as_str(),
        });
        Figures {
            verdict: t.verdict,
            summary: line::summary_line(t),
            marks: line::marks(t),
            estimate: t.estimate.as_ref(),
            rate_per_s: t.rate_per_s,
            budget: t.budget.as_ref(),
            change: paired.or(stored),
            reasons: &t.reasons,
            warnings: &t.warnings,
        }
    }
}

/// `{ "type": "suite", "event": "ok"|"failed", "passed": …, "failed": …,
/// "ignored": …, "measured": 0, "filtered_out": …, "exec_time": … }`.
#[derive(Debug, Serialize)]
pub struct SuiteFinished {
    #[serde(rename = "type")]
    kind: &'static str,
    event: &'static str,
    passed: usize,
    failed: usize,
    ignored: usize,
    measured: usize,
    filtered_out: usize,
    exec_time: f64,
}

impl SuiteFinished {
    /// The closing event of a run that counted `counts` in `exec_time` s.
    pub fn new(counts: &Counts, exec_time: f64) -> Self {
        SuiteFinished {
            kind: "suite",
            event: if counts.failed == 0 { "ok" } else { "failed" },
            passed: counts.passed,
            failed: counts.failed,
            ignored: counts.ignored,
            measured: 0,
            filtered_out: counts.filtered_out,
            exec_time,
        }
    }
}

/// One event as libtest writes it: one line, libtest's spacing.
///
/// # Errors
/// Serialization errors (none for these types) and the writer's.
pub fn write_event<W: io::Write>(out: &mut W, event: &impl Serialize) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, LibtestFormatter::default());
    event.serialize(&mut ser).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// serde_json's compact output spaced as libtest spaces its events:
/// `{ "a": 1, "b": [1, 2] }`, numbers in Rust's plain notation
/// (`0.000229895`, not `2.29895e-4`).
#[derive(Debug, Default)]
pub struct LibtestFormatter {
    /// For each object being written, whether it has a field yet.
    objects: Vec<bool>,
}

impl serde_json::ser::Formatter for LibtestFormatter {
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.objects.push(false);
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        if self.objects.pop().unwrap_or(false) {
            w.write_all(b" }")
        } else {
            w.write_all(b"}")
        }
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if let Some(has) = self.objects.last_mut() {
            *has = true;
        }
        w.write_all(if first { b" " } else { b", " })
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        // serde_json writes a non-finite number as `null` before it gets
        // here; Rust's `Display` of a finite f64 is valid JSON.
        write!(w, "{value}")
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        write!(w, "{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    fn text(event: &impl Serialize) -> String {
        let mut out = Vec::new();
        write_event(&mut out, event).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn suite_and_test_events_read_as_libtest_writes_them() {
        assert_eq!(
            text(&SuiteStarted::new(4)),
            "{ \"type\": \"suite\", \"event\": \"started\", \"test_count\": 4 }\n"
        );
        assert_eq!(
            text(&TestStarted::new("a::\"b\"")),
            "{ \"type\": \"test\", \"event\": \"started\", \"name\": \"a::\\\"b\\\"\" }\n"
        );
        assert_eq!(
            text(&TestFinished::ignored("slow", Some("why"))),
            "{ \"type\": \"test\", \"name\": \"slow\", \"event\": \"ignored\", \"message\": \"why\" }\n"
        );
        assert_eq!(
            text(&TestFinished::ignored("slow", None)),
            "{ \"type\": \"test\", \"name\": \"slow\", \"event\": \"ignored\" }\n"
        );
        let counts = Counts {
            passed: 1,
            failed: 1,
            ignored: 2,
            filtered_out: 0,
        };
        assert_eq!(
            text(&SuiteFinished::new(&counts, 0.000229895)),
            "{ \"type\": \"suite\", \"event\": \"failed\", \"passed\": 1, \"failed\": 1, \
             \"ignored\": 2, \"measured\": 0, \"filtered_out\": 0, \"exec_time\": 0.000229895 }\n"
        );
    }

    #[test]
    fn a_test_event_carries_libtests_fields_then_perfmarks() {
        let report = fixtures::realistic();
        let t = &report.tests[0];
        let line = text(&TestFinished::of(t, None));
        assert!(
            line.starts_with(&format!(
                "{{ \"type\": \"test\", \"name\": \"{}\", \"event\": \"ok\", \"exec_time\": ",
                t.name
            )),
            "{line}"
        );
        assert_eq!(line.matches('\n').count(), 1, "{line}");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let figures = &value["perfmark"];
        assert_eq!(figures["verdict"], "pass");
        assert_eq!(
            figures["estimate"]["ns_per_iter"],
            t.estimate.as_ref().unwrap().ns_per_iter
        );
        assert!(figures["summary"].as_str().unwrap().starts_with("median "));
        assert!(value.get("stdout").is_none(), "{line}");
        // A failed test says why in `stdout`, as libtest puts a failed
        // test's output there.
        let mut failed = t.clone();
        failed.verdict = Verdict::Fail;
        failed.reasons = vec![crate::report::Reason::failing(
            crate::checks::Source::Budget,
            "over budget 10.00 ns",
        )];
        let value: serde_json::Value =
            serde_json::from_str(&text(&TestFinished::of(&failed, Some("detail")))).unwrap();
        assert_eq!(value["event"], "failed");
        let stdout = value["stdout"].as_str().unwrap();
        assert!(
            stdout.contains("over budget 10.00 ns\ndetail\n"),
            "{stdout}"
        );
        // What the lines under it said already is not said twice.
        let value: serde_json::Value = serde_json::from_str(&text(&TestFinished::of(
            &failed,
            Some("over budget 10.00 ns"),
        )))
        .unwrap();
        let stdout = value["stdout"].as_str().unwrap();
        assert_eq!(
            stdout.matches("over budget 10.00 ns").count(),
            1,
            "{stdout}"
        );
    }
}
