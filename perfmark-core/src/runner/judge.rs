//! What a measured test's samples say: the estimate, the checks' findings,
//! the diagnostics and the warnings, as values.

use super::outcome::{Judged, Measured};
use crate::budget::BudgetLook;
use crate::checks::{Check, Finding, SampleWarning, Subject, Warning};
use crate::measure::{Measurement, Plan, SampleKind, StopReason};
use crate::processes::{self, Prior, ProcessSpread, WorkerRun};
use crate::report::{self, Diagnostics, EstimateRecord};
use crate::stats::{self, AtResolution, Estimate, Outliers, Statistic, Summary};

/// Which processes a test's samples and estimate come from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Across<'a> {
    /// This process alone.
    One,
    #[cfg(feature = "compare")]
    /// Several, each sample's worker process given (a paired comparison's
    /// head slices).
    Groups(&'a [usize]),
    /// This process, and the worker processes measured after it
    /// ([`crate::processes`]), decided at the run's look confidence.
    Workers(&'a WorkerRun),
    /// This process alone, its intervals widened by the between-process
    /// spread learned on this machine: what workers could at most move
    /// (`Runner::judge_measured`).
    Prior(Prior),
}

/// Statistics, diagnostics and the checks' verdicts of the test `name`,
/// `measured` as `m` says, added to `judged`; `across` says which
/// processes measured it, so that the interval is bounded by the spread
/// between them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn judge(
    name: &str,
    measured: &Measured,
    judged: &mut Judged,
    plan: &Plan,
    tolerance: f64,
    m: &Measurement,
    noise_floor: Option<f64>,
    checks: &[&dyn Check],
    across: Across<'_>,
) {
    let samples = &m.samples_ns;
    // Times below the measurement's resolution (or below zero, once the
    // harness's cost is subtracted) read as one rule says, for every check.
    let mut raw = raw_estimate(samples, plan.confidence, m.kind.verdict_statistic(), across);
    let widened_look = over_the_processes(&mut raw, m, across, judged);
    let m = widened_look.as_ref().unwrap_or(m);
    let resolution_ns = m.resolution_ns(&plan.clock);
    let read = stats::at_resolution(&raw, resolution_ns);
    let estimate = &read.estimate;
    let summary = stats::summarize(samples);
    let outliers = stats::tukey(samples);
    judged.rate_per_s = measured
        .work
        .and_then(|w| report::rate_per_s(w, estimate.point));

    let subject = Subject {
        name,
        plan,
        tolerance,
        measurement: m,
        estimate,
        resolution_ns,
        allocations: measured.allocations.as_ref(),
        processes: judged.processes.as_ref(),
    };
    let findings: Vec<Finding> = checks.iter().filter_map(|c| c.check(&subject)).collect();
    for finding in findings {
        judged.record(finding);
    }

    let diagnostics = diagnose(samples, plan, m, estimate, &summary, noise_floor);
    let said = sample_warnings(
        plan,
        m,
        (&raw, &read),
        resolution_ns,
        &outliers,
        &diagnostics,
    );
    judged
        .warnings
        .extend(said.into_iter().map(Warning::Samples));
    let mut record = EstimateRecord::from(estimate);
    record.below_resolution = read.below_resolution;
    judged.estimate = Some(record);
    judged.summary = Some(summary);
    judged.outliers = Some(outliers);
    judged.diagnostics = Some(diagnostics);
}

/// The `statistic` of `samples` with its CI at `confidence`, as measured:
/// samples from several processes (a paired comparison's head slices) are
/// bounded by the spread between the processes.
fn raw_estimate(
    samples: &[f64],
    confidence: f64,
    statistic: Statistic,
    across: Across<'_>,
) -> Estimate {
    match across {
        #[cfg(feature = "compare")]
        Across::Groups(groups) => stats::estimate_in_groups(samples, groups, confidence, statistic),
        Across::One | Across::Workers(_) | Across::Prior(_) => {
            stats::estimate_with(samples, confidence, statistic)
        }
    }
}

/// The estimate `raw` of the measurement `m`, widened in place to cover
/// the processes `across` names ([`over_processes`]), with their spread
/// and its warning added to `judged`; returns `m` with its budget look
/// widened the same way, when it has one and was widened.
fn over_the_processes(
    raw: &mut Estimate,
    m: &Measurement,
    across: Across<'_>,
    judged: &mut Judged,
) -> Option<Measurement> {
    match across {
        Across::Workers(run) => {
            let (look, spread) = over_processes(raw, m, &run.workers, run.prior, Some(run));
            if let Some(p) = spread.as_ref().filter(|p| p.beyond_history) {
                judged.warnings.push(Warning::ProcessesBeyondHistory {
                    tau_own: p.tau_own,
                    history: run.prior.tau2.sqrt(),
                    processes: p.estimates_ns.len(),
                });
            }
            judged.processes = spread;
            look
        }
        Across::Prior(prior) => over_processes(raw, m, &[], prior, None).0,
        #[cfg(feature = "compare")]
        Across::Groups(_) => None,
        Across::One => None,
    }
}

