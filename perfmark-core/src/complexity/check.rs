//! The complexity check: the test `NAME::complexity` fails when
//! the time's growth over the sizes of `args` is worse than declared, with
//! a margin that keeps noise, constant costs and log factors from failing
//! it. The fit is pure statistics ([`crate::complexity::fit`]); this file
//! decides from it and keeps its record for `report.json`.

use super::said::ComplexitySaid;
use perfmark_options::Complexity;

use crate::checks::{Finding, Said, Warning};
use crate::complexity::fit::{self, CandidateFit, GrowthFit, SizedTime};
use crate::complexity::record::{CandidateRecord, ComplexityPoint, ComplexityRecord};
use crate::stats::Interval;

/// Fits `points` and decides the `declared` class at `confidence`.
pub fn decide(points: Vec<ComplexityPoint>, declared: Complexity, confidence: f64) -> Finding {
    let sized: Vec<SizedTime> = points.iter().map(sized_time).collect();
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
        Err(error) => {
            record.error = Some(error.to_string());
            return Finding::new(Said::Complexity(ComplexitySaid::NotFitted {
                record,
                error,
            }));
        }
    };
    let warnings = warnings(&fit, &record);
    record.fitted = Some(fit.fitted.as_str().to_owned());
    record.exponent = Some(fit.exponent);
    record.exponent_ci = Some(fit.exponent_ci);
    record.declared_exponent = Some(fit.declared_exponent);
    record.excess = Some(fit.excess);
    record.excess_low = Some(fit.excess_low);
    record.detectable_excess = Some(fit.detectable_excess);
    record.fails = fit.fails();
    record.candidates = fit.candidates.iter().map(candidate_record).collect();
    Finding {
        said: Said::Complexity(ComplexitySaid::Fitted { record, fit }),
        warnings,
    }
}

/// A point as the fit takes it.
fn sized_time(p: &ComplexityPoint) -> SizedTime {
    SizedTime {
        size: p.size as f64,
        ns: p.ns_per_iter,
        ci: Interval {
            low: p.ci_low,
            high: p.ci_high,
            confidence: p.confidence,
        },
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
fn warnings(fit: &GrowthFit, record: &ComplexityRecord) -> Vec<Warning> {
    let mut warnings = Vec::new();
    if fit.detectable_excess > 1.0 {
        let (low, high) = record.size_range();
        warnings.push(Warning::SizesTooClose {
            low,
            high,
            detectable_excess: fit.detectable_excess,
        });
    }
    if !fit.fails() && fit.fitted > fit.declared {
        warnings.push(Warning::FasterFitWithinMargin {
            fitted: fit.fitted,
            declared: fit.declared,
        });
    }
    warnings
}
