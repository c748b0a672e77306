//! The **overview**: every test of the run on one picture at the top of
//! the page, so that what failed, what is close and what is noise show at
//! a glance.
//!
//! Two panels, each one axis for all its tests, a row per test:
//!
//! - **budgets**: the CI of the time per iteration as a share of the
//!   test's budget (the budget is the line at 100%);
//! - **changes**: the change against the base build or the stored baseline,
//!   with its CI, over the tolerance band (shaded).
//!
//! A row's colour is its decision: failed (red), undecided or close
//! (amber), passed (green), improved (blue). Rows are ordered failed first,
//! then undecided, then by how close they came to failing; an interval that
//! runs off the axis ends in an arrow at the edge.

use std::fmt::Write as _;

use perfmark_core::report::fmt::{fmt_percent, plain_percent};
use perfmark_core::report::{Outcome, TestReport, Verdict};

use super::svg::escape;

/// Width of the picture, SVG units.
const WIDTH: f64 = 760.0;
/// Room for the tests' names.
const LABEL: f64 = 250.0;
/// Room right of the axis.
const RIGHT: f64 = 20.0;
/// One test's row.
const ROW: f64 = 18.0;
/// Above the rows (the panel's title) and below (the axis labels).
const TOP: f64 = 22.0;
const BOTTOM: f64 = 30.0;
/// A name longer than this is cut, with `…`.
const NAME_CHARS: usize = 38;

/// A row's colour class, from its decision's [`Outcome`]: failed,
/// undecided (close), improved (better), or passed (everything else:
/// within the budget or the tolerance).
fn class(status: Outcome) -> &'static str {
    if status.fails() {
        "fail"
    } else if status.inconclusive() {
        "close"
    } else if status.improved() {
        "better"
    } else {
        "pass"
    }
}

/// A row's place: failed first, then undecided, then the rest.
fn rank(status: Outcome) -> u8 {
    if status.fails() {
        0
    } else if status.inconclusive() {
        1
    } else {
        2
    }
}

/// One row: a test's point and interval on the panel's axis, in percent.
#[derive(Debug, Clone)]
struct Row {
    name: String,
    point: f64,
    low: f64,
    high: f64,
    status: Outcome,
    /// How close to failing, for the order (larger first).
    closeness: f64,
}

/// The budget panel's row of `t`, when it has a budget and an estimate.
fn budget_row(t: &TestReport) -> Option<Row> {
    let (b, e) = (t.budget.as_ref()?, t.estimate.as_ref()?);
    if b.budget_ns.is_nan() || b.budget_ns <= 0.0 {
        return None;
    }
    let pct = |ns: f64| ns / b.budget_ns * 100.0;
    let status = b.outcome;
    Some(Row {
        name: t.name.clone(),
        point: pct(e.ns_per_iter),
        low: pct(e.ci.low),
        high: pct(e.ci.high),
        status,
        closeness: pct(e.ci.high),
    })
}

/// The change panel's row of `t`: against the base build, else the stored
/// baseline when it was used; with the tolerance.
fn change_row(t: &TestReport) -> Option<(Row, f64)> {
    if let Some(c) = &t.comparison {
        let status = if c.fails {
            Outcome::Regressed
        } else {
            c.change
        };
        return Some((
            change(
                &t.name,
                c.ratio,
                c.ratio_low,
                c.ratio_high,
                status,
                c.tolerance,
            ),
            c.tolerance,
        ));
    }
    let b = t.baseline.as_ref().filter(|b| b.not_used.is_none())?;
    let c = b.comparison.as_ref()?;
    // Within the tolerance by the rule, and yet: slower beyond doubt in a
    // failed test (drawn as failed), or an interval that reaches past the
    // tolerance (drawn as undecided).
    let status = match c.verdict {
        v if v.unchanged() && t.verdict == Verdict::Fail && c.ci.low > 1.0 => Outcome::Regressed,
        v if v.unchanged() && c.ci.high > 1.0 + c.tolerance => Outcome::Inconclusive,
        v => v,
    };
    Some((
        change(&t.name, c.ratio, c.ci.low, c.ci.high, status, c.tolerance),
        c.tolerance,
    ))
}

fn change(name: &str, ratio: f64, low: f64, high: f64, status: Outcome, tolerance: f64) -> Row {
    let pct = |r: f64| (r - 1.0) * 100.0;
    Row {
        name: name.to_owned(),
        point: pct(ratio),
        low: pct(low),
        high: pct(high),
        status,
        closeness: pct(high) - tolerance * 100.0,
    }
}

