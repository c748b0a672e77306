use perfmark::{perf_test, Bencher};

#[perf_test]
fn forgot(b: &mut Bencher) {
    let v: Vec<u64> = (0..64).collect();
    let _total: u64 = v.iter().sum();
}

perfmark::main!();
