//! Reports built as the runner builds them, from seeded samples and the
//! real statistics, for the tests of every report form.

use crate::baseline::compare::{self, BaselineEstimate, RegressionRule, RunEstimate};
use crate::baseline::record::BaselineRecord;
use crate::bencher::Work;
use crate::budget::BudgetRecord;
use crate::checks::{Source, Verdict};
use crate::clock::ClockInfo;
use crate::measure::{Measurement, SampleKind, StopReason};
use crate::observe::{Coverage, Fixed, Interference, Reading, Switches};
use crate::platform::Platform;
use crate::report::REPORT_SCHEMA;
use crate::report::{
    fmt_ns, rate_per_s, Diagnostics, EstimateRecord, MachineLockRecord, Reason, Report, Startup,
    TestReport,
};
use crate::stats::{self, estimate, summarize, tukey, Statistic};

pub fn platform() -> Platform {
    Platform {
        os: "linux".to_owned(),
        kernel: Some("6.1.0-test".to_owned()),
        arch: "x86_64".to_owned(),
        cpu_model: "Test CPU <8 cores> @ 3.0GHz".to_owned(),
        cores: 2,
        rustc: "rustc 1.80.0".to_owned(),
        profile: "release".to_owned(),
        perfmark_version: "0.1.0".to_owned(),
        clock: ClockInfo {
            resolution_ns: 20.0,
            overhead_ns: 24.5,
        },
        cpu_clock: None,
    }
}

pub fn report(tests: Vec<TestReport>) -> Report {
    Report {
        schema: REPORT_SCHEMA,
        target: "perf".to_owned(),
        platform: platform(),
        noise_floor: Some(0.012),
        environment_warnings: vec!["virtual machine: expect <noise>".to_owned()],
        tests,
        finished_in_s: 3.25,
        comparison: None,
        interference: Some(Coverage::probe(&Fixed {
            schedstat: Some("0 0 0".to_owned()),
            stat: Some("cpu  1 0 0 1 0 0 0 0 0 0\n".to_owned()),
            ..Fixed::default()
        })),
        machine_lock: Some(MachineLockRecord {
            path: "/tmp/perfmark-measure-test.lock".to_owned(),
            waited_s: 0.0,
        }),
        startup: Some(Startup {
            clock_calibration_s: 0.005,
            noise_floor_s: 0.18,
            noise_floor_shared: false,
        }),
        family_wise: None,
        between_run_prior: None,
        scaling: Vec::new(),
    }
}

/// A test report as the runner builds it from `samples`, with the real
/// statistics.
pub fn measured(name: &str, samples: Vec<f64>, budget_ns: Option<f64>) -> TestReport {
    let e = estimate(&samples, 0.95);
    let budget = budget_ns.map(|b| BudgetRecord::decide(&e, b));
    let verdict = match &budget {
        Some(b) if !b.passed() => Verdict::Fail,
        _ => Verdict::Pass,
    };
    TestReport {
        name: name.to_owned(),
        verdict,
        reasons: vec![Reason {
            source: Some(Source::Budget),
            fails: verdict == Verdict::Fail,
            text: format!("{} {}/iter", e.statistic.as_str(), fmt_ns(e.point)),
        }],
        estimate: Some(EstimateRecord::from(&e)),
        samples: samples.len(),
        iters_per_sample: 4096,
        warnings: Vec::new(),
        budget,
        summary: Some(summarize(&samples)),
        outliers: Some(tukey(&samples)),
        work: None,
        rate_per_s: None,
        panic: None,
        measurement: Some(Measurement {
            kind: SampleKind::Loop,
            samples_ns: samples.clone(),
            iters_per_sample: 4096,
            first_call_ns: 1234.0,
            loop_overhead_ns: 0.31,
            warmup_ns: 2.0e8,
            warmup_blocks: 40,
            warmup_settled: true,
            sampling_ns: 1.5e9,
            stop: StopReason::Precision,
            planned_samples: 100,
            budget_look: None,
            reference_ns: Vec::new(),
        }),
        diagnostics: Some(Diagnostics {
            verdict_statistic: e.statistic,
            candidates: vec![e.clone()],
            sd_ci: stats::sd_interval(&samples, 0.95),
            serial: stats::serial_correlation(&samples),
            modality: stats::modes(&samples),
            gating_error: stats::gating_error_bound(20.0, 1e6),
            noise: Some(stats::diagnose_noise(0.02, 0.012)),
        }),
        baseline: None,
        comparison: None,
        interference: None,
        remeasured: None,
        size: None,
        complexity: None,
        measure: crate::clock::Clock::Wall,
        wall_ns_per_iter: None,
        threads: None,
        allocations: None,
        cpu: None,
        processes: None,
        instructions: None,
        unchecked_instruction_limit: None,
        file: "tests/perf.rs".to_owned(),
        line: 12,
        duration_s: 1.7,
    }
}

