use perfmark::perf_test;

struct Input(u64);

#[perf_test(args = [Input(3)])]
fn consume(input: Input) -> u64 {
    input.0
}

perfmark::main!();
