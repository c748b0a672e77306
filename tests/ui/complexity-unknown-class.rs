use perfmark::perf_test;

#[perf_test(args = [10, 100, 1000, 10000], complexity = "n log(n)")]
fn sort(n: usize) -> usize {
    n
}

perfmark::main!();
