use perfmark::perf_test;

#[perf_test]
fn make<T: Default>() -> T {
    T::default()
}

perfmark::main!();
