use perfmark::perf_test;

#[perf_test(precision = "100%")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
