//! Proof by simulation of perfmark's statistics (docs/design/statistics.md).
//!
//! Every case draws synthetic samples whose truth is known, with a seeded
//! generator so each run sees the same numbers, and checks a rate over at
//! least 1,000 replications against its bound:
//! - the 95% CI of each verdict candidate covers the statistic's population
//!   value 93–97% of the time for iid normal, log-normal and 5%-spike samples
//!   and for AR(1) φ = 0.5 samples (with the serial-correlation correction;
//!   the naive interval is shown to fail there);
//! - the serial-correlation check flags AR(1) φ = 0.3 at n = 100 in ≥ 90%
//!   of series and iid series in ≤ 10%;
//! - the mode finder reports two modes for a two-cluster mixture and one for
//!   unimodal data.
//!
//! Run with `cargo test -p perfmark-core --test stats_simulation -- --nocapture`
//! to print the tables pasted in docs/design/statistics.md.

mod common;

use perfmark_core::stats::{estimate_with, modes, serial_correlation, Statistic};
use statrs::distribution::{Continuous, ContinuousCDF, Normal};

/// Replications per case (at least 1,000).
const REPS: usize = 1000;
/// Sample sizes as the runtime sees them.
const SIZES: [usize; 3] = [30, 100, 300];
const CONFIDENCE: f64 = 0.95;
/// The acceptance band for the coverage of a 95% interval.
const COVERAGE_BAND: (f64, f64) = (0.93, 0.97);

use common::Rng;

/// A sample-generating process with known population values.
#[derive(Clone, Copy, Debug)]
enum Process {
    /// N(100, 10²).
    Normal,
    /// exp(N(ln 100, 0.3²)): right-skewed like most timings.
    LogNormal,
    /// N(100, 5²), each sample replaced with probability 5% by a spike
    /// uniform in [300, 1000] (interrupts, as Newcomer's "Profiling for
    /// performance" found them).
    Spikes,
    /// Stationary AR(1) around 100 with marginal sd 10 and coefficient φ.
    Ar1(f64),
    /// 60% N(100, 5²), 40% N(130, 5²): two code paths.
    Bimodal,
}

const SPIKE_RATE: f64 = 0.05;
const SPIKE_RANGE: (f64, f64) = (300.0, 1000.0);
const LN_SIGMA: f64 = 0.3;

impl Process {
    fn name(self) -> String {
        match self {
            Process::Normal => "normal".into(),
            Process::LogNormal => "log-normal".into(),
            Process::Spikes => "5% upper spikes".into(),
            Process::Ar1(phi) => format!("AR(1) φ={phi}"),
            Process::Bimodal => "bimodal 60/40".into(),
        }
    }

    fn sample(self, rng: &mut Rng, n: usize) -> Vec<f64> {
        match self {
            Process::Normal => (0..n)
                .map(|_| 100.0 + 10.0 * rng.standard_normal())
                .collect(),
            Process::LogNormal => (0..n)
                .map(|_| (100f64.ln() + LN_SIGMA * rng.standard_normal()).exp())
                .collect(),
            Process::Spikes => (0..n)
                .map(|_| {
                    if rng.uniform() < SPIKE_RATE {
                        SPIKE_RANGE.0 + (SPIKE_RANGE.1 - SPIKE_RANGE.0) * rng.uniform()
                    } else {
                        100.0 + 5.0 * rng.standard_normal()
                    }
                })
                .collect(),
            Process::Ar1(phi) => {
                let innovation = 10.0 * (1.0 - phi * phi).sqrt();
                let mut e = 10.0 * rng.standard_normal(); // stationary start
                (0..n)
                    .map(|_| {
                        let x = 100.0 + e;
                        e = phi * e + innovation * rng.standard_normal();
                        x
                    })
                    .collect()
            }
            Process::Bimodal => (0..n)
                .map(|_| {
                    if rng.uniform() < 0.6 {
                        100.0 + 5.0 * rng.standard_normal()
                    } else {
                        130.0 + 5.0 * rng.standard_normal()
                    }
                })
                .collect(),
        }
    }

