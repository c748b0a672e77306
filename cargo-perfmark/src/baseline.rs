//! `cargo perfmark baseline`: a perf test target's baselines recorded over
//! N separate processes, so that the between-run (between-process)
//! variation is known, per test and for the machine, and the regression
//! rule need not rely on its default prior.
//!
//! Each process runs the whole target, so a test's runs are separated in
//! time by every other test's; a pause between processes (default 30 s)
//! lets the runs also see the machine's slower drift (minutes, not
//! seconds): back to back, unchanged code on perfmark's reference machine
//! recorded half the spread that runs minutes apart showed. Each run saves
//! into a scratch directory with the test binary's own `--save-baseline`;
//! the runs of each test are then merged ([`merge_runs`]), the machine's
//! spread is estimated from all the tests' spreads
//! (`RecordedSpread::from_entries`, Smyth's empirical-Bayes prior), and
//! both are saved into the package's baseline directory with the store's
//! locked, atomic save. The last run's report gets its page
//! ([`crate::report::draw_pages_written_since`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

use perfmark_core::baseline::{
    machine_dir, BaselineFile, BaselineStore, Entry, RecordedSpread, DEFAULT_DIR,
};

use crate::cargo::{build_perf_binaries, perfmark_features, Selection, TestBinary, Workspace};
use crate::Error;

/// Processes per recording: enough for a spread with a few degrees of freedom.
pub const DEFAULT_RUNS: usize = 5;

/// The wait between processes when no other is given.
pub const DEFAULT_PAUSE: Duration = Duration::from_secs(30);

/// What `cargo perfmark baseline` records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recording {
    /// Processes per test target, at least 2.
    pub runs: usize,
    /// The wait between processes.
    pub pause: Duration,
    /// The test targets.
    pub selection: Selection,
    /// Passed on to every test binary (a filter, say).
    pub test_args: Vec<String>,
}

impl Default for Recording {
    fn default() -> Recording {
        Recording {
            runs: DEFAULT_RUNS,
            pause: DEFAULT_PAUSE,
            selection: Selection::default(),
            test_args: Vec::new(),
        }
    }
}

/// Builds the perf test targets of `ws` that `recording` selects, records
/// each over `recording.runs` processes, and saves the merged entries into
/// its package's baseline directory (`perf-baselines/`, or
/// `PERFMARK_BASELINE_DIR` relative to the package), printing a table of
/// each target's tests, and draws the page of the last run's report (a
/// page that cannot be drawn is a warning).
///
/// # Errors
/// When the build fails, a run fails otherwise than with test verdicts,
/// no perf test target is found, or a baseline file cannot be written.
pub fn record_workspace(ws: &Workspace, recording: &Recording) -> Result<(), Error> {
    if recording.runs < 2 {
        return Err(Error::usage(
            "--runs: at least 2 processes are needed to know the between-run spread",
        ));
    }
    let features = perfmark_features(&recording.test_args, false);
    let binaries = build_perf_binaries(&ws.root, None, None, &[], &recording.selection, &features)?;
    if binaries.is_empty() {
        return Err(Error::build(
            "no perf test target found: a perf test target is a `[[test]]` with \
             `harness = false` whose main is `perfmark::main!()`",
        ));
    }
    for binary in &binaries {
        let started = Instant::now();
        let since = SystemTime::now();
        let scratch = ws
            .target_dir
            .join("perfmark-baseline")
            .join(format!("{}-{}", binary.package, binary.target));
        let merged = record(
            binary,
            recording.runs,
            recording.pause,
            &recording.test_args,
            &scratch,
        )?;
        // A `{cpu}` in the directory names the CPU model the runs were
        // recorded on, as the test binary reads it when checking.
        let dir = match std::env::var_os("PERFMARK_BASELINE_DIR") {
            Some(dir) => {
                let cpu = merged
                    .first()
                    .map_or("unknown CPU", |e| e.fingerprint().cpu_model.as_str());
                machine_dir(&binary.package_dir.join(dir), cpu)
            }
            None => binary.package_dir.join(DEFAULT_DIR),
        };
        let file = save(&BaselineStore::new(&dir), &binary.target, &merged)?;
        print_table(&merged);
        print_machine_spread(&file);
        println!(
            "{}: {} tests recorded over {} processes in {:.0} s",
            file.path().display(),
            merged.len(),
            recording.runs,
            started.elapsed().as_secs_f64()
        );
        crate::report::draw_pages_written_since([reports_in(&scratch)], since);
    }
    Ok(())
}

