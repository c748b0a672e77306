use std::time::Duration;

use super::*;
use crate::measure::StopReason;
use crate::stats::seeded::SeededNormal;
use crate::stats::{estimate_with, Statistic};

/// Simulated worker processes, one at a time: each has a per-iteration
/// time of its own (its process state), and every slice is timed exactly.
struct Processes {
    /// Each started worker's ns per iteration, in start order.
    per_iter_ns: Vec<f64>,
    /// Drawn for each new worker.
    next: Box<dyn FnMut() -> f64>,
    /// Each request: (worker, iters, warm_iters).
    requests: Vec<(usize, u64, u64)>,
    /// Each start's CPU.
    started_on: Vec<Option<usize>>,
    open: bool,
}

impl Processes {
    fn new(next: impl FnMut() -> f64 + 'static) -> Self {
        Processes {
            per_iter_ns: Vec::new(),
            next: Box::new(next),
            requests: Vec::new(),
            started_on: Vec::new(),
            open: false,
        }
    }
}

impl WorkerDriver for Processes {
    type Error = String;

    fn start(&mut self, cpu: Option<usize>) -> Result<(), String> {
        if self.open {
            return Err("the previous worker was not finished".into());
        }
        let ns = (self.next)();
        self.per_iter_ns.push(ns);
        self.started_on.push(cpu);
        self.open = true;
        Ok(())
    }

    fn slice(&mut self, iters: u64, warm_iters: u64) -> Result<Duration, String> {
        if !self.open {
            return Err("no worker".into());
        }
        let worker = self.per_iter_ns.len() - 1;
        self.requests.push((worker, iters, warm_iters));
        Ok(Duration::from_nanos(
            (self.per_iter_ns[worker] * iters as f64).round() as u64,
        ))
    }

    fn finish(&mut self) -> Result<Option<usize>, String> {
        self.open = false;
        Ok(self.started_on.last().copied().flatten())
    }
}

fn measurement(samples_ns: Vec<f64>, iters: u64, warmup_ns: f64) -> Measurement {
    Measurement {
        kind: SampleKind::Loop,
        samples_ns,
        iters_per_sample: iters,
        first_call_ns: 0.0,
        loop_overhead_ns: 0.5,
        warmup_ns,
        warmup_blocks: 1,
        warmup_settled: true,
        sampling_ns: 0.0,
        stop: StopReason::Precision,
        planned_samples: 0,
        budget_look: None,
        reference_ns: Vec::new(),
    }
}

#[test]
fn the_plan_times_whole_samples_for_about_five_milliseconds_and_warms_each_worker() {
    // 1 ms samples of 1000 iterations (999.5 ns + 0.5 ns of harness each).
    let m = measurement(vec![999.5; 40], 1000, 12e6);
    let plan = ProcessPlan::for_measurement(&m, Duration::from_secs(3)).unwrap();
    assert_eq!(plan.iters, 5_000);
    assert_eq!(plan.slices, SLICES);
    // 12 ms of the runner's warm-up: three slices' worth, in whole slices.
    assert_eq!(plan.warm_iters, 15_000);
    assert_eq!(plan.overhead_ns, 0.5);
    // A slow body: one 100 ms call a sample; a 1 s cap still takes 3.
    let slow = measurement(vec![1e8; 5], 1, 0.0);
    let plan = ProcessPlan::for_measurement(&slow, Duration::from_secs(1)).unwrap();
    assert_eq!((plan.iters, plan.slices, plan.warm_iters), (1, 3, 1));
    // iter_custom: its times are taken as given, nothing subtracted.
    let mut custom = measurement(vec![100.0; 40], 10_000, 0.0);
    custom.kind = SampleKind::Custom;
    assert_eq!(
        ProcessPlan::for_measurement(&custom, Duration::from_secs(3))
            .unwrap()
            .overhead_ns,
        0.0
    );
    assert_eq!(
        ProcessPlan::for_measurement(&measurement(vec![], 1, 0.0), Duration::from_secs(3)),
        None
    );
}

#[test]
fn workers_run_one_at_a_time_each_warmed_then_its_slices_back_to_back() {
    let mut drawn = [100.0, 120.0, 100.0, 130.0].into_iter();
    let mut driver = Processes::new(move || drawn.next().unwrap());
    let plan = ProcessPlan {
        slices: 3,
        iters: 1000,
        warm_iters: 2000,
        overhead_ns: 0.0,
    };
    let (workers, held) = run(&mut driver, &plan, &[Some(1), Some(0), Some(1), None]).unwrap();
    assert_eq!(workers.len(), 4);
    for (w, expected) in workers.iter().zip([100.0, 120.0, 100.0, 130.0]) {
        assert_eq!(w, &vec![expected; 3]);
    }
    assert_eq!(held, [Some(1), Some(0), Some(1), None]);
    let order: Vec<usize> = driver.requests.iter().map(|r| r.0).collect();
    assert_eq!(order, [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
    let warmed: Vec<usize> = driver
        .requests
        .iter()
        .filter(|r| r.2 > 0)
        .map(|r| r.0)
        .collect();
    assert_eq!(warmed, [0, 1, 2, 3]);
}

#[test]
fn the_first_workers_sample_the_cpus_the_runner_did_not() {
    let mut state = 7u64;
    let mut draw = || crate::worker::splitmix64(&mut state);
    for runner in 0..4 {
        let order = cpu_order(&[0, 1, 2, 3], Some(runner), &mut draw);
        assert_eq!(order.len(), 4);
        assert_eq!(order[3], runner, "{order:?}");
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3]);
    }
}

