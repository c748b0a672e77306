//! Proof by simulation of the budget verdict through the adaptive sampler
//! (docs/design/budget-rule.md), and of the coverage of the CI the sampler stops
//! on.
//!
//! Every run goes through the real sampler the way `Bencher::iter_custom`
//! does: a [`LocalDriver`] of [`SampleKind::Custom`] whose routine reports
//! synthetic block times, measured by [`Adaptive`] under
//! [`Plan::simulated`] (the caps count only the reported times, so no clock
//! is read and every figure is a pure function of the seed), then judged by
//! the runner's [`Budget`] check on the estimate read at the measurement's
//! resolution. The time per iteration of block `t` is
//! `truth × (1 + e_t)`: `e_t` independent N(0, 3%²), or AR(1) with φ = 0.5
//! and the same marginal sd. Budgets sit at the truth, 2% above it and 2%
//! below it.
//!
//! Asserted, with binomial standard errors at the fixed seeds:
//! - a test whose truth is at or under its budget is called "over budget"
//!   (its CI wholly above) at most `(1 − confidence)/2` of the time, plus
//!   three standard errors; a test 2% over its budget is called "within
//!   budget" no more often; the 2% cases are decided right at least 95% of
//!   the time;
//! - the naive rule (re-test the 95% CI after every sample while it
//!   straddles the budget), kept here as a copy, exceeds that bound on the
//!   same kind of data: the simulation can see the failure it guards
//!   against;
//! - the printed 95% CI covers the truth 93–97% of the time through the
//!   adaptive sampler, without a budget and with a budget at the truth; with
//!   a budget near the truth, the CI the budget was decided on (the look's,
//!   at its stricter level) covers it at least 93% of the time;
//! - at the truth, sampling still runs to `max_time` and ends inconclusive
//!   most of the time, decided on the point.
//!
//! Fast by default (a few seconds in release). `PERFMARK_SIM_REPS=N` sets
//! every case's replications to N (docs/design/budget-rule.md quotes N = 4,000) and
//! `PERFMARK_SIM_MAX_TIME_MS` the `max_time` (the default 3 s there);
//! `cargo test --release -p perfmark-core --test budget_simulation -- --nocapture --test-threads=1`
//! prints the tables.

mod common;

use std::sync::OnceLock;
use std::time::Duration;

use common::Rng;
use perfmark_core::budget::said::BudgetSaid;
use perfmark_core::budget::{Budget, BudgetRecord};
use perfmark_core::checks::{Check, Said, Subject};
use perfmark_core::measure::{
    Adaptive, LocalDriver, Measurement, Plan, Policy, SampleKind, StopReason,
};
use perfmark_core::stats::{self, Estimate};
use perfmark_core::verdicts::Outcome;

const CONFIDENCE: f64 = 0.95;
const PRECISION: f64 = 0.01;
/// Relative sd of a block's time per iteration.
const SIGMA: f64 = 0.03;
const BUDGET_NS: f64 = 1000.0;
/// `max_time` of the fast runs (about 830 samples of 1.2 ms blocks).
const MAX_TIME_MS: u64 = 1000;
const WARMUP: Duration = Duration::from_millis(5);
/// Replications of the fast runs of the current rule.
const REPS: usize = 1000;
/// The naive rule's copy re-estimates after every sample, quadratic in the
/// samples, so it runs fewer and shorter runs: a quiet test (σ = 1%) that
/// reaches its precision early and then looks hundreds of times, its worst
/// case, for half a second.
const NAIVE_RULE_REPS: usize = 250;
const NAIVE_RULE_SIGMA: f64 = 0.01;
const NAIVE_RULE_MAX_TIME_MS: u64 = 500;

fn reps(default: usize) -> usize {
    env_number("PERFMARK_SIM_REPS").unwrap_or(default)
}

fn max_time(default_ms: u64) -> Duration {
    let ms = env_number("PERFMARK_SIM_MAX_TIME_MS").map_or(default_ms, |ms| ms as u64);
    Duration::from_millis(ms)
}

fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a whole number, got {v:?}"))
    })
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Noise {
    Iid,
    Ar1(f64),
}

