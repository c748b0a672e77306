//! `cargo xtask interference [--runs N] [--alarm-runs M] [--baseline-runs R]
//! [--skip-alarms] [FILTER…]`: does perfmark know when the machine
//! interfered?
//!
//! Load is made on purpose, by busy loops in this process that it starts
//! and stops itself. On the reference machine (2 cores) the pattern is one
//! loop that spins all the time and one that spins 2 s and rests 0.5 s: a
//! test then has a core to itself while the second loop rests, and competes
//! for one (three runnable threads on two cores) while it spins.
//!
//! 1. The kernels suite (`perfmark-kernels --test perf`) runs N times quiet,
//!    then N times under the load with re-measurement and N times without
//!    (`PERFMARK_NO_REMEASURE=1`), interleaved. Printed: test-runs with the
//!    interference warning, the share of their time other work took,
//!    failures, and what re-measurement did; then every measurement of the
//!    loaded runs by how much of it overlapped the second loop's busy
//!    periods (read from `report.json`'s `interference.started_unix_s` and
//!    `wall_s` against the loop's own log), and how many of each were
//!    warned.
//!    A FILTER (and any other argument) is passed to the suite's binary, so
//!    `--runs 1 --skip-alarms add` checks the task itself in seconds.
//! 2. The alarm experiment under the same load (`cargo xtask alarms`'s
//!    suite and method): a baseline recorded quiet over R processes 30 s
//!    apart (as `cargo xtask baseline` records), then M
//!    runs at each of unchanged code and +10% work, quiet, loaded with
//!    re-measurement and loaded without, interleaved. Printed: the share of
//!    test-runs failed as regressions in each (at unchanged code, false
//!    failures).
//!
//! The figures are only meaningful measured alone: anything else running
//! on the machine is load this task did not make.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use perfmark_core::baseline::BaselineStore;
use perfmark_core::checks::Verdict;
use perfmark_core::observe::Interference;
use perfmark_core::report::{Outcome, Report, TestReport};

use crate::baseline::record;
use crate::load::{Load, Pattern};
use crate::perfrun::{median, scratch_dir, PerfBinary};

/// The load: one loop all the time, one 2 s on and 0.5 s off.
const PATTERN: Pattern = Pattern {
    steady: 1,
    intermittent: Some((Duration::from_secs(2), Duration::from_millis(500))),
};

/// The conditions a suite runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Condition {
    Quiet,
    Loaded,
    LoadedNoRemeasure,
}

impl Condition {
    fn loaded(self) -> bool {
        self != Condition::Quiet
    }

    fn envs(self) -> Vec<(&'static str, String)> {
        match self {
            Condition::LoadedNoRemeasure => vec![("PERFMARK_NO_REMEASURE", "1".to_owned())],
            _ => Vec::new(),
        }
    }

    fn words(self) -> &'static str {
        match self {
            Condition::Quiet => "quiet",
            Condition::Loaded => "loaded, re-measurement on",
            Condition::LoadedNoRemeasure => "loaded, re-measurement off",
        }
    }
}

/// One measurement of a test: its span (Unix s, s) and whether it was
/// disturbed.
#[derive(Debug, Clone, Copy)]
struct Span {
    start_s: f64,
    wall_s: f64,
    disturbed: bool,
}

/// One test in one run.
#[derive(Debug, Clone)]
struct TestRun {
    condition: Condition,
    /// The test's name.
    name: String,
    /// Its final estimate, ns per iteration.
    ns: Option<f64>,
    failed: bool,
    regressed: bool,
    lost_share: Option<f64>,
    remeasured: Option<Outcome>,
    /// The re-measured failure's first measurement, then the final one.
    spans: Vec<Span>,
}

