//! A paired comparison's verdict in words: the summary line the output
//! contract spells (docs/output.md).

use crate::paired::record::ComparisonRecord;
#[cfg(feature = "compare")]
use crate::paired::record::PairedStop;
#[cfg(feature = "compare")]
use crate::paired::{
    said::PairedSaid,
    stats::{min_detectable_slowdown, PairedEstimate, PairedVerdict},
};
#[cfg(feature = "compare")]
use crate::report::fmt::{plain_percent, signed_percent};
#[cfg(feature = "compare")]
use crate::verdicts::Outcome;

/// What the paired check said, in one sentence: the summary line, or why
/// the comparison failed.
#[cfg(feature = "compare")]
pub fn said(said: &PairedSaid) -> String {
    match said {
        PairedSaid::Compared {
            estimate: Some(est),
            verdict,
            ..
        } => summary_line(est, verdict),
        PairedSaid::Compared {
            record,
            estimate: None,
            verdict,
        } => summary_line_without_estimate(
            record.slices,
            record.process_pairs,
            verdict.confidence,
            verdict.tolerance,
        ),
        PairedSaid::Failed { error } => format!("paired comparison failed: {error}"),
    }
}

#[cfg(feature = "compare")]
/// The warning of a paired comparison that `stop`ped before its interval
/// cleared the `tolerance` either way.
pub fn undecided(stop: PairedStop, tolerance: f64) -> String {
    format!(
        "the paired comparison stopped ({stop:?}) before its interval cleared the {:.0}% \
         tolerance either way: raise max_time for this test to decide it",
        tolerance * 100.0
    )
}

/// The summary line of a paired comparison, e.g.
/// `+8.1% [+6.0%, +10.3%] vs base (paired: 40 slices in 4 process pairs; 95% one-sided; tolerance 5%): regressed beyond the 5% tolerance`.
///
/// "slices" counts slice pairs (log ratios). The bracket holds the one-sided
/// bounds the verdict used. The outcomes read `regressed beyond the 5%
/// tolerance`, `improved beyond the 5% tolerance`, `unchanged within the 5%
/// tolerance`, `inconclusive: the interval spans the 5% tolerance; process
/// pairs differ by ±6.2% (2 sd), so only slowdowns above +12.4% would fail
/// 9 runs in 10`, and
/// `within the layout spread: two layouts of the same code differ by up to
/// ±8.5% here (95%); neither failed nor passed` (`2·√2·layout_sd`).
#[cfg(feature = "compare")]
pub fn summary_line(est: &PairedEstimate, verdict: &PairedVerdict) -> String {
    format!(
        "{} [{}, {}] vs base ({}): {}",
        signed_percent(est.ratio),
        signed_percent(est.lower_one_sided),
        signed_percent(est.upper_one_sided),
        design_words(est.slices, est.process_pairs, verdict),
        outcome_words(verdict, est),
    )
}

/// The summary line when there is no estimate (fewer than two process
/// pairs finished), e.g. `no estimate vs base (paired: 6 slices in 1
/// process pair; 95% one-sided; tolerance 5%): inconclusive: fewer than 2
/// process pairs`.
#[cfg(feature = "compare")]
pub fn summary_line_without_estimate(
    slices: usize,
    process_pairs: usize,
    confidence: f64,
    tolerance: f64,
) -> String {
    let verdict = PairedVerdict {
        change: Outcome::Inconclusive,
        confidence,
        tolerance,
        significantly_slower: false,
    };
    format!(
        "no estimate vs base ({}): inconclusive: fewer than 2 process pairs",
        design_words(slices, process_pairs, &verdict)
    )
}

#[cfg(feature = "compare")]
fn design_words(slices: usize, process_pairs: usize, verdict: &PairedVerdict) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "paired: {} in {}; {} one-sided; tolerance {}",
        plural(slices, "slice"),
        plural(process_pairs, "process pair"),
        plain_percent(verdict.confidence),
        plain_percent(verdict.tolerance),
    )
}

