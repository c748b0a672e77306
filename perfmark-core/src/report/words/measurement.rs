//! A measurement's warnings in words: what a time below the resolution
//! reads as, and what the samples say for the verdict (precision not
//! reached, outliers, serial correlation, modes, the timer's gating error,
//! a spread that is the machine's).

use crate::checks::SampleWarning;
use crate::report::fmt_ns;
use crate::stats::{Estimate, Mode, Outliers, Statistic};

/// What the samples say, in one sentence that says what it means for the
/// verdict.
pub(crate) fn warning(warning: &SampleWarning) -> String {
    match warning {
        SampleWarning::BelowResolution {
            raw,
            read,
            resolution_ns,
        } => below_resolution(raw, read, *resolution_ns),
        SampleWarning::PrecisionNotReached {
            target,
            max_time_ns,
            half_width,
        } => precision_not_reached(*target, *max_time_ns, *half_width),
        SampleWarning::Outliers {
            outliers: counts,
            samples,
            statistic,
        } => outliers(counts, *samples, *statistic),
        SampleWarning::SerialCorrelation {
            lag1,
            effective_n,
            n,
            widened,
        } => serial_correlation(*lag1, *effective_n, *n, *widened),
        SampleWarning::Modes(all) => modes(all),
        SampleWarning::GatingError(error) => gating_error(*error),
        SampleWarning::MachineSpread {
            test_cov,
            floor_cov,
        } => machine_spread(*test_cov, *floor_cov),
    }
}

/// What a time below the measurement's resolution reads as, in words:
/// `raw` as measured, `read` as the checks take it.
fn below_resolution(raw: &Estimate, read: &Estimate, resolution_ns: f64) -> String {
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

/// The precision not reached: the `target` relative half-width, the
/// `max_time_ns` sampling stopped at, and the `half_width` reached.
fn precision_not_reached(target: f64, max_time_ns: f64, half_width: f64) -> String {
    format!(
        "precision target ±{:.1}% not reached within max_time {} (CI ±{:.1}%)",
        target * 100.0,
        fmt_ns(max_time_ns),
        half_width * 100.0
    )
}

/// Tukey `outliers` among `samples`, and what they mean for the
/// `statistic`.
fn outliers(outliers: &Outliers, samples: usize, statistic: Statistic) -> String {
    let effect = if statistic == Statistic::Mean {
        "the mean includes them".to_owned()
    } else {
        format!("the {} is robust to them", statistic.as_str())
    };
    format!(
        "{} outliers of {samples} samples ({} high, {} of them severe; {} low): {effect}",
        outliers.total(),
        outliers.high(),
        outliers.high_severe,
        outliers.total() - outliers.high(),
    )
}

/// Serially correlated samples: the `lag1` autocorrelation, what they are
/// worth (`effective_n` of `n`), and how much wider the CI is for it.
fn serial_correlation(lag1: f64, effective_n: f64, n: usize, widened: f64) -> String {
    format!(
        "samples are serially correlated (lag-1 autocorrelation {lag1:.2}): they are worth \
         {effective_n:.0} independent ones of {n}, and the CI is {widened:.2}× as wide as \
         independence would make it"
    )
}

/// The samples' `modes`, each with its centre and weight.
fn modes(modes: &[Mode]) -> String {
    let each: Vec<String> = modes
        .iter()
        .map(|mode| format!("{} ({:.0}%)", fmt_ns(mode.centre), mode.weight * 100.0))
        .collect();
    format!(
        "the samples have {} modes: {}; the machine or the code switches between states",
        each.len(),
        each.join(", ")
    )
}

/// The timer's gating error per sample, a fraction.
fn gating_error(error: f64) -> String {
    format!(
        "the timer's resolution allows a {:.2}% error per sample (gating error)",
        error * 100.0
    )
}

/// A spread, `test_cov`, that the noise floor's `floor_cov` accounts for.
fn machine_spread(test_cov: f64, floor_cov: f64) -> String {
    format!(
        "spread {:.2}% is the machine's, not the code's: the noise floor alone is {:.2}%",
        test_cov * 100.0,
        floor_cov * 100.0
    )
}
