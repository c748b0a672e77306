use perfmark::perf_test;

#[perf_test(types = [u32, u64])]
fn checksum() -> u32 {
    42
}

perfmark::main!();
