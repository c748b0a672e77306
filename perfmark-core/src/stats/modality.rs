//! Multimodality: finding the modes of the samples' distribution.
//!
//! Timings are often multimodal for reasons that matter to the reader: two
//! code paths, a cache that hits or misses, interrupt peaks (Newcomer, seed
//! 001, found peaks at 100 µs, 5 ms and 11 ms with a histogram). A single
//! median then describes none of the modes, so the report says so and lists
//! them. BenchmarkDotNet flags this with its histogram "mValue"; perfmark
//! finds the modes of a kernel density estimate instead, so that each comes
//! with a centre and a weight.

use serde::Serialize;

use super::dist::{quantile_sorted, sorted_copy};
use super::summary::{mean, sd_about};

/// A mode may merge into its neighbour unless the density between them dips
/// to at most this fraction of the lower of the two peaks.
pub const MAX_DIP_RATIO: f64 = 0.7;
/// A mode smaller than this share of the samples merges into its neighbour.
pub const MIN_MODE_WEIGHT: f64 = 0.05;
/// A mode with fewer samples than this merges into its neighbour (a few
/// tail samples of a skewed distribution make a bump, not a mode).
pub const MIN_MODE_SAMPLES: usize = 5;

/// One mode of the samples' distribution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Mode {
    /// Where the estimated density peaks, in the input's unit.
    pub centre: f64,
    /// Share of the samples that belong to this mode (between the density
    /// minima that bound it), in (0, 1]; the weights of all modes sum to 1.
    pub weight: f64,
}

/// The modes found in a sample set.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Modality {
    /// The modes, by ascending centre; empty only for an empty input.
    pub modes: Vec<Mode>,
    /// The kernel bandwidth used, in the input's unit.
    pub bandwidth: f64,
    /// Whether more than one mode was found.
    pub multimodal: bool,
}

/// Finds the modes of `xs` (any order).
///
/// The density is a Gaussian kernel density estimate with Silverman's
/// rule-of-thumb bandwidth `0.9 · min(s, IQR/1.34) · n^(−1/5)` (Silverman
/// 1986, "Density Estimation", §3.4.2), evaluated on a grid a fifth of a
/// bandwidth fine (binned, so the cost does not grow with n²). Its local
/// maxima are candidate modes; the two ways a bump can be noise are then
/// removed one at a time, weakest first: a dip to its neighbour shallower
/// than [`MAX_DIP_RATIO`] of the lower peak, or a weight below
/// [`MIN_MODE_WEIGHT`] or [`MIN_MODE_SAMPLES`]. What remains is reported.
///
/// Measured (tests/stats_simulation.rs): finds both modes of a two-cluster
/// mixture and reports one mode for normal and log-normal samples, at the
/// rates given in docs/design/statistics.md. Fewer than 8 samples, or samples with no
/// spread, give one mode at the median. Cost: O(n log n) plus the grid's
/// (at most 4096 points by 51 kernel weights).
pub fn modes(xs: &[f64]) -> Modality {
    let sorted = sorted_copy(xs);
    let n = sorted.len();
    if n == 0 {
        return Modality {
            modes: Vec::new(),
            bandwidth: 0.0,
            multimodal: false,
        };
    }
    let bandwidth = silverman_bandwidth(&sorted);
    if n < 8 || bandwidth.is_nan() || bandwidth <= 0.0 || bandwidth.is_infinite() {
        return Modality {
            modes: vec![Mode {
                centre: quantile_sorted(&sorted, 0.5),
                weight: 1.0,
            }],
            bandwidth,
            multimodal: false,
        };
    }

    let (points, density) = binned_kde(&sorted, bandwidth);
    let (mut peaks, mut valleys) = peaks_and_valleys(&density);
    // merge away the weakest bump while one is too weak
    while peaks.len() > 1 {
        let (badness, valley, drop) = weakest_bump(&sorted, &points, &density, &peaks, &valleys);
        if badness <= 1.0 {
            break;
        }
        valleys.remove(valley);
        peaks.remove(drop);
    }

    let weights = weights(&sorted, &points, &valleys, peaks.len());
    let modes: Vec<Mode> = peaks
        .iter()
        .zip(weights)
        .map(|(&p, weight)| Mode {
            centre: points[p],
            weight,
        })
        .collect();
    Modality {
        multimodal: modes.len() > 1,
        modes,
        bandwidth,
    }
}

