use perfmark::perf_test;

#[perf_test]
unsafe fn raw() -> u32 {
    42
}

perfmark::main!();
