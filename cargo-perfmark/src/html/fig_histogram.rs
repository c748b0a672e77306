//! A **histogram** of the samples, where several modes show as several humps
//! (Newcomer's histogram "looking for modalities of distribution", in
//! "Profiling for performance", 1993). The bins come from
//! [`plot::histogram()`]: the spikes beyond the severe Tukey fences are left
//! out, and the caption says so.

use std::fmt::Write as _;

use super::marks::{beyond_words, draw_budget, draw_ci, Marks};
use super::svg::{escape, Axis, AxisKind, Frame, Orientation};
use perfmark_core::report::fmt::fmt_ns;
use perfmark_core::report::plot;

/// Most bars a histogram has (the square-root rule below this cap).
pub const MAX_HISTOGRAM_BINS: usize = 50;

/// The histogram of the samples with the estimate, the CI and the budget.
pub(super) fn histogram_figure(samples: &[f64], marks: &Marks) -> String {
    let h = plot::histogram(samples, MAX_HISTOGRAM_BINS);
    let bulk = h.bulk;
    let hi_edge = bulk.lo + h.width * h.counts.len() as f64;
    let (lo, hi) = marks.value_range(bulk.lo, hi_edge);
    let fullest = h.counts.iter().copied().max().unwrap_or(0).max(1);
    let frame = Frame {
        x: Axis::new(lo, hi, 7, AxisKind::Nanos),
        y: Axis::new(0.0, fullest as f64 * 1.08, 4, AxisKind::Count),
    };
    let mut caption = format!(
        "Histogram of the {} samples ({} bins)",
        samples.len(),
        h.counts.len()
    );
    if bulk.below + bulk.above > 0 {
        let _ = write!(
            caption,
            "; left out: {} beyond the severe Tukey fences",
            beyond_words(bulk.below, bulk.min, bulk.above, bulk.max)
        );
    }
    let mut svg = frame.open_svg(&caption, "time per iteration", "samples");
    draw_ci(&mut svg, &frame, marks, Orientation::Vertical);
    // A zero-width bin (all samples equal) is drawn 1/40 of the plot wide.
    let (bar_lo, bar_width) = if h.width > 0.0 {
        (bulk.lo, h.width)
    } else {
        let w = (hi - lo) / 40.0;
        (bulk.lo - w / 2.0, w)
    };
    for (i, &count) in h.counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let (from, to) = (
            bar_lo + bar_width * i as f64,
            bar_lo + bar_width * (i + 1) as f64,
        );
        let (x0, x1) = (frame.px_x(from), frame.px_x(to));
        let y = frame.px_y(count as f64);
        let close = if i + 1 == h.counts.len() { ']' } else { ')' };
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
