use perfmark::perf_test;

const SMALL: usize = 16;

#[perf_test(consts = [SMALL, SMALL * 4])]
fn zeros<const N: usize>() -> [u8; N] {
    [0; N]
}

perfmark::main!();