    /// The population value of `statistic` for this process.
    fn truth(self, statistic: Statistic) -> f64 {
        let z = Normal::new(0.0, 1.0).unwrap();
        // E[X | X <= fence] for X ~ N(mu, sd²)
        let truncated_normal_mean = |mu: f64, sd: f64, fence: f64| {
            mu - sd * z.pdf((fence - mu) / sd) / z.cdf((fence - mu) / sd)
        };
        match (self, statistic) {
            (Process::Normal | Process::Ar1(_), Statistic::Median | Statistic::Mean) => 100.0,
            (Process::Normal | Process::Ar1(_), Statistic::MeanRemoveUpper) => {
                // quartiles 100 ± 10·0.6745, fence q3 + 1.5·iqr
                let q = 10.0 * z.inverse_cdf(0.75);
                truncated_normal_mean(100.0, 10.0, 100.0 + q + 3.0 * q)
            }
            (Process::LogNormal, Statistic::Median) => 100.0,
            (Process::LogNormal, Statistic::Mean) => 100.0 * (LN_SIGMA * LN_SIGMA / 2.0).exp(),
            (Process::LogNormal, Statistic::MeanRemoveUpper) => {
                let q = |p: f64| 100.0 * (LN_SIGMA * z.inverse_cdf(p)).exp();
                let fence = q(0.75) + 1.5 * (q(0.75) - q(0.25));
                // E[X | X <= f] for log-normal(m, s): e^{m+s²/2} Φ((ln f − m − s²)/s) / Φ((ln f − m)/s)
                let (m, s) = (100f64.ln(), LN_SIGMA);
                (m + s * s / 2.0).exp() * z.cdf((fence.ln() - m - s * s) / s)
                    / z.cdf((fence.ln() - m) / s)
            }
            // spikes all lie above every plausible normal value, so the lower
            // 95% of the distribution is the normal part alone
            (Process::Spikes, Statistic::Median) => {
                100.0 + 5.0 * z.inverse_cdf(0.5 / (1.0 - SPIKE_RATE))
            }
            (Process::Spikes, Statistic::Mean) => {
                (1.0 - SPIKE_RATE) * 100.0 + SPIKE_RATE * (SPIKE_RANGE.0 + SPIKE_RANGE.1) / 2.0
            }
            (Process::Spikes, Statistic::MeanRemoveUpper) => {
                let q = |p: f64| 100.0 + 5.0 * z.inverse_cdf(p / (1.0 - SPIKE_RATE));
                let fence = q(0.75) + 1.5 * (q(0.75) - q(0.25));
                truncated_normal_mean(100.0, 5.0, fence)
            }
            (Process::Bimodal, _) => f64::NAN,
        }
    }
}

/// A seed per (experiment, process, size), so cases do not share numbers.
fn seed(experiment: u64, process: Process, n: usize) -> u64 {
    let p = match process {
        Process::Normal => 1,
        Process::LogNormal => 2,
        Process::Spikes => 3,
        Process::Ar1(phi) => 4 + (phi * 100.0) as u64,
        Process::Bimodal => 200,
    };
    experiment * 1_000_003 + p * 10_007 + n as u64
}

/// Coverage of the corrected and the naive interval, per statistic.
struct Coverage {
    process: Process,
    n: usize,
    corrected: [f64; 3],
    naive: [f64; 3],
    mean_effective_n: [f64; 3],
}

fn coverage(process: Process, n: usize) -> Coverage {
    let mut rng = Rng::new(seed(1, process, n));
    let mut hits = [0usize; 3];
    let mut naive_hits = [0usize; 3];
    let mut effective = [0.0; 3];
    let truths = Statistic::ALL.map(|s| process.truth(s));
    for _ in 0..REPS {
        let xs = process.sample(&mut rng, n);
        for (i, statistic) in Statistic::ALL.into_iter().enumerate() {
            let e = estimate_with(&xs, CONFIDENCE, statistic);
            hits[i] += usize::from(e.ci.contains(truths[i]));
            naive_hits[i] += usize::from(e.naive_ci.contains(truths[i]));
            effective[i] += e.effective_n;
        }
    }
    let rate = |h: usize| h as f64 / REPS as f64;
    Coverage {
        process,
        n,
        corrected: hits.map(rate),
        naive: naive_hits.map(rate),
        mean_effective_n: effective.map(|e| e / REPS as f64),
    }
}

fn coverage_table(processes: &[Process]) -> Vec<Coverage> {
    let rows: Vec<Coverage> = processes
        .iter()
        .flat_map(|&p| SIZES.iter().map(move |&n| coverage(p, n)))
        .collect();
    println!(
        "\ncoverage of the {}% CI over {REPS} replications (corrected / naive; mean n_eff)",
        CONFIDENCE * 100.0
    );
    println!(
        "| case | n | {} |",
        Statistic::ALL
            .map(|s| format!("{s}: corrected / naive (n_eff)"))
            .join(" | ")
    );
    println!("|---|---|---|---|---|");
    for r in &rows {
        let cells: Vec<String> = (0..3)
            .map(|i| {
                format!(
                    "{:.1}% / {:.1}% ({:.0})",
                    100.0 * r.corrected[i],
                    100.0 * r.naive[i],
                    r.mean_effective_n[i]
                )
            })
            .collect();
        println!("| {} | {} | {} |", r.process.name(), r.n, cells.join(" | "));
    }
    rows
}

fn in_band(rate: f64) -> bool {
    (COVERAGE_BAND.0..=COVERAGE_BAND.1).contains(&rate)
}