/// The overview of `tests`; `None` when no test has a budget or a
/// comparison (a run that only measures has nothing to place).
pub(super) fn overview_figure(tests: &[TestReport]) -> Option<String> {
    let budgets: Vec<Row> = tests.iter().filter_map(budget_row).collect();
    let changes: Vec<(Row, f64)> = tests.iter().filter_map(change_row).collect();
    if budgets.is_empty() && changes.is_empty() {
        return None;
    }
    let mut html = String::new();
    html.push_str("<figure class=\"overview\">\n<figcaption>Every test of the run at a glance: ");
    html.push_str(
        "<span class=\"key fail-dot\"></span>failed <span class=\"key close-dot\"></span>undecided \
         <span class=\"key pass-dot\"></span>passed <span class=\"key better-dot\"></span>improved; \
         a bar is the test's CI, a dot its estimate.</figcaption>\n",
    );
    if !budgets.is_empty() {
        html.push_str(&budget_panel(budgets));
    }
    if !changes.is_empty() {
        html.push_str(&change_panel(changes));
    }
    html.push_str("</figure>\n");
    Some(html)
}

/// The budgets panel of `rows`, on an axis from 0 to a round bound above
/// the widest interval (at least 150%, at most 400%), with the budget's
/// line at 100%.
fn budget_panel(rows: Vec<Row>) -> String {
    let hi = rows
        .iter()
        .map(|r| r.high)
        .filter(|v| v.is_finite())
        .fold(150.0f64, f64::max)
        .min(400.0);
    let axis = Scale::new(0.0, round_up(hi));
    panel(
        "Budgets: time per iteration as a share of the budget (the line at 100%)",
        sorted(rows),
        &axis,
        |svg, axis, top, bottom| {
            let x = axis.px(100.0);
            let _ = writeln!(
                svg,
                "<line class=\"limit\" x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{bottom:.1}\"/>"
            );
        },
    )
}

/// The changes panel of `changes` (each row with its tolerance), on an
/// axis symmetric about 0 that reaches a round bound beyond the widest
/// interval (at least 3 × the largest tolerance and 5%, at most 100%), with
/// the largest tolerance shaded as a band.
fn change_panel(changes: Vec<(Row, f64)>) -> String {
    let tolerance = changes.iter().map(|(_, t)| *t).fold(0.0f64, f64::max) * 100.0;
    let reach = changes
        .iter()
        .flat_map(|(r, _)| [r.low.abs(), r.high.abs()])
        .filter(|v| v.is_finite())
        .fold((3.0 * tolerance).max(5.0), f64::max)
        .min(100.0);
    let reach = round_up(reach);
    let axis = Scale::new(-reach, reach);
    let rows: Vec<Row> = changes.into_iter().map(|(r, _)| r).collect();
    panel(
        &format!(
            "Changes: against the base build or the stored baseline, in percent (the shaded \
             band is the tolerance, ±{})",
            plain_percent(tolerance / 100.0)
        ),
        sorted(rows),
        &axis,
        |svg, axis, top, bottom| {
            let (x0, x1) = (axis.px(-tolerance), axis.px(tolerance));
            let _ = writeln!(
                svg,
                "<rect class=\"band\" x=\"{x0:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>",
                x1 - x0,
                bottom - top
            );
            let x = axis.px(0.0);
            let _ = writeln!(
                svg,
                "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{bottom:.1}\"/>"
            );
        },
    )
}

/// Failed first, then undecided, then by closeness to failing.
fn sorted(mut rows: Vec<Row>) -> Vec<Row> {
    rows.sort_by(|a, b| {
        rank(a.status)
            .cmp(&rank(b.status))
            .then(b.closeness.total_cmp(&a.closeness))
            .then(a.name.cmp(&b.name))
    });
    rows
}

/// `v` up to a round number: 1, 2, 2.5 or 5 × a power of ten.
fn round_up(v: f64) -> f64 {
    if v.is_nan() || v <= 0.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|&c| c >= v)
        .unwrap_or(10.0 * magnitude)
}

/// A panel's horizontal axis: percent to SVG units.
struct Scale {
    lo: f64,
    hi: f64,
}

impl Scale {
    fn new(lo: f64, hi: f64) -> Scale {
        Scale { lo, hi }
    }

    fn px(&self, v: f64) -> f64 {
        let v = v.clamp(self.lo, self.hi);
        LABEL + (v - self.lo) / (self.hi - self.lo) * (WIDTH - LABEL - RIGHT)
    }

    fn ticks(&self) -> Vec<f64> {
        let step = round_up((self.hi - self.lo) / 6.0);
        let first = (self.lo / step).ceil() as i64;
        let last = (self.hi / step).floor() as i64;
        (first..=last).map(|i| i as f64 * step).collect()
    }
}

