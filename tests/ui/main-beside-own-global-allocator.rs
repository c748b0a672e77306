//! A crate with a global allocator of its own must hand it to `main!`
//! (`perfmark::main!(allocator = …)`) rather than keep its own item: a
//! binary has one global allocator, and perfmark's counts the allocations.
use perfmark::perf_test;
use std::alloc::System;

#[global_allocator]
static MINE: System = System;

#[perf_test]
fn checksum() -> u32 {
    42
}

perfmark::main!();
