//! Histograms of the samples: equal-width bins ([`bin_counts`]), the
//! histogram a plot draws ([`histogram`], over the [`bulk`] of the samples),
//! and a text histogram for `--verbose` output. A histogram is the quickest
//! way to see modes and spikes (Joseph M. Newcomer, "Profiling for
//! performance" (1993), found his 5 ms and 11 ms interrupt peaks with one).

#[cfg(feature = "tool")]
use {super::dist::sorted_copy, super::outliers::fences_sorted};

/// Counts `xs` into `bins` equal-width bins over `[lo, hi]`: bin `i` holds
/// `[lo + i·w, lo + (i+1)·w)` with `w = (hi − lo) / bins`, and the last bin
/// is closed on the right. Samples outside `[lo, hi]` (and NaN) are not
/// counted. One bin, holding every sample in range, when `hi <= lo` or
/// `bins` is 0.
pub fn bin_counts(xs: &[f64], lo: f64, hi: f64, bins: usize) -> Vec<usize> {
    let bins = if hi > lo { bins.max(1) } else { 1 };
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0usize; bins];
    for &x in xs.iter().filter(|&&x| x >= lo && x <= hi) {
        let i = if width > 0.0 {
            ((x - lo) / width) as usize
        } else {
            0
        };
        counts[i.min(bins - 1)] += 1;
    }
    counts
}

/// Where the samples lie: their whole range, and the range of their bulk,
/// the samples within the severe Tukey fences (3·IQR beyond the quartiles).
#[cfg(feature = "tool")]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bulk {
    /// Smallest sample.
    pub min: f64,
    /// Largest sample.
    pub max: f64,
    /// Smallest sample of the bulk.
    pub lo: f64,
    /// Largest sample of the bulk.
    pub hi: f64,
    /// Samples below the bulk (beyond the low severe fence).
    pub below: usize,
    /// Samples above the bulk (beyond the high severe fence).
    pub above: usize,
}

/// The [`Bulk`] of `xs` (finite, non-empty; any order): the range a plot
/// scales to, so that one 5 ms interrupt spike among 100 µs samples does
/// not flatten everything else into one line or one bar. The samples'
/// own range when the severe fences cut nothing off, or would leave no
/// range at all (fewer than two distinct values inside them). O(n log n).
#[cfg(feature = "tool")]
pub fn bulk(xs: &[f64]) -> Bulk {
    let sorted = sorted_copy(xs);
    let (min, max) = (sorted[0], sorted[sorted.len() - 1]);
    let whole = Bulk {
        min,
        max,
        lo: min,
        hi: max,
        below: 0,
        above: 0,
    };
    let fences = fences_sorted(&sorted);
    if !(fences[0].is_finite() && fences[3].is_finite()) {
        return whole;
    }
    // The extreme samples kept, so no bar is empty at the ends.
    let below = sorted.partition_point(|&x| x < fences[0]);
    let kept_end = sorted.partition_point(|&x| x <= fences[3]);
    if kept_end <= below {
        return whole;
    }
    let (lo, hi) = (sorted[below], sorted[kept_end - 1]);
    if hi <= lo || (below == 0 && kept_end == sorted.len()) {
        return whole;
    }
    Bulk {
        lo,
        hi,
        below,
        above: sorted.len() - kept_end,
        ..whole
    }
}

/// Equal-width bins over the bulk of the samples, as a plot draws them.
#[cfg(feature = "tool")]
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// The samples' range and their bulk, which the bins span: the samples
    /// below and above it are not binned.
    pub bulk: Bulk,
    /// Width of each bin (0 when every binned sample is equal: one bin).
    pub width: f64,
    /// Samples per bin from `bulk.lo` up; the last bin is closed on the
    /// right.
    pub counts: Vec<usize>,
}

/// Bins `xs` (finite, non-empty; any order) over their [`bulk`] into
/// `ceil(√n)` bins of equal width (the square-root rule, `n` the samples
/// binned), at most `max_bins` and at least 1. O(n log n).
#[cfg(feature = "tool")]
pub fn histogram(xs: &[f64], max_bins: usize) -> Histogram {
    let bulk = bulk(xs);
    let kept = xs.len() - bulk.below - bulk.above;
    let bins = ((kept as f64).sqrt().ceil() as usize).clamp(1, max_bins.max(1));
    let counts = bin_counts(xs, bulk.lo, bulk.hi, bins);
    Histogram {
        bulk,
        width: (bulk.hi - bulk.lo) / counts.len() as f64,
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_width_bins_close_the_last_one() {
        assert_eq!(
            bin_counts(&[1.0, 1.5, 2.0, 2.5, 2.6, 4.0], 1.0, 4.0, 3),
            [2, 3, 1]
        );
        // Out of range and NaN are left out; no range is one bin.
        assert_eq!(
            bin_counts(&[0.0, 1.0, 2.0, f64::NAN, 9.0], 1.0, 2.0, 2),
            [1, 1]
        );
        assert_eq!(bin_counts(&[3.0, 3.0, 4.0], 3.0, 3.0, 5), [2]);
        assert_eq!(bin_counts(&[3.0], 1.0, 4.0, 0), [1]);
    }

    #[test]
    fn the_bulk_leaves_out_samples_beyond_the_severe_fences() {
        // 1..=100: nothing beyond the fences.
        let ramp: Vec<f64> = (1..=100).map(f64::from).collect();
        let b = bulk(&ramp);
        assert_eq!((b.lo, b.hi, b.below, b.above), (1.0, 100.0, 0, 0));
        // One far spike: above the high severe fence, left out; the bulk
        // ends at the largest sample kept, not at the fence.
        let mut spiked: Vec<f64> = (0..105).map(|i| 100.0 + f64::from(i % 21)).collect();
        spiked[50] = 150.0;
        let b = bulk(&spiked);
        assert_eq!((b.min, b.max), (100.0, 150.0));
        assert_eq!((b.lo, b.hi, b.below, b.above), (100.0, 120.0, 0, 1));
        // No spread inside the fences: the whole range.
        let b = bulk(&[7.0, 7.0, 7.0, 7.0, 9.0]);
        assert_eq!((b.lo, b.hi, b.below, b.above), (7.0, 9.0, 0, 0));
        let b = bulk(&[5.0]);
        assert_eq!((b.min, b.max, b.lo, b.hi), (5.0, 5.0, 5.0, 5.0));
    }

    #[test]
    fn plot_histograms_follow_the_square_root_rule() {
        let ramp: Vec<f64> = (1..=100).map(f64::from).collect();
        let h = histogram(&ramp, 50);
        assert_eq!(h.counts, vec![10; 10]);
        assert_eq!(h.width, 9.9);
        // Capped, and the spike is not binned.
        let mut many: Vec<f64> = (0..10_000).map(|i| 1000.0 + f64::from(i % 97)).collect();
        many[5] = 1e6;
        let h = histogram(&many, 50);
        assert_eq!(h.counts.len(), 50);
        assert_eq!(h.counts.iter().sum::<usize>(), 9_999);
        assert_eq!((h.bulk.below, h.bulk.above), (0, 1));
        // All equal: one zero-width bin.
        let h = histogram(&[7.0; 9], 50);
        assert_eq!((h.counts.clone(), h.width), (vec![9], 0.0));
    }
}
