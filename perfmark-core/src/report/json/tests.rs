use super::*;
use crate::report::{fixtures, REPORT_SCHEMA};

/// `report` written, read back and written again gives the same text.
fn assert_round_trip(report: &Report) -> Report {
    let text = to_string(report);
    let back = from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(to_string(&back), text);
    back
}

fn keys(value: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[test]
fn a_report_reads_back_equal() {
    let report = fixtures::realistic();
    let back = assert_round_trip(&report);
    assert_eq!(back.tests.len(), report.tests.len());
    let (a, b) = (&report.tests[0], &back.tests[0]);
    assert_eq!(b.name, a.name);
    assert_eq!(b.verdict, a.verdict);
    let (ma, mb) = (a.measurement.as_ref(), b.measurement.as_ref());
    assert_eq!(
        mb.map(|m| &m.samples_ns),
        ma.map(|m| &m.samples_ns),
        "every sample reads back exactly"
    );
    assert!(back
        .tests
        .iter()
        .any(|t| t.baseline.as_ref().is_some_and(|b| b.comparison.is_some())));
}

#[test]
fn numbers_that_are_not_finite_read_back() {
    let mut report = fixtures::report(vec![fixtures::measured("two", vec![10.0, 11.0], None)]);
    report.noise_floor = Some(f64::NAN);
    let t = &mut report.tests[0];
    t.diagnostics.as_mut().unwrap().gating_error = f64::INFINITY;
    t.summary.as_mut().unwrap().cov = f64::NAN;
    let text = to_string(&report);
    assert!(text.contains("\"gating_error\": null"), "{text}");
    let back = assert_round_trip(&report);
    let t = &back.tests[0];
    // Two samples leave the median unbounded at 95%: ±∞ again.
    let e = t.estimate.as_ref().unwrap();
    assert_eq!((e.ci.low, e.ci.high), (f64::NEG_INFINITY, f64::INFINITY));
    let d = t.diagnostics.as_ref().unwrap();
    assert_eq!(d.verdict_estimate().unwrap().ci.high, f64::INFINITY);
    assert!(d.gating_error.is_nan() && t.summary.as_ref().unwrap().cov.is_nan());
    assert_eq!(back.noise_floor, None);
}

/// The realistic fixture's report.json as committed: the format does
/// not change under the writer.
const REALISTIC: &str = include_str!("../../../tests/data/realistic.json");

#[test]
fn the_format_is_the_committed_one() {
    let ours: serde_json::Value = serde_json::from_str(&to_string(&fixtures::realistic())).unwrap();
    let golden: serde_json::Value = serde_json::from_str(REALISTIC).unwrap();
    same_shape("report", &ours, &golden);
    let back = from_str(REALISTIC).unwrap();
    same_shape("read back", &serde_json::to_value(&back).unwrap(), &golden);
}

/// `a` and `b` have the same keys, strings and array lengths, and
/// numbers equal to 1e-9 relative: the fixture's statistics are computed
/// and may move in their last digits with the distribution functions.
fn same_shape(path: &str, a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-9 * y.abs(), "{path}: {x} vs {y}");
        }
        (Value::Array(xs), Value::Array(ys)) => {
            assert_eq!(xs.len(), ys.len(), "{path}");
            for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
                same_shape(&format!("{path}[{i}]"), x, y);
            }
        }
        (Value::Object(xs), Value::Object(ys)) => {
            assert!(xs.keys().eq(ys.keys()), "{path}: keys differ");
            for (key, x) in xs {
                same_shape(&format!("{path}.{key}"), x, &ys[key]);
            }
        }
        _ => assert_eq!(a, b, "{path}"),
    }
}

#[test]
fn field_names_are_the_documented_ones() {
    let value = serde_json::to_value(fixtures::realistic()).unwrap();
    assert_eq!(
        keys(&value),
        [
            "between_run_prior",
            "comparison",
            "environment_warnings",
            "family_wise",
            "finished_in_s",
            "interference",
            "machine_lock",
            "noise_floor",
            "platform",
            "schema",
            "startup",
            "target",
            "tests"
        ]
    );
    assert_eq!(value["schema"], REPORT_SCHEMA);
    let test = &value["tests"][0];
    assert_eq!(
        keys(test),
        [
            "allocations",
            "baseline",
            "budget",
            "comparison",
            "complexity",
            "diagnostics",
            "duration_s",
            "estimate",
            "file",
            "interference",
            "iters_per_sample",
            "line",
            "measure",
            "measurement",
            "name",
            "outliers",
            "panic",
            "rate_per_s",
            "reasons",
            "remeasured",
            "samples",
            "size",
            "summary",
            "verdict",
            "wall_ns_per_iter",
            "warnings",
            "work"
        ]
    );
    assert_eq!(
        keys(&test["estimate"]),
        [
            "ci_high",
            "ci_low",
            "confidence",
            "effective_samples",
            "ns_per_iter",
            "statistic"
        ]
    );
    // What a comparison with a stored baseline could detect is kept with
    // it; a report written before the field existed still reads.
    let mut value = value;
    let comparison = &mut value["tests"][3]["baseline"]["comparison"];
    assert!(comparison["min_detectable_slowdown"].as_f64().unwrap() > 0.0);
    comparison
        .as_object_mut()
        .unwrap()
        .remove("min_detectable_slowdown");
    let back = from_str(value.to_string()).unwrap();
    let c = back.tests[3].baseline.as_ref().unwrap().comparison.unwrap();
    assert!(c.min_detectable_slowdown.is_nan());
}

#[test]
fn a_complexity_check_reads_back_equal() {
    use crate::checks::Said;
    use crate::complexity::check::decide;
    use crate::complexity::record::ComplexityPoint;
    use crate::stats::Interval;
    let points: Vec<ComplexityPoint> = [100u64, 1000, 10_000, 100_000]
        .iter()
        .map(|&size| ComplexityPoint {
            test: format!("sort::{size}"),
            size,
            ns_per_iter: size as f64 * 3.0,
            ci: Interval {
                low: size as f64 * 2.9,
                high: f64::INFINITY,
                confidence: 0.95,
            },
        })
        .collect();
    let Said::Complexity(said) = decide(points, perfmark_options::Complexity::Linear, 0.95).said
    else {
        panic!("a complexity finding");
    };
    let check = said.record().expect("a complexity record");
    let mut t = fixtures::unmeasured("sort::complexity", crate::checks::Verdict::Pass, None);
    t.complexity = Some(check.clone());
    let back = assert_round_trip(&fixtures::report(vec![t]));
    assert_eq!(back.tests[0].complexity.as_ref(), Some(check));
}

#[test]
fn later_versions_may_add_fields() {
    let report = fixtures::realistic();
    let mut value = serde_json::to_value(&report).unwrap();
    value["added_later"] = serde_json::Value::from(1);
    value["tests"][0]["also_added"] = serde_json::json!({"x": [1, null]});
    let back = from_str(value.to_string()).unwrap();
    assert_eq!(back.tests.len(), report.tests.len());
}

#[test]
fn what_is_not_a_report_is_an_error() {
    assert!(from_str("{\"schema\": 1}").is_err());
    assert!(from_str("[]").is_err());
    let text = to_string(&fixtures::report(Vec::new()));
    assert!(from_str(format!("{text} trailing")).is_err());
    let e = read(std::path::Path::new("/nonexistent/report.json")).unwrap_err();
    assert!(e.contains("/nonexistent/report.json"), "{e}");
}
