//! The [`Bencher`]: what a `fn f(b: &mut Bencher)` perf test hands its timed
//! routine to.
//!
//! Each `iter*` method wraps the routine in a measurement
//! [`Driver`](crate::measure::Driver) and hands it to the Bencher's
//! [`Policy`], which runs the whole measurement before the method returns; a
//! test calls exactly one of them, once.

use std::time::Duration;

use crate::clock;
use crate::measure::driver::{batched_block, batched_ref_block, loop_block};
use crate::measure::per_call::{per_call_block, RandomPhase, WallClock};
use crate::measure::{Adaptive, Driver, LocalDriver, Measurement, Policy, SampleKind};
use crate::pair::serve::Serve;

/// Work done by one iteration, declared so that rates are reported beside
/// the time (Boyer's `numberActions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", tag = "unit", content = "per_iter")]
pub enum Work {
    /// Items (elements, actions, operations) per iteration: reported as items/s.
    Items(u64),
    /// Bytes processed per iteration: reported as GB/s (10^9 bytes).
    Bytes(u64),
    /// Floating-point operations per iteration: reported as MFLOP/s.
    Flops(u64),
}

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
}

impl Measurer {
    #[inline(always)]
    fn measure<D: Driver>(&mut self, driver: &mut D) -> Measurement {
        match self {
            Measurer::Adaptive(policy) => policy.measure(driver),
            Measurer::Serve(policy) => policy.measure(driver),
        }
    }
}

/// Hands a timed routine to perfmark. See the `iter*` methods.
pub struct Bencher {
    policy: Measurer,
    work: Option<Work>,
    outcome: Option<Measurement>,
    used: bool,
    /// The argument's size, recorded by the code `complexity` generates.
    size: Option<u64>,
}

impl std::fmt::Debug for Bencher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bencher")
            .field("work", &self.work)
            .field("outcome", &self.outcome)
            .field("used", &self.used)
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
        }
    }

    /// Declares the work one iteration does, so rates are reported.
    pub fn work(&mut self, work: Work) -> &mut Self {
        self.work = Some(work);
        self
    }

    /// Declares `n` items (elements, actions) per iteration: shorthand for
    /// `work(Work::Items(n))`.
    pub fn items(&mut self, n: u64) -> &mut Self {
        self.work(Work::Items(n))
    }

    /// Declares `n` bytes per iteration: shorthand for `work(Work::Bytes(n))`.
    pub fn bytes(&mut self, n: u64) -> &mut Self {
        self.work(Work::Bytes(n))
    }

    /// Declares `n` floating-point operations per iteration.
    pub fn flops(&mut self, n: u64) -> &mut Self {
        self.work(Work::Flops(n))
    }

    /// Times `routine`, called repeatedly in a loop; its return value passes
    /// through `black_box` so the work cannot be optimized away. The loop's
    /// own cost, measured with an empty routine, is subtracted.
    ///
    /// # Panics
    /// When called a second time in the same test.
    #[inline(always)]
    pub fn iter<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        let timed = |n: u64| loop_block(n, &mut routine);
        let empty = |n: u64| loop_block(n, &mut || ());
        self.measure(LocalDriver::new(SampleKind::Loop, timed, Some(empty)));
    }

    /// Times `routine` on inputs made by `setup`, passed by value. `setup` is
    /// not timed; the routine's outputs are dropped after the clock stops.
    ///
    /// # Panics
    /// When called a second time in the same test.
    #[inline(always)]
    pub fn iter_batched<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        let timed = |n: u64| batched_block(n, &mut setup, &mut routine);
        let empty = |n: u64| batched_block(n, &mut || (), &mut |()| ());
        self.measure(LocalDriver::new(SampleKind::Batched, timed, Some(empty)));
    }

    /// Times `routine` on inputs made by `setup`, passed by `&mut`. `setup`
    /// is not timed, nor is dropping the inputs and outputs.
    ///
    /// # Panics
    /// When called a second time in the same test.
    #[inline(always)]
    pub fn iter_batched_ref<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        let timed = |n: u64| batched_ref_block(n, &mut setup, &mut routine);
        let empty = |n: u64| batched_ref_block(n, &mut || (), &mut |_: &mut ()| ());
        self.measure(LocalDriver::new(SampleKind::Batched, timed, Some(empty)));
    }

    /// Times `routine` one call at a time, each on a fresh input made by
    /// `setup` (untimed, as are dropping the input and the output): for
    /// routines whose inputs are too large to make ahead in batches, as
    /// `iter_batched` does. Each call starts after a random wait of up to the
    /// timer's resolution, so the mean time is unbiased even when a call is
    /// shorter than one tick of the clock (Falco's per-call sampling); the
    /// verdict is then decided on the mean, the only statistic that means
    /// something, and the output says so.
    ///
    /// # Panics
    /// When called a second time in the same test.
    #[inline(always)]
    pub fn iter_per_call<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        let resolution_ns = clock::info().resolution_ns;
        let mut phase = RandomPhase::new(WallClock::new(), resolution_ns, PHASE_SEED);
        let mut empty_phase = RandomPhase::new(WallClock::new(), resolution_ns, !PHASE_SEED);
        let timed = |n: u64| per_call_block(n, &mut setup, &mut routine, &mut phase);
        let empty = |n: u64| per_call_block(n, &mut || (), &mut |()| (), &mut empty_phase);
        self.measure(LocalDriver::new(SampleKind::PerCall, timed, Some(empty)));
    }

    /// Lets the test time itself: `routine(n)` runs `n` iterations and
    /// returns the time they took, which perfmark takes as given (no loop or
    /// clock overhead is subtracted) as one sample.
    ///
    /// # Panics
    /// When called a second time in the same test.
    #[inline(always)]
    pub fn iter_custom<R: FnMut(u64) -> Duration>(&mut self, routine: R) {
        self.measure(LocalDriver::new(
            SampleKind::Custom,
            routine,
            None::<fn(u64) -> Duration>,
        ));
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
            "a perf test may call the Bencher's iter, iter_batched, iter_batched_ref, iter_per_call or iter_custom only once"
        );
        self.used = true;
        self.outcome = Some(self.policy.measure(&mut driver));
    }

    pub(crate) fn finish(self) -> (Option<Measurement>, Option<Work>) {
        (self.outcome, self.work)
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
