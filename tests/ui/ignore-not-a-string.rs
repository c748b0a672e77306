use perfmark::perf_test;

#[perf_test(ignore = 1)]
fn checksum() -> u32 {
    42
}

perfmark::main!();
