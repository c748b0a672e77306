//! Building a perf test binary once and running it as separate processes,
//! reading back each run's `report.json`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cargo_perfmark::cargo::test_binaries_in;
use perfmark_core::report::Report;

/// The workspace root (xtask lives one level below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// A built perf test binary.
#[derive(Debug, Clone)]
pub struct PerfBinary {
    /// The executable.
    pub exe: PathBuf,
    /// The package root, the working directory cargo gives tests.
    pub package_dir: PathBuf,
}

impl PerfBinary {
    /// Builds `--test TEST` of `package` in release and returns the binary.
    pub fn build(package: &str, test: &str) -> Result<PerfBinary, String> {
        let mut cmd = cargo();
        cmd.current_dir(workspace_root())
            .args(["test", "--release", "--no-run", "--message-format=json"])
            .args(["-p", package, "--test", test])
            .stderr(Stdio::inherit());
        let out = cmd.output().map_err(|e| format!("cannot run cargo: {e}"))?;
        if !out.status.success() {
            return Err(format!("building {package} --test {test} failed"));
        }
        test_binaries_in(&String::from_utf8_lossy(&out.stdout))
            .into_iter()
            .find(|b| b.target == test)
            .map(|b| PerfBinary {
                exe: b.path,
                package_dir: b.package_dir,
            })
            .ok_or_else(|| format!("cargo built no executable for {package} --test {test}"))
    }

    /// Runs the binary once with `args`, its reports going to `report_dir`;
    /// returns its `report.json`, typed, and the wall time of the process.
    /// A run whose tests fail (exit 101) still returns its report.
    pub fn run(
        &self,
        args: &[String],
        report_dir: &Path,
        envs: &[(&str, String)],
    ) -> Result<(Report, Duration), String> {
        let _ = std::fs::remove_dir_all(report_dir);
        let started = Instant::now();
        let mut cmd = Command::new(&self.exe);
        cmd.current_dir(&self.package_dir)
            .args(args)
            .arg("--report-dir")
            .arg(report_dir);
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        let wall = started.elapsed();
        if !matches!(out.status.code(), Some(0 | 101)) {
            return Err(format!(
                "{} exited with {:?}:\n{}{}",
                self.exe.display(),
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let report = cargo_perfmark::report::read(&report_dir.join("report.json"))
            .map_err(|e| e.to_string())?;
        Ok((report, wall))
    }
}

/// Writes `text` to `path`, making its folder first.
pub fn write_file(path: &Path, text: &str) -> Result<(), String> {
    std::fs::create_dir_all(path.parent().expect("a file in a folder"))
        .and_then(|()| std::fs::write(path, text))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A scratch directory under `target/xtask/NAME`.
pub fn scratch_dir(name: &str) -> PathBuf {
    workspace_root().join("target").join("xtask").join(name)
}

/// `(name, ns_per_iter)` of every test of a report with a finite estimate.
pub fn estimates(report: &Report) -> Vec<(String, f64)> {
    report
        .tests
        .iter()
        .filter_map(|t| Some((t.name.clone(), finite(t.estimate.as_ref()?.ns_per_iter)?)))
        .collect()
}

/// `x` when it is finite: `report.json` writes the others as `null`.
pub fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Median of a non-empty slice.
pub fn median(xs: &[f64]) -> f64 {
    perfmark_core::stats::summarize(xs).median
}
