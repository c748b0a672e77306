//! `bencher.json`: the run's figures in the Bencher Metric Format
//! (bencher.dev), so that history and pull-request gates can be kept in
//! Bencher with its `json` adapter (`bencher run --file bencher.json
//! --adapter json`).
//!
//! One entry per measured test, under its name, with a measure per figure:
//! `latency` (ns per iteration, the CI's ends as `lower_value` and
//! `upper_value`), `throughput` (the declared work per second: items,
//! bytes or floating-point operations, with the bounds the CI gives),
//! `allocations` (heap allocations per iteration, when counted) and
//! `instructions` (per iteration, with the smallest and largest round, when
//! counted). The figures are `report.json`'s, unrounded; an interval end
//! that is not a finite number is left out (the format's numbers are
//! finite). Tests not measured (ignored, an unoptimized build, a panic
//! before the measurement) have no entry.

use serde_json::{Map, Value};

use super::{Report, TestReport};
use crate::bencher::Work;

/// `bencher.json` for `report`, as text.
pub fn to_string(report: &Report) -> String {
    let mut out = Map::new();
    for t in &report.tests {
        let measures = measures(t);
        if !measures.is_empty() {
            out.insert(t.name.clone(), Value::Object(measures));
        }
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(out)).expect("JSON values");
    text.push('\n');
    text
}

/// One measure: its value and whichever bounds are finite.
fn metric(value: f64, lower: f64, upper: f64) -> Option<Value> {
    if !value.is_finite() {
        return None;
    }
    let mut m = Map::new();
    m.insert("value".to_owned(), Value::from(value));
    if lower.is_finite() {
        m.insert("lower_value".to_owned(), Value::from(lower));
    }
    if upper.is_finite() {
        m.insert("upper_value".to_owned(), Value::from(upper));
    }
    Some(Value::Object(m))
}

