//! `cargo xtask alarms [--runs N] [--baseline-runs R] [--pause D] [--load]`:
//! the regression rule's false-alarm and detection rates against a stored
//! baseline, measured end to end with the shipped defaults.
//!
//! 1. Records a baseline of the alarm suite (`perfmark-kernels/tests/
//!    alarms.rs`) over R processes (default 5), as `cargo xtask baseline`
//!    does: each test's runs with the machine-state reference measured
//!    beside each, and the machine's between-run and residual spreads
//!    estimated from all of them, stored in the file.
//! 2. Runs the suite N times (default 20) at each work scale — 1.00
//!    (unchanged code), 1.05, 1.10, 1.20 (`PERFMARK_ALARM_SCALE`), the
//!    scales interleaved so that drift of the machine hits them alike —
//!    each run a separate process comparing itself with the baseline (the
//!    test binary's own regression verdict, end to end). `--pause D` waits
//!    D between baseline processes and between rounds, so the runs can be
//!    spread over as long a time as CI runs are apart. `--load` runs a busy
//!    loop on the other core, 2 s on and 2 s off, during every other round.
//!    Every test-run is also judged, on the same data, by the rule without
//!    the reference against the same baseline, and by both rules against
//!    the first recorded process alone (what `--save-baseline` gives).
//! 3. Prints Markdown tables for docs/design/measurements.md: the share of
//!    test-runs failed as regressions at each scale (at 1.00: false
//!    alarms) with the median minimum detectable slowdown the comparisons
//!    printed, for each rule, split quiet and loaded with `--load`; whether
//!    the printed minimum detectable slowdowns held; how much each test
//!    follows the reference; the share of
//!    runs (the whole suite) with any false failure, per test and
//!    family-wise; the same against a baseline of ONE process with the
//!    default prior (what `--save-baseline` gives); the spread of unchanged
//!    code's log-ratios next to the spread the rule assumed; and the
//!    trade-offs over the tolerance, the confidence and the prior (as a
//!    floor), recomputed from each comparison's log-ratio, standard error
//!    and degrees of freedom.
//! 4. Prints the figure that calibrates `DEFAULT_BETWEEN_RUN_SD`: the sd of
//!    each test's log-ratios over the unchanged runs, pooled over the
//!    tests, and the time the runs spanned (docs/design/regression-rule.md,
//!    "Calibrating the prior on a machine").

use std::collections::BTreeMap;
use std::time::Duration;

use perfmark_core::baseline::check::machine_shift_since;
use perfmark_core::baseline::compare::{self, Comparison, RegressionRule, RunEstimate};
use perfmark_core::baseline::run_spreads::{baseline_estimate, residual_baseline_estimate};
use perfmark_core::baseline::{BaselineStore, Entry, StoredReference};
use perfmark_core::report::TestReport;
use perfmark_core::stats::{bonferroni_confidence, t_quantile, Interval};
use perfmark_options::DEFAULT_REGRESSION;

use crate::baseline::{record, save};
use crate::load::{Load, Pattern};
use crate::perfrun::{finite, median, scratch_dir, PerfBinary};

const SCALES: [f64; 4] = [1.0, 1.05, 1.10, 1.20];
const TOLERANCES: [f64; 6] = [0.0, 0.02, 0.03, 0.05, 0.08, 0.10];
const CONFIDENCES: [f64; 5] = [0.8, 0.9, 0.95, 0.99, 0.999];
const PRIORS: [f64; 9] = [0.01, 0.02, 0.03, 0.04, 0.05, 0.075, 0.10, 0.125, 0.15];

/// One test-run's comparison: the run it belongs to, the ratio, the
/// one-sided interval's low end at the test's confidence, the log-scale
/// standard error and degrees of freedom behind it, the between-run sd the
/// rule used, what it could detect, and the verdict.
#[derive(Debug, Clone, Copy)]
struct Outcome {
    run: usize,
    /// The test's index in the suite (by name).
    test: usize,
    /// Minutes since the first run began.
    minute: f64,
    /// Processes in the baseline, `R`.
    baseline_runs: f64,
    /// The baseline's own measured spread, when `R ≥ 2`.
    measured_sd: Option<f64>,
    confidence: f64,
    ratio: f64,
    log_se: f64,
    df: f64,
    between_run_sd: f64,
    min_detectable: f64,
    regressed: bool,
    /// Whether the other core was busy during the run (`--load`).
    loaded: bool,
    /// The machine's move since the baseline, as the reference saw it.
    machine_ratio: Option<f64>,
}

