//! The [`AsyncBencher`]: the [`Bencher`]'s forms for async routines, run on
//! an [`Executor`].
//!
//! One `block_on` per block, not per iteration: each block is one future
//! that awaits the routine `n` times in a loop and reads the clock inside
//! itself (see [`super::async_blocks`]), so the executor's cost of
//! starting and finishing a future is paid once per block and is outside
//! the reads. What is left per iteration (making the routine's future and
//! polling it) is measured the way the loop's own cost is: the same block
//! with an empty `async` routine, on the same executor, subtracted from
//! every sample. A `block_on` per iteration would put the executor's whole
//! cost inside every iteration, to be subtracted again, and the larger the
//! cost subtracted, the more of its noise is left in every sample. Running
//! an empty future costs, per iteration, about 11 ns with a `block_on`
//! each on [`BlockOn`](super::BlockOn) and 140 ns on a current-thread
//! tokio runtime, against under half a nanosecond awaited inside one
//! future on either (`cargo xtask linearity`; perfmark-kernels'
//! `tests/tokio.rs`; docs/async.md has the figures).
//!
//! The counting pass reads the allocation counters inside the future too:
//! what the executor allocates to run it is not charged to the routine.

use std::future::Future;
use std::time::Duration;

use super::async_blocks::{
    metered_batched, metered_batched_ref, metered_calls, metered_loop, per_call_block,
};
use super::executor::Executor;
use super::{Bencher, WallBlocks, PHASE_SEED};
use crate::clock::{self, Clock};
use crate::instructions::Callgrind;
use crate::measure::driver::{CpuBlock, CpuClock, HeapCounter, Meter, WallClock};
use crate::measure::per_call::{self, CpuCallClock, RandomPhase};
use crate::measure::{LocalDriver, SampleKind};

impl Bencher {
    /// The forms for async routines, run on `executor`: perfmark's own
    /// [`BlockOn`](super::BlockOn), a runtime of yours that implements
    /// [`Executor`], or with the `tokio` feature `&runtime` for a tokio
    /// `Runtime` or `Handle`:
    ///
    /// ```no_run
    /// # use perfmark_core::{Bencher, BlockOn};
    /// # fn f(b: &mut Bencher) {
    /// let mut x = 7u64;
    /// b.to_async(BlockOn).iter(async || {
    ///     x = x.wrapping_mul(31);
    ///     x
    /// });
    /// # }
    /// ```
    pub fn to_async<E: Executor>(&mut self, executor: E) -> AsyncBencher<'_, E> {
        AsyncBencher {
            bencher: self,
            executor,
        }
    }
}

/// Hands an async routine to perfmark, made by
/// [`Bencher::to_async`]. Each `iter*` method mirrors the [`Bencher`]'s
/// method of the same name; the routine is an async closure
/// (`async || …`, `async |input| …`) or a closure that returns a future
/// (`|| async { … }`). As there, a test calls exactly one of them, once.
#[derive(Debug)]
pub struct AsyncBencher<'b, E> {
    bencher: &'b mut Bencher,
    executor: E,
}

