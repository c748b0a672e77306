use perfmark::perf_test;

#[perf_test(threads = [1, 4], args = [100, 1000])]
fn sum(n: u64) -> u64 {
    (0..n).sum()
}

perfmark::main!();
