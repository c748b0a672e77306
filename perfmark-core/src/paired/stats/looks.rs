//! The looks of a sequential paired comparison and their shares of the
//! false-failure budget (see the parent module, "Looking more than once").

/// When the slice policy looks at the estimate, and how the false-failure
/// budget `α = 1 − c` is split between the looks (see the module
/// documentation, "Looking more than once").
///
/// Look `k` happens once `pairs()[k]` process pairs have finished and uses
/// the one-sided level `1 − α · shares()[k]`. With shares summing to at most
/// 1, the chance of a false failure over all looks together is at most `α`
/// (Bonferroni over the looks); shares summing to more give up that
/// guarantee (the simulation builds such a schedule to show what it costs).
#[derive(Debug, Clone, PartialEq)]
pub struct LookSchedule {
    pairs: Vec<usize>,
    shares: Vec<f64>,
}

impl LookSchedule {
    #[cfg(any(test, feature = "internals"))]
    /// Looks after `pairs[k]` process pairs with share `shares[k]` of `α`.
    ///
    /// # Panics
    /// When the lists are empty or of different lengths, `pairs` is not
    /// strictly increasing from at least 2, or a share is not in (0, 1].
    pub fn new(pairs: Vec<usize>, shares: Vec<f64>) -> Self {
        assert!(
            !pairs.is_empty() && pairs.len() == shares.len(),
            "a look schedule needs one share per look, and at least one look"
        );
        assert!(
            pairs[0] >= 2 && pairs.windows(2).all(|w| w[0] < w[1]),
            "looks must be at strictly increasing pair counts of at least 2, got {pairs:?}"
        );
        assert!(
            shares.iter().all(|&s| s > 0.0 && s <= 1.0),
            "each look's share of alpha must be in (0, 1], got {shares:?}"
        );
        LookSchedule { pairs, shares }
    }

    /// Looks at `min_pairs`, `min_pairs + every`, … up to and always
    /// including `max_pairs`, each with an equal share of `α` (Pocock's
    /// constant boundary, made conservative by Bonferroni).
    ///
    /// # Panics
    /// When `min_pairs < 2`, `max_pairs < min_pairs` or `every == 0`.
    pub fn equal(min_pairs: usize, max_pairs: usize, every: usize) -> Self {
        assert!(
            min_pairs >= 2 && max_pairs >= min_pairs && every > 0,
            "looks need 2 ≤ min_pairs ≤ max_pairs and a positive step"
        );
        let mut pairs: Vec<usize> = (min_pairs..max_pairs).step_by(every).collect();
        pairs.push(max_pairs);
        let share = 1.0 / pairs.len() as f64;
        let shares = vec![share; pairs.len()];
        LookSchedule { pairs, shares }
    }

    /// The pair counts at which the looks happen.
    pub fn pairs(&self) -> &[usize] {
        &self.pairs
    }

    #[cfg(any(test, feature = "internals"))]
    /// Each look's share of `α`.
    pub fn shares(&self) -> &[f64] {
        &self.shares
    }

    /// The look that an analysis after `pairs` process pairs counts as: the
    /// first scheduled look at or after `pairs` (an analysis forced early by
    /// the time limit spends the share of the look it replaces, which then
    /// never happens). `None` past the last look.
    pub fn look_for(&self, pairs: usize) -> Option<usize> {
        self.pairs.iter().position(|&p| p >= pairs)
    }

    /// The one-sided level of look `look` for a test at one-sided
    /// `confidence`: `1 − (1 − confidence) · share`.
    pub fn confidence_at(&self, look: usize, confidence: f64) -> f64 {
        1.0 - (1.0 - confidence) * self.shares[look]
    }

    /// A fixed-sample p-value `p` taken at look `look`, made valid under all
    /// the looks: `min(1, p / share)`. Failing at look `k` when `p ≤ α·w_k`
    /// is failing when this is `≤ α`, and under no change
    /// `P(adjusted ≤ u) ≤ Σ_k u·w_k ≤ u` for every `u`.
    pub fn adjusted_p(&self, look: usize, p: f64) -> f64 {
        (p / self.shares[look]).min(1.0)
    }
}
