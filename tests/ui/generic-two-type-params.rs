use perfmark::perf_test;

#[perf_test(types = [u32])]
fn convert<T: Default, U: From<T>>() -> U {
    U::from(T::default())
}

perfmark::main!();
