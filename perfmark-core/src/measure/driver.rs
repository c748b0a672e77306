//! The measurement driver: the one operation every measurement is made of,
//! "run `n` iterations of the routine now and say how long they took".
//!
//! The [`Bencher`](crate::Bencher) wraps the test's routine in a
//! [`LocalDriver`] and hands it to a [`Policy`]. A policy decides how many
//! iterations to ask for and when to stop: the adaptive sampler
//! ([`super::sampler::Adaptive`]) is one policy; a worker serving timed
//! slices to a coordinator in another process is another. Inverting the
//! control this way is what lets a coordinator interleave two builds slice
//! by slice, which a measurement loop that runs to completion inside
//! `Bencher::iter` could not do.

use std::hint::black_box;
use std::time::{Duration, Instant};

use super::{Measurement, SampleKind};
use crate::allocations::{self, AllocCount};
use crate::clock;

/// Runs iterations of one routine on request.
pub trait Driver {
    /// How this driver's blocks are timed.
    fn kind(&self) -> SampleKind;

    /// Runs `n` iterations of the routine now and returns their time. For
    /// [`SampleKind::Loop`] and [`SampleKind::Batched`] the time is read
    /// from the clock around the block, one read pair included; for
    /// [`SampleKind::Custom`] it is what the test reported, taken as given.
    fn run(&mut self, n: u64) -> Duration;

    /// Runs `n` iterations of an empty routine in the same harness, so the
    /// harness's own per-iteration cost can be measured and subtracted.
    /// `None` when the harness adds nothing ([`SampleKind::Custom`]).
    fn run_empty(&mut self, n: u64) -> Option<Duration>;
}

/// Decides which blocks to run and turns their times into a
/// [`Measurement`].
///
/// `measure` is generic over the driver, not given a `&mut dyn Driver`, and
/// the policies, the driver and the `iter*` methods are inlined into the
/// test's body: the timed loop must see what the routine captures as the
/// test's own locals. When their address escapes (a trait object, or the
/// driver used where the optimizer loses track of it), every `black_box`
/// in the loop forces a captured variable through memory. Measured with
/// `cargo xtask linearity`: the calibration suite's `ns_3` (one xorshift
/// step on a captured `x`) read 4.2 ns per iteration instead of 1.8 ns.
pub trait Policy {
    /// Measures the routine behind `driver`.
    fn measure<D: Driver + ?Sized>(&mut self, driver: &mut D) -> Measurement;
}

/// A [`Driver`] over two closures in this process: `timed(n)` runs `n`
/// iterations of the routine, `empty(n)` the same harness with nothing in
/// it. The closures are generic, so each `iter*` form keeps its own
/// monomorphized inner loop; only the call per block is dynamic.
#[derive(Debug)]
pub struct LocalDriver<T, E> {
    kind: SampleKind,
    timed: T,
    empty: Option<E>,
}

impl<T, E> LocalDriver<T, E>
where
    T: FnMut(u64) -> Duration,
    E: FnMut(u64) -> Duration,
{
    /// A driver of `kind` over `timed`, with `empty` for the harness's cost.
    pub fn new(kind: SampleKind, timed: T, empty: Option<E>) -> Self {
        LocalDriver { kind, timed, empty }
    }
}

impl<T, E> Driver for LocalDriver<T, E>
where
    T: FnMut(u64) -> Duration,
    E: FnMut(u64) -> Duration,
{
    fn kind(&self) -> SampleKind {
        self.kind
    }

    // Inlined into the policy, and the policy into the test's body, so that
    // what the routine captures stays in registers (see [`Policy`]).
    #[inline(always)]
    fn run(&mut self, n: u64) -> Duration {
        (self.timed)(n)
    }

    #[inline(always)]
    fn run_empty(&mut self, n: u64) -> Option<Duration> {
        self.empty.as_mut().map(|empty| empty(n))
    }
}

/// What a block is read with: one reading before the routine's calls and
/// one after, nothing in between, so every meter brackets exactly what the
/// wall clock brackets. The timed blocks read a clock; the untimed counting
/// pass reads the allocation counters ([`HeapCounter`]).
///
/// The `iter*` forms pick their meter when they are monomorphized, never
/// through a trait object: the reads are inlined beside the routine (see
/// [`Policy`]).
pub trait Meter {
    /// What is read before the block.
    type Mark;
    /// What the block took: the difference of two reads, summed over the
    /// batches of a batched block.
    type Reading: Copy + Default + std::ops::Add<Output = Self::Reading>;
    /// Reads before the block.
    fn start() -> Self::Mark;
    /// Reads after the block, and returns what it took since `mark`.
    fn stop(mark: Self::Mark) -> Self::Reading;
}

/// Wall-clock time, `Instant`: the default clock.
#[derive(Debug, Clone, Copy)]
pub struct WallClock;

impl Meter for WallClock {
    type Mark = Instant;
    type Reading = Duration;

