//! The HTML report: one self-contained page per test target, with plots.
//!
//! [`render`] turns a [`Report`] into a single HTML document with inline CSS
//! and hand-written inline SVG: no JavaScript, no fonts or scripts fetched,
//! so the file opens offline and can be attached to a CI run as is. The same
//! report always renders to the same bytes (no dates, no hash-map order).
//!
//! The page has a header (the platform, as Sestoft's SystemInfo, seed 003;
//! the noise floor; the environment warnings), a summary table linking to
//! one section per test, and for each measured test two plots:
//! - the samples **in the order taken**, as a plain scatter with no smoothing
//!   (Sestoft, seed 003: "always use scatter (x-y) plots, no smoothing"), so
//!   drifts, warm-up left-overs and periodic interrupt spikes show as a
//!   pattern in time — Newcomer (seed 001) found his 5 ms and 11 ms peaks
//!   recurring every time-slice quantum by laying samples out as a time line;
//! - a **histogram**, where several modes show as several humps (Newcomer's
//!   histogram "looking for modalities of distribution", seed 001).
//!
//! Both mark the point estimate, its confidence interval (shaded) and the
//! budget; the scatter also marks the mild Tukey fences, the box-plot rule
//! Boyer uses to flag outliers (seed 002).
//!
//! Every text that comes from the user or the machine (test names, panic
//! messages, reasons, CPU model) is escaped.

use std::fmt::Write as _;

use crate::checks::{BudgetCheck, BudgetOutcome, Verdict};
use crate::measure::{Measurement, SampleKind, StopReason};
use crate::report::{fmt_ns, fmt_rate, Diagnostics, Report, TestReport};
use crate::stats;

/// Most points the time-series scatter draws. Longer series are cut into
/// runs of consecutive samples and each run is drawn by its minimum and its
/// maximum, so the plot stays small while every spike stays visible (taking
/// every k-th sample would drop most spikes).
pub const MAX_SCATTER_POINTS: usize = 2_000;

/// Most bars a histogram has (the square-root rule below this cap).
pub const MAX_HISTOGRAM_BINS: usize = 50;

/// Width of a plot, in SVG user units (the page scales it to fit).
const PLOT_WIDTH: f64 = 760.0;
/// Height of a plot, in SVG user units.
const PLOT_HEIGHT: f64 = 250.0;
/// Room left of the plot area for the value labels.
const MARGIN_LEFT: f64 = 74.0;
/// Room right of the plot area.
const MARGIN_RIGHT: f64 = 14.0;
/// Room above the plot area.
const MARGIN_TOP: f64 = 18.0;
/// Room below the plot area for the tick labels and the axis title.
const MARGIN_BOTTOM: f64 = 40.0;

const CSS: &str = "\
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d2330;\
max-width:1100px;margin:0 auto;padding:16px 24px 48px;background:#fff}\
h1{font-size:22px;margin:8px 0 4px}h2{font-size:18px;margin:28px 0 6px}\
h2 code{font-size:17px}h3{font-size:14px;font-weight:600;margin:14px 0 2px;color:#39404f}\
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}\
pre.panic{background:#fdecec;border:1px solid #f3b6b6;padding:8px;white-space:pre-wrap}\
table{border-collapse:collapse;margin:6px 0}\
th,td{border-bottom:1px solid #e3e6ec;padding:4px 10px 4px 0;text-align:left;vertical-align:top}\
th{font-weight:600;color:#39404f}td.num{white-space:nowrap;font-variant-numeric:tabular-nums}\
table.facts th{font-weight:normal;color:#5b6372;white-space:nowrap}\
.verdict{display:inline-block;padding:0 8px;border-radius:9px;font-size:12px;font-weight:600;\
white-space:nowrap}\
.verdict.pass{background:#dcf5e3;color:#14622f}.verdict.fail{background:#fbdada;color:#9b1c1c}\
.verdict.ignored{background:#eceef2;color:#5b6372}\
.verdict.not_measured{background:#fdf1d6;color:#7a5200}\
ul.warnings li{color:#7a5200}ul{margin:4px 0;padding-left:22px}\
section.test{border-top:2px solid #e3e6ec;margin-top:24px}\
figure{margin:10px 0 4px}figcaption{color:#39404f;font-size:13px;margin-bottom:2px}\
svg{width:100%;height:auto;max-width:760px;display:block}\
svg text{font:11px system-ui,sans-serif;fill:#39404f}\
svg .grid{stroke:#eceef2}svg .axis{stroke:#8b93a3}\
svg .samples{stroke:#2c5d9e;stroke-width:3.2;stroke-linecap:round;fill:none}\
svg .bar{fill:#7ea6d8;stroke:#fff;stroke-width:.5}\
svg .ci{fill:#f2a33a;fill-opacity:.22}svg .estimate{stroke:#d9730d;stroke-width:1.6}\
svg .budget{stroke:#c62828;stroke-width:1.6;stroke-dasharray:6 4}svg text.budget{fill:#c62828;stroke:#fff;stroke-width:3px;stroke-dasharray:none;paint-order:stroke}\
svg .fence{stroke:#8b93a3;stroke-width:1;stroke-dasharray:2 3}\
svg .offscale{stroke:#c62828;stroke-width:3.6;stroke-linecap:round;fill:none}svg .lag{fill:#7ea6d8}svg .lag.out{fill:#d9730d}svg .band{fill:#8b93a3;fill-opacity:.15}svg .mode{fill:#6a3d9a}\
.legend{font-size:12px;color:#5b6372;margin:2px 0 0}\
.key{display:inline-block;width:18px;height:0;vertical-align:middle;margin:0 4px 0 12px}\
.key.samples{width:7px;height:7px;border-radius:50%;background:#2c5d9e}\
.key.offscale{width:7px;height:7px;border-radius:50%;background:#c62828}\
.key.bar{width:10px;height:10px;background:#7ea6d8}\
.key.estimate{border-top:2px solid #d9730d}.key.ci{height:10px;background:rgba(242,163,58,.3)}\
.key.budget{border-top:2px dashed #c62828}.key.fence{border-top:1px dotted #5b6372}\
.key.lag{width:10px;height:10px;background:#7ea6d8}.key.lag.out{background:#d9730d}.key.band{height:10px;background:rgba(139,147,163,.25)}\
.key.mode{width:0;height:0;border:5px solid transparent;border-top:8px solid #6a3d9a;\
border-bottom:0}\
p.muted{color:#5b6372}\
";

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
    write_summary_table(&mut html, report);
    for (index, test) in report.tests.iter().enumerate() {
        write_test_section(&mut html, index, test);
    }
    html.push_str("</body>\n</html>\n");
    html
}

/// Escapes `text` for HTML element content and quoted attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
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

