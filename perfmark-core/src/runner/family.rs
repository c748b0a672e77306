//! Run-level control of false failures: one setting for both verdict kinds
//! (budget and regression, against a stored baseline or a base build).
//!
//! The family is every verdict the run will decide, counted before the
//! first test runs: a budget for each measured test that has one, and a
//! regression for each measured test with a stored baseline from this
//! machine (or, when comparing builds, present in the base). With the
//! setting on, each test is measured and decided at
//! [`bonferroni_confidence`]`(c, m)` for its own confidence `c`, so the
//! chance of any false failure in the run is at most `1 − c`. Bonferroni,
//! not Holm: libtest prints each verdict as its test finishes, and Holm
//! would need every p-value first (see `stats/family.rs`).

use std::collections::BTreeSet;

use crate::report::FamilyWise;
use crate::stats::bonferroni_confidence;

/// The run's family of verdicts and whether it is corrected for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Family {
    /// Whether the setting is on.
    pub enabled: bool,
    /// Verdicts the run will decide.
    pub verdicts: usize,
    /// The tests that decide at least one of them.
    deciding: BTreeSet<String>,
}

impl Family {
    /// The family of a run from each measured test's name and the number
    /// of verdicts it will decide (0, 1 or 2).
    pub fn new(enabled: bool, tests: impl IntoIterator<Item = (String, usize)>) -> Family {
        let mut verdicts = 0;
        let mut deciding = BTreeSet::new();
        for (name, count) in tests {
            if count > 0 {
                verdicts += count;
                deciding.insert(name);
            }
        }
        Family {
            enabled,
            verdicts,
            deciding,
        }
    }

    /// Whether the levels are corrected: on, and more than one verdict.
    pub fn corrects(&self) -> bool {
        self.enabled && self.verdicts > 1
    }

    /// The level the test `name`, whose own confidence is `c`, is measured
    /// and decided at: corrected when the setting is on and the test
    /// decides a verdict of the family; its own otherwise (a test measured
    /// only, with no budget and no baseline, keeps its level and its time).
    pub fn confidence(&self, name: &str, c: f64) -> f64 {
        if self.enabled && self.deciding.contains(name) {
            bonferroni_confidence(c, self.verdicts)
        } else {
            c
        }
    }

    /// The correction in words, for the header.
    pub fn words(&self) -> String {
        if self.corrects() {
            format!(
                "family-wise over {m} verdicts (Bonferroni): each at 1 − (1 − c)/{m}, {:.2}% for \
                 c = 0.95, so the run fails falsely at most 1 − c of the time",
                bonferroni_confidence(0.95, self.verdicts) * 100.0,
                m = self.verdicts,
            )
        } else if self.verdicts > 1 {
            format!(
                "each of {} verdicts at its test's own confidence (--family-wise to keep it for \
                 the run as a whole)",
                self.verdicts
            )
        } else {
            "each test at its own confidence".to_owned()
        }
    }

    /// `report.json`'s top-level `family_wise`.
    pub fn record(&self) -> FamilyWise {
        FamilyWise {
            enabled: self.corrects(),
            verdicts: self.verdicts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_corrects_only_a_family() {
        let tests = |n: usize| {
            (0..n)
                .map(|i| (format!("t{i}"), 1))
                .chain([("bare".into(), 0)])
        };
        let on = Family::new(true, tests(64));
        assert!(on.corrects());
        assert_eq!(on.verdicts, 64);
        assert!((on.confidence("t3", 0.95) - 0.999_218_75).abs() < 1e-12);
        // A test with no verdict keeps its own level.
        assert_eq!(on.confidence("bare", 0.95), 0.95);
        assert!(on.words().contains("99.92% for c = 0.95"), "{}", on.words());
        let off = Family::new(false, tests(64));
        assert_eq!(off.confidence("t3", 0.95), 0.95);
        assert!(off.words().contains("--family-wise"));
        let single = Family::new(true, tests(1));
        assert!(!single.corrects());
        assert_eq!(single.confidence("t0", 0.99), 0.99);
        assert!(!single.record().enabled);
        // A test with a budget and a baseline decides two verdicts.
        let both = Family::new(true, [("a".to_owned(), 2), ("b".to_owned(), 1)]);
        assert_eq!(both.verdicts, 3);
    }
}
