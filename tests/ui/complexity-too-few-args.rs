use perfmark::perf_test;

#[perf_test(args = [10, 100, 1000], complexity = "n log n")]
fn sort(n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).rev().collect();
    v.sort();
    v
}

perfmark::main!();
