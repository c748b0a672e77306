use perfmark::perf_test;

#[perf_test(types = [u8, u64])]
fn zeros<T: Default + Copy, const N: usize>() -> [T; N] {
    [T::default(); N]
}

perfmark::main!();
