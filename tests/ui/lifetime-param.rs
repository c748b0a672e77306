use perfmark::perf_test;

#[perf_test]
fn borrow<'a>() -> &'a str {
    "x"
}

perfmark::main!();
