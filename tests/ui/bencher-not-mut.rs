use perfmark::{perf_test, Bencher};

#[perf_test]
fn sum(b: &Bencher) {
    let _ = b;
}

perfmark::main!();
