use perfmark::perf_test;

#[perf_test(confidence = 0.3)]
fn checksum() -> u32 {
    42
}

perfmark::main!();
