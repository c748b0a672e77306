//! The default output under a test's line: one line for a passing test
//! (the estimate with its CI, the verdict in a few words, and a mark when
//! something needs the reader) and at most four for a failing one (that
//! line, then why it failed). Everything else is `--verbose`'s
//! ([`super::summary_lines`], [`super::verbose_lines`]) and the reports'.
//!
//! Which warnings earn a mark, and why the others do not, is decided here
//! from the test's records, not from the warnings' words (docs/output.md,
//! "Marks", lists both). A mark is kept for what changes what the reader
//! should do:
//!
//! - the time is below what the measurement resolves (the figure means
//!   nothing: give the routine more work per iteration);
//! - a budget decided on the point estimate because its CI straddled it
//!   (about even odds at the line: raise `max_time` or the margin, or only
//!   the margin when the spread between processes set the interval);
//! - a budget so close to the estimate that the verdict may flip between
//!   runs (widen the margin);
//! - an improvement beyond the tolerance (re-record the baseline);
//! - a stored baseline not used for a reason of this test's own (another
//!   clock or statistic, a time below resolution: re-record it);
//! - a paired comparison left undecided (raise `max_time`), or one that
//!   interference hit on one side more than the other (re-run it);
//! - `measure = "cpu"` on `iter_custom`, where it cannot apply;
//! - complexity sizes too close together to catch a wrong class;
//! - an `instructions` limit that a run without `--instructions` did not
//!   check (the test is not gated on it).
//!
//! Not marked, being `--verbose`'s: outliers (the median is robust to
//! them), serial correlation (already in the CI's width), modes, the
//! timer's gating error, a spread at the machine's noise floor, a
//! precision target not reached (the CI printed shows its width), other
//! work during a test that passed (it only slowed it), a re-measured
//! failure that passed, a best fit above the declared class within the
//! margin, and what a comparison with a stored baseline could detect. A
//! machine that moved beyond the tolerance since the baselines were
//! recorded is a fact of the run, said once in its footer
//! ([`crate::report::facts::machine_moved_sentence`]).

use std::fmt::Write as _;

use crate::checks::{Source, Verdict};

use crate::budget::BudgetRecord;
use crate::measure::SampleKind;
use crate::report::fmt::signed_percent;
use crate::report::fmt::{fmt_bound, fmt_ns, fmt_rate};
use crate::report::TestReport;
use crate::stats::Statistic;
use crate::verdicts::Outcome;

/// What separates the parts of the line.
const SEP: &str = " · ";

/// What a mark starts with: `! inconclusive …`.
pub const MARK: &str = "!";

/// Failing reasons shown under a failed test, beside its summary line.
const FAILURE_REASONS: usize = 3;

/// The lines under a test's line in the default output (unindented): the
/// summary line when there is one, and for a failed test why it failed
/// (its failing checks' reasons, or every reason when no check failed it:
/// a panic, a hang), four lines at most.
pub fn default_lines(t: &TestReport) -> Vec<String> {
    let mut lines: Vec<String> = summary_line(t).into_iter().collect();
    // A paired comparison that counted both builds says whether the
    // instructions explain the time.
    if let (Some(time), Some(counts)) = (
        &t.comparison,
        t.instructions.as_ref().and_then(|c| c.base.as_ref()),
    ) {
        lines.push(crate::report::words::instructions::explained(
            (time.ratio, time.ratio_low, time.ratio_high),
            counts,
        ));
    }
    if t.verdict == Verdict::Fail {
        let failing = t.reasons.iter().filter(|r| r.fails);
        let shown: Vec<&str> = if t.reasons.iter().any(|r| r.fails) {
            failing.map(|r| r.text.as_str()).collect()
        } else {
            t.reasons.iter().map(|r| r.text.as_str()).collect()
        };
        lines.extend(shown.into_iter().take(FAILURE_REASONS).map(one_line));
    }
    lines
}

