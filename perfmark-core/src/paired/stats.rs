//! The paired comparison of two builds: the estimate of `head / base` from
//! interleaved slices, the decision rule, and the correction for looking at
//! the data more than once.
//!
//! Pure functions of numbers: no clock, no I/O. The slice policy that feeds
//! them is [`crate::paired::measure`]; `docs/design/paired-comparison.md` has the
//! design and the simulation's figures (`tests/paired_simulation.rs`).
//!
//! # The unit of replication
//!
//! Both builds run in worker processes, one base and one head process at a
//! time (a *process pair*), and serve short timed slices of the same number
//! of iterations in alternation. One base slice and the head slice next to
//! it make a *slice pair* and give one log ratio `d = ln(head / base)`.
//! Interleaving within milliseconds is what cancels a machine whose speed
//! changes every second or two: tango-bench (bazhenov/tango) runs base and
//! candidate in alternating samples, swapping which goes first each time,
//! and duet benchmarking (Bulej et al., ICPE 2020) runs the two at the same
//! moment so that interference hits both.
//!
//! What interleaving cannot cancel is the process itself: each process gets
//! its own memory layout (ASLR, page placement, alignment), which shifts its
//! speed by a percent or two for as long as it lives. So the slices of one
//! process pair are not independent replications, the process pairs are:
//! the estimate takes one center per process pair and draws its uncertainty
//! from the spread *between* the pairs, Student's t with `pairs − 1` degrees
//! of freedom. No prior spread is assumed; it is measured every time.
//!
//! # Layout
//!
//! Where a build's code lands (its functions' order and addresses, which
//! branch predictors and caches index) and where its stack and heap
//! start move its speed too, by 20% for some loops (Mytkowicz, Diwan,
//! Hauswirth and Sweeney, "Producing wrong data without doing anything
//! obviously wrong!", ASPLOS 2009). When each side comes in several links
//! (the same code, its functions in other orders) and each worker starts
//! at other stack and heap offsets, every process pair draws a layout for
//! each side, and layout becomes part of the spread between pairs instead
//! of a fixed bias of the ratio (as Curtsinger and Berger's Stabilizer,
//! ASPLOS 2013, randomizes a whole program's layout). Pairs that share a
//! link are not independent draws, so the unit of replication is then the
//! *layout unit*: the pairs that ran the same links, pooled
//! ([`crate::paired::measure`] groups them). [`PairedEstimate::layout_sd`]
//! says how much layout moves one build, and [`decide`] calls a change
//! that layout alone would explain so ([`Outcome::WithinLayoutSpread`]).
//!
//! # Order
//!
//! Slice pairs alternate which side runs first in ABBA order: base then head
//! in slice pairs 0, 2, 4…, head then base in 1, 3, 5… (tango-bench swaps
//! the order on every sample in the same way). Two consecutive slice pairs
//! make a *quad* `B H H B`: both sides sit at the same mean position in time,
//! so a linear drift cancels, and each side runs once right after a switch
//! of side and once not, so an order effect (caches and predictors refilled
//! after the other build ran) cancels when it is the same for both sides.
//! The per-pair center is the median of the pair's quad means
//! ([`PairCenter::QuadMedian`]): one slice hit by an interrupt, or the
//! moment the machine changed state, moves one quad and not the median. The
//! simulation compares it with the plain mean ([`PairCenter::Mean`]).
//!
//! # The decision
//!
//! As for a stored baseline: the head **fails** when it is slower
//! with one-sided significance at the test's confidence `c` (the lower
//! one-sided bound of the ratio is above 1) **and** the point ratio is above
//! `1 + tolerance`. Improvements are reported, never failed. See [`decide`].
//!
//! # Looking more than once
//!
//! The slice policy looks at the estimate after several numbers of process
//! pairs and stops as soon as the answer is clear. Testing at level `1 − c`
//! at every look would fail unchanged code more often than `1 − c` (each look
//! is another chance). The [`LookSchedule`] fixes the looks in advance and
//! splits `α = 1 − c` between them (Bonferroni's inequality over the looks,
//! an alpha-spending plan in the spirit of Pocock's group-sequential tests):
//! look `k` uses the one-sided level `1 − α·w_k` with `Σ w_k ≤ 1`, so the
//! chance of any false failure over all looks is at most `α`, whatever the
//! stopping rule does between them. The same shares make a p-value that
//! stays valid under the looks ([`LookSchedule::adjusted_p`]), the
//! `p_slower` that `report.json` keeps.

