//! The samples **in the order taken**, as a plain scatter with no smoothing
//! (Sestoft, "Microbenchmarks in Java and C#", 2016: "always use scatter (x-y)
//! plots, no smoothing"), so drifts, warm-up left-overs and periodic interrupt
//! spikes show as a pattern in time — Newcomer ("Profiling for performance",
//! 1993) found his 5 ms and 11 ms peaks recurring every time-slice quantum by
//! laying samples out as a time line.

use std::fmt::Write as _;

use super::marks::{beyond_words, draw_budget, draw_ci, Marks};
use super::svg::{figure, Axis, AxisKind, Frame, Orientation};
use perfmark_core::report::fmt::fmt_ns;
use perfmark_core::report::plot;

/// Most points the time-series scatter draws. Longer series are cut into
/// runs of consecutive samples and each run is drawn by its minimum and its
/// maximum, so the plot stays small while every spike stays visible (taking
/// every k-th sample would drop most spikes).
pub const MAX_SCATTER_POINTS: usize = 2_000;

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
pub(super) fn scatter_figure(samples: &[f64], marks: &Marks) -> String {
    let scale = Scale::of(samples, marks);
    let last_index = (samples.len() - 1).max(1) as f64;
    let frame = Frame {
        x: Axis::new(0.0, last_index, 8, AxisKind::Count),
        y: Axis::new(scale.lo, scale.hi, 5, AxisKind::Nanos),
    };
    let thinning = thin(samples, marks.mild_fences);
    let off = scale.off_scale(samples);
    let caption = scatter_caption(samples.len(), &thinning, &off);
    let mut svg = frame.open_svg(&caption, "sample index (order taken)", "time per iteration");
    draw_ci(&mut svg, &frame, marks, Orientation::Horizontal);
    draw_fences(&mut svg, &frame, marks, &scale);
    draw_points(&mut svg, &frame, samples, &thinning.indices, &scale);
    if let Some(e) = marks.estimate {
        let tip = format!("{} {}", marks.statistic, fmt_ns(e));
        svg.push_str(&frame.hline("estimate", e, &tip));
    }
    draw_budget(&mut svg, &frame, marks, Orientation::Horizontal);
    svg.push_str("</svg>\n");
    let legend = scatter_legend(marks, &off, &scale);
    figure("scatter", &caption, &svg, &legend)
}

/// The scatter's value scale, and the samples it was fitted to.
struct Scale {
    /// The y axis's range.
    lo: f64,
    hi: f64,
    /// The range of the samples the scale takes in: the bulk within the
    /// severe Tukey fences, or every sample when they all fit.
    data_lo: f64,
    data_hi: f64,
    /// The smallest and the largest sample.
    min: f64,
    max: f64,
}

/// The samples beyond the scale, which the scatter draws at its edge.
struct OffScale {
    /// How many lie below the scale, and the smallest sample.
    below: usize,
    min: f64,
    /// How many lie above the scale, and the largest sample.
    above: usize,
    max: f64,
}

impl Scale {
    /// The scale of `samples`: the bulk's range, widened for the marks near
    /// it ([`Marks::value_range`]); every sample's range instead when the
    /// samples beyond the fences fit on a scale at most twice as tall.
    fn of(samples: &[f64], marks: &Marks) -> Scale {
        let bulk = plot::bulk(samples);
        let (min, max) = (bulk.min, bulk.max);
        let (mut data_lo, mut data_hi) = (bulk.lo, bulk.hi);
        let (mut lo, mut hi) = marks.value_range(data_lo, data_hi);
        if max - min <= 2.0 * (hi - lo) {
            // The samples beyond the fences fit on a scale at most twice as
            // tall: show them where they are rather than at the edge.
            (data_lo, data_hi) = (min, max);
            (lo, hi) = marks.value_range(min, max);
        }
        Scale {
            lo,
            hi,
            data_lo,
            data_hi,
            min,
            max,
        }
    }

