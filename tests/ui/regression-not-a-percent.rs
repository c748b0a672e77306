use perfmark::perf_test;

#[perf_test(budget = "50ns", regression = "5")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
