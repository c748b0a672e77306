//! `summary.md`: a Markdown table of the run, for pull requests and CI
//! summaries (also appended to `$GITHUB_STEP_SUMMARY`).

use std::fmt::Write as _;

use super::facts::{other_machine_baselines, table_reasons, verdict_words};
use super::fmt::{fmt_bound, fmt_ns, signed_percent};
use super::{Report, TestReport};
use crate::checks::Verdict;
use crate::paired::RunComparison;

/// The run as Markdown: a heading naming the target, the platform in one
/// line, and one table row per test with its verdict, estimate, CI and
/// reasons.
pub fn render(report: &Report) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "### perfmark: `{}`\n", report.target);
    let p = &report.platform;
    let _ = writeln!(
        md,
        "{} · {} cores · {} · {} · {} build\n",
        p.cpu_model, p.cores, p.os, p.rustc, p.profile
    );
    for sentence in other_machine_baselines(report) {
        let _ = writeln!(md, "> **Baselines**: {sentence}.\n");
    }
    let _ = writeln!(md, "| test | verdict | estimate | CI | reasons |");
    let _ = writeln!(md, "|---|---|---|---|---|");
    for t in &report.tests {
        let (estimate, ci) = match &t.estimate {
            Some(e) => (
                format!("{} {}", e.statistic.as_str(), fmt_ns(e.ns_per_iter)),
                format!("[{}, {}]", fmt_bound(e.ci.low), fmt_bound(e.ci.high)),
            ),
            None => (String::new(), String::new()),
        };
        let mark = match t.verdict {
            Verdict::Pass => "✅ ",
            Verdict::Fail => "❌ ",
            Verdict::Ignored | Verdict::NotMeasured => "",
        };
        let reasons = table_reasons(t).join("; ").replace('|', "\\|");
        let _ = writeln!(
            md,
            "| `{}` | {mark}{} | {estimate} | {ci} | {reasons} |",
            t.name,
            verdict_words(t.verdict)
        );
    }
    if let Some(run) = &report.comparison {
        comparison_table(&mut md, report, run);
    }
    md
}

/// In compare mode: one row per compared test with the paired ratio, its
/// one-sided bounds and the outcome, then the tests in one build only.
fn comparison_table(md: &mut String, report: &Report, run: &RunComparison) {
    let _ = writeln!(md, "\n{}\n", comparison_heading(run));
    let _ = writeln!(
        md,
        "| test | change | head/base | one-sided bounds | layout (sd) | slices in process pairs | outcome |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    for t in &report.tests {
        if let Some(row) = comparison_row(t) {
            let _ = writeln!(md, "{row}");
        }
    }
    for name in &run.removed {
        let _ = writeln!(md, "| `{name}` | removed | | | | | not compared |");
    }
}

/// The comparison table's heading: the base, and the layouts drawn and the
/// family-wise correction when there were.
fn comparison_heading(run: &RunComparison) -> String {
    let layouts = if run.head_links > 1 || run.base_links > 1 {
        format!(
            ", layouts drawn from {} links of the head and {} of the base",
            run.head_links, run.base_links
        )
    } else {
        String::new()
    };
    let family = if run.family_wise {
        format!(
            ", confidence corrected over {} compared tests",
            run.compared
        )
    } else {
        String::new()
    };
    format!("#### vs base `{}` (paired{layouts}{family})", run.base)
}