/// The one line of a test: `median 41.03 ns/iter [40.77 ns, 41.31 ns] 95% ·
/// 1.561 GB/s · within budget 50.00 ns (82%)`, then its marks; `None` for
/// a test with nothing measured and nothing to say (ignored).
pub fn summary_line(t: &TestReport) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    if let Some(e) = &t.estimate {
        let mut estimate = format!(
            "{} {}/iter [{}, {}] {} CI",
            e.statistic.as_str(),
            fmt_ns(e.ns_per_iter),
            fmt_bound(e.ci.low),
            fmt_bound(e.ci.high),
            crate::report::fmt::plain_percent(e.ci.confidence),
        );
        if let (Some(work), Some(rate)) = (t.work, t.rate_per_s) {
            let _ = write!(estimate, "{SEP}{}", fmt_rate(work, rate));
        }
        parts.push(estimate);
    }
    if let Some(count) = &t.instructions {
        parts.push(count.words());
    }
    parts.extend(verdict_words(t));
    parts.extend(marks(t).into_iter().map(|m| format!("{MARK} {m}")));
    (!parts.is_empty()).then(|| parts.join(SEP))
}

/// The verdict in a few words, one part per check that decided something.
fn verdict_words(t: &TestReport) -> Vec<String> {
    let mut words = Vec::new();
    match t.verdict {
        Verdict::Ignored => return words,
        Verdict::NotMeasured => {
            words.extend(t.reasons.first().map(|r| r.text.clone()));
            return words;
        }
        Verdict::Pass | Verdict::Fail => {}
    }
    if let Some(c) = &t.complexity {
        words.push(complexity_words(c));
        return words;
    }
    words.extend(t.budget.as_ref().map(|b| budget_words(t, b)));
    if let Some(c) = t.baseline.as_ref().and_then(|b| b.comparison.as_ref()) {
        words.push(format!(
            "{} [{}, {}] vs baseline: {}",
            signed_percent(c.ratio),
            signed_percent(c.ci.low),
            signed_percent(c.ci.high),
            c.verdict_words()
        ));
    }
    if let Some(c) = &t.comparison {
        // The contract's sentence, `… vs base (paired: …): …`, whole: it
        // is the reason the paired check gave.
        match t.reasons.iter().find(|r| r.source == Some(Source::Paired)) {
            Some(r) => words.push(r.text.clone()),
            None => words.push(format!("{} vs base", signed_percent(c.ratio))),
        }
    }
    if let Some((a, limit)) = t.allocations.as_ref().and_then(|a| Some((a, a.limit?))) {
        if a.within(limit) {
            words.push(format!("within allocation limit {limit}"));
        }
    }
    if words.is_empty() && t.verdict == Verdict::Pass && t.estimate.is_some() {
        words.push("no budget: measured only".to_owned());
    }
    words.extend(
        t.reasons
            .iter()
            .filter(|r| r.source == Some(Source::NotInBase))
            .map(|r| r.text.clone()),
    );
    words
}

/// The budget check `b` of `t` in a few words: where its CI lies, and for
/// an inconclusive one, what decided.
fn budget_words(t: &TestReport, b: &BudgetRecord) -> String {
    let budget = fmt_ns(b.budget_ns);
    let pct = (b.ratio * 100.0).round();
    let statistic = t
        .estimate
        .as_ref()
        .map_or(Statistic::Median, |e| e.statistic)
        .as_str();
    match b.outcome {
        Outcome::Under => format!("within budget {budget} ({pct}%)"),
        Outcome::Over => format!("over budget {budget} ({pct}%)"),
        Outcome::InconclusiveUnder => {
            format!("inconclusive against budget {budget} ({pct}%): passed on the {statistic}")
        }
        Outcome::InconclusiveOver => {
            format!("inconclusive against budget {budget} ({pct}%): failed on the {statistic}")
        }
        // Only the four above are a budget's outcomes (`Outcome`'s doc);
        // any other is said as report.json spells it.
        other => format!("{} budget {budget} ({pct}%)", other.as_str()),
    }
}

