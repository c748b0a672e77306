//! What a baseline recorded over several processes keeps of them: each
//! process's estimate and the spread between them, and the machine-state
//! reference timed beside the test.

use serde::{Deserialize, Serialize};

use crate::stats::Interval;

/// The between-run (between-process) spread of a baseline recorded over
/// several processes (`cargo perfmark baseline --runs N`).
///
/// Run-to-run variation is far larger than the spread inside one run
/// (Joseph M. Newcomer, "Profiling for performance", found 30% between a
/// dozen runs of one product), and it is multiplicative, so it is measured
/// on a log scale, as performance is compared by ratios and geometric means.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BetweenRuns {
    /// Each run's estimate, ns per iteration, in the order the runs were
    /// measured.
    pub run_estimates_ns: Vec<f64>,
    /// Number of runs (processes), at least 2.
    pub runs: usize,
    /// Sample standard deviation (n − 1 denominator) of the natural
    /// logarithms of the run estimates: `0.05` is about 5% between runs.
    pub sd_log: f64,
    /// Each run's machine-state reference, ns per step, in the same order
    /// (see [`StoredReference`]); empty when a run had none (files written
    /// before the reference existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_ns: Vec<f64>,
}

/// The machine-state reference measured beside a test's samples (perfmark's
/// own workload, `measure::reference`): the median time of one step, ns,
/// with its confidence interval. The regression check compares it with the
/// reference of the run that checks the baseline to see whether the
/// machine moved in between.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredReference {
    /// Upper end of the interval, ns per step.
    #[serde(rename = "ci_high")]
    pub ci_high_ns: f64,
    /// Lower end of the interval, ns per step.
    #[serde(rename = "ci_low")]
    pub ci_low_ns: f64,
    /// Level of the interval, in (0, 1).
    pub confidence: f64,
    /// The median time of one step, ns; for an entry recorded over several
    /// processes, the geometric mean of their medians.
    pub ns_per_step: f64,
}

impl StoredReference {
    /// The stored interval, `[ci_low, ci_high]` at `confidence`.
    pub fn interval(&self) -> Interval {
        Interval {
            low: self.ci_low_ns,
            high: self.ci_high_ns,
            confidence: self.confidence,
        }
    }

    /// The reason this reference cannot be stored, if any.
    pub(super) fn problem(&self) -> Option<String> {
        let ok = self.ns_per_step > 0.0
            && self.ns_per_step.is_finite()
            && self.ci_low_ns.is_finite()
            && self.ci_high_ns.is_finite()
            && self.ci_low_ns <= self.ns_per_step
            && self.ns_per_step <= self.ci_high_ns
            && self.confidence > 0.0
            && self.confidence < 1.0;
        (!ok).then(|| {
            format!(
                "reference {} ns per step [{}, {}] at {} is not a positive time inside its interval",
                self.ns_per_step, self.ci_low_ns, self.ci_high_ns, self.confidence
            )
        })
    }
}

/// Estimates are floored at this many ns before taking logarithms, only to
/// keep the spread finite. A run whose time is below the measurement's
/// resolution (0 as the runner reads it, `stats::at_resolution`; negative
/// in files saved before that rule) has no place on a log scale, and the
/// regression check never compares an entry holding one: it says so
/// instead (`baseline/resolution.rs`).
#[cfg(feature = "tool")]
const LOG_FLOOR_NS: f64 = 1e-3;

impl BetweenRuns {
    /// The spread of the runs whose estimates are `run_estimates_ns` (ns
    /// per iteration, in the order measured): `runs` is their count and
    /// `sd_log` the sample sd of their natural logarithms, estimates
    /// floored at 0.001 ns. Fewer than 2 runs give an sd of 0, which a
    /// save refuses: one run has no spread.
    #[cfg(feature = "tool")]
    pub fn new(run_estimates_ns: Vec<f64>) -> BetweenRuns {
        let n = run_estimates_ns.len();
        let logs: Vec<f64> = run_estimates_ns
            .iter()
            .map(|e| e.max(LOG_FLOOR_NS).ln())
            .collect();
        let sd_log = if n < 2 {
            0.0
        } else {
            let mean = logs.iter().sum::<f64>() / n as f64;
            let ss: f64 = logs.iter().map(|l| (l - mean).powi(2)).sum();
            (ss / (n - 1) as f64).sqrt()
        };
        BetweenRuns {
            run_estimates_ns,
            runs: n,
            sd_log,
            reference_ns: Vec::new(),
        }
    }

    /// The runs' spread and tracking once the machine-state references
    /// measured beside them are taken into account
    /// ([`crate::baseline::compare::fit_runs`]). `None` unless every run has a
    /// reference and there are at least 2.
    pub fn residual_fit(&self) -> Option<crate::baseline::compare::RecordedFit> {
        crate::baseline::compare::fit_runs(&self.run_estimates_ns, &self.reference_ns)
    }
}
