//! End to end: generic and threaded perf tests (the fixture's `generic`
//! target, tests/fixtures/basic/tests/generic.rs) built as a user builds
//! them: `types`, `consts`, `threads` and their combination with `args`
//! name one test each, and each instance runs its own type or value, so
//! the instances' times order as their work does.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

mod support;
use support::{explain, result_lines, stdout};

/// The fixture's `generic` test binary, built once (release).
fn binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| support::build_fixture("generic", &[], false, "generic-release"))
}

/// Runs the binary with `args` as cargo would, one run at a time
/// ([`support::run_fixture`]).
fn run(args: &[&str]) -> Output {
    support::run_fixture(binary(), args, &[])
}

#[test]
fn each_type_value_thread_count_and_argument_is_a_test() {
    let out = run(&["--list", "--format", "terse"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let listed: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.strip_suffix(": test").expect("a test line").to_owned())
        .collect();
    let mut expected = Vec::new();
    for ty in ["u32", "u64"] {
        for n in ["16", "64"] {
            for arg in ["10", "100"] {
                expected.push(format!("combined::{ty}::{n}::{arg}"));
            }
        }
    }
    expected.extend(
        [
            "hash_block::1024",
            "hash_block::256",
            "hash_block::4096",
            "hash_work::Large",
            "hash_work::Medium",
            "hash_work::Small",
            "scan::u16::1000",
            "scan::u16::16000",
            "scan::u16::4000",
            "scan::u16::64000",
            "scan::u16::complexity",
            "scan::u64::1000",
            "scan::u64::16000",
            "scan::u64::4000",
            "scan::u64::64000",
            "scan::u64::complexity",
            "shared::t1",
            "shared::t2",
        ]
        .map(str::to_owned),
    );
    assert_eq!(listed, expected);
}

#[test]
fn each_instance_runs_its_own_type_and_value() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-generic");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&[
        "hash_",
        "shared",
        "--no-baseline",
        "--report-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(result_lines(&out).len(), 8, "{}", explain(&out));
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    let report: serde_json::Value = serde_json::from_str(&text).expect("report.json is JSON");
    let ns = |name: &str| -> f64 {
        let test = report["tests"]
            .as_array()
            .expect("tests")
            .iter()
            .find(|t| t["name"] == name)
            .unwrap_or_else(|| panic!("no test {name} in {report}"));
        test["estimate"]["ns_per_iter"]
            .as_f64()
            .expect("an estimate")
    };
    // Each instance does 4× the work of the one before; 1.5× leaves room
    // for a noisy machine and still fails if the instances ran one routine.
    for names in [
        ["hash_block::256", "hash_block::1024", "hash_block::4096"],
        ["hash_work::Small", "hash_work::Medium", "hash_work::Large"],
    ] {
        let times = names.map(ns);
        for i in 1..times.len() {
            assert!(
                times[i] >= 1.5 * times[i - 1],
                "{} took {} ns, {} took {} ns: expected at least 1.5× more",
                names[i],
                times[i],
                names[i - 1],
                times[i - 1]
            );
        }
    }
}

#[test]
fn complexity_is_fitted_per_instance() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-generic-complexity");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&[
        "scan",
        "--no-baseline",
        "--report-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    let report: serde_json::Value = serde_json::from_str(&text).expect("report.json is JSON");
    for ty in ["u16", "u64"] {
        let name = format!("scan::{ty}::complexity");
        let test = report["tests"]
            .as_array()
            .expect("tests")
            .iter()
            .find(|t| t["name"] == name.as_str())
            .unwrap_or_else(|| panic!("no test {name} in {report}"));
        assert_eq!(test["verdict"], "pass", "{test}");
        let mut points: Vec<&str> = test["complexity"]["points"]
            .as_array()
            .expect("the fit's points")
            .iter()
            .map(|p| p["test"].as_str().unwrap())
            .collect();
        points.sort_unstable();
        let mut own: Vec<String> = ["1000", "4000", "16000", "64000"]
            .iter()
            .map(|n| format!("scan::{ty}::{n}"))
            .collect();
        own.sort_unstable();
        assert_eq!(points, own, "{name} fits its own type's arguments");
    }
}
