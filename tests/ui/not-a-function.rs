use perfmark::perf_test;

#[perf_test]
struct Checksum;

perfmark::main!();
