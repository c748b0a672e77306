//! Several processes' estimates of one test, combined by a random-effects
//! model: each process `i` gives a log time `yᵢ` with its own sampling
//! variance `vᵢ` (on `dfᵢ` degrees of freedom), and the processes
//! themselves differ by a between-process variance `τ²` beyond that.
//!
//! - `τ²` is estimated by Paule and Mandel's method ([`paule_mandel`]),
//!   never below DerSimonian and Laird's method of moments (DerSimonian
//!   and Laird, "Meta-analysis in clinical trials", 1986): Cochran's
//!   `Q = Σ wᵢ (yᵢ − ȳ_w)²` with `wᵢ = 1/vᵢ` has the expectation
//!   `k − 1 + τ² (Σw − Σw²/Σw)`, so `τ̂² = max(0, (Q − (k − 1)) / C)`.
//! - The machine's learned spread ([`Prior`], `τ₀²` on `d₀` degrees of
//!   freedom) moderates it, as Smyth moderates a gene's variance with the
//!   variance of every gene ("Linear models and empirical Bayes methods for
//!   assessing differential expression in microarray experiments", 2004):
//!   `τ̃² = (d₀ τ₀² + (k − 1) τ̂²) / (d₀ + k − 1)` on `d₀ + k − 1` degrees of
//!   freedom, so that five processes no longer carry the whole burden.
//! - Each process is weighted by its precision, `wᵢ* = 1/(vᵢ + τ̃²)`; the
//!   point is `μ = Σ wᵢ* yᵢ / Σ wᵢ*`, its variance `1/Σ wᵢ*`, and, as
//!   Hartung and Knapp propose for few studies ("A refined method for the
//!   meta-analysis of controlled clinical trials with binary outcome",
//!   2001), never below the weighted spread of the processes about it,
//!   `Σ wᵢ* (yᵢ − μ)² / ((k − 1) Σ wᵢ*)`; where that spread is more than
//!   the model allows (its Q beyond χ²'s 75th percentile on `k − 1` df),
//!   the processes disagree with the prior and only their own `k − 1`
//!   degrees of freedom back the interval.
//! - The degrees of freedom are Satterthwaite's over the variance's parts
//!   (the between-process part on `τ̃²`'s degrees of freedom, each
//!   process's sampling part on its own), never more than `τ̃²`'s own: with
//!   few processes, a `τ̂²` that came out small by chance would otherwise
//!   claim the samples' degrees of freedom.
//!
//! With `τ̃² = 0` this is the pooled within-process interval, which longer
//! sampling narrows; with a real per-process state the interval covers the
//! processes. Pure functions; proven by seeded simulation
//! (`tests/processes_simulation.rs`).

use crate::stats::dist::{chi_squared_quantile, t_quantile, upper_tail_probability};

/// One process's estimate of a test, on the log scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Unit {
    /// The natural logarithm of its time per iteration.
    pub log: f64,
    /// The sampling variance of `log` within the process.
    pub var: f64,
    /// The degrees of freedom of `var`.
    pub df: f64,
}

impl Unit {
    /// A process's estimate from its slices' times per iteration: the mean
    /// of their logarithms, its variance (the slices' variance over their
    /// count) on `n − 1` degrees of freedom. `None` with fewer than two
    /// slices or one that is not a positive finite time.
    pub fn from_slices(per_iter_ns: &[f64]) -> Option<Unit> {
        let n = per_iter_ns.len();
        if n < 2 || per_iter_ns.iter().any(|&x| !(x > 0.0 && x.is_finite())) {
            return None;
        }
        let logs: Vec<f64> = per_iter_ns.iter().map(|x| x.ln()).collect();
        let mean = logs.iter().sum::<f64>() / n as f64;
        let ss: f64 = logs.iter().map(|y| (y - mean).powi(2)).sum();
        let var = ss / (n - 1) as f64 / n as f64;
        Some(Unit {
            log: mean,
            // Slices that agree exactly (synthetic timings) still carry the
            // clock's rounding: a floor keeps their weight finite.
            var: var.max(VAR_FLOOR),
            df: (n - 1) as f64,
        })
    }

