//! The HTML report: one self-contained page per test target, with plots.
//!
//! [`render`] turns a [`Report`] into a single HTML document with inline CSS
//! (`style.css`) and hand-written inline SVG: no JavaScript, no fonts or
//! scripts fetched, so the file opens offline and can be attached to a CI
//! run as is. The same report always renders to the same bytes (no dates,
//! no hash-map order).
//!
//! The page has a header (the platform facts, as Sestoft's SystemInfo; the
//! noise floor; the environment warnings), the overview picture of every
//! test's budget and change (`fig_overview.rs`), a summary table linking
//! to one section per test, and for each measured test its figures, one
//! file each: the samples in the order taken (`fig_samples.rs`), their
//! histogram (`fig_histogram.rs`) and their correlogram
//! (`fig_correlogram.rs`), drawn with the geometry of `svg.rs` and the
//! marks of `marks.rs`; then the test's facts ([`crate::report::facts`],
//! which `--verbose` prints too).
//!
//! Every text that comes from the user or the machine (test names, panic
//! messages, reasons, CPU model) is escaped.

mod fig_correlogram;
mod fig_histogram;
mod fig_overview;
mod fig_samples;
mod marks;
mod svg;

use crate::stats::compare::words::plain_percent;
use std::fmt::Write as _;

use super::facts::{
    other_machine_baselines, platform_facts, table_reasons, test_facts, verdict_words, Fact,
};
use super::fmt::{fmt_bound, fmt_ns, fmt_rate};
use super::{Report, TestReport};
use crate::checks::Verdict;
use fig_correlogram::correlogram_figure;
use fig_histogram::histogram_figure;
use fig_samples::scatter_figure;
use marks::Marks;
use svg::escape;

pub use fig_histogram::MAX_HISTOGRAM_BINS;
pub use fig_samples::MAX_SCATTER_POINTS;

/// The page's style sheet, inlined into its `<style>`.
const CSS: &str = include_str!("style.css");

