use super::*;
use crate::measure::Plan;

/// A per-call measurement with `clock` of a routine that sleeps 50 µs
/// per call: its estimate, and the wall time kept beside it.
fn sleeping_per_call(clock: Clock, info: clock::ClockInfo) -> (f64, Option<f64>) {
    let mut plan = Plan::new(0.95, 0.05, Duration::from_millis(30), Duration::ZERO);
    plan.measure = clock;
    plan.clock = info;
    let mut bencher =
        Bencher::new(Measurer::Adaptive(Adaptive::new(plan.clone()))).with_clock(clock);
    bencher.iter_per_call(|| (), |()| std::thread::sleep(Duration::from_micros(50)));
    let wall = bencher.wall_ns_per_iter();
    let (m, _) = bencher.finish();
    let m = m.expect("measured");
    assert_eq!(m.kind, SampleKind::PerCall);
    let estimate = stats::estimate_with(&m.samples_ns, 0.95, m.kind.verdict_statistic());
    (estimate.point, wall)
}

#[test]
fn per_call_sampling_times_with_the_tests_clock() {
    let (wall_point, kept) = sleeping_per_call(Clock::Wall, clock::info());
    assert!(wall_point >= 40_000.0, "{wall_point}");
    assert_eq!(kept, None);
    // The CPU clock: a sleep costs the thread little CPU time, and each
    // call's wall time (at least the 50 µs asked for) is kept beside it.
    let Some(cpu) = clock::cpu_info() else {
        return;
    };
    let (cpu_point, kept) = sleeping_per_call(Clock::Cpu, cpu);
    let wall = kept.expect("wall time kept beside the CPU time");
    assert!(wall >= 50_000.0, "{wall}");
    assert!(cpu_point < wall, "{cpu_point} {wall}");
}

/// A bencher of a team of `threads`, measuring for about 30 ms.
fn team_bencher(threads: u64) -> Bencher {
    let plan = Plan::new(0.95, 0.05, Duration::from_millis(30), Duration::ZERO);
    Bencher::new(Measurer::Adaptive(Adaptive::new(plan)))
        .with_team(crate::threads::TeamPlan::new(threads, None))
}

#[test]
fn iter_shared_runs_the_routine_on_every_thread_of_the_team() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Mutex;
    let hits = AtomicU64::new(0);
    let seen = Mutex::new(std::collections::HashSet::new());
    let mut bencher = team_bencher(2);
    bencher.iter_shared(|| {
        hits.fetch_add(1, Ordering::Relaxed);
        if hits.load(Ordering::Relaxed).is_multiple_of(1024) {
            seen.lock().unwrap().insert(std::thread::current().id());
        }
    });
    let team = bencher.team_times.clone().expect("a team ran");
    let record = team.record("f".to_owned(), bencher.samples());
    let (m, _) = bencher.finish();
    let m = m.expect("measured");
    assert_eq!(m.kind, SampleKind::Threads);
    assert_eq!(record.count, 2);
    assert_eq!(record.per_thread_ns.len(), 2);
    assert!(
        record.per_thread_ns.iter().all(|ns| *ns > 0.0),
        "{record:?}"
    );
    assert_eq!(seen.lock().unwrap().len(), 2, "both threads ran it");
    // Each sample's time is at least the longer thread's own time.
    let point = stats::quantile(&m.samples_ns, 0.5);
    let slower = record.per_thread_ns.iter().copied().fold(0.0, f64::max);
    assert!(point >= 0.8 * slower, "{point} {slower}");
}

#[test]
fn iter_shared_on_one_thread_is_iter() {
    let mut bencher = team_bencher(1);
    bencher.iter_shared(|| std::hint::black_box(3u64).pow(2));
    assert!(bencher.team_times.is_none());
    let (m, _) = bencher.finish();
    assert_eq!(m.expect("measured").kind, SampleKind::Loop);
}

#[test]
#[should_panic(expected = "hand its routine to `Bencher::iter_shared`")]
fn a_threaded_test_that_calls_iter_is_told_to_use_iter_shared() {
    team_bencher(2).iter(|| 1 + 1);
}
