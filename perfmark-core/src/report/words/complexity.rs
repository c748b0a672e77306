//! The complexity verdict in words: the reason a `NAME::complexity` test
//! passes or fails, its warnings, and the lines `--verbose` prints of the
//! fit, from the figures [`crate::complexity::check::decide`] decided on.

use perfmark_options::Complexity;

use crate::complexity::fit::{GrowthError, GrowthFit, MARGIN};
use crate::complexity::record::ComplexityRecord;
use crate::report::fmt::{fmt_ns, fmt_percent};

/// An excess as a power of n, signed, to two decimals: `n^+0.02`,
/// `n^+1.00`; never `n^-0.00`.
fn power(exponent: f64) -> String {
    format!("n^{:+.2}", two_decimals(exponent))
}

/// `x` rounded to two decimals, with no negative zero (`-0.001` prints as
/// `0.00`, not `-0.00`).
fn two_decimals(x: f64) -> f64 {
    (x * 100.0).round() / 100.0 + 0.0
}

/// The reason when no fit could be made: `complexity not checked: ` and
/// `error` as it displays.
pub fn not_checked(error: &GrowthError) -> String {
    format!("complexity not checked: {error}")
}

/// The verdict on `fit`'s declared class in one sentence, by `fit.fails`:
/// `declared O(n) does not hold: the time grows n^+1.00 faster than it
/// (95% lower bound …), beyond the margin n^0.5; best fit O(n^2)`, or
/// `declared O(n log n) holds: the time grows n^+0.00 beyond it (…),
/// within the margin n^0.5` (the margin is [`MARGIN`]).
pub fn reason(fit: &GrowthFit) -> String {
    let level = fmt_percent(fit.exponent_ci.confidence, 0);
    let margin = format!("n^{}", MARGIN);
    if fit.fails {
        format!(
            "declared {} does not hold: the time grows {} faster than it ({level} lower bound \
             {}), beyond the margin {margin}; best fit {}",
            fit.declared,
            power(fit.excess),
            power(fit.excess_low),
            fit.fitted
        )
    } else {
        format!(
            "declared {} holds: the time grows {} beyond it ({level} lower bound {}), within the \
             margin {margin}",
            fit.declared,
            power(fit.excess),
            power(fit.excess_low),
        )
    }
}

/// The warning of sizes from `low` to `high` that could only catch an
/// excess of `detectable_excess` (a power of n) beyond the declared class,
/// with how to spread them.
pub fn sizes_too_close(low: u64, high: u64, detectable_excess: f64) -> String {
    format!(
        "sizes {low} … {high} are too few or too close together to catch even a whole power \
         of n too many (these could only catch {} beyond the declared class): spread the \
         args over a wider range, such as four sizes a decade apart",
        power(detectable_excess)
    )
}

/// The warning of a passing check whose best fit, `fitted`, grows faster
/// than the `declared` class, by less than the margin.
pub fn faster_fit_within_margin(fitted: Complexity, declared: Complexity) -> String {
    format!(
        "the best fit, {fitted}, grows faster than the declared {declared}, by less than the \
         margin: log factors and the cache hierarchy look alike at these sizes"
    )
}

impl ComplexityRecord {
    /// The lines the console prints under the test, before its reason:
    /// the fitted class and exponent with its CI, the time at each size,
    /// and each candidate's fit. A line whose figures the record lacks is
    /// left out.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let (low, high) = self.size_range();
        if let (Some(fitted), Some(k), Some(ci)) = (&self.fitted, self.exponent, self.exponent_ci) {
            lines.push(format!(
                "fitted O({fitted}): time ∝ n^{:.2} [{:.2}, {:.2}] ({} CI) over n = {low} … {high} \
                 ({} sizes)",
                two_decimals(k),
                two_decimals(ci.low),
                two_decimals(ci.high),
                fmt_percent(ci.confidence, 0),
                self.points.len()
            ));
        }
        if !self.points.is_empty() {
            let mut points = self.points.clone();
            points.sort_by_key(|p| p.size);
            let times: Vec<String> = points
                .iter()
                .map(|p| format!("{} → {}", p.size, fmt_ns(p.ns_per_iter)))
                .collect();
            lines.push(format!("time per iteration: {}", times.join(" · ")));
        }
        if !self.candidates.is_empty() {
            let fits: Vec<String> = self
                .candidates
                .iter()
                .map(|c| format!("{} {}", c.class, fmt_percent(c.relative_rms, 1)))
                .collect();
            lines.push(format!(
                "candidates (relative rms of t = a + c·g(n)): {}",
                fits.join(" · ")
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excesses_read_as_signed_powers_without_a_negative_zero() {
        assert_eq!(power(1.0), "n^+1.00");
        assert_eq!(power(0.0234), "n^+0.02");
        assert_eq!(power(-0.001), "n^+0.00");
        assert_eq!(power(-0.5), "n^-0.50");
    }
}
