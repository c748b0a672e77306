use perfmark::perf_test;

#[perf_test(consts = [4, 8])]
fn grid<const W: usize, const H: usize>() -> [[u8; W]; H] {
    [[0; W]; H]
}

perfmark::main!();
