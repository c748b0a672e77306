//! The [`Bencher`]: what a `fn f(b: &mut Bencher)` perf test hands its timed
//! routine to.
//!
//! Each `iter*` method wraps the routine in a measurement
//! [`Driver`] and hands it to the Bencher's
//! [`Policy`], which runs the whole measurement before the method returns; a
//! test calls exactly one of them, once.
//!
//! The blocks are timed with the test's clock ([`Clock`]): the wall clock,
//! or for `measure = "cpu"` the thread's CPU time, with each block's wall
//! time kept beside it so the output can show both. The choice is made once
//! per method, around the whole measurement, not per block inside the
//! timed closure: a closure holding both loops grew past what the optimizer
//! inlines into the sampler, and an outlined closure reaches the routine's
//! captured variables through memory (the calibration suite's `ns_3` loop
//! then loaded and stored its state every iteration; see [`Policy`]). The
//! CPU clock's closures, larger than the wall clock's by their second clock
//! and the wall time they keep, and the counting pass's are marked
//! `#[inline(always)]` (read in the
//! disassembly of `ns_3`: every loop keeps its state in registers).
//!
//! After the measurement, when the run counts allocations, the method runs
//! one sample's worth of iterations once more, untimed, with the
//! allocation counters read around the routine's calls exactly where the
//! clock was read (so `iter_batched`'s setup and drops are not counted):
//! the counting pass. Counting is on only then, so it never perturbs a
//! timed block.
//!
//! [`Bencher::to_async`] gives the same forms for async routines, run on
//! an [`Executor`] ([`asynch`]).

use std::time::Duration;

mod async_blocks;
mod asynch;
mod executor;
mod wall_blocks;
mod work;

pub use asynch::AsyncBencher;
pub use executor::{BlockOn, Executor};
use wall_blocks::WallBlocks;
pub use work::Work;

use crate::allocations::{AllocCount, Counting};
use crate::clock::{self, Clock};
use crate::instructions::{Callgrind, Collected};
use crate::measure::driver::{
    batched_block, batched_ref_block, loop_block, metered_batched, metered_batched_ref,
    metered_loop, CpuBlock, CpuClock, HeapCounter, Meter,
};
use crate::measure::per_call::{
    metered_calls, per_call_block, CpuCallClock, RandomPhase, WallClock,
};
use crate::measure::{Adaptive, Driver, LocalDriver, Measurement, Policy, SampleKind};
use crate::stats;
use crate::worker::serve::Serve;

/// Seed of the random waits of [`Bencher::iter_per_call`]: any fixed
/// sequence is independent of where the clock's ticks fall, which is all
/// the phase argument needs.
const PHASE_SEED: u64 = 0x000F_A1C0_2009;

/// The policies a Bencher can hand its routine to, as an enum rather than a
/// trait object so that the call stays static (see [`Policy`]).
#[derive(Debug)]
pub(crate) enum Measurer {
    /// A normal run: the adaptive sampler.
    Adaptive(Adaptive),
    /// Worker mode: serve timed slices to a coordinator.
    Serve(Serve),
    /// Count allocations only: one call to warm the routine, no timing
    /// (compare mode counts the head's allocations in the coordinator).
    CountOnly {
        /// Iterations of the counting pass.
        iters: u64,
    },
}

impl Measurer {
    #[inline(always)]
    fn measure<D: Driver>(&mut self, driver: &mut D) -> Measurement {
        match self {
            Measurer::Adaptive(policy) => policy.measure(driver),
            Measurer::Serve(policy) => policy.measure(driver),
            Measurer::CountOnly { iters } => count_only(driver, *iters),
        }
    }
}

