//! The complexity check: the test `NAME::complexity` fails when
//! the time's growth over the sizes of `args` is worse than declared, with
//! a margin that keeps noise, constant costs and log factors from failing
//! it. The fit is pure statistics ([`crate::complexity::fit`]); this file
//! decides from it and keeps its record for `report.json`. Its words are
//! [`crate::report::words::complexity`]'s.

use perfmark_options::Complexity;

use crate::checks::{Finding, Record, Source};
use crate::complexity::fit::{self, CandidateFit, GrowthFit, SizedTime};
use crate::complexity::record::{CandidateRecord, ComplexityPoint, ComplexityRecord};
use crate::report::words::complexity as words;
use crate::stats::Interval;

/// Fits `points` and decides the `declared` class at `confidence`.
pub fn decide(points: Vec<ComplexityPoint>, declared: Complexity, confidence: f64) -> Finding {
    let sized: Vec<SizedTime> = points
        .iter()
        .map(|p| SizedTime {
            size: p.size as f64,
            ns: p.ns_per_iter,
            ci: Interval {
                low: p.ci_low,
                high: p.ci_high,
                confidence: p.confidence,
            },
        })
        .collect();
    let mut record = ComplexityRecord {
        declared: declared.as_str().to_owned(),
        fitted: None,
        exponent: None,
        exponent_ci: None,
        declared_exponent: None,
        excess: None,
        excess_low: None,
        margin: fit::MARGIN,
        detectable_excess: None,
        confidence,
        fails: true,
        error: None,
        points,
        candidates: Vec::new(),
    };
    let fit = match fit::fit_growth(&sized, declared, confidence) {
        Ok(fit) => fit,
        Err(e) => {
            let reason = words::not_checked(&e);
            record.error = Some(e.to_string());
            return Finding {
                source: Source::Complexity,
                passed: false,
                reason,
                warnings: Vec::new(),
                record: Some(Record::Complexity(record)),
            };
        }
    };
    let reason = words::reason(&fit);
    let warnings = warnings(&fit, &record);
    record.fitted = Some(fit.fitted.as_str().to_owned());
    record.exponent = Some(fit.exponent);
    record.exponent_ci = Some(fit.exponent_ci);
    record.declared_exponent = Some(fit.declared_exponent);
    record.excess = Some(fit.excess);
    record.excess_low = Some(fit.excess_low);
    record.detectable_excess = Some(fit.detectable_excess);
    record.fails = fit.fails;
    record.candidates = fit.candidates.iter().map(candidate_record).collect();
    Finding {
        source: Source::Complexity,
        passed: !fit.fails,
        reason,
        warnings,
        record: Some(Record::Complexity(record)),
    }
}

fn candidate_record(c: &CandidateFit) -> CandidateRecord {
    CandidateRecord {
        class: c.class.as_str().to_owned(),
        constant_ns: c.constant_ns,
        coefficient_ns: c.coefficient_ns,
        relative_rms: c.relative_rms,
    }
}

/// The warnings `fit` calls for: sizes that could not catch even a whole
/// power of n too many (`detectable_excess` above 1), and a passing check
/// whose best fit grows faster than declared. Their sizes are `record`'s.
fn warnings(fit: &GrowthFit, record: &ComplexityRecord) -> Vec<String> {
    let mut warnings = Vec::new();
    if fit.detectable_excess > 1.0 {
        let (low, high) = record.size_range();
        warnings.push(words::sizes_too_close(low, high, fit.detectable_excess));
    }
    if !fit.fails && fit.fitted > fit.declared {
        warnings.push(words::faster_fit_within_margin(fit.fitted, fit.declared));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(t: impl Fn(f64) -> f64) -> Vec<ComplexityPoint> {
        [100u64, 1000, 10_000, 100_000]
            .iter()
            .map(|&size| {
                let ns = t(size as f64);
                ComplexityPoint {
                    test: format!("f::{size}"),
                    size,
                    ns_per_iter: ns,
                    ci_low: ns * 0.99,
                    ci_high: ns * 1.01,
                    confidence: 0.95,
                }
            })
            .collect()
    }

    #[test]
    fn a_quadratic_routine_declared_linear_fails_and_says_why() {
        let finding = decide(points(|n| n * n), Complexity::Linear, 0.95);
        assert!(!finding.passed);
        assert!(
            finding
                .reason
                .starts_with("declared O(n) does not hold: the time grows n^+1.00 faster than it"),
            "{}",
            finding.reason
        );
        assert!(
            finding.reason.ends_with("best fit O(n^2)"),
            "{}",
            finding.reason
        );
        let Some(Record::Complexity(record)) = finding.record else {
            panic!("a complexity record");
        };
        assert!(record.fails);
        assert_eq!(record.fitted.as_deref(), Some("n^2"));
        let lines = record.lines();
        assert!(
            lines[0].starts_with("fitted O(n^2): time ∝ n^2.00 ["),
            "{lines:?}"
        );
        assert!(lines[0].ends_with("(95% CI) over n = 100 … 100000 (4 sizes)"));
        assert_eq!(
            lines[1],
            "time per iteration: 100 → 10.00 µs · 1000 → 1.000 ms · 10000 → 100.0 ms · 100000 → 10.00 s"
        );
        assert!(lines[2].starts_with("candidates (relative rms of t = a + c·g(n)): 1 "));
    }

    #[test]
    fn a_right_declaration_passes_and_a_log_factor_is_noted() {
        let finding = decide(points(|n| n * n.log2()), Complexity::LinLog, 0.95);
        assert!(finding.passed, "{}", finding.reason);
        assert!(finding
            .reason
            .starts_with("declared O(n log n) holds: the time grows n^+0.00"));
        assert!(finding.warnings.is_empty(), "{:?}", finding.warnings);
        let lenient = decide(points(|n| n * n.log2()), Complexity::Linear, 0.95);
        assert!(lenient.passed);
        assert!(
            lenient.warnings[0]
                .starts_with("the best fit, O(n log n), grows faster than the declared O(n)"),
            "{:?}",
            lenient.warnings
        );
    }

    #[test]
    fn no_fit_fails_with_the_reason() {
        let mut pts = points(|n| n);
        pts.truncate(3);
        let finding = decide(pts, Complexity::Linear, 0.95);
        assert!(!finding.passed);
        assert_eq!(
            finding.reason,
            "complexity not checked: 3 distinct sizes; a growth class is fitted over at least 4"
        );
    }
}
