//! Falco's per-call sampling (Mark Falco, "Measuring performance via
//! probability", 2009), the block of
//! [`SampleKind::PerCall`](super::SampleKind): for routines whose inputs are
//! too large to make ahead in batches, each call gets a fresh input from the
//! untimed setup and is timed alone.
//!
//! A call may be shorter than the clock's resolution R: most readings are
//! then 0 and a few are R. Falco's argument is that their mean is
//! nevertheless the call's mean time d: a call starting at phase φ within a
//! tick crosses a tick edge with probability d/R when φ is uniform, and
//! such a crossing reads R, so each reading has expectation (d/R)·R = d
//! (and for d > R the same holds of the fractional part). It needs the
//! start's phase to be uniform and independent of the clock, which a
//! program that does the same thing before every call need not give. So
//! each call here starts after a wait drawn uniformly from [0, R): whatever
//! the phase the program would have, the phase plus an independent uniform
//! wait, modulo R, is uniform. The wait costs R/2 per call on average: a few
//! nanoseconds with `Instant`'s resolution on Linux, a great deal on a
//! coarse clock.
//!
//! As Falco warns, only the total and the mean mean something: each
//! reading alone is hopelessly wrong, so the spread of the readings, their
//! median and every other statistic of single calls are not the call's.
//! The sampler sums the readings of many calls into each sample (a sample
//! is a block's mean per call), and the verdict is decided on the mean of
//! the samples ([`SampleKind::verdict_statistic`](super::SampleKind::verdict_statistic)).
//!
//! The clock is a trait so that a synthetic coarse clock can prove the
//! argument by simulation (`tests/per_call_simulation.rs`).

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::driver::Meter;

/// What per-call sampling needs of time: a clock to read, and a way to wait
/// that does not read it.
pub trait CallClock {
    /// The clock's reading, in ns since an origin of its own; a coarse
    /// clock steps by its resolution.
    fn now_ns(&mut self) -> u64;
    /// Waits about `ns` nanoseconds without reading the clock.
    fn wait_ns(&mut self, ns: f64);
    /// The reading just before a timed call: [`now_ns`](Self::now_ns),
    /// unless the clock keeps a second reading of the call beside its own
    /// ([`CpuCallClock`]).
    #[inline(always)]
    fn start_ns(&mut self) -> u64 {
        self.now_ns()
    }
    /// The reading just after a timed call (see [`start_ns`](Self::start_ns)).
    #[inline(always)]
    fn stop_ns(&mut self) -> u64 {
        self.now_ns()
    }
}

/// `Instant`, read as ns since the clock was made; it waits by spinning a
/// loop whose cost per turn is measured once per process.
#[derive(Debug, Clone, Copy)]
pub struct WallClock {
    origin: Instant,
    spin_ns: f64,
}

impl WallClock {
    /// The wall clock, its spin loop calibrated (about 2 ms, once per process).
    pub fn new() -> Self {
        WallClock {
            origin: Instant::now(),
            spin_ns: spin_cost_ns(),
        }
    }
}

impl Default for WallClock {
    fn default() -> Self {
        WallClock::new()
    }
}

impl CallClock for WallClock {
    #[inline(always)]
    fn now_ns(&mut self) -> u64 {
        self.origin.elapsed().as_nanos() as u64
    }

    #[inline(always)]
    fn wait_ns(&mut self, ns: f64) {
        spin((ns / self.spin_ns) as u64);
    }
}

/// The thread's CPU time (`measure = "cpu"`), read as
/// [`crate::clock::thread_cpu_ns`], with the wall time of the timed calls
/// summed beside it so the output can show both, as the CPU blocks of the
/// other `iter*` forms keep theirs
/// ([`CpuClock`](crate::measure::driver::CpuClock)): the CPU reads are the
/// inner pair. It waits by spinning, which the thread's CPU time counts as
/// the wall clock does.
#[derive(Debug, Clone, Copy)]
pub struct CpuCallClock {
    spin_ns: f64,
    /// The wall clock at the start of the call being timed.
    call_start: Instant,
    /// The wall time of the calls timed since the last [`take_wall`](Self::take_wall), ns.
    wall_ns: u64,
}

impl CpuCallClock {
    /// The thread's CPU clock, its spin loop calibrated (once per process).
    pub fn new() -> Self {
        CpuCallClock {
            spin_ns: spin_cost_ns(),
            call_start: Instant::now(),
            wall_ns: 0,
        }
    }

