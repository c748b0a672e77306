use perfmark::perf_test;

#[perf_test]
async fn fetch<T: Default>() -> T {
    T::default()
}

perfmark::main!();
