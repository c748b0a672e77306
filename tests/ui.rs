//! Compile-fail tests of `#[perf_test]`: one mistake per file in `tests/ui/`,
//! each with the compiler's exact output committed beside it (`.stderr`).
//!
//! After a deliberate change to a message, regenerate with
//! `TRYBUILD=overwrite cargo test --test ui` and read every changed `.stderr`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