impl Outcome {
    /// The verdict had the test's confidence and tolerance been these.
    fn regressed_at(&self, confidence: f64, tolerance: f64) -> bool {
        let t = t_quantile(confidence, self.df);
        // With the reference, the low end of the code's change: the
        // machine's slowdown taken out (how much the test follows it
        // unknown, as for a recording that saw the machine still).
        let d = self.ratio.ln() - self.machine_ratio.map_or(0.0, |m| m.ln().max(0.0));
        d > t * self.log_se && d > tolerance.ln_1p()
    }

    /// The verdict had the prior been `prior` (with the weight it had), as
    /// a floor: the within-run part of the standard error is kept, and
    /// the between-run part recomputed as `RegressionRule::test_spread`
    /// does.
    fn regressed_with_prior(&self, prior: f64) -> bool {
        let r = self.baseline_runs;
        // As the rule without the reference: a whole offset for the baseline.
        let between = |sd: f64| 2.0 * sd * sd;
        let within = (self.log_se.powi(2) - between(self.between_run_sd)).max(0.0);
        let sd = match self.measured_sd {
            Some(s) if r >= 2.0 && self.df.is_finite() => {
                let prior_df = self.df - (r - 1.0);
                let pooled = ((prior_df * prior * prior + (r - 1.0) * s * s) / self.df).sqrt();
                pooled.max(prior)
            }
            _ => prior,
        };
        let se = (within + between(sd)).sqrt();
        let t = t_quantile(self.confidence, self.df);
        self.ratio.ln() > t * se && self.ratio > 1.0 + DEFAULT_REGRESSION
    }
}

