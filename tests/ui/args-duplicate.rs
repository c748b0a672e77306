use perfmark::perf_test;

#[perf_test(args = [10, 20, 10])]
fn fib(n: u64) -> u64 {
    n
}

perfmark::main!();