/// Human words for a verdict (`report.json` spells `not_measured`).
fn verdict_words(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
        Verdict::Ignored => "ignored",
        Verdict::NotMeasured => "not measured",
    }
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
    let p = &report.platform;
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
    html.push_str("<table class=\"facts\">\n");
    let kernel = p
        .kernel
        .as_deref()
        .map(|k| format!(" (kernel {})", escape(k)))
        .unwrap_or_default();
    fact_row(
        html,
        "OS",
        &format!("{}{kernel} · {}", escape(&p.os), escape(&p.arch)),
    );
    fact_row(
        html,
        "CPU",
        &format!("{} · {} logical cores", escape(&p.cpu_model), p.cores),
    );
    fact_row(html, "compiler", &escape(&p.rustc));
    fact_row(
        html,
        "build",
        &format!(
            "{} · perfmark {}",
            escape(&p.profile),
            escape(&p.perfmark_version)
        ),
    );
    fact_row(
        html,
        "timer",
        &format!(
            "resolution {} · overhead {} per read",
            fmt_ns(p.clock.resolution_ns),
            fmt_ns(p.clock.overhead_ns)
        ),
    );
    let floor = match report.noise_floor {
        Some(f) if f.is_finite() => format!(
            "{:.2}% (relative spread of a task with no intrinsic variation)",
            f * 100.0
        ),
        _ => "not measured".to_owned(),
    };
    fact_row(html, "noise floor", &floor);
    html.push_str("</table>\n");
    if !report.environment_warnings.is_empty() {
        html.push_str("<ul class=\"warnings\">\n");
        for w in &report.environment_warnings {
            let _ = writeln!(html, "<li>warning: {}</li>", escape(w));
        }
        html.push_str("</ul>\n");
    }
    html.push_str("</header>\n");
}

/// One `<tr>` of a two-column facts table; `value_html` is already escaped.
fn fact_row(html: &mut String, label: &str, value_html: &str) {
    let _ = writeln!(html, "<tr><th>{label}</th><td>{value_html}</td></tr>");
}

fn estimate_text(t: &TestReport) -> (String, String) {
    match &t.estimate {
        Some(e) => (
            format!("{} {}", e.statistic.as_str(), fmt_ns(e.ns_per_iter)),
            format!(
                "[{}, {}] {:.0}%",
                fmt_bound(e.ci_low),
                fmt_bound(e.ci_high),
                e.confidence * 100.0
            ),
        ),
        None => (String::new(), String::new()),
    }
}

/// A CI bound: a time, or `−∞` / `+∞` when unbounded.
fn fmt_bound(ns: f64) -> String {
    if ns.is_finite() {
        fmt_ns(ns)
    } else if ns > 0.0 {
        "+∞".to_owned()
    } else {
        "−∞".to_owned()
    }
}

fn budget_text(b: &BudgetCheck) -> String {
    let outcome = match b.outcome {
        BudgetOutcome::Under => "CI under",
        BudgetOutcome::Over => "CI over",
        BudgetOutcome::InconclusiveUnder => "inconclusive, estimate under",
        BudgetOutcome::InconclusiveOver => "inconclusive, estimate over",
    };
    format!(
        "{} ({outcome}, estimate at {:.0}%)",
        fmt_ns(b.budget_ns),
        b.ratio * 100.0
    )
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
        let reasons: Vec<String> = t.reasons.iter().map(|r| escape(r)).collect();
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
            "<p><b>{} {}</b> per iteration, {:.0}% CI [{}, {}]",
            e.statistic.as_str(),
            fmt_ns(e.ns_per_iter),
            e.confidence * 100.0,
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
    write_list(html, "reasons", "", &t.reasons);
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
    write_facts(html, t);
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

fn kind_words(kind: SampleKind) -> &'static str {
    match kind {
        SampleKind::Loop => "the routine in a loop (iter)",
        SampleKind::Batched => "inputs prepared untimed (iter_batched)",
        SampleKind::Custom => "times reported by the test (iter_custom)",
    }
}

fn stop_words(stop: StopReason) -> &'static str {
    match stop {
        StopReason::Precision => "the CI reached the target precision",
        StopReason::MaxTime => "max_time ran out",
        StopReason::SampleCap => "the sample cap was reached",
        StopReason::Smoke => "smoke run in an unoptimized build",
    }
}

/// The measurement's details: first call, iterations per sample, warm-up,
/// summary statistics, outliers, budget.
fn write_facts(html: &mut String, t: &TestReport) {
    let mut rows: Vec<(&str, String)> = Vec::new();
    if let Some(m) = &t.measurement {
        rows.extend(measurement_rows(m));
    }
    if let Some(s) = &t.summary {
        rows.push((
            "summary",
            format!(
                "mean {} · median {} · sd {} · cov {:.2}%",
                fmt_ns(s.mean),
                fmt_ns(s.median),
                fmt_ns(s.sd),
                s.cov * 100.0
            ),
        ));
        rows.push((
            "range",
            format!(
                "min {} · q1 {} · q3 {} · max {}",
                fmt_ns(s.min),
                fmt_ns(s.q1),
                fmt_ns(s.q3),
                fmt_ns(s.max)
            ),
        ));
    }
    if let Some(o) = &t.outliers {
        rows.push((
            "Tukey outliers",
            format!(
                "{} in all · low: {} severe, {} mild · high: {} mild, {} severe",
                o.total(),
                o.low_severe,
                o.low_mild,
                o.high_mild,
                o.high_severe
            ),
        ));
    }
    if let Some(b) = &t.budget {
        rows.push(("budget", budget_text(b)));
    }
    if let Some(d) = &t.diagnostics {
        rows.extend(diagnostics_rows(d));
    }
    if rows.is_empty() {
        return;
    }
    html.push_str("<table class=\"facts\">\n");
    for (label, value) in rows {
        fact_row(html, label, &value);
    }
    html.push_str("</table>\n");
}

/// The statistical account: the CI's correction for serial correlation,
/// the modes, the spread's CI, the gating error and the noise diagnosis.
fn diagnostics_rows(d: &Diagnostics) -> Vec<(&'static str, String)> {
    let e = &d.verdict_estimate;
    let mut rows = vec![(
        "CI correction",
        format!(
            "effective sample size {:.1} of {} · CI assuming independent samples [{}, {}]",
            e.effective_n,
            e.n,
            fmt_bound(e.naive_ci.low),
            fmt_bound(e.naive_ci.high)
        ),
    )];
    let s = &d.serial;
    if !s.lags.is_empty() {
        rows.push((
            "serial correlation",
            format!(
                "{} · lag-1 autocorrelation {:.3} · {} of {} lags outside ±{:.3} ({:.1} expected \
                 by chance) · Ljung–Box p = {:.3}",
                if s.flagged {
                    "detected"
                } else {
                    "not detected"
                },
                s.lags[0],
                s.outside,
                s.lags.len(),
                s.band,
                s.expected_outside,
                s.ljung_box_p
            ),
        ));
    }
    let modes: Vec<String> = d
        .modality
        .modes
        .iter()
        .map(|m| format!("{} ({:.0}%)", fmt_ns(m.centre), m.weight * 100.0))
        .collect();
    if !modes.is_empty() {
        rows.push(("modes", format!("{}: {}", modes.len(), modes.join(", "))));
    }
    rows.push((
        "sd CI",
        format!(
            "{:.0}% CI [{}, {}]",
            d.sd_ci.confidence * 100.0,
            fmt_bound(d.sd_ci.low),
            fmt_bound(d.sd_ci.high)
        ),
    ));
    rows.push((
        "gating error",
        format!(
            "at most {:.4}% per sample from the timer's resolution",
            d.gating_error * 100.0
        ),
    ));
    if let Some(n) = &d.noise {
        rows.push((
            "noise",
            format!(
                "the machine's noise floor ({:.2}%) explains {:.0}% of the variance; the test's \
                 own spread is {:.2}%{}",
                n.floor_cov * 100.0,
                n.machine_share * 100.0,
                n.intrinsic_cov * 100.0,
                if n.machine_dominated {
                    ": the spread is the machine's"
                } else {
                    ""
                }
            ),
        ));
    }
    rows
}