/// The outcomes of one baseline kind, by scale (in hundredths: 100, 105…).
type ByScale = BTreeMap<u32, Vec<Outcome>>;

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let runs = crate::take_count(&mut args, "--runs", 20)?;
    let baseline_runs = crate::take_count(&mut args, "--baseline-runs", 5)?;
    let pause = crate::take_duration(&mut args, "--pause")?;
    let loaded_rounds = crate::take_flag(&mut args, "--load");
    let started = std::time::Instant::now();
    let binary = PerfBinary::build("perfmark-kernels", "alarms")?;
    let merged = record(
        &binary,
        "alarms",
        baseline_runs,
        pause,
        &[],
        "alarms-baseline",
    )?;
    let dir = scratch_dir("alarms").join("baselines");
    let _ = std::fs::remove_dir_all(&dir);
    let file = save(&BaselineStore::new(&dir), "alarms", &merged)?;
    // A one-process baseline: each test's first recorded run.
    let single: BTreeMap<String, Entry> = one_run_baselines(&merged)?;

    let mut multi = ByScale::new();
    let mut one = ByScale::new();
    // The same test-runs judged by the rule without the reference (what a
    // baseline file without it, or a perfmark before it, gives), and by
    // the rule with it against the one-process baseline.
    let mut multi_raw = ByScale::new();
    let mut one_ref = ByScale::new();
    // Controlled noise: a busy loop on the other core, 2 s on and 2 s off,
    // during every other round.
    let load = loaded_rounds.then(|| {
        Load::new(Pattern {
            steady: 0,
            intermittent: Some((Duration::from_secs(2), Duration::from_secs(2))),
        })
    });
    let mut names: Vec<String> = Vec::new();
    let runs_started = std::time::Instant::now();
    let mut prior_words = String::new();
    let dir_arg = dir.to_string_lossy().into_owned();
    for r in 0..runs {
        if r > 0 && !pause.is_zero() {
            std::thread::sleep(pause);
        }
        for &scale in &SCALES {
            let loaded = load.is_some() && r % 2 == 1;
            eprintln!(
                "alarms: run {} of {runs}, scale {scale:.2}{}",
                r + 1,
                if loaded {
                    ", other core busy 2 s on / 2 s off"
                } else {
                    ""
                }
            );
            if let Some(load) = &load {
                load.set(loaded);
            }
            let report = binary.run(
                &["--baseline-dir".to_owned(), dir_arg.clone()],
                &scratch_dir("alarms").join("report"),
                &[("PERFMARK_ALARM_SCALE", format!("{scale}"))],
            );
            if let Some(load) = &load {
                load.set(false);
            }
            let (report, _) = report?;
            if let Some(p) = report.between_run_prior {
                prior_words = p.header();
            }
            let key = (scale * 100.0).round() as u32;
            for t in &report.tests {
                let test = match names.iter().position(|n| *n == t.name) {
                    Some(i) => i,
                    None => {
                        names.push(t.name.clone());
                        names.len() - 1
                    }
                };
                let minute = runs_started.elapsed().as_secs_f64() / 60.0;
                if let Some(o) = outcome_from_report(r, test, minute, t) {
                    multi.entry(key).or_default().push(Outcome { loaded, ..o });
                }
                let merged_entry = merged.iter().find(|e| e.name() == t.name);
                let judged = [
                    (&mut multi_raw, merged_entry, Judge::Raw),
                    (&mut one, single.get(&t.name), Judge::Raw),
                    (&mut one_ref, single.get(&t.name), Judge::Reference),
                ];
                for (by_scale, entry, judge) in judged {
                    if let Some(o) = outcome_against(r, test, minute, entry, t, judge)? {
                        by_scale
                            .entry(key)
                            .or_default()
                            .push(Outcome { loaded, ..o });
                    }
                }
            }
        }
    }

    let r_runs = format!("baseline over {baseline_runs} processes, with the reference");
    let r_raw = format!("baseline over {baseline_runs} processes, without the reference");
    let one_ref_title = "baseline from 1 process, with the reference".to_owned();
    for (title, by_scale) in [
        (&r_runs, &multi),
        (&r_raw, &multi_raw),
        (&one_ref_title, &one_ref),
    ] {
        print_rates(title, by_scale);
        if load.is_some() {
            print_rates_by_load(title, by_scale);
        }
        print_power_check(title, by_scale);
    }
    print_tracking(&names, &multi);
    print_run_level(&r_runs, &multi);
    print_calibration(&multi);
    print_recalibration(&multi, runs_started.elapsed());
    print_common_mode(&multi);
    write_rows(&names, &multi, &one)?;
    let one_title = format!(
        "baseline from 1 process (default prior {:.1}%)",
        compare::DEFAULT_BETWEEN_RUN_SD * 100.0
    );
    print_rates(&one_title, &one);
    print_run_level(&one_title, &one);
    print_tradeoff(&r_runs, &multi);
    print_tradeoff("baseline from 1 process", &one);
    print_confidence_tradeoff(&r_runs, &multi);
    print_confidence_tradeoff("baseline from 1 process", &one);
    print_prior_tradeoff(&r_runs, &multi);
    print_prior_tradeoff("baseline from 1 process", &one);
    if let Some(s) = file.between_run_spread() {
        println!(
            "\nthe recording's between-run sd: {:.2}% over {} tests × {} processes (weight {:.1} df)",
            s.sd_log * 100.0,
            s.tests,
            s.runs,
            s.df
        );
    }
    println!(
        "prior the runs used: {prior_words}; {runs} runs per scale; pause {:.0} s; {:.0} s in all",
        pause.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The binary's own verdict against the multi-process baseline.
fn outcome_from_report(run: usize, test: usize, minute: f64, t: &TestReport) -> Option<Outcome> {
    let c = t.baseline.as_ref()?.comparison.as_ref()?;
    Some(outcome_of(run, test, minute, c))
}

/// One test-run's outcome from a comparison.
fn outcome_of(run: usize, test: usize, minute: f64, c: &Comparison) -> Outcome {
    let baseline_runs = match c.between_run_source {
        compare::TestSpreadSource::Pooled { runs }
        | compare::TestSpreadSource::Processes { runs, .. } => runs as f64,
        compare::TestSpreadSource::Prior => 1.0,
    };
    Outcome {
        run,
        test,
        minute,
        baseline_runs,
        measured_sd: c.measured_between_run_sd,
        confidence: c.confidence,
        // The raw ratio, when the reference moved the reported one: the
        // tracking table and the calibration read what the test did.
        ratio: c.raw_ratio.unwrap_or(c.ratio),
        log_se: c.log_se,
        df: finite(c.between_run_df).unwrap_or(f64::INFINITY),
        between_run_sd: c.between_run_sd,
        min_detectable: c.min_detectable_slowdown,
        regressed: c.verdict.fails(),
        loaded: false,
        machine_ratio: c.machine.map(|m| m.ratio),
    }
}

/// Which rule [`outcome_against`] judges with.
#[derive(Debug, Clone, Copy)]
enum Judge {
    /// The rule without the reference, with the default prior (a baseline
    /// file without the reference).
    Raw,
    /// The rule with the reference, the default residual prior, and the
    /// tracking the entry's runs measured.
    Reference,
}

/// The same test-run judged against `entry` (a one-process baseline as
/// `--save-baseline` gives, or the recording) by `judge`, with the
/// shipped defaults. `None` when the run or the entry lacks what the rule
/// needs.
fn outcome_against(
    run: usize,
    test: usize,
    minute: f64,
    entry: Option<&Entry>,
    t: &TestReport,
    judge: Judge,
) -> Result<Option<Outcome>, String> {
    let (Some(e), Some(entry)) = (&t.estimate, entry) else {
        return Ok(None);
    };
    let (Some(point), Some(low), Some(high), Some(conf)) = (
        finite(e.ns_per_iter),
        finite(e.ci.low),
        finite(e.ci.high),
        finite(e.ci.confidence),
    ) else {
        return Ok(None);
    };
    let err = |e: compare::CompareError| e.to_string();
    let interval = |low, high, confidence| Interval {
        low,
        high,
        confidence,
    };
    let current = RunEstimate::new(point, interval(low, high, conf)).map_err(err)?;
    let rule = RegressionRule::new(conf, DEFAULT_REGRESSION).map_err(err)?;
    let c = match judge {
        Judge::Raw => compare::compare(&baseline_estimate(entry).map_err(err)?, &current, &rule)
            .map_err(err)?,
        Judge::Reference => {
            let reference_ns = t.measurement.as_ref().map_or(&[][..], |m| &m.reference_ns);
            let Some(shift) = entry
                .reference()
                .and_then(|then| machine_shift_since(then, reference_ns, conf))
            else {
                return Ok(None);
            };
            let (baseline, tracking) = residual_baseline_estimate(entry).map_err(err)?;
            let rule = rule
                .with_prior(compare::DEFAULT_RESIDUAL_PRIOR)
                .map_err(err)?
                .prior_as_floor(false);
            compare::compare_with_reference(
                &baseline,
                &current,
                &shift.map_err(err)?,
                tracking,
                &rule,
            )
            .map_err(err)?
        }
    };
    Ok(Some(outcome_of(run, test, minute, &c)))
}

/// Each test's first recorded process, as if saved by one `--save-baseline`.
fn one_run_baselines(merged: &[Entry]) -> Result<BTreeMap<String, Entry>, String> {
    let mut out = BTreeMap::new();
    for m in merged {
        let Some(between) = m.between_runs() else {
            continue;
        };
        let first = between.run_estimates_ns[0];
        let e = m.estimate();
        // Keep the recorded run's relative CI width around the first run's estimate.
        let scale = first / e.ns_per_iter;
        let estimate = perfmark_core::baseline::StoredEstimate::new(
            e.statistic.clone(),
            first,
            (e.ci_low_ns * scale, e.ci_high_ns * scale),
            e.confidence,
        );
        let mut entry = Entry::new(
            m.name(),
            estimate,
            m.samples_ns().to_vec(),
            m.iters_per_sample(),
            m.fingerprint().clone(),
        );
        if let (Some(r), Some(&first_ref)) = (m.reference(), between.reference_ns.first()) {
            let scale = first_ref / r.ns_per_step;
            entry = entry.with_reference(StoredReference {
                ci_high_ns: r.ci_high_ns * scale,
                ci_low_ns: r.ci_low_ns * scale,
                confidence: r.confidence,
                ns_per_step: first_ref,
            });
        }
        out.insert(m.name().to_owned(), entry);
    }
    Ok(out)
}

fn share(part: usize, whole: usize) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

/// Per test-run: failed as regressions at each scale, and the median of
/// the minimum detectable slowdowns the comparisons printed.
fn print_rates(title: &str, by_scale: &ByScale) {
    println!(
        "\n{title}: test-runs failed as regressions (tolerance {:.0}%)\n",
        DEFAULT_REGRESSION * 100.0
    );
    println!("| slowdown | test-runs | failed | rate | min. detectable slowdown (median) |");
    println!("|---|---|---|---|---|");
    for (key, outcomes) in by_scale {
        let failed = outcomes.iter().filter(|o| o.regressed).count();
        let mds: Vec<f64> = outcomes
            .iter()
            .filter_map(|o| finite(o.min_detectable))
            .collect();
        let mds = if mds.is_empty() {
            "—".to_owned()
        } else {
            format!("+{:.1}%", median(&mds) * 100.0)
        };
        println!(
            "| {} | {} | {failed} | {} | {mds} |",
            slowdown_label(*key),
            outcomes.len(),
            share(failed, outcomes.len())
        );
    }
}

/// Per run of the whole suite: the share with any failure, with each test
/// at its own confidence and with the run's tests corrected together
/// (Bonferroni, `--family-wise`), recomputed from each comparison.
fn print_run_level(title: &str, by_scale: &ByScale) {
    println!("\n{title}: runs of the suite with any test failed as a regression\n");
    println!("| slowdown | runs | any failure, per test | any failure, family-wise |");
    println!("|---|---|---|---|");
    for (key, outcomes) in by_scale {
        let mut by_run: BTreeMap<usize, Vec<&Outcome>> = BTreeMap::new();
        for o in outcomes {
            by_run.entry(o.run).or_default().push(o);
        }
        let per_test = by_run
            .values()
            .filter(|run| run.iter().any(|o| o.regressed))
            .count();
        let family = by_run
            .values()
            .filter(|run| {
                let m = run.len();
                run.iter().any(|o| {
                    o.regressed_at(bonferroni_confidence(o.confidence, m), DEFAULT_REGRESSION)
                })
            })
            .count();
        println!(
            "| {} | {} | {} | {} |",
            slowdown_label(*key),
            by_run.len(),
            share(per_test, by_run.len()),
            share(family, by_run.len())
        );
    }
}

/// How far unchanged code moved from its baseline, next to the between-run
/// sd the rule assumed: the check that the stored spread is honest.
fn print_calibration(by_scale: &ByScale) {
    let Some(unchanged) = by_scale.get(&100) else {
        return;
    };
    let logs: Vec<f64> = unchanged.iter().map(|o| o.ratio.ln()).collect();
    if logs.len() < 2 {
        return;
    }
    let mean = logs.iter().sum::<f64>() / logs.len() as f64;
    let sd =
        (logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (logs.len() - 1) as f64).sqrt();
    let assumed: Vec<f64> = unchanged.iter().map(|o| o.between_run_sd).collect();
    let se: Vec<f64> = unchanged.iter().map(|o| o.log_se).collect();
    println!(
        "\nunchanged code, {} test-runs: log-ratios to the baseline have mean {:+.2}% and sd {:.2}%; \
         the rule assumed a between-run sd of {:.2}% (median), a standard error of {:.2}% (median)",
        logs.len(),
        mean * 100.0,
        sd * 100.0,
        median(&assumed) * 100.0,
        median(&se) * 100.0
    );
}

/// The figure that calibrates the default prior: the sd of each test's
/// log-ratio to its baseline over the unchanged runs (the baseline is fixed,
/// so this is how far separate processes of the test moved over the runs'
/// span, plus each run's own small error), pooled over the tests.
fn print_recalibration(by_scale: &ByScale, span: std::time::Duration) {
    let Some(unchanged) = by_scale.get(&100) else {
        return;
    };
    let mut by_test: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for o in unchanged {
        by_test.entry(o.test).or_default().push(o.ratio.ln());
    }
    let (mut squares, mut df) = (0.0, 0usize);
    let mut per_test = Vec::new();
    for logs in by_test.values().filter(|l| l.len() >= 2) {
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        let ss: f64 = logs.iter().map(|l| (l - mean).powi(2)).sum();
        per_test.push((ss / (logs.len() - 1) as f64).sqrt());
        squares += ss;
        df += logs.len() - 1;
    }
    if df == 0 {
        return;
    }
    let pooled = (squares / df as f64).sqrt();
    let words: Vec<String> = per_test
        .iter()
        .map(|s| format!("{:.2}%", s * 100.0))
        .collect();
    println!(
        "\nbetween-process sd of unchanged code over {:.0} minutes: {:.2}% pooled over {} tests \
         ({df} df; per test {}): the figure to compare with DEFAULT_BETWEEN_RUN_SD ({:.1}%)",
        span.as_secs_f64() / 60.0,
        pooled * 100.0,
        per_test.len(),
        words.join(", "),
        compare::DEFAULT_BETWEEN_RUN_SD * 100.0
    );
}

/// How much of the between-process spread the tests of one process share:
/// each unchanged test-run's log-ratio less the mean log-ratio of the
/// *other* tests of the same process (leave one out), and the sd of what
/// is left. A small remainder means the machine's speed moved, not the
/// tests: a reference measured in the same process would take it out.
fn print_common_mode(by_scale: &ByScale) {
    let Some(unchanged) = by_scale.get(&100) else {
        return;
    };
    let mut by_run: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for o in unchanged {
        by_run.entry(o.run).or_default().push(o.ratio.ln());
    }
    let (mut raw, mut rest) = (Vec::new(), Vec::new());
    let mut process_means = Vec::new();
    for logs in by_run.values().filter(|l| l.len() >= 3) {
        let sum: f64 = logs.iter().sum();
        process_means.push(sum / logs.len() as f64);
        for &l in logs {
            raw.push(l);
            rest.push(l - (sum - l) / (logs.len() - 1) as f64);
        }
    }
    let sd = |xs: &[f64]| {
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1).max(1) as f64).sqrt()
    };
    if raw.len() < 3 {
        return;
    }
    println!(
        "\ncommon to the tests of a process: the log-ratios of unchanged code have sd {:.2}%; \
         each process's mean log-ratio moves with sd {:.2}% (range {:+.1}% … {:+.1}%); less the \
         mean of the other tests of the same process, sd {:.2}% is left ({} test-runs, {} \
         processes)",
        sd(&raw) * 100.0,
        sd(&process_means) * 100.0,
        process_means.iter().copied().fold(f64::INFINITY, f64::min) * 100.0,
        process_means
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
            * 100.0,
        sd(&rest) * 100.0,
        raw.len(),
        process_means.len()
    );
}