impl<E: Executor> AsyncBencher<'_, E> {
    /// Times `routine`, awaited repeatedly in a loop inside one future per
    /// block; each output passes through `black_box`. The cost of the loop
    /// and of awaiting, measured with an empty `async` routine on the same
    /// executor, is subtracted.
    ///
    /// # Panics
    /// When a `Bencher` form was called already in the same test.
    #[inline(always)]
    pub fn iter<O, R: AsyncFnMut() -> O>(&mut self, routine: R) {
        self.measure_metered(SampleKind::Loop, Loop(routine), Loop(async || ()));
    }

    /// Times `routine` on inputs made by `setup`, passed by value. `setup`
    /// is not timed; the outputs are dropped after the clock stops.
    ///
    /// # Panics
    /// When a `Bencher` form was called already in the same test.
    #[inline(always)]
    pub fn iter_batched<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: AsyncFnMut(I) -> O,
    {
        let empty = Batched {
            setup: || (),
            routine: async |()| (),
        };
        self.measure_metered(SampleKind::Batched, Batched { setup, routine }, empty);
    }

    /// Times `routine` on inputs made by `setup`, passed by `&mut` (an
    /// async closure, `async |v: &mut Vec<u64>| v.sort()`, may hold the
    /// reference across its awaits). `setup` is not timed, nor is dropping
    /// the inputs and outputs.
    ///
    /// # Panics
    /// When a `Bencher` form was called already in the same test.
    #[inline(always)]
    pub fn iter_batched_ref<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: AsyncFnMut(&mut I) -> O,
    {
        let empty = BatchedRef {
            setup: || (),
            routine: async |_: &mut ()| (),
        };
        self.measure_metered(SampleKind::Batched, BatchedRef { setup, routine }, empty);
    }

    /// Times `routine` one awaited call at a time, each on a fresh input
    /// made by `setup` and after a random wait of up to the timer's
    /// resolution, as [`Bencher::iter_per_call`] does (Falco's per-call
    /// sampling; decided on the mean). The calls of a block are awaited in
    /// one future.
    ///
    /// # Panics
    /// When a `Bencher` form was called already in the same test.
    #[inline(always)]
    pub fn iter_per_call<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: AsyncFnMut(I) -> O,
    {
        let mut calls = PerCall { setup, routine };
        self.time_per_call(&mut calls);
        self.count(&mut calls);
    }

    /// Lets the test time itself: the future of `routine(n)` runs `n`
    /// iterations and returns the time they took, which perfmark takes as
    /// given, as [`Bencher::iter_custom`] does. Allocations are counted
    /// over the whole future, from its first poll to its completion.
    ///
    /// # Panics
    /// When a `Bencher` form was called already in the same test.
    #[inline(always)]
    pub fn iter_custom<R: AsyncFnMut(u64) -> Duration>(&mut self, mut routine: R) {
        let executor = &self.executor;
        let b = &mut *self.bencher;
        b.measure(LocalDriver::new(
            SampleKind::Custom,
            |n: u64| executor.block_on(routine(n)),
            None::<fn(u64) -> Duration>,
        ));
        b.count(|n| {
            executor.block_on(async {
                let start = HeapCounter::start();
                routine(n).await;
                HeapCounter::stop(start)
            })
        });
        b.count_instructions(|n| {
            executor.block_on(async {
                Callgrind::start();
                routine(n).await;
                Callgrind::stop(())
            })
        });
    }

    /// Times `block` with the test's clock, less `empty_block` (the same
    /// block of an empty routine) on the same executor, then counts
    /// `block`: the passes of the forms whose blocks a [`Meter`] reads.
    #[inline(always)]
    fn measure_metered(
        &mut self,
        kind: SampleKind,
        mut block: impl MeteredBlock,
        mut empty_block: impl MeteredBlock,
    ) {
        let executor = &self.executor;
        let b = &mut *self.bencher;
        if b.clock == Clock::Cpu {
            let mut walls = WallBlocks::new();
            b.measure(LocalDriver::new(
                kind,
                |n: u64| {
                    let block = executor.block_on(block.run::<CpuClock>(n));
                    walls.keep(n, block)
                },
                Some(|n: u64| executor.block_on(empty_block.run::<CpuClock>(n)).cpu),
            ));
            b.walls = Some(walls);
        } else {
            let timed = |n: u64| executor.block_on(block.run::<WallClock>(n));
            let empty = |n: u64| executor.block_on(empty_block.run::<WallClock>(n));
            b.measure(LocalDriver::new(kind, timed, Some(empty)));
        }
        self.count(&mut block);
    }

    /// Times `calls` one call at a time with the test's clock, each after
    /// a random wait of up to its resolution, less the same calls of an
    /// empty routine (with waits of their own) on the same executor.
    #[inline(always)]
    fn time_per_call<I, O, S, R>(&mut self, calls: &mut PerCall<S, R>)
    where
        S: FnMut() -> I,
        R: AsyncFnMut(I) -> O,
    {
        let executor = &self.executor;
        let b = &mut *self.bencher;
        let (setup, routine) = (&mut calls.setup, &mut calls.routine);
        if b.clock == Clock::Cpu {
            let resolution_ns = clock::cpu_info().map_or(0.0, |c| c.resolution_ns);
            let mut walls = WallBlocks::new();
            let mut phase = RandomPhase::new(CpuCallClock::new(), resolution_ns, PHASE_SEED);
            let mut empty_phase = RandomPhase::new(CpuCallClock::new(), resolution_ns, !PHASE_SEED);
            b.measure(LocalDriver::new(
                SampleKind::PerCall,
                |n: u64| {
                    let cpu = executor.block_on(per_call_block(n, setup, routine, &mut phase));
                    let wall = phase.clock_mut().take_wall();
                    walls.keep(n, CpuBlock { cpu, wall })
                },
                Some(|n: u64| {
                    executor.block_on(per_call_block(
                        n,
                        &mut || (),
                        &mut async |()| (),
                        &mut empty_phase,
                    ))
                }),
            ));
            b.walls = Some(walls);
        } else {
            let resolution_ns = clock::info().resolution_ns;
            let mut phase = RandomPhase::new(per_call::WallClock::new(), resolution_ns, PHASE_SEED);
            let mut empty_phase =
                RandomPhase::new(per_call::WallClock::new(), resolution_ns, !PHASE_SEED);
            let timed = |n: u64| executor.block_on(per_call_block(n, setup, routine, &mut phase));
            let empty = |n: u64| {
                executor.block_on(per_call_block(
                    n,
                    &mut || (),
                    &mut async |()| (),
                    &mut empty_phase,
                ))
            };
            b.measure(LocalDriver::new(SampleKind::PerCall, timed, Some(empty)));
        }
    }

    /// Counts `block`'s allocations, and its instructions under Callgrind,
    /// each when the run counts them.
    #[inline(always)]
    fn count(&mut self, block: &mut impl MeteredBlock) {
        let executor = &self.executor;
        let b = &mut *self.bencher;
        b.count(|n| executor.block_on(block.run::<HeapCounter>(n)));
        b.count_instructions(|n| executor.block_on(block.run::<Callgrind>(n)));
    }
}

