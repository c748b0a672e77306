//! What the end-to-end tests share: reading a test binary's output.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Mutex, MutexGuard};

/// Held by each fixture build and each measuring run of this test binary,
/// whose tests run on parallel threads: a build or a second run beside a
/// measurement takes one of a small machine's CPUs from it, and a heavily
/// disturbed measurement can turn a verdict the test asserts (a quadratic
/// routine's declared `O(n)` went unrefuted when a debug build of the
/// fixture ran beside it). perfmark's own machine-wide lock covers only the
/// measuring, not cargo.
pub fn alone() -> MutexGuard<'static, ()> {
    static ALONE: Mutex<()> = Mutex::new(());
    ALONE.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/basic")
}

/// One target directory for every fixture build, so the dependencies are
/// compiled once.
pub fn fixture_target_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/fixtures")
}

/// Runs `cargo ARGS` in the fixture crate, as a user would there, with
/// the shared fixture target directory and, of the `PERFMARK_*` variables,
/// only `envs`. The caller holds [`alone`] when the command builds or
/// measures.
pub fn cargo_in_fixture(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO"));
    cmd.current_dir(fixture_dir())
        .args(args)
        .env("CARGO_TARGET_DIR", fixture_target_dir());
    // The fixture sees only the perfmark settings a test gives it.
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") {
            cmd.env_remove(k);
        }
    }
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("cargo runs")
}

/// Runs the fixture's test binary `binary` with `args` in the package's
/// directory, as cargo would, holding [`alone`], with none of this
/// process's `PERFMARK_*` variables or `GITHUB_STEP_SUMMARY` but `envs`.
pub fn run_fixture(binary: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let _alone = alone();
    let mut cmd = std::process::Command::new(binary);
    cmd.current_dir(fixture_dir()).args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") || k == "GITHUB_STEP_SUMMARY" {
            cmd.env_remove(k);
        }
    }
    cmd.envs(envs.iter().copied());
    cmd.output().expect("the fixture's test binary runs")
}

/// What `cargo perfmark …` passes every test binary it runs, as cargo
/// perfmark's own parser reads `words` (the words after `cargo`,
/// `perfmark` first): none for `report` and `--help`.
///
/// # Errors
/// cargo perfmark's usage error, when it refuses the words.
pub fn perfmark_test_args(words: Vec<String>) -> Result<Vec<String>, cargo_perfmark::Error> {
    use cargo_perfmark::cli::Invocation;
    Ok(match cargo_perfmark::cli::parse(words)? {
        Invocation::Compare { test_args, .. } => test_args,
        Invocation::Baseline(recording) => recording.test_args,
        Invocation::Report { .. } | Invocation::Help => Vec::new(),
    })
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn explain(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        stdout(out),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The `test NAME ... RESULT` lines, in order.
pub fn result_lines(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter(|l| l.starts_with("test ") && l.contains(" ... "))
        .map(str::to_owned)
        .collect()
}

pub fn result_summary(out: &Output) -> String {
    stdout(out)
        .lines()
        .find(|l| l.starts_with("test result: "))
        .unwrap_or_default()
        .to_owned()
}

/// Builds the fixture's test target `target` with `features` (in the
/// shared fixture target directory, or with every function aligned to 64
/// bytes in one of its own when `aligned`), copies the executable to
/// `copy_as` in the fixture target directory so that no later build can
/// replace it, and returns the copy.
pub fn build_fixture(target: &str, features: &[&str], aligned: bool, copy_as: &str) -> PathBuf {
    let _alone = alone();
    let mut cmd = std::process::Command::new(env!("CARGO"));
    cmd.current_dir(fixture_dir())
        .args(["test", "--release", "--no-run", "--message-format=json"])
        .args(["--test", target]);
    if aligned {
        cmd.env("CARGO_TARGET_DIR", fixture_target_dir().join("aligned"))
            .env(
                "CARGO_ENCODED_RUSTFLAGS",
                "-C\u{1f}llvm-args=-align-all-functions=6",
            );
    } else {
        cmd.env("CARGO_TARGET_DIR", fixture_target_dir());
    }
    if !features.is_empty() {
        cmd.args(["--features", &features.join(",")]);
    }
    let out = cmd.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "fixture build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let messages = String::from_utf8_lossy(&out.stdout);
    let executable = messages
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["target"]["name"] == target)
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("cargo names the test executable");
    let copy = fixture_target_dir().join(copy_as);
    std::fs::copy(&executable, &copy).expect("copy the build");
    copy
}

/// The `report.json` a run wrote to `dir`.
pub fn report_json(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    serde_json::from_str(&text).expect("report.json is JSON")
}

/// The entry of the test `name` in `report`.
pub fn test_named<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no test {name} in the report"))
}