/// Renders `report` as one self-contained HTML page (UTF-8, inline CSS and
/// SVG, no JavaScript). Deterministic: the same report gives the same bytes.
///
/// Handles any report: no tests, ignored and panicked tests (no samples, no
/// plots), a single sample, samples that are all equal, and very long series
/// (the scatter draws at most [`MAX_SCATTER_POINTS`] points and says so).
pub fn render(report: &Report) -> String {
    let mut html = String::with_capacity(32 * 1024);
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(html, "<title>perfmark: {}</title>", escape(&report.target));
    let _ = writeln!(html, "<style>{CSS}</style>\n</head>\n<body>");
    write_header(&mut html, report);
    if let Some(figure) = fig_overview::overview_figure(&report.tests) {
        html.push_str("<h2>Overview</h2>\n");
        html.push_str(&figure);
    }
    write_summary_table(&mut html, report);
    for (index, test) in report.tests.iter().enumerate() {
        write_test_section(&mut html, index, test);
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// The anchor of the `index`-th test's section: unique (the index) and
/// readable (the name's letters, digits and `_`; anything else becomes `-`).
fn section_id(index: usize, name: &str) -> String {
    let slug: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("test-{index}-{slug}")
}

fn verdict_badge(verdict: Verdict) -> String {
    format!(
        "<span class=\"verdict {}\">{}</span>",
        verdict.as_str(),
        verdict_words(verdict)
    )
}

/// The platform, the noise floor and the environment warnings.
fn write_header(html: &mut String, report: &Report) {
    let _ = writeln!(
        html,
        "<header>\n<h1>perfmark report: <code>{}</code></h1>",
        escape(&report.target)
    );
    let count = |v: Verdict| report.tests.iter().filter(|t| t.verdict == v).count();
    let _ = writeln!(
        html,
        "<p>{} tests: {} passed, {} failed, {} ignored, {} not measured · finished in {:.2} s</p>",
        report.tests.len(),
        count(Verdict::Pass),
        count(Verdict::Fail),
        count(Verdict::Ignored),
        count(Verdict::NotMeasured),
        report.finished_in_s,
    );
    write_facts_table(html, &platform_facts(report));
    for sentence in other_machine_baselines(report) {
        let _ = writeln!(
            html,
            "<p class=\"baselines\"><b>Baselines</b>: {}.</p>",
            escape(&sentence)
        );
    }
    if !report.environment_warnings.is_empty() {
        html.push_str("<ul class=\"warnings\">\n");
        for w in &report.environment_warnings {
            let _ = writeln!(html, "<li>warning: {}</li>", escape(w));
        }
        html.push_str("</ul>\n");
    }
    html.push_str("</header>\n");
}

/// A two-column table of facts, escaped; nothing when there are none.
fn write_facts_table(html: &mut String, facts: &[Fact]) {
    if facts.is_empty() {
        return;
    }
    html.push_str("<table class=\"facts\">\n");
    for fact in facts {
        let _ = writeln!(
            html,
            "<tr><th>{}</th><td>{}</td></tr>",
            fact.label,
            escape(&fact.value)
        );
    }
    html.push_str("</table>\n");
}

fn estimate_text(t: &TestReport) -> (String, String) {
    match &t.estimate {
        Some(e) => (
            format!("{} {}", e.statistic.as_str(), fmt_ns(e.ns_per_iter)),
            format!(
                "[{}, {}] {}",
                fmt_bound(e.ci_low),
                fmt_bound(e.ci_high),
                plain_percent(e.confidence)
            ),
        ),
        None => (String::new(), String::new()),
    }
}

fn write_summary_table(html: &mut String, report: &Report) {
    html.push_str("<h2>Summary</h2>\n");
    if report.tests.is_empty() {
        html.push_str("<p class=\"muted\">No tests were run: none matched the filters.</p>\n");
        return;
    }
    html.push_str(
        "<table class=\"summary\">\n<thead><tr><th>test</th><th>verdict</th><th>estimate</th>\
         <th>CI</th><th>budget</th><th>reasons</th></tr></thead>\n<tbody>\n",
    );
    for (index, t) in report.tests.iter().enumerate() {
        let (estimate, ci) = estimate_text(t);
        let budget = t
            .budget
            .as_ref()
            .map(|b| fmt_ns(b.budget_ns))
            .unwrap_or_default();
        let reasons: Vec<String> = table_reasons(t).iter().map(|r| escape(r)).collect();
        let _ = writeln!(
            html,
            "<tr><td><a href=\"#{}\"><code>{}</code></a></td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            section_id(index, &t.name),
            escape(&t.name),
            verdict_badge(t.verdict),
            estimate,
            ci,
            budget,
            reasons.join("<br>"),
        );
    }
    html.push_str("</tbody>\n</table>\n");
}

fn write_test_section(html: &mut String, index: usize, t: &TestReport) {
    let _ = writeln!(
        html,
        "<section class=\"test\" id=\"{}\">\n<h2><code>{}</code> {}</h2>",
        section_id(index, &t.name),
        escape(&t.name),
        verdict_badge(t.verdict)
    );
    let _ = writeln!(
        html,
        "<p class=\"muted\"><code>{}:{}</code> · took {:.2} s</p>",
        escape(&t.file),
        t.line,
        t.duration_s
    );
    if let Some(e) = &t.estimate {
        let mut line = format!(
            "<p><b>{} {}</b> per iteration, {} CI [{}, {}]",
            e.statistic.as_str(),
            fmt_ns(e.ns_per_iter),
            plain_percent(e.confidence),
            fmt_bound(e.ci_low),
            fmt_bound(e.ci_high)
        );
        if let (Some(work), Some(rate)) = (t.work, t.rate_per_s) {
            let _ = write!(line, " · {}", fmt_rate(work, rate));
        }
        line.push_str("</p>");
        html.push_str(&line);
        html.push('\n');
    }
    if let Some(panic) = &t.panic {
        let _ = writeln!(
            html,
            "<pre class=\"panic\">panicked: {}</pre>",
            escape(panic)
        );
    }
    let reasons: Vec<String> = t.reasons.iter().map(|r| r.text.clone()).collect();
    write_list(html, "reasons", "", &reasons);
    write_list(html, "warnings", "warning: ", &t.warnings);

    let samples: Vec<f64> = t
        .measurement
        .as_ref()
        .map(|m| {
            m.samples_ns
                .iter()
                .copied()
                .filter(|x| x.is_finite())
                .collect()
        })
        .unwrap_or_default();
    if samples.is_empty() {
        let why = match (t.verdict, &t.panic) {
            (Verdict::Ignored, _) => "Ignored: not run, so there are no samples to plot.",
            (_, Some(_)) => "The body panicked before any sample was taken.",
            _ => "No samples were taken.",
        };
        let _ = writeln!(html, "<p class=\"muted\">{why}</p>");
    } else {
        let marks = Marks::of(t, &samples);
        html.push_str(&scatter_figure(&samples, &marks));
        html.push_str(&histogram_figure(&samples, &marks));
        if let Some(d) = t.diagnostics.as_ref().filter(|d| !d.serial.lags.is_empty()) {
            html.push_str(&correlogram_figure(d));
        }
    }
    write_facts_table(html, &test_facts(t));
    html.push_str("</section>\n");
}

fn write_list(html: &mut String, class: &str, prefix: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(html, "<ul class=\"{class}\">");
    for item in items {
        let _ = writeln!(html, "<li>{prefix}{}</li>", escape(item));
    }
    html.push_str("</ul>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{self, measured, report, unmeasured};
    use crate::stats;

    /// No coordinate or label came out as `NaN` or `inf`.
    fn assert_finite(html: &str) {
        for bad in ["NaN", "\"inf", "-inf", " inf", "Minf"] {
            assert!(!html.contains(bad), "{bad} in the page");
        }
    }

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    /// Points of the scatter's paths: on the scale and off it.
    fn scatter_points(html: &str) -> usize {
        ["samples", "offscale"]
            .iter()
            .filter_map(|class| html.find(&format!("<path class=\"{class}\" d=\"")))
            .map(|start| {
                let rest = &html[start..];
                count(&rest[..rest.find("\"/>").unwrap()], "h0")
            })
            .sum()
    }

    #[test]
    fn user_text_is_escaped_everywhere() {
        let mut t = measured("mod::<script>alert(1)</script>", vec![1.0, 2.0, 3.0], None);
        t.reasons = vec![crate::report::Reason::said(
            crate::checks::Source::Budget,
            "a < b & c",
        )];
        t.warnings = vec!["\"quoted\"".to_owned()];
        let p = unmeasured("boom", Verdict::Fail, Some("index 3 <out of range> & more"));
        let html = render(&report(vec![t, p]));
        assert!(!html.contains("<script>"));
        assert!(html.contains("mod::&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("a &lt; b &amp; c"));
        assert!(html.contains("&quot;quoted&quot;"));
        assert!(html.contains("index 3 &lt;out of range&gt; &amp; more"));
        assert!(html.contains("Test CPU &lt;8 cores&gt;"));
        assert!(html.contains("expect &lt;noise&gt;"));
        // The anchor never carries the raw name.
        let id = section_id(0, "mod::<script>alert(1)</script>");
        assert_eq!(id, "test-0-mod---script-alert-1---script-");
        assert!(html.contains(&format!("href=\"#{id}\"")));
        assert!(html.contains(&format!("id=\"{id}\"")));
    }

    #[test]
    fn empty_report_renders_a_complete_page() {
        let html = render(&report(Vec::new()));
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.ends_with("</html>\n"));
        assert!(html.contains("0 tests: 0 passed, 0 failed"));
        assert!(html.contains("No tests were run"));
        assert!(!html.contains("<svg"));
        assert!(!html.contains("<script"));
        assert!(html.contains("noise floor</th><td>1.20%"));
        assert!(html.contains("resolution 20.00 ns"));
    }

    #[test]
    fn ignored_and_panicked_tests_have_sections_without_plots() {
        let html = render(&report(vec![
            unmeasured("slow", Verdict::Ignored, None),
            unmeasured("boom", Verdict::Fail, Some("oops")),
        ]));
        assert!(!html.contains("<svg"));
        assert!(html.contains("id=\"test-0-slow\""));
        assert!(html.contains("href=\"#test-0-slow\""));
        assert!(html.contains("id=\"test-1-boom\""));
        assert!(html.contains("<pre class=\"panic\">panicked: oops</pre>"));
        assert!(html.contains("<span class=\"verdict ignored\">ignored</span>"));
        assert!(html.contains("<span class=\"verdict fail\">fail</span>"));
    }

    #[test]
    fn all_equal_samples_do_not_divide_by_zero() {
        for samples in [vec![5.0; 50], vec![0.0; 10], vec![812.4]] {
            let html = render(&report(vec![measured(
                "flat",
                samples.clone(),
                Some(100.0),
            )]));
            assert_finite(&html);
            assert_eq!(count(&html, "<figure class=\"scatter\""), 1);
            assert_eq!(count(&html, "<figure class=\"histogram\""), 1);
            assert_eq!(count(&html, "<rect class=\"bar\""), 1);
            assert_eq!(scatter_points(&html), samples.len());
        }
    }

    #[test]
    fn one_point_per_sample_and_the_expected_bars() {
        // 1..=100: ten bins of ten, no outliers.
        let samples: Vec<f64> = (1..=100).map(f64::from).collect();
        let html = render(&report(vec![measured("ramp", samples, None)]));
        assert_eq!(count(&html, "<rect class=\"bar\""), 10);
        assert_eq!(scatter_points(&html), 100);
        assert!(!html.contains("class=\"offscale\""));
        assert!(html.contains("Histogram of the 100 samples (10 bins)"));
    }

    #[test]
    fn long_series_are_thinned_but_keep_their_spikes() {
        let samples = fixtures::long_spiky_series();
        let html = render(&report(vec![measured(
            "long",
            samples.clone(),
            Some(120_000.0),
        )]));
        let drawn = scatter_points(&html);
        assert!(drawn > 1_000 && drawn < MAX_SCATTER_POINTS, "{drawn}");
        assert!(html.contains(&format!(
            "thinned to {drawn} points: every 20th sample, plus {} beyond",
            drawn - 1_000
        )));
        // The spike is left out of the histogram, and said to be.
        assert!(!html.contains("0 below"));
        assert!(html.contains("1 above (max 5.000 ms) beyond the severe Tukey fences, drawn at"));
        assert_eq!(count(&html, "<path class=\"offscale\""), 1);
        assert!(html.contains("1 above (max 5.000 ms)"));
        let b = stats::histogram(&samples, MAX_HISTOGRAM_BINS);
        assert_eq!(b.counts.len(), MAX_HISTOGRAM_BINS);
        assert_eq!((b.bulk.below, b.bulk.above), (0, 1));
        let bars = b.counts.iter().filter(|&&c| c > 0).count();
        assert_eq!(count(&html, "<rect class=\"bar\""), bars);
        assert!(html.len() < 200_000, "{} bytes", html.len());
    }

    #[test]
    fn spikes_are_to_scale_when_the_scale_need_not_grow_much() {
        let mut samples: Vec<f64> = (0..105).map(|i| 100.0 + f64::from(i % 21)).collect();
        samples[50] = 150.0; // beyond the severe fence, 145
        assert_eq!(stats::bulk(&samples).above, 1);
        // Alone, the spike would triple the scale: drawn at its edge.
        let alone = render(&report(vec![measured("alone", samples.clone(), None)]));
        assert_eq!(count(&alone, "<path class=\"offscale\""), 1);
        assert!(alone.contains("1 above (max 150.0 ns) beyond the severe Tukey fences, drawn"));
        // A budget at 140 already stretches the scale: the spike fits.
        let with = render(&report(vec![measured("budget", samples, Some(140.0))]));
        assert!(!with.contains("class=\"offscale\""));
        assert_eq!(scatter_points(&with), 105);
    }

    #[test]
    fn budget_line_iff_budget() {
        let samples: Vec<f64> = (0..60).map(|i| 40.0 + f64::from(i % 7)).collect();
        let without = render(&report(vec![measured("free", samples.clone(), None)]));
        assert_eq!(count(&without, "class=\"budget\""), 0);
        assert!(!without.contains("budget 50"));

        let with = render(&report(vec![measured(
            "bounded",
            samples.clone(),
            Some(50.0),
        )]));
        // A line and a label in each of the two plots.
        assert_eq!(count(&with, "<line class=\"budget\""), 2);
        assert_eq!(count(&with, "<text class=\"budget\""), 2);
        assert!(with.contains("budget 50.00 ns</text>"));

        // A budget far from the data is drawn at the edge, said off scale.
        let far = render(&report(vec![measured("far", samples, Some(10_000.0))]));
        assert_eq!(count(&far, "<line class=\"budget\""), 2);
        assert!(far.contains("budget 10.00 µs (off scale, above)"));
    }

    #[test]
    fn infinite_ci_bounds_are_clamped() {
        let mut t = measured("wide", vec![10.0, 11.0], None);
        let e = t.estimate.as_mut().unwrap();
        e.ci_low = f64::NEG_INFINITY;
        e.ci_high = f64::INFINITY;
        let html = render(&report(vec![t]));
        assert!(html.contains("[−∞, +∞]"));
        assert_eq!(count(&html, "<rect class=\"ci\""), 2);
        assert_finite(&html);
    }

    #[test]
    fn a_baseline_from_another_machine_is_said_once_in_the_header() {
        let mut report = fixtures::realistic();
        for i in [0, 2] {
            report.tests[i] = fixtures::from_another_machine(report.tests[i].clone());
        }
        let sentence = escape(&report.tests[0].reasons.last().unwrap().text);
        let html = render(&report);
        let (header, rest) = html.split_once("<h2>Summary</h2>").unwrap();
        let (table, sections) = rest.split_once("</table>").unwrap();
        assert_eq!(count(header, &sentence), 1, "{header}");
        assert_eq!(count(table, &sentence), 0);
        assert_eq!(
            count(
                table,
                "baseline from another machine (see above): not used to fail"
            ),
            2
        );
        // Each test's own section keeps its full reasons.
        assert_eq!(count(sections, &sentence), 2);
    }

    #[test]
    fn output_is_deterministic() {
        let make = || {
            let samples: Vec<f64> = (0..300).map(|i| 50.0 + f64::from(i % 13)).collect();
            report(vec![measured("a", samples, Some(60.0))])
        };
        assert_eq!(render(&make()), render(&make()));
    }

    /// A realistic page ([`fixtures::realistic`]). Set `PERFMARK_HTML_DEMO`
    /// to a path to write the page there and look at it.
    #[test]
    fn realistic_report() {
        let html = render(&fixtures::realistic());
        assert_eq!(count(&html, "<section class=\"test\""), 6);
        // Two plots per measured test, and the overview's two panels (the
        // fixture has budgets and comparisons).
        assert_eq!(count(&html, "<svg"), 14);
        assert_eq!(count(&html, "<figure class=\"overview\""), 1);
        assert_finite(&html);
        assert!(html.contains("1.561 GB/s"));
        assert!(html.contains("<span class=\"verdict fail\">fail</span>"));
        assert!(html.contains("\nbody{font:14px/1.45 system-ui"));
        assert!(html.contains("}\n</style>"));
        if let Some(path) = std::env::var_os("PERFMARK_HTML_DEMO") {
            std::fs::write(path, &html).expect("demo page written");
        }
    }
}