/// Saves a recording's merged entries into `store` as the file of test
/// target `test`, with the machine's between-run spread estimated from
/// them when there is one to estimate.
///
/// # Errors
/// A baseline error when the store refuses the file or the save.
pub fn save(store: &BaselineStore, test: &str, merged: &[Entry]) -> Result<BaselineFile, Error> {
    let saved = match RecordedSpread::from_entries(merged) {
        Some(spread) => store.save_recording(test, merged, &spread),
        None => store.save(test, merged),
    };
    saved.map_err(Error::baseline)
}

/// Runs `binary` `runs` times with `--save-baseline` into directories
/// under `scratch` (extra `args`, e.g. a filter, passed on; its reports
/// into [`reports_in`]`(scratch)`), waiting `pause` between processes, and merges
/// each test's runs ([`merge_runs`]). A test missing from a run is left
/// out. A run whose tests fail (exit 101) still counts.
///
/// # Errors
/// A run error when a run cannot be started, exits otherwise than
/// with 0 or 101 (its output is in the message), or saves no baseline;
/// A baseline error when a run's file cannot be read.
pub fn record(
    binary: &TestBinary,
    runs: usize,
    pause: Duration,
    args: &[String],
    scratch: &Path,
) -> Result<Vec<Entry>, Error> {
    let test = &binary.target;
    let mut by_test: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for r in 0..runs {
        if r > 0 && !pause.is_zero() {
            eprintln!("baseline {test}: pausing {:.0} s", pause.as_secs_f64());
            std::thread::sleep(pause);
        }
        eprintln!("baseline {test}: process {} of {runs}", r + 1);
        let dir = scratch.join(format!("run-{r}"));
        let _ = std::fs::remove_dir_all(&dir);
        run_once(binary, args, &dir, &reports_in(scratch))?;
        let file = BaselineStore::new(&dir)
            .load(test)
            .map_err(Error::baseline)?
            .ok_or_else(|| {
                Error::run(format!(
                    "run {} of {} saved no baseline in {}: did its filter select no test?",
                    r + 1,
                    binary.path.display(),
                    dir.display()
                ))
            })?;
        for entry in file.entries() {
            by_test
                .entry(entry.name().to_owned())
                .or_default()
                .push(entry.clone());
        }
    }
    by_test
        .into_values()
        .filter(|entries| entries.len() == runs)
        .map(|entries| merge_runs(&entries))
        .collect()
}

/// The report directory of the runs [`record`] makes in `scratch`: each
/// run replaces the one before's report.
pub fn reports_in(scratch: &Path) -> PathBuf {
    scratch.join("report")
}

/// One `--save-baseline` process of `binary` into `baseline_dir`.
fn run_once(
    binary: &TestBinary,
    args: &[String],
    baseline_dir: &Path,
    report_dir: &PathBuf,
) -> Result<(), Error> {
    let out = Command::new(&binary.path)
        .current_dir(&binary.package_dir)
        .args(args)
        .arg("--save-baseline")
        .arg("--baseline-dir")
        .arg(baseline_dir)
        .arg("--report-dir")
        .arg(report_dir)
        .output()
        .map_err(|e| Error::run(format!("cannot run {}: {e}", binary.path.display())))?;
    if matches!(out.status.code(), Some(0 | 101)) {
        return Ok(());
    }
    Err(Error::run(format!(
        "{} exited with {:?}; its output:\n{}{}",
        binary.path.display(),
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )))
}