/// A test's row of the comparison table: its comparison, or `new` for a
/// test the base lacks; `None` for a test neither compared nor new.
fn comparison_row(t: &TestReport) -> Option<String> {
    let Some(c) = &t.comparison else {
        let new = t
            .reasons
            .iter()
            .any(|r| r.source == Some(crate::checks::Source::NotInBase));
        return new.then(|| format!("| `{}` | new | | | | | not compared |", t.name));
    };
    let mark = if c.fails { "❌ " } else { "" };
    let layout = if c.layout_sd.is_finite() {
        format!("±{:.1}%", 100.0 * c.layout_sd.exp_m1())
    } else {
        String::new()
    };
    Some(format!(
        "| `{}` | {mark}{} | {} | [{}, {}] | {layout} | {} in {} | {} |",
        t.name,
        c.change.as_str(),
        signed_percent(c.ratio),
        signed_percent(c.ratio_low),
        signed_percent(c.ratio_high),
        c.slices,
        c.process_pairs,
        if c.fails { "fails" } else { "passes" },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    #[test]
    fn one_row_per_test() {
        let mut report = fixtures::realistic();
        report.tests[0].reasons.push(crate::report::Reason::said(
            crate::checks::Source::Budget,
            "a | b",
        ));
        let md = render(&report);
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| `")).collect();
        assert_eq!(rows.len(), report.tests.len());
        assert!(md.starts_with("### perfmark: `perf`\n\nTest CPU <8 cores> @ 3.0GHz · 2 cores"));
        assert!(rows[0].starts_with(
            "| `checksum_64_bytes` | ✅ pass | median 41.03 ns | [40.77 ns, 41.31 ns] |"
        ));
        assert!(rows[0].ends_with("; a \\| b |"), "{}", rows[0]);
        assert!(rows[2].contains("| ❌ fail |"));
        assert_eq!(rows[4], "| `slow_io` | ignored |  |  |  |");
        assert!(!md.contains("vs base"));
    }

    #[test]
    fn a_baseline_from_another_machine_is_said_once_in_the_header() {
        let mut report = fixtures::realistic();
        for i in [0, 1, 2] {
            report.tests[i] = fixtures::from_another_machine(report.tests[i].clone());
        }
        let sentence = report.tests[0].reasons.last().unwrap().text.clone();
        let md = render(&report);
        assert_eq!(md.matches(&sentence).count(), 1, "{md}");
        assert!(
            md.contains(&format!("> **Baselines**: {sentence}.\n")),
            "{md}"
        );
        let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| `")).collect();
        for row in &rows[..3] {
            assert!(
                row.ends_with("; baseline from another machine (see above): not used to fail |"),
                "{row}"
            );
        }
        assert!(!render(&fixtures::realistic()).contains("Baselines"));
    }

    #[test]
    fn compare_mode_adds_the_paired_table() {
        use crate::paired::record::PairedStop;
        use crate::paired::{ComparisonRecord, RunComparison};
        use crate::verdicts::Outcome;
        let mut report = fixtures::realistic();
        report.comparison = Some(RunComparison {
            base: "base/perf".to_owned(),
            head_links: 10,
            base_links: 10,
            compared: 1,
            family_wise: false,
            removed: vec!["gone".to_owned()],
            head_pinned: true,
            base_pinned: false,
        });
        report.tests[2].comparison = Some(ComparisonRecord {
            base: "base/perf".to_owned(),
            change: Outcome::Regressed,
            fails: true,
            ratio: 1.081,
            ratio_low: 1.06,
            ratio_high: 1.103,
            confidence: 0.95,
            bound_confidence: 0.9875,
            test_confidence: 0.95,
            tolerance: 0.05,
            p_slower: 0.001,
            slices: 40,
            process_pairs: 4,
            iters_per_slice: 1000,
            between_pair_sd: 0.01,
            within_pair_sd: 0.01,
            order_effect: 0.0,
            layout_sd: 0.021,
            layouts: 10,
            looks: 1,
            stop: PairedStop::Clear,
            elapsed_s: 0.9,
        });
        let md = render(&report);
        assert!(
            md.contains(
                "#### vs base `base/perf` (paired, layouts drawn from 10 links of the head \
                 and 10 of the base)"
            ),
            "{md}"
        );
        let name = &report.tests[2].name;
        assert!(
            md.contains(&format!(
                "| `{name}` | ❌ regressed | +8.1% | [+6.0%, +10.3%] | ±2.1% | 40 in 4 | fails |"
            )),
            "{md}"
        );
        assert!(md.contains("| `gone` | removed |"), "{md}");
    }
}
