//! The paired check (`--compare-with`): the head against the base build,
//! decided from the ratios of slices interleaved in time.
//!
//! Stored-baseline semantics: the head fails when it is slower with
//! one-sided significance at the test's confidence (corrected for the
//! number of compared tests unless `--per-test-confidence`) **and** its
//! point ratio is beyond the tolerance. Improvements are reported, never
//! failed. See docs/design/paired-comparison.md.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::checks::{Check, Finding, Record, Source, Subject};
use crate::paired::measure::{PairedMeasurement, PairedStop};
use crate::paired::stats::PairedChange;

fn one() -> usize {
    1
}

/// `report.json`'s per-test `comparison` object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ComparisonRecord {
    /// The base build's path.
    pub base: String,
    /// `regressed`, `improved`, `unchanged` (within the tolerance),
    /// `inconclusive`, or `within_layout_spread` (undecided, and no larger
    /// than what layout alone moves).
    pub change: PairedChange,
    /// Whether this check failed the test.
    pub fails: bool,
    /// Head time over base time (geometric mean of the paired ratios).
    pub ratio: f64,
    /// The interval of the ratio: each bound is a one-sided bound at
    /// `bound_confidence`.
    pub ratio_low: f64,
    /// See `ratio_low`.
    pub ratio_high: f64,
    /// The one-sided confidence the test was decided at over all its looks
    /// (the test's own, corrected for the number of compared tests).
    pub confidence: f64,
    /// The one-sided level of the bounds at the look that stopped: the share
    /// of `1 − confidence` the look schedule gave it.
    pub bound_confidence: f64,
    /// The test's own confidence, before the family-wise correction.
    pub test_confidence: f64,
    /// The tolerance, as a fraction.
    pub tolerance: f64,
    /// One-sided p-value of "the head is not slower", adjusted for the looks.
    pub p_slower: f64,
    /// Slice pairs used.
    pub slices: usize,
    /// Process pairs (one head and one base worker each).
    pub process_pairs: usize,
    /// Iterations in every slice, both sides.
    pub iters_per_slice: u64,
    /// Standard deviation of the per-pair mean log ratios.
    pub between_pair_sd: f64,
    /// Standard deviation of the log ratios within a pair.
    pub within_pair_sd: f64,
    /// Mean log ratio when the head ran second less when it ran first.
    pub order_effect: f64,
    /// How much where the code and data land moves one build's time: an sd
    /// on the log scale (≈ relative), from the spread between process
    /// pairs beyond the noise within them (each pair drew its links and
    /// its workers' stack and heap offsets).
    #[serde(default)]
    pub layout_sd: f64,
    /// Links of each build cycled through: the process pairs that shared
    /// links were pooled into one unit of replication.
    #[serde(default = "one")]
    pub layouts: usize,
    /// Looks taken at the estimate before stopping.
    pub looks: usize,
    /// Why sampling stopped: `clear`, `precision`, `max_time`, `max_pairs`.
    pub stop: PairedStop,
    /// Time the comparison took, both sides, process starts included, s.
    pub elapsed_s: f64,
}

impl ComparisonRecord {
    /// The test's layout sensitivity in words, e.g. `layout: ±2.1% (sd of
    /// one build's time over 10 links and its workers' stack and heap
    /// offsets)`; `None` without an estimate.
    pub fn layout_line(&self) -> Option<String> {
        if !self.layout_sd.is_finite() {
            return None;
        }
        let over = if self.layouts > 1 {
            format!("{} links and its workers' stack and heap offsets", self.layouts)
        } else {
            "its workers' stack and heap offsets, one link".to_owned()
        };
        Some(format!(
            "layout: ±{:.1}% (sd of one build's time over {over})",
            100.0 * self.layout_sd.exp_m1()
        ))
    }
}

/// `report.json`'s top-level `comparison` object, in compare mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunComparison {
    /// The base build's path (its first link).
    pub base: String,
    /// Links of the head build the workers ran from (the same code, its
    /// functions in other orders; 1 when it was not linked again).
    #[serde(default = "one")]
    pub head_links: usize,
    /// Links of the base build.
    #[serde(default = "one")]
    pub base_links: usize,
    /// Tests compared in this run.
    pub compared: usize,
    /// Whether the confidence was corrected for the number of compared
    /// tests (Bonferroni), so the chance of any false failure in the run is
    /// at most 1 − confidence.
    pub family_wise: bool,
    /// Selected tests of the base that this build does not have.
    pub removed: Vec<String>,
    /// Whether this build (the head) has its code layout pinned: every
    /// function aligned to 64 bytes, as `cargo perfmark compare` builds.
    #[serde(default)]
    pub head_pinned: bool,
    /// The same for the base.
    #[serde(default)]
    pub base_pinned: bool,
}

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
        if verdict.change == PairedChange::Inconclusive {
            warnings.push(format!(
                "the paired comparison stopped ({:?}) before its interval cleared the {:.0}% \
                 tolerance either way: raise max_time for this test to decide it",
                pm.stop,
                subject.tolerance * 100.0
            ));
        }
        let nan = f64::NAN;
        let e = pm.estimate.as_ref();
        Some(Finding {
            source: Source::Paired,
            passed: !verdict.fails,
            reason: pm.summary_line(&verdict),
            warnings,
            record: Some(Record::Comparison(ComparisonRecord {
                base: self.base.display().to_string(),
                change: verdict.change,
                fails: verdict.fails,
                ratio: e.map_or(nan, |e| e.ratio),
                ratio_low: e.map_or(nan, |e| e.lower_one_sided),
                ratio_high: e.map_or(nan, |e| e.upper_one_sided),
                confidence: self.confidence,
                bound_confidence: pm.final_confidence,
                test_confidence: self.test_confidence,
                tolerance: subject.tolerance,
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
            })),
        })
    }
}
