//! The complexity check: the test `NAME::complexity` fails when
//! the time's growth over the sizes of `args` is worse than declared, with
//! a margin that keeps noise, constant costs and log factors from failing
//! it. The fit is pure statistics ([`crate::complexity::fit`]); this file
//! decides from it, words it, and keeps its record for `report.json`.

use perfmark_options::Complexity;

use crate::checks::{Finding, Record, Source};
use crate::report::fmt::{fmt_ns, fmt_percent};
use crate::complexity::fit::{self, CandidateFit, GrowthFit, SizedTime};
use crate::stats::Interval;

/// One argument's test as the check used it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ComplexityPoint {
    /// The argument's test, e.g. `sort::1000`.
    pub test: String,
    /// Its size (`perfmark::Size` of the argument).
    pub size: u64,
    /// Its estimate, ns per iteration.
    pub ns_per_iter: f64,
    /// Lower end of the estimate's CI, ns per iteration.
    #[serde(deserialize_with = "crate::stats::null_as_neg_infinity")]
    pub ci_low: f64,
    /// Upper end of the estimate's CI, ns per iteration.
    #[serde(deserialize_with = "crate::stats::null_as_infinity")]
    pub ci_high: f64,
    /// The CI's confidence level.
    pub confidence: f64,
}

/// One candidate class's fit, `t = constant + coefficient · g(n)`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CandidateRecord {
    /// The class as written: `1`, `log n`, `n`, `n log n`, `n^2`, `n^3`.
    pub class: String,
    /// The constant, ns per iteration.
    pub constant_ns: f64,
    /// The coefficient of `g(n)` (log₂ for the log classes), ns.
    pub coefficient_ns: f64,
    /// RMS of the relative residuals, as a fraction.
    pub relative_rms: f64,
}

/// What `report.json` keeps of a complexity decision (the `complexity`
/// object of a `NAME::complexity` test).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ComplexityRecord {
    /// The declared class as written: `n log n`.
    pub declared: String,
    /// The best-fitting class, when a fit was made.
    pub fitted: Option<String>,
    /// The exponent k of `time ∝ n^k` over the sizes.
    pub exponent: Option<f64>,
    /// Its two-sided CI, at `confidence`.
    pub exponent_ci: Option<Interval>,
    /// The declared class's own exponent over the same sizes.
    pub declared_exponent: Option<f64>,
    /// How much faster than declared the time grows, as a power of n.
    pub excess: Option<f64>,
    /// The one-sided lower confidence bound of `excess`.
    pub excess_low: Option<f64>,
    /// The margin the bound must exceed to fail ([`fit::MARGIN`]).
    pub margin: f64,
    /// The smallest excess these sizes could have caught.
    pub detectable_excess: Option<f64>,
    /// The test's confidence level.
    pub confidence: f64,
    /// Whether the check failed.
    pub fails: bool,
    /// Why no fit was made, when none was.
    pub error: Option<String>,
    /// Each argument's test: size and estimate.
    pub points: Vec<ComplexityPoint>,
    /// Every candidate class's fit, slowest-growing first.
    pub candidates: Vec<CandidateRecord>,
}

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
            let reason = format!("complexity not checked: {e}");
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
    let reason = reason(&fit);
    let warnings = warnings(&fit, &record.points);
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

/// `n^+0.02`.
fn power(exponent: f64) -> String {
    format!("n^{:+.2}", two_decimals(exponent))
}

/// `x` rounded to two decimals, with no negative zero (`-0.001` prints as
/// `0.00`, not `-0.00`).
fn two_decimals(x: f64) -> f64 {
    (x * 100.0).round() / 100.0 + 0.0
}

/// The verdict in one sentence.
fn reason(fit: &GrowthFit) -> String {
    let level = fmt_percent(fit.exponent_ci.confidence, 0);
    let margin = format!("n^{}", fit::MARGIN);
    if fit.fails {
        format!(
            "declared {} does not hold: the time grows {} faster than it ({level} lower bound \
             {}), beyond the margin {margin}; best fit {}",
            fit.declared,
            power(fit.excess),
            power(fit.excess_low),
            fit.fitted
        )
    } else {
        format!(
            "declared {} holds: the time grows {} beyond it ({level} lower bound {}), within the \
             margin {margin}",
            fit.declared,
            power(fit.excess),
            power(fit.excess_low),
        )
    }
}

fn warnings(fit: &GrowthFit, points: &[ComplexityPoint]) -> Vec<String> {
    let mut warnings = Vec::new();
    if fit.detectable_excess > 1.0 {
        let (low, high) = size_range(points);
        warnings.push(format!(
            "sizes {low} … {high} are too few or too close together to catch even a whole power \
             of n too many (these could only catch {} beyond the declared class): spread the \
             args over a wider range, such as four sizes a decade apart",
            power(fit.detectable_excess)
        ));
    }
    if !fit.fails && fit.fitted > fit.declared {
        warnings.push(format!(
            "the best fit, {}, grows faster than the declared {}, by less than the margin: \
             log factors and the cache hierarchy look alike at these sizes",
            fit.fitted, fit.declared
        ));
    }
    warnings
}

fn size_range(points: &[ComplexityPoint]) -> (u64, u64) {
    let low = points.iter().map(|p| p.size).min().unwrap_or(0);
    let high = points.iter().map(|p| p.size).max().unwrap_or(0);
    (low, high)
}

impl ComplexityRecord {
    /// The lines the console prints under the test, before its reason:
    /// the fitted class and exponent with its CI, the time at each size,
    /// and each candidate's fit.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let (low, high) = size_range(&self.points);
        if let (Some(fitted), Some(k), Some(ci)) = (&self.fitted, self.exponent, self.exponent_ci) {
            lines.push(format!(
                "fitted O({fitted}): time ∝ n^{:.2} [{:.2}, {:.2}] ({} CI) over n = {low} … {high} \
                 ({} sizes)",
                two_decimals(k),
                two_decimals(ci.low),
                two_decimals(ci.high),
                fmt_percent(ci.confidence, 0),
                self.points.len()
            ));
        }
        if !self.points.is_empty() {
            let mut points = self.points.clone();
            points.sort_by_key(|p| p.size);
            let times: Vec<String> = points
                .iter()
                .map(|p| format!("{} → {}", p.size, fmt_ns(p.ns_per_iter)))
                .collect();
            lines.push(format!("time per iteration: {}", times.join(" · ")));
        }
        if !self.candidates.is_empty() {
            let fits: Vec<String> = self
                .candidates
                .iter()
                .map(|c| format!("{} {}", c.class, fmt_percent(c.relative_rms, 1)))
                .collect();
            lines.push(format!(
                "candidates (relative rms of t = a + c·g(n)): {}",
                fits.join(" · ")
            ));
        }
        lines
    }
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
