//! `report.json`: the run in full, typed both ways.
//!
//! The format is versioned ([`super::REPORT_SCHEMA`]) and other tools may read it
//! (DESIGN §1 "Files"). Its stable core is `schema` and, per test, `name`,
//! `verdict`, `reasons`, `estimate` {`statistic`, `ns_per_iter`, `ci_low`,
//! `ci_high`, `confidence`}, `samples` (the count) and `iters_per_sample`;
//! later versions only add fields, so a reader ignores the fields it does
//! not know. The types are [`Report`] and what it holds: [`to_string`]
//! writes them, [`from_str`] and [`read`] read them back, equal.
//!
//! JSON has no NaN and no infinities: a number that is not finite is written
//! as `null`. CI bounds read such a `null` back as −∞ or +∞ (see
//! [`crate::stats::Interval`]); every other number reads it back as NaN
//! ([`from_str`]), so a report with a degenerate statistic still reads.

use std::path::Path;

use super::Report;
use crate::json::{self, FromJson};

/// `report` as `report.json` holds it: pretty-printed JSON.
pub fn to_string(report: &Report) -> String {
    json::to_string_pretty(report)
}

/// Reads a report from the text of a `report.json`, of this version or a
/// later one (whose added fields are ignored).
///
/// # Errors
/// When `text` is not JSON (the error names the line and column), or lacks
/// a field of this version or has one of the wrong type (the error names
/// the field's path, `tests[0].estimate.ci_low`).
// `#[inline]`, here, on `read` and on every `FromJson::from_json`: only
// tools read reports back (the xtask), so the reading is compiled in the
// crates that call it, not in perfmark-core for every user (the runner
// reads only baselines and worker lines).
#[inline]
pub fn from_str(text: &str) -> Result<Report, json::Error> {
    Report::from_json(&json::parse(text)?)
}

/// Reads the `report.json` at `path` ([`from_str`]).
///
/// # Errors
/// When the file cannot be read or is not a report; the message names it.
#[inline]
pub fn read(path: &Path) -> Result<Report, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let not_a_report = |why: String| format!("{} is not a perfmark report: {why}", path.display());
    // A file that reads but is not text is not a report, rather than "cannot be read".
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| not_a_report(format!("it is not UTF-8 text ({e})")))?;
    from_str(text).map_err(|e| not_a_report(e.to_string()))
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
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
        assert_eq!((e.ci_low, e.ci_high), (f64::NEG_INFINITY, f64::INFINITY));
        let d = t.diagnostics.as_ref().unwrap();
        assert_eq!(d.verdict_estimate.ci.high, f64::INFINITY);
        assert!(d.gating_error.is_nan() && t.summary.as_ref().unwrap().cov.is_nan());
        assert_eq!(back.noise_floor, None);
    }

    #[test]
    fn field_names_are_the_documented_ones() {
        let value: serde_json::Value =
            serde_json::from_str(&to_string(&fixtures::realistic())).unwrap();
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
        let back = from_str(&value.to_string()).unwrap();
        let c = back.tests[3].baseline.as_ref().unwrap().comparison.unwrap();
        assert!(c.min_detectable_slowdown.is_nan());
    }

    /// The realistic fixture as serde's derives wrote it, before perfmark
    /// had its own JSON: the format did not change.
    const REALISTIC: &str = include_str!("json/realistic.json");

    #[test]
    fn the_format_is_the_one_serde_wrote() {
        let ours: serde_json::Value =
            serde_json::from_str(&to_string(&fixtures::realistic())).unwrap();
        let golden: serde_json::Value = serde_json::from_str(REALISTIC).unwrap();
        assert_eq!(ours, golden);
        let back = from_str(REALISTIC).unwrap();
        assert_eq!(to_string(&back), to_string(&fixtures::realistic()));
    }

    #[test]
    fn a_complexity_check_reads_back_equal() {
        use crate::checks::complexity::{decide, ComplexityPoint};
        use crate::checks::Record;
        let points: Vec<ComplexityPoint> = [100u64, 1000, 10_000, 100_000]
            .iter()
            .map(|&size| ComplexityPoint {
                test: format!("sort::{size}"),
                size,
                ns_per_iter: size as f64 * 3.0,
                ci_low: size as f64 * 2.9,
                ci_high: f64::INFINITY,
                confidence: 0.95,
            })
            .collect();
        let Some(Record::Complexity(check)) =
            decide(points, perfmark_options::Complexity::Linear, 0.95).record
        else {
            panic!("a complexity record");
        };
        let mut t = fixtures::unmeasured("sort::complexity", crate::checks::Verdict::Pass, None);
        t.complexity = Some(check.clone());
        let back = assert_round_trip(&fixtures::report(vec![t]));
        assert_eq!(back.tests[0].complexity.as_ref(), Some(&check));
    }

    #[test]
    fn later_versions_may_add_fields() {
        let report = fixtures::realistic();
        let mut value: serde_json::Value = serde_json::from_str(&to_string(&report)).unwrap();
        value["added_later"] = serde_json::Value::from(1);
        value["tests"][0]["also_added"] = serde_json::json!({"x": [1, null]});
        let back = from_str(&value.to_string()).unwrap();
        assert_eq!(back.tests.len(), report.tests.len());
    }

    #[test]
    fn what_is_not_a_report_is_an_error() {
        assert!(from_str("{\"schema\": 1}").is_err());
        assert!(from_str("[]").is_err());
        let text = to_string(&fixtures::report(Vec::new()));
        assert!(from_str(&format!("{text} trailing")).is_err());
        let e = read(Path::new("/nonexistent/report.json")).unwrap_err();
        assert!(e.contains("/nonexistent/report.json"), "{e}");
    }
}
