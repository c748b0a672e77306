use std::convert::Infallible;
use std::path::Path;

use super::*;
use crate::Error;

/// A quiet machine: every iteration of the base costs `base_ns`, of the
/// head `head_ns`, plus `overhead_ns` of harness; opening a pair costs
/// 30 ms. Logs every call.
struct Exact {
    base_ns: f64,
    head_ns: f64,
    overhead_ns: f64,
    clock_ns: f64,
    calls: Vec<(Side, u64, u64)>,
    opened: usize,
}

impl Exact {
    fn new(base_ns: f64, head_ns: f64, overhead_ns: f64) -> Self {
        Exact {
            base_ns,
            head_ns,
            overhead_ns,
            clock_ns: 0.0,
            calls: Vec::new(),
            opened: 0,
        }
    }
}

impl PairDriver for Exact {
    type Error = Infallible;

    fn open_pair(&mut self) -> Result<(), Infallible> {
        self.opened += 1;
        self.clock_ns += 30e6;
        Ok(())
    }

    fn slice(&mut self, side: Side, iters: u64, warm: u64) -> Result<Duration, Infallible> {
        self.calls.push((side, iters, warm));
        let per_iter = match side {
            Side::Base => self.base_ns,
            Side::Head => self.head_ns,
        } + self.overhead_ns;
        self.clock_ns += per_iter * (iters + warm) as f64;
        Ok(Duration::from_nanos(
            (per_iter * iters as f64).round() as u64
        ))
    }

    fn loop_overhead_ns(&mut self) -> Result<Option<f64>, Infallible> {
        Ok(Some(self.overhead_ns))
    }

    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.clock_ns as u64)
    }
}

#[test]
fn the_overhead_is_subtracted_so_twice_the_work_reads_twice_the_time() {
    // 1 ns of work against 2 ns of work, with 1 ns of harness per
    // iteration: without the subtraction the ratio would read 1.5.
    let mut driver = Exact::new(1.0, 2.0, 1.0);
    let m = run_paired(
        &mut driver,
        &PairedPlan::new(0.95, 0.05, Duration::from_secs(3)),
    )
    .unwrap();
    let est = m.estimate.unwrap();
    assert!((est.ratio - 2.0).abs() < 1e-6, "{}", est.ratio);
    assert_eq!(m.verdict.change, Outcome::Regressed);
    assert!(m.verdict.fails());
    assert_eq!(m.stop, PairedStop::Clear);
    assert_eq!(m.pairs_opened, 4);
    assert_eq!(m.looks, 1);
}

#[test]
fn slices_alternate_in_abba_order_with_warm_runs() {
    let mut driver = Exact::new(100.0, 100.0, 0.0);
    let m = run_paired(
        &mut driver,
        &PairedPlan::new(0.95, 0.05, Duration::from_secs(3)),
    )
    .unwrap();
    // Equal work: zero-width interval at 1, stopped at the first look.
    assert_eq!(m.stop, PairedStop::Clear);
    assert_eq!(m.verdict.change, Outcome::Unchanged);
    let n = m.iters_per_slice;
    assert!(n as f64 * 100.0 >= 10e6, "{n}");
    let timed: Vec<(Side, u64, u64)> = driver.calls[m.search_slices..].to_vec();
    assert!(timed.iter().all(|c| c.1 == n));
    let sides: Vec<Side> = timed.iter().take(6).map(|c| c.0).collect();
    use Side::{Base, Head};
    assert_eq!(sides, [Base, Head, Head, Base, Base, Head]);
    let warm: Vec<u64> = timed.iter().take(6).map(|c| c.2).collect();
    let switch = n / 10;
    // Pair 0: the base is fresh, the head was warmed by the search.
    assert_eq!(warm, [n, switch, 0, switch, 0, switch]);
    // Pair 1 starts fresh: a discarded head slice, then the base warmed
    // for a whole slice.
    let calls: Vec<(Side, u64)> = timed[12..17].iter().map(|c| (c.0, c.2)).collect();
    assert_eq!(
        calls,
        [
            (Head, 0),
            (Base, n),
            (Head, switch),
            (Head, 0),
            (Base, switch)
        ]
    );
    assert_eq!(m.discarded_slices, 3);
    assert_eq!(m.slice_pairs.len(), 4 * m.slices_per_pair);
    assert!(m
        .slice_pairs
        .iter()
        .skip(1)
        .step_by(2)
        .all(|s| s.head_first));
}

#[test]
fn slow_bodies_get_fewer_slices_per_pair() {
    // 200 ms per iteration, 3 s: 4 pairs of (30 ms + 2·k·200 ms) fit
    // only with k = 2 (a single ABBA quad).
    let mut driver = Exact::new(200e6, 200e6, 0.0);
    let mut plan = PairedPlan::new(0.95, 0.05, Duration::from_secs(3));
    plan.first_slice_warm = false;
    let m = run_paired(&mut driver, &plan).unwrap();
    assert_eq!(m.iters_per_slice, 1);
    assert_eq!(m.slices_per_pair, 2);
}