fn measurement_rows(m: &Measurement) -> Vec<(&'static str, String)> {
    vec![
        (
            "samples",
            format!(
                "{} ({} planned from the pilot) × {} iterations each",
                m.samples_ns.len(),
                m.planned_samples,
                m.iters_per_sample
            ),
        ),
        (
            "sampling",
            format!("{}: {}", kind_words(m.kind), stop_words(m.stop)),
        ),
        (
            "first call",
            format!("{} (cold, timed alone)", fmt_ns(m.first_call_ns)),
        ),
        (
            "loop overhead",
            format!(
                "{} per iteration, subtracted from every sample",
                fmt_ns(m.loop_overhead_ns)
            ),
        ),
        (
            "warm-up",
            format!(
                "{} in {} blocks, {}",
                fmt_ns(m.warmup_ns),
                m.warmup_blocks,
                if m.warmup_settled {
                    "settled"
                } else {
                    "stopped by the cap before settling"
                }
            ),
        ),
        ("sampling time", fmt_ns(m.sampling_ns)),
    ]
}

/// The horizontal (scatter) or vertical (histogram) lines a plot marks.
#[derive(Debug, Clone)]
struct Marks {
    /// The point estimate, when finite.
    estimate: Option<f64>,
    /// The CI's bounds (either may be infinite) and its confidence.
    ci: Option<(f64, f64, f64)>,
    /// The verdict statistic's name.
    statistic: &'static str,
    /// The budget, when one was enforced.
    budget: Option<f64>,
    /// The mild Tukey fences of the plotted samples (low, high).
    mild_fences: (f64, f64),
    /// The modes' centres, when there is more than one.
    modes: Vec<f64>,
}

impl Marks {
    fn of(t: &TestReport, samples: &[f64]) -> Marks {
        let fences = stats::tukey(samples).fences;
        Marks {
            estimate: t
                .estimate
                .as_ref()
                .map(|e| e.ns_per_iter)
                .filter(|x| x.is_finite()),
            ci: t
                .estimate
                .as_ref()
                .filter(|e| !e.ci_low.is_nan() && !e.ci_high.is_nan())
                .map(|e| (e.ci_low, e.ci_high, e.confidence)),
            statistic: t
                .estimate
                .as_ref()
                .map_or("estimate", |e| e.statistic.as_str()),
            budget: t
                .budget
                .as_ref()
                .map(|b| b.budget_ns)
                .filter(|x| x.is_finite()),
            mild_fences: (fences[1], fences[2]),
            modes: t
                .diagnostics
                .as_ref()
                .filter(|d| d.modality.multimodal)
                .map(|d| d.modality.modes.iter().map(|m| m.centre).collect())
                .unwrap_or_default(),
        }
    }

    /// The value range a plot shows: `[data_lo, data_hi]` widened to take
    /// in the estimate, the CI and the budget when they are near the data
    /// (see [`near`]); a mark far away is drawn at the edge instead, so one
    /// far budget does not squash the samples into a line.
    fn value_range(&self, data_lo: f64, data_hi: f64) -> (f64, f64) {
        let (mut lo, mut hi) = (data_lo, data_hi);
        let ci = self.ci.map(|(l, h, _)| [l, h]).unwrap_or([f64::NAN; 2]);
        for v in [self.estimate, self.budget].into_iter().flatten().chain(ci) {
            if v.is_finite() && near(v, data_lo, data_hi) {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        padded(lo, hi)
    }

    /// The HTML legend under a plot.
    fn legend(&self, first: &str) -> String {
        let mut legend = format!("<p class=\"legend\">{first}");
        if let Some(e) = self.estimate {
            let _ = write!(
                legend,
                "<span class=\"key estimate\"></span>{} {}",
                self.statistic,
                fmt_ns(e)
            );
        }
        if let Some((l, h, c)) = self.ci {
            let _ = write!(
                legend,
                "<span class=\"key ci\"></span>{:.0}% CI [{}, {}]",
                c * 100.0,
                fmt_bound(l),
                fmt_bound(h)
            );
        }
        if let Some(b) = self.budget {
            let _ = write!(
                legend,
                "<span class=\"key budget\"></span>budget {}",
                fmt_ns(b)
            );
        }
        legend
    }
}

/// Whether a mark at `v` belongs on the same scale as data in `[lo, hi]`:
/// for positive data, within a factor of 2 of it; otherwise within one
/// data scale (span or magnitude, whichever is larger) of it.
fn near(v: f64, lo: f64, hi: f64) -> bool {
    if lo > 0.0 {
        v >= lo / 2.0 && v <= hi * 2.0
    } else {
        let scale = (hi - lo).max(lo.abs()).max(hi.abs());
        v >= lo - scale && v <= hi + scale
    }
}

/// `[lo, hi]` with 5% room on each side; a zero-width range becomes ±5%
/// of its value (±0.5 when the value is 0), so nothing divides by zero.
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    let span = hi - lo;
    if span > 0.0 {
        (lo - 0.05 * span, hi + 0.05 * span)
    } else {
        let d = if lo == 0.0 { 0.5 } else { lo.abs() * 0.05 };
        (lo - d, hi + d)
    }
}

/// One axis: the value range it spans and its tick values.
#[derive(Debug, Clone)]
struct Axis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
    labels: Vec<String>,
}

/// What an axis measures, which decides its tick labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AxisKind {
    /// Nanoseconds, labelled in ns/µs/ms/s.
    Nanos,
    /// A count or an index: whole-number ticks.
    Count,
    /// A unitless number (a correlation): as many decimals as the step needs.
    Plain,
}

impl Axis {
    /// An axis over `[lo, hi]` (`hi > lo`, both finite) with about
    /// `target` ticks at round steps (1, 2 or 5 × a power of ten).
    fn new(lo: f64, hi: f64, target: usize, kind: AxisKind) -> Axis {
        debug_assert!(hi > lo && lo.is_finite() && hi.is_finite());
        let raw = (hi - lo) / target.max(1) as f64;
        let magnitude = 10f64.powf(raw.log10().floor());
        let mut step = match raw / magnitude {
            r if r <= 1.0 => magnitude,
            r if r <= 2.0 => 2.0 * magnitude,
            r if r <= 5.0 => 5.0 * magnitude,
            _ => 10.0 * magnitude,
        };
        if kind == AxisKind::Count {
            step = step.max(1.0).round();
        }
        let first = (lo / step).ceil() as i64;
        let last = (hi / step).floor() as i64;
        // `target` is small and the step is at least span/target, so this
        // is a handful of ticks; the cap only guards against float surprises.
        let ticks: Vec<f64> = (first..=last)
            .take(4 * target + 4)
            .map(|k| if k == 0 { 0.0 } else { k as f64 * step })
            .collect();
        let labels = match kind {
            AxisKind::Nanos => ns_tick_labels(&ticks, step),
            AxisKind::Count => ticks.iter().map(|t| format!("{t:.0}")).collect(),
            AxisKind::Plain => tick_labels(&ticks, step, 1.0, ""),
        };
        Axis {
            lo,
            hi,
            ticks,
            labels,
        }
    }
}

