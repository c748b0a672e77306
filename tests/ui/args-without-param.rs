use perfmark::{perf_test, Bencher};

#[perf_test(args = [10, 100])]
fn sum(b: &mut Bencher) {
    b.iter(|| 1 + 1);
}

perfmark::main!();
