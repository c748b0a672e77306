//! The async forms measured by the adaptive sampler, in this process.
//! Bounds are loose: these run beside other tests on a shared machine;
//! `cargo xtask linearity` gives the figures.

use std::cell::Cell;
use std::future::Future;
use std::hint::black_box;
use std::time::Duration;

use super::*;
use crate::bencher::{BlockOn, Measurer};
use crate::measure::{Adaptive, Measurement, Plan};
use crate::stats;

/// One xorshift64 step: six dependent ALU operations.
#[inline(always)]
fn step(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// `steps` dependent steps, not inlined.
#[inline(never)]
fn chain(mut x: u64, steps: u64) -> u64 {
    for _ in 0..steps {
        x = step(x);
    }
    x
}

/// A Bencher measuring with a short plan on `clock`.
fn bencher(clock: Clock) -> Bencher {
    let mut plan = Plan::new(
        0.95,
        0.02,
        Duration::from_millis(150),
        Duration::from_millis(20),
    );
    plan.measure = clock;
    if clock == Clock::Cpu {
        plan.clock = clock::cpu_info().expect("a CPU clock");
    }
    Bencher::new(Measurer::Adaptive(Adaptive::new(plan))).with_clock(clock)
}

/// The point estimate of what `bencher` measured, with the measurement.
fn measured(bencher: Bencher) -> (f64, Measurement) {
    let (m, _) = bencher.finish();
    let m = m.expect("measured");
    let estimate = stats::estimate_with(&m.samples_ns, 0.95, m.kind.verdict_statistic());
    (estimate.point, m)
}

/// Counts its `block_on` calls, and runs them on [`BlockOn`].
#[derive(Default)]
struct Counted {
    calls: Cell<u64>,
}

impl Executor for Counted {
    fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.calls.set(self.calls.get() + 1);
        BlockOn.block_on(future)
    }
}

fn async_chain(steps: u64) -> f64 {
    let mut b = bencher(Clock::Wall);
    let mut x = 7u64;
    b.to_async(BlockOn).iter(async || {
        x = chain(x, steps);
        x
    });
    measured(b).0
}

fn sync_chain(steps: u64) -> f64 {
    let mut b = bencher(Clock::Wall);
    let mut x = 7u64;
    b.iter(|| {
        x = chain(x, steps);
        x
    });
    measured(b).0
}

#[test]
fn eight_times_the_work_reads_about_eight_times_the_time_as_its_sync_twin_does() {
    let one = async_chain(64);
    let eight = async_chain(8 * 64);
    let twin = sync_chain(64);
    // About 200 ns of work: the executor's cost, subtracted, is a few ns.
    assert!(
        (5.0..12.0).contains(&(eight / one)),
        "{one} ns, 8×: {eight} ns"
    );
    assert!(
        (0.7..1.4).contains(&(one / twin)),
        "async {one} ns, sync {twin} ns"
    );
}

#[test]
fn an_empty_async_routine_reads_next_to_nothing() {
    let mut b = bencher(Clock::Wall);
    b.to_async(BlockOn).iter(async || ());
    let (point, m) = measured(b);
    assert_eq!(m.kind, SampleKind::Loop);
    // What the empty calibration subtracts is the same empty routine.
    assert!(point.abs() < 5.0, "{point} ns");
    assert!(m.loop_overhead_ns < 50.0, "{}", m.loop_overhead_ns);
}

#[test]
fn one_block_on_per_block_never_one_per_iteration() {
    let executor = Counted::default();
    let mut b = bencher(Clock::Wall);
    let mut x = 1u64;
    b.to_async(&executor).iter(async || {
        x = step(x);
        x
    });
    let (_, m) = measured(b);
    let iterations = m.iters_per_sample * m.samples_ns.len() as u64;
    assert!(m.iters_per_sample > 100, "{}", m.iters_per_sample);
    assert!(
        executor.calls.get() < iterations / 50,
        "{} block_on calls for {iterations} iterations",
        executor.calls.get()
    );
}

/// Steps of the setup of the batched tests: 300 times the routine's 64.
const SETUP_STEPS: u64 = 64 * 300;

