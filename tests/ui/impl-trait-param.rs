use perfmark::perf_test;

#[perf_test(args = [10])]
fn show(n: impl std::fmt::Display) -> String {
    n.to_string()
}

perfmark::main!();
