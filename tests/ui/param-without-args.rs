use perfmark::perf_test;

#[perf_test(budget = "1us")]
fn fib(n: u64) -> u64 {
    n
}

perfmark::main!();
