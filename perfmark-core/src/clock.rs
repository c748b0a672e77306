//! The clocks: `std::time::Instant` (wall time), and the measuring
//! thread's CPU time for `measure = "cpu"`, each calibrated once per run.
//!
//! Two numbers decide how long a timed block must be (the lecture
//! "Performance measurement": the time of a block should be 100–1000× the
//! timer's overhead; Newcomer, "Profiling for performance" (1993): a reading
//! is off by up to half the timer's resolution — the "gating error"):
//! - the **resolution**, the smallest non-zero difference between two reads;
//! - the **overhead**, what one read costs, so a block's start/stop pair
//!   can be subtracted from it.
//!
//! The thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`, read with
//! `clock_gettime` through `libc`: Linux and macOS; Windows has none
//! precise enough, its thread times move in scheduler ticks of about
//! 15.6 ms) is calibrated the same way, and only
//! when a test asks for it: it is a system call rather than a vDSO read,
//! so it costs several times what `Instant::now()` does, and a CPU-timed
//! block is made correspondingly longer ([`ClockInfo::min_block`]).

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::platform::support::Support;
use crate::stats;

/// The calibrated clock, measured once per process.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ClockInfo {
    /// Smallest non-zero difference between two consecutive reads, in ns.
    pub resolution_ns: f64,
    /// Cost of one read (`Instant::now()`, or of the thread CPU clock), in
    /// ns (median of several runs).
    pub overhead_ns: f64,
}

impl ClockInfo {
    /// Shortest timed block that keeps the clock's own error negligible: 1000×
    /// both the resolution and the cost of a read pair (the upper factor of the
    /// lecture "Performance measurement"), and never under 1 ms — long enough
    /// that a block averages over many cache and branch-predictor states, short
    /// enough that a timer interrupt hits only a few blocks.
    pub fn min_block(&self) -> Duration {
        let floor_ns = 1_000.0 * self.resolution_ns.max(2.0 * self.overhead_ns);
        Duration::from_nanos(floor_ns.max(1_000_000.0) as u64)
    }
}

/// Which clock a test is timed with (`measure = "wall"` or `"cpu"`), as
/// `report.json` and the baseline files spell it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Clock {
    /// Wall-clock (monotonic) time: `Instant`.
    #[default]
    Wall,
    /// The CPU time of the thread that runs the routine.
    Cpu,
}

impl Clock {
    /// `wall` or `cpu`.
    pub fn as_str(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }

    /// The clock in words, for reasons: "the wall clock", "thread CPU time".
    pub fn words(self) -> &'static str {
        match self {
            Clock::Wall => "wall-clock time",
            Clock::Cpu => "thread CPU time",
        }
    }

    /// This clock's calibration: [`info`] or [`cpu_info`]; `None` when the
    /// platform has no thread CPU clock.
    pub fn info(self) -> Option<ClockInfo> {
        match self {
            Clock::Wall => Some(info()),
            Clock::Cpu => cpu_info(),
        }
    }
}

impl From<perfmark_options::Measure> for Clock {
    fn from(measure: perfmark_options::Measure) -> Clock {
        match measure {
            perfmark_options::Measure::Wall => Clock::Wall,
            perfmark_options::Measure::Cpu => Clock::Cpu,
        }
    }
}

/// The calibrated clock of this process (calibrated on first call, about 5 ms).
pub fn info() -> ClockInfo {
    static INFO: OnceLock<ClockInfo> = OnceLock::new();
    *INFO.get_or_init(calibrate)
}

fn calibrate() -> ClockInfo {
    ClockInfo {
        resolution_ns: resolution_ns(Instant::now, 20_000),
        overhead_ns: overhead_ns(Instant::now, 10_000),
    }
}

/// The calibrated thread CPU clock of this process, calibrated on first
/// call (a few ms); `None` where the platform has none.
pub fn cpu_info() -> Option<ClockInfo> {
    static INFO: OnceLock<Option<ClockInfo>> = OnceLock::new();
    *INFO.get_or_init(|| {
        thread_cpu_available().then(|| ClockInfo {
            // Each read is a system call: fewer pairs than for Instant.
            resolution_ns: resolution_ns(thread_cpu_time, 2_000),
            overhead_ns: overhead_ns(thread_cpu_time, 1_000),
        })
    })
}

/// The CPU time the calling thread has used so far: user and system time,
/// not the time it slept, waited for a lock or I/O, or sat runnable while
/// another thread had its CPU. Zero where the platform has no such clock
/// ([`cpu_info`] is `None` there).
#[inline(always)]
pub fn thread_cpu_time() -> Duration {
    Duration::from_nanos(thread_cpu_ns())
}

