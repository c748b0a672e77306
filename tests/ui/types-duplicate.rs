use perfmark::perf_test;

#[perf_test(types = [u32, Vec<u8>, Vec< u8 >])]
fn make<T: Default>() -> T {
    T::default()
}

perfmark::main!();
