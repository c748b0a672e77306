use perfmark::perf_test;

struct Parser;

impl Parser {
    #[perf_test]
    fn parse(&self) -> u32 {
        42
    }
}

perfmark::main!();
