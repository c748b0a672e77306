//! The blocks of the [`AsyncBencher`](super::AsyncBencher): the futures
//! that run `n` iterations of an async routine, each awaited in turn
//! inside one future, read by a [`Meter`] from inside that future. They
//! mirror the synchronous blocks of [`crate::measure::driver`] and
//! [`crate::measure::per_call`] line for line, with `.await` after each
//! call of the routine.
//!
//! Reading the meter inside the future is what keeps the executor out of
//! the figures: what `block_on` does before the first poll and after the
//! last (entering a runtime, making a waker, allocating a task) happens
//! outside the reads. What the executor does between two polls of a
//! routine that waits (parking, waking, a runtime's scheduling) is inside
//! them: it is part of what such a routine costs.

use std::hint::black_box;
use std::time::Duration;

use crate::measure::driver::Meter;
use crate::measure::per_call::{CallClock, RandomPhase};

/// Batched inputs are made this many at a time at most, as the
/// synchronous batched blocks do.
const MAX_BATCH: u64 = 4096;

/// Awaits `n` calls of `routine` in a loop, each output through
/// `black_box`, read by `M` around the loop.
#[inline(always)]
pub(super) async fn metered_loop<M: Meter, O>(
    n: u64,
    routine: &mut impl AsyncFnMut() -> O,
) -> M::Reading {
    let start = M::start();
    for _ in 0..n {
        black_box(routine().await);
    }
    M::stop(start)
}

/// Awaits `n` calls of `routine` on inputs made by `setup` (not read by
/// `M`), passed by value; outputs are dropped after `M` stops reading.
pub(super) async fn metered_batched<M: Meter, I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl AsyncFnMut(I) -> O,
) -> M::Reading {
    let mut total = M::Reading::default();
    let mut left = n;
    while left > 0 {
        let batch = left.min(MAX_BATCH);
        left -= batch;
        let mut inputs: Vec<I> = (0..batch).map(|_| setup()).collect();
        let mut outputs: Vec<O> = Vec::with_capacity(batch as usize);
        let start = M::start();
        for input in inputs.drain(..) {
            outputs.push(black_box(routine(black_box(input)).await));
        }
        total = total + M::stop(start);
        drop(outputs);
    }
    total
}

/// Awaits `n` calls of `routine` on inputs made by `setup` (not read by
/// `M`), passed by `&mut`; inputs and outputs are dropped after `M` stops
/// reading.
pub(super) async fn metered_batched_ref<M: Meter, I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl AsyncFnMut(&mut I) -> O,
) -> M::Reading {
    let mut total = M::Reading::default();
    let mut left = n;
    while left > 0 {
        let batch = left.min(MAX_BATCH);
        left -= batch;
        let mut inputs: Vec<I> = (0..batch).map(|_| setup()).collect();
        let mut outputs: Vec<O> = Vec::with_capacity(batch as usize);
        let start = M::start();
        for input in inputs.iter_mut() {
            outputs.push(black_box(routine(black_box(input)).await));
        }
        total = total + M::stop(start);
        drop(outputs);
        drop(inputs);
    }
    total
}

/// Times `n` calls of `routine`, each awaited alone on a fresh input from
/// `setup` after the random wait of `phase` (Falco's per-call sampling);
/// returns the sum of the calls' readings.
pub(super) async fn per_call_block<I, O, C: CallClock>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl AsyncFnMut(I) -> O,
    phase: &mut RandomPhase<C>,
) -> Duration {
    let mut total_ns: u64 = 0;
    for _ in 0..n {
        let input = setup();
        let start = phase.start_call();
        let output = black_box(routine(black_box(input)).await);
        total_ns = total_ns.saturating_add(phase.stop_call(start));
        drop(output);
    }
    Duration::from_nanos(total_ns)
}

/// Awaits `n` calls of `routine` as [`per_call_block`] does, read by `M`
/// around each call alone, with no wait: the counting pass of
/// `iter_per_call`.
pub(super) async fn metered_calls<M: Meter, I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl AsyncFnMut(I) -> O,
) -> M::Reading {
    let mut total = M::Reading::default();
    for _ in 0..n {
        let input = setup();
        let start = M::start();
        let output = black_box(routine(black_box(input)).await);
        total = total + M::stop(start);
        drop(output);
    }
    total
}
