//! Proof by simulation of the paired comparison (`perfmark_core::measure::paired`
//! and `perfmark_core::stats::paired`), through the real slice policy and its
//! stopping logic: every comparison below is one call of `run_paired` over a
//! simulated machine.
//!
//! The machine (a noisy 2-core VM, as the issue describes it):
//! - per-slice noise, AR(1) over the sequence of slices with φ in 0.5–0.8 and
//!   a stationary sd of 1–3%;
//! - machine states that last 0.5–3 s and slow both sides alike by up to 30%
//!   (the noisy neighbour), the switch falling anywhere, inside slices too;
//! - per-process offsets: each process is faster or slower by a fixed
//!   factor for its whole life, sd 1–2% (layout, ASLR, page placement);
//! - an order effect: a side's first slice after the other side ran pays a
//!   fixed cold-cache cost, a few percent of a slice (up to 10% in the
//!   "strong" cases), paid over its first 0.5 ms of work, so that an
//!   untimed warm run of a tenth of a slice absorbs it; and a larger one
//!   (20% of a slice, over 5 ms) in a fresh process;
//! - interrupts: 1% of slices take 5–50% longer;
//! - layout (only where a case says so): each build comes in `links`
//!   links, each faster or slower by a fixed factor of sd `layout_sd`
//!   (the link order's effect on the code's speed), and process pair `p`
//!   runs link `p mod links` of each side;
//! - 20–50 ms to start a process pair; bodies from 1 ns to 100 µs per
//!   iteration, with 0.3–1 ns of harness per iteration, which the simulated
//!   worker reports with 2% error.
//!
//! Each case draws the machine's parameters anew for every comparison,
//! from a seed that depends only on the case and the comparison's index.
//! The figures quoted in `docs/design/paired-comparison.md` are printed by
//! `cargo test --release -p perfmark-core --test paired_simulation -- --nocapture --test-threads=1`.

mod common;

use std::time::Duration;

use common::Rng;
use perfmark_core::paired::measure::{run_paired, PairDriver, PairedMeasurement, PairedPlan, Side};
use perfmark_core::paired::stats::{LookSchedule, PairCenter};
use perfmark_core::verdicts;

/// Comparisons per case.
const REPS: usize = 2_000;
/// The tests' one-sided confidence.
const CONFIDENCE: f64 = 0.95;
/// The default regression tolerance.
const TOLERANCE: f64 = perfmark_options::DEFAULT_REGRESSION;
/// The runner's default `max_time`.
const MAX_TIME: Duration = Duration::from_secs(3);

/// The machine of one comparison.
#[derive(Debug, Clone, Copy)]
struct World {
    /// Base time per iteration of the body, ns.
    body_ns: f64,
    /// True `head / base` of the body.
    ratio: f64,
    /// Harness cost per iteration, ns, the same for both sides.
    overhead_ns: f64,
    /// AR(1) coefficient of the per-slice noise.
    phi: f64,
    /// Stationary sd of the per-slice log noise.
    noise_sd: f64,
    /// Sd of each process's log offset.
    process_sd: f64,
    /// Cold-cache cost after a switch of side, as a share of a 10 ms slice,
    /// for base and head.
    order_effect: [f64; 2],
    /// Probability that a timed slice is hit by an interrupt.
    outlier_rate: f64,
    /// Largest slowdown of a machine state.
    state_max: f64,
    /// Sd of each link's log speed factor (0: layout does not matter).
    layout_sd: f64,
    /// Links of each build the pairs cycle through.
    links: usize,
    /// Probability that a process starts far off (a disturbed or unusually
    /// placed process: its whole life 20–80% slower).
    wild_rate: f64,
    /// The head's links alternate between these two speed factors (a
    /// routine whose speed depends on where its code or data lands, the
    /// head faster in some links and slower in others); `None`: drawn as
    /// `layout_sd` says.
    head_links: Option<[f64; 2]>,
}

