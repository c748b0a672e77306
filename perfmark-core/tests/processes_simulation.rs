//! Proof by simulation of the interval over processes
//! (`perfmark_core::processes`): the runner's estimate (the real
//! `estimate_with`, serial correlation and all) and its workers' slices,
//! combined by the real random-effects model, cover a known truth at the
//! nominal level in worlds the model does not assume.
//!
//! Each world is a machine of `cpus` CPUs. Every CPU has an offset of its
//! own, drawn once per run (a share `rho` of the between-process
//! variance); every process adds a state of its own for its whole life
//! (the rest); inside a process, each sample and each slice has noise of
//! its own, independent or AR(1). The runner's process runs on one CPU;
//! its workers, one at a time, on the CPUs in the order the runner draws
//! (`cpu_order`: the runner's CPU last), so on 2 CPUs the processes share
//! CPUs and their states are correlated, as they are on a real 2-core
//! machine. The truth is the test's time averaged over this machine's
//! CPUs and over processes: what a process of this machine reads, on
//! average.
//!
//! The figures quoted in `docs/design/placement-and-processes.md` are
//! printed by
//! `cargo test --release -p perfmark-core --test processes_simulation -- --nocapture --test-threads=1`.

mod common;

use common::Rng;
use perfmark_core::processes::{cpu_order, learned, over_processes, Prior, FIRST_LOOK, WORKERS};
use perfmark_core::stats::{estimate_with, Statistic};

/// One simulated world.
#[derive(Debug, Clone, Copy)]
struct World {
    cpus: usize,
    /// The between-process sd of log times (CPU and process together).
    process_sd: f64,
    /// The CPU's share of that variance.
    rho: f64,
    /// Noise of one sample or slice, relative.
    noise: f64,
    /// Its AR(1) coefficient, sample to sample.
    phi: f64,
    /// Workers run.
    workers: usize,
    /// The prior the model is given.
    prior: Option<Prior>,
}

/// `n` times around `level`, multiplicative noise of sd `noise`, AR(1)
/// with `phi`.
fn series(rng: &mut Rng, n: usize, level: f64, noise: f64, phi: f64) -> Vec<f64> {
    let innovation = noise * (1.0 - phi * phi).sqrt();
    let mut e = rng.normal(0.0, noise);
    (0..n)
        .map(|_| {
            e = phi * e + rng.normal(0.0, innovation);
            level * e.exp()
        })
        .collect()
}

/// One run in `world`: whether the combined 95% interval covered the
/// truth, and its relative half-width.
fn one_run(rng: &mut Rng, w: World) -> (bool, f64) {
    const TRUTH: f64 = 1000.0;
    let cpu_sd = w.process_sd * w.rho.sqrt();
    let own_sd = w.process_sd * (1.0 - w.rho).sqrt();
    let offsets: Vec<f64> = (0..w.cpus).map(|_| rng.normal(0.0, cpu_sd)).collect();
    // The machine's own average over its CPUs: fixed for this machine.
    let center = offsets.iter().sum::<f64>() / w.cpus as f64;
    let truth = TRUTH * center.exp();
    let runner_cpu = (rng.next_u64() % w.cpus as u64) as usize;
    let process =
        |rng: &mut Rng, cpu: usize| TRUTH * (offsets[cpu] + rng.normal(0.0, own_sd)).exp();
    let level = process(rng, runner_cpu);
    let samples = series(rng, 200, level, w.noise, w.phi);
    let runner = estimate_with(&samples, 0.95, Statistic::Median);
    let candidates: Vec<usize> = (0..w.cpus).collect();
    let mut draws = Rng::new(rng.next_u64());
    let order = cpu_order(&candidates, Some(runner_cpu), || draws.next_u64());
    let workers: Vec<Vec<f64>> = (0..w.workers)
        .map(|i| {
            let level = process(rng, order[i % order.len()]);
            series(rng, 5, level, w.noise, w.phi)
        })
        .collect();
    // As the runner gives it: its samples over one worker's slices.
    let over = over_processes(&runner, &workers, 200.0 / 5.0, w.prior, 0.95).0;
    let covered = over.ci.low <= truth && truth <= over.ci.high;
    (covered, (over.ci.high - over.ci.low) / 2.0 / over.point)
}

/// Coverage and median half-width over `runs` runs of `world`.
fn coverage(seed: u64, runs: usize, world: World) -> (f64, f64) {
    let mut rng = Rng::new(seed);
    let mut covered = 0;
    let mut widths = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (c, hw) = one_run(&mut rng, world);
        covered += usize::from(c);
        widths.push(hw);
    }
    widths.sort_by(f64::total_cmp);
    (covered as f64 / runs as f64, widths[runs / 2])
}

