use perfmark::perf_test;

#[perf_test(types = [u32])]
fn borrow<'a, T: Default>() -> T {
    T::default()
}

perfmark::main!();