/// Work after a switch of side over which the cold cost is paid, ns.
const SWITCH_SPAN_NS: f64 = 0.5e6;
/// The cost of a fresh process's first slice, as a share of 10 ms, and the
/// work over which it is paid, ns.
const FRESH_COST: f64 = 0.20;
const FRESH_SPAN_NS: f64 = 5e6;

impl World {
    /// A machine with parameters drawn over the ranges of the module
    /// documentation, running a change of `ratio`.
    fn draw(rng: &mut Rng, ratio: f64) -> Self {
        let order = rng.between(0.0, 0.04);
        World {
            body_ns: 10f64.powf(rng.between(0.0, 5.0)),
            ratio,
            overhead_ns: rng.between(0.3, 1.0),
            phi: rng.between(0.5, 0.8),
            noise_sd: rng.between(0.01, 0.03),
            process_sd: rng.between(0.01, 0.02),
            order_effect: [order, order],
            outlier_rate: 0.01,
            state_max: 1.30,
            layout_sd: 0.0,
            links: 1,
            wild_rate: 0.0,
            head_links: None,
        }
    }
}

/// The simulated machine behind a [`PairDriver`]: a clock advanced by every
/// slice and process start.
struct Machine {
    rng: Rng,
    world: World,
    clock_ns: f64,
    /// Slowdown of the current machine state, and when it ends.
    state: f64,
    state_ends_ns: f64,
    /// The AR(1) noise's current value.
    noise: f64,
    /// The current processes' speed factors, base and head.
    process: [f64; 2],
    /// Each link's speed factor, base and head.
    link_factors: [Vec<f64>; 2],
    /// Process pairs opened.
    pairs: usize,
    /// Cold cost still to pay by each side, ns, and over how much work.
    cold_ns: [f64; 2],
    cold_span_ns: [f64; 2],
    last_side: Option<Side>,
}

fn index(side: Side) -> usize {
    match side {
        Side::Base => 0,
        Side::Head => 1,
    }
}

impl Machine {
    fn new(seed: u64, world: World) -> Self {
        let mut rng = Rng::new(seed);
        let noise = rng.normal(0.0, world.noise_sd);
        let links = world.links.max(1);
        let mut link_factors = [Vec::new(), Vec::new()];
        for factors in &mut link_factors {
            // No draws without a layout effect: the other cases' machines
            // stay the ones they were.
            *factors = (0..links)
                .map(|_| {
                    if world.layout_sd > 0.0 {
                        rng.normal(0.0, world.layout_sd).exp()
                    } else {
                        1.0
                    }
                })
                .collect();
        }
        if let Some([fast, slow]) = world.head_links {
            link_factors[index(Side::Head)] = (0..links)
                .map(|l| if l % 2 == 0 { fast } else { slow })
                .collect();
        }
        let mut m = Machine {
            rng,
            world,
            clock_ns: 0.0,
            state: 1.0,
            state_ends_ns: 0.0,
            noise,
            process: [1.0, 1.0],
            link_factors,
            pairs: 0,
            cold_ns: [0.0; 2],
            cold_span_ns: [1.0; 2],
            last_side: None,
        };
        m.new_state();
        m
    }

    /// The next machine state: quiet half of the time, else a neighbour
    /// slowing everything by up to `state_max`; it lasts 0.5–3 s.
    fn new_state(&mut self) {
        self.state = if self.rng.uniform() < 0.5 {
            1.0
        } else {
            self.rng.between(1.0, self.world.state_max)
        };
        self.state_ends_ns = self.clock_ns + self.rng.between(0.5e9, 3e9);
    }

    /// Runs `work_ns` of work at the machine's current speed, switching
    /// state when one ends; returns the time it took.
    fn run(&mut self, mut work_ns: f64) -> f64 {
        let start = self.clock_ns;
        loop {
            let left_in_state = self.state_ends_ns - self.clock_ns;
            let needed = work_ns * self.state;
            if needed <= left_in_state {
                self.clock_ns += needed;
                return self.clock_ns - start;
            }
            self.clock_ns = self.state_ends_ns;
            work_ns -= left_in_state / self.state;
            self.new_state();
        }
    }

