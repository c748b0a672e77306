//! The samples **in the order taken**, as a plain scatter with no smoothing
//! (Sestoft, "Microbenchmarks in Java and C#", 2016: "always use scatter (x-y)
//! plots, no smoothing"), so drifts, warm-up left-overs and periodic interrupt
//! spikes show as a pattern in time — Newcomer ("Profiling for performance",
//! 1993) found his 5 ms and 11 ms peaks recurring every time-slice quantum by
//! laying samples out as a time line.

use std::fmt::Write as _;

use super::marks::{beyond_words, draw_budget, draw_ci, Marks};
use super::svg::{escape, Axis, AxisKind, Frame, Orientation};
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
    let n = samples.len();
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