/// Tick labels for times, all in one unit chosen as [`fmt_ns`] would choose
/// it for the largest tick, with just enough decimals for the step, so
/// neighbouring labels always differ (`fmt_ns`'s 4 significant digits would
/// print `812.4 ns` twice on an axis stepping by 0.01 ns).
fn ns_tick_labels(ticks: &[f64], step_ns: f64) -> Vec<String> {
    let largest = ticks.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    let (divisor, unit) = match largest {
        x if x < 1e3 => (1.0, " ns"),
        x if x < 1e6 => (1e3, " µs"),
        x if x < 1e9 => (1e6, " ms"),
        _ => (1e9, " s"),
    };
    tick_labels(ticks, step_ns, divisor, unit)
}

/// `ticks` divided by `divisor`, with `unit` appended, with just enough
/// decimals for `step` (in the ticks' unit, before dividing).
fn tick_labels(ticks: &[f64], step: f64, divisor: f64, unit: &str) -> Vec<String> {
    // Steps are 1, 2 or 5 × 10^k in the unit: k < 0 needs -k decimals
    // (the small slack absorbs log10's rounding at exact powers of ten).
    let k = ((step / divisor).log10() + 1e-9).floor();
    let decimals = if k < 0.0 { (-k) as usize } else { 0 };
    ticks
        .iter()
        .map(|t| format!("{:.decimals$}{unit}", t / divisor))
        .collect()
}

/// A plot area in SVG user units with its two axes.
#[derive(Debug)]
struct Frame {
    x: Axis,
    y: Axis,
}

impl Frame {
    fn left() -> f64 {
        MARGIN_LEFT
    }
    fn right() -> f64 {
        PLOT_WIDTH - MARGIN_RIGHT
    }
    fn top() -> f64 {
        MARGIN_TOP
    }
    fn bottom() -> f64 {
        PLOT_HEIGHT - MARGIN_BOTTOM
    }

    /// The horizontal position of value `v`, clamped to the plot area.
    fn px_x(&self, v: f64) -> f64 {
        let f = ((v - self.x.lo) / (self.x.hi - self.x.lo)).clamp(0.0, 1.0);
        Self::left() + f * (Self::right() - Self::left())
    }

    /// The vertical position of value `v` (up is larger), clamped to the
    /// plot area.
    fn px_y(&self, v: f64) -> f64 {
        let f = ((v - self.y.lo) / (self.y.hi - self.y.lo)).clamp(0.0, 1.0);
        Self::bottom() - f * (Self::bottom() - Self::top())
    }

    /// Opens the `<svg>` and draws the grid, the axes, the tick labels and
    /// the axis titles. The caller draws the data and closes it.
    fn open_svg(&self, title: &str, x_title: &str, y_title: &str) -> String {
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {PLOT_WIDTH} {PLOT_HEIGHT}\" \
             role=\"img\">\n<title>{}</title>\n",
            escape(title)
        );
        let (l, r, t, b) = (Self::left(), Self::right(), Self::top(), Self::bottom());
        for (value, label) in self.y.ticks.iter().zip(&self.y.labels) {
            let y = self.px_y(*value);
            let _ = writeln!(
                svg,
                "<line class=\"grid\" x1=\"{l:.1}\" y1=\"{y:.1}\" x2=\"{r:.1}\" y2=\"{y:.1}\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
                l - 6.0,
                y + 4.0
            );
        }
        for (value, label) in self.x.ticks.iter().zip(&self.x.labels) {
            let x = self.px_x(*value);
            let _ = writeln!(
                svg,
                "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{b:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>",
                b + 4.0,
                b + 16.0
            );
        }
        let _ = writeln!(
            svg,
            "<path class=\"axis\" fill=\"none\" d=\"M{l:.1} {t:.1}V{b:.1}H{r:.1}\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{x_title}</text>\n\
             <text transform=\"translate(12 {:.1}) rotate(-90)\" text-anchor=\"middle\">{y_title}</text>",
            (l + r) / 2.0,
            PLOT_HEIGHT - 6.0,
            (t + b) / 2.0
        );
        svg
    }

    /// A horizontal mark across the plot at value `v` of the y axis.
    fn hline(&self, class: &str, v: f64, tooltip: &str) -> String {
        let y = self.px_y(v);
        format!(
            "<line class=\"{class}\" x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\">\
             <title>{tooltip}</title></line>\n",
            Self::left(),
            Self::right()
        )
    }

    /// A vertical mark across the plot at value `v` of the x axis.
    fn vline(&self, class: &str, v: f64, tooltip: &str) -> String {
        let x = self.px_x(v);
        format!(
            "<line class=\"{class}\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\">\
             <title>{tooltip}</title></line>\n",
            Self::top(),
            Self::bottom()
        )
    }
}

/// Which samples the scatter draws.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Thinning {
    /// Indices of the samples drawn, ascending.
    indices: Vec<usize>,
    /// Every `step`-th sample is drawn (1: all of them).
    step: usize,
    /// Samples beyond the mild fences drawn besides the regular ones.
    extra: usize,
}

/// Picks the samples the scatter draws: all of them up to
/// [`MAX_SCATTER_POINTS`]; beyond, every `step`-th sample (at most half the
/// points) plus the samples beyond the mild Tukey fences `fences` that this
/// skipped (at most the other half, evenly spaced among them when there are
/// more), so that spikes stay visible. Regular thinning keeps the shape of
/// the cloud; keeping each run's minimum and maximum instead would draw two
/// false bands at the run extremes.
fn thin(samples: &[f64], fences: (f64, f64)) -> Thinning {
    let n = samples.len();
    if n <= MAX_SCATTER_POINTS {
        return Thinning {
            indices: (0..n).collect(),
            step: 1,
            extra: 0,
        };
    }
    let half = MAX_SCATTER_POINTS / 2;
    let step = n.div_ceil(half);
    let (lo, hi) = fences;
    let beyond: Vec<usize> = (0..n)
        .filter(|&i| i % step != 0 && (samples[i] < lo || samples[i] > hi))
        .collect();
    let every = beyond.len().div_ceil(half).max(1);
    let extra: Vec<usize> = beyond.into_iter().step_by(every).collect();
    let mut indices: Vec<usize> = (0..n).step_by(step).chain(extra.iter().copied()).collect();
    indices.sort_unstable();
    Thinning {
        indices,
        step,
        extra: extra.len(),
    }
}