    /// Pays the cold cost in proportion to `work_ns` of it against the span.
    fn pay_cold(&mut self, side: usize, work_ns: f64) -> f64 {
        let share = (work_ns / self.cold_span_ns[side]).min(1.0);
        let paid = self.cold_ns[side] * share;
        self.cold_ns[side] -= paid;
        if self.cold_ns[side] < 1e-9 {
            self.cold_ns[side] = 0.0;
        }
        paid
    }
}

impl PairDriver for Machine {
    type Error = std::convert::Infallible;

    fn open_pair(&mut self) -> Result<(), Self::Error> {
        let start_ns = self.rng.between(20e6, 50e6);
        self.run(start_ns);
        let pair = self.pairs;
        self.pairs += 1;
        for side in 0..2 {
            let links = &self.link_factors[side];
            self.process[side] =
                self.rng.normal(0.0, self.world.process_sd).exp() * links[pair % links.len()];
            // No draw without wild processes: the other cases' machines stay
            // the ones they were.
            if self.world.wild_rate > 0.0 && self.rng.uniform() < self.world.wild_rate {
                self.process[side] *= self.rng.between(1.2, 1.8);
            }
            self.cold_ns[side] = FRESH_COST * 10e6;
            self.cold_span_ns[side] = FRESH_SPAN_NS;
        }
        self.last_side = None;
        Ok(())
    }

    fn slice(&mut self, side: Side, iters: u64, warm_iters: u64) -> Result<Duration, Self::Error> {
        let s = index(side);
        let w = self.world;
        if self.last_side.is_some() && self.last_side != Some(side) && self.cold_ns[s] == 0.0 {
            self.cold_ns[s] = w.order_effect[s] * 10e6;
            self.cold_span_ns[s] = SWITCH_SPAN_NS;
        }
        self.last_side = Some(side);
        let body = match side {
            Side::Base => w.body_ns,
            Side::Head => w.body_ns * w.ratio,
        };
        let per_iter = (body + w.overhead_ns) * self.process[s];
        if warm_iters > 0 {
            let warm_work = warm_iters as f64 * per_iter;
            let cold = self.pay_cold(s, warm_work);
            self.run(warm_work + cold);
        }
        let phi = w.phi;
        self.noise = phi * self.noise + (1.0 - phi * phi).sqrt() * self.rng.normal(0.0, w.noise_sd);
        let work = iters as f64 * per_iter;
        let cold = self.pay_cold(s, work);
        let mut timed = (work + cold) * self.noise.exp();
        if self.rng.uniform() < w.outlier_rate {
            timed *= 1.0 + self.rng.between(0.05, 0.5);
        }
        let took = self.run(timed);
        Ok(Duration::from_nanos(took.round() as u64))
    }

    fn loop_overhead_ns(&mut self) -> Result<Option<f64>, Self::Error> {
        self.run(2e6);
        let measured = self.world.overhead_ns * (1.0 + self.rng.normal(0.0, 0.02));
        Ok(Some(measured))
    }

    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.clock_ns as u64)
    }

    fn layouts(&self) -> usize {
        self.world.links.max(1)
    }
}

/// One simulated comparison.
fn compare(seed: u64, world: World, plan: &PairedPlan) -> PairedMeasurement {
    let mut machine = Machine::new(seed, world);
    match run_paired(&mut machine, plan) {
        Ok(m) => m,
        Err(never) => match never {},
    }
}

/// What one case's comparisons did.
#[derive(Debug, Default)]
struct Outcome {
    n: usize,
    fails: usize,
    improved: usize,
    inconclusive: usize,
    within_layout: usize,
    sign_depends: usize,
    /// Mean estimated log ratio minus the true one.
    bias: f64,
    /// Median relative half-width of the final interval.
    median_half_width: f64,
    /// Median and 90th percentile of the simulated time, s.
    median_s: f64,
    p90_s: f64,
    max_s: f64,
    /// Mean process pairs.
    mean_pairs: f64,
    /// Mean measured order effect.
    order_effect: f64,
}