/// Every test-run to `rows.csv` in the scratch directory: baseline kind,
/// scale, run, minute, test, ratio, log standard error, between-run sd
/// used, degrees of freedom, minimum detectable slowdown, verdict.
fn write_rows(names: &[String], multi: &ByScale, one: &ByScale) -> Result<(), String> {
    let mut csv = String::from(
        "baseline,scale,run,minute,test,ratio,log_se,between_run_sd,df,min_detectable,regressed\n",
    );
    for (kind, by_scale) in [("recorded", multi), ("one_process", one)] {
        for (scale, outcomes) in by_scale {
            for o in outcomes {
                csv.push_str(&format!(
                    "{kind},{:.2},{},{:.2},{},{},{},{},{},{},{}\n",
                    *scale as f64 / 100.0,
                    o.run,
                    o.minute,
                    names[o.test],
                    o.ratio,
                    o.log_se,
                    o.between_run_sd,
                    o.df,
                    o.min_detectable,
                    o.regressed
                ));
            }
        }
    }
    let path = scratch_dir("alarms").join("rows.csv");
    std::fs::write(&path, csv).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!("\nevery test-run: {}", path.display());
    Ok(())
}

/// False alarms and detection had the prior been another, as a floor, at
/// each test's confidence and the 5% tolerance: what `DEFAULT_BETWEEN_RUN_SD`
/// would have given.
fn print_prior_tradeoff(title: &str, by_scale: &ByScale) {
    println!(
        "\n{title}: trade-off over the prior between-run sd (as a floor), tolerance 5% \
         (share of test-runs failed)\n"
    );
    println!("{}", scale_header("prior", by_scale));
    for prior in PRIORS {
        let mut line = format!("| {:.1}% |", prior * 100.0);
        for outcomes in by_scale.values() {
            let failed = outcomes
                .iter()
                .filter(|o| o.regressed_with_prior(prior))
                .count();
            line.push_str(&format!(" {} |", share(failed, outcomes.len())));
        }
        println!("{line}");
    }
}

