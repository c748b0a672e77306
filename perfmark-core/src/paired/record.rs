//! What `report.json` keeps of a paired comparison: per test
//! ([`ComparisonRecord`]) and for the run ([`RunComparison`]).

use serde::Serialize;

use crate::verdicts::Outcome;

#[cfg(feature = "tool")]
fn one() -> usize {
    1
}

/// `report.json`'s per-test `comparison` object.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ComparisonRecord {
    /// The base build's path.
    pub base: String,
    /// `regressed`, `improved`, `unchanged` (within the tolerance),
    /// `slower_within_tolerance`, `faster_within_tolerance`,
    /// `inconclusive`, `within_layout_spread` (undecided, and no larger
    /// than what layout alone moves) or `sign_depends_on_build`: the
    /// paired subset of [`Outcome`].
    pub change: Outcome,
    /// Whether this check failed the test: filled from the verdict's
    /// decision (`PairedVerdict::fails`).
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

/// `report.json`'s top-level `comparison` object, in compare mode.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
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

/// Why a paired comparison stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum PairedStop {
    /// The interval was clear of the tolerance: a regression, or an upper
    /// bound below `1 + tolerance`.
    Clear,
    /// The interval reached the target precision.
    Precision,
    /// `max_time` would have been exceeded by another process pair.
    MaxTime,
    /// The last look (`max_pairs`) was reached.
    MaxPairs,
}
