//! The paired check (`--compare-with`): the head against the base build,
//! decided from the ratios of slices interleaved in time.
//!
//! Stored-baseline semantics: the head fails when it is slower with
//! one-sided significance at the test's confidence (corrected for the
//! number of compared tests unless `--per-test-confidence`) **and** its
//! point ratio is beyond the tolerance. Improvements are reported, never
//! failed. See docs/paired-comparison.md.

use std::path::Path;

use super::{Check, Finding, Record, Subject};
use crate::json::{Error, FromJson, Object, ToJson, Value};
use crate::measure::paired::{PairedMeasurement, PairedStop};
use crate::stats::paired::PairedChange;

/// `report.json`'s per-test `comparison` object.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparisonRecord {
    /// The base build's path.
    pub base: String,
    /// `regressed`, `improved`, `unchanged` (within the tolerance) or
    /// `inconclusive`.
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
    /// Looks taken at the estimate before stopping.
    pub looks: usize,
    /// Why sampling stopped: `clear`, `precision`, `max_time`, `max_pairs`.
    pub stop: PairedStop,
    /// Time the comparison took, both sides, process starts included, s.
    pub elapsed_s: f64,
}

/// `report.json`'s top-level `comparison` object, in compare mode.
#[derive(Debug, Clone, PartialEq)]
pub struct RunComparison {
    /// The base build's path.
    pub base: String,
    /// Tests compared in this run.
    pub compared: usize,
    /// Whether the confidence was corrected for the number of compared
    /// tests (Bonferroni), so the chance of any false failure in the run is
    /// at most 1 − confidence.
    pub family_wise: bool,
    /// Selected tests of the base that this build does not have.
    pub removed: Vec<String>,
}

impl ToJson for ComparisonRecord {
    fn to_json(&self) -> Value {
        Object::new()
            .with("base", &self.base)
            .with("change", &self.change)
            .with("fails", &self.fails)
            .with("ratio", &self.ratio)
            .with("ratio_low", &self.ratio_low)
            .with("ratio_high", &self.ratio_high)
            .with("confidence", &self.confidence)
            .with("bound_confidence", &self.bound_confidence)
            .with("test_confidence", &self.test_confidence)
            .with("tolerance", &self.tolerance)
            .with("p_slower", &self.p_slower)
            .with("slices", &self.slices)
            .with("process_pairs", &self.process_pairs)
            .with("iters_per_slice", &self.iters_per_slice)
            .with("between_pair_sd", &self.between_pair_sd)
            .with("within_pair_sd", &self.within_pair_sd)
            .with("order_effect", &self.order_effect)
            .with("looks", &self.looks)
            .with("stop", &self.stop)
            .with("elapsed_s", &self.elapsed_s)
            .into()
    }
}

impl FromJson for ComparisonRecord {
    #[inline]
    fn from_json(value: &Value) -> Result<ComparisonRecord, Error> {
        let f = value.fields()?;
        Ok(ComparisonRecord {
            base: f.get("base")?,
            change: f.get("change")?,
            fails: f.get("fails")?,
            ratio: f.get("ratio")?,
            ratio_low: f.get("ratio_low")?,
            ratio_high: f.get("ratio_high")?,
            confidence: f.get("confidence")?,
            bound_confidence: f.get("bound_confidence")?,
            test_confidence: f.get("test_confidence")?,
            tolerance: f.get("tolerance")?,
            p_slower: f.get("p_slower")?,
            slices: f.get("slices")?,
            process_pairs: f.get("process_pairs")?,
            iters_per_slice: f.get("iters_per_slice")?,
            between_pair_sd: f.get("between_pair_sd")?,
            within_pair_sd: f.get("within_pair_sd")?,
            order_effect: f.get("order_effect")?,
            looks: f.get("looks")?,
            stop: f.get("stop")?,
            elapsed_s: f.get("elapsed_s")?,
        })
    }
}

impl ToJson for RunComparison {
    fn to_json(&self) -> Value {
        Object::new()
            .with("base", &self.base)
            .with("compared", &self.compared)
            .with("family_wise", &self.family_wise)
            .with("removed", &self.removed)
            .into()
    }
}

impl FromJson for RunComparison {
    #[inline]
    fn from_json(value: &Value) -> Result<RunComparison, Error> {
        let f = value.fields()?;
        Ok(RunComparison {
            base: f.get("base")?,
            compared: f.get("compared")?,
            family_wise: f.get("family_wise")?,
            removed: f.get("removed")?,
        })
    }
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
                looks: pm.looks,
                stop: pm.stop,
                elapsed_s: pm.elapsed_ns / 1e9,
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_written_as_before() {
        use crate::json::testing;
        let record = ComparisonRecord {
            base: "/b/perf".into(),
            change: PairedChange::Regressed,
            fails: true,
            ratio: 1.25,
            ratio_low: 1.125,
            ratio_high: 1.5,
            confidence: 0.975,
            bound_confidence: 0.99,
            test_confidence: 0.95,
            tolerance: 0.05,
            p_slower: 0.001,
            slices: 40,
            process_pairs: 2,
            iters_per_slice: 1000,
            between_pair_sd: 0.01,
            within_pair_sd: 0.02,
            order_effect: -0.5,
            looks: 3,
            stop: PairedStop::Clear,
            elapsed_s: 2.5,
        };
        testing::round_trips(&record);
        assert_eq!(
            testing::text(&record),
            r#"{"base":"/b/perf","change":"regressed","fails":true,"ratio":1.25,"ratio_low":1.125,"ratio_high":1.5,"confidence":0.975,"bound_confidence":0.99,"test_confidence":0.95,"tolerance":0.05,"p_slower":0.001,"slices":40,"process_pairs":2,"iters_per_slice":1000,"between_pair_sd":0.01,"within_pair_sd":0.02,"order_effect":-0.5,"looks":3,"stop":"clear","elapsed_s":2.5}"#
        );
        for (change, stop) in [
            (PairedChange::Improved, PairedStop::Precision),
            (PairedChange::Unchanged, PairedStop::MaxTime),
            (PairedChange::Inconclusive, PairedStop::MaxPairs),
        ] {
            testing::round_trips(&ComparisonRecord {
                change,
                stop,
                fails: false,
                ..record.clone()
            });
        }
        // No estimate: its figures are NaN, written as null and read as NaN.
        let bare = ComparisonRecord {
            ratio: f64::NAN,
            ratio_low: f64::NAN,
            ..record.clone()
        };
        assert!(testing::text(&bare).contains(r#""ratio":null,"ratio_low":null,"#));
        let back: ComparisonRecord = testing::read(&testing::text(&bare));
        assert!(back.ratio.is_nan() && back.ratio_low.is_nan());
        assert_eq!(back.ratio_high, 1.5);

        let run = RunComparison {
            base: "/b/perf".into(),
            compared: 3,
            family_wise: true,
            removed: vec!["gone".into()],
        };
        testing::round_trips(&run);
        testing::round_trips(&RunComparison {
            removed: Vec::new(),
            family_wise: false,
            ..run.clone()
        });
        assert_eq!(
            testing::text(&run),
            r#"{"base":"/b/perf","compared":3,"family_wise":true,"removed":["gone"]}"#
        );
    }
}