/// False alarms and detection if the tolerance were different (the interval
/// does not depend on it, so the verdicts can be recomputed).
fn print_tradeoff(title: &str, by_scale: &ByScale) {
    println!("\n{title}: trade-off over the tolerance (share of test-runs failed)\n");
    println!("{}", scale_header("tolerance", by_scale));
    for tol in TOLERANCES {
        let mut line = format!("| {:.0}% |", tol * 100.0);
        for outcomes in by_scale.values() {
            let failed = outcomes
                .iter()
                .filter(|o| o.regressed_at(o.confidence, tol))
                .count();
            line.push_str(&format!(" {} |", share(failed, outcomes.len())));
        }
        println!("{line}");
    }
}

/// False alarms and detection at other confidence levels (tolerance 5%).
fn print_confidence_tradeoff(title: &str, by_scale: &ByScale) {
    println!(
        "\n{title}: trade-off over the confidence, tolerance 5% (share of test-runs failed)\n"
    );
    println!("{}", scale_header("confidence", by_scale));
    for c in CONFIDENCES {
        let mut line = format!("| {c} |");
        for outcomes in by_scale.values() {
            let failed = outcomes.iter().filter(|o| o.regressed_at(c, 0.05)).count();
            line.push_str(&format!(" {} |", share(failed, outcomes.len())));
        }
        println!("{line}");
    }
}

