use std::time::Duration;

use super::*;
use crate::measure::StopReason;
use crate::stats::seeded::SeededNormal;
use crate::stats::{estimate_with, Statistic};

/// Simulated worker processes: each has a per-iteration time of its own
/// (its process state), and every slice is timed exactly.
struct Processes {
    /// Each started worker's ns per iteration, in start order.
    per_iter_ns: Vec<f64>,
    /// Drawn for each new worker.
    next: Box<dyn FnMut() -> f64>,
    /// Each request: (worker, iters, warm_iters).
    requests: Vec<(usize, u64, u64)>,
    /// The current pair's workers (head-side index, other index).
    current: Option<(usize, usize)>,
}

impl Processes {
    fn new(next: impl FnMut() -> f64 + 'static) -> Self {
        Processes {
            per_iter_ns: Vec::new(),
            next: Box::new(next),
            requests: Vec::new(),
            current: None,
        }
    }
}

impl PairDriver for Processes {
    type Error = String;

    fn open_pair(&mut self) -> Result<(), String> {
        let head = self.per_iter_ns.len();
        for _ in 0..2 {
            let ns = (self.next)();
            self.per_iter_ns.push(ns);
        }
        self.current = Some((head, head + 1));
        Ok(())
    }

    fn slice(&mut self, side: Side, iters: u64, warm_iters: u64) -> Result<Duration, String> {
        let (head, base) = self.current.ok_or("no pair open")?;
        let worker = if side == Side::Head { head } else { base };
        self.requests.push((worker, iters, warm_iters));
        Ok(Duration::from_nanos(
            (self.per_iter_ns[worker] * iters as f64).round() as u64,
        ))
    }

    fn loop_overhead_ns(&mut self) -> Result<Option<f64>, String> {
        Ok(None)
    }

