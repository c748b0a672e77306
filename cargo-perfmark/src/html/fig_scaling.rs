//! **Scaling with threads**: how a threaded function's time per iteration
//! per thread grew with its thread counts (`threads = [1, 2, 4]`), one
//! figure per function of the report's scaling lines.
//!
//! The thread counts are evenly spaced categories (1, 2, 4, 8… read as a
//! log₂ axis; any other counts keep their order), the time axis runs from
//! 0, and a dashed line at the first point's time is what no contention
//! looks like: threads that share nothing stay on it, threads that
//! contend on a lock climb away from it. Each point is labelled with its
//! ratio to the first and links to its test's section.

use std::fmt::Write as _;

use perfmark_core::report::fmt::fmt_ns;
use perfmark_core::report::{ScalingLine, ScalingPoint};

use super::svg::{escape, figure, Axis, AxisKind, Frame};

/// Headroom above the highest point for its ratio label, as a share of
/// that point's time.
const HEADROOM: f64 = 0.2;

/// The figure of `line`, under a heading of its function. `href` gives
/// the section a point's test links to (by the test's name), `None` when
/// the page has no section for it.
pub(super) fn scaling_figure(line: &ScalingLine, href: impl Fn(&str) -> Option<String>) -> String {
    let frame = frame_of(&line.points);
    let caption = format!(
        "Time per iteration per thread by thread count ({}): flat where the threads share \
         nothing, rising where they contend",
        counts(&line.points)
    );
    let title = format!("{}: {caption}", line.function);
    let mut svg = frame.open_svg(&title, "threads", "time per iteration per thread");
    if let Some(first) = line.points.first() {
        draw_reference(&mut svg, &frame, first.ns_per_iter);
    }
    draw_line(&mut svg, &frame, &line.points);
    for (i, p) in line.points.iter().enumerate() {
        draw_point(&mut svg, &frame, i, p, href(&p.test).as_deref());
    }
    svg.push_str("</svg>\n");
    let legend = "<p class=\"legend\"><span class=\"key thread-point\"></span>a test, with its \
                  ratio to the fewest threads' time (links to the test)\
                  <span class=\"key reference\"></span>no contention: the fewest threads' time\
                  </p>\n";
    let heading = format!("<h3><code>{}</code></h3>\n", escape(&line.function));
    heading + &figure("scaling", &caption, &svg, legend)
}

/// The plot area of `points`: one category per point, and a time axis
/// from 0 to above the highest point, with room for its label.
fn frame_of(points: &[ScalingPoint]) -> Frame {
    let highest = points
        .iter()
        .map(|p| p.ns_per_iter)
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let top = if highest > 0.0 {
        highest * (1.0 + HEADROOM)
    } else {
        1.0
    };
    Frame {
        x: Axis {
            lo: -0.5,
            hi: points.len() as f64 - 0.5,
            ticks: (0..points.len()).map(|i| i as f64).collect(),
            labels: points.iter().map(|p| p.threads.to_string()).collect(),
        },
        y: Axis::new(0.0, top, 5, AxisKind::Nanos),
    }
}

/// The thread counts of `points`, as `1, 2, 4`.
fn counts(points: &[ScalingPoint]) -> String {
    let counts: Vec<String> = points.iter().map(|p| p.threads.to_string()).collect();
    counts.join(", ")
}

/// The dashed line of no contention at `ns`, the first point's time,
/// labelled at its right end: below the line (where points that stay flat
/// leave room), or above it when it runs along the time axis. Nothing for
/// a time that is not a number.
fn draw_reference(svg: &mut String, frame: &Frame, ns: f64) {
    if !ns.is_finite() {
        return;
    }
    let tip = format!("no contention: flat at {}", fmt_ns(ns));
    svg.push_str(&frame.hline("reference", ns, &tip));
    let y = frame.px_y(ns);
    let label_y = if y + 14.0 < Frame::bottom() - 2.0 {
        y + 14.0
    } else {
        y - 6.0
    };
    let _ = writeln!(
        svg,
        "<text class=\"reference\" x=\"{:.1}\" y=\"{label_y:.1}\" text-anchor=\"end\">\
         no contention: flat</text>",
        Frame::right() - 4.0
    );
}

/// The path through the finite points, in order.
fn draw_line(svg: &mut String, frame: &Frame, points: &[ScalingPoint]) {
    let mut d = String::new();
    for (i, p) in points.iter().enumerate() {
        if p.ns_per_iter.is_finite() {
            let command = if d.is_empty() { 'M' } else { 'L' };
            let _ = write!(
                d,
                "{command}{:.1} {:.1}",
                frame.px_x(i as f64),
                frame.px_y(p.ns_per_iter)
            );
        }
    }
    if !d.is_empty() {
        let _ = writeln!(svg, "<path class=\"scaling\" d=\"{d}\"/>");
    }
}

/// Point `p`, the `i`-th category, labelled with its ratio above it and
/// titled with its test, its time and its ratio; a link to `href` when
/// given. Nothing for a time that is not a number.
fn draw_point(svg: &mut String, frame: &Frame, i: usize, p: &ScalingPoint, href: Option<&str>) {
    if !p.ns_per_iter.is_finite() {
        return;
    }
    let (x, y) = (frame.px_x(i as f64), frame.px_y(p.ns_per_iter));
    let ratio = ratio_text(p.ratio);
    let threads = match p.threads {
        1 => "1 thread".to_owned(),
        n => format!("{n} threads"),
    };
    if let Some(href) = href {
        let _ = write!(svg, "<a href=\"#{}\">", escape(href));
    }
    let _ = writeln!(
        svg,
        "<g class=\"thread-point\"><title>{}: {threads}, {} per iteration per thread ({ratio})\
         </title><circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4.5\"/>\
         <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{ratio}</text></g>",
        escape(&p.test),
        fmt_ns(p.ns_per_iter),
        y - 10.0
    );
    if href.is_some() {
        svg.push_str("</a>\n");
    }
}

/// A ratio as `2.25×`, or `n/a` when it is not a number (a first point
/// of 0 ns).
fn ratio_text(ratio: f64) -> String {
    if ratio.is_finite() {
        format!("{ratio:.2}×")
    } else {
        "n/a".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_times_and_never_not_a_number() {
        assert_eq!(ratio_text(2.25), "2.25×");
        assert_eq!(ratio_text(1.0), "1.00×");
        assert_eq!(ratio_text(f64::NAN), "n/a");
        assert_eq!(ratio_text(f64::INFINITY), "n/a");
    }

    #[test]
    fn the_time_axis_runs_from_zero_with_a_category_per_count() {
        let point = |threads, ns_per_iter| ScalingPoint {
            test: format!("f::t{threads}"),
            threads,
            ns_per_iter,
            ratio: 1.0,
        };
        let frame = frame_of(&[point(1, 20.0), point(2, 45.0), point(4, 100.0)]);
        assert_eq!(frame.x.labels, ["1", "2", "4"]);
        assert_eq!(frame.y.lo, 0.0);
        assert_eq!(frame.y.hi, 120.0);
        assert_eq!(frame.y.labels.first().map(String::as_str), Some("0 ns"));
        // All zero: an axis all the same.
        let frame = frame_of(&[point(1, 0.0), point(2, 0.0)]);
        assert_eq!((frame.y.lo, frame.y.hi), (0.0, 1.0));
    }
}
