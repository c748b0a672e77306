//! End to end: threaded tests (`threads = [..]`) in the fixture's
//! `contention` target (tests/fixtures/basic/tests/contention.rs), built
//! and run as a user's crate is: a contended lock's time per iteration
//! grows with its threads and shared-nothing work's stays flat; the
//! scaling line reaches report.json and the console; each thread's time
//! and the team's placement are recorded; four threads on fewer CPUs are
//! said to share them; a panicking thread and a routine handed to `iter`
//! fail their tests; and the lock's budget fails when the lock is held
//! longer (the fixture's `head` build).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

mod support;
use support::{build_fixture, explain, stdout};
use support::{report_json as report, test_named};

fn base() -> &'static PathBuf {
    static BUILD: OnceLock<PathBuf> = OnceLock::new();
    BUILD.get_or_init(|| build_fixture("contention", &[], false, "contention-base"))
}

fn head() -> &'static PathBuf {
    static BUILD: OnceLock<PathBuf> = OnceLock::new();
    BUILD.get_or_init(|| build_fixture("contention", &["head"], false, "contention-head"))
}

/// Runs `exe ARGS` as cargo would, one run at a time, without the
/// machine-wide lock, writing its report to `report_dir` and comparing
/// with no stored baseline.
fn run(exe: &Path, args: &[&str], report_dir: &Path) -> Output {
    let report_dir = report_dir.to_str().expect("a UTF-8 temporary path");
    let args = [&["--no-baseline", "--report-dir", report_dir], args].concat();
    support::run_fixture(exe, &args, &[("PERFMARK_NO_LOCK", "1")])
}

fn ns(report: &serde_json::Value, name: &str) -> f64 {
    test_named(report, name)["estimate"]["ns_per_iter"]
        .as_f64()
        .unwrap_or_else(|| panic!("{name} has an estimate"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("perfmark-threads-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn each_thread_count_is_a_test_of_its_own() {
    let out = support::run_fixture(base(), &["--list"], &[]);
    let listed = stdout(&out);
    for name in [
        "locked::t1",
        "locked::t2",
        "atomic::t1",
        "atomic::t2",
        "own_work::t1",
        "own_work::t2",
        "crowded::t4",
        "every_cpu::t1",
        "every_cpu::tmax",
        "one_thread_hangs::t2",
    ] {
        assert!(
            listed.contains(&format!("{name}: test")),
            "{name}\n{listed}"
        );
    }
}

#[test]
fn a_contended_lock_grows_with_threads_and_shared_nothing_work_stays_flat() {
    let dir = scratch("scaling");
    let out = run(base(), &["locked", "own_work", "atomic"], &dir);
    assert!(out.status.success(), "{}", explain(&out));
    let r = report(&dir);
    let lock = ns(&r, "locked::t2") / ns(&r, "locked::t1");
    let own = ns(&r, "own_work::t2") / ns(&r, "own_work::t1");
    assert!(lock > 1.5, "a contended lock: t2/t1 = {lock:.2}");
    assert!(
        (0.7..1.4).contains(&own),
        "shared-nothing work: t2/t1 = {own:.2}"
    );
    // Each thread's own time and where the team ran.
    let team = &test_named(&r, "locked::t2")["threads"];
    assert_eq!(team["count"], 2, "{team}");
    assert_eq!(team["per_thread_ns"].as_array().unwrap().len(), 2, "{team}");
    assert_eq!(test_named(&r, "locked::t1")["threads"]["count"], 1);
    // The scaling lines, in report.json and on the console.
    let lines = r["scaling"].as_array().expect("scaling lines");
    let functions: Vec<&str> = lines
        .iter()
        .map(|l| l["function"].as_str().unwrap())
        .collect();
    assert_eq!(functions, ["atomic", "locked", "own_work"], "{lines:?}");
    let console = stdout(&out);
    assert!(
        console.contains("scaling locked: 1 thread ")
            && console.contains(" per iteration per thread"),
        "{console}"
    );
}

#[test]
fn more_threads_than_cpus_are_said_to_share_them() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let dir = scratch("crowded");
    let out = run(base(), &["crowded", "--no-processes"], &dir);
    assert!(out.status.success(), "{}", explain(&out));
    let r = report(&dir);
    let t = test_named(&r, "crowded::t4");
    let apart = t["threads"]["apart"].as_bool().unwrap();
    let warned = t["warnings"].as_array().unwrap().iter().any(|w| {
        w.as_str()
            .unwrap()
            .starts_with("4 threads, not each on a CPU of its own")
    });
    if cpus < 4 {
        assert!(!apart && warned, "{t}");
    } else {
        assert_eq!(apart, !warned, "{t}");
    }
}

#[test]
fn a_panicking_thread_and_the_wrong_form_fail_their_tests() {
    let dir = scratch("faults");
    let out = run(
        base(),
        &["one_thread_panics", "wrong_form", "--no-processes"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let r = report(&dir);
    let panicked = test_named(&r, "one_thread_panics::t2");
    assert_eq!(panicked["verdict"], "fail", "{panicked}");
    assert!(
        panicked["panic"]
            .as_str()
            .unwrap()
            .contains("a helper thread broke at call 10000"),
        "{panicked}"
    );
    let wrong = test_named(&r, "wrong_form::t2");
    assert_eq!(wrong["verdict"], "fail", "{wrong}");
    assert!(
        wrong["panic"]
            .as_str()
            .unwrap()
            .contains("hand its routine to `Bencher::iter_shared`"),
        "{wrong}"
    );
}

#[test]
fn the_locks_budget_fails_when_the_lock_is_held_longer() {
    let dir = scratch("base-budget");
    let out = run(base(), &["locked::t2", "--exact"], &dir);
    assert!(
        out.status.success(),
        "the base's lock within budget: {}",
        explain(&out)
    );
    let dir = scratch("head-budget");
    let out = run(head(), &["locked::t2", "--exact"], &dir);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let r = report(&dir);
    let t = test_named(&r, "locked::t2");
    // Over the budget by its CI, or by its estimate when the lock's
    // convoys (a holder preempted mid-section) widen the CI past it: either
    // fails the test.
    assert_eq!(t["verdict"], "fail", "{t}");
    let outcome = t["budget"]["outcome"].as_str().unwrap();
    assert!(matches!(outcome, "over" | "inconclusive_over"), "{t}");
}

#[test]
fn tmax_runs_on_every_cpu_there_is() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let dir = scratch("tmax");
    let out = run(base(), &["every_cpu", "--no-processes"], &dir);
    assert!(out.status.success(), "{}", explain(&out));
    let r = report(&dir);
    let team = &test_named(&r, "every_cpu::tmax")["threads"];
    assert_eq!(team["count"], cpus, "{team}");
    let line = &r["scaling"][0];
    assert_eq!(line["function"], "every_cpu", "{line}");
    assert_eq!(line["points"][1]["test"], "every_cpu::tmax", "{line}");
}

#[test]
fn a_hung_thread_is_bounded_by_the_watchdog() {
    let dir = scratch("hung");
    let started = std::time::Instant::now();
    let out = run(
        base(),
        &[
            "one_thread_hangs::t2",
            "--exact",
            "--timeout",
            "2s",
            "--no-processes",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let text = stdout(&out);
    assert!(
        text.contains("test one_thread_hangs::t2 ... FAILED"),
        "{text}"
    );
    assert!(text.contains("did not return within 2 s"), "{text}");
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}
