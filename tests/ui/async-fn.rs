use perfmark::perf_test;

#[perf_test]
async fn fetch() -> u32 {
    42
}

perfmark::main!();
