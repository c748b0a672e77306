use perfmark::{perf_test, Bencher};

#[perf_test]
fn sum(b: &mut Bencher) -> u32 {
    b.iter(|| 1 + 1);
    42
}

perfmark::main!();