/// The interference of one second on two CPUs in which the measuring
/// thread waited `wait_ms` for a CPU while other processes kept a CPU busy.
pub fn interference(wait_ms: u64) -> Interference {
    let reading = |at_ms: u64, run_ms: u64, wait_ms: u64, busy: [u64; 2], own_ms: u64| {
        Reading::take(&Fixed {
            schedstat: Some(format!("{} {} 1", run_ms * 1_000_000, wait_ms * 1_000_000)),
            sched: Some(format!("se.nr_migrations : {}\n", wait_ms / 100)),
            stat: Some(format!(
                "cpu  {} 0 0 0 0 0 0 0 0 0\ncpu0 {} 0 0 0 0 0 0 0 0 0\ncpu1 {} 0 0 0 0 0 0 0 0 0\n",
                busy[0] + busy[1],
                busy[0],
                busy[1]
            )),
            loadavg: Some("1.20 1.00 0.90 3/95 4242\n".to_owned()),
            switches: Some(Switches {
                voluntary: 3,
                involuntary: wait_ms + 250,
            }),
            process_cpu_ns: Some(own_ms * 1_000_000),
            mono_ns: at_ms as f64 * 1e6,
            unix_s: 1.7e9 + at_ms as f64 / 1e3,
        })
    };
    Interference::between(
        &reading(0, 0, 0, [0, 0], 0),
        &reading(1000, 1000 - wait_ms, wait_ms, [100, 100], 1000 - wait_ms),
    )
}

/// A test that was not measured: ignored, or panicked before measuring.
pub fn unmeasured(name: &str, verdict: Verdict, panic: Option<&str>) -> TestReport {
    let mut t = TestReport::new(name.to_owned(), verdict, "tests/perf.rs", 40);
    t.reasons = panic
        .map(|p| vec![Reason::failing(Source::Runner, format!("panicked: {p}"))])
        .unwrap_or_default();
    t.panic = panic.map(str::to_owned);
    t
}

/// `t` with a baseline from another machine, not used to fail: the
/// sentence the regression check gives (`MachineMatch`'s).
pub fn from_another_machine(mut t: TestReport) -> TestReport {
    let sentence = "baseline recorded on AMD EPYC 7B13, 8 cores, linux 6.1.0, x86_64, release \
                    profile; this machine Test CPU <8 cores> @ 3.0GHz, 2 cores, linux 6.1.0, \
                    x86_64, release profile: not used to fail"
        .to_owned();
    t.reasons.push(Reason::said(Source::Baseline, &sentence));
    t.baseline = Some(BaselineRecord {
        path: "perf-baselines/perf.json".to_owned(),
        runs: 1,
        comparison: None,
        not_used: Some(sentence),
        other_machine: true,
        machine_note: None,
        prior: None,
    });
    t
}

/// A seeded generator (64-bit LCG, top bits) for reproducible samples.
#[derive(Debug)]
pub struct Lcg(pub u64);

