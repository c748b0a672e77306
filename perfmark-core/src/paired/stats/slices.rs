//! The slices within one process pair: their ABBA quads, each pair's
//! center, the spread within pairs, and the order effect.

use super::PairCenter;
use crate::stats::dist::{quantile_sorted, sorted_copy};
use crate::stats::summary::mean;

/// Means of consecutive slice pairs (0–1, 2–3, …): the ABBA quads.
fn quads(log_ratios: &[f64]) -> Vec<f64> {
    log_ratios.chunks(2).map(mean).collect()
}

pub(super) fn pair_center(log_ratios: &[f64], center: PairCenter) -> f64 {
    match center {
        PairCenter::Mean => mean(log_ratios),
        PairCenter::QuadMedian => quantile_sorted(&sorted_copy(&quads(log_ratios)), 0.5),
    }
}

/// Pooled sd of quad means about their pair's mean quad; 0 when no pair has
/// two quads.
pub(super) fn within_pair_sd(pairs: &[Vec<f64>]) -> f64 {
    let mut sum_sq = 0.0;
    let mut dof = 0usize;
    for p in pairs {
        let q = quads(p);
        if q.len() < 2 {
            continue;
        }
        let m = mean(&q);
        sum_sq += q.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
        dof += q.len() - 1;
    }
    if dof == 0 {
        0.0
    } else {
        (sum_sq / dof as f64).sqrt()
    }
}

/// Half the mean difference between head-second (even `k`) and head-first
/// (odd `k`) log ratios, averaged over the pairs that have both.
pub(super) fn order_effect(pairs: &[Vec<f64>]) -> f64 {
    let per_pair: Vec<f64> = pairs
        .iter()
        .filter(|p| p.len() >= 2)
        .map(|p| {
            let even: Vec<f64> = p.iter().step_by(2).copied().collect();
            let odd: Vec<f64> = p.iter().skip(1).step_by(2).copied().collect();
            (mean(&even) - mean(&odd)) / 2.0
        })
        .collect();
    if per_pair.is_empty() {
        0.0
    } else {
        mean(&per_pair)
    }
}