impl TestRun {
    fn of(condition: Condition, t: &TestReport) -> TestRun {
        let span = |i: &Interference| Span {
            start_s: i.started_unix_s,
            wall_s: i.wall_s,
            disturbed: i.disturbed,
        };
        let mut spans = Vec::new();
        if let Some(r) = &t.remeasured {
            spans.push(span(&r.first_interference));
        }
        spans.extend(t.interference.as_ref().map(span));
        TestRun {
            condition,
            name: t.name.clone(),
            ns: t
                .estimate
                .as_ref()
                .map(|e| e.ns_per_iter)
                .filter(|ns| ns.is_finite() && *ns > 0.0),
            failed: t.verdict == Verdict::Fail,
            regressed: t
                .baseline
                .as_ref()
                .and_then(|b| b.comparison.as_ref())
                .is_some_and(|c| c.verdict.fails()),
            lost_share: t.interference.as_ref().and_then(|i| i.lost_share),
            remeasured: t.remeasured.as_ref().map(|r| r.outcome),
            spans,
        }
    }

    /// Whether any of its measurements carried the interference warning.
    fn warned(&self) -> bool {
        self.spans.iter().any(|s| s.disturbed)
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let runs = crate::take_count(&mut args, "--runs", 2)?;
    let alarm_runs = crate::take_count(&mut args, "--alarm-runs", 5)?;
    let baseline_runs = crate::take_count(&mut args, "--baseline-runs", 5)?;
    let skip_alarms = take_flag(&mut args, "--skip-alarms");
    // What is left (a filter) goes to the suite's binary.
    let suite_args = args;
    let started = Instant::now();
    let load = Load::new(PATTERN);
    let kernels = PerfBinary::build("perfmark-kernels", "perf")?;
    let dir = scratch_dir("interference");
    let mut schedule = vec![Condition::Quiet; runs];
    for _ in 0..runs {
        schedule.extend([Condition::Loaded, Condition::LoadedNoRemeasure]);
    }
    let mut suite = Vec::new();
    for (k, condition) in schedule.iter().enumerate() {
        eprintln!(
            "interference: kernels suite, run {} of {} ({}; {:.0} s so far)",
            k + 1,
            schedule.len(),
            condition.words(),
            started.elapsed().as_secs_f64()
        );
        load.set(condition.loaded());
        let result = kernels.run(&suite_args, &dir.join("report"), &condition.envs());
        load.set(false);
        let (report, _) = result?;
        warn_if_unobserved(&report);
        suite.extend(report.tests.iter().map(|t| TestRun::of(*condition, t)));
    }
    let busy = load.busy_periods();
    print_suite(&suite, runs);
    print_overlap(&suite, &busy);

    if !skip_alarms {
        let alarms = alarm_experiment(&load, alarm_runs, baseline_runs)?;
        print_alarms(&alarms, alarm_runs, baseline_runs);
    }
    load.stop();
    println!(
        "\nload: one loop busy all the time and one busy 2 s / resting 0.5 s, while loaded; \
         {:.0} s in all",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn warn_if_unobserved(report: &Report) {
    if let Some(c) = report.interference.as_ref().filter(|c| !c.observed) {
        eprintln!(
            "interference: this machine does not observe interference (missing: {}): every \
             count below is zero",
            c.missing.join(", ")
        );
    }
}

fn print_suite(runs: &[TestRun], per_condition: usize) {
    println!(
        "\nkernels suite (perfmark-kernels --test perf), {per_condition} run(s) per condition"
    );
    println!(
        "| condition | test-runs | warned | time taken by other work: median, max | failed | \
         re-measured: then passed / failed, quiet / failed under interference |"
    );
    println!("|---|---|---|---|---|---|");
    for condition in [
        Condition::Quiet,
        Condition::Loaded,
        Condition::LoadedNoRemeasure,
    ] {
        let g: Vec<&TestRun> = runs.iter().filter(|r| r.condition == condition).collect();
        let mut lost: Vec<f64> = g.iter().filter_map(|r| r.lost_share).collect();
        lost.sort_by(f64::total_cmp);
        let count = |o: Outcome| g.iter().filter(|r| r.remeasured == Some(o)).count();
        println!(
            "| {} | {} | {} | {}, {} | {} | {} / {} / {} |",
            condition.words(),
            g.len(),
            g.iter().filter(|r| r.warned()).count(),
            percent((!lost.is_empty()).then(|| median(&lost))),
            percent(lost.last().copied()),
            g.iter().filter(|r| r.failed).count(),
            count(Outcome::Passed),
            count(Outcome::Failed),
            count(Outcome::FailedUnderInterference),
        );
    }
}

/// Share of `span` inside the `busy` periods.
fn overlap(span: &Span, busy: &[(f64, f64)]) -> f64 {
    if span.wall_s <= 0.0 {
        return 0.0;
    }
    let end = span.start_s + span.wall_s;
    let inside: f64 = busy
        .iter()
        .map(|&(from, to)| (to.min(end) - from.max(span.start_s)).max(0.0))
        .sum();
    (inside / span.wall_s).min(1.0)
}

/// Each test's median estimate over the quiet runs, ns.
fn quiet_medians(runs: &[TestRun]) -> BTreeMap<&str, f64> {
    let mut by_test: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for r in runs.iter().filter(|r| r.condition == Condition::Quiet) {
        if let Some(ns) = r.ns {
            by_test.entry(r.name.as_str()).or_default().push(ns);
        }
    }
    by_test
        .into_iter()
        .map(|(name, ns)| (name, median(&ns)))
        .collect()
}

/// One overlap bucket: measurements, warned, and the estimates over the
/// quiet median of single-measurement test-runs, warned and not.
#[derive(Default)]
struct OverlapRow {
    measurements: usize,
    warned: usize,
    warned_ratios: Vec<f64>,
    unwarned_ratios: Vec<f64>,
}

fn print_overlap(runs: &[TestRun], busy: &[(f64, f64)]) {
    const BUCKETS: [&str; 3] = ["none", "under 25%", "25% or more"];
    let quiet = quiet_medians(runs);
    let mut rows: BTreeMap<usize, OverlapRow> = BTreeMap::new();
    for r in runs.iter().filter(|r| r.condition.loaded()) {
        // The estimate belongs to the last measurement; a re-measured
        // test's first one has none of its own.
        let ratio = match (r.ns, quiet.get(r.name.as_str())) {
            (Some(ns), Some(q)) if r.spans.len() == 1 => Some(ns / q),
            _ => None,
        };
        for s in &r.spans {
            let o = overlap(s, busy);
            let bucket = if o <= 0.0 {
                0
            } else if o < 0.25 {
                1
            } else {
                2
            };
            let row = rows.entry(bucket).or_default();
            row.measurements += 1;
            row.warned += usize::from(s.disturbed);
            if let Some(ratio) = ratio {
                if s.disturbed {
                    row.warned_ratios.push(ratio);
                } else {
                    row.unwarned_ratios.push(ratio);
                }
            }
        }
    }
    println!(
        "\nloaded runs: each measurement by its overlap with the second loop's busy periods \
         (the first loop is always busy)"
    );
    println!(
        "| overlap | measurements | warned | share warned | estimate / quiet median, \
         warned: median (n) | not warned: median (n) |"
    );
    println!("|---|---|---|---|---|---|");
    let ratios = |xs: &[f64]| {
        if xs.is_empty() {
            "—".to_owned()
        } else {
            format!("{:.3} ({})", median(xs), xs.len())
        }
    };
    for (k, words) in BUCKETS.iter().enumerate() {
        let empty = OverlapRow::default();
        let row = rows.get(&k).unwrap_or(&empty);
        let n = row.measurements;
        println!(
            "| {words} | {n} | {} | {} | {} | {} |",
            row.warned,
            percent((n > 0).then(|| row.warned as f64 / n as f64)),
            ratios(&row.warned_ratios),
            ratios(&row.unwarned_ratios)
        );
    }
    println!(
        "(estimate / quiet median: each single-measurement test-run's estimate over the same \
         test's median in the quiet runs; the VM's own speed, which drifts between the quiet \
         and the loaded runs, moves both columns alike)"
    );
}

/// The alarm experiment's test-runs, by condition and scale (×100).
type AlarmRuns = BTreeMap<(Condition, u32), Vec<TestRun>>;

fn alarm_experiment(load: &Load, runs: usize, baseline_runs: usize) -> Result<AlarmRuns, String> {
    let binary = PerfBinary::build("perfmark-kernels", "alarms")?;
    load.set(false);
    let merged = record(
        &binary,
        "alarms",
        baseline_runs,
        // As `cargo xtask baseline` records: processes 30 s apart.
        crate::baseline::DEFAULT_PAUSE,
        &[],
        "interference-alarms-baseline",
    )?;
    let dir = scratch_dir("interference").join("alarm-baselines");
    let _ = std::fs::remove_dir_all(&dir);
    BaselineStore::new(&dir)
        .save("alarms", &merged)
        .map_err(|e| e.to_string())?;
    let args = [
        "--baseline-dir".to_owned(),
        dir.to_string_lossy().into_owned(),
    ];
    let mut out: AlarmRuns = BTreeMap::new();
    for r in 0..runs {
        for scale in [1.0, 1.10] {
            for condition in [
                Condition::Quiet,
                Condition::Loaded,
                Condition::LoadedNoRemeasure,
            ] {
                eprintln!(
                    "interference: alarms run {} of {runs}, scale {scale:.2}, {}",
                    r + 1,
                    condition.words()
                );
                let mut envs = condition.envs();
                envs.push(("PERFMARK_ALARM_SCALE", format!("{scale}")));
                load.set(condition.loaded());
                let result = binary.run(
                    &args,
                    &scratch_dir("interference").join("alarm-report"),
                    &envs,
                );
                load.set(false);
                let (report, _) = result?;
                let key = (condition, (scale * 100.0_f64).round() as u32);
                out.entry(key)
                    .or_default()
                    .extend(report.tests.iter().map(|t| TestRun::of(condition, t)));
            }
        }
    }
    Ok(out)
}

fn print_alarms(runs: &AlarmRuns, per_cell: usize, baseline_runs: usize) {
    println!(
        "\nalarm experiment: alarm suite against a baseline recorded quiet over {baseline_runs} \
         processes 30 s apart; {per_cell} runs per row; share of test-runs failed as regressions"
    );
    println!(
        "| condition | slowdown | test-runs | failed as regressions | rate | warned | \
         re-measured: then passed / failed, quiet / failed under interference |"
    );
    println!("|---|---|---|---|---|---|---|");
    for ((condition, scale), g) in runs {
        let failed = g.iter().filter(|r| r.regressed && r.failed).count();
        let count = |o: Outcome| g.iter().filter(|r| r.remeasured == Some(o)).count();
        println!(
            "| {} | {} | {} | {failed} | {} | {} | {} / {} / {} |",
            condition.words(),
            if *scale == 100 {
                "none".to_owned()
            } else {
                format!("+{}%", scale - 100)
            },
            g.len(),
            percent((!g.is_empty()).then(|| failed as f64 / g.len() as f64)),
            g.iter().filter(|r| r.warned()).count(),
            count(Outcome::Passed),
            count(Outcome::Failed),
            count(Outcome::FailedUnderInterference),
        );
    }
}

/// `12.5%`, or `–` for none.
fn percent(share: Option<f64>) -> String {
    share.map_or_else(|| "–".to_owned(), |s| format!("{:.1}%", s * 100.0))
}

/// Reads `--name` from `args` (removing it).
fn take_flag(args: &mut Vec<String>, name: &str) -> bool {
    let found = args.iter().position(|a| a == name);
    if let Some(i) = found {
        args.remove(i);
    }
    found.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_is_the_share_of_the_span_inside_busy_periods() {
        let span = Span {
            start_s: 10.0,
            wall_s: 2.0,
            disturbed: false,
        };
        assert_eq!(overlap(&span, &[]), 0.0);
        assert_eq!(overlap(&span, &[(0.0, 9.0), (12.5, 14.0)]), 0.0);
        assert_eq!(overlap(&span, &[(9.0, 10.5), (11.5, 20.0)]), 0.5);
        assert_eq!(overlap(&span, &[(0.0, 100.0)]), 1.0);
    }
}