    fn elapsed(&self) -> Duration {
        Duration::ZERO
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
    assert_eq!(plan.pairs, PAIRS);
    // 12 ms of the runner's warm-up: three slices' worth, in whole slices.
    assert_eq!(plan.warm_iters, 15_000);
    assert_eq!(plan.overhead_ns, 0.5);
    // A slow body: one 100 ms call a sample; a 1 s cap affords 2 slices.
    let slow = measurement(vec![1e8; 5], 1, 0.0);
    let plan = ProcessPlan::for_measurement(&slow, Duration::from_secs(1)).unwrap();
    assert_eq!((plan.iters, plan.slices, plan.warm_iters), (1, 2, 1));
    // iter_custom: its times are taken as given, nothing subtracted.
    let mut custom = measurement(vec![100.0; 40], 10_000, 0.0);
    custom.kind = SampleKind::Custom;
    assert_eq!(ProcessPlan::for_measurement(&custom, Duration::from_secs(3)).unwrap().overhead_ns, 0.0);
    assert_eq!(ProcessPlan::for_measurement(&measurement(vec![], 1, 0.0), Duration::from_secs(3)), None);
}

#[test]
fn each_worker_is_warmed_once_and_their_slices_alternate() {
    let mut drawn = [100.0, 120.0, 100.0, 130.0].into_iter();
    let mut driver = Processes::new(move || drawn.next().unwrap());
    let plan = ProcessPlan {
        pairs: 2,
        slices: 3,
        iters: 1000,
        warm_iters: 2000,
        overhead_ns: 0.0,
    };
    let workers = run(&mut driver, &plan).unwrap();
    assert_eq!(workers.len(), 4);
    for (w, expected) in workers.iter().zip([100.0, 120.0, 100.0, 130.0]) {
        assert_eq!(w, &vec![expected; 3]);
    }
    let order: Vec<usize> = driver.requests.iter().map(|r| r.0).collect();
    assert_eq!(order, [0, 1, 1, 0, 0, 1, 2, 3, 3, 2, 2, 3]);
    let warmed: Vec<usize> = driver
        .requests
        .iter()
        .filter(|r| r.2 > 0)
        .map(|r| r.0)
        .collect();
    assert_eq!(warmed, [0, 1, 2, 3]);
    let run = WorkerRun {
        workers,
        plan,
        elapsed: Duration::ZERO,
        pair_cpus: vec![Some(1), None],
    };
    let spread = ProcessSpread::new(110.0, &run).unwrap();
    assert_eq!(spread.pair_cpus, [Some(1), None]);
    assert_eq!(spread.estimates_ns, [110.0, 100.0, 120.0, 100.0, 130.0]);
    assert_eq!(spread.df, 4.0);
    let logs: Vec<f64> = spread.estimates_ns.iter().map(|x| x.ln()).collect();
    let m = logs.iter().sum::<f64>() / 5.0;
    let sd = (logs.iter().map(|l| (l - m).powi(2)).sum::<f64>() / 4.0).sqrt();
    assert!((spread.sd_log - sd).abs() < 1e-12);
}

#[test]
fn the_harness_cost_is_subtracted_from_every_slice() {
    let mut driver = Processes::new(|| 10.0);
    let plan = ProcessPlan {
        pairs: 1,
        slices: 2,
        iters: 1000,
        warm_iters: 0,
        overhead_ns: 0.5,
    };
    let workers = run(&mut driver, &plan).unwrap();
    assert_eq!(workers, vec![vec![9.5, 9.5], vec![9.5, 9.5]]);
}

#[test]
fn a_spread_needs_two_positive_estimates() {
    assert_eq!(log_spread(&[5.0]), None);
    assert_eq!(log_spread(&[5.0, -1.0]), None);
    assert_eq!(log_spread(&[5.0, 5.0]), Some((0.0, 1.0)));
    let plan = ProcessPlan {
        pairs: 1,
        slices: 1,
        iters: 1,
        warm_iters: 0,
        overhead_ns: 0.0,
    };
    let run = WorkerRun {
        workers: vec![vec![]],
        plan,
        elapsed: Duration::ZERO,
        pair_cpus: Vec::new(),
    };
    assert_eq!(ProcessSpread::new(5.0, &run), None);
}

/// Seeded simulation: each process of unchanged code lands at its own
/// offset (log-normal, sd 8%, the state that lasts a process) and is
/// measured to ±0.2% inside; 2,000 runs of five processes each. The
/// runner's own interval, which sees one process, covers the truth a
/// fraction of the time; the interval over the processes covers it at
/// its nominal level.
#[test]
fn the_interval_over_processes_covers_a_state_that_lasts_a_process() {
    const RUNS: usize = 2_000;
    let truth = 1_000.0;
    let mut rng = SeededNormal(0x5eed_0030);
    let (mut runner_covers, mut processes_cover) = (0, 0);
    for _ in 0..RUNS {
        let mut process = || truth * (0.08 * rng.next()).exp();
        let here = process();
        let samples: Vec<f64> = (0..200).map(|i| here * (1.0 + 0.002 * ((i % 7) as f64 - 3.0) / 3.0)).collect();
        let runner = estimate_with(&samples, 0.95, Statistic::Median);
        let mut estimates = vec![runner.point];
        estimates.extend((0..4).map(|_| process()));
        let over = over_processes(&runner, &estimates);
        // The truth the interval is about: the geometric mean over
        // processes, the median of the log-normal offsets: the truth.
        let mean_truth = truth;
        runner_covers += usize::from(runner.ci.low <= mean_truth && mean_truth <= runner.ci.high);
        processes_cover += usize::from(over.ci.low <= mean_truth && mean_truth <= over.ci.high);
        assert!(over.ci.low <= runner.point.min(over.point) || over.ci.low <= over.point);
        let (point, naive) = (runner.point, runner.naive_ci);
        assert!((over.ci.high / over.point) >= naive.high / point - 1e-9);
        assert_eq!(over.effective_n, 5.0);
    }
    let runner_rate = runner_covers as f64 / RUNS as f64;
    let rate = processes_cover as f64 / RUNS as f64;
    println!("coverage of the mean over processes: runner's interval {runner_rate:.3}, over processes {rate:.3}");
    assert!(runner_rate < 0.2, "{runner_rate}");
    assert!((0.93..=0.97).contains(&rate), "{rate}");
}

#[test]
fn processes_that_agree_give_their_time_exactly() {
    let runner = estimate_with(&[100.0; 30], 0.95, Statistic::Median);
    let same = over_processes(&runner, &[100.0; 5]);
    assert_eq!((same.point, same.ci.low, same.ci.high), (100.0, 100.0, 100.0));
}

#[test]
fn an_unbounded_interval_of_the_runner_gives_way_to_the_processes() {
    let mut runner = estimate_with(&[100.0; 30], 0.95, Statistic::Median);
    runner.ci.low = 0.0;
    runner.ci.high = f64::INFINITY;
    runner.naive_ci = runner.ci;
    let over = over_processes(&runner, &[100.0, 102.0, 98.0, 101.0, 99.0]);
    assert!(over.ci.low > 95.0 && over.ci.high < 105.0, "{:?}", over.ci);
    let look = Interval {
        low: 0.0,
        high: f64::INFINITY,
        confidence: 0.99,
    };
    let (_, ci) = widen(100.0, look, &[100.0, 102.0, 98.0, 101.0, 99.0]).unwrap();
    assert!(ci.low > 90.0 && ci.high < 110.0 && ci.confidence == 0.99, "{ci:?}");
}

#[test]
fn one_process_leaves_the_estimate_as_it_was() {
    let runner = estimate_with(&[10.0, 11.0, 12.0], 0.95, Statistic::Median);
    for estimates in [&[11.0][..], &[11.0, f64::NAN][..]] {
        let same = over_processes(&runner, estimates);
        assert_eq!((same.point, same.ci), (runner.point, runner.ci));
    }
}