/// The local maxima (peaks) and minima (valleys) of `density`, as indices,
/// alternating along it: `valleys[k]` lies between `peaks[k]` and
/// `peaks[k + 1]`, and there is one peak more than valleys.
fn peaks_and_valleys(density: &[f64]) -> (Vec<usize>, Vec<usize>) {
    let mut peaks: Vec<usize> = Vec::new();
    let mut valleys: Vec<usize> = Vec::new();
    let mut rising = true;
    for i in 1..density.len() {
        if rising && density[i] < density[i - 1] {
            peaks.push(i - 1);
            rising = false;
        } else if !rising && density[i] > density[i - 1] {
            valleys.push(i - 1);
            rising = true;
        }
    }
    if rising {
        peaks.push(density.len() - 1);
    }
    (peaks, valleys)
}

/// The bump to merge away next, as `(badness, valley, peak)`: the indices
/// into `valleys` and `peaks` that go, and how weak the bump is. Badness
/// over 1 means too shallow a dip (density ratio over [`MAX_DIP_RATIO`]) or
/// too light a mode ([`MIN_MODE_WEIGHT`] or [`MIN_MODE_SAMPLES`] over its
/// weight). At least two peaks.
fn weakest_bump(
    sorted: &[f64],
    points: &[f64],
    density: &[f64],
    peaks: &[usize],
    valleys: &[usize],
) -> (f64, usize, usize) {
    let weights = weights(sorted, points, valleys, peaks.len());
    let (mut badness, mut valley, mut drop) = (f64::NEG_INFINITY, 0, 0);
    for (k, &v) in valleys.iter().enumerate() {
        let (left, right) = (density[peaks[k]], density[peaks[k + 1]]);
        let b = density[v] / left.min(right) / MAX_DIP_RATIO;
        if b > badness {
            // the lower peak goes; the valley between them too
            (badness, valley, drop) = (b, k, if left < right { k } else { k + 1 });
        }
    }
    let min_weight = MIN_MODE_WEIGHT.max(MIN_MODE_SAMPLES as f64 / sorted.len() as f64);
    for (k, &w) in weights.iter().enumerate() {
        let b = min_weight / w;
        if b > badness {
            // this mode joins the neighbour across the shallower (higher) valley
            let across_left =
                k == peaks.len() - 1 || (k > 0 && density[valleys[k - 1]] > density[valleys[k]]);
            (badness, valley, drop) = (b, if across_left { k - 1 } else { k }, k);
        }
    }
    (badness, valley, drop)
}

/// Silverman's rule-of-thumb bandwidth of a Gaussian kernel for sorted data:
/// `0.9 · min(s, IQR/1.34) · n^(−1/5)` (the IQR is skipped when it is 0).
/// 0 for fewer than 2 samples or no spread.
pub(crate) fn silverman_bandwidth(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n < 2 {
        return 0.0;
    }
    let iqr = quantile_sorted(sorted, 0.75) - quantile_sorted(sorted, 0.25);
    let sd = sd_about(sorted, mean(sorted));
    let spread = if iqr > 0.0 { sd.min(iqr / 1.34) } else { sd };
    0.9 * spread * (n as f64).powf(-0.2)
}

/// Gaussian kernel density estimate of sorted `data` at `x` (a probability
/// density: it integrates to 1), kernels cut at 5 bandwidths.
pub(crate) fn density_at(sorted: &[f64], x: f64, bandwidth: f64) -> f64 {
    let reach = 5.0 * bandwidth;
    let start = sorted.partition_point(|&d| d < x - reach);
    let sum: f64 = sorted[start..]
        .iter()
        .take_while(|&&d| d <= x + reach)
        .map(|&d| {
            let u = (x - d) / bandwidth;
            (-0.5 * u * u).exp()
        })
        .sum();
    sum / (sorted.len() as f64 * bandwidth * (2.0 * std::f64::consts::PI).sqrt())
}