#[test]
fn each_slice_pair_keeps_what_its_workers_observed() {
    /// [`Exact`], whose workers report their thread: the base's slice
    /// waited 1 ms for a CPU, the head's none.
    struct Observing(Exact, Option<Side>);
    impl PairDriver for Observing {
        type Error = Infallible;
        fn open_pair(&mut self) -> Result<(), Infallible> {
            self.0.open_pair()
        }
        fn slice(&mut self, side: Side, iters: u64, warm: u64) -> Result<Duration, Infallible> {
            self.1 = Some(side);
            self.0.slice(side, iters, warm)
        }
        fn loop_overhead_ns(&mut self) -> Result<Option<f64>, Infallible> {
            self.0.loop_overhead_ns()
        }
        fn elapsed(&self) -> Duration {
            self.0.elapsed()
        }
        fn last_observation(&mut self) -> Option<ThreadObservation> {
            let wait_ns = match self.1.take()? {
                Side::Base => 1e6,
                Side::Head => 0.0,
            };
            Some(ThreadObservation {
                wall_ns: 1e7,
                wait_ns: Some(wait_ns),
                ..ThreadObservation::default()
            })
        }
    }
    let mut driver = Observing(Exact::new(100.0, 100.0, 0.0), None);
    let m = run_paired(
        &mut driver,
        &PairedPlan::new(0.95, 0.05, Duration::from_secs(3)),
    )
    .unwrap();
    assert!(!m.slice_pairs.is_empty());
    for s in &m.slice_pairs {
        assert_eq!(s.base_observed.and_then(|o| o.wait_ns), Some(1e6));
        assert_eq!(s.head_observed.and_then(|o| o.wait_ns), Some(0.0));
    }
    // The simulation's drivers say nothing: no figures.
    let mut quiet = Exact::new(100.0, 100.0, 0.0);
    let m = run_paired(
        &mut quiet,
        &PairedPlan::new(0.95, 0.05, Duration::from_secs(3)),
    )
    .unwrap();
    assert!(m.slice_pairs.iter().all(|s| s.base_observed.is_none()));
}

#[test]
fn driver_errors_are_returned() {
    struct Broken;
    impl PairDriver for Broken {
        type Error = Error;
        fn open_pair(&mut self) -> Result<(), Error> {
            Ok(())
        }
        fn slice(&mut self, side: Side, _: u64, _: u64) -> Result<Duration, Error> {
            Err(Error::worker(side, Path::new("perf"), "crashed"))
        }
        fn loop_overhead_ns(&mut self) -> Result<Option<f64>, Error> {
            Ok(None)
        }
        fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
    }
    let plan = PairedPlan::new(0.95, 0.05, Duration::from_secs(3));
    let e = run_paired(&mut Broken, &plan).unwrap_err();
    assert!(e.is_worker(), "{e}");
    assert!(e.to_string().ends_with("worker (perf) crashed"), "{e}");
}

#[test]
fn measurement_round_trips_through_json() {
    let mut driver = Exact::new(10.0, 11.0, 0.5);
    let m = run_paired(
        &mut driver,
        &PairedPlan::new(0.95, 0.05, Duration::from_secs(3)),
    )
    .unwrap();
    let json = serde_json::to_string(&m).unwrap();
    let back: PairedMeasurement = serde_json::from_str(&json).unwrap();
    assert_eq!(back.slice_pairs, m.slice_pairs);
    assert_eq!(back.verdict, m.verdict);
    assert_eq!(m.head_samples_ns().len(), m.slice_pairs.len());
    assert!(m.estimate.is_some());
}

#[test]
fn pairs_that_ran_the_same_links_are_one_unit() {
    let sp = |pair: usize, d: f64| SlicePair {
        pair,
        head_first: false,
        base_ns: 100.0,
        head_ns: 100.0 * d.exp(),
        base_observed: None,
        head_observed: None,
    };
    let slices: Vec<SlicePair> = (0..5)
        .flat_map(|p| [sp(p, 0.01 * p as f64), sp(p, 0.01 * p as f64)])
        .collect();
    let close = |units: Vec<Vec<f64>>| -> Vec<Vec<i64>> {
        units
            .iter()
            .map(|u| u.iter().map(|d| (d * 100.0).round() as i64).collect())
            .collect()
    };
    // One link a side: every pair its own unit.
    assert_eq!(close(log_ratios_by_unit(&slices, 5, 1)).len(), 5);
    // Three links: pairs 0 and 3, 1 and 4 ran the same; their slices are
    // concatenated in the order taken, so quads stay whole.
    assert_eq!(
        close(log_ratios_by_unit(&slices, 5, 3)),
        vec![vec![0, 0, 3, 3], vec![1, 1, 4, 4], vec![2, 2]]
    );
    // More links than pairs: every pair its own unit; later pairs' slices
    // (not yet analyzed) are left out.
    assert_eq!(
        close(log_ratios_by_unit(&slices, 4, 10)),
        vec![vec![0, 0], vec![1, 1], vec![2, 2], vec![3, 3]]
    );
}
