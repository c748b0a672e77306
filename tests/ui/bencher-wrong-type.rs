use perfmark::perf_test;

#[perf_test]
fn fill(buffer: &mut Vec<u8>) {
    buffer.push(1);
}

perfmark::main!();
