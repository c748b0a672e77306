//! The `--verbose` account under a test's line: every summary line (one
//! per check, the heap, every warning) and the full account of the
//! measurement (its facts, as the HTML page states them, among them what a
//! comparison could detect and the layout sensitivity).

use std::fmt::Write as _;

use super::PER_CALL_NOTE;
use crate::measure::SampleKind;
use crate::report::facts::{clock_line, test_facts};
use crate::report::fmt::plain_percent;
use crate::report::fmt::{fmt_bound, fmt_ns, fmt_rate};
use crate::report::words::allocations::fmt_allocations;
use crate::report::{TestReport, ThreadsRecord};
use crate::stats;

/// Bins of the `--verbose` text histogram.
pub(super) const TEXT_HISTOGRAM_BINS: usize = 12;
/// Width of the fullest bar of the `--verbose` text histogram, in characters.
const TEXT_HISTOGRAM_WIDTH: usize = 40;
/// Lags of the autocorrelation `--verbose` lists.
const VERBOSE_LAGS: usize = 10;

/// The summary lines of a test (unindented), as `--verbose` prints them:
/// the estimate with its CI and the rate, the summary statistics, the heap,
/// one reason per check, the warnings.
pub fn summary_lines(t: &TestReport) -> Vec<String> {
    let mut lines = Vec::new();
    if let (Some(e), Some(m)) = (&t.estimate, &t.measurement) {
        // `95%`, or `99.92%` for a level corrected for the run's family.
        let mut line = format!(
            "{} {}/iter [{}, {}] ({} CI, {} samples × {} iters)",
            e.statistic.as_str(),
            fmt_ns(e.ns_per_iter),
            fmt_bound(e.ci.low),
            fmt_bound(e.ci.high),
            plain_percent(e.ci.confidence),
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
        lines.extend(t.threads.as_ref().map(team_line));
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
    lines.extend(t.reasons.iter().map(|r| r.text.clone()));
    // What a comparison with a stored baseline could detect, and the
    // paired comparison's layout line, are facts ([`test_facts`]): the
    // full account below and the HTML page say them.
    lines.extend(t.warnings.iter().map(|w| format!("warning: {w}")));
    lines
}

/// A threaded test's team: `2 threads, each held on a CPU of its own (1,
/// 0) · each thread's own: 33.20 ns, 33.45 ns per iteration`.
fn team_line(team: &ThreadsRecord) -> String {
    let placed = if team.placement.apart && !team.placement.cpus.is_empty() {
        let cpus: Vec<String> = team.placement.cpus.iter().map(usize::to_string).collect();
        format!("each held on a CPU of its own ({})", cpus.join(", "))
    } else if team.placement.apart {
        "on one CPU".to_owned()
    } else {
        "not each on a CPU of its own".to_owned()
    };
    let threads = match team.count {
        1 => "1 thread".to_owned(),
        n => format!("{n} threads"),
    };
    if team.per_thread_ns.is_empty() {
        return format!("{threads}, {placed}");
    }
    let each: Vec<String> = team.per_thread_ns.iter().map(|&ns| fmt_ns(ns)).collect();
    format!(
        "{threads}, {placed} · each thread's own: {} per iteration",
        each.join(", ")
    )
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
        text_histogram(&m.samples_ns, TEXT_HISTOGRAM_BINS, TEXT_HISTOGRAM_WIDTH)
            .into_iter()
            .map(|l| format!("  {l}")),
    );
    lines
}

/// Renders `xs` as a histogram of `bins` equal-width bins from the smallest to
/// the largest sample, one line per bin:
/// `"[   812.40,    815.00) ##########  23"`, bars scaled so the fullest bin
/// has `width` characters (`#`, ASCII so CI logs keep it). The last bin is
/// closed. Values print with 2 decimals in the input's unit.
///
/// Returns no lines for an empty input; a single line when every sample is
/// equal or `bins` is 0 or 1.
fn text_histogram(xs: &[f64], bins: usize, width: usize) -> Vec<String> {
    if xs.is_empty() {
        return Vec::new();
    }
    let (min, max) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    let counts = stats::bin_counts(xs, min, max, bins);
    let bins = counts.len();
    let step = (max - min) / bins as f64;
    let fullest = counts.iter().copied().max().unwrap_or(1).max(1);
    let count_width = fullest.to_string().len();
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let lo = min + step * i as f64;
            let hi = if i + 1 == bins {
                max
            } else {
                min + step * (i + 1) as f64
            };
            let close = if i + 1 == bins { ']' } else { ')' };
            // round up so that a non-empty bin always shows at least one mark
            let bar = "#".repeat((c * width).div_ceil(fullest));
            format!("[{lo:>12.2}, {hi:>12.2}{close} {bar:<width$} {c:>count_width$}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::text_histogram;

    #[test]
    fn bins_counts_and_bars() {
        let xs = [1.0, 1.5, 2.0, 2.5, 2.6, 4.0];
        let lines = text_histogram(&xs, 3, 6);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "[        1.00,         2.00) ####   2");
        assert_eq!(lines[1], "[        2.00,         3.00) ###### 3");
        assert_eq!(lines[2], "[        3.00,         4.00] ##     1");
    }

    #[test]
    fn degenerate_inputs() {
        assert!(text_histogram(&[], 10, 20).is_empty());
        let flat = text_histogram(&[5.0, 5.0], 10, 4);
        assert_eq!(
            flat,
            vec!["[        5.00,         5.00] #### 2".to_string()]
        );
        assert_eq!(text_histogram(&[1.0, 2.0], 0, 4).len(), 1);
    }
}
