use perfmark::perf_test;

#[perf_test(args = [1.5, 10.5, 100.5, 1000.5], complexity = "n")]
fn scale(x: f64) -> f64 {
    x * 2.0
}

perfmark::main!();
