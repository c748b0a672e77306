use perfmark::{perf_test, Bencher};

#[perf_test]
fn fetch(b: &mut Bencher) {
    b.to_async().iter(async || 1 + 1);
}

perfmark::main!();
