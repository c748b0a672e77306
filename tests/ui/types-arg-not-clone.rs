use perfmark::perf_test;

#[derive(Default)]
struct Opaque;

#[perf_test(types = [u32, Opaque], args = [Default::default()])]
fn keep<T: Default>(n: Vec<T>) -> usize {
    n.len()
}

perfmark::main!();
