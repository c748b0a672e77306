//! The **correlogram**: the autocorrelation of the samples' ranks by lag,
//! against the band an independent series stays inside 95% of the time.

use std::fmt::Write as _;

use super::svg::{figure, padded, rect, Axis, AxisKind, Frame};
use perfmark_core::report::Diagnostics;

/// The autocorrelation of the samples' ranks by lag, against the band an
/// independent series stays inside 95% of the time — Boyer's
/// `diagnoseSerialCorrelation` ("Robust Java benchmarking", 2008) drawn
/// as a correlogram.
pub(super) fn correlogram_figure(d: &Diagnostics) -> String {
    let s = &d.serial;
    let finite = s.lags.iter().copied().filter(|r| r.is_finite());
    let (r_lo, r_hi) = finite.fold((-1.5 * s.band, 1.5 * s.band), |(lo, hi), r| {
        (lo.min(r), hi.max(r))
    });
    let (lo, hi) = padded(r_lo.min(0.0), r_hi.max(0.0));
    let frame = Frame {
        x: Axis::new(0.5, s.lags.len() as f64 + 0.5, 10, AxisKind::Count),
        y: Axis::new(lo, hi, 4, AxisKind::Plain),
    };
    let caption = correlogram_caption(d);
    let mut svg = frame.open_svg(&caption, "lag (samples)", "autocorrelation");
    let (band_top, band_bottom) = (frame.px_y(s.band), frame.px_y(-s.band));
    let tip = format!("±{:.3}: 95% of an independent series' lags", s.band);
    svg.push_str(&rect(
        "band",
        Frame::left(),
        band_top,
        Frame::right() - Frame::left(),
        (band_bottom - band_top).max(1.0),
        &tip,
    ));
    draw_lags(&mut svg, &frame, &s.lags, s.band);
    let _ = writeln!(
        svg,
        "<line class=\"axis\" x1=\"{:.1}\" y1=\"{zero:.1}\" x2=\"{:.1}\" y2=\"{zero:.1}\"/>\n</svg>",
        Frame::left(),
        Frame::right(),
        zero = frame.px_y(0.0)
    );
    let legend = format!(
        "<p class=\"legend\"><span class=\"key lag\"></span>autocorrelation at each lag\
         <span class=\"key lag out\"></span>outside the band\
         <span class=\"key band\"></span>±{:.3} band of an independent series</p>\n",
        s.band
    );
    figure("correlogram", &caption, &svg, &legend)
}

/// The correlogram's caption: how many lags lie outside the band against
/// how many would by chance, and the verdict on serial correlation.
fn correlogram_caption(d: &Diagnostics) -> String {
    let s = &d.serial;
    let verdict = match d.verdict_estimate() {
        Some(e) if s.flagged => format!(
            "serial correlation detected: the CI rests on {:.1} effective samples of {}",
            e.effective_n, e.n
        ),
        None if s.flagged => "serial correlation detected".to_owned(),
        _ => "no serial correlation detected".to_owned(),
    };
    format!(
        "Autocorrelation of the samples' ranks by lag ({} of {} lags outside the ±1.96/√n band, \
         {:.1} expected by chance): {verdict}",
        s.outside,
        s.lags.len(),
        s.expected_outside
    )
}

/// A bar from zero per finite autocorrelation of `lags` (lag 1 first), in
/// its own colour when outside `±band`.
fn draw_lags(svg: &mut String, frame: &Frame, lags: &[f64], band: f64) {
    let zero = frame.px_y(0.0);
    let slot = (frame.px_x(2.0) - frame.px_x(1.0)) * 0.6;
    for (i, &r) in lags.iter().enumerate() {
        if !r.is_finite() {
            continue;
        }
        let x = frame.px_x((i + 1) as f64) - slot / 2.0;
        let y = frame.px_y(r);
        let class = if r.abs() > band { "lag out" } else { "lag" };
        let tip = format!("lag {}: {r:.3}", i + 1);
        svg.push_str(&rect(
            class,
            x,
            y.min(zero),
            slot,
            (y - zero).abs().max(0.5),
            &tip,
        ));
    }
}
