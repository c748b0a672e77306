//! End to end: `--compare-with` between two builds of the fixture's `pair`
//! target (tests/fixtures/basic/tests/pair.rs): the base built without
//! features, the head with `--features head`, where `slowed` does 1.3× the
//! work, `added` is new, `dropped` is gone, `crashes` aborts and `hangs` stops
//! answering. Both are built with every function aligned to 64 bytes, as
//! `cargo perfmark compare` builds them: the head's feature moves the code
//! of the tests it does not change, and in plain builds the unchanged
//! `steady` read +19% in the head from where its loop landed alone. Two
//! plain copies of the base are compared as builds whose layout is not
//! pinned.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod support;
use support::{explain, fixture_dir, fixture_target_dir, result_lines, stdout};

struct Builds {
    base: PathBuf,
    head: PathBuf,
    /// A plain build of the base (its layout not pinned).
    plain_base: PathBuf,
    /// A second copy of it: two identical builds.
    base_copy: PathBuf,
    /// A libtest binary: not a perfmark one.
    plain: PathBuf,
}

/// Builds the fixture's test target with `features`, its functions aligned
/// when `aligned`, into a copy named for the build.
fn build(target: &str, features: &[&str], aligned: bool) -> PathBuf {
    // Features change the binary's name, but copy it anyway so that no
    // later build can replace what a test runs.
    let copy = format!(
        "paired-{target}-{}{}",
        if features.contains(&"head") {
            "head"
        } else {
            "base"
        },
        if aligned { "" } else { "-plain" }
    );
    // Every build here coordinates a comparison (`--compare-with`).
    let mut features = features.to_vec();
    features.push("perfmark/compare");
    support::build_fixture(target, &features, aligned, &copy)
}

fn builds() -> &'static Builds {
    static BUILDS: OnceLock<Builds> = OnceLock::new();
    BUILDS.get_or_init(|| {
        let base = build("pair", &[], true);
        let head = build("pair", &["head"], true);
        let plain_base = build("pair", &[], false);
        let base_copy = fixture_target_dir().join("paired-pair-base-copy");
        std::fs::copy(&plain_base, &base_copy).expect("copy the base");
        Builds {
            base,
            head,
            plain_base,
            base_copy,
            plain: build("plain", &[], false),
        }
    })
}

/// Runs `head --compare-with base ARGS` as cargo would (in the package's
/// directory), one comparison at a time: they measure.
fn compare(head: &Path, base: &Path, args: &[&str], report_dir: &Path) -> Output {
    compare_with_env(head, base, args, report_dir, &[])
}

fn compare_with_env(
    head: &Path,
    base: &Path,
    args: &[&str],
    report_dir: &Path,
    envs: &[(&str, &str)],
) -> Output {
    let _alone = support::alone();
    let mut cmd = Command::new(head);
    cmd.current_dir(fixture_dir())
        .arg("--compare-with")
        .arg(base)
        .arg("--report-dir")
        .arg(report_dir)
        .args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") {
            cmd.env_remove(k);
        }
    }
    cmd.envs(envs.iter().copied());
    cmd.output().expect("the head binary runs")
}

