//! The HTML report: one self-contained page per test target, with plots,
//! drawn from the `report.json` a test binary wrote ([`crate::report::read`]).
//!
//! [`render`] turns a [`Report`] into a single HTML document with inline CSS
//! (`style.css`) and hand-written inline SVG: no JavaScript, no fonts or
//! scripts fetched, so the file opens offline and can be attached to a CI
//! run as is. The same report always renders to the same bytes (no dates,
//! no hash-map order).
//!
//! The page has a header (the platform facts, as Sestoft's SystemInfo; the
//! noise floor; the environment warnings), the overview picture of every
//! test's budget and change (`fig_overview.rs`), how each threaded
//! function's time per iteration grew with its threads (`fig_scaling.rs`),
//! a summary table linking to one section per test, and for each measured
//! test its team when it ran on threads (`threads = [..]`) and its
//! figures, one file each: the samples in the order taken
//! (`fig_samples.rs`), their histogram (`fig_histogram.rs`) and their
//! correlogram (`fig_correlogram.rs`), drawn with the geometry of `svg.rs`
//! and the marks of `marks.rs`; then the test's facts
//! ([`perfmark_core::report::facts`], which the test binaries' `--verbose`
//! prints too).
//!
//! Every text that comes from the user or the machine (test names, panic
//! messages, reasons, CPU model) is escaped.

mod fig_correlogram;
mod fig_histogram;
mod fig_overview;
mod fig_samples;
mod fig_scaling;
mod marks;
mod svg;

use std::fmt::Write as _;

use perfmark_core::report::facts::{
    other_machine_baselines, platform_facts, table_reasons, test_facts, verdict_words, Fact,
};
use perfmark_core::report::fmt::{fmt_bound, fmt_ns, fmt_rate, plain_percent};
use perfmark_core::report::{Report, TestReport, ThreadsRecord, Verdict};

use fig_correlogram::correlogram_figure;
use fig_histogram::histogram_figure;
use fig_samples::scatter_figure;
use fig_scaling::scaling_figure;
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
    write_scaling(&mut html, report);
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

/// The section anchor of the test named `name`, when the report has it.
fn section_of(report: &Report, name: &str) -> Option<String> {
    let index = report.tests.iter().position(|t| t.name == name)?;
    Some(section_id(index, name))
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

/// "Scaling with threads": a figure per scaling line, its points linked
/// to their tests' sections; nothing when the report has no line.
fn write_scaling(html: &mut String, report: &Report) {
    if report.scaling.is_empty() {
        return;
    }
    html.push_str("<h2>Scaling with threads</h2>\n");
    for line in &report.scaling {
        html.push_str(&scaling_figure(line, |name| section_of(report, name)));
    }
}

fn estimate_text(t: &TestReport) -> (String, String) {
    match &t.estimate {
        Some(e) => (
            format!("{} {}", e.statistic.as_str(), fmt_ns(e.ns_per_iter)),
            format!(
                "[{}, {}] {}",
                fmt_bound(e.ci.low),
                fmt_bound(e.ci.high),
                plain_percent(e.ci.confidence)
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

/// The `index`-th test's section: its heading, estimate, panic, reasons
/// and warnings, its figures, and its facts.
fn write_test_section(html: &mut String, index: usize, t: &TestReport) {
    write_test_heading(html, index, t);
    write_estimate_line(html, t);
    if let Some(team) = &t.threads {
        write_team_line(html, team);
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
    write_figures(html, t);
    write_facts_table(html, &test_facts(t));
    html.push_str("</section>\n");
}

/// Opens the test's `<section>` (anchored by [`section_id`]) with the
/// name, the verdict, where the test is defined and how long it took.
fn write_test_heading(html: &mut String, index: usize, t: &TestReport) {
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
}

/// The estimate per iteration with its CI, and the rate when the test
/// declared its work; nothing without an estimate.
fn write_estimate_line(html: &mut String, t: &TestReport) {
    let Some(e) = &t.estimate else {
        return;
    };
    let mut line = format!(
        "<p><b>{} {}</b> per iteration, {} CI [{}, {}]",
        e.statistic.as_str(),
        fmt_ns(e.ns_per_iter),
        plain_percent(e.ci.confidence),
        fmt_bound(e.ci.low),
        fmt_bound(e.ci.high)
    );
    if let (Some(work), Some(rate)) = (t.work, t.rate_per_s) {
        let _ = write!(line, " · {}", fmt_rate(work, rate));
    }
    line.push_str("</p>");
    html.push_str(&line);
    html.push('\n');
}

/// A threaded test's team: where its threads ran ([`team_placement`]),
/// and each thread's own median time per iteration, the measuring thread
/// first.
fn write_team_line(html: &mut String, team: &ThreadsRecord) {
    let times: Vec<String> = team
        .per_thread_ns
        .iter()
        .enumerate()
        .map(|(i, &ns)| {
            if ns.is_finite() {
                format!("thread {} {}", i + 1, fmt_ns(ns))
            } else {
                format!("thread {} not measured", i + 1)
            }
        })
        .collect();
    let _ = write!(
        html,
        "<p class=\"team\"><b>Team</b>: {}",
        team_placement(team)
    );
    if !times.is_empty() {
        let _ = write!(
            html,
            " · each thread's own median per iteration: {}",
            times.join(", ")
        );
    }
    html.push_str("</p>\n");
}

/// How many threads a team had and whether each was held on a CPU of its
/// own, with the CPUs when it was; when not, on how few CPUs the run could
/// hold them, or that the scheduler placed them.
fn team_placement(team: &ThreadsRecord) -> String {
    let place = &team.placement;
    let threads = match team.count {
        1 => "1 thread".to_owned(),
        n => format!("{n} threads"),
    };
    match (place.apart, place.cpus.as_slice()) {
        (true, [cpu]) => format!("{threads}, held on a CPU of its own (CPU {cpu})"),
        (true, []) => format!("{threads}, each held on a CPU of its own"),
        (true, cpus) => {
            let cpus: Vec<String> = cpus.iter().map(usize::to_string).collect();
            format!(
                "{threads}, each held on a CPU of its own (CPUs {})",
                cpus.join(", ")
            )
        }
        (false, _) if place.candidates > 0 && place.candidates < team.count => format!(
            "{threads} on {} CPUs: not each on a CPU of its own",
            place.candidates
        ),
        (false, _) => {
            format!("{threads}, not each held on a CPU of its own: left to the scheduler")
        }
    }
}

/// The figures of the test's finite samples (the scatter, the histogram,
/// and the correlogram when there are lags); without samples, why not.
fn write_figures(html: &mut String, t: &TestReport) {
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
        return;
    }
    let marks = Marks::of(t, &samples);
    html.push_str(&scatter_figure(&samples, &marks));
    html.push_str(&histogram_figure(&samples, &marks));
    if let Some(d) = t.diagnostics.as_ref().filter(|d| !d.serial.lags.is_empty()) {
        html.push_str(&correlogram_figure(d));
    }
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
mod tests;
