//! Compile-fail tests of `#[perf_test]`: one mistake per file in `tests/ui/`,
//! each with the compiler's exact output committed beside it (`.stderr`).
//!
//! The `.stderr` files hold the diagnostics of the rustc release named in
//! [`WRITTEN_FOR`], the one `rust-toolchain.toml` pins: another release
//! words and places its own parts of a diagnostic differently, so on
//! another compiler the test says so and checks nothing, rather than fail
//! on wording perfmark does not own. With `PERFMARK_REQUIRE_UI` set (as
//! `.ci/run` sets it) another compiler fails the test instead, so CI never
//! passes without checking.
//!
//! After a deliberate change to a message, or to move to a new rustc,
//! regenerate with `TRYBUILD=overwrite cargo test --test ui`, read every
//! changed `.stderr`, and update [`WRITTEN_FOR`] and `rust-toolchain.toml`
//! together.

use std::process::Command;

/// The rustc release (major.minor) whose diagnostics the `.stderr` files
/// hold.
const WRITTEN_FOR: &str = "1.95";

/// `rustc 1.95.0 (…)` → `1.95`.
fn release(version: &str) -> Option<String> {
    let number = version.split_whitespace().nth(1)?;
    let mut parts = number.split('.');
    Some(format!("{}.{}", parts.next()?, parts.next()?))
}

#[test]
fn ui() {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    if release(&version).as_deref() != Some(WRITTEN_FOR) {
        let other = format!(
            "the UI tests' .stderr files hold rustc {WRITTEN_FOR}'s diagnostics, and this is \
             {version:?}"
        );
        assert!(
            std::env::var_os("PERFMARK_REQUIRE_UI").is_none(),
            "{other}, and PERFMARK_REQUIRE_UI is set: run them with the toolchain \
             rust-toolchain.toml pins"
        );
        eprintln!(
            "{other}: not checked (regenerate them with TRYBUILD=overwrite cargo test --test ui \
             on this compiler to check it)"
        );
        return;
    }
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}

#[test]
fn the_release_is_read_from_the_version_line() {
    assert_eq!(
        release("rustc 1.95.0 (59807616e 2026-04-14)").as_deref(),
        Some("1.95")
    );
    assert_eq!(release("rustc 1.100.2-nightly").as_deref(), Some("1.100"));
    assert_eq!(release("").as_deref(), None);
}

/// The pinned toolchain is the release the `.stderr` files were written
/// for, so that a fresh checkout checks them.
#[test]
fn the_pinned_toolchain_is_the_one_the_diagnostics_hold() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rust-toolchain.toml");
    let text = std::fs::read_to_string(path).expect("rust-toolchain.toml is readable");
    let channel = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("channel = "))
        .expect("rust-toolchain.toml names a channel")
        .trim_matches('"');
    assert_eq!(
        release(&format!("rustc {channel}")).as_deref(),
        Some(WRITTEN_FOR),
        "rust-toolchain.toml pins {channel}"
    );
}
