use perfmark::perf_test;

#[perf_test(args = [0, 10, 100, 1000], complexity = "n")]
fn scan(n: u64) -> u64 {
    (0..n).sum()
}

perfmark::main!();
