use perfmark::perf_test;

#[perf_test]
extern "C" fn ffi() -> u32 {
    42
}

perfmark::main!();
