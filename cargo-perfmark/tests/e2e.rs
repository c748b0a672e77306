//! End to end: the built `cargo-perfmark` binary in a fresh user crate
//! outside this workspace (set up as perfmark's README shows, committed to
//! a git repository of its own): `baseline` writes the baseline file with
//! the between-run spread, `compare` exits 0 on an unchanged tree and 101
//! on a slowed one, both draw the pages of the reports their runs wrote,
//! `report` draws the page the test binary no longer writes, and a wrong
//! command line exits 2. The timings are synthetic (`iter_custom`), so
//! every verdict is deterministic on a noisy machine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// perfmark's workspace root: the user crate's path dependency.
fn perfmark_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cargo-perfmark is in the workspace")
        .to_owned()
}

/// One target directory for every build here, under this workspace's
/// `target/`, so perfmark is compiled once (and once more for the bases).
fn shared_target_dir() -> PathBuf {
    perfmark_root().join("target").join("cargo-perfmark-e2e")
}

/// The test file, its `slowed` test taking `slowed_ns` per iteration.
fn perf_rs(slowed_ns: u64) -> String {
    format!(
        r#"use perfmark::{{perf_test, Bencher}};
use std::time::Duration;

#[perf_test]
fn steady(b: &mut Bencher) {{
    b.iter_custom(|iters| Duration::from_nanos(100 * iters));
}}

#[perf_test]
fn slowed(b: &mut Bencher) {{
    b.iter_custom(|iters| Duration::from_nanos({slowed_ns} * iters));
}}

perfmark::main!();
"#
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "perfmark")
        .env("GIT_AUTHOR_EMAIL", "perfmark@example.invalid")
        .env("GIT_COMMITTER_NAME", "perfmark")
        .env("GIT_COMMITTER_EMAIL", "perfmark@example.invalid")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", explain(&out));
}

/// A user's crate, the package `package`, in a fresh directory under the
/// system's temp dir, committed with `slowed` at 100 ns.
fn user_crate(package: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "cargo-perfmark-e2e-{package}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let perfmark = perfmark_root();
    write(
        &dir.join("Cargo.toml"),
        &format!(
            r#"[package]
name = "{package}"
version = "0.1.0"
edition = "2021"
publish = false

[dev-dependencies]
perfmark = {{ path = {:?} }}

[[test]]
name = "perf"
harness = false
"#,
            perfmark.display().to_string()
        ),
    );
    write(&dir.join("src/lib.rs"), "");
    write(&dir.join("tests/perf.rs"), &perf_rs(100));
    write(&dir.join(".gitignore"), "/target\n");
    git(&dir, &["init", "--quiet"]);
    git(&dir, &["add", "."]);
    git(&dir, &["commit", "--quiet", "-m", "perf tests"]);
    dir
}

fn cargo_perfmark(dir: &Path, args: &[&str]) -> Output {
    cargo_perfmark_into(dir, &shared_target_dir(), args)
}

/// `cargo perfmark ARGS` in `dir` with `target_dir` as cargo's target
/// directory.
fn cargo_perfmark_into(dir: &Path, target_dir: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-perfmark"));
    cmd.current_dir(dir)
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir);
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") {
            cmd.env_remove(k);
        }
    }
    cmd.output().expect("cargo-perfmark runs")
}

/// The `perf` test binary in cargo's `deps` directory `deps`.
fn perf_binary_in(deps: &Path) -> PathBuf {
    std::fs::read_dir(deps)
        .unwrap_or_else(|e| panic!("{}: {e}", deps.display()))
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("perf-") && p.extension().is_none()
        })
        .unwrap_or_else(|| panic!("no perf binary in {}", deps.display()))
}

/// The addresses of the functions in `binary` whose demangled names start
/// with `prefix`, from `nm` (binutils).
fn function_starts(binary: &Path, prefix: &str) -> Vec<(String, u64)> {
    let out = Command::new("nm")
        .args(["--demangle", "--defined-only"])
        .arg(binary)
        .output()
        .expect("nm (binutils) runs");
    assert!(out.status.success(), "nm: {}", explain(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ' ');
            let (address, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            let text = kind.eq_ignore_ascii_case("t");
            (text && name.starts_with(prefix))
                .then(|| (name.to_owned(), u64::from_str_radix(address, 16).ok()))
                .and_then(|(n, a)| Some((n, a?)))
        })
        .collect()
}

