//! How much of a test's spread to believe: a relative spread that outliers
//! do not inflate, the interval of the standard deviation, the timer's
//! gating error, and whether the spread is the machine's rather than the
//! code's.

use serde::Serialize;

use super::dist::chi_squared_quantile;
use super::interval::Interval;
use super::summary::{mean, sd_about, Summary};

/// Confidence interval of the standard deviation of `xs`, from the χ²
/// distribution of `(n−1)s²/σ²`:
/// `[s·√((n−1)/χ²_{(1+c)/2}), s·√((n−1)/χ²_{(1−c)/2})]`, as Brent Boyer
/// reports it ("Robust Java benchmarking", 2008).
///
/// Exact for independent normal samples only; heavy tails and serial
/// correlation make it too narrow, so it describes the spread and never
/// decides a verdict. Unbounded above for fewer than 2 samples (a single
/// sample says nothing about spread).
///
/// # Panics
/// When `confidence` is not strictly between 0 and 1.
pub fn sd_interval(xs: &[f64], confidence: f64) -> Interval {
    assert!(
        confidence > 0.0 && confidence < 1.0,
        "confidence must be strictly between 0 and 1, got {confidence}"
    );
    let n = xs.len();
    if n < 2 {
        return Interval {
            low: 0.0,
            high: f64::INFINITY,
            confidence,
        };
    }
    let sd = sd_about(xs, mean(xs));
    let df = (n - 1) as f64;
    let alpha = 1.0 - confidence;
    Interval {
        low: sd * (df / chi_squared_quantile(1.0 - alpha / 2.0, df)).sqrt(),
        high: sd * (df / chi_squared_quantile(alpha / 2.0, df)).sqrt(),
        confidence,
    }
}

/// Relative error bound of one timed block due to the timer's resolution:
/// `resolution_ns / (2 · block_ns)`.
///
/// Joseph M. Newcomer ("Profiling for performance", 1993, "Gating Error"): reading a clock of resolution `r` at
/// both ends of an interval misplaces each end by up to a tick, so a sample's
/// error is at least half the resolution, whatever the standard deviation
/// says. A block of 1000× the resolution keeps it at 0.05%. Returns +∞ for a
/// block time that is not positive.
pub fn gating_error_bound(resolution_ns: f64, block_ns: f64) -> f64 {
    if block_ns > 0.0 {
        resolution_ns / (2.0 * block_ns)
    } else {
        f64::INFINITY
    }
}

/// The interquartile range of a normal distribution in standard deviations,
/// `2 · z_{0.75}`: dividing an IQR by it estimates the sd.
const NORMAL_IQR_IN_SD: f64 = 1.349;

/// Relative spread of a sample set that outliers do not inflate:
/// `(q3 − q1) / 1.349 / median`, a fraction (0.02 is 2%).
///
/// For normal samples it estimates the coefficient of variation `sd / mean`
/// (a normal distribution's IQR is 1.349 sd), but one interrupt spike moves
/// neither quartile, where it can double the sd. It is the spread the noise
/// floor is measured in (Boyer's `noiseTask`) and that a test is
/// compared with it in ([`diagnose_noise`]), so both use this one
/// definition. Returns 0 when the median is not positive (no relative spread
/// can be defined) and NaN for an empty summary.
pub fn robust_spread(summary: &Summary) -> f64 {
    if summary.median <= 0.0 {
        return 0.0;
    }
    (summary.q3 - summary.q1) / NORMAL_IQR_IN_SD / summary.median
}

/// Share of a test's variance that the machine's own noise could explain
/// above which [`diagnose_noise`] calls the spread the machine's.
pub const MACHINE_VARIANCE_SHARE: f64 = 0.5;

/// Whose spread a test's samples show: its own, or the machine's.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct NoiseDiagnosis {
    /// The test's relative spread (COV) given.
    pub test_cov: f64,
    /// The machine's noise floor (COV of a task with no intrinsic variation).
    pub floor_cov: f64,
    /// `min(1, (floor_cov / test_cov)²)`: the share of the test's variance
    /// the floor alone would produce, noise being additive and independent.
    pub machine_share: f64,
    /// The test's own relative spread once the floor's is taken out:
    /// `√max(0, test_cov² − floor_cov²)`.
    pub intrinsic_cov: f64,
    /// Whether the spread is mostly the machine's
    /// (`machine_share >= MACHINE_VARIANCE_SHARE`).
    pub machine_dominated: bool,
}