fn measures(t: &TestReport) -> Map<String, Value> {
    let mut m = Map::new();
    let Some(e) = &t.estimate else {
        return m;
    };
    if let Some(v) = metric(e.ns_per_iter, e.ci.low, e.ci.high) {
        m.insert("latency".to_owned(), v);
    }
    if let (Some(work), Some(rate)) = (t.work, t.rate_per_s) {
        let per_iter = match work {
            Work::Items(n) | Work::Bytes(n) | Work::Flops(n) => n as f64,
        };
        // Work per second at the CI's ends: the faster end is the higher rate.
        let at = |ns: f64| {
            if ns > 0.0 {
                per_iter * 1e9 / ns
            } else {
                f64::NAN
            }
        };
        if let Some(v) = metric(rate, at(e.ci.high), at(e.ci.low)) {
            m.insert("throughput".to_owned(), v);
        }
    }
    if let Some(a) = &t.allocations {
        if let Some(v) = metric(a.allocs_per_iter, f64::NAN, f64::NAN) {
            m.insert("allocations".to_owned(), v);
        }
    }
    if let Some(c) = &t.instructions {
        if let Some(v) = metric(c.per_iter as f64, c.min_per_iter, c.max_per_iter) {
            m.insert("instructions".to_owned(), v);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    /// Validates `value` against the JSON schema `schema`, for the keywords
    /// Bencher's schema uses (`type`, `properties`, `patternProperties`
    /// with the pattern `.+`, `required`); any other keyword is an error,
    /// so a changed schema cannot pass unread.
    fn validate(schema: &Value, value: &Value, path: &str) -> Result<(), String> {
        let schema = schema.as_object().ok_or("a schema is an object")?;
        for (key, rule) in schema {
            match key.as_str() {
                "$id" | "$schema" => {}
                "type" => {
                    let ok = match rule.as_str() {
                        Some("object") => value.is_object(),
                        Some("number") => value.is_number(),
                        other => return Err(format!("type {other:?} not handled")),
                    };
                    if !ok {
                        return Err(format!("{path}: not of type {rule}"));
                    }
                }
                "required" => {
                    for name in rule.as_array().ok_or("required is a list")? {
                        let name = name.as_str().ok_or("required names")?;
                        if value.get(name).is_none() {
                            return Err(format!("{path}: {name} is required"));
                        }
                    }
                }
                "properties" => {
                    for (name, sub) in rule.as_object().ok_or("properties")? {
                        if let Some(v) = value.get(name) {
                            validate(sub, v, &format!("{path}.{name}"))?;
                        }
                    }
                }
                "patternProperties" => {
                    for (pattern, sub) in rule.as_object().ok_or("patternProperties")? {
                        if pattern != ".+" {
                            return Err(format!("pattern {pattern} not handled"));
                        }
                        for (name, v) in value.as_object().into_iter().flatten() {
                            if name.is_empty() {
                                return Err(format!("{path}: an empty name"));
                            }
                            validate(sub, v, &format!("{path}.{name}"))?;
                        }
                    }
                }
                other => return Err(format!("schema keyword {other} not handled")),
            }
        }
        Ok(())
    }

    fn schema() -> Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../docs/schemas/bencher-metric-format.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).expect("the schema")).expect("JSON")
    }

    #[test]
    fn the_file_is_valid_and_holds_report_jsons_figures() {
        let report = fixtures::realistic();
        let text = to_string(&report);
        let value: Value = serde_json::from_str(&text).unwrap();
        validate(&schema(), &value, "bencher.json").unwrap();
        let mut latencies = 0;
        for t in &report.tests {
            let Some(e) = &t.estimate else {
                assert!(value.get(&t.name).is_none(), "{}", t.name);
                continue;
            };
            let latency = &value[&t.name]["latency"];
            assert_eq!(latency["value"].as_f64(), Some(e.ns_per_iter), "{}", t.name);
            if e.ci.low.is_finite() {
                assert_eq!(latency["lower_value"].as_f64(), Some(e.ci.low));
            }
            if e.ci.high.is_finite() {
                assert_eq!(latency["upper_value"].as_f64(), Some(e.ci.high));
            }
            latencies += 1;
            if let (Some(Work::Items(n)), Some(rate)) = (t.work, t.rate_per_s) {
                let throughput = &value[&t.name]["throughput"];
                assert_eq!(throughput["value"].as_f64(), Some(rate));
                let upper = throughput["upper_value"].as_f64().unwrap();
                assert!((upper - n as f64 * 1e9 / e.ci.low).abs() <= 1e-9 * upper);
            }
            if let Some(a) = &t.allocations {
                assert_eq!(
                    value[&t.name]["allocations"]["value"].as_f64(),
                    Some(a.allocs_per_iter)
                );
            }
        }
        assert!(latencies >= 2, "the fixture has measured tests");
    }

    #[test]
    fn the_validator_refuses_what_the_schema_refuses() {
        let schema = schema();
        let bad = [
            r#"{"t": {"latency": {"lower_value": 1.0}}}"#,
            r#"{"t": {"latency": {"value": "fast"}}}"#,
            r#"{"t": {"latency": 3}}"#,
            r#"[]"#,
        ];
        for text in bad {
            let value: Value = serde_json::from_str(text).unwrap();
            assert!(validate(&schema, &value, "x").is_err(), "{text}");
        }
        let good: Value = serde_json::from_str(r#"{"t": {"latency": {"value": 1}}}"#).unwrap();
        validate(&schema, &good, "x").unwrap();
    }

    #[test]
    fn counts_and_unbounded_intervals() {
        let mut report = fixtures::realistic();
        let t = report
            .tests
            .iter_mut()
            .find(|t| t.estimate.is_some())
            .unwrap();
        if let Some(e) = t.estimate.as_mut() {
            e.ci.high = f64::INFINITY;
        }
        t.instructions = Some(crate::instructions::InstructionCount {
            per_iter: 1200,
            min_per_iter: 1190.0,
            max_per_iter: 1210.0,
            deterministic: false,
            iters: 10,
            rounds: 3,
            processes: 4,
            cycles_per_iter: None,
            limit: None,
            functions: Vec::new(),
            baseline: None,
            base: None,
            valgrind: "valgrind-3.22.0".to_owned(),
            elapsed_s: 0.5,
        });
        let name = t.name.clone();
        let value: Value = serde_json::from_str(&to_string(&report)).unwrap();
        validate(&schema(), &value, "bencher.json").unwrap();
        assert!(value[&name]["latency"].get("upper_value").is_none());
        assert_eq!(
            value[&name]["instructions"],
            serde_json::json!({"value": 1200.0, "lower_value": 1190.0, "upper_value": 1210.0})
        );
    }
}