/// With worker processes (or the learned spread alone), every interval a
/// check reads covers them: the estimate `raw`'s, replaced in place by the
/// random-effects combination of the runner's process with `workers` under
/// `prior` ([`processes::over_processes`]), at the look confidence of
/// `run` when one is given; and the budget look's, combined the same way
/// at its own level, returned as `m` with its look replaced (`None` when
/// `m` has no look). With `run`, the processes' spread for the report.
fn over_processes(
    raw: &mut Estimate,
    m: &Measurement,
    workers: &[Vec<f64>],
    prior: Prior,
    run: Option<&WorkerRun>,
) -> (Option<Measurement>, Option<ProcessSpread>) {
    // The α a test's looks share: each decides at this level.
    let split = |confidence: f64| match run {
        Some(run) => 1.0 - (1.0 - confidence) / run.split as f64,
        None => confidence,
    };
    // The runner's timed blocks against one worker's: a slice is one
    // block, and a block's noise need not shrink with its length (a
    // custom timer's does not), so a worker's slices are worth no more
    // than as many of the runner's samples.
    let work_ratio = run.map_or(0.0, |run| {
        m.samples_ns.len() as f64 / run.plan.slices as f64
    });
    let widened = m.budget_look.as_ref().and_then(|look| {
        let (_, _, ci) = processes::combine_interval(
            raw.point,
            look.ci,
            raw.effective_n,
            workers,
            work_ratio,
            Some(prior),
            split(look.ci.confidence),
        )?;
        let mut wider = m.clone();
        wider.budget_look = Some(BudgetLook { ci, ..*look });
        Some(wider)
    });
    let own = raw.ci;
    let confidence = split(own.confidence);
    let (over, combined) =
        processes::over_processes(raw, workers, work_ratio, Some(prior), confidence);
    *raw = over;
    let spread = run.zip(combined).and_then(|(run, (units, combined))| {
        let mut spread = ProcessSpread::new(&units, &combined, run)?;
        spread.sets_interval = raw.ci.high - raw.ci.low > own.high - own.low;
        Some(spread)
    });
    (widened, spread)
}

/// What the samples say for the verdict, each with its figures: an
/// estimate below the measurement's `resolution_ns` (`raw` as measured,
/// `read` as the checks read it), the precision not reached, outliers,
/// serial correlation, modes, the timer's gating error, and a spread that
/// is the machine's.
fn sample_warnings(
    plan: &Plan,
    m: &Measurement,
    (raw, read): (&Estimate, &AtResolution),
    resolution_ns: f64,
    outliers: &Outliers,
    d: &Diagnostics,
) -> Vec<SampleWarning> {
    let (estimate, below_resolution) = (&read.estimate, read.below_resolution);
    let mut warnings = Vec::new();
    if below_resolution {
        warnings.push(SampleWarning::BelowResolution {
            raw: raw.clone(),
            read: estimate.clone(),
            resolution_ns,
        });
    }
    let half_width = estimate.ci.relative_half_width(estimate.point);
    // A relative precision of a time that reads as zero means nothing: the
    // warning about the resolution says what there is to say.
    if m.stop != StopReason::Precision && half_width > plan.precision && !below_resolution {
        warnings.push(SampleWarning::PrecisionNotReached {
            target: plan.precision,
            max_time_ns: plan.max_time.as_nanos() as f64,
            half_width,
        });
    }
    if outliers.total() > 0 {
        warnings.push(SampleWarning::Outliers {
            outliers: outliers.clone(),
            samples: m.samples_ns.len(),
            statistic: estimate.statistic,
        });
    }
    warnings.extend(diagnostic_warnings(estimate, half_width, d));
    warnings
}