/// Merges the entries of one test measured in `runs.len()` separate
/// processes into one entry with the between-run spread.
///
/// What is kept: the estimate, confidence interval, samples, iterations per
/// sample and fingerprint of the **median run** (the run whose estimate is
/// the median; for an even count, the lower of the two middle runs; ties
/// keep the earlier run). Pooling all runs' samples would describe no
/// process that ever ran and would give an interval as narrow as if the
/// runs were one long run, which is the very mistake the between-run spread
/// corrects; the median run is a real run, and the one least moved by a
/// slow or fast process. Added: [`BetweenRuns`] with every run's estimate
/// and the sample sd of their natural logarithms ([`BetweenRuns::new`]).
/// The choice is [`Entry::median_run_of`]'s; this checks the runs first.
///
/// [`BetweenRuns`]: perfmark_core::baseline::BetweenRuns
/// [`BetweenRuns::new`]: perfmark_core::baseline::BetweenRuns::new
///
/// One run is returned as it is (no spread can be measured from it).
/// Whether an entry can be stored is checked when it is saved.
///
/// # Errors
/// [`Error::is_invalid`] when `runs` is empty or the runs are of different
/// tests, statistics, confidence levels or clocks.
pub fn merge_runs(runs: &[Entry]) -> Result<Entry, Error> {
    let Some(first) = runs.first() else {
        return Err(Error::invalid(
            "cannot merge zero runs into a baseline entry",
        ));
    };
    for (i, run) in runs.iter().enumerate() {
        let (e, f) = (run.estimate(), first.estimate());
        let mismatch = if run.name() != first.name() {
            Some(format!("test `{}`", run.name()))
        } else if e.statistic != f.statistic {
            Some(format!("statistic {}", e.statistic))
        } else if e.confidence != f.confidence {
            Some(format!("confidence {}", e.confidence))
        } else if run.clock() != first.clock() {
            Some(format!("the {} clock", run.clock().as_str()))
        } else {
            None
        };
        if let Some(what) = mismatch {
            return Err(Error::invalid(format!(
                "test `{}`: run {} has {what}, unlike run 1 ({}, {}, {}); only runs of one \
                 test measured the same way can be merged",
                first.name(),
                i + 1,
                first.name(),
                f.statistic,
                f.confidence
            )));
        }
    }
    Ok(Entry::median_run_of(runs))
}

/// The machine's between-run spread as the file now records it.
fn print_machine_spread(file: &BaselineFile) {
    match file.between_run_spread() {
        Some(s) => {
            println!(
                "between-run sd of this machine: {:.2}% (Smyth's empirical-Bayes prior over {} \
                 tests × {} processes; weight {:.1} df), stored as `between_run_spread`",
                s.sd_log * 100.0,
                s.tests,
                s.runs,
                s.df
            );
            if let Some(r) = s.residual {
                println!(
                    "residual sd once each run is divided by the machine-state reference: \
                     {:.2}% (weight {:.1} df): what the rule uses against these baselines",
                    r.sd * 100.0,
                    r.df
                );
            }
        }
        None => println!("between-run sd of this machine: not estimated (fewer than 2 tests)"),
    }
}

fn print_table(entries: &[Entry]) {
    println!(
        "{:<44} {:>14} {:>16} {:>13} {:>14}",
        "test", "estimate", "between-run sd", "residual sd", "follows"
    );
    for e in entries {
        let sd = e.between_runs().map_or(f64::NAN, |b| b.sd_log);
        let fit = e.between_runs().and_then(|b| b.residual_fit());
        let residual = fit.map_or(f64::NAN, |f| f.residual.sd);
        // How much the test follows the machine, when the recording saw
        // the machine move (else unknown: 0–1).
        let follows = fit.map_or_else(
            || "—".to_owned(),
            |f| format!("{:.2}–{:.2}", f.tracking.low, f.tracking.high),
        );
        println!(
            "{:<44} {:>11.1} ns {:>15.2}% {:>12.2}% {:>14}",
            e.name(),
            e.estimate().ns_per_iter,
            sd * 100.0,
            residual * 100.0,
            follows
        );
    }
}

#[cfg(test)]
mod tests {
    use perfmark_core::baseline::Clock;
    use perfmark_core::baseline::{Fingerprint, StoredEstimate};

    use super::*;

    /// One run of `sort_1k` whose estimate is `ns`, its samples about it.
    fn run(ns: f64, seed: u64) -> Entry {
        entry(
            "sort_1k",
            StoredEstimate::new("median", ns, (ns * 0.99, ns * 1.01), 0.95),
            seed,
        )
    }

    fn entry(name: &str, estimate: StoredEstimate, seed: u64) -> Entry {
        let ns = estimate.ns_per_iter;
        let samples = (0..30)
            .map(|i| ns + ((i * 7 + seed) % 5) as f64 * 0.01)
            .collect();
        let fingerprint = Fingerprint::current("rustc 1.95.0", "release", "0.1.0");
        Entry::new(name, estimate, samples, 64, fingerprint)
    }

