//! End to end: what a parallel test runner (cargo-nextest: one process per
//! test, several at once) needs from a perf test binary — the machine-wide
//! measurement lock, and the noise floor shared within one nextest run.
//! The fixture's `perf` binary is run directly, as nextest runs it.
//! (That the workers of a paired comparison never take the lock their
//! coordinator holds is tests/paired.rs's business: it would deadlock.)

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;

mod support;
use support::report_json as report;
use support::{explain, fixture_dir, fixture_target_dir, stdout};

/// The fixture's `perf` test binary, built once.
fn perf_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .current_dir(fixture_dir())
            .args(["test", "--release", "--no-run", "--message-format=json"])
            .args(["--test", "perf"])
            .env("CARGO_TARGET_DIR", fixture_target_dir())
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "fixture build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["target"]["name"] == "perf")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the test executable")
    })
}

/// A fresh directory under the test target's scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `perf --exact custom_under` (synthetic timings: quick), reports in
/// `report_dir`, with `envs`.
fn command(report_dir: &Path, envs: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(perf_binary());
    cmd.current_dir(fixture_dir())
        .args(["--exact", "custom_under", "--report-dir"])
        .arg(report_dir);
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") || k.starts_with("NEXTEST") {
            cmd.env_remove(k);
        }
    }
    cmd.env("PERFMARK_MAX_TIME", "100ms")
        .env("PERFMARK_WARMUP", "10ms");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd
}

fn run(report_dir: &Path, envs: &[(&str, &str)]) -> Output {
    let out = command(report_dir, envs).output().expect("the binary runs");
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    out
}

#[test]
fn a_second_process_waits_for_the_machine_lock_and_says_how_long() {
    let locks = scratch("e2e-lock");
    let lock_dir = locks.to_str().unwrap();
    // A first run makes the lock file, and holds it only while it measures.
    let first = scratch("e2e-lock-first");
    run(&first, &[("PERFMARK_LOCK_DIR", lock_dir)]);
    let record = &report(&first)["machine_lock"];
    let path = PathBuf::from(record["path"].as_str().expect("the lock's path"));
    assert_eq!(path.parent(), Some(locks.as_path()));
    assert!(record["waited_s"].as_f64().unwrap() < 5.0);

    // Hold it as another measuring process would, and start a second run.
    let held = std::fs::File::options()
        .read(true)
        .write(true)
        .open(&path)
        .unwrap();
    held.lock().unwrap();
    let second = scratch("e2e-lock-second");
    let mut child = command(&second, &[("PERFMARK_LOCK_DIR", lock_dir)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (waiting, told) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.starts_with("waiting for another perfmark run measuring on this machine") {
                let _ = waiting.send(());
            }
            lines.push(line);
        }
        lines
    });
    told.recv_timeout(Duration::from_secs(120))
        .expect("the second run says it waits");
    std::thread::sleep(Duration::from_millis(300));
    drop(held);
    let out = child.wait_with_output().unwrap();
    let stderr_lines = reader.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(
        stderr_lines[0].ends_with(&format!("({})", path.display())),
        "{stderr_lines:?}"
    );
    let text = stdout(&out);
    assert!(
        text.contains("machine lock: waited ") && text.contains("for another perfmark run"),
        "{text}"
    );
    assert!(text.starts_with("perfmark 0.1.0 · "), "{text}");
    let waited = report(&second)["machine_lock"]["waited_s"]
        .as_f64()
        .unwrap();
    assert!(waited >= 0.3, "waited {waited} s");
}

#[test]
fn without_the_lock_nothing_is_waited_for() {
    let dir = scratch("e2e-no-lock");
    let out = command(&dir, &[])
        .arg("--no-lock")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(report(&dir)["machine_lock"].is_null());
    assert!(!report(&dir)["startup"].is_null());
}

#[test]
fn the_processes_of_one_nextest_run_share_the_noise_floor() {
    let locks = scratch("e2e-nextest-lock");
    let lock_dir = locks.to_str().unwrap();
    let run_id = format!("e2e-{}", std::process::id());
    let floor = |dir: &Path| report(dir)["noise_floor"].as_f64().unwrap();
    let shared = |dir: &Path| {
        report(dir)["startup"]["noise_floor_shared"]
            .as_bool()
            .unwrap()
    };

    let first = scratch("e2e-nextest-first");
    let out = run(
        &first,
        &[("PERFMARK_LOCK_DIR", lock_dir), ("NEXTEST_RUN_ID", &run_id)],
    );
    assert!(!shared(&first));
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.starts_with("start-up ") && l.ends_with("(measured)")),
        "{text}"
    );

    let second = scratch("e2e-nextest-second");
    let out = run(
        &second,
        &[("PERFMARK_LOCK_DIR", lock_dir), ("NEXTEST_RUN_ID", &run_id)],
    );
    assert!(shared(&second));
    assert_eq!(floor(&second), floor(&first));
    assert!(
        stdout(&out).contains("(shared by an earlier test of this nextest run)"),
        "{}",
        stdout(&out)
    );

    // Another run measures its own.
    let other = scratch("e2e-nextest-other");
    run(
        &other,
        &[
            ("PERFMARK_LOCK_DIR", lock_dir),
            ("NEXTEST_RUN_ID", "another"),
        ],
    );
    assert!(!shared(&other));
    // Outside nextest, nothing is shared and no start-up line is printed.
    let plain = scratch("e2e-nextest-plain");
    let out = run(&plain, &[("PERFMARK_LOCK_DIR", lock_dir)]);
    assert!(!shared(&plain));
    assert!(!stdout(&out).contains("start-up "));
}