fn report_dir(name: &str) -> PathBuf {
    let dir = fixture_target_dir().join("paired-reports").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The indented lines under `test NAME ... RESULT`.
fn detail(out: &Output, name: &str) -> String {
    let text = stdout(out);
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&format!("test {name} ... ")));
    lines.next();
    lines
        .take_while(|l| l.starts_with("    "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn exactly_the_slowed_test_fails_and_new_and_removed_tests_are_listed() {
    let b = builds();
    let dir = report_dir("slowed");
    let out = compare(
        &b.head,
        &b.base,
        &[
            "--skip",
            "crashes",
            "--skip",
            "hangs",
            "--skip",
            "layout_sensitive",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        [
            "test added ... ok",
            "test slowed ... FAILED",
            "test steady ... ok"
        ],
        "{}",
        explain(&out)
    );
    let slowed = detail(&out, "slowed");
    assert!(
        slowed.contains("vs base (paired: ") && slowed.contains("regressed"),
        "{}",
        explain(&out)
    );
    let steady = detail(&out, "steady");
    assert!(steady.contains("vs base (paired: "), "{}", explain(&out));
    assert!(!steady.contains("regressed"), "{}", explain(&out));
    assert!(
        detail(&out, "added").contains("new: not in the base build"),
        "{}",
        explain(&out)
    );
    assert!(
        stdout(&out).contains("removed: dropped (in the base build only, not compared)"),
        "{}",
        explain(&out)
    );
    // report.json: a `comparison` object per compared test, added fields only.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let test = |name: &str| {
        json["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap()
    };
    let slowed = test("slowed");
    let c = &slowed["comparison"];
    assert_eq!(c["change"], "regressed", "{c}");
    let ratio = c["ratio"].as_f64().unwrap();
    assert!((1.15..1.45).contains(&ratio), "1.3× the work read {ratio}");
    assert!(c["process_pairs"].as_u64().unwrap() >= 2, "{c}");
    assert_eq!(test("steady")["comparison"]["fails"], false);
    assert!(test("added")["comparison"].is_null());
    assert_eq!(json["comparison"]["removed"][0], "dropped");
    // Placement: each process pair's two workers held on one CPU of the
    // allowed set, one CPU per pair (Linux; one CPU allowed pins nothing).
    if cfg!(target_os = "linux") {
        let cpu = &test("steady")["cpu"];
        let allowed = cpu["allowed"].as_u64().expect("the allowed set is read");
        if allowed > 1 {
            let per_pair = cpu["cpus"].as_array().expect("a CPU per pair");
            assert!(cpu["not_pinned"].is_null(), "{cpu}");
            assert_eq!(
                per_pair.len() as u64,
                test("steady")["comparison"]["process_pairs"]
                    .as_u64()
                    .unwrap(),
                "{cpu}"
            );
        } else {
            assert_eq!(cpu["not_pinned"], "one_cpu", "{cpu}");
        }
    }
    // Both built with their functions aligned: each side's layout pinned.
    assert_eq!(json["comparison"]["head_pinned"], true);
    assert_eq!(json["comparison"]["base_pinned"], true);
    // Interference per slice pair, from both workers, where it is observed.
    if json["interference"]["observed"] == true {
        let p = &test("steady")["interference"]["paired"];
        let pairs = p["slice_pairs"].as_array().expect("slice pairs");
        assert_eq!(
            test("steady")["comparison"]["slices"].as_u64(),
            Some(pairs.len() as u64)
        );
        assert!(!pairs.is_empty(), "{p}");
        for side in ["base", "head"] {
            assert!(pairs[0][side]["wait_ns"].is_number(), "{p}");
            assert_eq!(p[side]["slices"].as_u64(), Some(pairs.len() as u64), "{p}");
        }
    }
}

#[test]
fn two_identical_builds_pass() {
    let b = builds();
    let out = compare(&b.plain_base, &b.base_copy, &[], &report_dir("identical"));
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        [
            "test crashes ... ok",
            "test dropped ... ok",
            "test hangs ... ok",
            "test layout_sensitive ... ok",
            "test slowed ... ok",
            "test steady ... ok"
        ]
    );
    for name in [
        "crashes",
        "dropped",
        "hangs",
        "layout_sensitive",
        "slowed",
        "steady",
    ] {
        assert!(
            detail(&out, name).contains("vs base (paired: "),
            "{}",
            explain(&out)
        );
    }
    // Built as cargo builds them, not as `cargo perfmark compare` does:
    // the run says so once.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout
            .matches("note: neither build has its code layout pinned")
            .count(),
        1,
        "{}",
        explain(&out)
    );
}

#[test]
fn a_change_whose_sign_depends_on_the_build_is_said_and_not_failed() {
    // The head in two links: `layout_sensitive` does 0.85 times the base's
    // work in one and 1.4 times in the other. Pair p runs link p mod 2, so
    // the pairs read the head faster and slower by turns, each far beyond
    // its own noise: the geometric mean (+9%) would have failed as a
    // regression; the sign depends on the build, and the verdict says so.
    let b = builds();
    let dir = report_dir("sign");
    let links = ["fast", "slow"].map(|name| {
        let link = fixture_target_dir().join(format!("paired-pair-head-link-{name}"));
        std::fs::copy(&b.head, &link).expect("copy the head");
        link
    });
    let out = compare(
        &b.head,
        &b.base,
        &[
            "layout_sensitive",
            "--exact",
            "--head-layout",
            links[0].to_str().unwrap(),
            "--head-layout",
            links[1].to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        ["test layout_sensitive ... ok"],
        "{}",
        explain(&out)
    );
    let line = detail(&out, "layout_sensitive");
    assert!(
        line.contains(
            "the sign of this change depends on the build: its process pairs read from -"
        ),
        "{}",
        explain(&out)
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let c = &json["tests"][0]["comparison"];
    assert_eq!(c["change"], "sign_depends_on_build", "{c}");
    assert_eq!(c["fails"], false, "{c}");
}

#[test]
fn a_killed_worker_fails_only_its_test() {
    let b = builds();
    let out = compare(
        &b.head,
        &b.base,
        &[
            "--skip",
            "slowed",
            "--skip",
            "hangs",
            "--skip",
            "layout_sensitive",
        ],
        &report_dir("killed"),
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        [
            "test added ... ok",
            "test crashes ... FAILED",
            "test steady ... ok"
        ],
        "{}",
        explain(&out)
    );
    let why = detail(&out, "crashes");
    assert!(
        why.contains("head worker") && why.contains("exited"),
        "{}",
        explain(&out)
    );
}

#[test]
fn a_hung_worker_is_killed_and_fails_only_its_test() {
    let b = builds();
    let started = std::time::Instant::now();
    let out = compare_with_env(
        &b.head,
        &b.base,
        &[
            "--skip",
            "slowed",
            "--skip",
            "crashes",
            "--skip",
            "added",
            "--skip",
            "layout_sensitive",
        ],
        &report_dir("hung"),
        &[("PERFMARK_WORKER_TIMEOUT", "2s")],
    );
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        ["test hangs ... FAILED", "test steady ... ok"],
        "{}",
        explain(&out)
    );
    let why = detail(&out, "hangs");
    assert!(
        why.contains("head worker")
            && why.contains("did not answer within 2")
            && why.contains("PERFMARK_WORKER_TIMEOUT"),
        "{}",
        explain(&out)
    );
    // Bounded by the timeout, not the 60 s default (generous for a loaded
    // machine: the comparison of `steady` takes about 1 s).
    assert!(took < std::time::Duration::from_secs(40), "took {took:?}");
}

#[test]
fn a_base_that_is_not_a_perfmark_binary_is_refused_by_name() {
    let b = builds();
    for base in [b.plain.clone(), fixture_target_dir().join("no-such-build")] {
        let out = compare(&b.head, &base, &[], &report_dir("refused"));
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&base.display().to_string()),
            "the error names the path: {}",
            explain(&out)
        );
        assert!(result_lines(&out).is_empty(), "{}", explain(&out));
    }
}

