use perfmark::perf_test;

#[perf_test(precision = "1")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