impl Outcome {
    fn fail_rate(&self) -> f64 {
        self.fails as f64 / self.n as f64
    }
}

fn quantile(mut xs: Vec<f64>, p: f64) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() - 1) as f64 * p).round() as usize]
}

/// Runs `REPS` comparisons of true ratio `ratio` under `plan`, the machine
/// drawn by `world` for each.
fn case(
    seed: u64,
    ratio: f64,
    plan: &PairedPlan,
    world: impl Fn(&mut Rng, f64) -> World,
) -> Outcome {
    let mut o = Outcome {
        n: REPS,
        ..Outcome::default()
    };
    let mut times = Vec::with_capacity(REPS);
    let mut widths = Vec::with_capacity(REPS);
    for i in 0..REPS {
        let s = seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        let mut rng = Rng::new(s ^ 0x5eed);
        let m = compare(s, world(&mut rng, ratio), plan);
        o.fails += usize::from(m.verdict.fails());
        o.improved += usize::from(m.verdict.change == verdicts::Outcome::Improved);
        o.inconclusive += usize::from(m.verdict.change == verdicts::Outcome::Inconclusive);
        o.within_layout += usize::from(m.verdict.change == verdicts::Outcome::WithinLayoutSpread);
        o.sign_depends += usize::from(m.verdict.change == verdicts::Outcome::SignDependsOnBuild);
        if let Some(est) = m.estimate {
            o.bias += est.log_ratio - ratio.ln();
            o.order_effect += est.order_effect;
            widths.push(est.interval.relative_half_width(est.ratio));
        }
        o.mean_pairs += m.pairs_opened as f64;
        times.push(m.elapsed_ns / 1e9);
    }
    let n = REPS as f64;
    o.bias /= n;
    o.order_effect /= n;
    o.mean_pairs /= n;
    o.median_half_width = quantile(widths, 0.5);
    o.median_s = quantile(times.clone(), 0.5);
    o.p90_s = quantile(times.clone(), 0.9);
    o.max_s = quantile(times, 1.0);
    o
}

fn plan(tolerance: f64) -> PairedPlan {
    PairedPlan::new(CONFIDENCE, tolerance, MAX_TIME)
}

fn header() {
    println!(
        "  {:<34} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6} {:>6} {:>6}",
        "case", "fail", "improv", "inconc", "bias", "±width", "pairs", "med s", "p90 s", "max s"
    );
}

fn row(name: &str, o: &Outcome) {
    println!(
        "  {:<34} {:>6.2}% {:>6.1}% {:>6.1}% {:>+6.2}% {:>6.2}% {:>6.1} {:>6.2} {:>6.2} {:>6.2}",
        name,
        100.0 * o.fail_rate(),
        100.0 * o.improved as f64 / o.n as f64,
        100.0 * o.inconclusive as f64 / o.n as f64,
        100.0 * o.bias,
        100.0 * o.median_half_width,
        o.mean_pairs,
        o.median_s,
        o.p90_s,
        o.max_s,
    );
}

