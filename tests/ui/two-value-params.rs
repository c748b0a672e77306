use perfmark::perf_test;

#[perf_test(args = [10, 100])]
fn add(a: u32, b: u32) -> u32 {
    a + b
}

perfmark::main!();