#[test]
fn the_batched_forms_take_their_inputs_from_the_untimed_setup() {
    // The routine alone, timed as the async forms time it.
    let routine = async_chain(64);
    let mut b = bencher(Clock::Wall);
    let made = Cell::new(0u64);
    b.to_async(BlockOn).iter_batched(
        || {
            made.set(made.get() + 1);
            chain(black_box(made.get()), SETUP_STEPS)
        },
        async |x: u64| chain(x, 64),
    );
    let (point, m) = measured(b);
    assert_eq!(m.kind, SampleKind::Batched);
    // One input made for every iteration timed (and the warm-up's).
    let timed = m.iters_per_sample * m.samples_ns.len() as u64;
    assert!(
        made.get() >= timed,
        "{} inputs for {timed} iterations",
        made.get()
    );
    // Were the setup timed, the point would be about 300 times the
    // routine's; a shared machine may move either by a few times.
    assert!(
        point < 10.0 * routine.max(1.0),
        "{point} ns per iteration with a setup of {SETUP_STEPS} steps; the routine alone \
         reads {routine} ns"
    );

    let made = Cell::new(0u64);
    let mut b = bencher(Clock::Wall);
    b.to_async(BlockOn).iter_batched_ref(
        || {
            made.set(made.get() + 1);
            chain(black_box(made.get()), SETUP_STEPS)
        },
        async |x: &mut u64| chain(*x, 64),
    );
    let (point, m) = measured(b);
    assert_eq!(m.kind, SampleKind::Batched);
    let timed = m.iters_per_sample * m.samples_ns.len() as u64;
    assert!(
        made.get() >= timed,
        "{} inputs for {timed} iterations",
        made.get()
    );
    assert!(
        point < 10.0 * routine.max(1.0),
        "{point} ns with the input by reference; the routine alone reads {routine} ns"
    );
}

#[test]
fn per_call_sampling_awaits_each_call_alone() {
    let mut b = bencher(Clock::Wall);
    b.to_async(BlockOn).iter_per_call(
        || 7u64,
        async |x: u64| {
            // A future that waits once: woken at once, polled again.
            let mut yielded = false;
            std::future::poll_fn(|cx| {
                if std::mem::replace(&mut yielded, true) {
                    std::task::Poll::Ready(())
                } else {
                    cx.waker().wake_by_ref();
                    std::task::Poll::Pending
                }
            })
            .await;
            chain(x, 64)
        },
    );
    let (point, m) = measured(b);
    assert_eq!(m.kind, SampleKind::PerCall);
    assert!(point > 0.0, "{point}");
}

#[test]
fn custom_timings_are_taken_as_given() {
    let mut b = bencher(Clock::Wall);
    b.to_async(BlockOn)
        .iter_custom(async |n| Duration::from_nanos(250 * black_box(n)));
    let (point, m) = measured(b);
    assert_eq!(m.kind, SampleKind::Custom);
    assert_eq!(point, 250.0);
}

#[test]
fn the_cpu_clock_keeps_the_wall_time_beside_it() {
    if clock::cpu_info().is_none() {
        return;
    }
    let mut b = bencher(Clock::Cpu);
    let mut x = 7u64;
    b.to_async(BlockOn).iter(async || {
        x = chain(x, 64);
        x
    });
    let wall = b.wall_ns_per_iter().expect("wall time kept");
    let (cpu, _) = measured(b);
    assert!(cpu > 0.0 && wall > 0.0, "{cpu} {wall}");
}

#[test]
#[should_panic(expected = "only once")]
fn a_second_form_is_refused() {
    let mut b = Bencher::new(Measurer::CountOnly { iters: 1 });
    b.to_async(BlockOn).iter(async || ());
    b.iter(|| ());
}

#[test]
fn a_closure_returning_a_future_is_an_async_routine() {
    let mut b = bencher(Clock::Wall);
    let seed = 7u64;
    b.to_async(&BlockOn)
        .iter(|| async move { chain(black_box(seed), 64) });
    let (point, m) = measured(b);
    assert_eq!(m.kind, SampleKind::Loop);
    assert!(point > 0.0, "{point}");
}