/// The [`Measurer::CountOnly`] "measurement": one untimed call, so that the
/// routine's lazy first-call work is not counted, and the iterations the
/// counting pass is to run. Inlined like every policy: a driver passed to
/// a function of its own would let the routine's captured variables escape
/// into memory in the timed loops of the other policies too (see [`Policy`]).
#[inline(always)]
fn count_only<D: Driver + ?Sized>(driver: &mut D, iters: u64) -> Measurement {
    driver.run(1);
    Measurement {
        kind: driver.kind(),
        samples_ns: Vec::new(),
        iters_per_sample: iters.max(1),
        first_call_ns: f64::NAN,
        loop_overhead_ns: 0.0,
        warmup_ns: 0.0,
        warmup_blocks: 1,
        warmup_settled: true,
        sampling_ns: 0.0,
        stop: crate::measure::StopReason::Precision,
        planned_samples: 0,
        budget_look: None,
        reference_ns: Vec::new(),
    }
}

/// Hands a timed routine to perfmark. See the `iter*` methods.
///
/// A perf test that takes a `&mut Bencher` sets up its state, then hands
/// the routine to be timed to exactly one `iter*` method, once:
///
/// ```no_run
/// # use perfmark_core::Bencher;
/// # fn search(b: &mut Bencher) {
/// let table: Vec<u64> = (0..1024).map(|i| i * 3).collect();
/// b.iter(|| table.binary_search(&std::hint::black_box(2049)));
/// # }
/// ```
pub struct Bencher {
    policy: Measurer,
    work: Option<Work>,
    outcome: Option<Measurement>,
    used: bool,
    /// The argument's size, recorded by the code `complexity` generates.
    size: Option<u64>,
    /// The clock the blocks are timed with.
    clock: Clock,
    /// Whether to run the counting pass after the measurement.
    count_allocs: bool,
    /// What the counting pass counted, and over how many iterations.
    counted: Option<(AllocCount, u64)>,
    /// For a CPU-timed measurement: the timed blocks' wall times.
    walls: Option<WallBlocks>,
    /// In counting mode: the shorter block's iterations and the rounds
    /// of the instruction-counting pass.
    instructions: Option<(u64, u32)>,
    /// The threads [`Bencher::iter_shared`] runs its routine on at once,
    /// and where they may run (1 and none: the calling thread alone).
    team: crate::threads::TeamPlan,
    /// What [`Bencher::iter_shared`]'s threads timed, each its own.
    pub(crate) team_times: Option<crate::threads::TeamTimes>,
}

impl std::fmt::Debug for Bencher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bencher")
            .field("work", &self.work)
            .field("outcome", &self.outcome)
            .field("used", &self.used)
            .field("clock", &self.clock)
            .field("counted", &self.counted)
            .finish_non_exhaustive()
    }
}

impl Bencher {
    /// A Bencher whose routine will be measured by `policy`.
    pub(crate) fn new(policy: Measurer) -> Self {
        Bencher {
            policy,
            work: None,
            outcome: None,
            used: false,
            size: None,
            clock: Clock::Wall,
            count_allocs: false,
            counted: None,
            walls: None,
            instructions: None,
            team: crate::threads::TeamPlan::ONE,
            team_times: None,
        }
    }

    /// Runs [`Bencher::iter_shared`]'s routine on the threads of `team`.
    pub(crate) fn with_team(mut self, team: crate::threads::TeamPlan) -> Self {
        self.team = team;
        self
    }

    /// Runs the instruction-counting pass after the (counting-only)
    /// measurement: `rounds` rounds of blocks of `k` and `2k` iterations.
    pub(crate) fn counting_instructions(mut self, k: u64, rounds: u32) -> Self {
        self.instructions = Some((k, rounds));
        self
    }

    /// Times the blocks with `clock` (the wall clock unless told).
    pub(crate) fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Runs the untimed counting pass after the measurement.
    pub(crate) fn counting_allocations(mut self) -> Self {
        self.count_allocs = true;
        self
    }

    /// Declares the work one iteration does, so rates are reported.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::{Bencher, Work};
    /// # fn test(b: &mut Bencher) {
    /// b.work(Work::Items(1000));
    /// b.iter(|| (0..std::hint::black_box(1000u64)).sum::<u64>());
    /// # }
    /// ```
    pub fn work(&mut self, work: Work) -> &mut Self {
        self.work = Some(work);
        self
    }

