//! End to end: the checks beyond time, on the fixture's `checks` and
//! `own_alloc` targets (tests/fixtures/basic/tests/): allocation limits
//! (`allocs = N`: 0, 1 and N allocations, a setup that allocates while its
//! routine does not, a thread the routine starts) and CPU time
//! (`measure = "cpu"`: a sleeping routine passes a CPU budget and fails the
//! same wall budget; baselines never compare across clocks).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod support;
use support::{explain, fixture_dir, fixture_target_dir, result_lines, stdout};
use support::{report_json as report, test_named as test};

/// Runs `cargo test --release --test TARGET -- ARGS` in the fixture crate,
/// with nothing else of this file running.
fn cargo_target(target: &str, args: &[&str]) -> Output {
    let _alone = support::alone();
    build_once();
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(fixture_dir())
        .args(["test", "--release", "--test", target, "--"])
        .args(args)
        .env("CARGO_TARGET_DIR", fixture_target_dir());
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") {
            cmd.env_remove(k);
        }
    }
    cmd.output().expect("cargo runs")
}

/// Builds both targets once (the tests of this file run in parallel).
fn build_once() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .current_dir(fixture_dir())
            .args(["test", "--release", "--no-run", "--quiet"])
            .args(["--test", "checks", "--test", "own_alloc"])
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

/// A fresh directory under the target's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("e2e-checks")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn allocation_limits_pass_and_fail_on_exact_counts() {
    let dir = scratch("allocs");
    // Every check's sentence is --verbose's.
    let out = cargo_target(
        "checks",
        &["alloc_", "--verbose", "--report-dir", dir.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        [
            "test alloc_five ... ok",
            "test alloc_five_over ... FAILED",
            "test alloc_in_a_thread ... ok",
            "test alloc_in_setup_only ... ok",
            "test alloc_in_setup_only_ref ... ok",
            "test alloc_none ... ok",
            "test alloc_one ... ok",
            "test alloc_one_over ... FAILED",
        ],
        "{}",
        explain(&out)
    );
    let text = stdout(&out);
    for line in [
        "within allocation limit 0: 0 allocations per iteration",
        "within allocation limit 1: 1 allocation (48 B) per iteration",
        "within allocation limit 5: 5 allocations (64 B) per iteration",
        "over allocation limit 0: 1 allocation (48 B) per iteration, counted over ",
        "over allocation limit 4: 5 allocations (64 B) per iteration, counted over ",
        "heap: 0 allocations per iteration (counted untimed over ",
    ] {
        assert!(text.contains(line), "no {line:?} in\n{text}");
    }
    assert!(text.contains("heap profiler"), "{text}");
    assert!(
        text.contains("failures:\n    alloc_five_over\n    alloc_one_over"),
        "{text}"
    );

    let report = report(&dir);
    let expect = [
        ("alloc_none", 0.0, 0.0, Some(0)),
        ("alloc_one", 1.0, 48.0, Some(1)),
        ("alloc_one_over", 1.0, 48.0, Some(0)),
        ("alloc_five", 5.0, 64.0, Some(5)),
        ("alloc_five_over", 5.0, 64.0, Some(4)),
        ("alloc_in_setup_only", 0.0, 0.0, Some(0)),
        ("alloc_in_setup_only_ref", 0.0, 0.0, Some(0)),
    ];
    for (name, allocs, bytes, limit) in expect {
        let a = &test(&report, name)["allocations"];
        assert_eq!(a["allocs_per_iter"], allocs, "{name}: {a}");
        assert_eq!(a["bytes_per_iter"], bytes, "{name}: {a}");
        assert_eq!(a["limit"].as_u64(), limit, "{name}: {a}");
        assert!(a["iterations"].as_u64().unwrap() >= 1, "{name}: {a}");
    }
    // The thread's megabyte is counted: only the thread allocated it.
    let thread = &test(&report, "alloc_in_a_thread")["allocations"];
    assert!(
        thread["bytes_per_iter"].as_f64().unwrap() >= f64::from(1 << 20),
        "{thread}"
    );
    assert!(thread["limit"].is_null(), "{thread}");
}