#[test]
fn the_harness_cost_is_subtracted_from_every_slice() {
    let mut driver = Processes::new(|| 10.0);
    let plan = ProcessPlan {
        slices: 2,
        iters: 1000,
        warm_iters: 0,
        overhead_ns: 0.5,
    };
    let (workers, _) = run(&mut driver, &plan, &[None, None]).unwrap();
    assert_eq!(workers, vec![vec![9.5, 9.5], vec![9.5, 9.5]]);
}

#[test]
fn a_spread_needs_two_positive_estimates() {
    assert_eq!(log_spread(&[5.0]), None);
    assert_eq!(log_spread(&[5.0, -1.0]), None);
    assert_eq!(log_spread(&[5.0, 5.0]), Some((0.0, 1.0)));
}

/// Seeded simulation: each process of unchanged code lands at its own
/// offset (log-normal, sd 8%, the state that lasts a process), measured
/// to ±0.2% inside by the runner (200 samples) and by each of four
/// workers (five slices); 2,000 runs. The runner's own interval, which
/// sees one process, covers the truth a fraction of the time; the
/// combination covers it at its nominal level.
#[test]
fn the_interval_over_processes_covers_a_state_that_lasts_a_process() {
    const RUNS: usize = 2_000;
    let truth = 1_000.0;
    let mut rng = SeededNormal(0x5eed_0030);
    let (mut runner_covers, mut processes_cover) = (0, 0);
    for _ in 0..RUNS {
        let here = truth * (0.08 * rng.next()).exp();
        let samples: Vec<f64> = (0..200)
            .map(|_| here * (1.0 + 0.002 * rng.next()))
            .collect();
        let runner = estimate_with(&samples, 0.95, Statistic::Median);
        let workers: Vec<Vec<f64>> = (0..4)
            .map(|_| {
                let state = truth * (0.08 * rng.next()).exp();
                (0..5).map(|_| state * (1.0 + 0.002 * rng.next())).collect()
            })
            .collect();
        let over = over_processes(&runner, &workers, 0.0, None, 0.95).0;
        runner_covers += usize::from(runner.ci.low <= truth && truth <= runner.ci.high);
        processes_cover += usize::from(over.ci.low <= truth && truth <= over.ci.high);
    }
    let runner_rate = runner_covers as f64 / RUNS as f64;
    let rate = processes_cover as f64 / RUNS as f64;
    println!("coverage over processes: runner's interval {runner_rate:.3}, combined {rate:.3}");
    assert!(runner_rate < 0.2, "{runner_rate}");
    assert!((0.93..=0.975).contains(&rate), "{rate}");
}

#[test]
fn processes_that_agree_give_their_time_exactly() {
    let runner = estimate_with(&[100.0; 30], 0.95, Statistic::Median);
    let same = over_processes(&runner, &[vec![100.0; 5], vec![100.0; 5]], 0.0, None, 0.95).0;
    assert_eq!(same.point, 100.0);
    assert!(same.ci.low > 99.9 && same.ci.high < 100.1, "{:?}", same.ci);
}

#[test]
fn with_no_spread_between_processes_longer_sampling_still_narrows_the_interval() {
    // One state for every process, 1% noise per sample: the combined
    // interval follows the runner's, which narrows with its samples.
    let mut rng = SeededNormal(0x5eed_0031);
    let mut widths = Vec::new();
    for n in [50, 800] {
        let samples: Vec<f64> = (0..n).map(|_| 100.0 * (1.0 + 0.01 * rng.next())).collect();
        let runner = estimate_with(&samples, 0.95, Statistic::Median);
        let workers: Vec<Vec<f64>> = (0..4)
            .map(|_| (0..5).map(|_| 100.0 * (1.0 + 0.01 * rng.next())).collect())
            .collect();
        let over = over_processes(
            &runner,
            &workers,
            0.0,
            Some(Prior { tau2: 0.0, df: 4.0 }),
            0.95,
        )
        .0;
        widths.push((over.ci.high - over.ci.low) / over.point);
    }
    assert!(widths[1] < 0.6 * widths[0], "{widths:?}");
}

#[test]
fn one_unusable_runner_interval_leaves_the_estimate_as_it_was() {
    let mut runner = estimate_with(&[10.0, 11.0, 12.0], 0.95, Statistic::Median);
    runner.ci.low = 0.0;
    let same = over_processes(&runner, &[vec![11.0; 5]], 0.0, None, 0.95).0;
    assert_eq!((same.point, same.ci), (runner.point, runner.ci));
}
