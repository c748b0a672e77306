use perfmark::perf_test;

#[perf_test(allocs = -1)]
fn checksum() -> u32 {
    42
}

perfmark::main!();
