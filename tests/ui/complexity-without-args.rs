use perfmark::perf_test;

#[perf_test(complexity = "n")]
fn scan() -> u64 {
    (0..1000u64).sum()
}

perfmark::main!();
