//! Measurement: the [`driver`] that runs "n iterations now", and the
//! policies over it: the adaptive [`sampler`] of a normal run (the paired
//! slice policy that compares two builds is the paired comparison's own,
//! [`crate::paired::measure`]).
//! [`per_call`] is the block of Falco's per-call sampling.
//!
//! A *block* is one call of the driver with `n` iterations; a *sample* is
//! one block's time divided by `n`, less the harness's own per-iteration
//! cost. What a policy measured for one test is a [`Measurement`].

pub(crate) mod capture;
pub mod driver;
pub mod noise_floor;
pub mod per_call;
pub mod reference;
pub mod sampler;

use crate::budget::BudgetLook;
pub use driver::{Driver, LocalDriver, Policy};
pub use sampler::{Adaptive, Plan};

use crate::clock::ClockInfo;
use crate::stats::Statistic;

/// How the samples were taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleKind {
    /// `iter`: the routine in a loop.
    Loop,
    /// `iter_batched` / `iter_batched_ref`: inputs made ahead, untimed.
    Batched,
    /// `iter_custom`: the test reports its own times.
    Custom,
    /// `iter_per_call`: each call timed alone on an input made untimed,
    /// after a random wait (Falco's per-call sampling, [`per_call`]); only
    /// the mean is meaningful.
    PerCall,
    /// `iter_shared` on several threads: each sample from the threads'
    /// common start to the last one's end ([`crate::threads`]).
    Threads,
}

impl SampleKind {
    /// The statistic a test measured this way is decided on: the mean for
    /// per-call sampling, where a single reading says nothing and only the
    /// total over many calls is unbiased (Mark Falco, "Measuring performance
    /// via probability" (2009)), else the default
    /// ([`Statistic::default`]).
    pub fn verdict_statistic(self) -> Statistic {
        match self {
            SampleKind::PerCall => Statistic::Mean,
            SampleKind::Loop | SampleKind::Batched | SampleKind::Custom | SampleKind::Threads => {
                Statistic::default()
            }
        }
    }
}

/// Why sampling stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The CI reached the target precision (and is clear of the budget).
    Precision,
    /// `max_time` ran out first.
    MaxTime,
    /// The sample cap was reached first.
    SampleCap,
    /// Unoptimized build: a smoke run, nothing measured.
    Smoke,
}

/// Stack of a test's thread (the runner's and a worker's) when
/// `RUST_MIN_STACK` does not say: 8 MiB, the usual main-thread stack on
/// Linux, where tests ran before they had threads of their own (a spawned
/// thread's default is 2 MiB).
pub const TEST_THREAD_STACK_BYTES: usize = 8 << 20;

/// The builder of a thread that runs a test's body, in the run's process
/// or a worker's: named after the test (a NUL, which a thread name cannot
/// hold, becomes U+FFFD), with [`TEST_THREAD_STACK_BYTES`] of stack unless
/// `RUST_MIN_STACK` says otherwise.
pub fn test_thread(name: &str) -> std::thread::Builder {
    let builder = std::thread::Builder::new().name(name.replace('\0', "\u{fffd}"));
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        builder.stack_size(TEST_THREAD_STACK_BYTES)
    } else {
        builder
    }
}

/// What the sampler measured for one test.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Measurement {
    /// How the samples were taken.
    pub kind: SampleKind,
    /// Time per iteration of each sample, in ns, in the order taken.
    pub samples_ns: Vec<f64>,
    /// Iterations per sample.
    pub iters_per_sample: u64,
    /// The very first call's time, in ns ("cold", Boyer's `timeExecFirst`).
    pub first_call_ns: f64,
    /// The harness's own per-iteration cost, measured with an empty
    /// routine and subtracted from every sample, in ns.
    pub loop_overhead_ns: f64,
    /// Time spent warming up, in ns, and the blocks run meanwhile.
    pub warmup_ns: f64,
    /// Blocks run during warm-up.
    pub warmup_blocks: u64,
    /// Whether the block time settled before the warm-up cap.
    pub warmup_settled: bool,
    /// Time spent sampling, in ns.
    pub sampling_ns: f64,
    /// Why sampling stopped.
    pub stop: StopReason,
    /// Sample count planned from the pilot to reach the precision.
    pub planned_samples: usize,
    /// With a budget, the look at it the sampler stopped on: the CI the
    /// budget is decided with (see [`crate::budget::looks`]). `None` without a
    /// budget, and for measurements that took no looks (paired slices).
    pub budget_look: Option<BudgetLook>,
    /// The machine-state [`reference`](mod@reference) timed after each sample, ns per
    /// step, in the order taken: empty when the sampler read no clock of
    /// its own (smoke runs, synthetic timings, paired slices).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_ns: Vec<f64>,
}

impl Measurement {
    /// The resolution of a time per iteration in this measurement, in ns:
    /// one tick of the block's timer over the iterations per sample (see
    /// [`crate::stats::at_resolution`]).
    pub fn resolution_ns(&self, clock: &ClockInfo) -> f64 {
        resolution_per_iter_ns(self.kind, clock, self.iters_per_sample)
    }
}

/// What one tick of a block's timer is worth per iteration, in ns: the
/// clock's resolution for the blocks perfmark times, 1 ns (a `Duration`'s
/// unit) for the times an `iter_custom` routine reports, over `iters`.
pub fn resolution_per_iter_ns(kind: SampleKind, clock: &ClockInfo, iters: u64) -> f64 {
    let tick_ns = match kind {
        SampleKind::Custom => 1.0,
        // Per-call blocks sum readings of whole ticks: a block's sum moves
        // by a tick, as a timed loop's does.
        SampleKind::Loop | SampleKind::Batched | SampleKind::PerCall | SampleKind::Threads => {
            clock.resolution_ns
        }
    };
    tick_ns / iters.max(1) as f64
}