/// One panel: its title, its rows on `axis`, and what `marks` draws
/// behind them (the budget line, the tolerance band) between `top` and
/// `bottom`.
fn panel(
    title: &str,
    rows: Vec<Row>,
    axis: &Scale,
    marks: impl Fn(&mut String, &Scale, f64, f64),
) -> String {
    let height = TOP + ROW * rows.len() as f64 + BOTTOM;
    let (top, bottom) = (TOP, TOP + ROW * rows.len() as f64);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg viewBox=\"0 0 {WIDTH} {height:.0}\" role=\"img\" aria-label=\"{}\">",
        escape(title)
    );
    let _ = writeln!(
        svg,
        "<text x=\"0\" y=\"14\" class=\"title\">{}</text>",
        escape(title)
    );
    draw_grid(&mut svg, axis, top, bottom);
    marks(&mut svg, axis, top, bottom);
    for (i, r) in rows.iter().enumerate() {
        draw_row(&mut svg, axis, r, top + ROW * (i as f64 + 0.5));
    }
    svg.push_str("</svg>\n");
    svg
}

/// A vertical grid line from `top` to `bottom` at each of the axis's ticks,
/// labelled in percent below `bottom`.
fn draw_grid(svg: &mut String, axis: &Scale, top: f64, bottom: f64) {
    for tick in axis.ticks() {
        let x = axis.px(tick);
        let _ = writeln!(
            svg,
            "<line class=\"grid\" x1=\"{x:.1}\" y1=\"{top:.1}\" x2=\"{x:.1}\" y2=\"{bottom:.1}\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            bottom + 14.0,
            plain_percent(tick / 100.0)
        );
    }
}

/// Row `r` centred at height `y`, in its status's colour: its name (cut by
/// [`short_name`]) left of the axis, titled in full with its values; its
/// interval, ending in an arrow at an edge it runs off; its point.
fn draw_row(svg: &mut String, axis: &Scale, r: &Row, y: f64) {
    let class = class(r.status);
    let _ = writeln!(
        svg,
        "<g class=\"row {class}\"><title>{}: {} [{}, {}]</title>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
        escape(&r.name),
        percent(r.point),
        percent(r.low),
        percent(r.high),
        LABEL - 8.0,
        y + 4.0,
        escape(&short_name(&r.name))
    );
    let (x0, x1) = (axis.px(r.low), axis.px(r.high));
    let _ = writeln!(
        svg,
        "<line class=\"interval\" x1=\"{x0:.1}\" y1=\"{y:.1}\" x2=\"{x1:.1}\" y2=\"{y:.1}\"/>"
    );
    draw_arrows(svg, axis, r, y);
    if r.point.is_finite() {
        let _ = writeln!(
            svg,
            "<circle class=\"point\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"3.5\"/>",
            axis.px(r.point)
        );
    }
    svg.push_str("</g>\n");
}

/// `name` cut to [`NAME_CHARS`] characters, the last of them `…`, when
/// it is longer.
fn short_name(name: &str) -> String {
    if name.chars().count() > NAME_CHARS {
        let cut: String = name.chars().take(NAME_CHARS - 1).collect();
        format!("{cut}…")
    } else {
        name.to_owned()
    }
}

/// An arrow at each edge of the axis that row `r`'s interval runs off (an
/// infinite end included), at height `y`.
fn draw_arrows(svg: &mut String, axis: &Scale, r: &Row, y: f64) {
    for (end, edge, dir) in [(r.low, axis.lo, -1.0), (r.high, axis.hi, 1.0)] {
        if !(end.is_finite()) || (end - edge) * dir > 0.0 {
            let x = axis.px(edge);
            let _ = writeln!(
                svg,
                "<path class=\"arrow\" d=\"M{:.1} {:.1} L{x:.1} {y:.1} L{:.1} {:.1}\"/>",
                x - 6.0 * dir,
                y - 4.0,
                x - 6.0 * dir,
                y + 4.0
            );
        }
    }
}

/// A value in percent as `12.3%`, or `unbounded` for an end that is not
/// a number.
fn percent(v: f64) -> String {
    if v.is_finite() {
        fmt_percent(v / 100.0, 1)
    } else {
        "unbounded".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_and_bounds_are_round() {
        assert_eq!(round_up(137.0), 200.0);
        assert_eq!(round_up(22.0), 25.0);
        assert_eq!(round_up(0.0), 1.0);
        let s = Scale::new(-25.0, 25.0);
        assert_eq!(s.ticks(), [-20.0, -10.0, 0.0, 10.0, 20.0]);
        assert_eq!(s.px(-1e9), LABEL);
        assert_eq!(s.px(1e9), WIDTH - RIGHT);
        assert_eq!(percent(-12.34), "-12.3%");
        assert_eq!(percent(f64::INFINITY), "unbounded");
    }

    #[test]
    fn failed_rows_come_first() {
        let row = |name: &str, status, closeness| Row {
            name: name.to_owned(),
            point: 0.0,
            low: 0.0,
            high: 0.0,
            status,
            closeness,
        };
        let rows = sorted(vec![
            row("a", Outcome::Under, 50.0),
            row("b", Outcome::Improved, 10.0),
            row("c", Outcome::Regressed, 1.0),
            row("d", Outcome::Inconclusive, 0.0),
            row("e", Outcome::NoSignificantChange, 90.0),
        ]);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["c", "d", "e", "a", "b"]);
    }
}
