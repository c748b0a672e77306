//! Run-level control of false failures: one setting for both verdict kinds
//! (budget and regression, against a stored baseline or a base build).
//!
//! The family is every verdict the run will decide, counted before the
//! first test runs: a budget for each measured test that has one, and a
//! regression for each measured test with a stored baseline from this
//! machine (or, when comparing builds, present in the base). With the
//! setting on, each test is measured and decided at
//! [`bonferroni_confidence`]`(c, m)` for its own confidence `c`.
//!
//! What that bounds is narrower than "the run": a verdict decided by its CI
//! (a budget whose CI cleared the line, a regression's significance test)
//! fails falsely at most `(1 − c)/m` of the time, so all of them together
//! at most `1 − c`. A budget whose CI still straddled the line when
//! sampling stopped is decided on the point estimate, at about even odds
//! when the true time sits on the line: no level bounds it. A complexity
//! verdict (`NAME::complexity`) is decided at its test's own confidence
//! and is not counted. [`Family::statement`] says exactly that, once, in
//! the footer of a run that corrects. Bonferroni, not Holm: libtest prints
//! each verdict as its test finishes, and Holm would need every p-value
//! first (see `stats/family.rs`).

use std::collections::BTreeMap;

use crate::report::{FamilyBound, FamilyWise, TestReport};
use crate::stats::bonferroni_confidence;

/// The run's family of verdicts and whether it is corrected for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Family {
    /// Whether the setting is on.
    pub enabled: bool,
    /// Verdicts the run will decide.
    pub verdicts: usize,
    /// Of them, regressions against a stored baseline or the base build.
    pub regressions: usize,
    /// The tests that decide at least one of them, with how many.
    deciding: BTreeMap<String, usize>,
}

impl Family {
    /// The family of a run from each measured test's name, whether it has
    /// a budget, and whether it will be compared (with a stored baseline
    /// or the base build).
    pub fn new(enabled: bool, tests: impl IntoIterator<Item = (String, bool, bool)>) -> Family {
        let mut verdicts = 0;
        let mut regressions = 0;
        let mut deciding = BTreeMap::new();
        for (name, budget, regression) in tests {
            let count = usize::from(budget) + usize::from(regression);
            verdicts += count;
            regressions += usize::from(regression);
            if count > 0 {
                deciding.insert(name, count);
            }
        }
        Family {
            enabled,
            verdicts,
            regressions,
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
        if self.enabled && self.deciding.contains_key(name) {
            bonferroni_confidence(c, self.verdicts)
        } else {
            c
        }
    }

    /// What the correction bounded in the run whose tests are `reports`,
    /// for the footer; `None` when the run does not correct. The bound is
    /// the sum of the levels' complements over every verdict the run
    /// planned (Bonferroni's inequality), whether or not its CI decided:
    /// which verdicts a CI decides depends on the data, so a sum over the
    /// decided ones alone would be no bound. It is `1 − c` when every test
    /// has the same `c`.
    pub fn bound(&self, reports: &[TestReport]) -> Option<FamilyBound> {
        if !self.corrects() {
            return None;
        }
        let mut bound = 0.0;
        let mut straddled = 0usize;
        for t in reports {
            let Some(&count) = self.deciding.get(&t.name) else {
                continue;
            };
            if let Some(e) = &t.estimate {
                bound += count as f64 * (1.0 - e.ci.confidence);
            }
            if t.budget.as_ref().is_some_and(|b| b.inconclusive()) {
                straddled += 1;
            }
        }
        Some(FamilyBound {
            verdicts: self.verdicts,
            bound,
            straddled,
            complexity: reports.iter().filter(|t| t.complexity.is_some()).count(),
        })
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
                .map(|i| (format!("t{i}"), true, false))
                .chain([("bare".into(), false, false)])
        };
        let on = Family::new(true, tests(64));
        assert!(on.corrects());
        assert_eq!(on.verdicts, 64);
        assert!((on.confidence("t3", 0.95) - 0.999_218_75).abs() < 1e-12);
        // A test with no verdict keeps its own level.
        assert_eq!(on.confidence("bare", 0.95), 0.95);
        let on_words = crate::report::words::runner::verdicts(on.record());
        assert!(on_words.contains("99.92% for c = 0.95"), "{on_words}");
        assert!(!on_words.contains("falsely"), "{on_words}");
        let off = Family::new(false, tests(64));
        assert_eq!(off.confidence("t3", 0.95), 0.95);
        assert!(crate::report::words::runner::verdicts(off.record()).contains("--family-wise"));
        let single = Family::new(true, tests(1));
        assert!(!single.corrects());
        assert_eq!(single.confidence("t0", 0.99), 0.99);
        assert!(!single.record().enabled);
        // A test with a budget and a baseline decides two verdicts.
        let both = Family::new(
            true,
            [("a".to_owned(), true, true), ("b".to_owned(), true, false)],
        );
        assert_eq!(both.verdicts, 3);
        assert_eq!(both.regressions, 1);
    }

    #[test]
    fn the_statement_bounds_every_planned_verdict() {
        use crate::budget::BudgetRecord;
        use crate::checks::Verdict;
        use crate::report::fixtures;
        use crate::verdicts::Outcome;
        let family = Family::new(true, (0..4).map(|i| (format!("t{i}"), true, false)));
        let level = bonferroni_confidence(0.95, 4);
        let reports: Vec<TestReport> = (0..4)
            .map(|i| {
                let mut t = fixtures::realistic().tests[0].clone();
                t.name = format!("t{i}");
                t.verdict = Verdict::Pass;
                t.estimate.as_mut().unwrap().ci.confidence = level;
                t.budget = Some(BudgetRecord {
                    budget_ns: 50.0,
                    // One straddled its budget: decided on the estimate.
                    outcome: if i == 3 {
                        Outcome::InconclusiveUnder
                    } else {
                        Outcome::Under
                    },
                    ratio: 0.8,
                    look: None,
                    may_flip: false,
                });
                t
            })
            .collect();
        let bound = family.bound(&reports).expect("the run corrects");
        let words = crate::report::words::runner::family_statement(&bound);
        // Four verdicts at 1.25% each: the straddled one's level counts
        // too, since which verdicts a CI decides depends on the data.
        assert!(
            words.contains("any of them failed falsely by its CI is at most 5%"),
            "{words}"
        );
        assert!(
            words.contains("not covered: 1 budget whose CI straddled the line"),
            "{words}"
        );
        assert!(!words.contains("complexity"), "{words}");
        // Not correcting: nothing to state.
        let off = Family::new(false, (0..4).map(|i| (format!("t{i}"), true, false)));
        assert!(off.bound(&reports).is_none());
    }
}
