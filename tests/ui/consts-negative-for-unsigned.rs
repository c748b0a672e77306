use perfmark::perf_test;

#[perf_test(consts = [16, -1])]
fn zeros<const N: usize>() -> [u8; N] {
    [0; N]
}

perfmark::main!();
