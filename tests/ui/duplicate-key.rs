use perfmark::perf_test;

#[perf_test(budget = "50ns", confidence = 0.99, budget = "60ns")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
