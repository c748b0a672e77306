use perfmark::perf_test;

#[perf_test(threads = [1, 4])]
async fn add() -> u64 {
    1 + 2
}

perfmark::main!();
