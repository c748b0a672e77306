use perfmark::perf_test;

#[perf_test(args = [vec![1, 2]])]
fn fib(n: u64) -> u64 {
    n
}

perfmark::main!();