    #[inline(always)]
    fn start() -> Instant {
        Instant::now()
    }

    #[inline(always)]
    fn stop(mark: Instant) -> Duration {
        mark.elapsed()
    }
}

/// The thread's CPU time (`measure = "cpu"`), with the wall time around it
/// so that the output can show both. The CPU reads are the inner pair: the
/// CPU time includes one CPU read, as the wall time of a wall block
/// includes one `Instant` read, and none of the wall reads.
#[derive(Debug, Clone, Copy)]
pub struct CpuClock;

/// A block timed by [`CpuClock`]: its CPU time and its wall time.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CpuBlock {
    /// The thread's CPU time over the block.
    pub cpu: Duration,
    /// The wall time over the block.
    pub wall: Duration,
}

impl std::ops::Add for CpuBlock {
    type Output = CpuBlock;

    fn add(self, other: CpuBlock) -> CpuBlock {
        CpuBlock {
            cpu: self.cpu + other.cpu,
            wall: self.wall + other.wall,
        }
    }
}

impl Meter for CpuClock {
    /// The wall clock, then the thread's CPU time in ns.
    type Mark = (Instant, u64);
    type Reading = CpuBlock;

    #[inline(always)]
    fn start() -> (Instant, u64) {
        let wall = Instant::now();
        (wall, clock::thread_cpu_ns())
    }

    #[inline(always)]
    fn stop((wall, cpu_ns): (Instant, u64)) -> CpuBlock {
        let cpu_ns = clock::thread_cpu_ns().saturating_sub(cpu_ns);
        CpuBlock {
            cpu: Duration::from_nanos(cpu_ns),
            wall: wall.elapsed(),
        }
    }
}

/// The allocation counters of [`crate::allocations`]: what the routine's
/// calls allocated. Read only in the untimed counting pass.
#[derive(Debug, Clone, Copy)]
pub struct HeapCounter;

impl Meter for HeapCounter {
    type Mark = AllocCount;
    type Reading = AllocCount;

    #[inline(always)]
    fn start() -> AllocCount {
        allocations::snapshot()
    }

    #[inline(always)]
    fn stop(mark: AllocCount) -> AllocCount {
        allocations::snapshot() - mark
    }
}

/// Runs `n` calls of `routine` in a loop, each result through `black_box`,
/// read by `M` around the loop.
#[inline(always)]
pub fn metered_loop<M: Meter, O>(n: u64, routine: &mut impl FnMut() -> O) -> M::Reading {
    let start = M::start();
    for _ in 0..n {
        black_box(routine());
    }
    M::stop(start)
}

/// Times `n` calls of `routine` in a loop, each result through `black_box`:
/// the block of [`SampleKind::Loop`].
#[inline(always)]
pub fn loop_block<O>(n: u64, routine: &mut impl FnMut() -> O) -> Duration {
    metered_loop::<WallClock, O>(n, routine)
}

/// Batched inputs are made this many at a time at most, so a routine with
/// large inputs does not hold millions of them in memory at once.
const MAX_BATCH: u64 = 4096;

/// Runs `n` calls of `routine` on inputs made by `setup` (not read by `M`),
/// passed by value; outputs are dropped after `M` stops reading.
pub fn metered_batched<M: Meter, I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(I) -> O,
) -> M::Reading {
    let mut total = M::Reading::default();
    let mut left = n;
    while left > 0 {
        let batch = left.min(MAX_BATCH);
        left -= batch;
        let mut inputs: Vec<I> = (0..batch).map(|_| setup()).collect();
        let mut outputs: Vec<O> = Vec::with_capacity(batch as usize);
        let start = M::start();
        // `drain` keeps the buffer's deallocation out of the timed region.
        for input in inputs.drain(..) {
            outputs.push(black_box(routine(black_box(input))));
        }
        total = total + M::stop(start);
        drop(outputs);
    }
    total
}

/// Times `n` calls of `routine` on inputs made by `setup` (untimed), passed
/// by value; outputs are dropped after the clock stops.
pub fn batched_block<I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(I) -> O,
) -> Duration {
    metered_batched::<WallClock, I, O>(n, setup, routine)
}

/// Runs `n` calls of `routine` on inputs made by `setup` (not read by `M`),
/// passed by `&mut`; inputs and outputs are dropped after `M` stops reading.
pub fn metered_batched_ref<M: Meter, I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(&mut I) -> O,
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
            outputs.push(black_box(routine(black_box(input))));
        }
        total = total + M::stop(start);
        drop(outputs);
        drop(inputs);
    }
    total
}

/// Times `n` calls of `routine` on inputs made by `setup` (untimed), passed
/// by `&mut`; inputs and outputs are dropped after the clock stops.
pub fn batched_ref_block<I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(&mut I) -> O,
) -> Duration {
    metered_batched_ref::<WallClock, I, O>(n, setup, routine)
}
