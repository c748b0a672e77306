//! Many verdicts in one run: the family-wise correction.
//!
//! A run decides many verdicts at once (a budget per test, a regression per
//! test with a baseline or a base build). Each is wrong at most `1 − c` of
//! the time; a run of `m` of them can be wrong somewhere far more often (at
//! 0.95, 64 independent verdicts of unchanged code fail a run 96% of the
//! time if each spends its whole 5%). Bonferroni's inequality bounds the
//! chance of *any* false failure by the sum of the verdicts' rates, so
//! deciding each at `1 − (1 − c)/m` keeps the run's at most `1 − c`,
//! whatever the dependence between the verdicts.
//!
//! Holm's procedure (Holm 1979, "A simple sequentially rejective multiple
//! test procedure") is uniformly more powerful, but it needs every
//! verdict's p-value before it can decide any, and a libtest binary prints
//! each test's `ok` / `FAILED` as the test finishes. Bonferroni is Holm's
//! first step, and the only one that can be taken as the run goes: `m` is
//! known before the first test runs. That is what `--family-wise` promises,
//! and all it does.

/// The level each of `verdicts` verdicts is decided at so that the chance
/// of any false failure among them is at most `1 − confidence`:
/// `1 − (1 − confidence) / verdicts`. One verdict or none keeps
/// `confidence` as it is.
pub fn bonferroni_confidence(confidence: f64, verdicts: usize) -> f64 {
    if verdicts <= 1 {
        confidence
    } else {
        1.0 - (1.0 - confidence) / verdicts as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_spends_one_alpha() {
        assert_eq!(bonferroni_confidence(0.95, 0), 0.95);
        assert_eq!(bonferroni_confidence(0.95, 1), 0.95);
        assert!((bonferroni_confidence(0.95, 3) - (1.0 - 0.05 / 3.0)).abs() < 1e-15);
        assert!((bonferroni_confidence(0.95, 64) - 0.999_218_75).abs() < 1e-12);
    }
}