/// A base built with an older perfmark, whose workers speak version 1 of
/// the worker protocol: refused before any test, with both versions named
/// and what to do.
#[cfg(unix)]
#[test]
fn a_base_that_speaks_an_older_worker_protocol_is_refused_with_both_versions() {
    use std::os::unix::fs::PermissionsExt;
    let b = builds();
    let dir = report_dir("older-protocol");
    std::fs::create_dir_all(&dir).expect("the report directory");
    // What a version 1 worker writes first, whatever it is asked.
    let base = dir.join("older-base");
    std::fs::write(
        &base,
        "#!/bin/sh\necho '@perfmark-worker {\"reply\":\"hello\",\"protocol\":1,\
         \"perfmark\":\"0.0.9\",\"test\":null,\"tests\":[\"steady\"]}'\n",
    )
    .expect("the script");
    std::fs::set_permissions(&base, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = compare(&b.head, &base, &[], &dir);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("speaks perfmark worker protocol 1 (perfmark 0.0.9)")
            && stderr.contains("this perfmark speaks 2: rebuild both with the same perfmark"),
        "{}",
        explain(&out)
    );
    assert!(
        stderr.contains(&base.display().to_string()),
        "{}",
        explain(&out)
    );
    assert!(result_lines(&out).is_empty(), "{}", explain(&out));
}
