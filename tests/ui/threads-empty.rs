use perfmark::perf_test;

#[perf_test(threads = [])]
fn add() -> u64 {
    1 + 2
}

perfmark::main!();
