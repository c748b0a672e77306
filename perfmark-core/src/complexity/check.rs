//! The complexity check: the test `NAME::complexity` fails when
//! the time's growth over the sizes of `args` is worse than declared, with
//! a margin that keeps noise, constant costs and log factors from failing
//! it. The fit is pure statistics ([`crate::complexity::fit`]); this file
//! decides from it and keeps its record for `report.json`.

use super::said::ComplexitySaid;
use perfmark_options::Complexity;

use crate::checks::{Finding, Said, Warning};
use crate::complexity::fit::{self, GrowthFit, SizedTime};
use crate::complexity::record::{ComplexityPoint, ComplexityRecord};

/// Fits `points` and decides the `declared` class at `confidence`.
pub fn decide(points: Vec<ComplexityPoint>, declared: Complexity, confidence: f64) -> Finding {
    let sized: Vec<SizedTime> = points.iter().map(sized_time).collect();
    match fit::fit_growth(&sized, declared, confidence) {
        Ok(fit) => {
            let record = ComplexityRecord::fitted(points, confidence, &fit);
            Finding {
                warnings: warnings(&fit, &record),
                said: Said::Complexity(ComplexitySaid::Fitted { record, fit }),
            }
        }
        Err(error) => Finding::new(Said::Complexity(ComplexitySaid::NotFitted {
            record: ComplexityRecord::not_fitted(points, declared, confidence, &error),
            error,
        })),
    }
}

/// A point as the fit takes it.
fn sized_time(p: &ComplexityPoint) -> SizedTime {
    SizedTime {
        size: p.size as f64,
        ns: p.ns_per_iter,
        ci: p.ci,
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
