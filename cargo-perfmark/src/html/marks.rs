//! What the time plots mark besides the samples: the point estimate, its
//! confidence interval (shaded), the budget, the mild Tukey fences (the
//! box-plot rule Boyer's "Robust Java benchmarking" uses to flag outliers) and
//! the modes; and how far from the data a mark may lie before it is drawn at
//! the edge.

use std::fmt::Write as _;

use perfmark_core::report::fmt::{fmt_bound, fmt_ns, plain_percent};
use perfmark_core::report::{plot, TestReport};

use super::svg::{padded, Frame, Orientation};

/// The horizontal (scatter) or vertical (histogram) lines a plot marks.
#[derive(Debug, Clone)]
pub(super) struct Marks {
    /// The point estimate, when finite.
    pub(super) estimate: Option<f64>,
    /// The CI's bounds (either may be infinite) and its confidence.
    pub(super) ci: Option<(f64, f64, f64)>,
    /// The verdict statistic's name.
    pub(super) statistic: &'static str,
    /// The budget, when one was enforced.
    pub(super) budget: Option<f64>,
    /// The mild Tukey fences of the plotted samples (low, high).
    pub(super) mild_fences: (f64, f64),
    /// The modes' centres, when there is more than one.
    pub(super) modes: Vec<f64>,
}

impl Marks {
    pub(super) fn of(t: &TestReport, samples: &[f64]) -> Marks {
        let fences = plot::tukey(samples).fences;
        Marks {
            estimate: t
                .estimate
                .as_ref()
                .map(|e| e.ns_per_iter)
                .filter(|x| x.is_finite()),
            ci: t
                .estimate
                .as_ref()
                .filter(|e| !e.ci.low.is_nan() && !e.ci.high.is_nan())
                .map(|e| (e.ci.low, e.ci.high, e.ci.confidence)),
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
    pub(super) fn value_range(&self, data_lo: f64, data_hi: f64) -> (f64, f64) {
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
    pub(super) fn legend(&self, first: &str) -> String {
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
                "<span class=\"key ci\"></span>{} CI [{}, {}]",
                plain_percent(c),
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

/// The CI as a shaded band, clamped to the plot when a bound is off scale
/// or infinite.
pub(super) fn draw_ci(svg: &mut String, frame: &Frame, marks: &Marks, o: Orientation) {
    let Some((low, high, confidence)) = marks.ci else {
        return;
    };
    let tip = format!(
        "{} CI [{}, {}]",
        plain_percent(confidence),
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
pub(super) fn draw_budget(svg: &mut String, frame: &Frame, marks: &Marks, o: Orientation) {
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

/// `"2 below (min 1.000 µs) and 13 above (max 5.040 ms)"`, naming only the
/// sides that have samples.
pub(super) fn beyond_words(below: usize, min: f64, above: usize, max: f64) -> String {
    let mut sides = Vec::new();
    if below > 0 {
        sides.push(format!("{below} below (min {})", fmt_ns(min)));
    }
    if above > 0 {
        sides.push(format!("{above} above (max {})", fmt_ns(max)));
    }
    sides.join(" and ")
}