/// The samples in the order taken, with the estimate, the CI band, the
/// budget and the mild Tukey fences.
fn scatter_figure(samples: &[f64], marks: &Marks) -> String {
    let n = samples.len();
    let (min, max) = min_max(samples);
    let (mut data_lo, mut data_hi) = shown_range(samples);
    let (mut lo, mut hi) = marks.value_range(data_lo, data_hi);
    if max - min <= 2.0 * (hi - lo) {
        // The samples beyond the fences fit on a scale at most twice as
        // tall: show them where they are rather than at the edge.
        (data_lo, data_hi) = (min, max);
        (lo, hi) = marks.value_range(min, max);
    }
    let last_index = (n - 1).max(1) as f64;
    let frame = Frame {
        x: Axis::new(0.0, last_index, 8, AxisKind::Count),
        y: Axis::new(lo, hi, 5, AxisKind::Nanos),
    };
    let thinning = thin(samples, marks.mild_fences);
    let indices = &thinning.indices;
    let mut caption = if thinning.step == 1 {
        format!("Samples in the order taken ({n}, time per iteration of each)")
    } else {
        format!(
            "Samples in the order taken ({n}; thinned to {} points: every {}th sample, plus {} \
             beyond the mild Tukey fences)",
            indices.len(),
            thinning.step,
            thinning.extra
        )
    };
    let (below, above) = (
        samples.iter().filter(|&&x| x < lo).count(),
        samples.iter().filter(|&&x| x > hi).count(),
    );
    if below + above > 0 {
        let _ = write!(
            caption,
            "; {} beyond the severe Tukey fences",
            beyond_words(below, min, above, max)
        );
        caption.push_str(", drawn at the edge");
    }
    let mut svg = frame.open_svg(&caption, "sample index (order taken)", "time per iteration");
    draw_ci(&mut svg, &frame, marks, Orientation::Horizontal);
    let (fence_lo, fence_hi) = marks.mild_fences;
    for (v, side) in [(fence_lo, "low"), (fence_hi, "high")] {
        // Fences are only drawn where they fall among the data: they never
        // stretch the scale.
        if v.is_finite() && v > lo && v < hi && data_hi > data_lo {
            let tip = format!("{side} mild Tukey fence {}", fmt_ns(v));
            svg.push_str(&frame.hline("fence", v, &tip));
        }
    }
    // Samples off the scale are clamped to its edge by `px_y` and drawn in
    // their own colour, so they stay visible and are not mistaken for data
    // at the edge.
    for (class, on_scale) in [("samples", true), ("offscale", false)] {
        let mut points = indices
            .iter()
            .filter(|&&i| (lo..=hi).contains(&samples[i]) == on_scale)
            .peekable();
        if points.peek().is_none() {
            continue;
        }
        let _ = write!(svg, "<path class=\"{class}\" d=\"");
        for &i in points {
            let _ = write!(
                svg,
                "M{:.1} {:.1}h0",
                frame.px_x(i as f64),
                frame.px_y(samples[i])
            );
        }
        svg.push_str("\"/>\n");
    }
    if let Some(e) = marks.estimate {
        let tip = format!("{} {}", marks.statistic, fmt_ns(e));
        svg.push_str(&frame.hline("estimate", e, &tip));
    }
    draw_budget(&mut svg, &frame, marks, Orientation::Horizontal);
    svg.push_str("</svg>\n");
    let mut legend = marks.legend("<span class=\"key samples\"></span>sample");
    if below + above > 0 {
        legend.push_str("<span class=\"key offscale\"></span>sample off the scale");
    }
    if marks.mild_fences.0.is_finite() && data_hi > data_lo {
        legend.push_str("<span class=\"key fence\"></span>Tukey fences q1 − 1.5·IQR, q3 + 1.5·IQR");
    }
    legend.push_str("</p>\n");
    format!(
        "<figure class=\"scatter\">\n<figcaption>{}</figcaption>\n{svg}{legend}</figure>\n",
        escape(&caption)
    )
}

/// Which way the value axis of a plot runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Orientation {
    /// Values on the y axis (the scatter): marks are horizontal lines.
    Horizontal,
    /// Values on the x axis (the histogram): marks are vertical lines.
    Vertical,
}

/// The CI as a shaded band, clamped to the plot when a bound is off scale
/// or infinite.
fn draw_ci(svg: &mut String, frame: &Frame, marks: &Marks, o: Orientation) {
    let Some((low, high, confidence)) = marks.ci else {
        return;
    };
    let tip = format!(
        "{:.0}% CI [{}, {}]",
        confidence * 100.0,
        fmt_bound(low),
        fmt_bound(high)
    );
    let _ = match o {
        Orientation::Horizontal => {
            let (y_top, y_bottom) = (frame.px_y(high), frame.px_y(low));
            writeln!(
                svg,
                "<rect class=\"ci\" x=\"{:.1}\" y=\"{y_top:.1}\" width=\"{:.1}\" height=\"{:.1}\">\
                 <title>{tip}</title></rect>",
                Frame::left(),
                Frame::right() - Frame::left(),
                (y_bottom - y_top).max(1.0)
            )
        }
        Orientation::Vertical => {
            let (x_left, x_right) = (frame.px_x(low), frame.px_x(high));
            writeln!(
                svg,
                "<rect class=\"ci\" x=\"{x_left:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\">\
                 <title>{tip}</title></rect>",
                Frame::top(),
                (x_right - x_left).max(1.0),
                Frame::bottom() - Frame::top()
            )
        }
    };
}

/// The budget as a dashed line with its label; a budget off the scale is
/// drawn at the edge it lies beyond, labelled "off scale".
fn draw_budget(svg: &mut String, frame: &Frame, marks: &Marks, o: Orientation) {
    let Some(budget) = marks.budget else {
        return;
    };
    let axis = match o {
        Orientation::Horizontal => &frame.y,
        Orientation::Vertical => &frame.x,
    };
    let off = if budget > axis.hi {
        " (off scale, above)"
    } else if budget < axis.lo {
        " (off scale, below)"
    } else {
        ""
    };
    let label = format!("budget {}{off}", fmt_ns(budget));
    match o {
        Orientation::Horizontal => {
            svg.push_str(&frame.hline("budget", budget, &label));
            let y = frame.px_y(budget);
            // Label above the line, or below it when the line is at the top.
            let text_y = if y - 5.0 < Frame::top() + 10.0 {
                y + 13.0
            } else {
                y - 5.0
            };
            let _ = writeln!(
                svg,
                "<text class=\"budget\" x=\"{:.1}\" y=\"{text_y:.1}\" text-anchor=\"end\">{label}</text>",
                Frame::right() - 4.0
            );
        }
        Orientation::Vertical => {
            svg.push_str(&frame.vline("budget", budget, &label));
            let x = frame.px_x(budget);
            let (text_x, anchor) = if x > (Frame::left() + Frame::right()) / 2.0 {
                (x - 4.0, "end")
            } else {
                (x + 4.0, "start")
            };
            let _ = writeln!(
                svg,
                "<text class=\"budget\" x=\"{text_x:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\">{label}</text>",
                Frame::top() - 5.0
            );
        }
    }
}

/// Equal-width bins over the samples.
#[derive(Debug, Clone, PartialEq)]
struct Bins {
    /// Lower edge of the first bin.
    lo: f64,
    /// Width of each bin (0 when every binned sample is equal: one bin).
    width: f64,
    /// Samples per bin; the last bin is closed on the right.
    counts: Vec<usize>,
    /// Samples left out below the range (beyond the low severe fence).
    below: usize,
    /// Samples left out above the range (beyond the high severe fence).
    above: usize,
}

