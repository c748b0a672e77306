//! perfmark's own quantiles and special functions ([`super::dist`],
//! [`super::special`]) against statrs, which computed them until issue 13
//! and stays a dev-dependency for this test (users never compile it).
//!
//! The claim: relative error at most 1e-10 over the ranges perfmark uses:
//! confidence 0.5 to 0.9999999 (so probabilities from 5e-8 to 1 − 5e-8, in
//! both tails), degrees of freedom from 0.5 to 1e7, fractional and (for t)
//! infinite, binomial trials up to 1e6. A seeded grid, plus the edges.

use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, Normal, StudentsT};

use super::dist::{
    binomial_quantile, chi_squared_quantile, chi_squared_upper_tail, normal_quantile, t_quantile,
    t_upper_tail, upper_tail_probability,
};
use super::special::digamma;

/// The bound on relative error.
const TOLERANCE: f64 = 1e-10;

/// SplitMix64 (Steele, Lea and Flood 2014): a seeded stream of uniforms in
/// `[0, 1)`, so the grid is the same on every run.
struct Uniforms(u64);

impl Uniforms {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Log-uniform in `[low, high]`.
    fn log_uniform(&mut self, low: f64, high: f64) -> f64 {
        (low.ln() + self.next() * (high.ln() - low.ln())).exp()
    }
}

/// Confidence levels 0.5 to 0.9999999: the edges, the usual levels, and
/// log-uniform draws of `1 − c`.
fn confidences(u: &mut Uniforms) -> Vec<f64> {
    let mut cs = vec![0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999999];
    cs.extend((0..40).map(|_| 1.0 - u.log_uniform(1e-7, 0.5)));
    cs
}

/// Every probability a quantile is asked for at those levels: one-sided
/// `c`, two-sided `(1 + c) / 2`, and their lower tails.
fn probabilities(u: &mut Uniforms) -> Vec<f64> {
    confidences(u)
        .into_iter()
        .flat_map(|c| {
            let two_sided = upper_tail_probability(c);
            [c, two_sided, 1.0 - c, 1.0 - two_sided]
        })
        .collect()
}

/// Degrees of freedom 0.5 to 1e7: the edges, small integers, and
/// log-uniform (fractional) draws.
fn degrees_of_freedom(u: &mut Uniforms) -> Vec<f64> {
    let mut dfs = vec![
        0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 9.0, 10.0, 19.5, 20.0, 29.0, 100.0, 1e3, 1e4, 1e5, 1e6,
        1e7,
    ];
    dfs.extend((0..40).map(|_| u.log_uniform(0.5, 1e7)));
    dfs
}

fn relative_error(ours: f64, theirs: f64) -> f64 {
    if ours == theirs {
        0.0
    } else {
        ((ours - theirs) / theirs).abs()
    }
}

