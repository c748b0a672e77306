use perfmark::perf_test;

#[perf_test(measure = "cpu")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