#[cfg(feature = "compare")]
fn outcome_words(verdict: &PairedVerdict, est: &PairedEstimate) -> String {
    let layout_sd = est.layout_sd;
    let tolerance = plain_percent(verdict.tolerance);
    match verdict.change {
        Outcome::Regressed => crate::report::words::baseline::regressed_beyond(verdict.tolerance),
        Outcome::Improved => format!("improved beyond the {tolerance} tolerance"),
        Outcome::Unchanged => format!("unchanged within the {tolerance} tolerance"),
        Outcome::SlowerWithinTolerance => {
            format!("slower, within the {tolerance} tolerance")
        }
        Outcome::FasterWithinTolerance => {
            format!("faster, within the {tolerance} tolerance")
        }
        Outcome::Inconclusive => format!(
            "inconclusive: the interval spans the {tolerance} tolerance; process pairs differ \
             by ±{:.1}% (2 sd), so only slowdowns above {} would fail 9 runs in 10",
            100.0 * ((2.0 * est.between_pair_sd).exp() - 1.0),
            signed_percent(1.0 + min_detectable_slowdown(est, verdict.tolerance)),
        ),
        Outcome::WithinLayoutSpread => format!(
            "within the layout spread: two layouts of the same code differ by up to ±{:.1}% \
             here (95%); neither failed nor passed",
            100.0 * ((2.0 * std::f64::consts::SQRT_2 * layout_sd).exp() - 1.0)
        ),
        Outcome::SignDependsOnBuild => format!(
            "the sign of this change depends on the build: its process pairs read from {} to \
             {}, each beyond its own noise (layout- or process-sensitive); not failed",
            signed_percent(est.center_range.0.exp()),
            signed_percent(est.center_range.1.exp()),
        ),
        // Only the eight above are a paired comparison's outcomes
        // (`Outcome`'s doc); any other is said as report.json spells it.
        other => other.as_str().replace('_', " "),
    }
}

impl ComparisonRecord {
    /// The test's layout sensitivity in words, e.g. `layout: ±2.1% (sd of
    /// one build's time over 10 links and its workers' stack and heap
    /// offsets)`; `None` without an estimate.
    pub fn layout_line(&self) -> Option<String> {
        if !self.layout_sd.is_finite() {
            return None;
        }
        let over = if self.layouts > 1 {
            format!(
                "{} links and its workers' stack and heap offsets",
                self.layouts
            )
        } else {
            "its workers' stack and heap offsets, one link".to_owned()
        };
        Some(format!(
            "layout: ±{:.1}% (sd of one build's time over {over})",
            100.0 * self.layout_sd.exp_m1()
        ))
    }
}

#[cfg(all(test, feature = "compare"))]
mod tests {
    use super::*;
    use crate::paired::stats::decide;
    use crate::paired::stats::tests::estimate_at;

    #[test]
    fn summary_lines_for_every_outcome() {
        let line = |r, lo, hi| {
            let est = estimate_at(r, lo, hi);
            summary_line(&est, &decide(&est, true, 0.95, 0.05))
        };
        assert_eq!(
            line(1.081, 1.060, 1.103),
            "+8.1% [+6.0%, +10.3%] vs base (paired: 40 slices in 4 process pairs; \
             95% one-sided; tolerance 5%): regressed beyond the 5% tolerance"
        );
        assert_eq!(
            line(0.92, 0.90, 0.94),
            "-8.0% [-10.0%, -6.0%] vs base (paired: 40 slices in 4 process pairs; \
             95% one-sided; tolerance 5%): improved beyond the 5% tolerance"
        );
        assert_eq!(
            line(1.004, 0.988, 1.020),
            "+0.4% [-1.2%, +2.0%] vs base (paired: 40 slices in 4 process pairs; \
             95% one-sided; tolerance 5%): unchanged within the 5% tolerance"
        );
        assert_eq!(
            line(1.042, 0.995, 1.091),
            "+4.2% [-0.5%, +9.1%] vs base (paired: 40 slices in 4 process pairs; \
             95% one-sided; tolerance 5%): inconclusive: the interval spans the 5% tolerance; \
             process pairs differ by ±15.2% (2 sd), so only slowdowns above +11.9% would fail 9 runs \
             in 10"
        );
        let mut est = estimate_at(1.03, 0.95, 1.12);
        est.log_ratio = 1.03f64.ln();
        est.layout_sd = 0.03;
        est.between_pair_sd = 0.045;
        assert_eq!(
            summary_line(&est, &decide(&est, true, 0.95, 0.05)),
            "+3.0% [-5.0%, +12.0%] vs base (paired: 40 slices in 4 process pairs; \
             95% one-sided; tolerance 5%): within the layout spread: two layouts of the same \
             code differ by up to ±8.9% here (95%); neither failed nor passed"
        );
        assert_eq!(
            summary_line_without_estimate(6, 1, 0.99, 0.025),
            "no estimate vs base (paired: 6 slices in 1 process pair; 99% one-sided; \
             tolerance 2.5%): inconclusive: fewer than 2 process pairs"
        );
    }

    #[test]
    fn a_sign_that_depends_on_the_build_is_said_with_its_range() {
        let mut est = estimate_at(1.04, 0.90, 1.20);
        est.center_range = (0.9f64.ln(), 1.3f64.ln());
        let verdict = PairedVerdict {
            change: Outcome::SignDependsOnBuild,
            confidence: 0.95,
            tolerance: 0.05,
            significantly_slower: false,
        };
        let line = summary_line(&est, &verdict);
        assert!(
            line.contains("the sign of this change depends on the build"),
            "{line}"
        );
        assert!(line.contains(" from -10.0% to +30.0%"), "{line}");
    }
}
