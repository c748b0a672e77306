use perfmark::perf_test;

#[perf_test(budget = "50 parsecs")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
