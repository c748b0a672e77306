//! perfmark measuring itself: routines of known relative cost, so that
//! `cargo xtask linearity` can check that k times the work reads k times
//! the time (seed 004: T'e = Tt/n − h) and `cargo xtask stability` that an
//! estimate repeats across processes. Ignored in ordinary runs: the xtasks
//! run them with `--include-ignored`.

use perfmark::{black_box, perf_test};

/// `steps` dependent multiply-adds: each needs the previous result, and
/// `black_box` keeps the compiler from folding or vectorizing the chain, so
/// the time is proportional to `steps` (about 1–2 ns a step).
#[inline(never)]
fn chain(steps: u64) -> u64 {
    let mut x = black_box(0x9E37_79B9_7F4A_7C15_u64);
    for _ in 0..steps {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
    x
}

/// The smallest routine: a black-boxed integer add (should read under 1 ns).
#[perf_test(ignore = "calibration: run by cargo xtask linearity")]
fn add() -> u64 {
    black_box(1u64) + black_box(2u64)
}

/// One chain step, inlined: about 1 ns per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn steps_1(k: u64) -> u64 {
    let mut x = black_box(7u64);
    for _ in 0..k {
        x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
    }
    x
}

/// About 100 ns per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn steps_64(k: u64) -> u64 {
    chain(64 * k)
}

/// About 1 µs per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn steps_640(k: u64) -> u64 {
    chain(640 * k)
}

/// About 10 µs per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn steps_6400(k: u64) -> u64 {
    chain(6_400 * k)
}

/// About 100 µs per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn steps_64000(k: u64) -> u64 {
    chain(64_000 * k)
}

/// About 1 ms per k.
#[perf_test(args = [1, 2, 4, 8], ignore = "calibration: run by cargo xtask linearity")]
fn steps_640000(k: u64) -> u64 {
    chain(640_000 * k)
}

perfmark::main!();
