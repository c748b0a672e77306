use perfmark::perf_test;

#[perf_test(types = [])]
fn make<T: Default>() -> T {
    T::default()
}

perfmark::main!();
