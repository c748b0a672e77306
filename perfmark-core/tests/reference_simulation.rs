//! Proof by simulation of the regression rule with the machine-state
//! reference (`baseline::compare::compare_with_reference`), in a world built
//! from what was measured on shared virtual machines, not from the rule's
//! own model:
//!
//! - **The machine moves as a whole.** A process runs in one of the host's
//!   states; a recording session's processes share one (a 5-process
//!   baseline on the reference machine sat 7.4% off as a whole). The quiet
//!   machine has one state with a 0.3% jitter per process (an Intel Xeon
//!   guest: ten processes back to back within 0.5–1.9%); the drifting one
//!   has two states 17% apart, half the processes in each (the KVM guest
//!   that calibrated the default spread: 7.4% sd between processes an hour
//!   apart, every test of a process moving together).
//! - **Tests follow the machine in part.** A test's log time moves by `β`
//!   times the machine's move: `β` from 0.7 to 1.0 for code bound by the
//!   core (the six alarm tests moved 12–17% when their process moved about
//!   15%), 0 to 0.3 for code bound by memory.
//! - **What is left is small.** Each process adds a residual of sd 0.3–1.5%
//!   per test, and a within-run error whose 95% CI half-width is 0.2–2%.
//! - **The reference follows the machine** (it is what the machine's speed
//!   is measured with), with its own residual of sd 0.2% and a 0.3% CI.
//!
//! The rule is judged as it ships: the default residual prior, a
//! one-process baseline (`--save-baseline`) or a five-process recording
//! whose spread it pools, and the tracking a recording measures when its
//! processes saw the machine move. Beside it, the rule without the
//! reference (`compare`) with its default prior, on the same data.
//!
//! The tables `docs/design/regression-rule.md` quotes are printed by
//! `cargo test -p perfmark-core --release --test reference_simulation -- --nocapture`.

mod common;

use common::Rng;
use perfmark_core::baseline::compare::{
    compare, compare_with_reference, fit_runs, BaselineEstimate, Comparison, MachineShift,
    RegressionRule, RunEstimate, Tracking, DEFAULT_RESIDUAL_PRIOR,
};
use perfmark_core::stats::Interval;
use perfmark_options::DEFAULT_REGRESSION;

/// Replications per case.
const REPS: usize = 4_000;
/// The tests' confidence: the default.
const CONFIDENCE: f64 = 0.95;
/// Two-sided 95% normal quantile of the simulated CIs.
const Z_95: f64 = 1.959_963_985;
/// True time per iteration of the baseline's code, ns.
const TRUTH_NS: f64 = 100.0;
/// The reference's true time per step, ns.
const REFERENCE_NS: f64 = 1.3;

/// A machine: the log speed offset of a process's state.
#[derive(Debug, Clone, Copy)]
enum Machine {
    /// One state, a small jitter per process.
    Quiet,
    /// Two states `ln 1.17` apart, each process in either with equal
    /// chance, plus the quiet jitter.
    Drifting,
}

impl Machine {
    fn state(self, rng: &mut Rng) -> f64 {
        let jitter = rng.normal(0.0, 0.003);
        match self {
            Machine::Quiet => jitter,
            Machine::Drifting => {
                let slow = rng.uniform() < 0.5;
                jitter + if slow { 1.17f64.ln() } else { 0.0 }
            }
        }
    }
}

/// How a baseline was recorded.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Recording {
    /// One process (`--save-baseline`).
    One,
    /// Five processes in one session: one machine state.
    Session,
    /// Five processes spread over an hour (`cargo perfmark baseline --runs
    /// 5 --pause 15m`): each in its own state.
    Spread,
}

/// A simulated test: how much it follows the machine, its residual sd.
#[derive(Debug, Clone, Copy)]
struct Test {
    beta: f64,
    residual: f64,
}

/// A measured estimate whose true log value is `log_truth`, with a CI of
/// relative half-width `half`.
fn measured(rng: &mut Rng, truth_ns: f64, log_offset: f64, half: f64) -> RunEstimate {
    let point = truth_ns * (log_offset + rng.normal(0.0, half / Z_95)).exp();
    RunEstimate::new(
        point,
        Interval {
            low: point * (-half).exp(),
            high: point * half.exp(),
            confidence: 0.95,
        },
    )
    .unwrap()
}

