use perfmark::{perf_test, Bencher, BlockOn};

#[perf_test]
fn fetch(b: &mut Bencher) {
    b.to_async(BlockOn).iter(|| 1 + 1);
}

perfmark::main!();
