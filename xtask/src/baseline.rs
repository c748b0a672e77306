//! `cargo xtask baseline [--runs N] [--pause DURATION]`: records the
//! baselines of the workspace's perf suites over N separate processes, so
//! that the between-run (between-process) variation is known, per test and
//! for the machine, and the regression rule need not rely on its default
//! prior (docs/regression-rule.md).
//!
//! Each process runs the whole suite, so a test's runs are separated in time
//! by every other test's; `--pause` (default 30 s, `--pause 0s` for none)
//! adds a wait between processes, so the runs also see the machine's slower
//! drift (minutes, not seconds): back to back, unchanged code on the
//! reference machine recorded half the spread that runs minutes apart
//! showed, and a prior from it failed 5 of 18 unchanged test-runs (the
//! recording never lowers the prior below the default now, but it can only
//! raise it when it sees the drift). Each run
//! saves into a scratch directory with the test binary's own
//! `--save-baseline`; the runs of each test are then merged
//! (`perfmark_core::baseline::merge_runs`: the median run's samples and
//! estimate, plus every run's estimate and the sd of their logarithms), the
//! machine's spread is estimated from all the tests' spreads
//! (`RecordedSpread::from_entries`, Smyth's empirical-Bayes prior), and
//! both are saved into the package's `perf-baselines/` with the store's
//! locked, atomic save.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use perfmark_core::baseline::{merge_runs, BaselineFile, BaselineStore, Entry, RecordedSpread};

use crate::perfrun::{scratch_dir, PerfBinary};

/// Processes per recording: enough for a spread with a few degrees of freedom.
pub const DEFAULT_RUNS: usize = 5;

/// The wait between processes when `--pause` is not given.
pub const DEFAULT_PAUSE: Duration = Duration::from_secs(30);

/// The workspace's perf suites: (package, test target).
pub const SUITES: [(&str, &str); 1] = [("perfmark-kernels", "perf")];

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let runs = crate::take_count(&mut args, "--runs", DEFAULT_RUNS)?;
    let pause = if args.iter().any(|a| a == "--pause") {
        crate::take_duration(&mut args, "--pause")?
    } else {
        DEFAULT_PAUSE
    };
    if runs < 3 {
        return Err(format!(
            "--runs {runs}: at least 3 processes are needed to know the between-run spread"
        ));
    }
    for (package, test) in SUITES {
        let started = Instant::now();
        let binary = PerfBinary::build(package, test)?;
        let target = binary
            .package_dir
            .join(perfmark_core::baseline::DEFAULT_DIR);
        let merged = record(
            &binary,
            test,
            runs,
            pause,
            &args,
            &format!("baseline-{package}-{test}"),
        )?;
        let file = save(&BaselineStore::new(&target), test, &merged)?;
        print_table(&merged);
        print_machine_spread(&file);
        println!(
            "{}: {} tests recorded over {runs} processes in {:.0} s",
            file.path().display(),
            merged.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Saves a recording's merged entries into `store`, with the machine's
/// between-run spread estimated from them when there is one to estimate.
pub fn save(store: &BaselineStore, test: &str, merged: &[Entry]) -> Result<BaselineFile, String> {
    let saved = match RecordedSpread::from_entries(merged) {
        Some(spread) => store.save_recording(test, merged, &spread),
        None => store.save(test, merged),
    };
    saved.map_err(|e| e.to_string())
}

/// Runs `binary` `runs` times with `--save-baseline` into scratch
/// directories (extra `args`, e.g. a filter, passed on), waiting `pause`
/// between processes, and merges each test's runs.
pub fn record(
    binary: &PerfBinary,
    test: &str,
    runs: usize,
    pause: Duration,
    args: &[String],
    scratch: &str,
) -> Result<Vec<Entry>, String> {
    let scratch = scratch_dir(scratch);
    let mut by_test: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for r in 0..runs {
        if r > 0 && !pause.is_zero() {
            eprintln!("baseline {test}: pausing {:.0} s", pause.as_secs_f64());
            std::thread::sleep(pause);
        }
        eprintln!("baseline {test}: process {} of {runs}", r + 1);
        let dir = scratch.join(format!("run-{r}"));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cli = args.to_vec();
        cli.extend([
            "--save-baseline".to_owned(),
            "--baseline-dir".to_owned(),
            path_arg(&dir),
        ]);
        binary.run(&cli, &scratch.join("report"), &[])?;
        let file = BaselineStore::new(&dir)
            .load(test)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("run {} saved no baseline in {}", r + 1, dir.display()))?;
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
        .map(|entries| merge_runs(&entries).map_err(|e| e.to_string()))
        .collect()
}

fn path_arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The machine's between-run spread as the file now records it: the figure
/// to compare with (or to set as) `DEFAULT_BETWEEN_RUN_SD`.
fn print_machine_spread(file: &BaselineFile) {
    match file.between_run_spread() {
        Some(s) => println!(
            "between-run sd of this machine: {:.2}% (Smyth's empirical-Bayes prior over {} tests \
             × {} processes; weight {:.1} df), stored as `between_run_spread`",
            s.sd_log * 100.0,
            s.tests,
            s.runs,
            s.df
        ),
        None => println!("between-run sd of this machine: not estimated (fewer than 2 tests)"),
    }
}

fn print_table(entries: &[Entry]) {
    println!("{:<44} {:>14} {:>16}", "test", "estimate", "between-run sd");
    for e in entries {
        let sd = e.between_runs().map_or(f64::NAN, |b| b.sd_log);
        println!(
            "{:<44} {:>11.1} ns {:>15.2}%",
            e.name(),
            e.estimate().ns_per_iter,
            sd * 100.0
        );
    }
}
