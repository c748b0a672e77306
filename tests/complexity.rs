//! End to end: `complexity = "…"` on real routines (a linear scan, a sort,
//! a quadratic loop) and Falco's per-call sampling, in the fixture's
//! `complexity` target (tests/fixtures/basic/tests/complexity.rs), built and
//! run by cargo as a user's crate is.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

mod support;
use support::{explain, fixture_dir, fixture_target_dir, result_lines, result_summary, stdout};
use support::{report_json as report, test_named};

/// Runs `cargo test [--release] --test complexity -- ARGS` in the fixture,
/// building it first if need be, with nothing else of this file running.
fn run(release: bool, args: &[&str]) -> Output {
    let _alone = support::alone();
    build_once(release);
    let mut cmd = Command::new(env!("CARGO"));
    // Not `cargo test --quiet`, which the binary would read as libtest's
    // terse output.
    cmd.current_dir(fixture_dir()).arg("test");
    if release {
        cmd.arg("--release");
    }
    cmd.args(["--test", "complexity", "--"]).args(args);
    cmd.env("CARGO_TARGET_DIR", fixture_target_dir());
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") || k.starts_with("NEXTEST") {
            cmd.env_remove(k);
        }
    }
    cmd.output().expect("cargo runs")
}

fn build_once(release: bool) {
    static RELEASE: OnceLock<()> = OnceLock::new();
    static DEBUG: OnceLock<()> = OnceLock::new();
    let once = if release { &RELEASE } else { &DEBUG };
    once.get_or_init(|| {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.current_dir(fixture_dir()).args([
            "test",
            "--no-run",
            "--quiet",
            "--test",
            "complexity",
        ]);
        if release {
            cmd.arg("--release");
        }
        let out = cmd
            .env("CARGO_TARGET_DIR", fixture_target_dir())
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "fixture build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

#[test]
fn each_complexity_test_is_listed_after_its_arguments() {
    let out = run(true, &["--list", "--format", "terse", "scan"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(
        stdout(&out),
        "scan::1000: test\nscan::16000: test\nscan::4000: test\nscan::64000: test\n\
         scan::complexity: test\n"
    );
    let out = run(true, &["--list", "complexity"]);
    let text = stdout(&out);
    let listed: Vec<&str> = text.lines().collect();
    assert_eq!(
        listed,
        [
            "pairs::complexity: test",
            "pairs_declared_linear::complexity: test",
            "scan::complexity: test",
            "sort::complexity: test",
            "",
            "4 tests, 0 benchmarks"
        ]
    );
}

#[test]
fn real_routines_pass_their_class_and_a_wrong_declaration_fails() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-complexity");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(
        true,
        &[
            "--skip",
            "per_call",
            "--verbose",
            "--report-dir",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let lines = result_lines(&out);
    for (name, word) in [
        ("scan::complexity", "ok"),
        ("sort::complexity", "ok"),
        ("pairs::complexity", "ok"),
        ("pairs_declared_linear::complexity", "FAILED"),
    ] {
        assert!(
            lines.contains(&format!("test {name} ... {word}")),
            "{name} {word}: {}",
            explain(&out)
        );
    }
    let failed: Vec<&String> = lines.iter().filter(|l| l.ends_with("FAILED")).collect();
    assert_eq!(failed.len(), 1, "{}", explain(&out));
    // Each complexity test comes right after its function's last argument.
    let at = |name: &str| {
        lines
            .iter()
            .position(|l| l.starts_with(&format!("test {name} ")))
    };
    assert_eq!(at("scan::complexity"), at("scan::64000").map(|i| i + 1));
    let text = stdout(&out);
    assert!(
        text.contains("declared O(n) does not hold: the time grows n^+"),
        "{text}"
    );
    assert!(text.contains("best fit O(n^2)"), "{text}");
    assert!(text.contains("declared O(n log n) holds"), "{text}");
    assert!(
        text.contains("candidates (relative rms of t = a + c·g(n)): 1 "),
        "{text}"
    );
    assert!(
        result_summary(&out).starts_with("test result: FAILED. 22 passed; 1 failed; 0 ignored;"),
        "{text}"
    );

    let report = report(&dir);
    assert_eq!(test_named(&report, "sort::16000")["size"], 16000);
    let c = &test_named(&report, "pairs_declared_linear::complexity")["complexity"];
    assert_eq!(c["declared"], "n");
    assert_eq!(c["fitted"], "n^2");
    assert_eq!(c["fails"], true);
    assert_eq!(c["points"].as_array().unwrap().len(), 7);
    assert_eq!(c["candidates"].as_array().unwrap().len(), 6);
    let k = c["exponent"].as_f64().unwrap();
    assert!((1.6..2.4).contains(&k), "exponent {k}");
    // The reused measurements are the arguments' own.
    let points = c["points"].as_array().unwrap();
    let p4096 = points.iter().find(|p| p["size"] == 4096).unwrap();
    assert_eq!(
        p4096["ns_per_iter"],
        test_named(&report, "pairs_declared_linear::4096")["estimate"]["ns_per_iter"]
    );
}

#[test]
fn a_complexity_test_alone_measures_its_arguments_itself() {
    // As nextest runs it: one test per process, named exactly.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-complexity-alone");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(
        true,
        &[
            "--exact",
            "pairs_declared_linear::complexity",
            "--report-dir",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        ["test pairs_declared_linear::complexity ... FAILED"]
    );
    let report = report(&dir);
    assert_eq!(report["tests"].as_array().unwrap().len(), 1);
    let c = &report["tests"][0]["complexity"];
    let sizes: Vec<u64> = c["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["size"].as_u64().unwrap())
        .collect();
    assert_eq!(sizes, [1024, 128, 2048, 256, 4096, 512, 64]);
}

#[test]
fn an_unoptimized_build_does_not_check_complexity() {
    let out = run(false, &["scan"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(
        result_lines(&out).contains(&"test scan::complexity ... ok".to_owned()),
        "{}",
        explain(&out)
    );
    let text = stdout(&out);
    assert_eq!(
        text.matches("not measured: unoptimized build").count(),
        5,
        "{text}"
    );
}

#[test]
fn per_call_sampling_decides_on_the_mean_and_says_so() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-per-call");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(
        true,
        &[
            "--exact",
            "per_call",
            "--verbose",
            "--report-dir",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let text = stdout(&out);
    assert!(text.contains("\n    mean "), "{text}");
    assert!(
        text.contains("per-call sampling (Falco): each call timed alone after a random wait"),
        "{text}"
    );
    assert!(
        text.contains("only the mean is meaningful, not the median"),
        "{text}"
    );
    assert!(text.contains("within budget 10.00 ms"), "{text}");
    let report = report(&dir);
    let t = &report["tests"][0];
    assert_eq!(t["estimate"]["statistic"], "mean");
    assert_eq!(t["measurement"]["kind"], "per_call");
}
