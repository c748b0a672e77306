use super::*;
use perfmark_core::report::fixtures::{self, measured, report, unmeasured};
use perfmark_core::report::{plot, Reason, Source};

/// No coordinate or label came out as `NaN` or `inf`.
fn assert_finite(html: &str) {
    for bad in ["NaN", "\"inf", "-inf", " inf", "Minf"] {
        assert!(!html.contains(bad), "{bad} in the page");
    }
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// Points of the scatter's paths: on the scale and off it.
fn scatter_points(html: &str) -> usize {
    ["samples", "offscale"]
        .iter()
        .filter_map(|class| html.find(&format!("<path class=\"{class}\" d=\"")))
        .map(|start| {
            let rest = &html[start..];
            count(&rest[..rest.find("\"/>").unwrap()], "h0")
        })
        .sum()
}

#[test]
fn user_text_is_escaped_everywhere() {
    let mut t = measured("mod::<script>alert(1)</script>", vec![1.0, 2.0, 3.0], None);
    t.reasons = vec![Reason::said(Source::Budget, "a < b & c")];
    t.warnings = vec!["\"quoted\"".to_owned()];
    let p = unmeasured("boom", Verdict::Fail, Some("index 3 <out of range> & more"));
    let html = render(&report(vec![t, p]));
    assert!(!html.contains("<script>"));
    assert!(html.contains("mod::&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("a &lt; b &amp; c"));
    assert!(html.contains("&quot;quoted&quot;"));
    assert!(html.contains("index 3 &lt;out of range&gt; &amp; more"));
    assert!(html.contains("Test CPU &lt;8 cores&gt;"));
    assert!(html.contains("expect &lt;noise&gt;"));
    // The anchor never carries the raw name.
    let id = section_id(0, "mod::<script>alert(1)</script>");
    assert_eq!(id, "test-0-mod---script-alert-1---script-");
    assert!(html.contains(&format!("href=\"#{id}\"")));
    assert!(html.contains(&format!("id=\"{id}\"")));
}

#[test]
fn empty_report_renders_a_complete_page() {
    let html = render(&report(Vec::new()));
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.ends_with("</html>\n"));
    assert!(html.contains("0 tests: 0 passed, 0 failed"));
    assert!(html.contains("No tests were run"));
    assert!(!html.contains("<svg"));
    assert!(!html.contains("<script"));
    assert!(html.contains("noise floor</th><td>1.20%"));
    assert!(html.contains("resolution 20.00 ns"));
}

#[test]
fn ignored_and_panicked_tests_have_sections_without_plots() {
    let html = render(&report(vec![
        unmeasured("slow", Verdict::Ignored, None),
        unmeasured("boom", Verdict::Fail, Some("oops")),
    ]));
    assert!(!html.contains("<svg"));
    assert!(html.contains("id=\"test-0-slow\""));
    assert!(html.contains("href=\"#test-0-slow\""));
    assert!(html.contains("id=\"test-1-boom\""));
    assert!(html.contains("<pre class=\"panic\">panicked: oops</pre>"));
    assert!(html.contains("<span class=\"verdict ignored\">ignored</span>"));
    assert!(html.contains("<span class=\"verdict fail\">fail</span>"));
}

#[test]
fn all_equal_samples_do_not_divide_by_zero() {
    for samples in [vec![5.0; 50], vec![0.0; 10], vec![812.4]] {
        let html = render(&report(vec![measured(
            "flat",
            samples.clone(),
            Some(100.0),
        )]));
        assert_finite(&html);
        assert_eq!(count(&html, "<figure class=\"scatter\""), 1);
        assert_eq!(count(&html, "<figure class=\"histogram\""), 1);
        assert_eq!(count(&html, "<rect class=\"bar\""), 1);
        assert_eq!(scatter_points(&html), samples.len());
    }
}

#[test]
fn one_point_per_sample_and_the_expected_bars() {
    // 1..=100: ten bins of ten, no outliers.
    let samples: Vec<f64> = (1..=100).map(f64::from).collect();
    let html = render(&report(vec![measured("ramp", samples, None)]));
    assert_eq!(count(&html, "<rect class=\"bar\""), 10);
    assert_eq!(scatter_points(&html), 100);
    assert!(!html.contains("class=\"offscale\""));
    assert!(html.contains("Histogram of the 100 samples (10 bins)"));
}

#[test]
fn long_series_are_thinned_but_keep_their_spikes() {
    let samples = fixtures::long_spiky_series();
    let html = render(&report(vec![measured(
        "long",
        samples.clone(),
        Some(120_000.0),
    )]));
    let drawn = scatter_points(&html);
    assert!(drawn > 1_000 && drawn < MAX_SCATTER_POINTS, "{drawn}");
    assert!(html.contains(&format!(
        "thinned to {drawn} points: every 20th sample, plus {} beyond",
        drawn - 1_000
    )));
    // The spike is left out of the histogram, and said to be.
    assert!(!html.contains("0 below"));
    assert!(html.contains("1 above (max 5.000 ms) beyond the severe Tukey fences, drawn at"));
    assert_eq!(count(&html, "<path class=\"offscale\""), 1);
    assert!(html.contains("1 above (max 5.000 ms)"));
    let b = plot::histogram(&samples, MAX_HISTOGRAM_BINS);
    assert_eq!(b.counts.len(), MAX_HISTOGRAM_BINS);
    assert_eq!((b.bulk.below, b.bulk.above), (0, 1));
    let bars = b.counts.iter().filter(|&&c| c > 0).count();
    assert_eq!(count(&html, "<rect class=\"bar\""), bars);
    assert!(html.len() < 200_000, "{} bytes", html.len());
}

#[test]
fn spikes_are_to_scale_when_the_scale_need_not_grow_much() {
    let mut samples: Vec<f64> = (0..105).map(|i| 100.0 + f64::from(i % 21)).collect();
    samples[50] = 150.0; // beyond the severe fence, 145
    assert_eq!(plot::bulk(&samples).above, 1);
    // Alone, the spike would triple the scale: drawn at its edge.
    let alone = render(&report(vec![measured("alone", samples.clone(), None)]));
    assert_eq!(count(&alone, "<path class=\"offscale\""), 1);
    assert!(alone.contains("1 above (max 150.0 ns) beyond the severe Tukey fences, drawn"));
    // A budget at 140 already stretches the scale: the spike fits.
    let with = render(&report(vec![measured("budget", samples, Some(140.0))]));
    assert!(!with.contains("class=\"offscale\""));
    assert_eq!(scatter_points(&with), 105);
}

#[test]
fn budget_line_iff_budget() {
    let samples: Vec<f64> = (0..60).map(|i| 40.0 + f64::from(i % 7)).collect();
    let without = render(&report(vec![measured("free", samples.clone(), None)]));
    assert_eq!(count(&without, "class=\"budget\""), 0);
    assert!(!without.contains("budget 50"));

    let with = render(&report(vec![measured(
        "bounded",
        samples.clone(),
        Some(50.0),
    )]));
    // A line and a label in each of the two plots.
    assert_eq!(count(&with, "<line class=\"budget\""), 2);
    assert_eq!(count(&with, "<text class=\"budget\""), 2);
    assert!(with.contains("budget 50.00 ns</text>"));

    // A budget far from the data is drawn at the edge, said off scale.
    let far = render(&report(vec![measured("far", samples, Some(10_000.0))]));
    assert_eq!(count(&far, "<line class=\"budget\""), 2);
    assert!(far.contains("budget 10.00 µs (off scale, above)"));
}

#[test]
fn infinite_ci_bounds_are_clamped() {
    let mut t = measured("wide", vec![10.0, 11.0], None);
    let e = t.estimate.as_mut().unwrap();
    e.ci_low = f64::NEG_INFINITY;
    e.ci_high = f64::INFINITY;
    let html = render(&report(vec![t]));
    assert!(html.contains("[−∞, +∞]"));
    assert_eq!(count(&html, "<rect class=\"ci\""), 2);
    assert_finite(&html);
}

#[test]
fn a_baseline_from_another_machine_is_said_once_in_the_header() {
    let mut report = fixtures::realistic();
    for i in [0, 2] {
        report.tests[i] = fixtures::from_another_machine(report.tests[i].clone());
    }
    let sentence = escape(&report.tests[0].reasons.last().unwrap().text);
    let html = render(&report);
    let (header, rest) = html.split_once("<h2>Summary</h2>").unwrap();
    let (table, sections) = rest.split_once("</table>").unwrap();
    assert_eq!(count(header, &sentence), 1, "{header}");
    assert_eq!(count(table, &sentence), 0);
    assert_eq!(
        count(
            table,
            "baseline from another machine (see above): not used to fail"
        ),
        2
    );
    // Each test's own section keeps its full reasons.
    assert_eq!(count(sections, &sentence), 2);
}

#[test]
fn output_is_deterministic() {
    let make = || {
        let samples: Vec<f64> = (0..300).map(|i| 50.0 + f64::from(i % 13)).collect();
        report(vec![measured("a", samples, Some(60.0))])
    };
    assert_eq!(render(&make()), render(&make()));
}

/// A realistic page ([`fixtures::realistic`]). Set `PERFMARK_HTML_DEMO`
/// to a path to write the page there and look at it.
#[test]
fn realistic_report() {
    let html = render(&fixtures::realistic());
    assert_eq!(count(&html, "<section class=\"test\""), 6);
    // Two plots per measured test, and the overview's two panels (the
    // fixture has budgets and comparisons).
    assert_eq!(count(&html, "<svg"), 14);
    assert_eq!(count(&html, "<figure class=\"overview\""), 1);
    assert_finite(&html);
    assert!(html.contains("1.561 GB/s"));
    assert!(html.contains("<span class=\"verdict fail\">fail</span>"));
    assert!(html.contains("\nbody{font:14px/1.45 system-ui"));
    assert!(html.contains("}\n</style>"));
    if let Some(path) = std::env::var_os("PERFMARK_HTML_DEMO") {
        std::fs::write(path, &html).expect("demo page written");
    }
}