/// Unchanged code never fails beyond `1 − c`, at the default tolerance and
/// at no tolerance at all (where significance alone decides, the hardest
/// test of the correction for the looks); the sequential looks cost no more
/// false failures than a fixed-length design, while a rule that tests at
/// `1 − c` at every look fails more.
#[test]
fn unchanged_code_fails_at_most_one_minus_c() {
    println!("\nA/A (true ratio 1), {REPS} comparisons each, c = {CONFIDENCE}:");
    header();
    let aa_default = case(1, 1.0, &plan(TOLERANCE), World::draw);
    row("tolerance 5%, sequential", &aa_default);
    let aa_zero = case(2, 1.0, &plan(0.0), World::draw);
    row("tolerance 0, sequential", &aa_zero);

    let mut fixed = plan(0.0);
    fixed.min_pairs = fixed.max_pairs;
    let aa_fixed = case(2, 1.0, &fixed, World::draw);
    row("tolerance 0, fixed length, 1 look", &aa_fixed);

    let mut naive = plan(0.0);
    let every_look = plan(0.0).schedule().pairs().to_vec();
    let ones = vec![1.0; every_look.len()];
    naive.looks = Some(LookSchedule::new(every_look, ones));
    let aa_naive = case(2, 1.0, &naive, World::draw);
    row("tolerance 0, uncorrected looks", &aa_naive);

    let alpha = 1.0 - CONFIDENCE;
    // Three standard errors of a rate near α over REPS replications.
    let slack = 3.0 * (alpha * (1.0 - alpha) / REPS as f64).sqrt();
    // The goal for the default tolerance: at most 0.5%.
    assert!(aa_default.fail_rate() <= 0.005, "{aa_default:?}");
    assert!(aa_zero.fail_rate() <= alpha, "{aa_zero:?}");
    // The fixed-length t test is exact when its model holds: α, give or
    // take the replications' error.
    assert!(aa_fixed.fail_rate() <= alpha + slack, "{aa_fixed:?}");
    // Testing at α at every look fails unchanged code about twice as often
    // as it promises; the schedule's shares keep it below α.
    assert!(aa_naive.fail_rate() > alpha + slack, "{aa_naive:?}");
    assert!(aa_default.median_s <= 2.0, "{aa_default:?}");
    for o in [&aa_default, &aa_zero, &aa_fixed, &aa_naive] {
        // No pair is started that would end past max_time, by the last
        // pair's duration; the machine can still slow down during it.
        assert!(o.max_s <= 1.25 * MAX_TIME.as_secs_f64(), "{o:?}");
    }
}

/// The operating characteristic: fail rate against the true change, at the
/// default 5% tolerance and at 3%, and improvements never failing.
#[test]
fn detection_rates_by_true_change() {
    let changes = [
        0.96, 0.90, 0.80, 1.02, 1.03, 1.04, 1.05, 1.06, 1.08, 1.10, 1.20,
    ];
    let mut rates = Vec::new();
    for (t, tolerance) in [0.05, 0.03].into_iter().enumerate() {
        println!(
            "\nFail rate by true change, tolerance {:.0}%, {REPS} comparisons each:",
            100.0 * tolerance
        );
        header();
        for (c, &ratio) in changes.iter().enumerate() {
            let o = case(
                100 + 20 * t as u64 + c as u64,
                ratio,
                &plan(tolerance),
                World::draw,
            );
            row(&format!("true {:+.0}%", 100.0 * (ratio - 1.0)), &o);
            rates.push((tolerance, ratio, o));
        }
    }
    let rate = |tolerance: f64, ratio: f64| {
        let (_, _, o) = rates
            .iter()
            .find(|(t, r, _)| *t == tolerance && *r == ratio)
            .unwrap();
        o.fail_rate()
    };
    for (t, r, o) in &rates {
        if *r < 1.0 {
            assert_eq!(o.fails, 0, "an improvement failed: {t} {r} {o:?}");
        }
        assert!(o.median_s <= 2.0, "median time {t} {r} {o:?}");
    }
    // Tolerance 5%: +4% rarely fails, +10% and +20% always do; +5% sits on
    // the tolerance, where the point decides (about half).
    assert!(rate(0.05, 1.04) <= 0.15);
    assert!(rate(0.05, 1.10) >= 0.99);
    assert!(rate(0.05, 1.20) == 1.0);
    let on_the_line = rate(0.05, 1.05);
    assert!(
        (0.40..=0.60).contains(&on_the_line),
        "+5% at a 5% tolerance is caught about half the time (the README says so): \
         {on_the_line}"
    );
    // Tolerance 3%: +5% is caught nearly always.
    assert!(rate(0.03, 1.05) >= 0.95);
    assert!(rate(0.03, 1.10) >= 0.99);
    assert!(rate(0.03, 1.20) == 1.0);
}

