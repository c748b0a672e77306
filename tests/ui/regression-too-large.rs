use perfmark::perf_test;

#[perf_test(regression = "150%")]
fn checksum() -> u32 {
    42
}

perfmark::main!();
