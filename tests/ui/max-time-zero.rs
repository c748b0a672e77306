use perfmark::perf_test;

#[perf_test(max_time = "0s")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