use serde::Serialize;

use crate::stats::dist::sorted_copy;
use crate::stats::dist::{t_quantile, t_upper_tail};
use crate::stats::summary::{mean, sd_about};
use crate::stats::Interval;
use crate::verdicts::Outcome;

/// How one process pair's log ratios are reduced to the pair's center.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum PairCenter {
    /// The median of the pair's quad means (the mean of slice pairs `2j` and
    /// `2j + 1`, one of each order); a trailing unmatched slice pair counts
    /// as a quad of its own. Robust to one disturbed slice per pair.
    #[default]
    QuadMedian,
    /// The mean of all the pair's log ratios: efficient when every slice is
    /// clean, moved by one interrupted slice. Made only by the simulation
    /// that chose the quad median, and by a report that names it.
    #[cfg_attr(not(feature = "tool"), allow(dead_code))]
    Mean,
}

/// The paired estimate of `head / base` time per iteration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct PairedEstimate {
    /// `head / base`, the geometric mean over process pairs of each pair's
    /// center (`exp` of the mean center on the log scale; from 10 pairs on,
    /// the mean trimmed of [`TRIM`] at each end); above 1 is slower.
    pub ratio: f64,
    /// `[lower_one_sided, upper_one_sided]`: its ends are the one-sided
    /// bounds at [`PairedEstimate::confidence`] `c`, so as a two-sided
    /// interval its level is `2c − 1`, which `interval.confidence` holds.
    pub interval: Interval,
    /// The ratio is above this with one-sided confidence `c`.
    pub lower_one_sided: f64,
    /// The ratio is below this with one-sided confidence `c`.
    pub upper_one_sided: f64,
    /// One-sided p-value of "the head is not slower" (`ratio ≤ 1`), from
    /// Student's t with [`PairedEstimate::df`] degrees of freedom, for this
    /// one look at the data (the slice policy adjusts it for its looks).
    pub p_slower: f64,
    /// Slice pairs (log ratios) used.
    pub slices: usize,
    /// Process pairs used: the replications.
    pub process_pairs: usize,
    /// Degrees of freedom of the t quantile: `process_pairs − 1`, less the
    /// trimmed pairs (Yuen's `h − 1`).
    pub df: f64,
    /// Standard deviation of the per-pair centers (log scale, ≈ relative).
    pub between_pair_sd: f64,
    /// Pooled standard deviation of the quad means about their pair's mean
    /// (log scale): the noise left after pairing, inside one process pair.
    pub within_pair_sd: f64,
    /// How much slower a side runs when it runs second in a slice pair,
    /// right after the other build, on the log scale (0.03 ≈ 3%): half the
    /// mean difference between the log ratios of head-second and head-first
    /// slice pairs, averaged over process pairs. The ABBA order cancels it
    /// from the ratio; it is reported so that a large one is seen.
    pub order_effect: f64,
    /// The one-sided level `c` of the bounds.
    pub confidence: f64,
    /// The (trimmed) mean of the per-pair centers: `ln(ratio)`.
    pub log_ratio: f64,
    /// Standard error of `log_ratio`: `between_pair_sd / √process_pairs`,
    /// or Yuen's winsorized form when pairs are trimmed.
    pub log_se: f64,
    /// How much where the code and data land moves one build's time, as a
    /// standard deviation on the log scale (0.02 ≈ 2%): the spread between
    /// pairs that the noise within pairs does not explain,
    /// `√(max(0, between_pair_sd² − v_within) / 2)`, where `v_within` is
    /// the variance a pair's center would have from its quads' noise alone
    /// (`within_pair_sd² / q`, times π/2 for the quad median, with `q`
    /// quads a pair) and the 2 takes the ratio of two independently placed
    /// builds back to one build. It holds whatever varies from one process
    /// pair to the next and lasts for the pair's life: the links drawn, the
    /// stack and heap offsets, the kernel's address-space randomization.
    #[serde(default)]
    pub layout_sd: f64,
    /// The lowest and the highest process pair's center (log scale): where
    /// the pairs (each its own links, placement and processes) landed.
    #[serde(default)]
    pub center_range: (f64, f64),
    /// The standard deviation one pair's center has from its own slices'
    /// noise alone (log scale): how far a center may stray by chance.
    #[serde(default)]
    pub center_noise_sd: f64,
    /// Process pairs whose center reads the head faster, and slower, beyond
    /// that noise: by more than `q·center_noise_sd`, `q` the normal
    /// quantile at `1 − (1 − c)/m` for `m` pairs (any of them may be the
    /// extreme one by chance).
    #[serde(default)]
    pub pairs_beyond_noise: (usize, usize),
}

