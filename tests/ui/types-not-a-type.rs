use perfmark::perf_test;

#[perf_test(types = [u32, 64, String])]
fn make<T: Default>() -> T {
    T::default()
}

perfmark::main!();