/// One process: the test's estimate (its code `slowdown` times slower) and
/// the reference's, in machine state `state`.
fn process(rng: &mut Rng, test: Test, state: f64, slowdown: f64) -> (RunEstimate, RunEstimate) {
    let half = rng.between(0.002, 0.02);
    let offset = test.beta * state + rng.normal(0.0, test.residual);
    let estimate = measured(rng, TRUTH_NS * slowdown, offset, half);
    let reference_offset = state + rng.normal(0.0, 0.002);
    let reference = measured(rng, REFERENCE_NS, reference_offset, 0.003);
    (estimate, reference)
}

/// The verdicts of one case, as fractions of `REPS`, and the minimum
/// detectable slowdown the rule with the reference printed.
#[derive(Debug, Default, Clone, Copy)]
struct Rates {
    with_reference: f64,
    without_reference: f64,
    printed_mds: f64,
    /// How often the code slowed by the comparison's own printed minimum
    /// detectable slowdown failed (simulated only at no slowdown).
    caught_at_printed: f64,
}

fn simulate(seed: u64, machine: Machine, recording: Recording, test: Test, slowdown: f64) -> Rates {
    let mut rng = Rng::new(seed);
    let rule = RegressionRule::new(CONFIDENCE, DEFAULT_REGRESSION).unwrap();
    let residual_rule = rule
        .with_prior(DEFAULT_RESIDUAL_PRIOR)
        .unwrap()
        .prior_as_floor(false);
    let (mut with, mut without, mut at_printed) = (0usize, 0usize, 0usize);
    let mut mds = Vec::with_capacity(REPS);
    for _ in 0..REPS {
        let runs = if recording == Recording::One { 1 } else { 5 };
        let session = machine.state(&mut rng);
        let recorded: Vec<(RunEstimate, RunEstimate)> = (0..runs)
            .map(|_| {
                let state = match recording {
                    Recording::Spread => machine.state(&mut rng),
                    Recording::One | Recording::Session => session,
                };
                process(&mut rng, test, state, 1.0)
            })
            .collect();
        let now_state = machine.state(&mut rng);
        let (current, reference_now) = process(&mut rng, test, now_state, slowdown);
        let c = judge(&recorded, &current, &reference_now, &rule, &residual_rule);
        with += usize::from(c.0.verdict.fails());
        without += usize::from(c.1.verdict.fails());
        let printed = c.0.min_detectable_slowdown;
        mds.push(printed);
        // The same process had the code been slower by what this
        // comparison printed it could detect: the claim is about this
        // comparison's own machine move and standard error.
        let slowed = RunEstimate::new(
            current.point_ns * (1.0 + printed),
            Interval {
                low: current.ci.low * (1.0 + printed),
                high: current.ci.high * (1.0 + printed),
                confidence: current.ci.confidence,
            },
        )
        .unwrap();
        let at = judge(&recorded, &slowed, &reference_now, &rule, &residual_rule);
        at_printed += usize::from(at.0.verdict.fails());
    }
    mds.sort_by(f64::total_cmp);
    Rates {
        with_reference: with as f64 / REPS as f64,
        without_reference: without as f64 / REPS as f64,
        printed_mds: mds[REPS / 2],
        caught_at_printed: at_printed as f64 / REPS as f64,
    }
}

/// The run judged against the recording with the reference, and without.
fn judge(
    recorded: &[(RunEstimate, RunEstimate)],
    current: &RunEstimate,
    reference_now: &RunEstimate,
    rule: &RegressionRule,
    residual_rule: &RegressionRule,
) -> (Comparison, Comparison) {
    let estimates: Vec<RunEstimate> = recorded.iter().map(|r| r.0).collect();
    let references: Vec<RunEstimate> = recorded.iter().map(|r| r.1).collect();
    let raw = BaselineEstimate::from_runs(&estimates).unwrap();
    let without = compare(&raw, current, rule).unwrap();
    // As a stored entry keeps them: the geometric mean of the runs'
    // references, and the runs' spread once each is divided by its own.
    let ref_points: Vec<f64> = references.iter().map(|r| r.point_ns).collect();
    let est_points: Vec<f64> = estimates.iter().map(|r| r.point_ns).collect();
    let reference_then = RunEstimate::new(
        geometric_mean(&ref_points),
        Interval {
            low: geometric_mean(&ref_points) * 0.997,
            high: geometric_mean(&ref_points) * 1.003,
            confidence: 0.95,
        },
    )
    .unwrap();
    let shift = MachineShift::between(&reference_then, reference_now).unwrap();
    let fit = fit_runs(&est_points, &ref_points);
    let residual = BaselineEstimate {
        spread: fit.map(|f| f.residual),
        ..raw
    };
    let tracking = fit.map_or(Tracking::UNKNOWN, |f| f.tracking);
    let with = compare_with_reference(&residual, current, &shift, tracking, residual_rule).unwrap();
    (with, without)
}