/// Share of the sorted samples between consecutive valleys (at grid
/// `points[valleys[k]]`), one per mode.
fn weights(sorted: &[f64], points: &[f64], valleys: &[usize], modes: usize) -> Vec<f64> {
    let n = sorted.len() as f64;
    let mut bounds = vec![0.0];
    bounds.extend(
        valleys
            .iter()
            .map(|&v| sorted.partition_point(|&d| d < points[v]) as f64),
    );
    bounds.push(n);
    (0..modes)
        .map(|k| (bounds[k + 1] - bounds[k]) / n)
        .collect()
}

/// Most grid points [`binned_kde`] uses, whatever the range of the data.
const MAX_GRID: usize = 4096;

/// Gaussian kernel density of sorted `data` on an even grid, up to a
/// constant factor (only ratios are used): the samples are linearly binned
/// onto grid points a fifth of a bandwidth apart (coarser when the range
/// would need more than [`MAX_GRID`] points, e.g. rare far spikes), then
/// convolved with the kernel cut at 5 bandwidths. Returns the grid and the
/// density at each point. O(n + grid · kernel width), about 250 points for
/// unimodal samples.
fn binned_kde(sorted: &[f64], bandwidth: f64) -> (Vec<f64>, Vec<f64>) {
    let (low, high) = (
        sorted[0] - 3.0 * bandwidth,
        sorted[sorted.len() - 1] + 3.0 * bandwidth,
    );
    let step = (bandwidth / 5.0).max((high - low) / (MAX_GRID - 1) as f64);
    let size = (((high - low) / step).ceil() as usize + 1).min(MAX_GRID);
    let mut counts = vec![0.0; size];
    for &x in sorted {
        let position = (x - low) / step;
        let i = (position.floor() as usize).min(size - 2);
        let frac = (position - i as f64).clamp(0.0, 1.0);
        counts[i] += 1.0 - frac;
        counts[i + 1] += frac;
    }
    let reach = (5.0 * bandwidth / step).floor() as usize;
    let kernel: Vec<f64> = (0..=reach)
        .map(|j| {
            let u = j as f64 * step / bandwidth;
            (-0.5 * u * u).exp()
        })
        .collect();
    let density = (0..size)
        .map(|g| {
            let from = g.saturating_sub(reach);
            let to = (g + reach).min(size - 1);
            (from..=to).map(|i| counts[i] * kernel[g.abs_diff(i)]).sum()
        })
        .collect();
    let points = (0..size).map(|g| low + g as f64 * step).collect();
    (points, density)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic, roughly bell-shaped values around `centre`.
    fn bell(centre: f64, count: usize) -> Vec<f64> {
        (0..count)
            .map(|i| {
                let u = (i as f64 + 0.5) / count as f64;
                // a smooth symmetric spread in about ±2.5
                centre + 2.5 * (2.0 * u - 1.0) * (2.0 * u - 1.0).abs().sqrt()
            })
            .collect()
    }

    #[test]
    fn two_separated_clusters_are_two_modes() {
        let mut xs = bell(100.0, 60);
        xs.extend(bell(130.0, 40));
        let m = modes(&xs);
        assert!(m.multimodal, "{m:?}");
        assert_eq!(m.modes.len(), 2);
        assert!((m.modes[0].centre - 100.0).abs() < 2.0 && (m.modes[1].centre - 130.0).abs() < 2.0);
        assert!((m.modes[0].weight - 0.6).abs() < 1e-9, "{m:?}");
        assert!((m.modes[1].weight - 0.4).abs() < 1e-9, "{m:?}");
    }

    #[test]
    fn one_cluster_is_one_mode() {
        let m = modes(&bell(50.0, 200));
        assert!(!m.multimodal, "{m:?}");
        assert_eq!(m.modes.len(), 1);
        assert_eq!(m.modes[0].weight, 1.0);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(modes(&[]).modes.is_empty());
        assert_eq!(
            modes(&[4.0]).modes,
            vec![Mode {
                centre: 4.0,
                weight: 1.0
            }]
        );
        assert_eq!(modes(&[4.0; 20]).modes.len(), 1);
        assert_eq!(modes(&[1.0, 9.0]).modes.len(), 1);
    }
}