    /// [`Unit::from_slices`], its variance at least `floor`'s (what the
    /// runner's noise gives for a worker's work), on `floor`'s degrees of
    /// freedom where the floor sets it.
    pub fn from_slices_at_least(per_iter_ns: &[f64], floor: Unit) -> Option<Unit> {
        let own = Unit::from_slices(per_iter_ns)?;
        Some(if floor.var > own.var {
            Unit {
                var: floor.var,
                df: floor.df,
                ..own
            }
        } else {
            own
        })
    }

    /// A process's estimate from a confidence interval `[low, high]` at
    /// `confidence` about `point`, on `df` degrees of freedom (the
    /// runner's, corrected for serial correlation): the interval's
    /// half-width on the log scale divided by the t quantile it was made
    /// with. `None` when the point or an end is not a positive finite time.
    pub fn from_interval(
        point: f64,
        low: f64,
        high: f64,
        confidence: f64,
        df: f64,
    ) -> Option<Unit> {
        let usable = |x: f64| x > 0.0 && x.is_finite();
        if !(usable(point) && usable(low) && usable(high)) || high < low {
            return None;
        }
        let df = df.max(1.0);
        let q = t_quantile(upper_tail_probability(confidence), df);
        let half = (high.ln() - low.ln()) / 2.0;
        let se = half / q;
        Some(Unit {
            log: point.ln(),
            var: (se * se).max(VAR_FLOOR),
            df,
        })
    }
}

/// The smallest sampling variance a process is given: a relative error of
/// 0.01%, the rounding of a 10 µs slice to whole nanoseconds.
const VAR_FLOOR: f64 = 1e-8;

/// The between-process variance learned on this machine: `tau2` on `df`
/// degrees of freedom (see [`super::learned`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    /// The between-process variance of log times.
    pub tau2: f64,
    /// Its degrees of freedom (its weight against a run's own estimate).
    pub df: f64,
}

/// Several processes combined ([`random_effects`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Combined {
    /// The combined log time.
    pub log: f64,
    /// Its standard error.
    pub se: f64,
    /// The degrees of freedom of `se` (Satterthwaite).
    pub df: f64,
    /// The between-process variance used (moderated by the prior).
    pub tau2: f64,
    /// Its degrees of freedom.
    pub tau2_df: f64,
    /// This run's own estimate of the between-process variance, before the
    /// prior (Paule–Mandel, no smaller than DerSimonian–Laird; 0 with one
    /// process).
    pub tau2_own: f64,
    /// Each process's share of the weight, in the order given.
    pub weights: Vec<f64>,
    /// Whether the processes scattered more than the model with the prior
    /// allows, so that their own degrees of freedom alone back the
    /// interval.
    pub disagree: bool,
}

impl Combined {
    /// The interval `[low, high]` in ns at `confidence`, two-sided.
    pub fn interval_ns(&self, confidence: f64) -> (f64, f64) {
        let half = t_quantile(upper_tail_probability(confidence), self.df) * self.se;
        ((self.log - half).exp(), (self.log + half).exp())
    }

    /// The point in ns.
    pub fn point_ns(&self) -> f64 {
        self.log.exp()
    }
}

/// The units weighted by `1/(vᵢ + tau2)`: the weights, their sum, the
/// weighted mean of the logs and the generalized Q about it,
/// `Σ wᵢ (yᵢ − μ)²` (Cochran's Q at `tau2 = 0`).
struct Weighted {
    w: Vec<f64>,
    sum: f64,
    mean: f64,
    q: f64,
}