const RUNS: usize = 2_000;

#[test]
fn the_interval_covers_each_process_drawing_its_own_noise() {
    println!("| noise | workers | prior | coverage (nominal 95%) | median half-width |");
    println!("|---|---|---|---|---|");
    let mut seed = 0x5eed_3800;
    for (noise, phi, label) in [(0.01, 0.0, "iid 1%"), (0.05, 0.5, "AR(1) φ 0.5, 5%")] {
        for workers in [FIRST_LOOK, WORKERS] {
            for (prior, prior_label) in [(None, "none"), (Some(learned::DEFAULT_PRIOR), "default")]
            {
                seed += 1;
                let world = World {
                    cpus: 2,
                    process_sd: 0.0,
                    rho: 0.0,
                    noise,
                    phi,
                    workers,
                    prior,
                };
                let (rate, hw) = coverage(seed, RUNS, world);
                println!(
                    "| {label} | {workers} | {prior_label} | {rate:.3} | ±{:.2}% |",
                    hw * 100.0
                );
                assert!(rate >= 0.93, "{world:?}: coverage {rate}");
            }
        }
    }
}

#[test]
fn the_interval_covers_correlated_processes_on_two_and_sixteen_cpus() {
    println!("| CPUs | CPU share of the process variance | workers | coverage (nominal 95%) | median half-width |");
    println!("|---|---|---|---|---|");
    let mut seed = 0x5eed_3810;
    for cpus in [2, 16] {
        for rho in [0.0, 0.5, 1.0] {
            for workers in [FIRST_LOOK, WORKERS] {
                seed += 1;
                let world = World {
                    cpus,
                    process_sd: 0.05,
                    rho,
                    noise: 0.02,
                    phi: 0.5,
                    workers,
                    prior: Some(learned::DEFAULT_PRIOR),
                };
                let (rate, hw) = coverage(seed, RUNS, world);
                println!(
                    "| {cpus} | {rho} | {workers} | {rate:.3} | ±{:.2}% |",
                    hw * 100.0
                );
                assert!(rate >= 0.93, "{world:?}: coverage {rate}");
            }
        }
    }
}

#[test]
fn a_learned_prior_narrows_the_interval_where_processes_agree() {
    // Processes that agree (no state of their own), 2% noise: with this
    // test's own history (τ ≈ 0 on 20 df) the interval is the pooled
    // one; with the default prior it is wider, and both cover.
    let world = |prior| World {
        cpus: 16,
        process_sd: 0.0,
        rho: 0.0,
        noise: 0.02,
        phi: 0.0,
        workers: WORKERS,
        prior: Some(prior),
    };
    let learned_prior = Prior {
        tau2: 1e-6,
        df: 20.0,
    };
    let (rate_learned, hw_learned) = coverage(0x5eed_3820, RUNS, world(learned_prior));
    let (rate_default, hw_default) = coverage(0x5eed_3821, RUNS, world(learned::DEFAULT_PRIOR));
    println!(
        "agreeing processes: learned prior ±{:.2}% (coverage {rate_learned:.3}), default prior ±{:.2}% (coverage {rate_default:.3})",
        hw_learned * 100.0,
        hw_default * 100.0
    );
    assert!(rate_learned >= 0.93 && rate_default >= 0.93);
    assert!(
        hw_learned < 0.8 * hw_default,
        "{hw_learned} against {hw_default}"
    );
}

#[test]
fn a_history_that_understates_the_spread_is_overruled_by_the_processes() {
    // The machine changed: its history says 0.5% on 20 df, its processes
    // now differ by 5%. Where the processes scatter beyond what the model
    // allows, their own scatter and degrees of freedom set the interval.
    println!("| history | truth | workers | coverage (nominal 95%) | median half-width |");
    println!("|---|---|---|---|---|");
    let mut seed = 0x5eed_3830;
    for workers in [FIRST_LOOK, WORKERS] {
        seed += 1;
        let world = World {
            cpus: 16,
            process_sd: 0.05,
            rho: 0.5,
            noise: 0.02,
            phi: 0.5,
            workers,
            prior: Some(Prior {
                tau2: 0.005f64.powi(2),
                df: 20.0,
            }),
        };
        let (rate, hw) = coverage(seed, RUNS, world);
        println!(
            "| 0.5% on 20 df | 5% | {workers} | {rate:.3} | ±{:.2}% |",
            hw * 100.0
        );
        // Three processes rarely show a disagreement this large: the
        // price of a history that is wrong by ten times.
        let floor = if workers == FIRST_LOOK { 0.85 } else { 0.90 };
        assert!(rate >= floor, "{world:?}: coverage {rate}");
    }
}
