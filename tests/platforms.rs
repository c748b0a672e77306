//! End to end: what a platform lacks is said once in the header, and the
//! clock's verdicts are decided without it.
//!
//! Nothing here can run macOS, Windows or Linux on aarch64, so Linux runs
//! their fallbacks: the fixture's `checks` target is built with the
//! fixture's `pretend-platform` feature, which makes the run honour
//! `PERFMARK_PRETEND_PLATFORM` and take away what the named platform lacks
//! (perfmark-core's `platform::Support`, the one value every fallback and
//! the header's words read).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod support;
use support::{explain, result_lines, stdout};

/// The fixture's `checks` test binary, built once with the pretence.
fn binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        support::build_fixture("checks", &["pretend-platform"], false, "checks-pretend")
    })
}

/// Runs the binary with `ARGS`, pretending to be `platform` when given,
/// its reports in a fresh directory; the output and the report.json.
fn run(platform: Option<&str>, args: &[&str]) -> (Output, serde_json::Value) {
    let name = platform.unwrap_or("here");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("e2e-platforms")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    // Built before taking the lock, which the build takes too.
    let binary = binary();
    let _alone = support::alone();
    let mut cmd = Command::new(binary);
    cmd.args(args)
        .arg("--report-dir")
        .arg(&dir)
        .env("PERFMARK_BASELINE_DIR", dir.join("baselines"));
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") {
            cmd.env_remove(k);
        }
    }
    if let Some(platform) = platform {
        cmd.env("PERFMARK_PRETEND_PLATFORM", platform);
    }
    let out = cmd.output().expect("the fixture runs");
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    (
        out,
        serde_json::from_str(&text).expect("report.json is JSON"),
    )
}

/// The header's lines that say what the platform lacks.
fn lacks_lines(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .filter(|l| l.starts_with("warning: ") && l.contains(" has no "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn windows_has_only_the_clock_says_so_once_and_still_decides_budgets() {
    let (out, report) = run(Some("windows-x86_64"), &["sleep_", "--verbose"]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        ["test sleep_cpu ... FAILED", "test sleep_wall ... FAILED"],
        "{}",
        explain(&out)
    );
    let said = "warning: this run pretends to be windows-x86_64 (PERFMARK_PRETEND_PLATFORM), \
                which has no CPU pinning (each test runs where the OS schedules it, so timings \
                vary more), interference figures (no test is told when other work took its \
                time, or measured again for it), thread CPU clock (a test with measure = \
                \"cpu\" fails here) and instruction counts (--instructions needs Linux on \
                x86-64); budgets, baselines and paired comparisons are timed and decided as \
                everywhere";
    assert_eq!(lacks_lines(&out), [said], "{}", explain(&out));
    let text = stdout(&out);
    // Said once: not again by the interference's own warning, and no
    // placement line even with --verbose.
    assert!(!text.contains("interference is not observed"), "{text}");
    assert!(!text.lines().any(|l| l.starts_with("placement:")), "{text}");
    assert!(!text.contains("cpu timer"), "{text}");
    // The CPU-timed test fails for its clock; the wall-timed one is
    // measured and judged against its budget.
    assert!(
        text.contains("measure = \"cpu\" needs the thread's CPU clock"),
        "{text}"
    );
    assert!(text.contains("over budget 100.0 µs"), "{text}");

    let kept = report["environment_warnings"].as_array().expect("warnings");
    assert!(
        kept.iter().any(|w| w == &said["warning: ".len()..]),
        "{report}"
    );
    assert_eq!(report["interference"]["observed"], false, "{report}");
    assert!(report["platform"]["cpu_clock"].is_null(), "{report}");
    for t in report["tests"].as_array().expect("tests") {
        assert!(t["interference"].is_null() && t["cpu"].is_null(), "{t}");
    }
}

#[test]
fn macos_times_with_the_thread_cpu_clock_without_pinning_or_interference() {
    let (out, report) = run(Some("macos-aarch64"), &["sleep_cpu", "--exact"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test sleep_cpu ... ok"]);
    let lines = lacks_lines(&out);
    assert_eq!(lines.len(), 1, "{}", explain(&out));
    assert!(
        lines[0].starts_with(
            "warning: this run pretends to be macos-aarch64 (PERFMARK_PRETEND_PLATFORM), which \
             has no CPU pinning (each test runs where the OS schedules it, so timings vary \
             more), interference figures ("
        ) && lines[0].contains(") and instruction counts (")
            && !lines[0].contains("thread CPU clock"),
        "{}",
        lines[0]
    );
    assert!(
        report["platform"]["cpu_clock"]["overhead_ns"]
            .as_f64()
            .unwrap()
            > 0.0
    );
}

#[test]
fn linux_on_x86_64_lacks_nothing_and_the_feature_alone_changes_nothing() {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        return;
    }
    let (out, report) = run(None, &["sleep_cpu", "--exact", "--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(lacks_lines(&out), Vec::<String>::new(), "{}", explain(&out));
    assert!(
        stdout(&out).lines().any(|l| l.starts_with("placement:")),
        "{}",
        explain(&out)
    );
    assert!(
        report["interference"]["sources"].as_array().is_some(),
        "{report}"
    );
}