impl PairedEstimate {
    #[cfg(any(test, feature = "internals"))]
    /// The upper one-sided bound of the ratio at another one-sided level.
    pub fn upper_at(&self, confidence: f64) -> f64 {
        (self.log_ratio + self.half_width_log(confidence)).exp()
    }

    #[cfg(any(test, feature = "internals"))]
    /// The lower one-sided bound of the ratio at another one-sided level.
    pub fn lower_at(&self, confidence: f64) -> f64 {
        (self.log_ratio - self.half_width_log(confidence)).exp()
    }

    #[cfg(any(test, feature = "internals"))]
    fn half_width_log(&self, confidence: f64) -> f64 {
        if self.log_se == 0.0 {
            0.0
        } else {
            t_quantile(confidence, self.df) * self.log_se
        }
    }
}

#[cfg(any(test, feature = "internals"))]
/// [`paired_estimate_with`] with the default center, [`PairCenter::QuadMedian`].
pub fn paired_estimate(log_ratios_by_pair: &[Vec<f64>], confidence: f64) -> Option<PairedEstimate> {
    paired_estimate_with(log_ratios_by_pair, confidence, PairCenter::default())
}

/// The paired estimate from the log ratios `ln(head / base)` of each process
/// pair, `log_ratios_by_pair[i][k]` being slice pair `k` of process pair
/// `i` in the order taken, base first when `k` is even and head first when
/// it is odd (the ABBA order of [`crate::paired::measure::run_paired`]).
///
/// Each pair is reduced to its `center`; the ratio is `exp` of the mean
/// center, and its one-sided bounds at `confidence` are
/// `exp(mean ∓ t_{c, m−1} · s / √m)` with `m` process pairs and `s` the
/// standard deviation of their centers; from 10 pairs on, the mean and its
/// bounds are Yuen's trimmed ones ([`TRIM`]), robust to one pair in ten
/// thrown far off. Pairs with no log ratio are skipped; non-finite log
/// ratios are dropped.
///
/// `None` with fewer than two usable process pairs (no spread between pairs
/// can be measured).
///
/// # Panics
/// When `confidence` is not strictly between 0.5 and 1.
pub fn paired_estimate_with(
    log_ratios_by_pair: &[Vec<f64>],
    confidence: f64,
    center: PairCenter,
) -> Option<PairedEstimate> {
    assert!(
        confidence > 0.5 && confidence < 1.0,
        "confidence must be strictly between 0.5 and 1 (one-sided), got {confidence}"
    );
    let pairs = usable_pairs(log_ratios_by_pair);
    if pairs.len() < 2 {
        return None;
    }
    let centers: Vec<f64> = pairs.iter().map(|p| pair_center(p, center)).collect();
    let log_ratio = mean(&centers);
    let between_pair_sd = sd_about(&centers, log_ratio);
    let within = within_pair_sd(&pairs);
    let noise_var = center_noise_var(&pairs, within, center);
    let layout_sd = ((between_pair_sd * between_pair_sd - noise_var).max(0.0) / 2.0).sqrt();
    let center_range = centers
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &c| {
            (lo.min(c), hi.max(c))
        });
    let pairs_beyond_noise = pairs_beyond_noise(&centers, noise_var.sqrt(), confidence);
    let (log_ratio, log_se, df) = trimmed_mean(&centers, log_ratio, between_pair_sd);
    let (lower_one_sided, upper_one_sided) = one_sided_bounds(log_ratio, log_se, df, confidence);
    Some(PairedEstimate {
        ratio: log_ratio.exp(),
        interval: Interval {
            low: lower_one_sided,
            high: upper_one_sided,
            confidence: 2.0 * confidence - 1.0,
        },
        lower_one_sided,
        upper_one_sided,
        p_slower: p_slower(log_ratio, log_se, df),
        slices: pairs.iter().map(Vec::len).sum(),
        process_pairs: pairs.len(),
        df,
        between_pair_sd,
        within_pair_sd: within,
        order_effect: order_effect(&pairs),
        confidence,
        log_ratio,
        log_se,
        layout_sd,
        center_range,
        center_noise_sd: noise_var.sqrt(),
        pairs_beyond_noise,
    })
}

