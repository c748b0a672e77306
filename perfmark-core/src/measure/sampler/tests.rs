use super::*;
use crate::measure::LocalDriver;

fn custom(plan: &Plan, timed: impl FnMut(u64) -> Duration) -> Measurement {
    let mut driver = LocalDriver::new(SampleKind::Custom, timed, None::<fn(u64) -> Duration>);
    run(plan, &mut driver)
}

fn quiet_plan() -> Plan {
    let mut plan = Plan::new(
        0.95,
        0.01,
        Duration::from_millis(500),
        Duration::from_millis(50),
    );
    plan.clock = ClockInfo {
        resolution_ns: 1.0,
        overhead_ns: 20.0,
    };
    plan
}

#[test]
fn grow_doubles_at_least_and_jumps_at_most_sixteen_fold() {
    assert_eq!(grow(1, 0.0, 1e6), 16);
    assert_eq!(grow(10, 1e3, 1e6), 160);
    assert_eq!(grow(1000, 9e5, 1e6), 2000);
}

#[test]
fn custom_timings_are_taken_as_given() {
    // 250 ns per iteration exactly: every sample reads 250 ns.
    let m = custom(&quiet_plan(), |n| Duration::from_nanos(250 * n));
    assert!(
        m.samples_ns.iter().all(|&s| s == 250.0),
        "{:?}",
        &m.samples_ns[..5]
    );
    assert_eq!(m.loop_overhead_ns, 0.0);
    assert_eq!(m.first_call_ns, 250.0);
    // 1 ms blocks: 250 ns × 4096 (n grows by ×16 from 1, then ×2 ... until ≥ 1 ms).
    assert!(m.iters_per_sample as f64 * 250.0 >= 1e6);
    assert_eq!(m.stop, StopReason::Precision);
    assert!(m.samples_ns.len() >= MIN_SAMPLES);
}

#[test]
fn a_straddled_budget_keeps_sampling_until_max_time() {
    // Noisy custom timings around 100 ns, budget exactly at the truth:
    // the CI keeps straddling it, so sampling runs to the time cap.
    let mut state = 1u64;
    let mut plan = quiet_plan();
    plan.budget_ns = Some(100.0);
    plan.max_time = Duration::from_millis(200);
    let m = custom(&plan, |n| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let noise = ((state >> 33) as f64 / (1u64 << 31) as f64 - 0.5) * 0.2;
        Duration::from_nanos((100.0 * (1.0 + noise) * n as f64) as u64)
    });
    assert_eq!(m.stop, StopReason::MaxTime);
    // The last look decided, at the level the earlier looks left it:
    // here the precision was never reached, so it was the only look,
    // at the test's own level.
    let look = m.budget_look.expect("a look at the budget");
    assert!(look.last && look.ci.straddles(100.0), "{look:?}");
    assert_eq!((look.look, look.ci.confidence), (1, 0.95), "{look:?}");
}

/// Synthetic timings: 3% independent noise around `truth_ns` per
/// iteration, from a seeded generator.
fn noisy(truth_ns: f64, seed: u64) -> impl FnMut(u64) -> Duration {
    let mut state = seed | 1;
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let u = (state >> 11) as f64 / (1u64 << 53) as f64;
        Duration::from_nanos((truth_ns * (1.0 + 0.06 * (u - 0.5)) * n as f64) as u64)
    }
}

#[test]
fn a_clear_budget_stops_at_the_first_look_at_its_stricter_level() {
    let mut plan = Plan::simulated(0.95, 0.01, Duration::from_secs(2), Duration::ZERO);
    plan.budget_ns = Some(200.0);
    let m = custom(&plan, noisy(100.0, 7));
    assert_eq!(m.stop, StopReason::Precision);
    let look = m.budget_look.expect("a look at the budget");
    assert_eq!((look.look, look.max_looks, look.last), (1, 6, false));
    assert!((look.ci.confidence - (1.0 - 0.05 / 32.0)).abs() < 1e-12);
    // Its CI is wider than the 95% one on the same samples.
    let plain = stats::estimate(&m.samples_ns, 0.95).ci;
    assert!(look.ci.low < plain.low && look.ci.high > plain.high);
    // No budget, no look.
    plan.budget_ns = None;
    assert_eq!(custom(&plan, noisy(100.0, 7)).budget_look, None);
}

#[test]
fn a_simulated_plan_is_a_pure_function_of_the_timings() {
    // Max time counts only the reported 1 ms blocks: 300 of them, and
    // the same measurement every time, however slow the machine.
    let mut plan = Plan::simulated(
        0.95,
        0.01,
        Duration::from_millis(300),
        Duration::from_millis(5),
    );
    plan.budget_ns = Some(100.0);
    let a = custom(&plan, noisy(100.0, 3));
    let b = custom(&plan, noisy(100.0, 3));
    assert_eq!(a.samples_ns, b.samples_ns);
    assert_eq!((a.warmup_ns, a.sampling_ns), (b.warmup_ns, b.sampling_ns));
    assert_eq!(a.budget_look, b.budget_look);
    assert_eq!(a.stop, StopReason::MaxTime);
    let block_ns = 100.0 * a.iters_per_sample as f64;
    let expected = (300e6 / block_ns).ceil();
    assert!(
        (a.samples_ns.len() as f64 - expected).abs() <= 0.05 * expected,
        "{}",
        a.samples_ns.len()
    );
}

#[test]
fn samples_below_the_harness_cost_stay_as_measured() {
    // The routine's blocks read less than the empty harness's: every
    // sample comes out negative. They are kept as measured (the reading
    // at the resolution is the checks', `stats::at_resolution`), and
    // the budget's look reads them as 0 up to the overshoot.
    let mut plan = Plan::simulated(0.95, 0.01, Duration::from_millis(100), Duration::ZERO);
    plan.budget_ns = Some(0.1);
    let mut driver = LocalDriver::new(
        SampleKind::Loop,
        |n: u64| Duration::from_nanos(20 + n / 2),
        Some(|n: u64| Duration::from_nanos(20 + n)),
    );
    let m = run(&plan, &mut driver);
    assert!(
        (m.loop_overhead_ns - 1.0).abs() < 1e-6,
        "{}",
        m.loop_overhead_ns
    );
    assert!(
        m.samples_ns.iter().all(|&s| s < 0.0),
        "{:?}",
        &m.samples_ns[..3]
    );
    let look = m.budget_look.expect("a look at the budget");
    assert_eq!(look.ci.low, 0.0);
    assert!(look.ci.high >= 0.49, "{look:?}");
    assert!(look.ci.straddles(0.1));
}

#[test]
fn smoke_runs_a_few_iterations_only() {
    let mut plan = quiet_plan();
    plan.smoke = true;
    let mut calls = 0;
    let mut driver = LocalDriver::new(
        SampleKind::Loop,
        |n| {
            calls += n;
            Duration::from_nanos(10)
        },
        None::<fn(u64) -> Duration>,
    );
    let m = run(&plan, &mut driver);
    assert_eq!(calls, SMOKE_ITERATIONS);
    assert_eq!(m.stop, StopReason::Smoke);
}

#[test]
fn warmup_settles_on_steady_blocks() {
    assert!(settled(&[5.0; 10]));
    assert!(!settled(&[5.0; 9]));
    let mut cooling = vec![10.0; 5];
    cooling.extend([5.0; 5]);
    assert!(!settled(&cooling));
}
