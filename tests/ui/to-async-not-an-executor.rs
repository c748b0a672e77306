use perfmark::{perf_test, Bencher};

#[perf_test]
fn fetch(b: &mut Bencher) {
    let runtime = 42u32;
    b.to_async(&runtime).iter(async || 1 + 1);
}

perfmark::main!();