    /// Whether `v` lies on the scale, edges included.
    fn contains(&self, v: f64) -> bool {
        (self.lo..=self.hi).contains(&v)
    }

    /// The `samples` below and above the scale.
    fn off_scale(&self, samples: &[f64]) -> OffScale {
        OffScale {
            below: samples.iter().filter(|&&x| x < self.lo).count(),
            min: self.min,
            above: samples.iter().filter(|&&x| x > self.hi).count(),
            max: self.max,
        }
    }
}

impl OffScale {
    /// Whether any sample lies off the scale.
    fn any(&self) -> bool {
        self.below + self.above > 0
    }
}

/// The scatter's caption: how many samples, how they were thinned, and
/// how many are drawn at the edge of the scale.
fn scatter_caption(n: usize, thinning: &Thinning, off: &OffScale) -> String {
    let mut caption = if thinning.step == 1 {
        format!("Samples in the order taken ({n}, time per iteration of each)")
    } else {
        format!(
            "Samples in the order taken ({n}; thinned to {} points: every {}th sample, plus {} \
             beyond the mild Tukey fences)",
            thinning.indices.len(),
            thinning.step,
            thinning.extra
        )
    };
    if off.any() {
        let _ = write!(
            caption,
            "; {} beyond the severe Tukey fences",
            beyond_words(off.below, off.min, off.above, off.max)
        );
        caption.push_str(", drawn at the edge");
    }
    caption
}

/// The mild Tukey fences as horizontal lines, each only where it falls
/// among the data: they never stretch the scale.
fn draw_fences(svg: &mut String, frame: &Frame, marks: &Marks, scale: &Scale) {
    let (fence_lo, fence_hi) = marks.mild_fences;
    for (v, side) in [(fence_lo, "low"), (fence_hi, "high")] {
        if v.is_finite() && v > scale.lo && v < scale.hi && scale.data_hi > scale.data_lo {
            let tip = format!("{side} mild Tukey fence {}", fmt_ns(v));
            svg.push_str(&frame.hline("fence", v, &tip));
        }
    }
}

/// The samples at `indices` as points: those on the scale in one path,
/// those off it in another of their own colour.
fn draw_points(svg: &mut String, frame: &Frame, samples: &[f64], indices: &[usize], scale: &Scale) {
    // Samples off the scale are clamped to its edge by `px_y` and drawn in
    // their own colour, so they stay visible and are not mistaken for data
    // at the edge.
    for (class, on_scale) in [("samples", true), ("offscale", false)] {
        let mut points = indices
            .iter()
            .filter(|&&i| scale.contains(samples[i]) == on_scale)
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
}

/// The legend under the scatter: the samples, those off the scale when
/// there are any, the fences when drawn, and the marks.
fn scatter_legend(marks: &Marks, off: &OffScale, scale: &Scale) -> String {
    let mut legend = marks.legend("<span class=\"key samples\"></span>sample");
    if off.any() {
        legend.push_str("<span class=\"key offscale\"></span>sample off the scale");
    }
    if marks.mild_fences.0.is_finite() && scale.data_hi > scale.data_lo {
        legend.push_str("<span class=\"key fence\"></span>Tukey fences q1 − 1.5·IQR, q3 + 1.5·IQR");
    }
    legend.push_str("</p>\n");
    legend
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfmark_core::report::fixtures::{self, Lcg};

    #[test]
    fn long_series_are_thinned_but_keep_their_spikes() {
        let samples = fixtures::long_spiky_series();
        let fences = plot::tukey(&samples).fences;
        let t = thin(&samples, (fences[1], fences[2]));
        assert_eq!(t.step, 20);
        assert_eq!(t.indices.len(), 1_000 + t.extra);
        assert!(t.extra >= 1 && t.extra < 1_000, "{}", t.extra);
        assert!(t.indices.contains(&12_345));
        assert!(t.indices.windows(2).all(|w| w[0] < w[1]));
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
}