    /// Declares `n` items (elements, actions) per iteration: shorthand for
    /// `work(Work::Items(n))`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// let v: Vec<u32> = (0..1000).collect();
    /// b.items(v.len() as u64);
    /// b.iter(|| v.iter().map(|x| x ^ 0x5555).max());
    /// # }
    /// ```
    pub fn items(&mut self, n: u64) -> &mut Self {
        self.work(Work::Items(n))
    }

    /// Declares `n` bytes per iteration: shorthand for `work(Work::Bytes(n))`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// let data = vec![7u8; 4096];
    /// b.bytes(data.len() as u64);
    /// b.iter(|| data.iter().fold(0u32, |h, &x| h.rotate_left(5) ^ u32::from(x)));
    /// # }
    /// ```
    pub fn bytes(&mut self, n: u64) -> &mut Self {
        self.work(Work::Bytes(n))
    }

    /// Declares `n` floating-point operations per iteration: shorthand for
    /// `work(Work::Flops(n))`.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// let (x, y) = (vec![1.5f64; 256], vec![2.0f64; 256]);
    /// b.flops(2 * 256); // a multiply and an add per element
    /// b.iter(|| x.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>());
    /// # }
    /// ```
    pub fn flops(&mut self, n: u64) -> &mut Self {
        self.work(Work::Flops(n))
    }

