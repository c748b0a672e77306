//! The paired check (`--compare-with`): the head against the base build,
//! decided from the ratios of slices interleaved in time.
//!
//! Stored-baseline semantics: the head fails when it is slower with
//! one-sided significance at the test's confidence (corrected for the
//! number of compared tests unless `--per-test-confidence`) **and** its
//! point ratio is beyond the tolerance. Improvements are reported, never
//! failed. See docs/design/paired-comparison.md.

use super::said::PairedSaid;
use std::path::Path;

use crate::checks::{Check, Finding, Said, Subject, Warning};
use crate::paired::measure::PairedMeasurement;
use crate::paired::record::ComparisonRecord;
use crate::verdicts::Outcome;

/// The paired check of one test.
#[derive(Debug)]
pub struct Paired<'a> {
    measurement: &'a PairedMeasurement,
    base: &'a Path,
    confidence: f64,
    test_confidence: f64,
}

impl<'a> Paired<'a> {
    /// The check of `measurement` against `base`, decided at the one-sided
    /// `confidence` (the test's own `test_confidence`, corrected or not).
    pub fn new(
        measurement: &'a PairedMeasurement,
        base: &'a Path,
        confidence: f64,
        test_confidence: f64,
    ) -> Self {
        Paired {
            measurement,
            base,
            confidence,
            test_confidence,
        }
    }
}

impl Check for Paired<'_> {
    fn check(&self, subject: &Subject<'_>) -> Option<Finding> {
        let pm = self.measurement;
        let verdict = pm.verdict;
        let mut warnings = Vec::new();
        if verdict.change == Outcome::Inconclusive {
            warnings.push(Warning::PairedUndecided {
                stop: pm.stop,
                tolerance: subject.tolerance,
            });
        }
        Some(Finding {
            said: Said::Paired(PairedSaid::Compared {
                record: Box::new(self.record(subject.tolerance)),
                estimate: pm.estimate.map(Box::new),
                verdict,
            }),
            warnings,
        })
    }
}

impl Paired<'_> {
    /// What `report.json` keeps of the comparison, at `tolerance`.
    fn record(&self, tolerance: f64) -> ComparisonRecord {
        let pm = self.measurement;
        let verdict = pm.verdict;
        let nan = f64::NAN;
        let e = pm.estimate.as_ref();
        ComparisonRecord {
            base: self.base.display().to_string(),
            change: verdict.change,
            fails: verdict.fails(),
            ratio: e.map_or(nan, |e| e.ratio),
            ratio_low: e.map_or(nan, |e| e.lower_one_sided),
            ratio_high: e.map_or(nan, |e| e.upper_one_sided),
            confidence: self.confidence,
            bound_confidence: pm.final_confidence,
            test_confidence: self.test_confidence,
            tolerance,
            p_slower: pm.p_slower,
            slices: pm.slice_pairs.len(),
            process_pairs: e.map_or(pm.pairs_opened, |e| e.process_pairs),
            iters_per_slice: pm.iters_per_slice,
            between_pair_sd: e.map_or(nan, |e| e.between_pair_sd),
            within_pair_sd: e.map_or(nan, |e| e.within_pair_sd),
            order_effect: pm.order_effect.unwrap_or(nan),
            layout_sd: e.map_or(nan, |e| e.layout_sd),
            layouts: pm.layouts,
            looks: pm.looks,
            stop: pm.stop,
            elapsed_s: pm.elapsed_ns / 1e9,
        }
    }
}
