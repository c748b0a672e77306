//! The fault sweep, end to end: the fixture's `faults` test binary
//! (tests/fixtures/basic/tests/faults.rs) run directly, the way cargo runs
//! it, under faults of its files, its signals and its tests. Each case
//! checks the exit status, the message the user sees, and that no baseline
//! or report file was torn: each is absent, as it was, or new and complete
//! (parsed with perfmark's own readers). docs/robustness.md lists what the
//! user sees for each.
//!
//! A full disk and a read-only directory need root (to mount a small
//! tmpfs: root ignores permission bits). Without it, the read-only cases
//! fall back to permission bits, and the full-disk cases say loudly on
//! stderr that they were not tried.
//!
//! The faults are Linux's (signals, permission bits, a tmpfs mount,
//! `/dev/full`, `/proc/PID/fd`, errno's texts): elsewhere the sweep is not
//! compiled.
#![cfg(target_os = "linux")]

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use cargo_perfmark::report as json;
use perfmark_core::baseline::BaselineStore;

mod support;
use support::{explain, fixture_dir, fixture_target_dir, result_lines, stdout};

/// The fixture's `faults` test binary, built once in release (baselines are
/// only saved from optimized builds).
fn binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .current_dir(fixture_dir())
            .args(["test", "--release", "--no-run", "--message-format=json"])
            .args(["--test", "faults"])
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
            .filter(|m| m["target"]["name"] == "faults")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the test executable")
    })
}

/// The binary with `args`, its environment free of `PERFMARK_*` but for
/// `envs`.
fn command(args: &[&str], envs: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(binary());
    cmd.args(args);
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("PERFMARK_") || k == "GITHUB_STEP_SUMMARY" {
            cmd.env_remove(k);
        }
    }
    cmd.envs(envs.iter().copied());
    cmd
}

