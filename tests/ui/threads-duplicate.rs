use perfmark::perf_test;

#[perf_test(threads = [2, 4, 2])]
fn add() -> u64 {
    1 + 2
}

perfmark::main!();