/// A complexity check in a few words: the growth fitted with its CI and
/// whether the declared class holds.
fn complexity_words(c: &crate::complexity::ComplexityRecord) -> String {
    let mut words = String::new();
    if let (Some(k), Some(ci)) = (c.exponent, c.exponent_ci) {
        let _ = write!(
            words,
            "time ∝ n^{k:.2} [{:.2}, {:.2}]{SEP}",
            ci.low, ci.high
        );
    }
    if let Some(fitted) = &c.fitted {
        let _ = write!(words, "best fit {fitted}{SEP}");
    }
    if c.error.is_some() {
        words.push_str("not fitted");
    } else if c.fails {
        let _ = write!(words, "declared {} does not hold", c.declared);
    } else {
        let _ = write!(words, "declared {} holds", c.declared);
    }
    words
}

/// What needs the reader, in a few words each (the module's doc says which
/// and why); empty for most tests.
pub fn marks(t: &TestReport) -> Vec<String> {
    let mut marks = Vec::new();
    if t.estimate.as_ref().is_some_and(|e| e.below_resolution) {
        marks.push(
            "below what the timer resolves: give each iteration more work (--verbose)".to_owned(),
        );
    }
    if let Some(b) = &t.budget {
        marks.extend(budget_marks(t, b));
    }
    if let Some(b) = &t.baseline {
        if b.comparison
            .as_ref()
            .is_some_and(|c| c.verdict == Outcome::Improved)
        {
            marks.push("re-record the baseline (--save-baseline)".to_owned());
        }
        if b.comparison.is_none() && !b.other_machine {
            marks.push("baseline not used (--verbose says why)".to_owned());
        }
    }
    if let Some(c) = &t.comparison {
        if c.change == Outcome::Inconclusive {
            marks.push("undecided: raise max_time for this test".to_owned());
        }
    }
    if t.interference
        .as_ref()
        .and_then(|i| i.paired.as_ref())
        .is_some_and(|p| p.asymmetry().is_some())
    {
        marks.push("other work hit one side more than the other: re-run (--verbose)".to_owned());
    }
    if t.measure == crate::clock::Clock::Cpu
        && t.measurement
            .as_ref()
            .is_some_and(|m| m.kind == SampleKind::Custom)
    {
        marks.push("measure = \"cpu\" does not apply to iter_custom".to_owned());
    }
    marks.extend(team_mark(t));
    if let Some(limit) = t.unchecked_instruction_limit {
        marks.push(format!(
            "instruction limit {limit} not checked: counted only with --instructions"
        ));
    }
    if t.complexity
        .as_ref()
        .and_then(|c| c.detectable_excess)
        .is_some_and(|d| d > 1.0)
    {
        marks.push("sizes too close together to catch a wrong class (--verbose)".to_owned());
    }
    marks
}

/// A threaded test whose threads could not each have a CPU: how many
/// shared how few.
fn team_mark(t: &TestReport) -> Option<String> {
    let team = t.threads.as_ref().filter(|team| !team.placement.apart)?;
    Some(format!(
        "{} threads share {} CPUs: their times include waiting for one (--verbose)",
        team.count,
        match team.placement.candidates {
            0 => "the".to_owned(),
            n => n.to_string(),
        }
    ))
}

/// What needs the reader about the budget check `b` of `t`: a CI that
/// straddled the budget, and a budget near enough to flip between runs.
fn budget_marks(t: &TestReport, b: &BudgetRecord) -> Vec<String> {
    let mut marks = Vec::new();
    if b.inconclusive() {
        let processes = t.processes.as_ref().filter(|p| p.sets_interval);
        marks.push(match processes {
            Some(p) => format!(
                "its CI straddled the budget: processes differ by {:.0}% here; widen the margin",
                100.0 * p.tau.exp_m1()
            ),
            None => "its CI straddled the budget: raise max_time or the margin".to_owned(),
        });
    }
    if b.may_flip {
        marks.push("near the budget: may flip between runs (--verbose)".to_owned());
    }
    marks
}

/// A reason on one line (a worker's error can span several).
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