/// Each process pair's finite log ratios, the pairs left with none
/// skipped.
fn usable_pairs(log_ratios_by_pair: &[Vec<f64>]) -> Vec<Vec<f64>> {
    log_ratios_by_pair
        .iter()
        .map(|p| p.iter().copied().filter(|d| d.is_finite()).collect())
        .filter(|p: &Vec<f64>| !p.is_empty())
        .collect()
}

/// The variance a pair's center has from its quads' noise alone (log
/// scale): `within² / q` for `q` quads a pair on average, times π/2 for
/// the quad median ([`PairedEstimate::layout_sd`]).
fn center_noise_var(pairs: &[Vec<f64>], within: f64, center: PairCenter) -> f64 {
    let quads_per_pair = pairs
        .iter()
        .map(|p| p.len().div_ceil(2) as f64)
        .sum::<f64>()
        / pairs.len() as f64;
    let center_noise = match center {
        PairCenter::Mean => 1.0,
        // The median of q normal values has about π/2 times the variance
        // of their mean (exactly so as q grows; 1.35 for q = 3, so the
        // layout figure errs low for few quads).
        PairCenter::QuadMedian => std::f64::consts::FRAC_PI_2,
    };
    within * within * center_noise / quads_per_pair.max(1.0)
}

/// The centers that read the head faster, and slower, by more than their
/// noise `noise_sd` allows ([`PairedEstimate::pairs_beyond_noise`]).
fn pairs_beyond_noise(centers: &[f64], noise_sd: f64, confidence: f64) -> (usize, usize) {
    let level = 1.0 - (1.0 - confidence) / centers.len() as f64;
    let margin = crate::stats::dist::normal_quantile(level) * noise_sd;
    (
        centers.iter().filter(|&&c| c + margin < 0.0).count(),
        centers.iter().filter(|&&c| c - margin > 0.0).count(),
    )
}

/// The lower and upper one-sided bounds of the ratio at `confidence`:
/// `exp(log_ratio ∓ t_{c, df} · log_se)`.
fn one_sided_bounds(log_ratio: f64, log_se: f64, df: f64, confidence: f64) -> (f64, f64) {
    let half = if log_se == 0.0 {
        0.0
    } else {
        t_quantile(confidence, df) * log_se
    };
    ((log_ratio - half).exp(), (log_ratio + half).exp())
}

/// One-sided p-value of "the head is not slower" from Student's t with
/// `df` degrees of freedom; with no standard error, 0 when the head reads
/// slower and 1 otherwise.
fn p_slower(log_ratio: f64, log_se: f64, df: f64) -> f64 {
    if log_se == 0.0 {
        if log_ratio > 0.0 {
            0.0
        } else {
            1.0
        }
    } else {
        t_upper_tail(log_ratio / log_se, df)
    }
}

/// Share of the pair centers trimmed from each end before they are
/// averaged: none below 10 pairs, one from each end at 10 to 19.
pub const TRIM: f64 = 0.1;