fn explain(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn baseline_and_compare_in_a_user_crate() {
    let dir = user_crate("perf-user");

    // Usage: bare prints it; a wrong option or revision exits 2 and says why.
    let out = cargo_perfmark(&dir, &["perfmark"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("usage: cargo perfmark"));
    let out = cargo_perfmark(&dir, &["perfmark", "baseline", "--runz", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", explain(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("error: unknown option `--runz`"),
        "{}",
        explain(&out)
    );
    let out = cargo_perfmark(&dir, &["perfmark", "compare", "no-such-revision"]);
    assert_eq!(out.status.code(), Some(2), "{}", explain(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("\"no-such-revision\" is not a revision"),
        "{}",
        explain(&out)
    );

    // Baselines over two processes: each entry has its between-run spread.
    let out = cargo_perfmark(
        &dir,
        &["perfmark", "baseline", "--runs", "2", "--pause", "0s"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let file = dir.join("perf-baselines/perf.json");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("the baseline file")).unwrap();
    for test in ["steady", "slowed"] {
        let runs = &saved["tests"][test]["between_runs"];
        assert_eq!(runs["runs"], 2, "{test}: {saved}");
        assert_eq!(runs["run_estimates_ns"].as_array().unwrap().len(), 2);
        assert!(runs["sd_log"].as_f64().is_some(), "{test}: {saved}");
    }
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("2 tests recorded over 2 processes"),
        "{}",
        explain(&out)
    );
    // The last run's report got its page.
    let page = shared_target_dir().join("perfmark-baseline/perf-user-perf/report/report.html");
    assert!(page.is_file(), "{}", explain(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("/report.html (2 tests)\n"),
        "{}",
        explain(&out)
    );
    // The recording is not part of the comparisons below.
    std::fs::remove_dir_all(dir.join("perf-baselines")).unwrap();

    // The working tree as committed: nothing regressed (--verbose, passed
    // on to the test binaries, adds each test's layout line).
    let out = cargo_perfmark(&dir, &["perfmark", "compare", "--", "--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("vs base"),
        "{}",
        explain(&out)
    );
    // Both builds were pinned, and each binary can tell: no layout note.
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("code layout pinned"),
        "{}",
        explain(&out)
    );
    // Each side was linked ten times, and the pairs drew from the links.
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("layouts drawn from 10 links of the head and 10 of the base"),
        "{}",
        explain(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("layout: ±"),
        "{}",
        explain(&out)
    );
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(shared_target_dir().join("perfmark/perf/report.json"))
            .expect("the head's report"),
    )
    .unwrap();
    // The head's report got its page.
    let page = std::fs::read_to_string(shared_target_dir().join("perfmark/perf/report.html"))
        .unwrap_or_else(|e| panic!("the head's page: {e}\n{}", explain(&out)));
    assert!(page.contains("<code>slowed</code>") && page.contains("<svg"));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("/perfmark/perf/report.html (2 tests)\n"),
        "{}",
        explain(&out)
    );
    assert_eq!(report["comparison"]["head_links"], 10, "{report}");
    assert_eq!(report["comparison"]["base_links"], 10, "{report}");
    for t in report["tests"].as_array().unwrap() {
        let c = &t["comparison"];
        assert_eq!(c["layouts"], 10, "{t}");
        // Both tests time themselves with fixed durations (iter_custom):
        // every link reads the same, so layout moves nothing.
        assert!(
            c["layout_sd"].as_f64().is_some_and(|sd| sd.abs() < 1e-9),
            "{t}"
        );
    }

    // The links of a side hold the same functions, all on 64-byte
    // boundaries, in other orders.
    let links = shared_target_dir().join("perfmark-compare/layouts");
    for side in ["head", "base"] {
        let orders: Vec<Vec<(String, u64)>> = (0..10)
            .map(|k| {
                let link = links.join(side).join(format!("perf-user-perf-{k}"));
                let mut starts = function_starts(&link, "perf::");
                starts.sort();
                for (name, address) in &starts {
                    assert_eq!(
                        address % 64,
                        0,
                        "{name} at {address:#x} in {}",
                        link.display()
                    );
                }
                starts
            })
            .collect();
        let names = |o: &Vec<(String, u64)>| o.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert!(
            orders.iter().all(|o| names(o) == names(&orders[0])),
            "{orders:?}"
        );
        let distinct: std::collections::BTreeSet<&Vec<(String, u64)>> = orders.iter().collect();
        assert!(
            distinct.len() >= 9,
            "{side}: {} distinct layouts of 10",
            distinct.len()
        );
    }

    // Both sides were built with the layout pinned: every function of the
    // user's test crate starts on a 64-byte boundary.
    let compare_dir = shared_target_dir().join("perfmark-compare");
    for side in ["head-target", "target"] {
        let binary = perf_binary_in(&compare_dir.join(side).join("release").join("deps"));
        let starts = function_starts(&binary, "perf::");
        assert!(starts.len() >= 2, "{}: {starts:?}", binary.display());
        for (name, address) in &starts {
            assert_eq!(
                address % 64,
                0,
                "{name} at {address:#x} in {}",
                binary.display()
            );
        }
    }

    // `slowed` twice as slow in the working tree: a regression, exit 101.
    write(&dir.join("tests/perf.rs"), &perf_rs(200));
    let out = cargo_perfmark(
        &dir,
        &[
            "perfmark",
            "compare",
            "HEAD",
            "--layouts",
            "1",
            "--",
            "slowed",
        ],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("test slowed ... FAILED"),
        "{}",
        explain(&out)
    );
    assert!(stdout.contains("regressed"), "{}", explain(&out));
    // One link a side: the run says layout was not drawn.
    assert!(
        stdout.contains("note: one link of each build"),
        "{}",
        explain(&out)
    );
    // A regression changes nothing in drawing the page of the filtered run.
    assert!(
        stdout.contains("/perfmark/perf/report.html (1 test)\n"),
        "{}",
        explain(&out)
    );

    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_draws_the_page_the_test_binary_no_longer_writes() {
    let dir = user_crate("perf-pages");
    let reports = dir.join("reports");
    // A page left by an earlier run, which the new report.json would belie.
    write(&reports.join("report.html"), "<p>an earlier run</p>");

    // The perf tests as a user runs them, into a report directory of ours.
    let out = Command::new(env!("CARGO"))
        .current_dir(&dir)
        .args(["test", "--release", "--test", "perf", "--", "--report-dir"])
        .arg(&reports)
        .env("CARGO_TARGET_DIR", shared_target_dir())
        .output()
        .expect("cargo runs");
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    // The header says once how to get the page.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = format!(
        "reports: {0} (the page: cargo perfmark report {0})\n",
        reports.display()
    );
    assert_eq!(stdout.matches(&line).count(), 1, "{}", explain(&out));
    assert!(reports.join("report.json").is_file(), "{}", explain(&out));
    assert!(
        !reports.join("report.html").exists(),
        "the test binary removed the earlier page and drew none"
    );

    let out = cargo_perfmark(&dir, &["perfmark", "report", reports.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "wrote {} (2 tests)\n",
            reports.join("report.html").display()
        )
    );
    let page = std::fs::read_to_string(reports.join("report.html")).expect("the page");
    for test in ["steady", "slowed"] {
        assert!(page.contains(&format!("<code>{test}</code>")), "{test}");
    }
    assert!(page.contains("<svg"));

    // With no DIR: every report directory under the target directory's
    // perfmark/, here a target directory of its own that holds none yet.
    let target = dir.join("other-target");
    std::fs::create_dir_all(&target).unwrap();
    let out = cargo_perfmark_into(&dir, &target, &["perfmark", "report"]);
    assert_eq!(out.status.code(), Some(2), "{}", explain(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&target.join("perfmark").display().to_string())
            && stderr.contains("cargo test --release"),
        "{}",
        explain(&out)
    );
    let perf = target.join("perfmark").join("perf");
    std::fs::create_dir_all(&perf).unwrap();
    std::fs::copy(reports.join("report.json"), perf.join("report.json")).unwrap();
    let out = cargo_perfmark_into(&dir, &target, &["perfmark", "report"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(perf.join("report.html").is_file(), "{}", explain(&out));

    // A corrupt report.json: exit 2, naming it.
    std::fs::write(perf.join("report.json"), "{\"schema\": 1,").unwrap();
    let out = cargo_perfmark_into(&dir, &target, &["perfmark", "report"]);
    assert_eq!(out.status.code(), Some(2), "{}", explain(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains(&perf.join("report.json").display().to_string()),
        "{}",
        explain(&out)
    );

    let _ = std::fs::remove_dir_all(&dir);
}
