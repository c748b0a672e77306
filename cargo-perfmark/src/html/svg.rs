//! Plot geometry in SVG: the plot area and its margins, axes with round
//! ticks and labels that always differ, and the lines a plot marks. No
//! data reduction happens here: the figures bring their values.

use std::fmt::Write as _;

/// Width of a plot, in SVG user units (the page scales it to fit).
pub(super) const PLOT_WIDTH: f64 = 760.0;
/// Height of a plot, in SVG user units.
pub(super) const PLOT_HEIGHT: f64 = 250.0;
/// Room left of the plot area for the value labels.
const MARGIN_LEFT: f64 = 74.0;
/// Room right of the plot area.
const MARGIN_RIGHT: f64 = 14.0;
/// Room above the plot area.
const MARGIN_TOP: f64 = 18.0;
/// Room below the plot area for the tick labels and the axis title.
const MARGIN_BOTTOM: f64 = 40.0;

/// Escapes `text` for HTML and SVG element content and quoted attribute
/// values.
pub(super) fn escape(text: &str) -> String {
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

/// `[lo, hi]` with 5% room on each side; a zero-width range becomes ±5%
/// of its value (±0.5 when the value is 0), so nothing divides by zero.
pub(super) fn padded(lo: f64, hi: f64) -> (f64, f64) {
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
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) ticks: Vec<f64>,
    pub(super) labels: Vec<String>,
}

/// What an axis measures, which decides its tick labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AxisKind {
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
    pub(super) fn new(lo: f64, hi: f64, target: usize, kind: AxisKind) -> Axis {
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

/// Tick labels for times, all in one unit chosen as [`fmt_ns`](perfmark_core::report::fmt_ns) would choose
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
pub(super) struct Frame {
    pub(super) x: Axis,
    pub(super) y: Axis,
}

impl Frame {
    pub(super) fn left() -> f64 {
        MARGIN_LEFT
    }
    pub(super) fn right() -> f64 {
        PLOT_WIDTH - MARGIN_RIGHT
    }
    pub(super) fn top() -> f64 {
        MARGIN_TOP
    }
    pub(super) fn bottom() -> f64 {
        PLOT_HEIGHT - MARGIN_BOTTOM
    }

    /// The horizontal position of value `v`, clamped to the plot area.
    pub(super) fn px_x(&self, v: f64) -> f64 {
        let f = ((v - self.x.lo) / (self.x.hi - self.x.lo)).clamp(0.0, 1.0);
        Self::left() + f * (Self::right() - Self::left())
    }

    /// The vertical position of value `v` (up is larger), clamped to the
    /// plot area.
    pub(super) fn px_y(&self, v: f64) -> f64 {
        let f = ((v - self.y.lo) / (self.y.hi - self.y.lo)).clamp(0.0, 1.0);
        Self::bottom() - f * (Self::bottom() - Self::top())
    }

    /// Opens the `<svg>` and draws the grid, the axes, the tick labels and
    /// the axis titles. The caller draws the data and closes it.
    pub(super) fn open_svg(&self, title: &str, x_title: &str, y_title: &str) -> String {
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
    pub(super) fn hline(&self, class: &str, v: f64, tooltip: &str) -> String {
        let y = self.px_y(v);
        format!(
            "<line class=\"{class}\" x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\">\
             <title>{tooltip}</title></line>\n",
            Self::left(),
            Self::right()
        )
    }

    /// A vertical mark across the plot at value `v` of the x axis.
    pub(super) fn vline(&self, class: &str, v: f64, tooltip: &str) -> String {
        let x = self.px_x(v);
        format!(
            "<line class=\"{class}\" x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\">\
             <title>{tooltip}</title></line>\n",
            Self::top(),
            Self::bottom()
        )
    }
}

/// A `<rect>` of `class` with its top left corner at (`x`, `y`), `width`
/// by `height` SVG units, titled `tooltip`, on a line of its own.
pub(super) fn rect(class: &str, x: f64, y: f64, width: f64, height: f64, tooltip: &str) -> String {
    format!(
        "<rect class=\"{class}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{width:.1}\" \
         height=\"{height:.1}\"><title>{tooltip}</title></rect>\n"
    )
}

/// A plot's `<figure>` of `class`: `caption` (escaped here), then the
/// plot's `svg` and its HTML `legend`, both as drawn.
pub(super) fn figure(class: &str, caption: &str, svg: &str, legend: &str) -> String {
    format!(
        "<figure class=\"{class}\">\n<figcaption>{}</figcaption>\n{svg}{legend}</figure>\n",
        escape(caption)
    )
}

/// Which way the value axis of a plot runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Orientation {
    /// Values on the y axis (the scatter): marks are horizontal lines.
    Horizontal,
    /// Values on the x axis (the histogram): marks are vertical lines.
    Vertical,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_special_character() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("plain µs"), "plain µs");
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
    fn zero_width_ranges_are_padded() {
        assert_eq!(padded(0.0, 10.0), (-0.5, 10.5));
        assert_eq!(padded(0.0, 0.0), (-0.5, 0.5));
        assert_eq!(padded(100.0, 100.0), (95.0, 105.0));
    }
}