/// The range of `samples` (finite, non-empty) that the plots scale to: the
/// samples' own, narrowed to the severe Tukey fences (3·IQR) when they cut
/// off some samples and still leave a range — a 5 ms interrupt spike among
/// 100 µs samples would otherwise flatten everything else into one line or
/// one bar. The ends are the extreme samples kept.
fn shown_range(samples: &[f64]) -> (f64, f64) {
    let (min, max) = min_max(samples);
    let fences = stats::tukey(samples).fences;
    let (mut lo, mut hi) = (min, max);
    if fences[0].is_finite() && fences[3].is_finite() {
        let (f_lo, f_hi) = (min.max(fences[0]), max.min(fences[3]));
        if f_hi > f_lo && (f_lo > min || f_hi < max) {
            // Snap to the extreme samples kept, so no bar is empty at the ends.
            let kept = samples.iter().copied().filter(|&x| x >= f_lo && x <= f_hi);
            let (k_lo, k_hi) = kept.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
            if k_hi > k_lo {
                (lo, hi) = (k_lo, k_hi);
            }
        }
    }
    (lo, hi)
}

/// Bins `samples` (finite, non-empty) into at most [`MAX_HISTOGRAM_BINS`]
/// bins by the square-root rule, over [`shown_range`]; the samples beyond
/// it are counted in `below` and `above`.
fn bins(samples: &[f64]) -> Bins {
    let (lo, hi) = shown_range(samples);
    let below = samples.iter().filter(|&&x| x < lo).count();
    let above = samples.iter().filter(|&&x| x > hi).count();
    let kept = samples.len() - below - above;
    let count = if hi > lo {
        ((kept as f64).sqrt().ceil() as usize).clamp(1, MAX_HISTOGRAM_BINS)
    } else {
        1
    };
    let width = (hi - lo) / count as f64;
    let mut counts = vec![0usize; count];
    for &x in samples.iter().filter(|&&x| x >= lo && x <= hi) {
        let i = if width > 0.0 {
            ((x - lo) / width) as usize
        } else {
            0
        };
        counts[i.min(count - 1)] += 1;
    }
    Bins {
        lo,
        width,
        counts,
        below,
        above,
    }
}

/// The histogram of the samples with the estimate, the CI and the budget.
fn histogram_figure(samples: &[f64], marks: &Marks) -> String {
    let b = bins(samples);
    let hi_edge = b.lo + b.width * b.counts.len() as f64;
    let (lo, hi) = marks.value_range(b.lo, hi_edge);
    let fullest = b.counts.iter().copied().max().unwrap_or(0).max(1);
    let frame = Frame {
        x: Axis::new(lo, hi, 7, AxisKind::Nanos),
        y: Axis::new(0.0, fullest as f64 * 1.08, 4, AxisKind::Count),
    };
    let mut caption = format!(
        "Histogram of the {} samples ({} bins)",
        samples.len(),
        b.counts.len()
    );
    if b.below + b.above > 0 {
        let (min, max) = min_max(samples);
        let _ = write!(
            caption,
            "; left out: {} beyond the severe Tukey fences",
            beyond_words(b.below, min, b.above, max)
        );
    }
    let mut svg = frame.open_svg(&caption, "time per iteration", "samples");
    draw_ci(&mut svg, &frame, marks, Orientation::Vertical);
    // A zero-width bin (all samples equal) is drawn 1/40 of the plot wide.
    let (bar_lo, bar_width) = if b.width > 0.0 {
        (b.lo, b.width)
    } else {
        let w = (hi - lo) / 40.0;
        (b.lo - w / 2.0, w)
    };
    for (i, &count) in b.counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let (from, to) = (
            bar_lo + bar_width * i as f64,
            bar_lo + bar_width * (i + 1) as f64,
        );
        let (x0, x1) = (frame.px_x(from), frame.px_x(to));
        let y = frame.px_y(count as f64);
        let close = if i + 1 == b.counts.len() { ']' } else { ')' };
        let _ = writeln!(
            svg,
            "<rect class=\"bar\" x=\"{x0:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\">\
             <title>[{}, {}{close}: {count}</title></rect>",
            (x1 - x0).max(1.0),
            Frame::bottom() - y,
            fmt_ns(from),
            fmt_ns(to)
        );
    }
    if let Some(e) = marks.estimate {
        let tip = format!("{} {}", marks.statistic, fmt_ns(e));
        svg.push_str(&frame.vline("estimate", e, &tip));
    }
    draw_budget(&mut svg, &frame, marks, Orientation::Vertical);
    for &centre in marks.modes.iter().filter(|c| c.is_finite()) {
        let x = frame.px_x(centre);
        let y = Frame::top();
        let _ = writeln!(
            svg,
            "<path class=\"mode\" d=\"M{:.1} {y:.1}h10l-5 8z\"><title>mode at {}</title></path>",
            x - 5.0,
            fmt_ns(centre)
        );
    }
    svg.push_str("</svg>\n");
    let mut legend = marks.legend("<span class=\"key bar\"></span>samples per bin");
    if !marks.modes.is_empty() {
        let _ = write!(
            legend,
            "<span class=\"key mode\"></span>{} modes",
            marks.modes.len()
        );
    }
    legend.push_str("</p>\n");
    format!(
        "<figure class=\"histogram\">\n<figcaption>{}</figcaption>\n{svg}{legend}</figure>\n",
        escape(&caption)
    )
}

/// The autocorrelation of the samples' ranks by lag, against the band an
/// independent series stays inside 95% of the time — Boyer's
/// `diagnoseSerialCorrelation` (seed 002) drawn as a correlogram.
fn correlogram_figure(d: &Diagnostics) -> String {
    let s = &d.serial;
    let k = s.lags.len();
    let finite = s.lags.iter().copied().filter(|r| r.is_finite());
    let (r_lo, r_hi) = finite.fold((-1.5 * s.band, 1.5 * s.band), |(lo, hi), r| {
        (lo.min(r), hi.max(r))
    });
    let (lo, hi) = padded(r_lo.min(0.0), r_hi.max(0.0));
    let frame = Frame {
        x: Axis::new(0.5, k as f64 + 0.5, 10, AxisKind::Count),
        y: Axis::new(lo, hi, 4, AxisKind::Plain),
    };
    let verdict = if s.flagged {
        format!(
            "serial correlation detected: the CI rests on {:.1} effective samples of {}",
            d.verdict_estimate.effective_n, d.verdict_estimate.n
        )
    } else {
        "no serial correlation detected".to_owned()
    };
    let caption = format!(
        "Autocorrelation of the samples' ranks by lag ({} of {k} lags outside the ±1.96/√n band, \
         {:.1} expected by chance): {verdict}",
        s.outside, s.expected_outside
    );
    let mut svg = frame.open_svg(&caption, "lag (samples)", "autocorrelation");
    let (band_top, band_bottom) = (frame.px_y(s.band), frame.px_y(-s.band));
    let _ = writeln!(
        svg,
        "<rect class=\"band\" x=\"{:.1}\" y=\"{band_top:.1}\" width=\"{:.1}\" height=\"{:.1}\">\
         <title>±{:.3}: 95% of an independent series' lags</title></rect>",
        Frame::left(),
        Frame::right() - Frame::left(),
        (band_bottom - band_top).max(1.0),
        s.band
    );
    let zero = frame.px_y(0.0);
    let slot = (frame.px_x(2.0) - frame.px_x(1.0)) * 0.6;
    for (i, &r) in s.lags.iter().enumerate() {
        if !r.is_finite() {
            continue;
        }
        let x = frame.px_x((i + 1) as f64) - slot / 2.0;
        let y = frame.px_y(r);
        let class = if r.abs() > s.band { "lag out" } else { "lag" };
        let _ = writeln!(
            svg,
            "<rect class=\"{class}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{slot:.1}\" height=\"{:.1}\">\
             <title>lag {}: {r:.3}</title></rect>",
            y.min(zero),
            (y - zero).abs().max(0.5),
            i + 1
        );
    }
    let _ = writeln!(
        svg,
        "<line class=\"axis\" x1=\"{:.1}\" y1=\"{zero:.1}\" x2=\"{:.1}\" y2=\"{zero:.1}\"/>\n</svg>",
        Frame::left(),
        Frame::right()
    );
    let legend = format!(
        "<p class=\"legend\"><span class=\"key lag\"></span>autocorrelation at each lag\
         <span class=\"key lag out\"></span>outside the band\
         <span class=\"key band\"></span>±{:.3} band of an independent series</p>\n",
        s.band
    );
    format!(
        "<figure class=\"correlogram\">\n<figcaption>{}</figcaption>\n{svg}{legend}</figure>\n",
        escape(&caption)
    )
}

