//! What a time below the measurement's resolution reads as.
//!
//! A sample is a block's time divided by its iterations, less the harness's
//! own cost per iteration ("Performance measurement", a university lecture
//! on performance evaluation: T'e = Tt/n − h). For a routine that
//! costs less than the error of that subtraction, samples, medians and CI
//! ends come out at zero or below. Such a number is not a time: the routine
//! took somewhere between nothing and what the measurement can resolve.
//!
//! The reading, one rule for every verdict (the budget check, the regression
//! check, a saved baseline):
//! - the **resolution per iteration** is what one tick of the block's timer
//!   is worth per iteration: the clock's resolution (1 ns for the
//!   `Duration` an `iter_custom` routine reports) over the iterations per
//!   sample (Newcomer's gating error, "Profiling for performance", taken
//!   per iteration);
//! - an estimate **below resolution** (its point below that, or not above
//!   zero) reads as the point clamped at 0 and the interval
//!   `[max(low, 0), max(high, resolution, −low)]`: a negative low end says
//!   the subtraction overshot by at least that much, so the true time may
//!   be as large as that too;
//! - any CI's low end is clamped at 0: no time is negative.
//!
//! So a budget below what the measurement resolves is never "within budget"
//! on a CI that says nothing: the interval straddles it and the verdict is
//! inconclusive. And a ratio to a time below resolution means nothing, so the
//! regression check does not compute one, and says so
//! (`baseline::check`).

use super::estimate::Estimate;
use super::interval::Interval;

/// An estimate read at the measurement's resolution ([`at_resolution`]).
#[derive(Debug, Clone)]
pub struct AtResolution {
    /// The estimate, its point and intervals clamped as the module says.
    pub estimate: Estimate,
    /// Whether the point is below the resolution (or not above zero): the
    /// time cannot be told from zero.
    pub below_resolution: bool,
}

/// Reads `estimate`, in ns per iteration, at `resolution_ns` per iteration
/// (see the module documentation). A NaN point (no samples) is left as it
/// is and is not below resolution.
pub fn at_resolution(estimate: &Estimate, resolution_ns: f64) -> AtResolution {
    let below = is_below_resolution(estimate.point, resolution_ns);
    let read = |ci: Interval| Interval {
        low: ci.low.max(0.0),
        high: if below {
            ci.high.max(resolution_ns).max(-ci.low)
        } else {
            ci.high
        },
        confidence: ci.confidence,
    };
    AtResolution {
        estimate: Estimate {
            point: if below {
                estimate.point.max(0.0)
            } else {
                estimate.point
            },
            ci: read(estimate.ci),
            naive_ci: read(estimate.naive_ci),
            ..estimate.clone()
        },
        below_resolution: below,
    }
}

/// Whether a time per iteration of `ns` cannot be told from zero at
/// `resolution_ns` per iteration: below it, or not above zero. False for NaN.
pub fn is_below_resolution(ns: f64, resolution_ns: f64) -> bool {
    ns < resolution_ns || ns <= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(point: f64, low: f64, high: f64) -> Estimate {
        Estimate::median_at(point, low, high, 100)
    }

    #[test]
    fn a_resolved_time_keeps_its_interval_less_a_negative_low_end() {
        let r = at_resolution(&est(5.0, 4.0, 6.0), 0.01);
        assert!(!r.below_resolution);
        assert_eq!(
            (r.estimate.point, r.estimate.ci.low, r.estimate.ci.high),
            (5.0, 4.0, 6.0)
        );
        let r = at_resolution(&est(0.5, -0.2, 1.2), 0.01);
        assert!(!r.below_resolution);
        assert_eq!(
            (r.estimate.point, r.estimate.ci.low, r.estimate.ci.high),
            (0.5, 0.0, 1.2)
        );
    }

    #[test]
    fn a_negative_time_reads_as_zero_up_to_its_overshoot() {
        // The subtraction overshot by 0.1–0.3 ns: zero, or up to 0.3 ns.
        let r = at_resolution(&est(-0.2, -0.3, -0.1), 0.001);
        assert!(r.below_resolution);
        assert_eq!(r.estimate.point, 0.0);
        assert_eq!((r.estimate.ci.low, r.estimate.ci.high), (0.0, 0.3));
        assert_eq!(r.estimate.naive_ci, r.estimate.ci);
        // Straddling zero: the high end stands when it is the larger.
        let r = at_resolution(&est(-0.01, -0.05, 0.4), 0.001);
        assert_eq!((r.estimate.ci.low, r.estimate.ci.high), (0.0, 0.4));
    }

    #[test]
    fn zero_and_sub_resolution_times_reach_up_to_the_resolution() {
        let r = at_resolution(&est(0.0, 0.0, 0.0), 0.002);
        assert!(r.below_resolution);
        assert_eq!((r.estimate.ci.low, r.estimate.ci.high), (0.0, 0.002));
        let r = at_resolution(&est(0.001, 0.0005, 0.0015), 0.002);
        assert!(r.below_resolution);
        assert_eq!(r.estimate.point, 0.001);
        assert_eq!(r.estimate.ci.high, 0.002);
        // An unbounded interval stays unbounded.
        let r = at_resolution(&est(-1.0, f64::NEG_INFINITY, 1.0), 0.1);
        assert_eq!(r.estimate.ci.high, f64::INFINITY);
    }

    #[test]
    fn no_samples_is_not_below_resolution() {
        assert!(!is_below_resolution(f64::NAN, 1.0));
        assert!(is_below_resolution(0.0, 0.0));
        assert!(is_below_resolution(-1.0, 0.0));
        assert!(!is_below_resolution(1e-9, 0.0));
    }
}