    /// Times `routine`, called repeatedly in a loop; its return value passes
    /// through `black_box` so the work cannot be optimized away. The loop's
    /// own cost, measured with an empty routine, is subtracted.
    ///
    /// # Panics
    /// When called a second time in the same test.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// let table: Vec<u64> = (0..1024).map(|i| i * 3).collect();
    /// b.iter(|| table.binary_search(&std::hint::black_box(2049)));
    /// # }
    /// ```
    #[inline(always)]
    pub fn iter<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        if self.clock == Clock::Cpu {
            let mut walls = WallBlocks::new();
            self.measure(LocalDriver::new(
                SampleKind::Loop,
                #[inline(always)]
                |n: u64| walls.keep(n, metered_loop::<CpuClock, O>(n, &mut routine)),
                Some(
                    #[inline(always)]
                    |n: u64| metered_loop::<CpuClock, ()>(n, &mut || ()).cpu,
                ),
            ));
            self.walls = Some(walls);
        } else {
            let timed = |n: u64| loop_block(n, &mut routine);
            let empty = |n: u64| loop_block(n, &mut || ());
            self.measure(LocalDriver::new(SampleKind::Loop, timed, Some(empty)));
        }
        self.count(
            #[inline(always)]
            |n| metered_loop::<HeapCounter, O>(n, &mut routine),
        );
        self.count_instructions(|n| metered_loop::<Callgrind, O>(n, &mut routine));
    }

    /// Times `routine` run on every thread of the test at once: the test's
    /// `threads = [..]` option gives one test per thread count (`f::t4`),
    /// and this is the form that runs on them. Each sample releases the
    /// threads together, each runs the same number of iterations, and the
    /// sample lasts from the common start to the last thread's end: its
    /// time per iteration is what one thread sees of the routine while the
    /// others run it too, flat where the threads share nothing, growing
    /// where they contend (a lock, a cache line, a channel). Each thread's
    /// own time is kept as well. No loop overhead is subtracted.
    ///
    /// Without `threads`, or with one thread, it is [`Bencher::iter`]. The
    /// allocation and instruction counts are taken on one thread.
    ///
    /// # Panics
    /// When called a second time in the same test; a panic on any of the
    /// threads fails the test with its message.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # use std::sync::atomic::{AtomicU64, Ordering};
    /// # fn test(b: &mut Bencher) {
    /// let hits = AtomicU64::new(0);
    /// b.iter_shared(|| hits.fetch_add(1, Ordering::Relaxed));
    /// # }
    /// ```
    pub fn iter_shared<O, R>(&mut self, routine: R)
    where
        R: Fn() -> O + Sync,
    {
        if self.team.threads() <= 1 {
            return self.iter(&routine);
        }
        let team = self.team.clone();
        let mut times = crate::threads::TeamTimes::new(team.threads());
        let placement = crate::threads::with_team(&team, &routine, |run| {
            self.measure(LocalDriver::new(
                SampleKind::Threads,
                |n: u64| times.keep(n, run(n)),
                None::<fn(u64) -> Duration>,
            ));
        });
        times.placement = Some(placement);
        self.team_times = Some(times);
        self.count(
            #[inline(always)]
            |n| metered_loop::<HeapCounter, O>(n, &mut &routine),
        );
        self.count_instructions(|n| metered_loop::<Callgrind, O>(n, &mut &routine));
    }

    /// Times `routine` on inputs made by `setup`, passed by value. `setup` is
    /// not timed; the routine's outputs are dropped after the clock stops.
    ///
    /// # Panics
    /// When called a second time in the same test.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// // each iteration sorts a fresh copy; making it is not timed
    /// let input: Vec<u64> = (0..1000).map(|i| i * 7919 % 1000).collect();
    /// b.iter_batched(|| input.clone(), |mut v| {
    ///     v.sort();
    ///     v
    /// });
    /// # }
    /// ```
    #[inline(always)]
    pub fn iter_batched<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        if self.clock == Clock::Cpu {
            let mut walls = WallBlocks::new();
            self.measure(LocalDriver::new(
                SampleKind::Batched,
                #[inline(always)]
                |n: u64| {
                    let block = metered_batched::<CpuClock, I, O>(n, &mut setup, &mut routine);
                    walls.keep(n, block)
                },
                Some(
                    #[inline(always)]
                    |n: u64| metered_batched::<CpuClock, (), ()>(n, &mut || (), &mut |()| ()).cpu,
                ),
            ));
            self.walls = Some(walls);
        } else {
            let timed = |n: u64| batched_block(n, &mut setup, &mut routine);
            let empty = |n: u64| batched_block(n, &mut || (), &mut |()| ());
            self.measure(LocalDriver::new(SampleKind::Batched, timed, Some(empty)));
        }
        self.count(
            #[inline(always)]
            |n| metered_batched::<HeapCounter, I, O>(n, &mut setup, &mut routine),
        );
        self.count_instructions(|n| {
            metered_batched::<Callgrind, I, O>(n, &mut setup, &mut routine)
        });
    }

    /// Times `routine` on inputs made by `setup`, passed by `&mut`. `setup`
    /// is not timed, nor is dropping the inputs and outputs.
    ///
    /// # Panics
    /// When called a second time in the same test.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// let input: Vec<u64> = (0..1000).rev().collect();
    /// b.iter_batched_ref(|| input.clone(), |v: &mut Vec<u64>| v.sort());
    /// # }
    /// ```
    #[inline(always)]
    pub fn iter_batched_ref<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        if self.clock == Clock::Cpu {
            let mut walls = WallBlocks::new();
            self.measure(LocalDriver::new(
                SampleKind::Batched,
                #[inline(always)]
                |n: u64| {
                    let block = metered_batched_ref::<CpuClock, I, O>(n, &mut setup, &mut routine);
                    walls.keep(n, block)
                },
                Some(
                    #[inline(always)]
                    |n: u64| {
                        metered_batched_ref::<CpuClock, (), ()>(n, &mut || (), &mut |_: &mut ()| ())
                            .cpu
                    },
                ),
            ));
            self.walls = Some(walls);
        } else {
            let timed = |n: u64| batched_ref_block(n, &mut setup, &mut routine);
            let empty = |n: u64| batched_ref_block(n, &mut || (), &mut |_: &mut ()| ());
            self.measure(LocalDriver::new(SampleKind::Batched, timed, Some(empty)));
        }
        self.count(
            #[inline(always)]
            |n| metered_batched_ref::<HeapCounter, I, O>(n, &mut setup, &mut routine),
        );
        self.count_instructions(|n| {
            metered_batched_ref::<Callgrind, I, O>(n, &mut setup, &mut routine)
        });
    }

    /// Times `routine` one call at a time, each on a fresh input made by
    /// `setup` (untimed, as are dropping the input and the output): for
    /// routines whose inputs are too large to make ahead in batches, as
    /// `iter_batched` does. Each call starts after a random wait of up to the
    /// timer's resolution, so the mean time is unbiased even when a call is
    /// shorter than one tick of the clock (Falco's per-call sampling); the
    /// verdict is then decided on the mean, the only statistic that means
    /// something, and the output says so. With `measure = "cpu"` the calls
    /// are timed with the thread's CPU time, the waits spread over that
    /// clock's resolution, and each call's wall time is kept beside it.
    /// Allocations are counted around each call alone.
    ///
    /// # Panics
    /// When called a second time in the same test.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// // an input too large to make thousands of ahead
    /// b.iter_per_call(|| vec![1u8; 1 << 20], |mut v| {
    ///     v.reverse();
    ///     v
    /// });
    /// # }
    /// ```
    #[inline(always)]
    pub fn iter_per_call<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        if self.clock == Clock::Cpu {
            // The runner never measures a CPU-timed test where there is no
            // CPU clock; 0 (no wait) would do no harm if it did.
            let resolution_ns = clock::cpu_info().map_or(0.0, |c| c.resolution_ns);
            let mut walls = WallBlocks::new();
            let mut phase = RandomPhase::new(CpuCallClock::new(), resolution_ns, PHASE_SEED);
            let mut empty_phase = RandomPhase::new(CpuCallClock::new(), resolution_ns, !PHASE_SEED);
            self.measure(LocalDriver::new(
                SampleKind::PerCall,
                #[inline(always)]
                |n: u64| {
                    let cpu = per_call_block(n, &mut setup, &mut routine, &mut phase);
                    let wall = phase.clock_mut().take_wall();
                    walls.keep(n, CpuBlock { cpu, wall })
                },
                Some(
                    #[inline(always)]
                    |n: u64| per_call_block(n, &mut || (), &mut |()| (), &mut empty_phase),
                ),
            ));
            self.walls = Some(walls);
        } else {
            let resolution_ns = clock::info().resolution_ns;
            let mut phase = RandomPhase::new(WallClock::new(), resolution_ns, PHASE_SEED);
            let mut empty_phase = RandomPhase::new(WallClock::new(), resolution_ns, !PHASE_SEED);
            let timed = |n: u64| per_call_block(n, &mut setup, &mut routine, &mut phase);
            let empty = |n: u64| per_call_block(n, &mut || (), &mut |()| (), &mut empty_phase);
            self.measure(LocalDriver::new(SampleKind::PerCall, timed, Some(empty)));
        }
        self.count(
            #[inline(always)]
            |n| metered_calls::<HeapCounter, I, O>(n, &mut setup, &mut routine),
        );
        self.count_instructions(|n| metered_calls::<Callgrind, I, O>(n, &mut setup, &mut routine));
    }

    /// Lets the test time itself: `routine(n)` runs `n` iterations and
    /// returns the time they took, which perfmark takes as given (no loop or
    /// clock overhead is subtracted) as one sample, whatever the test's
    /// `measure`. Allocations are counted over the whole call `routine(n)`:
    /// perfmark cannot tell its setup from its iterations.
    ///
    /// # Panics
    /// When called a second time in the same test.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use perfmark_core::Bencher;
    /// # fn test(b: &mut Bencher) {
    /// b.iter_custom(|iters| {
    ///     let start = std::time::Instant::now();
    ///     for i in 0..iters {
    ///         std::hint::black_box(i.wrapping_mul(31));
    ///     }
    ///     start.elapsed()
    /// });
    /// # }
    /// ```
    #[inline(always)]
    pub fn iter_custom<R: FnMut(u64) -> Duration>(&mut self, mut routine: R) {
        self.measure(LocalDriver::new(
            SampleKind::Custom,
            &mut routine,
            None::<fn(u64) -> Duration>,
        ));
        self.count(
            #[inline(always)]
            |n| {
                let start = HeapCounter::start();
                routine(n);
                HeapCounter::stop(start)
            },
        );
        self.count_instructions(|n| {
            Callgrind::start();
            routine(n);
            Callgrind::stop(())
        });
    }

    /// The counting pass: `block(n)` runs `n` iterations with the
    /// allocation counters read around the routine's calls, with counting
    /// on, after the measurement and untimed. `n` is one sample's worth
    /// (the measurement's iterations per sample), so the routine is warm
    /// and its one-time work (lazy statics, first-touch caches) done.
    #[inline(always)]
    fn count(&mut self, mut block: impl FnMut(u64) -> AllocCount) {
        if !self.count_allocs {
            return;
        }
        let Some(n) = self.outcome.as_ref().map(|m| m.iters_per_sample.max(1)) else {
            return;
        };
        let counting = Counting::start();
        let counted = block(n);
        drop(counting);
        self.counted = Some((counted, n));
    }

    /// The instruction-counting pass, in counting mode only
    /// ([`crate::instructions`]): after the measurement's warm call, the
    /// rounds of blocks `block(k)` and `block(2k)` with Callgrind's
    /// collection on around the routine's calls where the clock would be
    /// read. Not inlined into the timed forms' code paths: it runs in a
    /// process of its own, never beside a timed block.
    fn count_instructions(&mut self, block: impl FnMut(u64) -> Collected) {
        let Some((k, rounds)) = self.instructions else {
            return;
        };
        if self.outcome.is_none() {
            return;
        }
        crate::instructions::run_rounds(k, rounds, block);
    }

    /// Hands the driver to the policy; the one place every `iter*` form
    /// goes through.
    #[inline(always)]
    fn measure<T, E>(&mut self, mut driver: LocalDriver<T, E>)
    where
        T: FnMut(u64) -> Duration,
        E: FnMut(u64) -> Duration,
    {
        assert!(
            !self.used,
            "a perf test may call the Bencher's iter, iter_batched, iter_batched_ref, iter_per_call or iter_custom (or one of `to_async`'s) only once"
        );
        self.used = true;
        assert!(
            self.team.threads() <= 1 || driver.kind() == SampleKind::Threads,
            "this test runs on {} threads at once (`threads = [..]`): hand its routine to \
             `Bencher::iter_shared`, which takes an `Fn() + Sync` routine and runs it on every \
             thread; the other forms run on one thread",
            self.team.threads()
        );
        self.outcome = Some(self.policy.measure(&mut driver));
    }

    pub(crate) fn finish(self) -> (Option<Measurement>, Option<Work>) {
        (self.outcome, self.work)
    }

    /// What the counting pass counted, and over how many iterations; `None`
    /// when no pass ran (not asked for, or the body never measured).
    pub(crate) fn counted(&self) -> Option<(AllocCount, u64)> {
        self.counted
    }

    /// For a CPU-timed measurement of a routine the Bencher timed itself:
    /// the median wall time per iteration over the sampling blocks (the
    /// last blocks timed, one per sample; the last 4096 (`WALL_BLOCKS`) of them
    /// at most), in ns.
    pub(crate) fn wall_ns_per_iter(&self) -> Option<f64> {
        let m = self.outcome.as_ref()?;
        let per_iter: Vec<f64> = self
            .walls
            .as_ref()?
            .last(m.samples_ns.len())
            .map(|(n, wall)| wall.as_nanos() as f64 / n.max(1) as f64)
            .collect();
        (!per_iter.is_empty()).then(|| stats::quantile(&per_iter, 0.5))
    }

    /// The samples the measurement took (0 before one).
    pub(crate) fn samples(&self) -> usize {
        self.outcome.as_ref().map_or(0, |m| m.samples_ns.len())
    }

    /// The argument's size, when the test's code recorded one.
    pub(crate) fn size(&self) -> Option<u64> {
        self.size
    }
}

/// Records the size of the test's argument (`perfmark::Size`), for the
/// complexity check. Called by the code `#[perf_test(complexity = …)]`
/// generates, before the body runs; not a public API.
#[doc(hidden)]
pub fn record_size(bencher: &mut Bencher, size: u64) {
    bencher.size = Some(size);
}

#[cfg(test)]
mod tests;