#[test]
fn an_allocator_of_the_crates_own_is_wrapped_and_still_used() {
    let out = cargo_target("own_alloc", &["--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test own_alloc_one ... ok"]);
    assert!(
        stdout(&out).contains("within allocation limit 1: 1 allocation (8 B) per iteration"),
        "{}",
        explain(&out)
    );
    assert!(!stdout(&out).contains("allocations are not counted"));
}

#[test]
fn a_sleeping_routine_passes_a_cpu_budget_and_fails_the_same_wall_budget() {
    let dir = scratch("cpu");
    let out = cargo_target(
        "checks",
        &["sleep_", "--verbose", "--report-dir", dir.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        ["test sleep_cpu ... ok", "test sleep_wall ... FAILED"],
        "{}",
        explain(&out)
    );
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("cpu timer (measure = \"cpu\"): thread CPU time, resolution ")),
        "{text}"
    );
    assert!(
        text.contains("times are thread CPU time (measure = \"cpu\") · wall median "),
        "{text}"
    );
    assert!(text.contains("over budget 100.0 µs"), "{text}");

    let report = report(&dir);
    assert!(
        report["platform"]["cpu_clock"]["overhead_ns"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    let cpu = test(&report, "sleep_cpu");
    assert_eq!(cpu["measure"], "cpu");
    let cpu_ns = cpu["estimate"]["ns_per_iter"].as_f64().unwrap();
    let wall_ns = cpu["wall_ns_per_iter"].as_f64().unwrap();
    // The sleep is in the wall time and not in the CPU time.
    assert!(wall_ns >= 200_000.0 && cpu_ns < 100_000.0, "{cpu}");
    let wall = test(&report, "sleep_wall");
    assert_eq!(wall["measure"], "wall");
    assert!(wall["wall_ns_per_iter"].is_null(), "{wall}");
    assert!(wall["estimate"]["ns_per_iter"].as_f64().unwrap() >= 200_000.0);
}

#[test]
fn a_baseline_is_never_compared_across_clocks() {
    let dir = scratch("clock-baseline");
    let d = dir.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["--exact", "sleep_cpu", "--baseline-dir", d];
        args.extend_from_slice(extra);
        cargo_target("checks", &args)
    };
    // The save needs a bounded CI, which a sleeping body's CPU time may not
    // give on a loaded machine (serially correlated samples): this test is
    // about the clocks, so the save is tried up to three times.
    let file = dir.join("checks.json");
    let mut out = run(&["--save-baseline"]);
    for _ in 0..2 {
        assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
        if file.exists() {
            break;
        }
        out = run(&["--save-baseline"]);
    }
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let text = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("{}: {e}\n{}", file.display(), explain(&out)));
    let mut saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["tests"]["sleep_cpu"]["clock"], "cpu", "{saved}");

    // The same clock: compared (whatever the comparison finds: CPU time
    // between processes is not the point here).
    let out = run(&[]);
    assert!(stdout(&out).contains("vs baseline"), "{}", explain(&out));

    // An entry of the wall clock (as every file written before the field
    // had): not used, and said so.
    let entry = &mut saved["tests"]["sleep_cpu"];
    entry.as_object_mut().unwrap().remove("clock");
    std::fs::write(&file, serde_json::to_string_pretty(&saved).unwrap()).unwrap();
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    // By default a mark says the baseline was not used, --verbose why.
    assert!(
        stdout(&out).contains("! baseline not used (--verbose says why)"),
        "{}",
        explain(&out)
    );
    let out = run(&["--verbose"]);
    assert!(
        stdout(&out).contains(
            "baseline not used: it records wall-clock time, this test measures thread CPU time; \
             re-record with --save-baseline"
        ),
        "{}",
        explain(&out)
    );
}
