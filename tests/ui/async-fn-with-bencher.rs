use perfmark::{perf_test, Bencher};

#[perf_test]
async fn fetch(b: &mut Bencher) {
    let _ = b;
}

perfmark::main!();