impl Noise {
    const BOTH: [Noise; 2] = [Noise::Iid, Noise::Ar1(0.5)];

    fn name(self) -> String {
        match self {
            Noise::Iid => "independent".into(),
            Noise::Ar1(phi) => format!("AR(1) φ = {phi}"),
        }
    }

    fn phi(self) -> f64 {
        match self {
            Noise::Iid => 0.0,
            Noise::Ar1(phi) => phi,
        }
    }
}

/// A seed per (experiment, noise, truth, replication).
fn seed(experiment: u64, noise: Noise, truth_ratio: f64, rep: usize) -> u64 {
    experiment * 1_000_000_007
        + (noise.phi() * 100.0) as u64 * 10_000_019
        + (truth_ratio * 1000.0) as u64 * 10_007
        + rep as u64
}

/// The synthetic `iter_custom` routine: `n` iterations of a block whose time
/// per iteration is `truth_ns × (1 + e)`, `e` the next value of the noise,
/// of relative sd `sigma`.
fn routine(seed: u64, truth_ns: f64, noise: Noise, sigma: f64) -> impl FnMut(u64) -> Duration {
    let mut rng = Rng::new(seed);
    let phi = noise.phi();
    let innovation = sigma * (1.0 - phi * phi).sqrt();
    let mut e = sigma * rng.standard_normal(); // stationary start
    move |n| {
        let block_ns = truth_ns * (1.0 + e) * n as f64;
        e = phi * e + innovation * rng.standard_normal();
        Duration::from_nanos(block_ns.round() as u64)
    }
}

fn plan(budget_ns: Option<f64>, max_time: Duration) -> Plan {
    let mut plan = Plan::simulated(CONFIDENCE, PRECISION, max_time, WARMUP);
    plan.budget_ns = budget_ns;
    plan
}

/// One test run through the sampler, as `Bencher::iter_custom` drives it.
fn measure(plan: &Plan, routine: impl FnMut(u64) -> Duration) -> Measurement {
    let mut driver = LocalDriver::new(SampleKind::Custom, routine, None::<fn(u64) -> Duration>);
    Adaptive::new(plan.clone()).measure(&mut driver)
}

/// The runner's reading of a measurement: the estimate at the test's
/// confidence read at the measurement's resolution, and the budget check.
fn judge(plan: &Plan, m: &Measurement) -> (Estimate, Option<BudgetRecord>) {
    let raw = stats::estimate(&m.samples_ns, plan.confidence);
    let resolution_ns = m.resolution_ns(&plan.clock);
    let estimate = stats::at_resolution(&raw, resolution_ns).estimate;
    let subject = Subject {
        name: "simulated",
        plan,
        tolerance: 0.05,
        measurement: m,
        estimate: &estimate,
        resolution_ns,
        allocations: None,
        processes: None,
    };
    let budget = match Budget::default().check(&subject).map(|f| f.said) {
        Some(Said::Budget(BudgetSaid::Decided { record, .. })) => Some(record),
        _ => None,
    };
    (estimate, budget)
}

/// Outcomes of one case over its replications.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    reps: usize,
    under: usize,
    inconclusive_under: usize,
    inconclusive_over: usize,
    over: usize,
    covered: usize,
    budget_ci_covered: usize,
    at_max_time: usize,
    samples: usize,
}

impl Tally {
    fn add(&mut self, outcome: Outcome) {
        self.reps += 1;
        *match outcome {
            Outcome::Under => &mut self.under,
            Outcome::InconclusiveUnder => &mut self.inconclusive_under,
            Outcome::InconclusiveOver => &mut self.inconclusive_over,
            Outcome::Over => &mut self.over,
            // A budget decides only the four above: anything else is a
            // failure of the simulation.
            other => panic!("not a budget's outcome: {other:?}"),
        } += 1;
    }

    fn rate(&self, count: usize) -> f64 {
        count as f64 / self.reps as f64
    }

    fn row(&self, label: &str) -> String {
        let pct = |c: usize| format!("{:.1}%", 100.0 * self.rate(c));
        format!(
            "| {label} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
            pct(self.under),
            pct(self.inconclusive_under),
            pct(self.inconclusive_over),
            pct(self.over),
            pct(self.covered),
            pct(self.budget_ci_covered),
            pct(self.at_max_time),
            self.samples as f64 / self.reps as f64
        )
    }
}

