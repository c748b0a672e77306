use perfmark::{black_box, perf_test, Bencher};

#[perf_test]
fn sum_and_sort(b: &mut Bencher) {
    let v: Vec<u64> = (0..64).collect();
    b.iter(|| black_box(&v).iter().sum::<u64>());
    b.iter_batched(|| v.clone(), |mut w| w.sort_unstable());
}

perfmark::main!();
