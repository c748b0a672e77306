//! Many verdicts in one run: the run-level
//! false-failure rate, with each verdict at its test's own confidence and
//! with the run's verdicts corrected together (`--family-wise`:
//! `bonferroni_confidence`), for both verdict kinds.
//!
//! A run is a suite of 64 tests of unchanged code, as perfmark-kernels'
//! suite has. Seeded and deterministic; the figures are printed by
//! `cargo test -p perfmark-core --test family_simulation -- --nocapture`.

mod common;

use common::Rng;
use perfmark_core::baseline::compare::{
    compare, moderated_prior, BaselineEstimate, Outcome, RegressionRule, RunEstimate, Spread,
};
use perfmark_core::budget::BudgetRecord;
use perfmark_core::stats::{bonferroni_confidence, estimate, Interval};
use perfmark_options::DEFAULT_REGRESSION;

/// Tests in a run.
const TESTS: usize = 64;
/// The tests' own confidence.
const CONFIDENCE: f64 = 0.95;
/// Two-sided 95% normal quantile of the simulated within-run CIs.
const Z_95: f64 = 1.959_963_985;

/// One process's estimate of a test: between-run offset `sigma_b`, within-run
/// CI half-width uniform in 0.2–2% (as `compare_simulation.rs`).
fn process(rng: &mut Rng, truth_ns: f64, sigma_b: f64) -> RunEstimate {
    let half_width = rng.between(0.002, 0.02);
    let point_ns = truth_ns * (rng.normal(0.0, sigma_b) + rng.normal(0.0, half_width / Z_95)).exp();
    RunEstimate::new(
        point_ns,
        Interval {
            low: point_ns * (-half_width).exp(),
            high: point_ns * half_width.exp(),
            confidence: 0.95,
        },
    )
    .unwrap()
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// Regression verdicts: each run records a 5-process baseline of its 64
/// tests (σ_b scattered log-normally around 2%), estimates the machine's
/// prior from them, and compares one new process of each unchanged test.
/// Per test, some test of the run fails most of the time; family-wise, at
/// most `1 − c` of runs. With one slowed test (+20%) among the 64, the
/// family-wise rule still catches it.
#[test]
fn regression_verdicts_of_a_whole_run() {
    regression_verdicts(0xFA31_0001, 0.0);
}

/// As [`regression_verdicts_of_a_whole_run`], the tests of each run sharing
/// a run-level state: every process of a run (each recorded run, and the
/// run that compares) is slower or faster by one factor for all its tests
/// (log-normal, sd 2%), as a machine's state moves a whole suite. The
/// correction holds whatever the dependence between the verdicts.
#[test]
fn regression_verdicts_of_a_whole_run_whose_tests_share_a_state() {
    regression_verdicts(0xFA31_0002, 0.02);
}

/// 600 runs of 64 tests (63 unchanged, one 20% slower), every process of a
/// run moved by one shared factor of sd `shared_sd` on the log scale.
fn regression_verdicts(seed: u64, shared_sd: f64) {
    const RUNS: usize = 600;
    let mut rng = Rng::new(seed);
    let (mut any_per_test, mut any_family, mut caught_family) = (0, 0, 0);
    let (mut mds_per_test, mut mds_family) = (Vec::new(), Vec::new());
    let family_confidence = bonferroni_confidence(CONFIDENCE, TESTS);
    for _ in 0..RUNS {
        let sds: Vec<f64> = (0..TESTS)
            .map(|_| 0.02 * rng.normal(0.0, 0.3).exp())
            .collect();
        let recorded_states: Vec<f64> = (0..5).map(|_| rng.normal(0.0, shared_sd).exp()).collect();
        let baselines: Vec<BaselineEstimate> = sds
            .iter()
            .map(|&sd| {
                let runs: Vec<RunEstimate> = recorded_states
                    .iter()
                    .map(|&state| process(&mut rng, 100.0 * state, sd))
                    .collect();
                BaselineEstimate::from_runs(&runs).unwrap()
            })
            .collect();
        let state_now = rng.normal(0.0, shared_sd).exp();
        let spreads: Vec<Spread> = baselines.iter().map(|b| b.spread.unwrap()).collect();
        let prior = moderated_prior(&spreads).unwrap();
        let rule_at = |confidence: f64| {
            RegressionRule::new(confidence, DEFAULT_REGRESSION)
                .unwrap()
                .with_prior(prior)
                .unwrap()
        };
        let (per_test, family) = (rule_at(CONFIDENCE), rule_at(family_confidence));
        let (mut fail_per_test, mut fail_family) = (false, false);
        for (i, (baseline, &sd)) in baselines.iter().zip(&sds).enumerate() {
            // The last test of the run is 20% slower; the others unchanged.
            let slowed = i == TESTS - 1;
            let current = process(&mut rng, state_now * if slowed { 120.0 } else { 100.0 }, sd);
            let judged = |rule: &RegressionRule| {
                compare(baseline, &current, rule).unwrap().verdict == Outcome::Regressed
            };
            if slowed {
                caught_family += usize::from(judged(&family));
                let mds = |rule: &RegressionRule| {
                    compare(baseline, &current, rule)
                        .unwrap()
                        .min_detectable_slowdown
                };
                mds_per_test.push(mds(&per_test));
                mds_family.push(mds(&family));
            } else {
                fail_per_test |= judged(&per_test);
                fail_family |= judged(&family);
            }
        }
        any_per_test += usize::from(fail_per_test);
        any_family += usize::from(fail_family);
    }
    let (per_test, family) = (
        any_per_test as f64 / RUNS as f64,
        any_family as f64 / RUNS as f64,
    );
    let caught = caught_family as f64 / RUNS as f64;
    let median = |xs: &mut Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs[xs.len() / 2]
    };
    println!(
        "\n## regression verdicts, {RUNS} runs of {} unchanged tests + 1 slowed by 20% \
         (5-run baselines, recorded prior; run-level state sd {})\n\n\
         | | runs with a false failure | +20% caught | min. detectable slowdown (median) |\n\
         |---|---|---|---|\n\
         | each test at 0.95 | {} | — | +{} |\n| family-wise (each at {:.5}) | {} | {} | +{} |",
        TESTS - 1,
        pct(shared_sd),
        pct(per_test),
        pct(median(&mut mds_per_test)),
        family_confidence,
        pct(family),
        pct(caught),
        pct(median(&mut mds_family)),
    );
    // Per test: the run fails falsely far more often than 5%.
    assert!(per_test > 0.3, "per test {per_test}");
    // Family-wise: the nominal rate for the whole run. The rule's tails are
    // calibrated (each verdict spends about its 0.08%), so the rate sits
    // near 5% rather than far below it: allow two Monte Carlo sds (0.9
    // points at 600 runs), where a broken correction would show 78%.
    let mc_sd = ((1.0 - CONFIDENCE) * CONFIDENCE / RUNS as f64).sqrt();
    assert!(
        family <= 1.0 - CONFIDENCE + 2.0 * mc_sd,
        "family-wise {family}"
    );
    // A state shared by the run moves the slowed test too: the recording's
    // spread holds it, and the rule must allow for it.
    let power = if shared_sd == 0.0 { 0.95 } else { 0.75 };
    assert!(caught >= power, "+20% caught family-wise {caught}");
}