impl Weighted {
    fn new(units: &[Unit], tau2: f64) -> Weighted {
        let w: Vec<f64> = units.iter().map(|u| 1.0 / (u.var + tau2)).collect();
        let sum: f64 = w.iter().sum();
        let mean = units.iter().zip(&w).map(|(u, w)| w * u.log).sum::<f64>() / sum;
        let q = units
            .iter()
            .zip(&w)
            .map(|(u, w)| w * (u.log - mean).powi(2))
            .sum();
        Weighted { w, sum, mean, q }
    }
}

/// DerSimonian and Laird's estimate of the between-process variance; 0
/// with fewer than two units.
pub fn dersimonian_laird(units: &[Unit]) -> f64 {
    if units.len() < 2 {
        return 0.0;
    }
    let fixed = Weighted::new(units, 0.0);
    let sw2: f64 = fixed.w.iter().map(|x| x * x).sum();
    let c = fixed.sum - sw2 / fixed.sum;
    let k = units.len() as f64;
    if c > 0.0 {
        ((fixed.q - (k - 1.0)) / c).max(0.0)
    } else {
        0.0
    }
}

/// Paule and Mandel's estimate of the between-process variance: the `τ²`
/// at which the generalized Q, `Σ (yᵢ − μ)² / (vᵢ + τ²)`, equals its
/// expectation `k − 1` (0 when even `τ² = 0` gives less). Found by
/// bisection on the log scale; less biased than DerSimonian–Laird's
/// where the processes' precisions differ (Veroniki et al., "Methods to
/// estimate the between-study variance and its uncertainty in
/// meta-analysis", 2016).
pub fn paule_mandel(units: &[Unit]) -> f64 {
    let k = units.len();
    if k < 2 {
        return 0.0;
    }
    let excess = |tau2: f64| Weighted::new(units, tau2).q - (k - 1) as f64;
    if excess(0.0) <= 0.0 {
        return 0.0;
    }
    // The logs' whole range squared bounds τ² from above.
    let (lo, hi) = units
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), u| {
            (a.min(u.log), b.max(u.log))
        });
    let (mut low, mut high) = (1e-12, ((hi - lo) * (hi - lo)).max(1e-10));
    for _ in 0..60 {
        let mid = (low * high).sqrt();
        if excess(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    high
}

/// Satterthwaite's degrees of freedom over the parts of
/// Σ wᵢ*² (vᵢ + τ²) / (Σ wᵢ*)², for `units` of weights `w` (summing to
/// `sw`) and a `tau2` known on `tau2_df` degrees of freedom; infinite
/// when no part has a variance.
fn satterthwaite_df(units: &[Unit], w: &[f64], sw: f64, tau2: f64, tau2_df: f64) -> f64 {
    let sw_sq = sw * sw;
    let between = tau2 * w.iter().map(|w| w * w).sum::<f64>() / sw_sq;
    let mut denominator = if tau2 > 0.0 {
        between * between / tau2_df.max(1.0)
    } else {
        0.0
    };
    let mut parts = between;
    for (u, w) in units.iter().zip(w) {
        let part = w * w * u.var / sw_sq;
        denominator += part * part / u.df.max(1.0);
        parts += part;
    }
    if denominator > 0.0 {
        parts * parts / denominator
    } else {
        f64::INFINITY
    }
}

/// `units` combined by the random-effects model the module describes,
/// moderated by `prior` when there is one. `None` with no unit, or with
/// one unit and no prior (one process says nothing of the others).
pub fn random_effects(units: &[Unit], prior: Option<Prior>) -> Option<Combined> {
    let k = units.len();
    if k == 0 || (k == 1 && prior.is_none()) {
        return None;
    }
    let own = paule_mandel(units).max(dersimonian_laird(units));
    let own_df = (k - 1) as f64;
    let (d0, t0) = prior.map_or((0.0, 0.0), |p| (p.df.max(0.0), p.tau2.max(0.0)));
    let tau2_df = d0 + own_df;
    let tau2 = (d0 * t0 + own_df * own) / tau2_df;
    let Weighted {
        w,
        sum: sw,
        mean: log,
        q,
    } = Weighted::new(units, tau2);
    let mut var = 1.0 / sw;
    // Hartung–Knapp's floor: the processes' own scatter about the point.
    // Where the scatter is more than the model allows (its Q beyond the
    // 75th percentile of χ² on k − 1 df) the processes disagree with the
    // prior, and only their own degrees of freedom back the interval.
    let mut disagree = false;
    if k >= 2 {
        var = var.max(q / (own_df * sw));
        disagree = d0 > 0.0 && q > chi_squared_quantile(0.75, own_df);
    }
    let mut df = satterthwaite_df(units, &w, sw, tau2, tau2_df);
    if k >= 2 {
        // Whether the processes differ is known only as well as τ² is: an
        // estimate of it that came out small by chance must not claim the
        // samples' many degrees of freedom.
        df = df.min(tau2_df.max(1.0));
    }
    if disagree {
        df = df.min(own_df);
    }
    let df = df.clamp(1.0, 1e6);
    Some(Combined {
        log,
        se: var.sqrt(),
        df,
        tau2,
        tau2_df,
        tau2_own: own,
        weights: w.iter().map(|x| x / sw).collect(),
        disagree,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(ns: f64, rel_se: f64, df: f64) -> Unit {
        Unit {
            log: ns.ln(),
            var: rel_se * rel_se,
            df,
        }
    }

    #[test]
    fn processes_that_agree_give_the_pooled_interval() {
        let units = [
            unit(100.0, 0.01, 50.0),
            unit(100.0, 0.01, 50.0),
            unit(100.0, 0.01, 50.0),
        ];
        let c = random_effects(&units, None).unwrap();
        assert_eq!(c.tau2, 0.0);
        assert!((c.point_ns() - 100.0).abs() < 1e-9);
        // Three equal variances pooled: se = 1% / √3.
        assert!((c.se - 0.01 / 3f64.sqrt()).abs() < 1e-12, "{c:?}");
    }

    #[test]
    fn processes_that_differ_beyond_their_sampling_widen_the_interval() {
        let units = [
            unit(100.0, 0.002, 50.0),
            unit(110.0, 0.002, 4.0),
            unit(90.0, 0.002, 4.0),
        ];
        let c = random_effects(&units, None).unwrap();
        assert!(c.tau2 > 0.005, "{c:?}");
        let (low, high) = c.interval_ns(0.95);
        assert!(low < 90.0 && high > 110.0, "[{low}, {high}]");
    }

    #[test]
    fn a_precise_process_outweighs_a_rough_one() {
        let units = [unit(100.0, 0.001, 100.0), unit(120.0, 0.2, 4.0)];
        let c = random_effects(&units, None).unwrap();
        assert!(c.weights[0] > 0.99, "{c:?}");
        assert!((c.point_ns() - 100.0).abs() < 1.0, "{c:?}");
    }

    #[test]
    fn the_prior_alone_widens_one_process() {
        let one = [unit(100.0, 0.001, 100.0)];
        assert!(random_effects(&one, None).is_none());
        let c = random_effects(
            &one,
            Some(Prior {
                tau2: 0.03f64.powi(2),
                df: 20.0,
            }),
        )
        .unwrap();
        assert!((c.se - (0.001f64.powi(2) + 0.03f64.powi(2)).sqrt()).abs() < 1e-12);
        assert!(c.df > 15.0 && c.df < 21.0, "{c:?}");
    }

    #[test]
    fn an_interval_read_back_gives_its_standard_error() {
        let q = t_quantile(0.975, 9.0);
        let (lo, hi) = ((-0.02 * q).exp() * 50.0, (0.02 * q).exp() * 50.0);
        let u = Unit::from_interval(50.0, lo, hi, 0.95, 9.0).unwrap();
        assert!((u.var.sqrt() - 0.02).abs() < 1e-9, "{u:?}");
        assert!(Unit::from_interval(50.0, 0.0, hi, 0.95, 9.0).is_none());
    }
}