fn geometric_mean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp()
}

const TESTS: [(&str, Test); 5] = [
    (
        "core-bound, follows fully",
        Test {
            beta: 1.0,
            residual: 0.007,
        },
    ),
    (
        "core-bound, follows 0.85",
        Test {
            beta: 0.85,
            residual: 0.007,
        },
    ),
    (
        "core-bound, follows 0.7, noisy",
        Test {
            beta: 0.7,
            residual: 0.015,
        },
    ),
    (
        "memory-bound, follows 0.3",
        Test {
            beta: 0.3,
            residual: 0.007,
        },
    ),
    (
        "memory-bound, follows 0",
        Test {
            beta: 0.0,
            residual: 0.003,
        },
    ),
];

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// False failures, detection at the goals' slowdowns, and the printed
/// minimum detectable slowdown held to its power, on both machines.
#[test]
fn the_rule_with_the_reference_on_measured_machine_behaviour() {
    let mut table = String::from(
        "| machine | baseline | test | unchanged: failed with / without reference \
         | +10%: caught with / without | +20%: caught with / without \
         | printed min. detectable (median) | caught at the printed one |\n\
         |---|---|---|---|---|---|---|---|\n",
    );
    let mut failures = Vec::new();
    let mut case = 0u64;
    for machine in [Machine::Quiet, Machine::Drifting] {
        for recording in [Recording::One, Recording::Session, Recording::Spread] {
            for (name, test) in TESTS {
                case += 1;
                let seed = 0xEF00_0000 + case * 16;
                let unchanged = simulate(seed, machine, recording, test, 1.0);
                let ten = simulate(seed + 1, machine, recording, test, 1.10);
                let twenty = simulate(seed + 2, machine, recording, test, 1.20);
                table += &format!(
                    "| {machine:?} | {recording:?} | {name} | {} / {} | {} / {} | {} / {} | +{} | {} |\n",
                    pct(unchanged.with_reference),
                    pct(unchanged.without_reference),
                    pct(ten.with_reference),
                    pct(ten.without_reference),
                    pct(twenty.with_reference),
                    pct(twenty.without_reference),
                    pct(unchanged.printed_mds),
                    pct(unchanged.caught_at_printed),
                );
                let at = format!("{machine:?}, {recording:?}, {name}");
                let mut check = |ok: bool, what: &str| {
                    if !ok {
                        failures.push(format!("{what}: {at}"));
                    }
                };
                // The goal: at most 1% false failures, whatever the test
                // follows and however the machine moves.
                check(unchanged.with_reference <= 0.01, "false failures above 1%");
                // The printed minimum detectable slowdown is caught at
                // least 9 times in 10 (less the simulation's own error:
                // 4,000 replications give ±1%).
                check(
                    unchanged.caught_at_printed >= 0.88,
                    "the printed power is not met",
                );
                // On a still machine the reference costs nothing and
                // catches what the goals ask: +10% against five processes,
                // +20% against one, at least 9 times in 10.
                if matches!(machine, Machine::Quiet) {
                    if recording == Recording::One {
                        check(twenty.with_reference >= 0.9, "+20% vs one process missed");
                    } else {
                        check(ten.with_reference >= 0.9, "+10% vs five processes missed");
                    }
                }
                // A recording spread over the machine's states measures how
                // much a test follows, and then sees through the drift.
                if matches!(machine, Machine::Drifting)
                    && recording == Recording::Spread
                    && test.residual <= 0.007
                {
                    check(
                        ten.with_reference >= 0.9,
                        "+10% missed on a drifting machine",
                    );
                }
            }
        }
    }
    println!(
        "\n## the rule with the machine-state reference, as it ships (confidence {CONFIDENCE}, \
         tolerance {}), {REPS} replications per cell\n\n{table}",
        pct(DEFAULT_REGRESSION)
    );
    assert!(failures.is_empty(), "{failures:#?}\n{table}");
}