/// Budget verdicts: 64 tests each exactly at its budget (the worst case for
/// a false "over budget"), 60 samples with 3% noise each. The confidence
/// governs the CI's clear verdicts: per test some test of the run lies
/// clearly "over" most of the time, family-wise at most `(1 − c)/2` of
/// runs. A CI that straddles is decided on the point estimate and says
/// "inconclusive": at the budget that is a coin toss whatever the level,
/// which is why a budget must keep a margin (docs/verdicts.md, "Choosing a budget").
#[test]
fn budget_verdicts_of_a_whole_run() {
    const RUNS: usize = 150;
    const BUDGET_NS: f64 = 100.0;
    let mut rng = Rng::new(0xFA31_0002);
    let family_confidence = bonferroni_confidence(CONFIDENCE, TESTS);
    let (mut any_per_test, mut any_family) = (0, 0);
    let (mut straddled, mut verdicts) = (0, 0);
    for _ in 0..RUNS {
        let (mut over_per_test, mut over_family) = (false, false);
        for _ in 0..TESTS {
            let samples: Vec<f64> = (0..60)
                .map(|_| BUDGET_NS * (1.0 + rng.normal(0.0, 0.03)))
                .collect();
            let at =
                |confidence: f64| BudgetRecord::decide(&estimate(&samples, confidence), BUDGET_NS);
            let own = at(CONFIDENCE);
            over_per_test |= own.outcome == Outcome::Over;
            over_family |= at(family_confidence).outcome == Outcome::Over;
            straddled += usize::from(own.inconclusive());
            verdicts += 1;
        }
        any_per_test += usize::from(over_per_test);
        any_family += usize::from(over_family);
    }
    let (per_test, family) = (
        any_per_test as f64 / RUNS as f64,
        any_family as f64 / RUNS as f64,
    );
    let straddled = straddled as f64 / verdicts as f64;
    println!(
        "\n## budget verdicts, {RUNS} runs of {TESTS} tests exactly at their budget\n\n\
         | | runs with a clear false \"over budget\" |\n|---|---|\n\
         | each test at 0.95 | {} |\n| family-wise (each at {:.5}) | {} |\n\n\
         CIs straddling the budget (decided on the point, \"inconclusive\"): {} of verdicts at 0.95",
        pct(per_test),
        family_confidence,
        pct(family),
        pct(straddled)
    );
    assert!(per_test > 0.3, "per test {per_test}");
    assert!(
        family <= (1.0 - CONFIDENCE) / 2.0 + 0.02,
        "family-wise {family}"
    );
}