    /// The wall time of the calls timed since the last call of this
    /// method (or since the clock was made).
    #[inline(always)]
    pub fn take_wall(&mut self) -> Duration {
        Duration::from_nanos(std::mem::take(&mut self.wall_ns))
    }
}

impl Default for CpuCallClock {
    fn default() -> Self {
        CpuCallClock::new()
    }
}

impl CallClock for CpuCallClock {
    #[inline(always)]
    fn now_ns(&mut self) -> u64 {
        crate::clock::thread_cpu_ns()
    }

    #[inline(always)]
    fn wait_ns(&mut self, ns: f64) {
        spin((ns / self.spin_ns) as u64);
    }

    #[inline(always)]
    fn start_ns(&mut self) -> u64 {
        self.call_start = Instant::now();
        crate::clock::thread_cpu_ns()
    }

    #[inline(always)]
    fn stop_ns(&mut self) -> u64 {
        let cpu_ns = crate::clock::thread_cpu_ns();
        let wall_ns = self.call_start.elapsed().as_nanos() as u64;
        self.wall_ns = self.wall_ns.saturating_add(wall_ns);
        cpu_ns
    }
}

/// Turns of a loop that does nothing but cannot be optimized away.
#[inline(always)]
fn spin(turns: u64) {
    for i in 0..turns {
        black_box(i);
    }
}

/// The cost of one turn of [`spin`], ns: the fastest of three blocks of a
/// million turns (the least disturbed), measured once per process.
fn spin_cost_ns() -> f64 {
    static COST: OnceLock<f64> = OnceLock::new();
    *COST.get_or_init(|| {
        const TURNS: u64 = 1_000_000;
        let best = (0..3)
            .map(|_| {
                let start = Instant::now();
                spin(TURNS);
                start.elapsed()
            })
            .min()
            .unwrap_or(Duration::from_millis(1));
        (best.as_nanos() as f64 / TURNS as f64).max(0.01)
    })
}

/// Times single calls, each after a wait drawn uniformly from
/// `[0, resolution)`, so that the start's phase within the clock's tick is
/// uniform (see the module's documentation).
#[derive(Debug, Clone)]
pub struct RandomPhase<C> {
    clock: C,
    resolution_ns: f64,
    state: u64,
}

impl<C: CallClock> RandomPhase<C> {
    /// Per-call timing with `clock`, whose resolution is `resolution_ns`;
    /// the waits come from a generator seeded with `seed`.
    pub fn new(clock: C, resolution_ns: f64, seed: u64) -> Self {
        RandomPhase {
            clock,
            resolution_ns: resolution_ns.max(0.0),
            // xorshift64* needs a state that is not 0.
            state: seed | 1,
        }
    }

    /// Uniform in [0, 1) (xorshift64*, 53 bits).
    #[inline(always)]
    fn uniform(&mut self) -> f64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        let x = self.state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The clock the calls are timed with.
    #[inline(always)]
    pub fn clock_mut(&mut self) -> &mut C {
        &mut self.clock
    }

    /// Times one call of `call` alone, after the random wait: the clock's
    /// reading of the call, ns, and what the call returned (to be dropped
    /// after the clock stopped).
    #[inline(always)]
    pub fn time<O>(&mut self, call: impl FnOnce() -> O) -> (u64, O) {
        let start = self.start_call();
        let out = black_box(call());
        (self.stop_call(start), out)
    }

    /// Waits the random wait, then reads the clock just before a call:
    /// the first half of [`time`](Self::time), for a call that cannot be
    /// a closure (an awaited future).
    #[inline(always)]
    pub fn start_call(&mut self) -> u64 {
        let wait = self.uniform() * self.resolution_ns;
        self.clock.wait_ns(wait);
        self.clock.start_ns()
    }

    /// Reads the clock just after a call begun with
    /// [`start_call`](Self::start_call): the call's reading, ns.
    #[inline(always)]
    pub fn stop_call(&mut self, start: u64) -> u64 {
        self.clock.stop_ns().saturating_sub(start)
    }
}

