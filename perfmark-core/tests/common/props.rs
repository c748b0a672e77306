//! How every property test of perfmark-core runs: proptest's
//! [`TestRunner`] with a fixed seed (the same cases on every run, so a
//! failure in CI reproduces at a desk), a case count from the environment,
//! and a line saying how many cases a property ran.
//!
//! Shared by `tests/properties/` and the unit-level property modules of the
//! crate (`src/runner/cli/properties.rs`, `src/report/json/properties.rs`),
//! which include this file by path.
//!
//! - `PROPTEST_CASES=N`: cases per property (proptest's own variable);
//!   default [`DEFAULT_CASES`], small enough for `.ci/run`.
//! - `PROPTEST_RNG_SEED=S`: another fixed seed, to draw other cases.
//!
//! Shrinking is on (a failure is reported at its smallest), and no
//! `proptest-regressions/` file is written: a case found is kept as an
//! explicit regression test beside the code it broke.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};

/// Cases per property when `PROPTEST_CASES` is not set.
pub const DEFAULT_CASES: u32 = 256;

/// The seed when `PROPTEST_RNG_SEED` is not set.
const SEED: u64 = 0x7065_7266_6d61_726b; // "perfmark"

/// The configuration of every property: proptest's defaults as the
/// environment sets them, with this file's count, seed and persistence.
pub fn config() -> Config {
    let mut config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
    }
    if let RngSeed::Random = config.rng_seed {
        config.rng_seed = RngSeed::Fixed(SEED);
    }
    config
}

/// Checks `property` on `config().cases` values drawn from `strategy`;
/// panics with the smallest failing value (and its error) if one fails,
/// else prints `property NAME: N cases` (shown with `--nocapture`).
pub fn check<S, F>(name: &str, strategy: S, property: F)
where
    S: Strategy,
    S::Value: std::fmt::Debug,
    F: Fn(S::Value) -> Result<(), TestCaseError>,
{
    let mut runner = TestRunner::new(config());
    let cases = std::cell::Cell::new(0u64);
    let result = runner.run(&strategy, |value| {
        cases.set(cases.get() + 1);
        property(value)
    });
    match result {
        Ok(()) => eprintln!(
            "property {name}: {} cases passed (seed {:?})",
            runner.config().cases,
            runner.config().rng_seed
        ),
        Err(TestError::Fail(why, value)) => {
            panic!("property {name} fails: {why}\nsmallest failing input: {value:#?}")
        }
        Err(TestError::Abort(why)) => panic!("property {name} aborted: {why}"),
    }
    // Counted with shrinking: at least the configured cases ran.
    assert!(cases.get() >= u64::from(runner.config().cases));
}

/// One value drawn from `strategy` with the fixed seed, for tests that
/// want a generated input without a property around it.
#[allow(dead_code)] // not every binary uses it
pub fn sample<S: Strategy>(strategy: S) -> S::Value {
    let mut runner = TestRunner::new(config());
    strategy
        .new_tree(&mut runner)
        .expect("the strategy draws a value")
        .current()
}
