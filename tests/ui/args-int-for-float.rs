use perfmark::perf_test;

#[perf_test(args = [0.5, 10])]
fn root(x: f64) -> f64 {
    x.sqrt()
}

perfmark::main!();