/// The diagnostics' warnings: serial correlation (with how much it
/// widened the interval of relative half-width `half_width`), modes, the
/// timer's gating error, and a spread that is the machine's.
fn diagnostic_warnings(
    estimate: &Estimate,
    half_width: f64,
    d: &Diagnostics,
) -> Vec<SampleWarning> {
    let mut warnings = Vec::new();
    if d.serial.flagged {
        let naive = estimate.naive_ci.relative_half_width(estimate.point);
        warnings.push(SampleWarning::SerialCorrelation {
            lag1: d.serial.lags.first().copied().unwrap_or(0.0),
            effective_n: estimate.effective_n,
            n: estimate.n,
            widened: if naive > 0.0 { half_width / naive } else { 1.0 },
        });
    }
    if d.modality.multimodal {
        warnings.push(SampleWarning::Modes(d.modality.modes.clone()));
    }
    if d.gating_error > 0.001 {
        warnings.push(SampleWarning::GatingError(d.gating_error));
    }
    if let Some(noise) = d
        .noise
        .as_ref()
        .filter(|n| n.machine_dominated && n.test_cov > 0.0)
    {
        warnings.push(SampleWarning::MachineSpread {
            test_cov: noise.test_cov,
            floor_cov: noise.floor_cov,
        });
    }
    warnings
}