/// A strong order effect (10% of a slice) is measured, and cancelled by
/// the ABBA order even with the warm runs after a switch turned off; an
/// order effect that differs between the sides is not cancelled by the
/// order (half the difference leaks into the ratio) but is absorbed by the
/// warm runs, as the default plan runs them.
#[test]
fn a_strong_order_effect_does_not_bias_the_verdict() {
    let strong = |symmetric: bool| {
        move |rng: &mut Rng, ratio: f64| {
            let mut w = World::draw(rng, ratio);
            w.order_effect = if symmetric {
                [0.10, 0.10]
            } else {
                [0.02, 0.10]
            };
            w
        }
    };
    let mut no_warm = plan(0.0);
    no_warm.switch_warm_share = 0.0;
    println!("\nStrong order effect, {REPS} comparisons each:");
    header();
    let aa = case(200, 1.0, &no_warm, strong(true));
    row("A/A, tol 0, 10% both, no warm", &aa);
    let ten = case(201, 1.10, &no_warm, strong(true));
    row("+10%, tol 0, 10% both, no warm", &ten);
    let ten_warm = case(201, 1.10, &plan(0.0), strong(true));
    row("+10%, tol 0, 10% both, warm runs", &ten_warm);
    let asym_no_warm = case(202, 1.0, &no_warm, strong(false));
    row("A/A, tol 0, 2%/10%, no warm", &asym_no_warm);
    let asym = case(203, 1.0, &plan(0.0), strong(false));
    row("A/A, tol 0, 2%/10%, warm runs", &asym);
    println!(
        "  measured order effect, A/A without warm runs: {:.2}% (10% of a 10 ms slice \
         is about 9% of one of 10-12 ms)",
        100.0 * aa.order_effect
    );
    let alpha = 1.0 - CONFIDENCE;
    assert!(aa.fail_rate() <= alpha, "{aa:?}");
    assert!(aa.bias.abs() < 0.001, "{aa:?}");
    assert!(aa.order_effect > 0.07, "{aa:?}");
    // A cold cost of fixed time is a smaller share of the head's longer
    // slices: with no warm runs a +10% change reads about
    // 0.09·(1 − 1/1.1)/2 ≈ 0.4% nearer 1. The verdict does not change.
    assert!(ten.bias.abs() < 0.006, "{ten:?}");
    assert!(ten.fail_rate() >= 0.99, "{ten:?}");
    assert!(ten_warm.bias.abs() < 0.002, "{ten_warm:?}");
    // Unequal effects leak half their difference without warm runs …
    assert!(asym_no_warm.bias > 0.02, "{asym_no_warm:?}");
    // … and nothing with them.
    assert!(asym.bias.abs() < 0.002, "{asym:?}");
    assert!(asym.fail_rate() <= alpha, "{asym:?}");
}

/// The chance of any false failure in a run of 20 unchanged tests: with
/// Bonferroni's correction across them (`--family-wise`, here on the
/// looks-adjusted p-values) at most `1 − c`; without it, about 20 times a
/// test's rate at no tolerance, and still none at the default 5%.
#[test]
fn bonferroni_controls_the_run_level_rate() {
    const RUNS: usize = 500;
    const TESTS: usize = 20;
    let alpha = 1.0 - CONFIDENCE;
    println!("\nRuns of {TESTS} A/A tests, {RUNS} runs:");
    let mut results = Vec::new();
    for tolerance in [0.0, TOLERANCE] {
        let plan = plan(tolerance);
        let (mut any_plain, mut any_corrected) = (0, 0);
        for run in 0..RUNS {
            let ms: Vec<PairedMeasurement> = (0..TESTS)
                .map(|t| {
                    let s = 7_000_000 + (run * TESTS + t) as u64;
                    let mut rng = Rng::new(s ^ 0x5eed);
                    compare(s, World::draw(&mut rng, 1.0), &plan)
                })
                .collect();
            let corrected = alpha / TESTS as f64;
            any_plain += usize::from(ms.iter().any(|m| m.verdict.fails()));
            any_corrected += usize::from(
                ms.iter()
                    .any(|m| m.verdict.fails() && m.p_slower <= corrected),
            );
        }
        let plain = any_plain as f64 / RUNS as f64;
        let with_bonferroni = any_corrected as f64 / RUNS as f64;
        println!(
            "  tolerance {:.0}%: a run with any false failure: {:.1}% per test, {:.1}% family-wise",
            100.0 * tolerance,
            100.0 * plain,
            100.0 * with_bonferroni
        );
        results.push((tolerance, plain, with_bonferroni));
    }
    for (tolerance, _plain, with_bonferroni) in &results {
        assert!(
            *with_bonferroni <= alpha,
            "tolerance {tolerance}: {with_bonferroni}"
        );
    }
    assert_eq!(results[1].1, 0.0, "{results:?}");
}

