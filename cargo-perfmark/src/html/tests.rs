use super::*;
use perfmark_core::report::fixtures::{self, measured, report, unmeasured};
use perfmark_core::report::{plot, scaling_of, Placement, Reason, Source, ThreadsRecord};

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
    e.ci.low = f64::NEG_INFINITY;
    e.ci.high = f64::INFINITY;
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

/// A threaded test of `function` on `threads` threads, measured around
/// `ns` per iteration, its threads each held on a CPU of its own.
fn threaded(function: &str, threads: usize, ns: f64) -> TestReport {
    let samples: Vec<f64> = (0..40).map(|i| ns + f64::from(i % 5) * 0.1).collect();
    let mut t = measured(&format!("{function}::t{threads}"), samples, None);
    t.threads = Some(ThreadsRecord {
        function: function.to_owned(),
        count: threads,
        placement: Placement {
            cpus: (0..threads).collect(),
            apart: true,
            candidates: 8,
        },
        per_thread_ns: (0..threads).map(|i| ns - 1.0 + i as f64 * 0.5).collect(),
    });
    t
}

/// A report of `tests` with their scaling lines, as the runner writes it.
fn with_scaling(tests: Vec<TestReport>) -> Report {
    let mut r = report(tests);
    r.scaling = scaling_of(&r.tests);
    r
}

/// The scaling section: from its heading to the summary's.
fn scaling_section(html: &str) -> &str {
    let start = html
        .find("<h2>Scaling with threads</h2>")
        .expect("scaling heading");
    let end = html.find("<h2>Summary</h2>").expect("summary heading");
    assert!(start < end, "the scaling figures come before the summary");
    &html[start..end]
}

#[test]
fn scaling_figure_has_a_point_per_thread_count_with_its_ratio() {
    let html = render(&with_scaling(vec![
        threaded("lock", 1, 20.0),
        threaded("lock", 2, 45.0),
        threaded("lock", 4, 100.0),
        measured("plain", vec![1.0, 2.0, 3.0], None),
    ]));
    assert_finite(&html);
    let scaling = scaling_section(&html);
    assert_eq!(count(scaling, "<figure class=\"scaling\""), 1);
    assert!(scaling.contains("<h3><code>lock</code></h3>"));
    assert!(scaling.contains("Time per iteration per thread by thread count (1, 2, 4)"));
    assert_eq!(count(scaling, "<g class=\"thread-point\">"), 3);
    // The estimates are the samples' medians: 20.2, 45.2 and 100.2 ns.
    assert!(scaling.contains(">1.00×</text>"), "{scaling}");
    assert!(scaling.contains(">2.24×</text>"), "{scaling}");
    assert!(scaling.contains(">4.96×</text>"), "{scaling}");
    assert!(scaling.contains("lock::t2: 2 threads, 45.20 ns per iteration per thread (2.24×)"));
    // The thread counts label the axis; the reference is the first time.
    for label in [">1</text>", ">2</text>", ">4</text>"] {
        assert_eq!(count(scaling, label), 1, "{label}");
    }
    assert_eq!(count(scaling, "<line class=\"reference\""), 1);
    assert!(scaling.contains("no contention: flat at 20.20 ns"));
    // Each point links to its test's section, which the page has.
    for (index, name) in [(0, "lock::t1"), (1, "lock::t2"), (2, "lock::t4")] {
        let id = section_id(index, name);
        assert!(scaling.contains(&format!("<a href=\"#{id}\">")), "{id}");
        assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
    }
}

#[test]
fn no_scaling_lines_no_scaling_figure() {
    // Threaded, but on one thread count only: no line.
    let html = render(&with_scaling(vec![
        threaded("alone", 4, 10.0),
        measured("plain", vec![1.0, 2.0, 3.0], None),
    ]));
    assert!(!html.contains("Scaling with threads"));
    assert!(!html.contains("class=\"scaling\""));
    assert!(!html.contains("<g class=\"thread-point\""));
}

#[test]
fn scaling_figures_escape_function_names() {
    let html = render(&with_scaling(vec![
        threaded("f::Vec<u8>", 1, 20.0),
        threaded("f::Vec<u8>", 2, 20.0),
    ]));
    let scaling = scaling_section(&html);
    assert!(!html.contains("Vec<u8>"));
    assert!(scaling.contains("<h3><code>f::Vec&lt;u8&gt;</code></h3>"));
    assert!(scaling.contains("<title>f::Vec&lt;u8&gt;: Time per iteration per thread"));
    assert!(scaling.contains("<title>f::Vec&lt;u8&gt;::t2: 2 threads"));
    assert!(scaling.contains(&format!(
        "<a href=\"#{}\">",
        section_id(1, "f::Vec<u8>::t2")
    )));
}

#[test]
fn a_threaded_test_says_its_team() {
    let mut shared = threaded("lock", 4, 20.0);
    if let Some(team) = shared.threads.as_mut() {
        team.placement.cpus.clear();
        team.placement.apart = false;
        team.placement.candidates = 2;
    }
    let html = render(&report(vec![threaded("lock", 4, 20.0), shared]));
    assert!(html.contains(
        "<p class=\"team\"><b>Team</b>: 4 threads, each held on a CPU of its own (CPUs 0, 1, \
         2, 3) · each thread's own median per iteration: thread 1 19.00 ns, thread 2 19.50 ns, \
         thread 3 20.00 ns, thread 4 20.50 ns</p>"
    ));
    assert!(html.contains("<b>Team</b>: 4 threads on 2 CPUs: not each on a CPU of its own ·"));
    // In the test's own section, after its estimate.
    let section = &html[html.find("id=\"test-0-lock--t4\"").unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    let estimate = section
        .find("per iteration, 95% CI")
        .expect("estimate line");
    assert!(estimate < section.find("<b>Team</b>").expect("team line"));
    let plain = render(&report(vec![measured("plain", vec![1.0, 2.0], None)]));
    assert!(!plain.contains("<b>Team</b>"));
    let mut unpinned = threaded("lock", 2, 20.0);
    if let Some(team) = unpinned.threads.as_mut() {
        team.placement = Placement {
            cpus: Vec::new(),
            apart: false,
            candidates: 0,
        };
        team.per_thread_ns[1] = f64::NAN;
    }
    let html = render(&report(vec![unpinned]));
    assert!(html.contains(
        "<b>Team</b>: 2 threads, not each held on a CPU of its own: left to the scheduler · \
         each thread's own median per iteration: thread 1 19.00 ns, thread 2 not measured</p>"
    ));
}
