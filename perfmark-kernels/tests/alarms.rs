//! The suite of `cargo xtask alarms`: six kernels whose work is scaled by
//! the environment variable `PERFMARK_ALARM_SCALE` (read once; 1.0 when
//! unset), so the experiment can run unchanged code and code made exactly
//! 5%, 10% or 20% slower against one recorded baseline.
//!
//! Each test calls its kernel `reps(20)` times per iteration: 20 calls at
//! scale 1.0, 21 at 1.05, 22 at 1.10, 24 at 1.20 — the slowdown is exact in
//! work, not approximate in input size.
//!
//! For the paired experiment (`cargo xtask alarms --paired`) two builds must
//! differ in their code, not in their environment: a scale set at compile
//! time (`PERFMARK_ALARM_SCALE_BUILD`) wins over the variable, and
//! `PERFMARK_ALARM_LAYOUT_BUILD` compiles in an unrelated function that
//! shifts the code's layout without changing the work.

use std::sync::OnceLock;

use perfmark::{black_box, perf_test, Bencher};
use perfmark_kernels::livermore::LivermoreData;
use perfmark_kernels::logchain::log_chain;
use perfmark_kernels::math::multiply;
use perfmark_kernels::primes::count_primes_sequential;
use perfmark_kernels::search::BinarySearch;
use perfmark_kernels::sorting::QuicksortInput;

const SEED: u64 = 0xA1A2_0001;

/// Calls per iteration: `base` × the scale, rounded.
fn reps(base: u32) -> u32 {
    static SCALE: OnceLock<f64> = OnceLock::new();
    let scale = *SCALE.get_or_init(|| {
        if option_env!("PERFMARK_ALARM_LAYOUT_BUILD").is_some() {
            black_box(unrelated(black_box(3)));
        }
        let text = option_env!("PERFMARK_ALARM_SCALE_BUILD")
            .map(str::to_owned)
            .or_else(|| std::env::var("PERFMARK_ALARM_SCALE").ok())
            .unwrap_or_else(|| "1.0".to_owned());
        text.parse::<f64>()
            .ok()
            .filter(|s| *s > 0.0 && s.is_finite())
            .unwrap_or_else(|| {
                panic!("PERFMARK_ALARM_SCALE={text:?}: expected a positive number such as 1.05")
            })
    });
    (f64::from(base) * scale).round() as u32
}

/// An unrelated change: code that is linked in (and run once) in the
/// layout-shifting build only, moving what follows it in the binary.
#[inline(never)]
fn unrelated(seed: u64) -> u64 {
    let mut table = [0u64; 64];
    for (i, slot) in table.iter_mut().enumerate() {
        *slot = seed.wrapping_mul(i as u64 + 1).rotate_left(i as u32 % 63) ^ 0x9E37_79B9;
    }
    table
        .iter()
        .fold(seed, |a, &x| a.wrapping_mul(31).wrapping_add(x))
}

#[perf_test]
fn log_chain_20(b: &mut Bencher) {
    let n = reps(20);
    b.iter(|| (0..n).fold(black_box(100.5), |x, _| log_chain(x) + 100.0));
}

#[perf_test]
fn multiply_table(b: &mut Bencher) {
    let n = reps(20);
    b.iter(|| (0..n * 10).map(|i| multiply(black_box(i))).sum::<f64>());
}

#[perf_test]
fn quicksort_1k(b: &mut Bencher) {
    let input = QuicksortInput::new(1000, SEED);
    let mut buf = Vec::with_capacity(1000);
    let n = reps(20);
    b.iter(|| {
        let mut checksum = 0u32;
        for _ in 0..n {
            checksum = checksum.wrapping_add(input.run(&mut buf)[black_box(7)]);
        }
        checksum
    });
}

#[perf_test]
fn binary_search(b: &mut Bencher) {
    let search = BinarySearch::new(1 << 16, 256, SEED);
    let n = reps(20);
    // `run` is pure: without the black box the compiler may call it once
    // and multiply, and the work would not scale with `n` (the +5% build
    // read 3% *faster* than the base before this).
    b.iter(|| (0..n).map(|_| black_box(&search).run()).sum::<usize>());
}

#[perf_test]
fn livermore_inner_product(b: &mut Bencher) {
    let data = LivermoreData::new(1001, SEED);
    let n = reps(20);
    b.iter(|| (0..n).map(|_| black_box(&data).kernel3()).sum::<f64>());
}

#[perf_test]
fn count_primes(b: &mut Bencher) {
    let n = reps(20);
    b.iter(|| {
        (0..n)
            .map(|_| count_primes_sequential(black_box(2_000)))
            .sum::<u64>()
    });
}

perfmark::main!();
