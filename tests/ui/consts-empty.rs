use perfmark::perf_test;

#[perf_test(consts = [])]
fn zeros<const N: usize>() -> [u8; N] {
    [0; N]
}

perfmark::main!();