/// A Markdown table header: `first`, then one column per slowdown.
fn scale_header(first: &str, by_scale: &ByScale) -> String {
    let mut header = format!("| {first} |");
    let mut rule = String::from("|---|");
    for key in by_scale.keys() {
        header.push_str(&format!(" {} |", slowdown_label(*key)));
        rule.push_str("---|");
    }
    format!("{header}\n{rule}")
}

/// `unchanged` for scale 1.00, else `+5%`, `+10%`, ….
fn slowdown_label(key: u32) -> String {
    if key == 100 {
        "unchanged".to_owned()
    } else {
        format!("+{}%", key - 100)
    }
}

/// [`print_rates`] split by whether the other core was busy (`--load`).
fn print_rates_by_load(title: &str, by_scale: &ByScale) {
    for (loaded, words) in [
        (false, "quiet rounds"),
        (true, "other core busy 2 s on / 2 s off"),
    ] {
        let part: ByScale = by_scale
            .iter()
            .map(|(k, v)| {
                (
                    *k,
                    v.iter().copied().filter(|o| o.loaded == loaded).collect(),
                )
            })
            .collect();
        print_rates(&format!("{title}, {words}"), &part);
    }
}

/// Which tests follow the machine-state reference: per test, over the
/// unchanged runs, the least-squares slope of the log-ratio to the baseline
/// on the reference's log-ratio (1: moves with the machine as the
/// reference does; 0: not at all), with its standard error, and how far
/// the reference itself moved.
fn print_tracking(names: &[String], by_scale: &ByScale) {
    let Some(unchanged) = by_scale.get(&100) else {
        return;
    };
    println!("\nhow much each test follows the reference (unchanged runs)\n");
    println!("| test | runs | reference moved (sd) | slope | se | residual sd |");
    println!("|---|---|---|---|---|---|");
    for (i, name) in names.iter().enumerate() {
        let (x, y): (Vec<f64>, Vec<f64>) = unchanged
            .iter()
            .filter(|o| o.test == i)
            .filter_map(|o| Some((o.machine_ratio?.ln(), o.ratio.ln())))
            .unzip();
        let Some(line) = compare::fit_line(&x, &y) else {
            continue;
        };
        println!(
            "| {name} | {} | {:.2}% | {:.2} | {:.2} | {:.2}% |",
            x.len(),
            line.x_sd * 100.0,
            line.slope,
            line.slope_se,
            line.residual_sd * 100.0
        );
    }
}

/// Whether the printed minimum detectable slowdowns hold: at each real
/// slowdown, the test-runs whose comparison said it could detect a
/// slowdown that large, and how many of them failed (the claim: at least
/// 9 in 10).
fn print_power_check(title: &str, by_scale: &ByScale) {
    println!("\n{title}: the printed minimum detectable slowdown, checked\n");
    println!("| slowdown | test-runs that said they could see it | of them failed |");
    println!("|---|---|---|");
    for (key, outcomes) in by_scale.iter().filter(|(k, _)| **k > 100) {
        let slowdown = *key as f64 / 100.0 - 1.0;
        let claimed: Vec<&Outcome> = outcomes
            .iter()
            .filter(|o| o.min_detectable <= slowdown)
            .collect();
        let failed = claimed.iter().filter(|o| o.regressed).count();
        println!(
            "| {} | {} | {failed} ({}) |",
            slowdown_label(*key),
            claimed.len(),
            share(failed, claimed.len())
        );
    }
}
