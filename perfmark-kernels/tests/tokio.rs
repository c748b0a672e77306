//! Async perf tests on tokio's runtime (`--features tokio`): a channel
//! round trip to a task, on this thread and across two, and what running a future costs on a
//! current-thread runtime per iteration, a `block_on` each or one future
//! awaiting them all (the form perfmark's async forms use).
//!
//! Run it with `cargo test --release -p perfmark-kernels --features tokio
//! --test tokio`. Budgets are as in `tests/perf.rs`: about 3× the median
//! measured on the reference machine (a shared 2-core VM); none where the
//! time is the OS's.

use std::time::Instant;

use perfmark::{black_box, perf_test, Bencher};
use perfmark_kernels::channel::{Echo, MESSAGES_PER_ROUND_TRIP};
use tokio::runtime::{Builder, Runtime};

fn current_thread() -> Runtime {
    Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime")
}

/// One round trip to a task on the runtime: two sends, two receives, two
/// task switches.
#[perf_test(confidence = 0.999, budget = "1us", max_time = "1s")]
fn channel_round_trip(b: &mut Bencher) {
    let runtime = current_thread();
    let mut echo = Echo::spawn_on(runtime.handle());
    let mut x = 0u64;
    b.items(MESSAGES_PER_ROUND_TRIP);
    b.to_async(&runtime).iter(async || {
        x = echo.round_trip(x).await;
        x
    });
}

/// A round trip to a task on another thread: the runtime is driven there
/// (its `block_on` waits for the end of the test), and the routine runs
/// on this thread through a `Handle`, whose `block_on` does not run the
/// runtime's tasks on a current-thread runtime. No budget: each round
/// trip wakes a parked thread, and what that costs is the OS's; on the
/// reference machine the median moved from 4 µs to 55 µs between runs as
/// other work kept its cores busy or let them idle.
#[perf_test(confidence = 0.999, max_time = "1s")]
fn channel_round_trip_across_threads(b: &mut Bencher) {
    let runtime = current_thread();
    let handle = runtime.handle().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let driver = std::thread::spawn(move || runtime.block_on(stopped));
    let mut echo = Echo::spawn_on(&handle);
    let mut x = 0u64;
    b.items(MESSAGES_PER_ROUND_TRIP);
    b.to_async(&handle).iter(async || {
        x = echo.round_trip(x).await;
        x
    });
    drop(stop);
    let _ = driver.join();
}

/// What a tokio `block_on` per iteration costs, as given.
#[perf_test(confidence = 0.999, max_time = "1s")]
fn block_on_each_iteration(b: &mut Bencher) {
    let runtime = current_thread();
    b.iter_custom(|n| {
        let start = Instant::now();
        for _ in 0..n {
            runtime.block_on(black_box(async {}));
        }
        start.elapsed()
    });
}

/// What awaiting costs inside one tokio `block_on`, as given.
#[perf_test(confidence = 0.999, max_time = "1s")]
fn await_in_one_block_on(b: &mut Bencher) {
    let runtime = current_thread();
    let empty = black_box(async || ());
    b.iter_custom(|n| {
        let start = Instant::now();
        runtime.block_on(async {
            for _ in 0..n {
                // The loop the async forms' empty calibration runs.
                #[allow(clippy::unit_arg)]
                black_box(empty().await);
            }
        });
        start.elapsed()
    });
}

perfmark::main!();