/// `"2 below (min 1.000 µs) and 13 above (max 5.040 ms)"`, naming only the
/// sides that have samples.
fn beyond_words(below: usize, min: f64, above: usize, max: f64) -> String {
    let mut sides = Vec::new();
    if below > 0 {
        sides.push(format!("{below} below (min {})", fmt_ns(min)));
    }
    if above > 0 {
        sides.push(format!("{above} above (max {})", fmt_ns(max)));
    }
    sides.join(" and ")
}

/// Smallest and largest of finite, non-empty `xs`.
fn min_max(xs: &[f64]) -> (f64, f64) {
    xs.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ClockInfo;
    use crate::platform::Platform;
    use crate::report::{EstimateRecord, REPORT_SCHEMA};
    use crate::stats::{estimate, summarize, tukey, Statistic};

    fn platform() -> Platform {
        Platform {
            os: "linux".to_owned(),
            kernel: Some("6.1.0-test".to_owned()),
            arch: "x86_64".to_owned(),
            cpu_model: "Test CPU <8 cores> @ 3.0GHz".to_owned(),
            cores: 2,
            rustc: "rustc 1.80.0".to_owned(),
            profile: "release".to_owned(),
            perfmark_version: "0.1.0".to_owned(),
            clock: ClockInfo {
                resolution_ns: 20.0,
                overhead_ns: 24.5,
            },
        }
    }

    fn report(tests: Vec<TestReport>) -> Report {
        Report {
            schema: REPORT_SCHEMA,
            target: "perf".to_owned(),
            platform: platform(),
            noise_floor: Some(0.012),
            environment_warnings: vec!["virtual machine: expect <noise>".to_owned()],
            tests,
            finished_in_s: 3.25,
        }
    }

    /// A test report as the runner builds it from `samples`, with the real
    /// statistics.
    fn measured(name: &str, samples: Vec<f64>, budget_ns: Option<f64>) -> TestReport {
        let e = estimate(&samples, 0.95);
        let budget = budget_ns.map(|b| BudgetCheck::decide(&e, b));
        let verdict = match &budget {
            Some(b) if !b.passed() => Verdict::Fail,
            _ => Verdict::Pass,
        };
        TestReport {
            name: name.to_owned(),
            verdict,
            reasons: vec![format!("{} {}/iter", e.statistic.as_str(), fmt_ns(e.point))],
            estimate: Some(EstimateRecord::from(&e)),
            samples: samples.len(),
            iters_per_sample: 4096,
            warnings: Vec::new(),
            budget,
            summary: Some(summarize(&samples)),
            outliers: Some(tukey(&samples)),
            work: None,
            rate_per_s: None,
            panic: None,
            measurement: Some(Measurement {
                kind: SampleKind::Loop,
                samples_ns: samples.clone(),
                iters_per_sample: 4096,
                first_call_ns: 1234.0,
                loop_overhead_ns: 0.31,
                warmup_ns: 2.0e8,
                warmup_blocks: 40,
                warmup_settled: true,
                sampling_ns: 1.5e9,
                stop: StopReason::Precision,
                planned_samples: 100,
            }),
            diagnostics: Some(Diagnostics {
                verdict_estimate: e.clone(),
                candidates: Vec::new(),
                sd_ci: stats::sd_interval(&samples, 0.95),
                serial: stats::serial_correlation(&samples),
                modality: stats::modes(&samples),
                gating_error: stats::gating_error_bound(20.0, 1e6),
                noise: Some(stats::diagnose_noise(0.02, 0.012)),
            }),
            baseline: None,
            file: "tests/perf.rs".to_owned(),
            line: 12,
            duration_s: 1.7,
        }
    }

    fn unmeasured(name: &str, verdict: Verdict, panic: Option<&str>) -> TestReport {
        TestReport {
            name: name.to_owned(),
            verdict,
            reasons: panic
                .map(|p| vec![format!("panicked: {p}")])
                .unwrap_or_default(),
            estimate: None,
            samples: 0,
            iters_per_sample: 0,
            warnings: Vec::new(),
            budget: None,
            summary: None,
            outliers: None,
            work: None,
            rate_per_s: None,
            panic: panic.map(str::to_owned),
            measurement: None,
            diagnostics: None,
            baseline: None,
            file: "tests/perf.rs".to_owned(),
            line: 40,
            duration_s: 0.0,
        }
    }

    /// A seeded generator (64-bit LCG, top bits) for reproducible samples.
    struct Lcg(u64);

    impl Lcg {
        fn unit(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }

        /// Roughly normal: the sum of 12 uniforms, less 6.
        fn normal(&mut self) -> f64 {
            (0..12).map(|_| self.unit()).sum::<f64>() - 6.0
        }
    }

    /// No coordinate or label came out as `NaN` or `inf`.
    fn assert_finite(html: &str) {
        for bad in ["NaN", "\"inf", "-inf", " inf", "Minf"] {
            assert!(!html.contains(bad), "{bad} in the page");
        }
    }

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    /// The `d` attribute of the scatter's sample path.
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
    fn escapes_every_special_character() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("plain µs"), "plain µs");
    }

    #[test]
    fn user_text_is_escaped_everywhere() {
        let mut t = measured("mod::<script>alert(1)</script>", vec![1.0, 2.0, 3.0], None);
        t.reasons = vec!["a < b & c".to_owned()];
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
        let b = bins(&[7.0; 9]);
        assert_eq!(b.counts, vec![9]);
        assert_eq!(b.width, 0.0);
    }

    #[test]
    fn one_point_per_sample_and_the_expected_bars() {
        // 1..=100: ten bins of ten, no outliers.
        let samples: Vec<f64> = (1..=100).map(f64::from).collect();
        let b = bins(&samples);
        assert_eq!(b.counts, vec![10; 10]);
        assert_eq!((b.below, b.above), (0, 0));
        let html = render(&report(vec![measured("ramp", samples, None)]));
        assert_eq!(count(&html, "<rect class=\"bar\""), 10);
        assert_eq!(scatter_points(&html), 100);
        assert!(!html.contains("class=\"offscale\""));
        assert!(html.contains("Histogram of the 100 samples (10 bins)"));
    }

    #[test]
    fn long_series_are_thinned_but_keep_their_spikes() {
        let mut rng = Lcg(7);
        let mut samples: Vec<f64> = (0..20_000)
            .map(|_| 100_000.0 + 500.0 * rng.normal())
            .collect();
        samples[12_345] = 5_000_000.0;
        let fences = tukey(&samples).fences;
        let t = thin(&samples, (fences[1], fences[2]));
        assert_eq!(t.step, 20);
        assert_eq!(t.indices.len(), 1_000 + t.extra);
        assert!(t.extra >= 1 && t.extra < 1_000, "{}", t.extra);
        assert!(t.indices.contains(&12_345));
        assert!(t.indices.windows(2).all(|w| w[0] < w[1]));
        let html = render(&report(vec![measured(
            "long",
            samples.clone(),
            Some(120_000.0),
        )]));
        assert_eq!(scatter_points(&html), t.indices.len());
        assert!(html.contains(&format!(
            "thinned to {} points: every 20th sample, plus {} beyond",
            t.indices.len(),
            t.extra
        )));
        // The spike is left out of the histogram, and said to be.
        assert!(!html.contains("0 below"));
        assert!(html.contains("1 above (max 5.000 ms) beyond the severe Tukey fences, drawn at"));
        assert_eq!(count(&html, "<path class=\"offscale\""), 1);
        assert!(html.contains("1 above (max 5.000 ms)"));
        let b = bins(&samples);
        assert_eq!(b.counts.len(), MAX_HISTOGRAM_BINS);
        assert_eq!((b.below, b.above), (0, 1));
        let bars = b.counts.iter().filter(|&&c| c > 0).count();
        assert_eq!(count(&html, "<rect class=\"bar\""), bars);
        assert!(html.len() < 200_000, "{} bytes", html.len());
    }

    #[test]
    fn spikes_are_to_scale_when_the_scale_need_not_grow_much() {
        let mut samples: Vec<f64> = (0..105).map(|i| 100.0 + f64::from(i % 21)).collect();
        samples[50] = 150.0; // beyond the severe fence, 145
        assert_eq!(bins(&samples).above, 1);
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
    fn thinning_never_exceeds_the_cap() {
        // No spread in the bulk: every other sample is beyond the fences.
        let mut rng = Lcg(11);
        let samples: Vec<f64> = (0..20_001)
            .map(|i| {
                if i % 4 == 0 {
                    100.0 + rng.unit()
                } else {
                    100.0
                }
            })
            .collect();
        let t = thin(&samples, (100.0, 100.0));
        assert_eq!(t.step, 21);
        assert!(t.indices.len() <= MAX_SCATTER_POINTS, "{}", t.indices.len());
        assert!(t.extra > 900, "{}", t.extra);
        assert!(t.indices.windows(2).all(|w| w[0] < w[1]));
        let short = thin(&samples[..MAX_SCATTER_POINTS], (100.0, 100.0));
        assert_eq!(
            (short.indices.len(), short.step, short.extra),
            (MAX_SCATTER_POINTS, 1, 0)
        );
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
    fn tick_labels_differ_even_on_narrow_ranges() {
        let axis = Axis::new(812.40, 812.45, 5, AxisKind::Nanos);
        assert!(axis.ticks.len() >= 3);
        assert!(
            axis.labels.windows(2).all(|w| w[0] != w[1]),
            "{:?}",
            axis.labels
        );
        assert_eq!(axis.labels[0], "812.40 ns");
        let axis = Axis::new(0.0, 2.5e6, 5, AxisKind::Nanos);
        assert_eq!(
            axis.labels,
            ["0.0 ms", "0.5 ms", "1.0 ms", "1.5 ms", "2.0 ms", "2.5 ms"]
        );
        let axis = Axis::new(0.0, 3.0, 8, AxisKind::Count);
        assert_eq!(axis.labels, ["0", "1", "2", "3"]);
    }

    #[test]
    fn output_is_deterministic() {
        let make = || {
            let samples: Vec<f64> = (0..300).map(|i| 50.0 + f64::from(i % 13)).collect();
            report(vec![measured("a", samples, Some(60.0))])
        };
        assert_eq!(render(&make()), render(&make()));
    }

    /// A realistic page: a fast test with spikes, a slow drifting one with
    /// 20,000 samples and a budget it straddles, a failing one, a bimodal
    /// one, an ignored one and a panicked one. Set `PERFMARK_HTML_DEMO` to a
    /// path to write the page there and look at it.
    #[test]
    fn realistic_report() {
        let mut rng = Lcg(2024);
        let mut fast: Vec<f64> = (0..120).map(|_| 41.0 + 0.6 * rng.normal()).collect();
        for i in [17, 64, 98] {
            fast[i] = 58.0 + 3.0 * rng.unit();
        }
        let mut a = measured("checksum_64_bytes", fast, Some(50.0));
        a.warnings
            .push("3 outliers of 120 samples (3 high, 0 of them severe; 0 low)".into());
        a.work = Some(crate::bencher::Work::Bytes(64));
        a.rate_per_s = crate::report::rate_per_s(crate::bencher::Work::Bytes(64), 41.0);

        let mut level = 0.0;
        let slow: Vec<f64> = (0..20_000)
            .map(|i| {
                level = 0.5 * level + 150.0 * rng.normal();
                let spike = if i % 1500 == 700 { 5_000_000.0 } else { 0.0 };
                39_800.0 + level + f64::from(i) * 0.01 + spike
            })
            .collect();
        let mut b = measured("sorting::sort_1k", slow, Some(40_000.0));
        b.measurement.as_mut().unwrap().stop = StopReason::SampleCap;
        let c = measured(
            "sorting::sort_10k",
            (0..200)
                .map(|_| 520_000.0 + 9_000.0 * rng.normal())
                .collect(),
            Some(450_000.0),
        );
        let bimodal: Vec<f64> = (0..400)
            .map(|i| if i % 3 == 0 { 250.0 } else { 180.0 } + 4.0 * rng.normal())
            .collect();
        let mut d = measured("alloc::vec_push <1k>", bimodal, None);
        d.estimate.as_mut().unwrap().statistic = Statistic::Median;
        d.warnings
            .push("multimodal: 2 modes at 180 ns (67%) and 250 ns (33%)".into());
        let e = unmeasured("slow_io", Verdict::Ignored, None);
        let f = unmeasured(
            "parse::broken",
            Verdict::Fail,
            Some("called `Option::unwrap()` on a `None` value"),
        );
        let html = render(&report(vec![a, b, c, d, e, f]));

        assert_eq!(count(&html, "<section class=\"test\""), 6);
        assert_eq!(count(&html, "<svg"), 12);
        assert_finite(&html);
        assert!(html.contains("1.561 GB/s"));
        assert!(html.contains("<span class=\"verdict fail\">fail</span>"));
        if let Some(path) = std::env::var_os("PERFMARK_HTML_DEMO") {
            std::fs::write(path, &html).expect("demo page written");
        }
    }
}