/// Times `n` calls of `routine`, each on a fresh input from `setup` (made,
/// and dropped with the output, outside the clock), each alone after a
/// random wait: the block of [`SampleKind::PerCall`](super::SampleKind).
/// Returns the sum of the calls' readings, which the sampler divides by `n`.
#[inline(always)]
pub fn per_call_block<I, O, C: CallClock>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(I) -> O,
    phase: &mut RandomPhase<C>,
) -> Duration {
    let mut total_ns: u64 = 0;
    for _ in 0..n {
        let input = setup();
        let (ns, output) = phase.time(|| routine(black_box(input)));
        total_ns = total_ns.saturating_add(ns);
        drop(output);
    }
    Duration::from_nanos(total_ns)
}

/// Runs `n` calls of `routine` as [`per_call_block`] does, each on a fresh
/// input from `setup`, read by `M` around each call alone (setup and drops
/// outside the reads), with no wait: nothing `M` reads here depends on a
/// clock's phase. The untimed counting pass of `iter_per_call`.
#[inline(always)]
pub fn metered_calls<M: Meter, I, O>(
    n: u64,
    setup: &mut impl FnMut() -> I,
    routine: &mut impl FnMut(I) -> O,
) -> M::Reading {
    let mut total = M::Reading::default();
    for _ in 0..n {
        let input = setup();
        let start = M::start();
        let output = black_box(routine(black_box(input)));
        total = total + M::stop(start);
        drop(output);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A clock of resolution `tick` ns over a virtual time that the calls
    /// and waits advance.
    struct Coarse {
        now: Rc<Cell<f64>>,
        tick: f64,
    }

    impl CallClock for Coarse {
        fn now_ns(&mut self) -> u64 {
            ((self.now.get() / self.tick).floor() * self.tick) as u64
        }
        fn wait_ns(&mut self, ns: f64) {
            self.now.set(self.now.get() + ns);
        }
    }

    #[test]
    fn the_wait_is_uniform_over_the_resolution() {
        let now = Rc::new(Cell::new(0.0));
        let mut phase = RandomPhase::new(
            Coarse {
                now: now.clone(),
                tick: 1e9,
            },
            100.0,
            7,
        );
        let calls = 100_000;
        for _ in 0..calls {
            phase.time(|| ());
        }
        // The mean wait is half the resolution.
        let mean = now.get() / f64::from(calls);
        assert!((mean - 50.0).abs() < 0.5, "{mean}");
    }

    #[test]
    fn setup_and_drop_are_outside_the_clock() {
        let now = Rc::new(Cell::new(0.0));
        let mut phase = RandomPhase::new(
            Coarse {
                now: now.clone(),
                tick: 1.0,
            },
            0.0,
            1,
        );
        let (t, n) = (now.clone(), now.clone());
        let block = per_call_block(
            10,
            &mut || t.set(t.get() + 1000.0), // setup: 1 µs, untimed
            &mut |()| n.set(n.get() + 5.0),  // routine: 5 ns
            &mut phase,
        );
        assert_eq!(block, Duration::from_nanos(50));
    }

    #[test]
    fn the_cpu_clock_keeps_the_calls_wall_time_beside() {
        let mut phase = RandomPhase::new(CpuCallClock::new(), 0.0, 3);
        let spin_a_little = || spin(10_000);
        let block = per_call_block(5, &mut || (), &mut |()| spin_a_little(), &mut phase);
        let wall = phase.clock_mut().take_wall();
        assert!(wall > Duration::ZERO);
        assert!(
            block <= wall + Duration::from_millis(50),
            "{block:?} {wall:?}"
        );
        assert_eq!(phase.clock_mut().take_wall(), Duration::ZERO);
    }

    #[test]
    fn the_counting_pass_reads_around_each_call() {
        /// Counts its reads: one pair per call, none around setup or drops.
        struct Reads;
        thread_local!(static READS: Cell<u64> = const { Cell::new(0) });
        impl Meter for Reads {
            type Mark = ();
            type Reading = u64;
            fn start() {
                READS.with(|r| r.set(r.get() + 1));
            }
            fn stop((): ()) -> u64 {
                READS.with(|r| r.set(r.get() + 1));
                1
            }
        }
        let calls = metered_calls::<Reads, (), ()>(7, &mut || (), &mut |()| ());
        assert_eq!(calls, 7);
        assert_eq!(READS.with(Cell::get), 14);
    }

    #[test]
    fn the_wall_clock_waits_and_reads() {
        let mut clock = WallClock::new();
        let a = clock.now_ns();
        clock.wait_ns(1000.0);
        assert!(clock.now_ns() >= a);
    }
}