const TABLE_HEAD: &str = "| case | within budget | inconclusive, passed | inconclusive, failed | over budget | printed 95% CI covers truth | budget's CI covers truth | ran to max_time | mean samples |\n|---|---|---|---|---|---|---|---|---|";

/// How a case is simulated.
#[derive(Debug, Clone, Copy)]
struct Case {
    noise: Noise,
    truth_ratio: f64,
    sigma: f64,
    max_time: Duration,
}

impl Case {
    fn new(noise: Noise, truth_ratio: f64) -> Self {
        Case {
            noise,
            truth_ratio,
            sigma: SIGMA,
            max_time: max_time(MAX_TIME_MS),
        }
    }

    /// The naive rule's case (see [`NAIVE_RULE_SIGMA`]) at the budget.
    fn old_rules(noise: Noise) -> Self {
        Case {
            noise,
            truth_ratio: 1.0,
            sigma: NAIVE_RULE_SIGMA,
            max_time: max_time(NAIVE_RULE_MAX_TIME_MS),
        }
    }

    fn truth_ns(&self) -> f64 {
        BUDGET_NS * self.truth_ratio
    }

    /// The synthetic routine of replication `rep`.
    fn routine(&self, rep: usize) -> impl FnMut(u64) -> Duration {
        let seed = seed(1, self.noise, self.truth_ratio, rep) + (self.sigma * 1e4) as u64 * 7;
        routine(seed, self.truth_ns(), self.noise, self.sigma)
    }

    fn label(&self) -> String {
        format!(
            "{}, σ {}%, truth = budget × {}",
            self.noise.name(),
            self.sigma * 100.0,
            self.truth_ratio
        )
    }
}

/// The current rule, through the sampler and the budget check.
fn current_rule(case: Case, reps: usize) -> Tally {
    let truth_ns = case.truth_ns();
    let plan = plan(Some(BUDGET_NS), case.max_time);
    let mut tally = Tally::default();
    for rep in 0..reps {
        let m = measure(&plan, case.routine(rep));
        let (estimate, budget) = judge(&plan, &m);
        let budget = budget.expect("a budget check");
        tally.add(budget.outcome);
        tally.covered += usize::from(estimate.ci.contains(truth_ns));
        tally.budget_ci_covered += usize::from(budget.interval(&estimate).contains(truth_ns));
        tally.at_max_time += usize::from(m.stop == StopReason::MaxTime);
        tally.samples += m.samples_ns.len();
    }
    tally
}

/// The largest rate of a wrong verdict a rule at `nominal` may show over
/// `reps` replications: nominal plus three binomial standard errors.
fn bound(nominal: f64, reps: usize) -> f64 {
    nominal + 3.0 * (nominal * (1.0 - nominal) / reps as f64).sqrt()
}

/// The one-sided error rate the budget verdict promises.
const NOMINAL: f64 = (1.0 - CONFIDENCE) / 2.0;

/// Whether `t`, a tally of `case`, shows a wrong verdict more often than
/// [`NOMINAL`] allows: "over budget" at or under the budget, "within
/// budget" over it.
fn too_often_wrong(case: &Case, t: &Tally, failures: &mut Vec<String>) {
    let limit = bound(NOMINAL, t.reps);
    let wrong = if case.truth_ratio <= 1.0 {
        t.rate(t.over)
    } else {
        t.rate(t.under)
    };
    if wrong > limit {
        failures.push(format!(
            "{}: wrong verdict in {wrong} > {limit}",
            case.label()
        ));
    }
}

/// The truths simulated, as multiples of the budget: at it, 2% either side
/// (the verdict must be right), and 0.5% either side (near the line).
const TRUTHS: [f64; 5] = [1.0, 0.98, 1.02, 0.995, 1.005];

