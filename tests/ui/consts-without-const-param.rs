use perfmark::perf_test;

#[perf_test(consts = [16, 64])]
fn checksum() -> u32 {
    42
}

perfmark::main!();