fn diagnose(
    samples: &[f64],
    plan: &Plan,
    m: &Measurement,
    estimate: &Estimate,
    summary: &Summary,
    noise_floor: Option<f64>,
) -> Diagnostics {
    // The block the clock timed: the routine and the harness's own cost
    // (a sample below zero still came from a block of positive length).
    let block_ns = ((summary.median + m.loop_overhead_ns) * m.iters_per_sample as f64).max(0.0);
    Diagnostics {
        verdict_statistic: estimate.statistic,
        // The verdict's own statistic is already estimated: reuse it.
        candidates: Statistic::ALL
            .iter()
            .map(|&s| {
                if s == estimate.statistic {
                    estimate.clone()
                } else {
                    stats::estimate_with(samples, plan.confidence, s)
                }
            })
            .collect(),
        sd_ci: stats::sd_interval(samples, plan.confidence),
        serial: stats::serial_correlation(samples),
        modality: stats::modes(samples),
        // Per-call readings are each off by up to a tick, but their mean is
        // unbiased (random phase): no bound per sample applies.
        gating_error: match m.kind {
            SampleKind::Custom | SampleKind::PerCall => 0.0,
            SampleKind::Loop | SampleKind::Batched | SampleKind::Threads => {
                stats::gating_error_bound(plan.clock.resolution_ns, block_ns)
            }
        },
        noise: noise_floor.map(|floor| stats::diagnose_noise(stats::robust_spread(summary), floor)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    use crate::bencher::{Bencher, Measurer};
    use crate::budget::Budget;
    use crate::checks::Verdict;
    use crate::measure::{Adaptive, Policy as _};
    use crate::report::TestReport;
    use crate::runner::outcome::{Judged, Outcome};

    /// Synthetic timings of a known truth, through the whole pipeline:
    /// `Bencher::iter_custom` → sampler (warm-up, adaptive stop) → stats →
    /// budget verdict. `phi` = 0 gives independent samples, 0.5 an AR(1)
    /// series; the noise is 3% of the truth.
    fn synthetic_run(seed: u64, phi: f64, budget_ns: Option<f64>) -> TestReport {
        const TRUTH_NS: f64 = 1000.0;
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut e = 0.0_f64;
        let innovation = 0.03 * (1.0 - phi * phi).sqrt();
        let mut plan = Plan::new(
            0.95,
            0.01,
            Duration::from_millis(400),
            Duration::from_millis(5),
        );
        plan.budget_ns = budget_ns;
        let mut bencher = Bencher::new(Measurer::Adaptive(Adaptive::new(plan.clone())));
        bencher.iter_custom(|n| {
            // Box–Muller normal innovation for the AR(1) relative error.
            let z =
                (-2.0 * (1.0 - uniform()).ln()).sqrt() * (std::f64::consts::TAU * uniform()).cos();
            e = phi * e + innovation * z;
            Duration::from_nanos((TRUTH_NS * (1.0 + e) * n as f64).round() as u64)
        });
        let (measurement, work) = bencher.finish();
        let m = measurement.expect("iter_custom measured");
        judged(&plan, m, work)
    }

    /// `m` judged under `plan` with the budget check alone, as its report.
    fn judged(plan: &Plan, m: Measurement, work: Option<crate::bencher::Work>) -> TestReport {
        let mut o = Outcome::at("synthetic".to_owned(), "x.rs", 1);
        o.measured.work = work;
        let checks: [&dyn Check; 1] = [&Budget::default()];
        judge(
            &o.name,
            &o.measured,
            &mut o.judged,
            plan,
            0.05,
            &m,
            None,
            &checks,
            Across::One,
        );
        o.measured.measurement = Some(m);
        o.finish().report
    }

    /// A custom timer that reports `block(n)` for `n` iterations, through
    /// `Bencher::iter_custom` and the whole pipeline, against `budget_ns`.
    fn custom_run(budget_ns: f64, block: impl FnMut(u64) -> Duration) -> TestReport {
        let mut plan = Plan::simulated(
            0.95,
            0.01,
            Duration::from_millis(50),
            Duration::from_millis(1),
        );
        plan.budget_ns = Some(budget_ns);
        let mut bencher = Bencher::new(Measurer::Adaptive(Adaptive::new(plan.clone())));
        bencher.iter_custom(block);
        let (measurement, _) = bencher.finish();
        let m = measurement.expect("iter_custom measured");
        judged(&plan, m, None)
    }

    #[test]
    fn a_custom_timer_reporting_zero_reads_as_below_resolution() {
        let report = custom_run(50.0, |_| Duration::ZERO);
        assert_eq!(report.verdict, Verdict::Pass, "{:?}", report.reasons);
        let e = report.estimate.as_ref().expect("estimated");
        assert!(e.below_resolution);
        assert_eq!((e.ns_per_iter, e.ci.low), (0.0, 0.0));
        assert!(e.ci.high > 0.0, "{e:?}");
        assert!(
            report.reasons[0].text.starts_with("within budget 50.00 ns"),
            "{:?}",
            report.reasons
        );
        assert!(
            report
                .warnings
                .iter()
                .any(|w| w.contains("is below what this measurement resolves")),
            "{:?}",
            report.warnings
        );
        // report.json says so too.
        let json = serde_json::to_value(e).unwrap();
        assert_eq!(json["below_resolution"], true);
        // A resolved time writes no flag.
        let resolved = custom_run(50.0, |n| Duration::from_nanos(10 * n));
        let json = serde_json::to_value(resolved.estimate.as_ref().unwrap()).unwrap();
        assert!(json.get("below_resolution").is_none(), "{json}");
    }

    #[test]
    fn samples_below_zero_never_pass_a_budget_the_measurement_cannot_resolve() {
        // A loop whose routine reads faster than the empty harness: every
        // sample is −0.5 ns. Read as 0 up to 0.5 ns: a 0.1 ns budget is
        // inconclusive (passed on the point, and said), a 1 ns one is met.
        let run = |budget_ns: f64| {
            let mut plan = Plan::simulated(
                0.95,
                0.01,
                Duration::from_millis(50),
                Duration::from_millis(1),
            );
            plan.budget_ns = Some(budget_ns);
            let mut driver = crate::measure::LocalDriver::new(
                SampleKind::Loop,
                |n: u64| Duration::from_nanos(20 + n / 2),
                Some(|n: u64| Duration::from_nanos(20 + n)),
            );
            let m = Adaptive::new(plan.clone()).measure(&mut driver);
            judged(&plan, m, None)
        };
        let tight = run(0.1);
        assert!(
            tight.reasons[0]
                .text
                .starts_with("inconclusive against budget 0.100 ns"),
            "{:?}",
            tight.reasons
        );
        let e = tight.estimate.as_ref().unwrap();
        assert_eq!((e.ns_per_iter, e.ci.low), (0.0, 0.0));
        assert!(e.ci.high >= 0.49, "{e:?}");
        let loose = run(1.0);
        assert!(
            loose.reasons[0].text.starts_with("within budget 1.000 ns"),
            "{:?}",
            loose.reasons
        );
    }

    #[test]
    fn synthetic_timings_get_covering_intervals_and_right_budget_verdicts() {
        for (phi, label) in [(0.0, "independent"), (0.5, "AR(1) φ = 0.5")] {
            let reps = 300;
            let mut covered = 0;
            for seed in 0..reps {
                let r = synthetic_run(seed, phi, None);
                let e = r.estimate.expect("estimated");
                covered += usize::from(e.ci.low <= 1000.0 && 1000.0 <= e.ci.high);
            }
            let coverage = covered as f64 / reps as f64;
            eprintln!(
                "synthetic {label}: 95% CI covered the truth in {coverage:.3} of {reps} runs"
            );
            // Nominal 95%; 300 replications put the Monte Carlo sd at 1.3 points.
            assert!(
                (0.90..=0.99).contains(&coverage),
                "{label}: coverage {coverage}"
            );
            // Budgets 5% on either side of the truth: always the right verdict.
            for seed in 0..50 {
                let under = synthetic_run(1000 + seed, phi, Some(1050.0));
                assert_eq!(under.verdict, Verdict::Pass, "{label}: {:?}", under.reasons);
                let over = synthetic_run(2000 + seed, phi, Some(950.0));
                assert_eq!(over.verdict, Verdict::Fail, "{label}: {:?}", over.reasons);
            }
        }
    }

    /// A timer whose blocks read `truth_ns` per iteration with relative
    /// noise of sd `noise`, AR(1) with `phi` from block to block, from its
    /// own `seed`: one process's noise.
    fn noisy_blocks(seed: u64, truth_ns: f64, noise: f64, phi: f64) -> impl FnMut(u64) -> Duration {
        let mut rng =
            crate::stats::seeded::SeededNormal(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let innovation = noise * (1.0 - phi * phi).sqrt();
        let mut e = noise * rng.next();
        move |n| {
            e = phi * e + innovation * rng.next();
            Duration::from_nanos((truth_ns * (1.0 + e) * n as f64).round() as u64)
        }
    }

    /// The runner's policy over simulated processes: a test of `truth_ns`
    /// (5% noise per block, AR φ = 0.5, each process its own noise)
    /// against `budget_ns`, measured in this process; decided alone where
    /// the learned spread cannot flip it, else with workers and looks
    /// (`processes::take_looks`), each worker's slices one custom block
    /// each, as `iter_custom` serves them.
    fn decided_with_workers(seed: u64, truth_ns: f64, budget_ns: f64) -> (Verdict, usize) {
        use crate::processes::{learned, take_looks, ProcessPlan, WorkerRun, WORKERS};
        let mut plan = Plan::simulated(
            0.95,
            0.01,
            Duration::from_millis(400),
            Duration::from_millis(5),
        );
        plan.budget_ns = Some(budget_ns);
        let mut bencher = Bencher::new(Measurer::Adaptive(Adaptive::new(plan.clone())));
        bencher.iter_custom(noisy_blocks(seed, truth_ns, 0.05, 0.5));
        let m = bencher.finish().0.expect("iter_custom measured");
        let o = Outcome::at("synthetic".to_owned(), "x.rs", 1);
        let checks: [&dyn Check; 1] = [&Budget::default()];
        let judge_with = |across: Across<'_>| {
            let mut j = Judged::default();
            judge(
                &o.name,
                &o.measured,
                &mut j,
                &plan,
                0.05,
                &m,
                None,
                &checks,
                across,
            );
            j
        };
        let prior = learned::DEFAULT_PRIOR;
        let anticipated = Prior {
            df: prior.df + WORKERS as f64,
            ..prior
        };
        if judge_with(Across::Prior(anticipated)).settled() {
            return (judge_with(Across::One).verdict(), 0);
        }
        let process_plan = ProcessPlan::for_measurement(&m, plan.max_time).expect("a plan");
        let mut run = WorkerRun::new(process_plan, prior, false, true);
        let judged = take_looks(
            false,
            |upto| {
                while run.workers.len() < upto {
                    let worker_seed = seed
                        .wrapping_mul(31)
                        .wrapping_add(run.workers.len() as u64 + 1);
                    let mut block = noisy_blocks(worker_seed, truth_ns, 0.05, 0.5);
                    let iters = process_plan.iters;
                    let slices = (0..process_plan.slices)
                        .map(|_| block(iters).as_nanos() as f64 / iters as f64)
                        .collect();
                    run.workers.push(slices);
                }
                Ok::<_, ()>(run.clone())
            },
            |r| judge_with(Across::Workers(r)),
            Judged::settled,
        )
        .unwrap();
        (judged.verdict(), run.workers.len())
    }

    #[test]
    fn a_budget_one_percent_from_the_truth_is_decided_right_with_workers() {
        // Held out: 5% noise per block, AR φ = 0.5, each process drawing
        // its own; no state of the process. Forty tests each way.
        let mut right = [0, 0];
        let mut workers = 0;
        for seed in 0..40 {
            let (under, w1) = decided_with_workers(0x1000 + seed, 1000.0, 1010.0);
            let (over, w2) = decided_with_workers(0x2000 + seed, 1000.0, 990.0);
            right[0] += usize::from(under == Verdict::Pass);
            right[1] += usize::from(over == Verdict::Fail);
            workers += w1 + w2;
        }
        eprintln!(
            "budget 1% from the truth: right {} of 40 under, {} of 40 over; {workers} workers in 80 tests",
            right[0], right[1]
        );
        assert!(right[0] >= 37 && right[1] >= 37, "{right:?}");
    }
}
