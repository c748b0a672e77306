//! `complexity = "…"` on real routines: a linear scan, quicksort, binary
//! search and a quadratic pair count, each declared with its class (module
//! `right`: these run with the suite and must pass), declared a whole power
//! of n too low (`wrong`: the check must catch them) or a log factor too
//! low (`log_factor`: under the margin, they pass; the fitted class names
//! the difference). `wrong` and `log_factor` are ignored in a normal run;
//! `cargo xtask complexity --runs N` runs all of them in N processes and
//! counts the verdicts (docs/attribute.md, "Complexity").
//!
//! Sizes span three decades or more, up to a few MiB of data: beyond the
//! L2 cache, as real inputs are, so the cache hierarchy's effect on the
//! fit is part of what is counted.

use perfmark::{black_box, perf_test, Bencher};
use perfmark_kernels::search::BinarySearch;
use perfmark_kernels::sorting::QuicksortInput;

/// Seed of every input.
const SEED: u64 = 0x00C0_4D1E;
/// Searches per call of the binary search workload.
const SEARCHES: usize = 1024;

/// The numbers `0..n` shuffled.
fn shuffled(n: usize) -> Vec<u32> {
    QuicksortInput::new(n as u32, SEED).input().to_vec()
}

/// Inversions counted pair by pair: n(n−1)/2 comparisons.
fn inversions(v: &[u32]) -> u64 {
    let mut count = 0;
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            count += u64::from(v[i] > v[j]);
        }
    }
    count
}

fn scan(b: &mut Bencher, n: usize) {
    let v = shuffled(n);
    b.items(n as u64);
    b.iter(|| black_box(&v).iter().map(|&x| u64::from(x)).sum::<u64>());
}

fn quicksort(b: &mut Bencher, n: usize) {
    let input = QuicksortInput::new(n as u32, SEED);
    let mut buf = Vec::with_capacity(n);
    b.items(n as u64);
    b.iter(|| black_box(&input).run(&mut buf).len());
}

fn binary_search(b: &mut Bencher, n: usize) {
    let search = BinarySearch::new(n, SEARCHES, SEED);
    b.items(SEARCHES as u64);
    b.iter(|| black_box(&search).run());
}

fn pairs(b: &mut Bencher, n: usize) {
    let v = shuffled(n);
    b.iter(|| inversions(black_box(&v)));
}

/// Declared right: must pass.
mod right {
    use super::*;

    #[perf_test(args = [1_000, 10_000, 100_000, 1_000_000], complexity = "n", max_time = "500ms", warmup = "100ms")]
    fn scan(b: &mut Bencher, n: usize) {
        super::scan(b, n);
    }

    #[perf_test(args = [1_000, 4_000, 16_000, 64_000, 256_000], complexity = "n log n", max_time = "500ms", warmup = "100ms")]
    fn quicksort(b: &mut Bencher, n: usize) {
        super::quicksort(b, n);
    }

    #[perf_test(args = [1_000, 10_000, 100_000, 1_000_000], complexity = "log n", max_time = "500ms", warmup = "100ms")]
    fn binary_search(b: &mut Bencher, n: usize) {
        super::binary_search(b, n);
    }

    #[perf_test(args = [250, 500, 1_000, 2_000, 4_000], complexity = "n^2", max_time = "500ms", warmup = "100ms")]
    fn pairs(b: &mut Bencher, n: usize) {
        super::pairs(b, n);
    }
}

/// Declared a whole power of n too low: must fail.
mod wrong {
    use super::*;

    #[perf_test(args = [1_000, 10_000, 100_000, 1_000_000], complexity = "1", max_time = "500ms", warmup = "100ms", ignore = "declared wrong on purpose: cargo xtask complexity")]
    fn scan_declared_constant(b: &mut Bencher, n: usize) {
        super::scan(b, n);
    }

    #[perf_test(args = [1_000, 4_000, 16_000, 64_000, 256_000], complexity = "log n", max_time = "500ms", warmup = "100ms", ignore = "declared wrong on purpose: cargo xtask complexity")]
    fn quicksort_declared_log(b: &mut Bencher, n: usize) {
        super::quicksort(b, n);
    }

    #[perf_test(args = [250, 500, 1_000, 2_000, 4_000], complexity = "n", max_time = "500ms", warmup = "100ms", ignore = "declared wrong on purpose: cargo xtask complexity")]
    fn pairs_declared_linear(b: &mut Bencher, n: usize) {
        super::pairs(b, n);
    }
}

/// Declared a log factor too low: under the margin, they pass.
mod log_factor {
    use super::*;

    #[perf_test(args = [1_000, 4_000, 16_000, 64_000, 256_000], complexity = "n", max_time = "500ms", warmup = "100ms", ignore = "a log factor low on purpose: cargo xtask complexity")]
    fn quicksort_declared_linear(b: &mut Bencher, n: usize) {
        super::quicksort(b, n);
    }

    #[perf_test(args = [1_000, 10_000, 100_000, 1_000_000], complexity = "1", max_time = "500ms", warmup = "100ms", ignore = "a log factor low on purpose: cargo xtask complexity")]
    fn binary_search_declared_constant(b: &mut Bencher, n: usize) {
        super::binary_search(b, n);
    }
}

perfmark::main!();
