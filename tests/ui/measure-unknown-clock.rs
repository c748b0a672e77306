use perfmark::perf_test;

#[perf_test(measure = "gpu")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