/// A form's block, which each pass reads with a [`Meter`] of its own: the
/// timing (with the test's clock), the allocation count and the
/// instruction count.
trait MeteredBlock {
    /// The future that runs `n` iterations, read by `M` inside it.
    fn run<M: Meter>(&mut self, n: u64) -> impl Future<Output = M::Reading>;
}

/// The block of [`AsyncBencher::iter`]: the routine awaited in a loop.
struct Loop<R>(R);

impl<O, R: AsyncFnMut() -> O> MeteredBlock for Loop<R> {
    #[inline(always)]
    fn run<M: Meter>(&mut self, n: u64) -> impl Future<Output = M::Reading> {
        metered_loop::<M, O>(n, &mut self.0)
    }
}

/// The block of [`AsyncBencher::iter_batched`]: the routine awaited on
/// batches of inputs from `setup`, passed by value.
struct Batched<S, R> {
    setup: S,
    routine: R,
}

impl<I, O, S: FnMut() -> I, R: AsyncFnMut(I) -> O> MeteredBlock for Batched<S, R> {
    #[inline(always)]
    fn run<M: Meter>(&mut self, n: u64) -> impl Future<Output = M::Reading> {
        metered_batched::<M, I, O>(n, &mut self.setup, &mut self.routine)
    }
}

/// The block of [`AsyncBencher::iter_batched_ref`]: the routine awaited on
/// batches of inputs from `setup`, passed by `&mut`.
struct BatchedRef<S, R> {
    setup: S,
    routine: R,
}

impl<I, O, S: FnMut() -> I, R: AsyncFnMut(&mut I) -> O> MeteredBlock for BatchedRef<S, R> {
    #[inline(always)]
    fn run<M: Meter>(&mut self, n: u64) -> impl Future<Output = M::Reading> {
        metered_batched_ref::<M, I, O>(n, &mut self.setup, &mut self.routine)
    }
}

/// The routine of [`AsyncBencher::iter_per_call`] with its `setup`; its
/// metered block, the counting passes', reads each call alone with no
/// wait.
struct PerCall<S, R> {
    setup: S,
    routine: R,
}

impl<I, O, S: FnMut() -> I, R: AsyncFnMut(I) -> O> MeteredBlock for PerCall<S, R> {
    #[inline(always)]
    fn run<M: Meter>(&mut self, n: u64) -> impl Future<Output = M::Reading> {
        metered_calls::<M, I, O>(n, &mut self.setup, &mut self.routine)
    }
}

#[cfg(test)]
mod tests;
