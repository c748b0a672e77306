use perfmark::perf_test;

#[perf_test(budget)]
fn checksum() -> u32 {
    42
}

perfmark::main!();
