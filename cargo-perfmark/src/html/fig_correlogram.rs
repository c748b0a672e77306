//! The **correlogram**: the autocorrelation of the samples' ranks by lag,
//! against the band an independent series stays inside 95% of the time.

use std::fmt::Write as _;

use super::svg::{escape, padded, Axis, AxisKind, Frame};
use perfmark_core::report::Diagnostics;

/// The autocorrelation of the samples' ranks by lag, against the band an
/// independent series stays inside 95% of the time — Boyer's
/// `diagnoseSerialCorrelation` ("Robust Java benchmarking", 2008) drawn
/// as a correlogram.
pub(super) fn correlogram_figure(d: &Diagnostics) -> String {
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
    let verdict = match d.verdict_estimate() {
        Some(e) if s.flagged => format!(
            "serial correlation detected: the CI rests on {:.1} effective samples of {}",
            e.effective_n, e.n
        ),
        None if s.flagged => "serial correlation detected".to_owned(),
        _ => "no serial correlation detected".to_owned(),
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
