//! When the adaptive sampler looks at a budget, and at what level.
//!
//! The budget verdict (docs/verdicts.md) keeps sampling while the CI
//! straddles the budget. Testing the ordinary CI again and again as samples
//! come in is optional stopping: each look is another chance for a CI that
//! misses the truth to clear the budget on the wrong side. Measured through the
//! sampler (`tests/budget_simulation.rs`, docs/design/budget-rule.md), re-testing
//! after every sample calls a test whose truth *equals* its budget "over
//! budget" in 10–11% of runs at the default 3 s `max_time`, against the 2.5% a
//! 95% CI promises on one side; the looks below keep it at 2.1–2.4%
//! (docs/design/measurements.md gives the commands).
//!
//! The cure is the one group-sequential tests use (Pocock 1977; Jennison and
//! Turnbull, *Group Sequential Methods*, 2000, on repeated confidence
//! intervals): a bounded number of looks fixed in advance, and the error rate
//! `α = 1 − confidence` split between them. Here:
//! - look 1 comes when the CI first reaches the target precision (the
//!   sampler's normal stop), looks 2 to 5 at 2, 4, 8 and 16 times that many
//!   samples ([`INTERIM_LOOKS`], [`LOOK_GROWTH`]), while `max_time` allows;
//!   each spends [`INTERIM_SHARE`] (1/32) of `α`;
//! - the last look comes at `max_time` (or the sample cap), whenever it
//!   comes, and spends what the looks before it left — all of `α` when the
//!   precision was never reached and it is the only look;
//! - a look at share `w` decides on the verdict statistic's two-sided CI at
//!   level `1 − α·w`.
//!
//! By Bonferroni's inequality the chance that any look's CI lies wholly on
//! the wrong side of the truth is at most the sum of the shares times `α/2`
//! per side, so a test exactly on its budget is called over budget at most
//! `α/2` of the time however the looks fall: the budget verdict holds the
//! test's confidence. The paired comparison splits its `α` the same way
//! ([`crate::paired::stats::LookSchedule`]).

use serde::Serialize;

use crate::stats::{self, Interval, Statistic};

/// Looks before the last one (the one at `max_time`): with [`LOOK_GROWTH`]
/// they reach 16 times the samples of the first, about what the default
/// 3 s `max_time` holds when the precision is reached after 100 samples.
pub const INTERIM_LOOKS: usize = 5;
/// Share of `α = 1 − confidence` each interim look spends; the last look
/// spends the rest (at least `1 − INTERIM_LOOKS · INTERIM_SHARE` = 27/32).
/// Small early shares keep most of `α` for the look with the most samples,
/// where a test on its budget ends (an O'Brien–Fleming-like split), and
/// make early stops of such a test rare, which keeps the printed CI's
/// coverage there at 94.5–95.3%. Against three looks at 1/8 or 1/16, five
/// at 1/32 also decided a test 0.5% from its budget in about 1,000 samples
/// instead of 1,530–1,740 (docs/design/budget-rule.md).
pub const INTERIM_SHARE: f64 = 0.03125;
/// Samples grow by this factor from one interim look to the next.
pub const LOOK_GROWTH: usize = 2;

/// The look at the budget a test was decided on: which look, and the CI it
/// decided with.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct BudgetLook {
    /// Which look: 1 for the first.
    pub look: usize,
    /// Most looks the schedule allows: the interim looks and the last.
    pub max_looks: usize,
    /// Whether it was the last look (at `max_time` or the sample cap),
    /// where a CI that still straddles the budget is inconclusive.
    pub last: bool,
    /// The verdict statistic's CI at this look, at the look's level
    /// (`ci.confidence`), read at the measurement's resolution
    /// ([`stats::at_resolution`]).
    pub ci: Interval,
}

impl BudgetLook {
    /// Whether the look decided the budget: its CI does not straddle it.
    pub fn clears(&self, budget_ns: f64) -> bool {
        !self.ci.straddles(budget_ns)
    }
}

/// The looks of one measurement: how much of `α` is spent, and the next.
#[derive(Debug, Clone)]
pub(crate) struct BudgetLooks {
    confidence: f64,
    /// The verdict statistic, whose CI each look reads.
    statistic: Statistic,
    taken: usize,
    spent: f64,
}

impl BudgetLooks {
    /// The schedule for a test at two-sided `confidence`, decided on
    /// `statistic` (the measurement's verdict statistic).
    pub(crate) fn new(confidence: f64, statistic: Statistic) -> Self {
        BudgetLooks {
            confidence,
            statistic,
            taken: 0,
            spent: 0.0,
        }
    }

    /// Whether an interim look is still to come.
    pub(crate) fn interim_left(&self) -> bool {
        self.taken < INTERIM_LOOKS
    }

    /// Takes the next look at `samples_ns`: an interim look (its share), or
    /// the last (the share left). `resolution_ns` is the measurement's
    /// resolution per iteration.
    pub(crate) fn look(
        &mut self,
        samples_ns: &[f64],
        resolution_ns: f64,
        last: bool,
    ) -> BudgetLook {
        let share = if last || !self.interim_left() {
            1.0 - self.spent
        } else {
            INTERIM_SHARE
        };
        self.spent += share;
        self.taken += 1;
        let level = 1.0 - (1.0 - self.confidence) * share;
        let estimate = stats::estimate_with(samples_ns, level, self.statistic);
        let read = stats::at_resolution(&estimate, resolution_ns);
        BudgetLook {
            look: self.taken,
            max_looks: INTERIM_LOOKS + 1,
            last,
            ci: read.estimate.ci,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up_to_alpha_whatever_the_looks() {
        let samples: Vec<f64> = (0..200).map(|i| 100.0 + (i * 37 % 11) as f64).collect();
        // Five interim looks, then the last: levels 1 − α/32 ×5, 1 − 27α/32.
        let mut looks = BudgetLooks::new(0.95, Statistic::default());
        let levels: Vec<f64> = (0..6)
            .map(|i| looks.look(&samples, 0.0, i == 5).ci.confidence)
            .collect();
        let alpha_spent: f64 = levels.iter().map(|l| 1.0 - l).sum();
        assert!((alpha_spent - 0.05).abs() < 1e-12, "{levels:?}");
        assert!((levels[0] - (1.0 - 0.05 / 32.0)).abs() < 1e-12);
        assert!((levels[5] - (1.0 - 0.05 * 27.0 / 32.0)).abs() < 1e-12);
        // Only the last look, when precision was never reached: the
        // test's own level.
        let mut looks = BudgetLooks::new(0.95, Statistic::default());
        let only = looks.look(&samples, 0.0, true);
        assert!((only.ci.confidence - 0.95).abs() < 1e-12);
        assert_eq!((only.look, only.max_looks, only.last), (1, 6, true));
        // A stricter level gives a wider interval.
        let plain = stats::estimate(&samples, 0.95).ci;
        let mut looks = BudgetLooks::new(0.95, Statistic::default());
        let first = looks.look(&samples, 0.0, false).ci;
        assert!(first.low <= plain.low && first.high >= plain.high);
    }
}
