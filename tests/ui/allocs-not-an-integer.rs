use perfmark::perf_test;

#[perf_test(allocs = "0")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