fn run(args: &[&str], envs: &[(&str, &str)]) -> Output {
    command(args, envs).output().expect("the fixture runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh directory for one case.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("faults")
        .join(name);
    if dir.exists() {
        // A mount left by an aborted run of this test.
        let _ = Command::new("umount").arg("-l").arg(&dir).status();
        let _ = fs::remove_dir_all(&dir);
    }
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// `--baseline-dir B --report-dir R` for a case's directories.
fn dirs<'a>(baselines: &'a Path, reports: &'a Path) -> [&'a str; 4] {
    [
        "--baseline-dir",
        baselines.to_str().expect("UTF-8 path"),
        "--report-dir",
        reports.to_str().expect("UTF-8 path"),
    ]
}

/// Every file under `dir` with its bytes (nothing when it is missing).
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(listing) = fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    listing
        .map(|e| {
            let e = e.expect("an entry");
            let bytes = fs::read(e.path()).unwrap_or_default();
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

/// No baseline or report file in these directories is torn: the baseline
/// file loads, `report.json` reads, and no temporary file of a write is
/// left. Returns how many files were checked.
fn assert_not_torn(baselines: &Path, reports: &Path) -> usize {
    let mut checked = 0;
    if baselines.join("faults.json").is_file() {
        BaselineStore::new(baselines)
            .load("faults")
            .unwrap_or_else(|e| panic!("the baseline file is damaged: {e}"));
        checked += 1;
    }
    if reports.join("report.json").is_file() {
        json::read(&reports.join("report.json"))
            .unwrap_or_else(|e| panic!("report.json is damaged: {e}"));
        checked += 1;
    }
    for dir in [baselines, reports] {
        let temps: Vec<String> = snapshot(dir)
            .into_keys()
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(
            temps.is_empty(),
            "temporary files left in {dir:?}: {temps:?}"
        );
    }
    checked
}

/// Records a baseline of `steady` and a report in fresh directories, so a
/// fault can be shown to leave them as they were.
fn recorded(name: &str) -> (PathBuf, PathBuf) {
    let root = scratch(name);
    let (baselines, reports) = (root.join("baselines"), root.join("reports"));
    let out = run(
        &[
            &["--exact", "steady", "--save-baseline"][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(assert_not_torn(&baselines, &reports), 2);
    (baselines, reports)
}

// ---------------------------------------------------------------------------
// A small tmpfs, for a full disk and a read-only directory

/// A tmpfs mounted on a directory for one case; unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` on `dir`; `None` when this process may not
    /// mount (not root, or no mount namespace of its own to do it in).
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(Stdio::null())
            .status()
            .ok()?;
        status.success().then(|| Tmpfs(dir.to_owned()))
    }

    fn remount_read_only(&self) {
        let status = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status()
            .expect("mount runs");
        assert!(status.success(), "remount read-only");
    }

    /// Fills the file system up with one file.
    fn fill(&self) {
        let mut filler = File::create(self.0.join("filler")).expect("create the filler");
        let chunk = [0u8; 4096];
        while filler.write_all(&chunk).is_ok() {}
        let _ = filler.sync_all();
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Says on the real stderr (not captured by the test harness) that a case
/// could not be tried here, so a pass is not mistaken for a proof; where
/// every case must be tried (`PERFMARK_REQUIRE_FAULTS=1`, set by `.ci/run`,
/// which runs as root), fails instead.
fn loudly_not_tried(case: &str, why: &str) {
    assert!(
        std::env::var_os("PERFMARK_REQUIRE_FAULTS").is_none(),
        "fault sweep: `{case}` could not be tried ({why}), and PERFMARK_REQUIRE_FAULTS is set"
    );
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! fault sweep: `{case}` NOT TRIED: {why}\n"
    );
}

/// A copy of the recorded baseline and report directories on a fresh
/// tmpfs of `size`, or `None` when no tmpfs can be mounted here.
fn recorded_on_tmpfs(name: &str, size: &str) -> Option<(Tmpfs, PathBuf, PathBuf)> {
    let (old_baselines, old_reports) = recorded(&format!("{name}-source"));
    let mount = scratch(name);
    let tmpfs = Tmpfs::mount(&mount, size)?;
    let (baselines, reports) = (mount.join("baselines"), mount.join("reports"));
    for (from, to) in [(&old_baselines, &baselines), (&old_reports, &reports)] {
        fs::create_dir_all(to).unwrap();
        for (name, bytes) in snapshot(from) {
            fs::write(to.join(name), bytes).unwrap();
        }
    }
    Some((tmpfs, baselines, reports))
}

// ---------------------------------------------------------------------------
// The baseline directory

#[test]
fn a_baseline_directory_that_is_a_file() {
    let root = scratch("dir-is-a-file");
    let baselines = root.join("baselines");
    fs::write(&baselines, b"a regular file").unwrap();
    let reports = root.join("reports");
    // Saving: the directory cannot be created.
    let out = run(
        &[
            &["--exact", "steady", "--save-baseline"][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "error: {}: cannot create the baseline directory",
            baselines.display()
        )) && err.contains("--baseline-dir DIR"),
        "{}",
        explain(&out)
    );
    // The measured test itself passed: its line says so.
    assert_eq!(result_lines(&out), ["test steady ... ok"]);
    // Comparing: the file under it cannot be read.
    let out = run(
        &[&["--exact", "steady"][..], &dirs(&baselines, &reports)].concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert!(
        stderr(&out).contains(
            "cannot read the baseline file, its directory is not a directory: Not a directory \
             (os error 20); choose a writable directory with --baseline-dir DIR"
        ),
        "{}",
        explain(&out)
    );
    assert_eq!(fs::read(&baselines).unwrap(), b"a regular file");
    assert_not_torn(&root.join("none"), &reports);
}

#[test]
fn a_read_only_baseline_directory() {
    let case = "a read-only baseline directory";
    let (guard, baselines, reports) = match recorded_on_tmpfs("read-only", "1m") {
        Some((tmpfs, b, r)) => {
            tmpfs.remount_read_only();
            (Some(tmpfs), b, r)
        }
        None => {
            // Permission bits stop everyone but root.
            let (b, r) = recorded("read-only-bits");
            let mut mode = fs::metadata(&b).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut mode, 0o555);
            fs::set_permissions(&b, mode).unwrap();
            if File::create(b.join("probe")).is_ok() {
                loudly_not_tried(case, "not root and permission bits do not stop this user");
                return;
            }
            (None, b, r)
        }
    };
    let before = snapshot(&baselines);
    // Comparing reads it and works.
    let out = run(
        &[&["--exact", "steady"][..], &dirs(&baselines, &reports)].concat(),
        &[],
    );
    if guard.is_some() {
        // The report directory is on the read-only tmpfs too.
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        assert!(
            stderr(&out).contains("Read-only file system"),
            "{}",
            explain(&out)
        );
    } else {
        assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    }
    // Unchanged code (its times are synthetic), with the machine's move
    // between the two processes allowed for.
    assert!(
        stdout(&out).contains("vs baseline: no significant change"),
        "{}",
        explain(&out)
    );
    // Saving fails, naming the directory, and changes nothing.
    let out = run(
        &[
            &["--exact", "steady", "--save-baseline"][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("error: {}", baselines.display()))
            && (err.contains("Read-only file system") || err.contains("Permission denied"))
            && err.contains("--baseline-dir DIR"),
        "{}",
        explain(&out)
    );
    assert_eq!(snapshot(&baselines), before, "the baselines changed");
    assert_eq!(assert_not_torn(&baselines, &reports), 2);
    drop(guard);
}

#[test]
fn a_full_disk_under_the_baselines_and_the_reports() {
    let case = "a full disk";
    let Some((tmpfs, baselines, reports)) = recorded_on_tmpfs("full", "256k") else {
        loudly_not_tried(case, "mounting a 256 KiB tmpfs needs root");
        return;
    };
    tmpfs.fill();
    let before = (snapshot(&baselines), snapshot(&reports));
    let out = run(
        &[
            &["--exact", "steady", "--save-baseline"][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "error: {}: cannot write the baseline file: No space left on device",
            baselines.join("faults.json").display()
        )),
        "{}",
        explain(&out)
    );
    assert!(
        err.contains(&format!(
            "error: cannot write {}: No space left on device (os error 28); choose another \
             place with --report-dir DIR",
            reports.join("report.json").display()
        )),
        "{}",
        explain(&out)
    );
    assert_eq!((snapshot(&baselines), snapshot(&reports)), before);
    assert_eq!(assert_not_torn(&baselines, &reports), 2);
}

// ---------------------------------------------------------------------------
// The report directory

#[test]
fn an_unwritable_report_directory() {
    let root = scratch("report-unwritable");
    let blocker = root.join("a-file");
    fs::write(&blocker, b"x").unwrap();
    let reports = blocker.join("reports");
    let out = run(
        &[
            "--exact",
            "steady",
            "--no-baseline",
            "--report-dir",
            reports.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test steady ... ok"]);
    assert!(
        stderr(&out).contains(&format!(
            "error: cannot write {}: Not a directory (os error 20); choose another place with \
             --report-dir DIR",
            reports.display()
        )),
        "{}",
        explain(&out)
    );
    // The closing line still comes, after the error.
    assert!(
        support::result_summary(&out).starts_with("test result: ok. 1 passed; 0 failed;"),
        "{}",
        explain(&out)
    );
    // A step summary that cannot be appended to (`/dev/full`) is an error too.
    let reports = root.join("reports");
    let out = run(
        &[
            "--exact",
            "steady",
            "--no-baseline",
            "--report-dir",
            reports.to_str().unwrap(),
        ],
        &[("GITHUB_STEP_SUMMARY", "/dev/full")],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert!(
        stderr(&out).contains(
            "error: cannot append the Markdown summary to $GITHUB_STEP_SUMMARY (/dev/full): No \
             space left on device (os error 28); the reports were written"
        ),
        "{}",
        explain(&out)
    );
    assert_eq!(assert_not_torn(&root.join("none"), &reports), 1);
}

// ---------------------------------------------------------------------------
// Signals

/// Sends `signal` (`INT`, `TERM`) to `child`.
fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{signal}");
}

/// Waits (up to a minute) until `child` has `path` open: then it is inside
/// the save, waiting for the lock.
fn wait_until_open(child: &Child, path: &Path) {
    let fds = PathBuf::from(format!("/proc/{}/fd", child.id()));
    // The kernel names open files by their canonical path.
    let path = fs::canonicalize(path).expect("the lock file exists");
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        let open = fs::read_dir(&fds)
            .into_iter()
            .flatten()
            .flatten()
            .any(|fd| fs::read_link(fd.path()).is_ok_and(|target| target == path));
        if open {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("the save never opened {path:?}");
}

/// Reads `child`'s stdout until it contains `text`; returns what was read.
fn read_until(child: &mut Child, text: &str) -> String {
    let out = child.stdout.as_mut().expect("piped stdout");
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !String::from_utf8_lossy(&seen).contains(text) {
        match out.read(&mut byte) {
            Ok(1) => seen.push(byte[0]),
            _ => panic!(
                "the output ended before {text:?}:\n{}",
                String::from_utf8_lossy(&seen)
            ),
        }
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[test]
fn sigint_and_sigterm_during_a_save() {
    for sig in ["INT", "TERM"] {
        let (baselines, reports) = recorded(&format!("signal-save-{sig}"));
        let before = (snapshot(&baselines), snapshot(&reports));
        // Hold the save's lock: the run then waits inside its save.
        let lock_path = baselines.join(".faults.json.lock");
        let lock = File::create(&lock_path).unwrap();
        lock.lock().unwrap();
        let child = command(
            &[
                &["--exact", "steady", "--save-baseline"][..],
                &dirs(&baselines, &reports),
            ]
            .concat(),
            &[],
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixture starts");
        wait_until_open(&child, &lock_path);
        signal(&child, sig);
        let out = child.wait_with_output().unwrap();
        let number = if sig == "INT" { 2 } else { 15 };
        assert_eq!(out.status.signal(), Some(number), "{}", explain(&out));
        assert_eq!(
            result_lines(&out),
            ["test steady ... ok"],
            "{}",
            explain(&out)
        );
        drop(lock);
        let _ = fs::remove_file(&lock_path);
        assert_eq!((snapshot(&baselines), snapshot(&reports)), before);
        assert_eq!(assert_not_torn(&baselines, &reports), 2);
        // The next save is not blocked by anything the killed one left.
        let out = run(
            &[
                &["--exact", "steady", "--save-baseline"][..],
                &dirs(&baselines, &reports),
            ]
            .concat(),
            &[],
        );
        assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    }
}

#[test]
fn sigint_and_sigterm_during_a_measurement() {
    for sig in ["INT", "TERM"] {
        let (baselines, reports) = recorded(&format!("signal-measure-{sig}"));
        let before = (snapshot(&baselines), snapshot(&reports));
        let mut child = command(
            &[
                &["--exact", "measures_long", "--save-baseline"][..],
                &dirs(&baselines, &reports),
            ]
            .concat(),
            &[],
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fixture starts");
        // The line is printed (and flushed) just before the measurement.
        read_until(&mut child, "test measures_long ... ");
        signal(&child, sig);
        let status = child.wait().unwrap();
        let number = if sig == "INT" { 2 } else { 15 };
        assert_eq!(status.signal(), Some(number), "{status:?}");
        assert_eq!((snapshot(&baselines), snapshot(&reports)), before);
        assert_eq!(assert_not_torn(&baselines, &reports), 2);
    }
}

// ---------------------------------------------------------------------------
// Tests that go wrong

#[test]
fn a_test_whose_setup_panics() {
    let root = scratch("setup-panics");
    let (baselines, reports) = (root.join("baselines"), root.join("reports"));
    let out = run(
        &[
            &["--skip", "never", "--skip", "overflows", "--skip", "long"][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        ["test setup_panics ... FAILED", "test steady ... ok"]
    );
    let text = stdout(&out);
    assert!(
        text.contains("panicked: setup: the input file cannot be read"),
        "{text}"
    );
    assert!(
        text.contains("---- setup_panics ----\npanicked at tests/faults.rs:"),
        "{text}"
    );
    assert!(text.contains("failures:\n    setup_panics"), "{text}");
    assert_eq!(assert_not_torn(&baselines, &reports), 1);
    let report = json::read(&reports.join("report.json")).unwrap();
    assert_eq!(report.tests[0].name, "setup_panics");
    assert_eq!(report.tests[0].verdict.as_str(), "fail");
}

#[test]
fn a_test_that_never_returns_is_stopped_and_named() {
    let (baselines, reports) = recorded("never-returns");
    let before = snapshot(&baselines);
    let started = Instant::now();
    let out = run(
        &[
            &[
                "--skip",
                "overflows",
                "--skip",
                "setup",
                "--skip",
                "long",
                "--timeout",
                "2s",
            ][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[],
    );
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    // It is stopped, and `steady`, after it, is not run beside it.
    assert_eq!(result_lines(&out), ["test never_returns ... FAILED"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "did not return within 2 s (--timeout / PERFMARK_TIMEOUT): stopped, and the run \
             with it"
        ),
        "{text}"
    );
    assert!(
        text.contains("run stopped: 1 test(s) after it were not run"),
        "{text}"
    );
    assert!(text.contains("failures:\n    never_returns"), "{text}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
    assert_eq!(snapshot(&baselines), before);
    assert_eq!(assert_not_torn(&baselines, &reports), 2);
    let report = json::read(&reports.join("report.json")).unwrap();
    assert_eq!(report.tests.len(), 1);
    assert!(report.tests[0].reasons[0]
        .text
        .starts_with("did not return within 2 s"));
    // The variable sets the bound too.
    let out = run(
        &[
            &["--exact", "never_returns"][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[("PERFMARK_TIMEOUT", "1s")],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert!(
        stdout(&out).contains("did not return within 1 s"),
        "{}",
        explain(&out)
    );
}

#[test]
fn a_stack_overflow_names_its_test() {
    let (baselines, reports) = recorded("stack-overflow");
    let before = (snapshot(&baselines), snapshot(&reports));
    let out = run(
        &[
            &["--exact", "overflows_stack", "--save-baseline"][..],
            &dirs(&baselines, &reports),
        ]
        .concat(),
        &[],
    );
    // Rust aborts the process on a stack overflow; no handler runs.
    assert_eq!(out.status.signal(), Some(6), "{}", explain(&out));
    assert!(
        // `thread 'overflows_stack' (4242) has overflowed its stack`: the
        // thread id in parentheses is there in newer Rust releases.
        stderr(&out)
            .lines()
            .any(|l| l.starts_with("thread 'overflows_stack' ")
                && l.ends_with(" has overflowed its stack")),
        "{}",
        explain(&out)
    );
    assert!(
        stdout(&out).ends_with("test overflows_stack ... "),
        "{}",
        explain(&out)
    );
    assert_eq!((snapshot(&baselines), snapshot(&reports)), before);
    assert_eq!(assert_not_torn(&baselines, &reports), 2);
}
