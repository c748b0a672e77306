use perfmark::perf_test;

#[perf_test(
    budget = "50 parsecs",
    confidence = 2.0,
    frobnicate,
    warmup = "1s",
    warmup = "2s"
)]
async fn everything<T>(_this: T, _that: T) {}

perfmark::main!();