#[test]
fn verdict_intervals_cover_the_truth_on_independent_samples() {
    let rows = coverage_table(&[Process::Normal, Process::LogNormal, Process::Spikes]);
    let mut failures = Vec::new();
    for r in &rows {
        for (i, statistic) in Statistic::ALL.into_iter().enumerate() {
            // the plain mean is not a verdict candidate: spikes make its
            // sampling distribution far from normal at these sizes
            if statistic == Statistic::Mean && matches!(r.process, Process::Spikes) {
                continue;
            }
            if !in_band(r.corrected[i]) {
                failures.push(format!(
                    "{} n={} {statistic}: {}",
                    r.process.name(),
                    r.n,
                    r.corrected[i]
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "coverage outside {COVERAGE_BAND:?}: {failures:#?}"
    );
}

#[test]
fn correction_restores_coverage_under_serial_correlation() {
    let rows = coverage_table(&[Process::Ar1(0.5)]);
    let mut failures = Vec::new();
    for r in &rows {
        for (i, statistic) in Statistic::ALL.into_iter().enumerate() {
            if !in_band(r.corrected[i]) {
                failures.push(format!(
                    "n={} {statistic} corrected: {}",
                    r.n, r.corrected[i]
                ));
            }
            // the iid interval is far too narrow here: τ = 3 for the mean
            if r.naive[i] > 0.90 {
                failures.push(format!(
                    "n={} {statistic} naive unexpectedly fine: {}",
                    r.n, r.naive[i]
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

fn flag_rate(process: Process, n: usize) -> f64 {
    let mut rng = Rng::new(seed(2, process, n));
    let flagged = (0..REPS)
        .filter(|_| serial_correlation(&process.sample(&mut rng, n)).flagged)
        .count();
    flagged as f64 / REPS as f64
}

#[test]
fn serial_correlation_check_has_power_and_few_false_alarms() {
    println!("\nserial-correlation flag rate over {REPS} series");
    println!("| case | n | flagged |");
    println!("|---|---|---|");
    let mut failures = Vec::new();
    for n in SIZES {
        for process in [
            Process::Ar1(0.3),
            Process::Normal,
            Process::LogNormal,
            Process::Spikes,
        ] {
            let rate = flag_rate(process, n);
            println!("| {} | {n} | {:.1}% |", process.name(), 100.0 * rate);
            let ok = match process {
                // The power bound is set at n = 100; larger n only helps
                Process::Ar1(_) => n < 100 || rate >= 0.90,
                _ => rate <= 0.10,
            };
            if !ok {
                failures.push(format!("{} n={n}: {rate}", process.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn modes_are_found_where_they_are_and_not_elsewhere() {
    println!("\nmultimodality over {REPS} sample sets");
    println!(
        "| case | n | reported multimodal | both clusters found | mean modes | weight of lower mode |"
    );
    println!("|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for n in SIZES {
        for process in [Process::Bimodal, Process::Normal, Process::LogNormal] {
            let mut rng = Rng::new(seed(3, process, n));
            let (mut multimodal, mut found, mut count, mut lower_weight) = (0, 0, 0, 0.0);
            for _ in 0..REPS {
                let m = modes(&process.sample(&mut rng, n));
                multimodal += usize::from(m.multimodal);
                count += m.modes.len();
                if let [a, b] = m.modes[..] {
                    // the two modes are the two clusters (centres 100 and 130, sd 5)
                    if (a.centre - 100.0).abs() < 8.0 && (b.centre - 130.0).abs() < 8.0 {
                        found += 1;
                        lower_weight += a.weight;
                    }
                }
            }
            let rate = |k: usize| k as f64 / REPS as f64;
            let weight = lower_weight / found.max(1) as f64;
            println!(
                "| {} | {n} | {:.1}% | {:.1}% | {:.2} | {} |",
                process.name(),
                100.0 * rate(multimodal),
                100.0 * rate(found),
                count as f64 / REPS as f64,
                if found > 0 {
                    format!("{weight:.3}")
                } else {
                    "-".into()
                },
            );
            let ok = match process {
                // the mixture is 60/40: the lower mode's weight must say so
                Process::Bimodal => rate(found) >= 0.90 && (weight - 0.6).abs() < 0.03,
                _ => rate(multimodal) <= 0.10,
            };
            if !ok {
                failures.push(format!("{} n={n}", process.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn generator_is_deterministic_and_standard() {
    let mut a = Rng::new(7);
    let mut b = Rng::new(7);
    assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
    let mut rng = Rng::new(11);
    let xs: Vec<f64> = (0..100_000).map(|_| rng.standard_normal()).collect();
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / xs.len() as f64;
    assert!(
        mean.abs() < 0.01 && (var - 1.0).abs() < 0.02,
        "mean {mean} var {var}"
    );
}