/// Yuen's trimmed mean of `centers` ("The two-sample trimmed t for unequal
/// population variances", Biometrika 1974), its standard error and degrees
/// of freedom: with `g = ⌊TRIM·m⌋` centers cut from each end of `m`, the
/// mean of the `h = m − 2g` left, `se = √((m − 1)·s_w² / (h·(h − 1)))` with
/// `s_w` the sd of the centers winsorized at the same `g`, and `h − 1`
/// degrees of freedom. One process pair in ten that a disturbance or an
/// unusual placement threw far off then moves neither the ratio nor its
/// interval much, where the plain mean's interval would widen to span the
/// tolerance. With `g = 0` it is the plain mean (`mean`, given with its
/// `sd`): `sd / √m`, `m − 1` degrees of freedom.
fn trimmed_mean(centers: &[f64], mean_: f64, sd: f64) -> (f64, f64, f64) {
    let m = centers.len();
    let g = (TRIM * m as f64).floor() as usize;
    if g == 0 || m < 2 * g + 2 {
        return (mean_, sd / (m as f64).sqrt(), m as f64 - 1.0);
    }
    let sorted = sorted_copy(centers);
    let h = m - 2 * g;
    let kept = mean(&sorted[g..m - g]);
    let (lo, hi) = (sorted[g], sorted[m - g - 1]);
    let winsorized: Vec<f64> = sorted.iter().map(|x| x.clamp(lo, hi)).collect();
    let sw = sd_about(&winsorized, mean(&winsorized));
    let se = ((m as f64 - 1.0) * sw * sw / (h as f64 * (h as f64 - 1.0))).sqrt();
    (kept, se, h as f64 - 1.0)
}

/// The decision of a paired comparison, with what the summary line needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct PairedVerdict {
    /// The outcome.
    pub change: Outcome,
    /// The test's one-sided confidence, as the summary line states it.
    pub confidence: f64,
    /// The relative tolerance (0.05 for 5%).
    pub tolerance: f64,
    /// Whether the lower one-sided bound is above 1.
    pub significantly_slower: bool,
}

impl PairedVerdict {
    /// Whether the test fails: only on [`Outcome::Regressed`].
    pub fn fails(&self) -> bool {
        self.change.fails()
    }
}

