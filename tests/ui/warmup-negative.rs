use perfmark::perf_test;

#[perf_test(warmup = "-300ms")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
