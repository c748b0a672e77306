//! End to end: a crate that renames its dependency
//! (`pm = { package = "perfmark", … }`, tests/fixtures/renamed) writes
//! `#[perf_test(crate = pm)]` and `pm::main!()`, builds, and runs its tests.

use std::path::Path;
use std::process::Command;

mod support;
use support::{explain, fixture_target_dir, stdout};

#[test]
fn a_renamed_dependency_builds_and_runs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/renamed");
    let out = Command::new(env!("CARGO"))
        .current_dir(&dir)
        .args([
            "test",
            "--release",
            "--test",
            "perf",
            "--",
            "--no-processes",
        ])
        .env("CARGO_TARGET_DIR", fixture_target_dir())
        .env("PERFMARK_NO_LOCK", "1")
        .env(
            "PERFMARK_REPORT_DIR",
            fixture_target_dir().join("renamed-report"),
        )
        .env_remove("PERFMARK_INSTRUCTIONS")
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", explain(&out));
    let text = stdout(&out);
    for name in [
        "with_a_bencher",
        "with_args::10",
        "with_args::100",
        "with_a_limit",
    ] {
        assert!(
            text.contains(&format!("test {name} ... ok")),
            "{name}: {text}"
        );
    }
}
