use perfmark::perf_test;

#[perf_test(confidence = "0.95")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
