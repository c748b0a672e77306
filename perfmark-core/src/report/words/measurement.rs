//! A measurement's warnings in words: what a time below the resolution
//! reads as, and what the samples say for the verdict (precision not
//! reached, outliers, serial correlation, modes, the timer's gating error,
//! a spread that is the machine's).

use crate::measure::{Measurement, Plan, StopReason};
use crate::report::{fmt_ns, Diagnostics};
use crate::stats::{Estimate, Outliers, Statistic};

/// What a time below the measurement's resolution reads as, in words:
/// `raw` as measured, `read` as the checks take it.
pub(crate) fn below_resolution(raw: &Estimate, read: &Estimate, resolution_ns: f64) -> String {
    format!(
        "the {} {} is below what this measurement resolves ({} per iteration, after the \
         harness's own cost is subtracted): it reads as {} with CI [{}, {}]; a budget inside that \
         CI is inconclusive, and no ratio to a baseline is computed",
        raw.statistic.as_str(),
        fmt_ns(raw.point),
        fmt_ns(resolution_ns),
        fmt_ns(read.point),
        fmt_ns(read.ci.low),
        fmt_ns(read.ci.high)
    )
}

/// The test's warnings in plain words, each saying what it means for the
/// verdict.
pub(crate) fn warnings(
    plan: &Plan,
    m: &Measurement,
    estimate: &Estimate,
    below_resolution: bool,
    outliers: &Outliers,
    d: &Diagnostics,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let half_width = estimate.ci.relative_half_width(estimate.point);
    // A relative precision of a time that reads as zero means nothing: the
    // warning about the resolution says what there is to say.
    if m.stop != StopReason::Precision && half_width > plan.precision && !below_resolution {
        warnings.push(format!(
            "precision target ±{:.1}% not reached within max_time {} (CI ±{:.1}%)",
            plan.precision * 100.0,
            fmt_ns(plan.max_time.as_nanos() as f64),
            half_width * 100.0
        ));
    }
    if outliers.total() > 0 {
        let effect = if estimate.statistic == Statistic::Mean {
            "the mean includes them".to_owned()
        } else {
            format!("the {} is robust to them", estimate.statistic.as_str())
        };
        warnings.push(format!(
            "{} outliers of {} samples ({} high, {} of them severe; {} low): {effect}",
            outliers.total(),
            m.samples_ns.len(),
            outliers.high(),
            outliers.high_severe,
            outliers.total() - outliers.high(),
        ));
    }
    if d.serial.flagged {
        let naive = estimate.naive_ci.relative_half_width(estimate.point);
        let widened = if naive > 0.0 { half_width / naive } else { 1.0 };
        warnings.push(format!(
            "samples are serially correlated (lag-1 autocorrelation {:.2}): they are worth {:.0} \
             independent ones of {}, and the CI is {:.2}× as wide as independence would make it",
            d.serial.lags.first().copied().unwrap_or(0.0),
            estimate.effective_n,
            estimate.n,
            widened
        ));
    }
    if d.modality.multimodal {
        let modes: Vec<String> = d
            .modality
            .modes
            .iter()
            .map(|mode| format!("{} ({:.0}%)", fmt_ns(mode.centre), mode.weight * 100.0))
            .collect();
        warnings.push(format!(
            "the samples have {} modes: {}; the machine or the code switches between states",
            modes.len(),
            modes.join(", ")
        ));
    }
    if d.gating_error > 0.001 {
        warnings.push(format!(
            "the timer's resolution allows a {:.2}% error per sample (gating error)",
            d.gating_error * 100.0
        ));
    }
    if let Some(noise) = &d.noise {
        if noise.machine_dominated && noise.test_cov > 0.0 {
            warnings.push(format!(
                "spread {:.2}% is the machine's, not the code's: the noise floor alone is {:.2}%",
                noise.test_cov * 100.0,
                noise.floor_cov * 100.0
            ));
        }
    }
    warnings
}