/// [`thread_cpu_time`] in whole nanoseconds: what a timed block reads,
/// with no normalization or overflow check to inline beside the routine.
#[cfg(any(target_os = "linux", target_os = "macos"))]
#[inline(always)]
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID
    // is a clock every Linux since 2.6.12 and macOS since 10.12 has, and on
    // failure `ts` stays 0.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (ts.tv_sec as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(ts.tv_nsec as u64)
}

/// [`thread_cpu_time`] in whole nanoseconds: zero here, where no thread
/// CPU clock is read ([`cpu_info`] is `None`).
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
#[inline(always)]
pub fn thread_cpu_ns() -> u64 {
    0
}

/// Whether [`thread_cpu_time`] reads a real clock here: the platform has
/// one ([`Support::thread_cpu_clock`]), and it moves while this thread
/// works.
fn thread_cpu_available() -> bool {
    if !Support::current().thread_cpu_clock {
        return false;
    }
    let start = thread_cpu_time();
    let mut x = 1u64;
    let mut spins = 0u64;
    // Up to ~1 s of work: a clock that does not move by then is not one.
    while thread_cpu_time() == start && spins < 1 << 30 {
        for _ in 0..1_000 {
            x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        spins += 1_000;
    }
    thread_cpu_time() > start
}

/// Smallest non-zero difference between consecutive reads of `now`, over
/// `pairs` pairs.
fn resolution_ns<T>(now: impl Fn() -> T, pairs: u32) -> f64
where
    T: PartialEq + Copy + std::ops::Sub<Output = Duration>,
{
    let mut best = u128::MAX;
    for _ in 0..pairs {
        let a = now();
        let mut b = now();
        // Spin until the clock ticks: the first non-zero step is the resolution.
        while b == a {
            b = now();
        }
        best = best.min((b - a).as_nanos());
    }
    best as f64
}

/// Cost of one read of `now`: `reads` reads timed as a block by the wall
/// clock, median of 15 blocks.
fn overhead_ns<T>(now: impl Fn() -> T, reads: u32) -> f64 {
    let per_read: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..reads {
                black_box(now());
            }
            start.elapsed().as_nanos() as f64 / f64::from(reads)
        })
        .collect();
    stats::quantile(&per_read, 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_is_plausible() {
        let c = info();
        assert!(
            c.resolution_ns > 0.0 && c.resolution_ns < 1_000_000.0,
            "{c:?}"
        );
        assert!(c.overhead_ns > 0.0 && c.overhead_ns < 100_000.0, "{c:?}");
        assert!(c.min_block() >= Duration::from_millis(1));
    }

    #[test]
    fn the_thread_cpu_clock_is_calibrated_where_there_is_one() {
        let Some(c) = cpu_info() else {
            assert!(
                !Support::current().thread_cpu_clock,
                "this platform has a thread CPU clock"
            );
            return;
        };
        assert!(
            c.resolution_ns > 0.0 && c.resolution_ns < 20_000_000.0,
            "{c:?}"
        );
        assert!(c.overhead_ns > 0.0 && c.overhead_ns < 1_000_000.0, "{c:?}");
        assert_eq!(Clock::Cpu.info(), Some(c));
        // Sleeping costs a thread no CPU time worth speaking of.
        let before = thread_cpu_time();
        std::thread::sleep(Duration::from_millis(20));
        assert!(thread_cpu_time() - before < Duration::from_millis(10));
    }

    #[test]
    fn clocks_by_name() {
        assert_eq!(Clock::default(), Clock::Wall);
        assert_eq!(Clock::Cpu.as_str(), "cpu");
        assert_eq!(serde_json::to_string(&Clock::Cpu).unwrap(), "\"cpu\"");
        assert_eq!(Clock::from(perfmark_options::Measure::Cpu), Clock::Cpu);
    }

    #[test]
    fn blocks_are_a_thousand_times_the_resolution_and_at_least_a_millisecond() {
        let c = ClockInfo {
            resolution_ns: 100.0,
            overhead_ns: 20.0,
        };
        assert_eq!(c.min_block(), Duration::from_millis(1));
        let coarse = ClockInfo {
            resolution_ns: 15_600_000.0,
            overhead_ns: 20.0,
        };
        assert_eq!(coarse.min_block(), Duration::from_nanos(15_600_000_000));
    }
}