/// The current rule's tally of every case of [`TRUTHS`] and both noises,
/// computed once for the tests that read it.
fn current_rule_table() -> &'static [(Case, Tally)] {
    static TABLE: OnceLock<Vec<(Case, Tally)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let reps = reps(REPS);
        Noise::BOTH
            .iter()
            .flat_map(|&noise| TRUTHS.map(|truth_ratio| Case::new(noise, truth_ratio)))
            .map(|case| (case, current_rule(case, reps)))
            .collect()
    })
}

#[test]
fn budget_verdicts_keep_their_error_rate_through_the_sampler() {
    let table = current_rule_table();
    println!(
        "\nbudget verdicts through the sampler: {} runs per case, max_time {} ms",
        table[0].1.reps,
        max_time(MAX_TIME_MS).as_millis()
    );
    println!("{TABLE_HEAD}");
    let mut failures = Vec::new();
    for (case, t) in table {
        println!("{}", t.row(&case.label()));
        too_often_wrong(case, t, &mut failures);
        let right = if case.truth_ratio == 0.98 {
            t.rate(t.under)
        } else if case.truth_ratio == 1.02 {
            t.rate(t.over)
        } else {
            1.0
        };
        if right < 0.95 {
            failures.push(format!("{}: detected in only {right}", case.label()));
        }
        if case.truth_ratio == 1.0 {
            // Still straddling, sampling runs to max_time and the point
            // decides, called inconclusive.
            let inconclusive = t.rate(t.inconclusive_under + t.inconclusive_over);
            if t.rate(t.at_max_time) < 0.8 || inconclusive < 0.8 {
                failures.push(format!(
                    "{}: {inconclusive} inconclusive, {} at max_time",
                    case.label(),
                    t.rate(t.at_max_time)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_naive_rule_exceeds_that_rate() {
    // Only the independent case in the fast run: the copy re-estimates after
    // every sample, which costs the square of the sample count.
    let reps = reps(NAIVE_RULE_REPS);
    let noises: &[Noise] = if std::env::var_os("PERFMARK_SIM_REPS").is_some() {
        &Noise::BOTH
    } else {
        &[Noise::Iid]
    };
    println!(
        "\nthe naive rule against the current one, same data: {reps} runs per case, \
         max_time {} ms",
        max_time(NAIVE_RULE_MAX_TIME_MS).as_millis()
    );
    println!("{TABLE_HEAD}");
    let mut failures = Vec::new();
    for &noise in noises {
        let case = Case::old_rules(noise);
        let mut old = Tally::default();
        for rep in 0..reps {
            naive_rule::run(case.routine(rep), &case, &mut old);
        }
        println!("{}", old.row(&format!("before: {}", case.label())));
        let current = current_rule(case, reps);
        println!("{}", current.row(&format!("now: {}", case.label())));
        too_often_wrong(&case, &current, &mut failures);
        let limit = bound(NOMINAL, reps);
        if old.rate(old.over) <= limit {
            failures.push(format!(
                "{}: the naive rule called the truth over budget in {} of runs, within {limit}: \
                 this simulation could not tell a broken rule",
                case.label(),
                old.rate(old.over)
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_cis_cover_the_truth_through_the_adaptive_sampler() {
    let reps = reps(REPS);
    println!(
        "\ncoverage of the truth through the adaptive sampler: {reps} runs per case, max_time {} ms",
        max_time(MAX_TIME_MS).as_millis()
    );
    println!("| case | printed 95% CI | budget's CI | mean samples |\n|---|---|---|---|");
    let mut failures = Vec::new();
    let in_band = |rate: f64| (0.93..=0.97).contains(&rate);
    for noise in Noise::BOTH {
        // Without a budget: the precision stop alone.
        let case = Case::new(noise, 1.0);
        let plan = plan(None, case.max_time);
        let (mut covered, mut samples) = (0, 0);
        for rep in 0..reps {
            let m = measure(&plan, case.routine(rep + reps));
            let (estimate, _) = judge(&plan, &m);
            covered += usize::from(estimate.ci.contains(case.truth_ns()));
            samples += m.samples_ns.len();
        }
        let rate = covered as f64 / reps as f64;
        println!(
            "| {}, no budget | {:.1}% | - | {:.0} |",
            noise.name(),
            100.0 * rate,
            samples as f64 / reps as f64
        );
        if !in_band(rate) {
            failures.push(format!("{}, no budget: coverage {rate}", noise.name()));
        }
        // With a budget at or near the truth, the looks decide when to
        // stop. The printed CI is the fixed-sample one at the test's
        // confidence: the 93–97% band holds for it at the truth. Near the
        // truth, stopping when a look clears the budget favours samples
        // that lie far from it, and the CI that accounts for the looks is
        // the budget's (at each look's level): that one must cover.
        for (case, t) in current_rule_table() {
            if case.noise != noise || ![1.0, 0.995, 1.005].contains(&case.truth_ratio) {
                continue;
            }
            let (printed, budget) = (t.rate(t.covered), t.rate(t.budget_ci_covered));
            println!(
                "| {} | {:.1}% | {:.1}% | {:.0} |",
                case.label(),
                100.0 * printed,
                100.0 * budget,
                t.samples as f64 / t.reps as f64
            );
            if case.truth_ratio == 1.0 && !in_band(printed) {
                failures.push(format!("{}: printed CI coverage {printed}", case.label()));
            }
            // Conservative by design (Bonferroni over the looks): only
            // the low side matters; the high bound catches a broken reading.
            if !(0.93..=0.995).contains(&budget) {
                failures.push(format!("{}: budget CI coverage {budget}", case.label()));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The naive sampling loop, kept only to show what the looks fix: after
/// the precision target is reached, the budget is tested on the 95% CI at
/// every check, and while the CI straddles it the check comes after every
/// sample, until `max_time`. Warm-up is reduced to sizing
/// the blocks (it draws from the same routine, so the data match the
/// current rule's).
mod naive_rule {
    use super::*;

    const PILOT_SAMPLES: usize = 10;
    const MIN_SAMPLES: usize = 30;
    const CONFIRM_FRACTION: f64 = 0.25;

    /// One run: its outcome, coverage, stop and samples added to `tally`.
    pub fn run(mut timed: impl FnMut(u64) -> Duration, case: &Case, tally: &mut Tally) {
        let ns = |d: Duration| d.as_nanos() as f64;
        let mut n = 1u64;
        while ns(timed(n)) < 1e6 {
            n *= 2;
        }
        let max_time_ns = ns(case.max_time);
        let (mut reported, mut samples) = (0.0, Vec::new());
        let (mut next_check, mut candidate) = (PILOT_SAMPLES, None::<usize>);
        let at_max_time = loop {
            let block = ns(timed(n));
            reported += block;
            samples.push(block / n as f64);
            let taken = samples.len();
            if taken >= next_check {
                let e = stats::estimate(&samples, CONFIDENCE);
                let done =
                    e.ci.relative_half_width(e.point) <= PRECISION && !e.ci.straddles(BUDGET_NS);
                if done && taken >= MIN_SAMPLES {
                    let confirm = |first: usize| {
                        first + ((first as f64 * CONFIRM_FRACTION).ceil() as usize).max(1)
                    };
                    match candidate {
                        Some(first) if taken >= confirm(first) => break false,
                        Some(first) => next_check = confirm(first),
                        None => {
                            candidate = Some(taken);
                            next_check = confirm(taken);
                        }
                    }
                } else {
                    candidate = None;
                    let w = e.ci.relative_half_width(e.point);
                    let planned = if w.is_finite() {
                        ((taken as f64 * (w / PRECISION).powi(2)).ceil() as usize)
                            .clamp(MIN_SAMPLES, 20_000)
                    } else {
                        taken * 2
                    };
                    next_check = planned.clamp(taken + 1, taken + (taken / 2).max(1));
                }
            }
            if reported >= max_time_ns {
                break true;
            }
        };
        let e = stats::estimate(&samples, CONFIDENCE);
        tally.add(BudgetRecord::decide(&e, BUDGET_NS).outcome);
        tally.covered += usize::from(e.ci.contains(case.truth_ns()));
        tally.budget_ci_covered += usize::from(e.ci.contains(case.truth_ns()));
        tally.at_max_time += usize::from(at_max_time);
        tally.samples += samples.len();
    }
}
