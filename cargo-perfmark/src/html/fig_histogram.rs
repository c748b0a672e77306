//! A **histogram** of the samples, where several modes show as several humps
//! (Newcomer's histogram "looking for modalities of distribution", in
//! "Profiling for performance", 1993). The bins come from
//! [`plot::histogram()`]: the spikes beyond the severe Tukey fences are left
//! out, and the caption says so.

use std::fmt::Write as _;

use super::marks::{beyond_words, draw_budget, draw_ci, Marks};
use super::svg::{figure, rect, Axis, AxisKind, Frame, Orientation};
use perfmark_core::report::fmt::fmt_ns;
use perfmark_core::report::plot::{self, Histogram};

/// Most bars a histogram has (the square-root rule below this cap).
pub const MAX_HISTOGRAM_BINS: usize = 50;

/// The histogram of the samples with the estimate, the CI and the budget.
pub(super) fn histogram_figure(samples: &[f64], marks: &Marks) -> String {
    let h = plot::histogram(samples, MAX_HISTOGRAM_BINS);
    let hi_edge = h.bulk.lo + h.width * h.counts.len() as f64;
    let (lo, hi) = marks.value_range(h.bulk.lo, hi_edge);
    let fullest = h.counts.iter().copied().max().unwrap_or(0).max(1);
    let frame = Frame {
        x: Axis::new(lo, hi, 7, AxisKind::Nanos),
        y: Axis::new(0.0, fullest as f64 * 1.08, 4, AxisKind::Count),
    };
    let caption = histogram_caption(samples.len(), &h);
    let mut svg = frame.open_svg(&caption, "time per iteration", "samples");
    draw_ci(&mut svg, &frame, marks, Orientation::Vertical);
    draw_bars(&mut svg, &frame, &h);
    if let Some(e) = marks.estimate {
        let tip = format!("{} {}", marks.statistic, fmt_ns(e));
        svg.push_str(&frame.vline("estimate", e, &tip));
    }
    draw_budget(&mut svg, &frame, marks, Orientation::Vertical);
    draw_modes(&mut svg, &frame, &marks.modes);
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
    figure("histogram", &caption, &svg, &legend)
}

/// The histogram's caption: how many samples and bins, and the samples
/// beyond the severe Tukey fences that the bins leave out.
fn histogram_caption(n: usize, h: &Histogram) -> String {
    let bulk = &h.bulk;
    let mut caption = format!("Histogram of the {n} samples ({} bins)", h.counts.len());
    if bulk.below + bulk.above > 0 {
        let _ = write!(
            caption,
            "; left out: {} beyond the severe Tukey fences",
            beyond_words(bulk.below, bulk.min, bulk.above, bulk.max)
        );
    }
    caption
}

/// A bar per non-empty bin of `h`, titled with its interval and its count.
fn draw_bars(svg: &mut String, frame: &Frame, h: &Histogram) {
    // A zero-width bin (all samples equal) is drawn 1/40 of the plot wide.
    let (bar_lo, bar_width) = if h.width > 0.0 {
        (h.bulk.lo, h.width)
    } else {
        let w = (frame.x.hi - frame.x.lo) / 40.0;
        (h.bulk.lo - w / 2.0, w)
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
        let tip = format!("[{}, {}{close}: {count}", fmt_ns(from), fmt_ns(to));
        svg.push_str(&rect(
            "bar",
            x0,
            y,
            (x1 - x0).max(1.0),
            Frame::bottom() - y,
            &tip,
        ));
    }
}

/// A marker at the top of the plot over each finite mode centre.
fn draw_modes(svg: &mut String, frame: &Frame, modes: &[f64]) {
    for &centre in modes.iter().filter(|c| c.is_finite()) {
        let x = frame.px_x(centre);
        let y = Frame::top();
        let _ = writeln!(
            svg,
            "<path class=\"mode\" d=\"M{:.1} {y:.1}h10l-5 8z\"><title>mode at {}</title></path>",
            x - 5.0,
            fmt_ns(centre)
        );
    }
}
