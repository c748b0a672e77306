//! Measurement: the [`driver`] that runs "n iterations now", and the
//! policies over it: the adaptive [`sampler`] of a normal run, and the
//! [`paired`] slice policy that compares two builds over a [`PairDriver`].
//! [`per_call`] is the block of Falco's per-call sampling.
//!
//! A *block* is one call of the driver with `n` iterations; a *sample* is
//! one block's time divided by `n`, less the harness's own per-iteration
//! cost. What a policy measured for one test is a [`Measurement`].

pub mod budget_looks;
pub mod driver;
pub mod noise_floor;
pub mod paired;
pub mod per_call;
pub mod sampler;

pub use budget_looks::BudgetLook;
pub use driver::{Driver, LocalDriver, Policy};
pub use paired::{
    run_paired, PairDriver, PairedMeasurement, PairedPlan, PairedStop, Side, SlicePair,
};
pub use sampler::{Adaptive, Plan};

use crate::clock::ClockInfo;
use crate::json::{self, FromJson, Object, ToJson, Value};
use crate::stats::Statistic;

/// How the samples were taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

impl SampleKind {
    /// The statistic a test measured this way is decided on: the mean for
    /// per-call sampling, where a single reading says nothing and only the
    /// total over many calls is unbiased (seed 000), else the default
    /// ([`Statistic::default`]).
    pub fn verdict_statistic(self) -> Statistic {
        match self {
            SampleKind::PerCall => Statistic::Mean,
            SampleKind::Loop | SampleKind::Batched | SampleKind::Custom => Statistic::default(),
        }
    }
}

/// Why sampling stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// What the sampler measured for one test.
#[derive(Debug, Clone, PartialEq)]
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
    /// budget is decided with (see [`budget_looks`]). `None` without a
    /// budget, and for measurements that took no looks (paired slices).
    pub budget_look: Option<BudgetLook>,
}

crate::json::unit_enum_json!(SampleKind {
    Loop = "loop",
    Batched = "batched",
    Custom = "custom",
    PerCall = "per_call",
});

crate::json::unit_enum_json!(StopReason {
    Precision = "precision",
    MaxTime = "max_time",
    SampleCap = "sample_cap",
    Smoke = "smoke",
});

impl ToJson for Measurement {
    fn to_json(&self) -> Value {
        Object::new()
            .with("kind", &self.kind)
            .with("samples_ns", &self.samples_ns)
            .with("iters_per_sample", &self.iters_per_sample)
            .with("first_call_ns", &self.first_call_ns)
            .with("loop_overhead_ns", &self.loop_overhead_ns)
            .with("warmup_ns", &self.warmup_ns)
            .with("warmup_blocks", &self.warmup_blocks)
            .with("warmup_settled", &self.warmup_settled)
            .with("sampling_ns", &self.sampling_ns)
            .with("stop", &self.stop)
            .with("planned_samples", &self.planned_samples)
            .with("budget_look", &self.budget_look)
            .into()
    }
}

impl FromJson for Measurement {
    /// `budget_look` may be missing (written before it existed): `None`.
    #[inline]
    fn from_json(value: &Value) -> Result<Self, json::Error> {
        let f = value.fields()?;
        Ok(Measurement {
            kind: f.get("kind")?,
            samples_ns: f.get("samples_ns")?,
            iters_per_sample: f.get("iters_per_sample")?,
            first_call_ns: f.get("first_call_ns")?,
            loop_overhead_ns: f.get("loop_overhead_ns")?,
            warmup_ns: f.get("warmup_ns")?,
            warmup_blocks: f.get("warmup_blocks")?,
            warmup_settled: f.get("warmup_settled")?,
            sampling_ns: f.get("sampling_ns")?,
            stop: f.get("stop")?,
            planned_samples: f.get("planned_samples")?,
            budget_look: f.get_or_default("budget_look")?,
        })
    }
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
        SampleKind::Loop | SampleKind::Batched | SampleKind::PerCall => clock.resolution_ns,
    };
    tick_ns / iters.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::testing;
    use crate::stats::Interval;

    fn measurement() -> Measurement {
        Measurement {
            kind: SampleKind::Loop,
            samples_ns: vec![10.5, 11.0, 10.25],
            iters_per_sample: 1000,
            first_call_ns: 250.0,
            loop_overhead_ns: 0.5,
            warmup_ns: 1e6,
            warmup_blocks: 12,
            warmup_settled: true,
            sampling_ns: 3e9,
            stop: StopReason::Precision,
            planned_samples: 100,
            budget_look: None,
        }
    }

    #[test]
    fn json_round_trips() {
        for kind in [
            SampleKind::Loop,
            SampleKind::Batched,
            SampleKind::Custom,
            SampleKind::PerCall,
        ] {
            testing::round_trips(&kind);
        }
        for stop in [
            StopReason::Precision,
            StopReason::MaxTime,
            StopReason::SampleCap,
            StopReason::Smoke,
        ] {
            testing::round_trips(&stop);
        }
        let m = measurement();
        testing::round_trips(&m);
        testing::round_trips(&Measurement {
            kind: SampleKind::PerCall,
            stop: StopReason::MaxTime,
            budget_look: Some(BudgetLook {
                look: 2,
                max_looks: 6,
                last: false,
                ci: Interval {
                    low: 9.5,
                    high: 11.5,
                    confidence: 0.99,
                },
            }),
            ..m.clone()
        });
        let text = testing::text(&m);
        assert_eq!(
            text,
            r#"{"kind":"loop","samples_ns":[10.5,11.0,10.25],"iters_per_sample":1000,"first_call_ns":250.0,"loop_overhead_ns":0.5,"warmup_ns":1000000.0,"warmup_blocks":12,"warmup_settled":true,"sampling_ns":3000000000.0,"stop":"precision","planned_samples":100,"budget_look":null}"#
        );
        // written before budget_look existed
        let old: Measurement = testing::read(&text.replace(r#","budget_look":null"#, ""));
        assert_eq!(old, m);
    }
}