/// Why the per-pair center is the median of ABBA quads: with interrupts
/// and state switches it keeps the intervals narrower than the mean of the
/// slice pairs, for the same false-failure rate.
#[test]
fn the_quad_median_is_the_better_center() {
    let spiky = |rng: &mut Rng, ratio: f64| {
        let mut w = World::draw(rng, ratio);
        w.outlier_rate = 0.05;
        w
    };
    println!("\nPer-pair center, tolerance 3%, {REPS} comparisons each:");
    header();
    let mut results = Vec::new();
    for (name, center) in [
        ("quad median", PairCenter::QuadMedian),
        ("mean", PairCenter::Mean),
    ] {
        let mut plan = plan(0.03);
        plan.center = center;
        let aa = case(300, 1.0, &plan, spiky);
        row(&format!("A/A, 5% interrupts, {name}"), &aa);
        let five = case(301, 1.05, &plan, spiky);
        row(&format!("+5%, 5% interrupts, {name}"), &five);
        results.push((aa, five));
    }
    let (median_aa, median_five) = &results[0];
    let (_, mean_five) = &results[1];
    assert!(median_aa.fail_rate() <= 1.0 - CONFIDENCE);
    assert!(median_five.median_half_width < mean_five.median_half_width);
}

/// Layout that is drawn enters the spread; layout that is fixed biases the
/// ratio. Each build's code is faster or slower by its link's factor (sd
/// 6%, the order of the interpreter kernel's sensitivity on the reference
/// machine), the head and the base running the same code. With one link a
/// side, the two links' factors are a fixed ratio that the comparison
/// reads as a change and fails; with ten links a side, drawn anew for each
/// pair, unchanged code fails no more than `1 − c` and the undecided
/// outcomes are called the layout's. Code whose speed does not depend on
/// layout is decided as before.
#[test]
fn drawn_layouts_enter_the_spread_and_fixed_ones_bias_the_ratio() {
    let with = |layout_sd: f64, links: usize| {
        move |rng: &mut Rng, ratio: f64| {
            let mut w = World::draw(rng, ratio);
            w.layout_sd = layout_sd;
            w.links = links;
            w
        }
    };
    println!("\nLayout (one build's sd per link), {REPS} comparisons each, tolerance 5%:");
    header();
    let fixed = case(400, 1.0, &plan(TOLERANCE), with(0.06, 1));
    row("A/A, layout 6%, 1 link a side", &fixed);
    let drawn = case(401, 1.0, &plan(TOLERANCE), with(0.06, 10));
    row("A/A, layout 6%, 10 links a side", &drawn);
    let few = case(402, 1.0, &plan(TOLERANCE), with(0.06, 4));
    row("A/A, layout 6%, 4 links (pooled)", &few);
    println!(
        "  within the layout spread: {:.1}% (1 link), {:.1}% (10 links), {:.1}% (4 links)",
        100.0 * fixed.within_layout as f64 / REPS as f64,
        100.0 * drawn.within_layout as f64 / REPS as f64,
        100.0 * few.within_layout as f64 / REPS as f64,
    );
    let plain_10 = case(403, 1.10, &plan(TOLERANCE), with(0.0, 10));
    row("+10%, no layout effect, 10 links", &plain_10);
    let plain_1 = case(403, 1.10, &plan(TOLERANCE), with(0.0, 1));
    row("+10%, no layout effect, 1 link", &plain_1);
    let big = case(404, 1.30, &plan(TOLERANCE), with(0.03, 10));
    row("+30%, layout 3%, 10 links", &big);

    // A fixed pair of links of sd 6% each: their ratio is beyond the 5%
    // tolerance about half the time, and then it fails.
    assert!(fixed.fail_rate() > 0.2, "{fixed:?}");
    assert!(drawn.fail_rate() <= 1.0 - CONFIDENCE, "{drawn:?}");
    assert!(few.fail_rate() <= 1.0 - CONFIDENCE, "{few:?}");
    assert!(drawn.within_layout > REPS / 4, "{drawn:?}");
    // Drawing links costs code that follows its work nothing.
    assert!(plain_10.fail_rate() >= 0.99, "{plain_10:?}");
    assert!(
        plain_10.fail_rate() >= plain_1.fail_rate() - 0.01,
        "{plain_10:?}"
    );
    // A change well beyond the layout's spread is still caught.
    assert!(big.fail_rate() >= 0.95, "{big:?}");
}

