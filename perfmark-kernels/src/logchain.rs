//! Falco's chained logarithms: 100 natural logarithms, each taking the one
//! before as its input.
//!
//! Source: Mark Falco, "Measuring performance via probability"
//! (2009), whose `testMethod` applies `Math.log` to its own result 100
//! times: an operation far shorter than a coarse clock's tick, so it can be
//! timed only in aggregate. The chain is latency-bound: no logarithm can
//! start before the previous one is done.
//!
//! One deliberate change: Falco's chain `x = ln x` leaves the logarithm's
//! domain after four steps (123.456 → 4.82 → 1.57 → 0.45 → −0.79 → NaN),
//! so 96 of his 100 calls take the logarithm of NaN, which math libraries
//! answer on a fast path. Here each step is `x = ln x + 2`, which keeps `x`
//! near 3.146 (the fixed point of x = ln x + 2; the map contracts by 1/x
//! there), so every call does a real logarithm.

/// Logarithms per call of [`log_chain`] (Falco's loop count).
pub const LOG_CHAIN_LEN: u64 = 100;

/// Floating-point operations per call: one logarithm and one addition per
/// link. (A logarithm counts as one operation, as rates of math functions
/// are usually quoted per call.)
pub const LOG_CHAIN_FLOPS: u64 = 2 * LOG_CHAIN_LEN;

/// The constant added after each logarithm to keep the chain in the
/// logarithm's domain.
pub const LOG_CHAIN_SHIFT: f64 = 2.0;

/// Applies `x ↦ ln x + 2` [`LOG_CHAIN_LEN`] times and returns the result.
///
/// For any finite `x` above ≈ 0.1586 (the chain's other, repelling fixed
/// point) the result is the attracting fixed point ≈ 3.146193220620583
/// (the solution of x − ln x = 2 above 1) to within a few ulps, whatever
/// `x` was; the work is the same for every input. Below it the chain
/// leaves the domain and the result is NaN, as it is for NaN.
#[inline]
pub fn log_chain(x: f64) -> f64 {
    let mut v = x;
    for _ in 0..LOG_CHAIN_LEN {
        v = v.ln() + LOG_CHAIN_SHIFT;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixed point by Newton's method on f(x) = x − ln x − 2, an
    /// independent route to the chain's limit.
    fn fixed_point() -> f64 {
        let mut x = 3.0f64;
        for _ in 0..50 {
            x -= (x - x.ln() - LOG_CHAIN_SHIFT) / (1.0 - 1.0 / x);
        }
        x
    }

    #[test]
    fn converges_to_the_fixed_point_from_anywhere() {
        let limit = fixed_point();
        assert!((limit - 3.146_193_220_620_583).abs() < 1e-12);
        for x in [123.456, 0.2, 1.0, 3.0, 1e300] {
            let got = log_chain(x);
            assert!(
                (got - limit).abs() < 4.0 * f64::EPSILON * limit,
                "from {x}: {got}"
            );
        }
    }

    #[test]
    fn every_link_stays_in_the_domain() {
        let mut v = 123.456f64;
        for _ in 0..LOG_CHAIN_LEN {
            v = v.ln() + LOG_CHAIN_SHIFT;
            assert!(v > 1.0 && v.is_finite());
        }
    }

    #[test]
    fn outside_the_domain_gives_nan() {
        assert!(log_chain(-1.0).is_nan());
        assert!(log_chain(0.15).is_nan());
        assert!(log_chain(f64::NAN).is_nan());
    }
}
