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
//!
//! It also holds the damage the file-format properties do to valid files.

#![allow(dead_code)] // each includer uses its own part

use proptest::prelude::*;
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

// ---------------------------------------------------------------------------
// Damage done to a valid file (baseline files, report.json)

/// What a mutation puts in a file: wrong types, huge and tiny numbers,
/// `NaN` and `Infinity` (bare and as strings), nesting, stray brackets.
pub fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "NaN",
            "\"NaN\"",
            "Infinity",
            "-Infinity",
            "\"Infinity\"",
            "\"-inf\"",
            "1e999",
            "-1e999",
            "1e-999",
            "-0",
            "0",
            "-1",
            "18446744073709551616",
            "-9223372036854775809",
            "99999999999999999999999999999999",
            "1.7976931348623157e308",
            "null",
            "true",
            "[]",
            "{}",
            "\"\"",
            "\"x\"",
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            "\"",
            "\\",
            "\u{0}",
            "\u{feff}",
            "\"schema\": 2",
            "\"tests\": {}",
            "\"samples_ns\": []",
            "\"sample_count\": 0",
        ])
        .prop_map(str::to_owned),
        (1usize..400).prop_map(|depth| "[".repeat(depth) + &"]".repeat(depth)),
        (1usize..2_000).prop_map(|depth| "{\"a\":".repeat(depth)),
        any::<String>(),
        any::<f64>().prop_map(|x| format!("{x:e}")),
    ]
}

#[derive(Debug, Clone)]
pub enum Mutation {
    /// Keep the first `at` bytes.
    Truncate(usize),
    /// Replace the byte at `at`.
    Byte(usize, u8),
    /// Insert a token at `at`.
    Insert(usize, String),
    /// Replace the value after the `n`th `": "` with a token.
    Value(usize, String),
    /// Repeat the `n`th line (a key twice, or a stray element).
    RepeatLine(usize),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Mutation::Byte(at, b)),
        (any::<usize>(), token()).prop_map(|(at, t)| Mutation::Insert(at, t)),
        (any::<usize>(), token()).prop_map(|(n, t)| Mutation::Value(n, t)),
        any::<usize>().prop_map(Mutation::RepeatLine),
    ]
}

pub fn mutate(text: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = text.to_vec();
    for m in mutations {
        let len = bytes.len().max(1);
        match m {
            Mutation::Truncate(at) => bytes.truncate(at % len),
            Mutation::Byte(at, b) => {
                if !bytes.is_empty() {
                    bytes[at % len] = *b;
                }
            }
            Mutation::Insert(at, token) => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, token.bytes());
            }
            Mutation::Value(n, token) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let starts: Vec<usize> = text.match_indices("\": ").map(|(i, _)| i + 3).collect();
                if let Some(&start) = starts.get(n % starts.len().max(1)) {
                    let end = text[start..]
                        .find([',', '\n'])
                        .map_or(text.len(), |e| start + e);
                    bytes = format!("{}{token}{}", &text[..start], &text[end..]).into_bytes();
                }
            }
            Mutation::RepeatLine(n) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                if !lines.is_empty() {
                    let i = n % lines.len();
                    let mut out = lines[..=i].concat();
                    out.push_str(lines[i]);
                    out.push_str(&lines[i + 1..].concat());
                    bytes = out.into_bytes();
                }
            }
        }
    }
    bytes
}