    #[test]
    fn merged_runs_have_the_known_spread_and_keep_the_median_run() {
        // Run estimates 100·e^{+0.1}, 100·e^{−0.1}, 100: logs ln 100 ± 0.1 and
        // ln 100, whose sample sd is exactly 0.1; the median run is the third.
        let runs = [
            run(100.0 * 0.1f64.exp(), 1),
            run(100.0 * (-0.1f64).exp(), 2),
            run(100.0, 3),
        ];
        let merged = merge_runs(&runs).expect("merge");
        let spread = merged.between_runs().expect("spread");
        assert_eq!(spread.runs, 3);
        assert!(
            (spread.sd_log - 0.1).abs() < 1e-12,
            "sd_log {}",
            spread.sd_log
        );
        let estimates: Vec<f64> = runs.iter().map(|r| r.estimate().ns_per_iter).collect();
        assert_eq!(spread.run_estimates_ns, estimates);
        assert_eq!(merged.estimate(), runs[2].estimate());
        assert_eq!(merged.samples_ns(), runs[2].samples_ns());

        // Five runs whose logs are ln 50 + {−2, −1, 0, 1, 2}·0.05: sd = 0.05·√(10/4).
        let steps: [f64; 5] = [2.0, -1.0, 0.0, -2.0, 1.0];
        let runs: Vec<Entry> = steps
            .iter()
            .enumerate()
            .map(|(i, s)| run(50.0 * (0.05 * s).exp(), i as u64))
            .collect();
        let merged = merge_runs(&runs).unwrap();
        let expected_sd = 0.05 * (10.0f64 / 4.0).sqrt();
        assert!((merged.between_runs().unwrap().sd_log - expected_sd).abs() < 1e-12);
        assert_eq!(
            merged.samples_ns(),
            runs[2].samples_ns(),
            "the median run is the third"
        );

        // Even count: the lower middle run. Identical runs: no spread.
        let merged =
            merge_runs(&[run(300.0, 1), run(100.0, 2), run(400.0, 3), run(200.0, 4)]).unwrap();
        assert_eq!(merged.estimate().ns_per_iter, 200.0);
        let merged = merge_runs(&[run(80.0, 1), run(80.0, 2)]).unwrap();
        assert_eq!(merged.between_runs().unwrap().sd_log, 0.0);
        assert_eq!(
            merged.samples_ns(),
            run(80.0, 1).samples_ns(),
            "ties keep the earlier run"
        );

        // A zero estimate (an empty routine after overhead subtraction) keeps
        // the spread finite.
        let merged = merge_runs(&[run(0.0, 1), run(0.5, 2)]).unwrap();
        assert!(merged.between_runs().unwrap().sd_log.is_finite());

        // One run is kept as it is.
        assert_eq!(merge_runs(&[run(10.0, 1)]).unwrap(), run(10.0, 1));
    }

    #[test]
    fn merging_mismatched_runs_is_refused() {
        assert!(merge_runs(&[]).unwrap_err().is_invalid());
        let other_test = entry("other", run(100.0, 1).estimate().clone(), 1);
        let error = merge_runs(&[run(100.0, 1), other_test]).unwrap_err();
        assert!(error.is_invalid());
        assert!(
            error.to_string().contains("run 2 has test `other`"),
            "{error}"
        );
        let mean = entry(
            "sort_1k",
            StoredEstimate::new("mean", 1.0, (1.0, 1.0), 0.95),
            1,
        );
        let error = merge_runs(&[run(100.0, 1), mean]).unwrap_err();
        assert!(error.to_string().contains("statistic mean"), "{error}");
        let level = entry(
            "sort_1k",
            StoredEstimate::new("median", 1.0, (1.0, 1.0), 0.99),
            1,
        );
        assert!(merge_runs(&[run(100.0, 1), level])
            .unwrap_err()
            .is_invalid());
        let error = merge_runs(&[run(100.0, 1), run(100.0, 2).with_clock(Clock::Cpu)]).unwrap_err();
        assert!(error.to_string().contains("the cpu clock"), "{error}");
    }

    #[test]
    fn a_merged_recording_saves_and_loads_with_its_spread() {
        let dir = std::env::temp_dir().join(format!("cargo-perfmark-merge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let merged = merge_runs(&[run(100.0, 1), run(110.0, 2), run(90.0, 3)]).unwrap();
        let store = BaselineStore::new(&dir);
        save(&store, "perf", std::slice::from_ref(&merged)).unwrap();
        let file = store.load("perf").unwrap().unwrap();
        assert_eq!(file.get("sort_1k"), Some(&merged));
        assert_eq!(file.get("sort_1k").unwrap().between_runs().unwrap().runs, 3);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