/// A change whose sign depends on the build: the head's links alternate
/// between 0.95 and 1.60 times the base's speed (ten links a side; the
/// geometric mean, +23%, is beyond the tolerance), as a search whose path
/// depends on where its haystack or loop lands. Never failed; said.
#[test]
fn a_change_whose_sign_depends_on_the_build_is_never_failed() {
    let flipping = |rng: &mut Rng, ratio: f64| {
        let mut w = World::draw(rng, ratio);
        w.links = 10;
        w.head_links = Some([0.95, 1.60]);
        w
    };
    println!("\nThe head 0.95× or 1.60× by its link, {REPS} comparisons, tolerance 5%:");
    header();
    let o = case(410, 1.0, &plan(TOLERANCE), flipping);
    row("sign depends on the link", &o);
    println!(
        "  said to depend on the build: {} of {REPS}; within the layout spread: {}",
        o.sign_depends, o.within_layout
    );
    // Never failed. Most are said to depend on the build; the rest stop
    // undecided (the machine's states and noise keep too few pairs clear
    // of their own noise on one side).
    assert_eq!(o.fails, 0, "{o:?}");
    assert!(o.sign_depends + o.within_layout >= REPS / 2, "{o:?}");
}

/// One process pair in ten thrown far off: a process that runs 20–80%
/// slower for its whole life (a disturbance, an unusual placement), on
/// either side, 1% of processes (the alarm suite on the reference machine
/// showed such pairs: a spread between pairs of 6–25% in runs whose others
/// read 0.2–2%). The plain mean of the pair centers widens its interval to
/// span the tolerance when that pair comes; the trimmed mean from 10 pairs
/// on (`paired::stats::TRIM`) keeps deciding. With the plain mean, the
/// same machines gave +10% 95.4% and +5% 83.7% (A/A 0.10%).
#[test]
fn one_wild_pair_in_ten_does_not_undo_the_verdict() {
    let wild = |rng: &mut Rng, ratio: f64| {
        let mut w = World::draw(rng, ratio);
        w.wild_rate = 0.01;
        w
    };
    println!("\nWild processes (1% of them 20-80% slow), {REPS} comparisons each:");
    header();
    let aa = case(500, 1.0, &plan(0.03), wild);
    row("A/A, tolerance 3%", &aa);
    let ten = case(501, 1.10, &plan(0.03), wild);
    row("+10%, tolerance 3%", &ten);
    let five = case(502, 1.05, &plan(0.03), wild);
    row("+5%, tolerance 3%", &five);
    assert!(aa.fail_rate() <= 0.005, "{aa:?}");
    assert!(ten.fail_rate() >= 0.98, "{ten:?}");
    assert!(five.fail_rate() >= 0.92, "{five:?}");
}
