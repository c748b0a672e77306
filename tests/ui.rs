//! Compile-fail tests of `#[perf_test]`: one mistake per file in `tests/ui/`,
//! each with the compiler's exact output committed beside it (`.stderr`).
//!
//! The `.stderr` files hold the diagnostics of the rustc release named in
//! [`WRITTEN_FOR`]: another release words and places its own parts of a
//! diagnostic differently, so on another compiler the test says so and
//! checks nothing, rather than fail on wording perfmark does not own.
//!
//! After a deliberate change to a message, or to move to a new rustc,
//! regenerate with `TRYBUILD=overwrite cargo test --test ui`, read every
//! changed `.stderr`, and update [`WRITTEN_FOR`].

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
        eprintln!(
            "the UI tests' .stderr files hold rustc {WRITTEN_FOR}'s diagnostics, and this is \
             {version:?}: not checked (regenerate them with TRYBUILD=overwrite cargo test --test \
             ui on this compiler to check it)"
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
