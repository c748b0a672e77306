use perfmark::perf_test;

#[perf_test(confidence = 1.5)]
fn checksum() -> u32 {
    42
}

perfmark::main!();
