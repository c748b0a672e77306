//! The [`Bencher`]: what a `fn f(b: &mut Bencher)` perf test hands its timed
//! routine to.
//!
//! Each `iter*` method runs the whole measurement (first call, warm-up,
//! sampling) before it returns; a test calls exactly one of them, once.

use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::sampler::{self, Measurement, Plan, SampleKind};

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

/// Hands a timed routine to perfmark. See the `iter*` methods.
#[derive(Debug)]
pub struct Bencher {
    plan: Plan,
    work: Option<Work>,
    outcome: Option<Measurement>,
    used: bool,
}

/// Batched inputs are made this many at a time at most, so a routine with
/// large inputs does not hold millions of them in memory at once.
const MAX_BATCH: u64 = 4096;

impl Bencher {
    pub(crate) fn new(plan: Plan) -> Self {
        Bencher {
            plan,
            work: None,
            outcome: None,
            used: false,
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
    pub fn iter<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        self.start();
        let timed = |n: u64| {
            let start = Instant::now();
            for _ in 0..n {
                black_box(routine());
            }
            start.elapsed()
        };
        let empty = |n: u64| {
            let start = Instant::now();
            for _ in 0..n {
                black_box(());
            }
            start.elapsed()
        };
        self.outcome = Some(sampler::run(
            &self.plan,
            SampleKind::Loop,
            timed,
            Some(empty),
        ));
    }

    /// Times `routine` on inputs made by `setup`, passed by value. `setup` is
    /// not timed; the routine's outputs are dropped after the clock stops.
    ///
    /// # Panics
    /// When called a second time in the same test.
    pub fn iter_batched<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.start();
        let timed = |n: u64| batched(n, &mut setup, &mut routine);
        let empty = |n: u64| batched(n, &mut || (), &mut |()| ());
        self.outcome = Some(sampler::run(
            &self.plan,
            SampleKind::Batched,
            timed,
            Some(empty),
        ));
    }

    /// Times `routine` on inputs made by `setup`, passed by `&mut`. `setup`
    /// is not timed, nor is dropping the inputs and outputs.
    ///
    /// # Panics
    /// When called a second time in the same test.
    pub fn iter_batched_ref<I, O, S, R>(&mut self, mut setup: S, mut routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        self.start();
        let timed = |n: u64| batched_ref(n, &mut setup, &mut routine);
        let empty = |n: u64| batched_ref(n, &mut || (), &mut |_: &mut ()| ());
        self.outcome = Some(sampler::run(
            &self.plan,
            SampleKind::Batched,
            timed,
            Some(empty),
        ));
    }

    /// Lets the test time itself: `routine(n)` runs `n` iterations and
    /// returns the time they took, which perfmark takes as given (no loop or
    /// clock overhead is subtracted) as one sample.
    ///
    /// # Panics
    /// When called a second time in the same test.
    pub fn iter_custom<R: FnMut(u64) -> Duration>(&mut self, routine: R) {
        self.start();
        self.outcome = Some(sampler::run(
            &self.plan,
            SampleKind::Custom,
            routine,
            None::<fn(u64) -> Duration>,
        ));
    }

    fn start(&mut self) {
        assert!(
            !self.used,
            "a perf test may call the Bencher's iter, iter_batched, iter_batched_ref or iter_custom only once"
        );
        self.used = true;
    }

    pub(crate) fn finish(self) -> (Option<Measurement>, Option<Work>) {
        (self.outcome, self.work)
    }
}

fn batched<I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(I) -> O,
) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = n;
    while left > 0 {
        let batch = left.min(MAX_BATCH);
        left -= batch;
        let mut inputs: Vec<I> = (0..batch).map(|_| setup()).collect();
        let mut outputs: Vec<O> = Vec::with_capacity(batch as usize);
        let start = Instant::now();
        // `drain` keeps the buffer's deallocation out of the timed region.
        for input in inputs.drain(..) {
            outputs.push(black_box(routine(black_box(input))));
        }
        total += start.elapsed();
        drop(outputs);
    }
    total
}

fn batched_ref<I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(&mut I) -> O,
) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = n;
    while left > 0 {
        let batch = left.min(MAX_BATCH);
        left -= batch;
        let mut inputs: Vec<I> = (0..batch).map(|_| setup()).collect();
        let mut outputs: Vec<O> = Vec::with_capacity(batch as usize);
        let start = Instant::now();
        for input in inputs.iter_mut() {
            outputs.push(black_box(routine(black_box(input))));
        }
        total += start.elapsed();
        drop(outputs);
        drop(inputs);
    }
    total
}