/// Boyer's `diagnoseSd` ("Robust Java benchmarking"): given a test's relative spread and the
/// machine's noise-floor spread (both as coefficients of variation, measured
/// with comparable block times), says whether the test's spread is the
/// machine's rather than its own. Variances of independent noises add, so
/// the floor explains `(floor/test)²` of the test's variance; at
/// [`MACHINE_VARIANCE_SHARE`] or more the spread is called the machine's. A
/// non-positive `test_cov` (no spread at all) is machine-dominated whenever
/// the floor is positive.
pub fn diagnose_noise(test_cov: f64, floor_cov: f64) -> NoiseDiagnosis {
    let (test, floor) = (test_cov.abs(), floor_cov.abs());
    let machine_share = if test > 0.0 {
        ((floor / test).powi(2)).min(1.0)
    } else if floor > 0.0 {
        1.0
    } else {
        0.0
    };
    NoiseDiagnosis {
        test_cov,
        floor_cov,
        machine_share,
        intrinsic_cov: (test * test - floor * floor).max(0.0).sqrt(),
        machine_dominated: machine_share >= MACHINE_VARIANCE_SHARE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sd_interval_matches_chi_square_tables() {
        // n = 10, s = 1: χ²_9 quantiles 2.700389 and 19.022768
        let xs = [-1.5, -1.0, -0.5, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.5];
        let s = sd_about(&xs, mean(&xs));
        let i = sd_interval(&xs, 0.95);
        assert!((i.low - s * (9.0f64 / 19.022768).sqrt()).abs() < 1e-5);
        assert!((i.high - s * (9.0f64 / 2.700389).sqrt()).abs() < 1e-5);
        assert!(i.contains(s));
        assert_eq!(sd_interval(&[1.0], 0.95).high, f64::INFINITY);
    }

    #[test]
    fn robust_spread_ignores_spikes_and_estimates_the_cov() {
        use crate::stats::summarize;
        // type-7 quartiles of 1..=9 are 3 and 7, median 5
        let xs: Vec<f64> = (1..=9).map(f64::from).collect();
        let plain = robust_spread(&summarize(&xs));
        assert!((plain - 4.0 / 1.349 / 5.0).abs() < 1e-12, "{plain}");
        // one huge spike moves neither quartile by much
        let mut spiked = xs.clone();
        spiked[4] = 1e6;
        let with_spike = robust_spread(&summarize(&spiked));
        assert!((with_spike - plain).abs() < 0.1 * plain, "{with_spike}");
        // while the cov (about 3) is five times larger
        assert!(summarize(&spiked).cov > 4.0 * with_spike);
        assert_eq!(robust_spread(&summarize(&[0.0, 0.0, 1.0])), 0.0);
        assert!(robust_spread(&summarize(&[])).is_nan());
    }

    #[test]
    fn gating_bound_is_half_a_tick_over_the_block() {
        assert_eq!(gating_error_bound(10.0, 25.0), 0.2);
        assert_eq!(gating_error_bound(30.0, 30_000.0), 0.0005);
        assert_eq!(gating_error_bound(1.0, 0.0), f64::INFINITY);
    }

    #[test]
    fn noise_diagnosis() {
        let machine = diagnose_noise(0.012, 0.01);
        assert!(machine.machine_dominated && machine.machine_share > 0.69);
        let own = diagnose_noise(0.05, 0.01);
        assert!(!own.machine_dominated);
        assert!((own.intrinsic_cov - (0.0025f64 - 0.0001).sqrt()).abs() < 1e-12);
        assert!(diagnose_noise(0.0, 0.01).machine_dominated);
        assert!(!diagnose_noise(0.0, 0.0).machine_dominated);
    }
}