impl Lcg {
    pub fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Roughly normal: the sum of 12 uniforms, less 6.
    pub fn normal(&mut self) -> f64 {
        (0..12).map(|_| self.unit()).sum::<f64>() - 6.0
    }
}

/// 20,000 samples around 100 µs with one 5 ms spike, at index 12,345.
pub fn long_spiky_series() -> Vec<f64> {
    let mut rng = Lcg(7);
    let mut samples: Vec<f64> = (0..20_000)
        .map(|_| 100_000.0 + 500.0 * rng.normal())
        .collect();
    samples[12_345] = 5_000_000.0;
    samples
}

/// A realistic run: a fast test with spikes and a rate, a slow drifting
/// one with 20,000 samples and a budget it straddles, a failing one, a
/// bimodal one compared with a baseline, an ignored one and a panicked one.
pub fn realistic() -> Report {
    let mut rng = Lcg(2024);
    let mut fast: Vec<f64> = (0..120).map(|_| 41.0 + 0.6 * rng.normal()).collect();
    for i in [17, 64, 98] {
        fast[i] = 58.0 + 3.0 * rng.unit();
    }
    let mut a = measured("checksum_64_bytes", fast, Some(50.0));
    a.warnings
        .push("3 outliers of 120 samples (3 high, 0 of them severe; 0 low)".into());
    a.work = Some(Work::Bytes(64));
    a.rate_per_s = rate_per_s(Work::Bytes(64), 41.0);
    a.interference = Some(interference(2));

    let mut level = 0.0;
    let slow: Vec<f64> = (0..20_000)
        .map(|i| {
            level = 0.5 * level + 150.0 * rng.normal();
            let spike = if i % 1500 == 700 { 5_000_000.0 } else { 0.0 };
            39_800.0 + level + f64::from(i) * 0.01 + spike
        })
        .collect();
    let mut b = measured("sorting::sort_1k", slow, Some(40_000.0));
    b.measurement.as_mut().unwrap().stop = StopReason::SampleCap;
    let c = measured(
        "sorting::sort_10k",
        (0..200)
            .map(|_| 520_000.0 + 9_000.0 * rng.normal())
            .collect(),
        Some(450_000.0),
    );
    let bimodal: Vec<f64> = (0..400)
        .map(|i| if i % 3 == 0 { 250.0 } else { 180.0 } + 4.0 * rng.normal())
        .collect();
    let mut d = measured("alloc::vec_push <1k>", bimodal, None);
    d.estimate.as_mut().unwrap().statistic = Statistic::Median;
    d.warnings
        .push("multimodal: 2 modes at 180 ns (67%) and 250 ns (33%)".into());
    d.baseline = Some(baseline_check(&d));
    let e = unmeasured("slow_io", Verdict::Ignored, None);
    let f = unmeasured(
        "parse::broken",
        Verdict::Fail,
        Some("called `Option::unwrap()` on a `None` value"),
    );
    report(vec![a, b, c, d, e, f])
}

/// `t` compared with a one-run baseline 3% faster than it.
fn baseline_check(t: &TestReport) -> BaselineRecord {
    let e = t.diagnostics.as_ref().unwrap().verdict_estimate().unwrap();
    let current = RunEstimate::new(e.point, e.ci).unwrap();
    let mut ci = e.ci;
    (ci.low, ci.high) = (ci.low / 1.03, ci.high / 1.03);
    let stored = RunEstimate::new(e.point / 1.03, ci).unwrap();
    let rule = RegressionRule::new(0.95, perfmark_options::DEFAULT_REGRESSION).unwrap();
    let summary = BaselineEstimate::from_runs(&[stored]).unwrap();
    BaselineRecord {
        path: "perf-baselines/perf.json".to_owned(),
        runs: 1,
        comparison: Some(compare::compare(&summary, &current, &rule).unwrap()),
        not_used: None,
        other_machine: false,
        machine_note: None,
        prior: None,
    }
}
