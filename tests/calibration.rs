//! perfmark measuring itself: routines of known relative cost, so that
//! `cargo xtask linearity` can check that k times the work reads k times
//! the time (T'e = Tt/n − h, as the lecture "Performance measurement"
//! subtracts the loop's own cost) and `cargo xtask stability` that an
//! estimate repeats across processes. Ignored in ordinary runs: the xtasks
//! run them with `--include-ignored`.
//!
//! The work is one long chain of dependent xorshift steps (six dependent
//! ALU operations each, no memory traffic, nothing the compiler can fold
//! or vectorize), carried from each
//! iteration into the next: an out-of-order CPU cannot overlap one
//! iteration's work with the next one's, so the time is exactly
//! proportional to the number of steps (independent short chains would
//! overlap, and k times the instructions would read less than k times the
//! time — which is the CPU's doing, not the harness's).
//!
//! The `async_*` groups are twins of the synchronous ones, the same chains
//! awaited on perfmark's executor (`Bencher::to_async`): with the cost of
//! awaiting subtracted, each should read as its twin does, and k times the
//! work k times the time. `block_on_each_iteration` and
//! `await_in_one_block_on` time, as given, what running a future costs each
//! way: a `block_on` per iteration, or one future awaiting them all.

use std::time::{Duration, Instant};

use perfmark::{black_box, perf_test, Bencher, BlockOn, Executor};

/// One xorshift64 step (Marsaglia 2003): each operation needs the one
/// before, so a step costs six ALU latencies however wide the CPU is.
#[inline(always)]
fn step(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// `steps` dependent steps from `x`, not inlined (a call per iteration).
#[inline(never)]
fn chain(mut x: u64, steps: u64) -> u64 {
    for _ in 0..steps {
        x = step(x);
    }
    x
}

/// The smallest routine: a black-boxed integer add (should read under 1 ns).
#[perf_test(ignore = "calibration: run by cargo xtask linearity")]
fn add() -> u64 {
    black_box(1u64) + black_box(2u64)
}

/// k inlined steps per iteration: about 3 ns per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn ns_3(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.iter(|| {
        for _ in 0..k {
            x = step(x);
        }
        x
    });
}

/// About 100 ns per k (32 steps).
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn ns_100(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.iter(|| {
        x = chain(x, 32 * k);
        x
    });
}

/// About 1 µs per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn us_1(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.iter(|| {
        x = chain(x, 320 * k);
        x
    });
}

/// About 10 µs per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn us_10(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.iter(|| {
        x = chain(x, 3_200 * k);
        x
    });
}

/// About 100 µs per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn us_100(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.iter(|| {
        x = chain(x, 32_000 * k);
        x
    });
}

/// About 1 ms per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn ms_1(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.iter(|| {
        x = chain(x, 320_000 * k);
        x
    });
}

/// `ns_100` awaited: about 100 ns per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn async_ns_100(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.to_async(BlockOn).iter(async || {
        x = chain(x, 32 * k);
        x
    });
}

/// `us_1` awaited: about 1 µs per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn async_us_1(b: &mut Bencher, k: u64) {
    let mut x = 7u64;
    b.to_async(BlockOn).iter(async || {
        x = chain(x, 320 * k);
        x
    });
}

/// What a `block_on` per iteration costs: an empty future run to
/// completion `n` times, timed as given (nothing subtracted).
#[perf_test(ignore = "calibration: run by cargo xtask linearity")]
fn block_on_each_iteration(b: &mut Bencher) {
    b.iter_custom(|n| {
        let start = Instant::now();
        for _ in 0..n {
            BlockOn.block_on(black_box(async {}));
        }
        start.elapsed()
    });
}

/// What awaiting costs inside one future: an empty async routine awaited
/// `n` times in one `block_on`, timed as given, the executor's start and
/// finish included.
#[perf_test(ignore = "calibration: run by cargo xtask linearity")]
fn await_in_one_block_on(b: &mut Bencher) {
    let empty = black_box(async || ());
    b.iter_custom(|n| {
        let start = Instant::now();
        BlockOn.block_on(async {
            for _ in 0..n {
                // The loop the async forms' empty calibration runs.
                #[allow(clippy::unit_arg)]
                black_box(empty().await);
            }
        });
        let took: Duration = start.elapsed();
        took
    });
}

perfmark::main!();
