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
