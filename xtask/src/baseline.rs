//! `cargo xtask baseline [--runs N] [--pause DURATION]`: records the
//! baselines of the workspace's perf suites over N separate processes, so
//! that the between-run (between-process) variation is known, per test and
//! for the machine, and the regression rule need not rely on its default
//! prior (docs/design/regression-rule.md). The work is `cargo perfmark baseline`'s
//! ([`cargo_perfmark::baseline`]), here at least 3 processes: this
//! workspace's recording is the machine's reference. A pause of 30 s by
//! default (`--pause 0s` for none) lets the runs see the machine's slower
//! drift: back to back, unchanged code on the reference machine recorded
//! half the spread that runs minutes apart showed, and a prior from it
//! failed 5 of 18 unchanged test-runs.

use std::path::Path;
use std::time::Duration;

use cargo_perfmark::baseline::Recording;
use cargo_perfmark::cargo::{Selection, TestBinary, Workspace};
use perfmark_core::baseline::{BaselineFile, BaselineStore, Entry};

use crate::perfrun::{scratch_dir, workspace_root, PerfBinary};

pub use cargo_perfmark::baseline::{DEFAULT_PAUSE, DEFAULT_RUNS};

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
    let ws = Workspace::locate(&workspace_root()).map_err(|e| e.to_string())?;
    for (package, test) in SUITES {
        let recording = Recording {
            runs,
            pause,
            selection: Selection {
                packages: vec![package.to_owned()],
                tests: vec![test.to_owned()],
            },
            test_args: args.clone(),
        };
        cargo_perfmark::baseline::record_workspace(&ws, &recording).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs `binary` (test target `test`) `runs` times with `--save-baseline`
/// into scratch directories under `target/xtask/SCRATCH` (extra `args`,
/// e.g. a filter, passed on), waiting `pause` between processes, and merges
/// each test's runs ([`cargo_perfmark::baseline::record`]).
pub fn record(
    binary: &PerfBinary,
    test: &str,
    runs: usize,
    pause: Duration,
    args: &[String],
    scratch: &str,
) -> Result<Vec<Entry>, String> {
    let binary = TestBinary {
        package: String::new(),
        target: test.to_owned(),
        path: binary.exe.clone(),
        package_dir: binary.package_dir.clone(),
    };
    let scratch: &Path = &scratch_dir(scratch);
    cargo_perfmark::baseline::record(&binary, runs, pause, args, scratch).map_err(|e| e.to_string())
}

/// Saves a recording's merged entries into `store`
/// ([`cargo_perfmark::baseline::save`]).
pub fn save(store: &BaselineStore, test: &str, merged: &[Entry]) -> Result<BaselineFile, String> {
    cargo_perfmark::baseline::save(store, test, merged).map_err(|e| e.to_string())
}