/// Asserts every case within [`TOLERANCE`], listing the worst ones.
fn assert_close(what: &str, cases: &[(String, f64, f64)]) {
    let bad: Vec<String> = cases
        .iter()
        .filter(|(_, ours, theirs)| !(relative_error(*ours, *theirs) <= TOLERANCE))
        .map(|(case, ours, theirs)| {
            format!(
                "{case}: ours {ours:e}, statrs {theirs:e}, relative error {:e}",
                relative_error(*ours, *theirs)
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{what}: {} of {} cases off by more than {TOLERANCE:e}:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
}

#[test]
fn normal_quantile_agrees_with_statrs() {
    let mut u = Uniforms(1);
    let mut ps = probabilities(&mut u);
    ps.extend([1e-300, 1e-100, 1e-20, 1e-10, 0.5, 0.075, 0.925, 1.0 - 1e-12]);
    ps.extend((0..200).map(|_| u.next()));
    let normal = Normal::standard();
    let cases: Vec<_> = ps
        .iter()
        .filter(|&&p| p > 0.0 && p < 1.0)
        .map(|&p| {
            (
                format!("p = {p}"),
                normal_quantile(p),
                normal.inverse_cdf(p),
            )
        })
        .collect();
    assert_close("normal quantile", &cases);
}

#[test]
fn t_quantile_agrees_with_statrs() {
    let mut u = Uniforms(2);
    let ps = probabilities(&mut u);
    let dfs = degrees_of_freedom(&mut u);
    let mut cases = Vec::new();
    for &df in &dfs {
        let t = StudentsT::new(0.0, 1.0, df).unwrap();
        for &p in &ps {
            cases.push((
                format!("p = {p}, df = {df}"),
                t_quantile(p, df),
                t.inverse_cdf(p),
            ));
        }
    }
    // Infinite df (and above 1e7) is the normal quantile.
    let normal = Normal::standard();
    for &p in &ps {
        cases.push((
            format!("p = {p}, df = ∞"),
            t_quantile(p, f64::INFINITY),
            normal.inverse_cdf(p),
        ));
    }
    assert_close("t quantile", &cases);
}

#[test]
fn t_upper_tail_agrees_with_statrs() {
    let mut u = Uniforms(3);
    let dfs = degrees_of_freedom(&mut u);
    let mut cases = Vec::new();
    for &df in &dfs {
        let dist = StudentsT::new(0.0, 1.0, df).unwrap();
        let mut ts: Vec<f64> = (0..20).map(|_| 20.0 * u.next() - 10.0).collect();
        ts.extend([0.0, 1e-3, -1e-3]);
        // the statistics at the quantiles of the grid's levels
        ts.extend(confidences(&mut u).iter().map(|&c| dist.inverse_cdf(c)));
        for t in ts {
            cases.push((
                format!("t = {t}, df = {df}"),
                t_upper_tail(t, df),
                dist.sf(t),
            ));
        }
    }
    let normal = StudentsT::new(0.0, 1.0, f64::INFINITY).unwrap();
    for t in [-6.0, -1.0, 0.0, 0.5, 1.96, 5.0, 8.0] {
        cases.push((
            format!("t = {t}, df = ∞"),
            t_upper_tail(t, f64::INFINITY),
            normal.sf(t),
        ));
    }
    assert_close("t upper tail", &cases);
    assert_eq!(t_upper_tail(f64::INFINITY, 3.0), 0.0);
    assert_eq!(t_upper_tail(f64::NEG_INFINITY, 3.0), 1.0);
    assert!(t_upper_tail(f64::NAN, 3.0).is_nan());
    assert!(t_upper_tail(1.0, 0.0).is_nan());
}

#[test]
fn chi_squared_agrees_with_statrs() {
    let mut u = Uniforms(4);
    let ps = probabilities(&mut u);
    let dfs = degrees_of_freedom(&mut u);
    let mut quantiles = Vec::new();
    let mut tails = Vec::new();
    for &df in &dfs {
        let dist = ChiSquared::new(df).unwrap();
        for &p in &ps {
            let theirs = dist.inverse_cdf(p);
            quantiles.push((
                format!("p = {p}, df = {df}"),
                chi_squared_quantile(p, df),
                theirs,
            ));
            tails.push((
                format!("x = {theirs}, df = {df}"),
                chi_squared_upper_tail(theirs, df),
                dist.sf(theirs),
            ));
        }
    }
    assert_close("χ² quantile", &quantiles);
    assert_close("χ² upper tail", &tails);
}

#[test]
fn binomial_quantile_agrees_with_statrs() {
    let mut u = Uniforms(5);
    let mut trials: Vec<u64> = vec![0, 1, 2, 5, 10, 20, 100, 1_000, 100_000, 1_000_000];
    trials.extend((0..30).map(|_| u.log_uniform(1.0, 1e6) as u64));
    let mut successes = vec![0.0, 1e-6, 0.05, 0.5, 0.95, 1.0];
    successes.extend((0..4).map(|_| u.next()));
    let ps = probabilities(&mut u);
    let mut disagreements = Vec::new();
    for &n in &trials {
        for &s in &successes {
            let dist = Binomial::new(s, n).unwrap();
            for &p in ps.iter().step_by(3).chain(&[0.0, 1.0]) {
                let ours = binomial_quantile(p, n, s).unwrap();
                let theirs = dist.inverse_cdf(p);
                // Counts must be equal, unless p sits within the tolerance
                // of the CDF at the count between them (a tie that rounding
                // decides either way).
                let tie = ours.abs_diff(theirs) == 1
                    && relative_error(dist.cdf(ours.min(theirs)), p) <= TOLERANCE;
                if ours != theirs && !tie {
                    disagreements.push(format!("p = {p}, n = {n}, s = {s}: {ours} vs {theirs}"));
                }
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn digamma_agrees_with_statrs() {
    let mut u = Uniforms(6);
    let mut xs = vec![1e-3, 0.25, 0.5, 1.0, 1.461_632_144_968_362, 2.0, 5e6];
    xs.extend((0..300).map(|_| u.log_uniform(1e-3, 1e7)));
    // Relative error, except beside ψ's root at 1.4616…, where ψ passes
    // through 0 and only an absolute bound means anything.
    let bad: Vec<String> = xs
        .iter()
        .map(|&x| (x, digamma(x), statrs::function::gamma::digamma(x)))
        .filter(|(_, ours, theirs)| (ours - theirs).abs() > TOLERANCE * theirs.abs().max(1.0))
        .map(|(x, ours, theirs)| format!("x = {x}: {ours:e} vs {theirs:e}"))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