/// Decides a paired comparison with the stored-baseline semantics, on the
/// bounds `est` carries:
///
/// - [`Outcome::Regressed`] (fails) when the lower one-sided bound is
///   above 1 and the ratio above `1 + tolerance`;
/// - [`Outcome::Improved`] when the upper bound is below 1 and the
///   ratio below `1 / (1 + tolerance)`;
/// - [`Outcome::Unchanged`] when both bounds lie within
///   `[1 / (1 + tolerance), 1 + tolerance]`;
/// - [`Outcome::SlowerWithinTolerance`] or
///   [`Outcome::FasterWithinTolerance`] when the change is significant
///   but its point within the tolerance: a clear change, never called
///   inconclusive;
/// - [`Outcome::WithinLayoutSpread`] when none of these holds, the
///   builds came in several links (`layouts_drawn`), the interval holds 1
///   (a significant change is never put down to layout), the point is
///   within two standard deviations of the mean ratio of the `h` layout
///   units drawn (`|ln ratio| ≤ 2·√(2/h)·layout_sd`, `h` the estimate's
///   process pairs once pairs of one layout are pooled), and layout makes
///   at least half the variance between pairs (`2·layout_sd² ≥
///   between_pair_sd² / 2`): what the interval cannot decide, the layouts
///   drawn alone would explain;
/// - [`Outcome::Inconclusive`] otherwise;
/// - in place of any outcome but [`Outcome::Unchanged`] (and of
///   [`Outcome::WithinLayoutSpread`] where the point lies within the
///   tolerance), [`Outcome::SignDependsOnBuild`] when process pairs
///   read the head faster and others slower, each beyond its own noise
///   ([`sign_depends_on_the_build`]): such a change is said with its range
///   and never failed.
///
/// `confidence` is the test's level, recorded for the words. The bounds in
/// `est` are used as they are: after sequential looks they are at the
/// stricter level the [`LookSchedule`] gave the look that stopped, which is
/// what keeps the false-failure rate at `1 − confidence` over all looks; for
/// a single look, compute `est` at `confidence` itself.
pub fn decide(
    est: &PairedEstimate,
    layouts_drawn: bool,
    confidence: f64,
    tolerance: f64,
) -> PairedVerdict {
    let up = 1.0 + tolerance;
    let down = 1.0 / up;
    let significantly_slower = est.lower_one_sided > 1.0;
    let change = if significantly_slower && est.ratio > up {
        Outcome::Regressed
    } else if est.upper_one_sided < 1.0 && est.ratio < down {
        Outcome::Improved
    } else if est.upper_one_sided <= up && est.lower_one_sided >= down {
        Outcome::Unchanged
    } else if significantly_slower {
        Outcome::SlowerWithinTolerance
    } else if est.upper_one_sided < 1.0 {
        Outcome::FasterWithinTolerance
    } else if layouts_drawn
        && !significantly_slower
        && est.upper_one_sided >= 1.0
        && within_layout_spread(est)
    {
        Outcome::WithinLayoutSpread
    } else {
        Outcome::Inconclusive
    };
    let beyond_tolerance = est.ratio > up || est.ratio < down;
    let change = match change {
        Outcome::Regressed
        | Outcome::Improved
        | Outcome::SlowerWithinTolerance
        | Outcome::FasterWithinTolerance
        | Outcome::Inconclusive
            if sign_depends_on_the_build(est) =>
        {
            Outcome::SignDependsOnBuild
        }
        // Layout explains the spread, but the point lies beyond the
        // tolerance: the range the pairs read says more than the spread.
        Outcome::WithinLayoutSpread if beyond_tolerance && sign_depends_on_the_build(est) => {
            Outcome::SignDependsOnBuild
        }
        other => other,
    };
    PairedVerdict {
        change,
        confidence,
        tolerance,
        significantly_slower,
    }
}

/// Whether the process pairs of `est` disagree in sign beyond their own
/// noise ([`PairedEstimate::pairs_beyond_noise`]): more pairs than the
/// trimmed mean drops from each end ([`TRIM`]) read the head faster, and
/// as many read it slower, so that neither side is one wild process.
pub fn sign_depends_on_the_build(est: &PairedEstimate) -> bool {
    let need = 1 + (TRIM * est.process_pairs as f64).floor() as usize;
    let (faster, slower) = est.pairs_beyond_noise;
    faster >= need && slower >= need
}

/// Whether layout alone explains what the interval of `est` leaves open
/// (see [`decide`]).
fn within_layout_spread(est: &PairedEstimate) -> bool {
    let layout_var = 2.0 * est.layout_sd * est.layout_sd;
    let units = est.process_pairs.max(1) as f64;
    est.layout_sd > 0.0
        && est.log_ratio.abs() <= 2.0 * (layout_var / units).sqrt()
        && layout_var >= est.between_pair_sd * est.between_pair_sd / 2.0
}

/// The true slowdown (a fraction) that a comparison with `est`'s standard
/// error and degrees of freedom fails 9 times in 10:
/// `exp(max(t·se, ln(1 + tolerance)) + z₀.₉·se) − 1`, with `t` the
/// quantile of the bounds `est` carries. Infinite when the standard error
/// is.
pub fn min_detectable_slowdown(est: &PairedEstimate, tolerance: f64) -> f64 {
    let se = est.log_se;
    if !se.is_finite() {
        return f64::INFINITY;
    }
    let t = if se > 0.0 {
        (est.upper_one_sided.ln() - est.log_ratio) / se
    } else {
        0.0
    };
    ((t * se).max(tolerance.ln_1p()) + crate::stats::dist::normal_quantile(0.9) * se).exp_m1()
}

mod looks;
mod slices;
pub use looks::LookSchedule;
use slices::{order_effect, pair_center, within_pair_sd};

#[cfg(test)]
pub(crate) mod tests;
