//! Standard workloads for perfmark, drawn from the benchmarking literature
//! perfmark is built on, and the home of perfmark's own perf suite
//! (`tests/perf.rs`).
//!
//! Every kernel is deterministic, has a known answer checked by a unit
//! test, and documents its source and the work one call does (operations,
//! flops or bytes), with a `pub const` or `const fn` giving that work so a
//! perf test can declare it (`b.items(..)`, `b.flops(..)`, `b.bytes(..)`).
//! Inputs are built by a constructor, outside the timed call, from the
//! seeded generator in [`rng`]; the timed part is a method or function that
//! neither allocates (unless allocation is what it measures) nor draws
//! random numbers.
//!
//! | module | kernels | source |
//! |---|---|---|
//! | [`logchain`] | 100 chained logarithms | Falco (2009) |
//! | [`math`] | `multiply`; the Mark7 math functions | Sestoft (2016) |
//! | [`memory`] | pointer-chasing latency over 1 KiB … 256 MiB | Sestoft (2016) |
//! | [`allocation`] | boxed object creation; malloc in the loop vs stack / reused buffer | Sestoft (2016); Newcomer (1993) |
//! | [`threads`] | thread create, create + start, create + start + join | Sestoft (2016) |
//! | [`sync`] | uncontended lock; atomic vs plain reads (sortedness check) | Sestoft (2016) |
//! | [`contention`] | a locked counter, an atomic counter and an MPSC channel shared by every thread; per-thread work as the control | Sestoft (2016); JMH's `@Threads` |
//! | [`primes`] | prime counting, sequential and over N threads; sieve | Sestoft (2016); the performance-measurement lecture |
//! | [`noise`] | LFSR advancer, the runner's noise floor | Boyer (2008) |
//! | [`paging`] | touching 5 / 10 / 100 / 1000 fresh pages | Newcomer (1993) |
//! | [`fileio`] | unbuffered vs buffered byte-by-byte file reads | Newcomer (1993) |
//! | [`linalg`] | DAXPY; Gaussian elimination with partial pivoting | the performance-measurement lecture |
//! | [`livermore`] | Livermore loops 1, 3, 5, 7, 12 | the performance-measurement lecture; McMahon (1986) |
//! | [`sorting`] | quicksort on a deterministic shuffle | the performance-measurement lecture |
//! | [`search`] | binary search over varied keys | Sestoft (2016) |
//! | `channel` (feature `tokio`) | a tokio channel round trip to a task | async code's latency |
//!
//! The sources: Mark Falco, "Measuring performance via probability" (2009);
//! Peter Sestoft, "Microbenchmarks in Java and C#" and his lecture
//! "Practical Concurrent and Parallel Programming 4" (2016); Brent Boyer,
//! "Robust Java benchmarking" and its `bb.util.Benchmark` (2008); Joseph M.
//! Newcomer, "Profiling for performance", Dr. Dobb's Journal (1993);
//! "Performance measurement", a university lecture on performance
//! evaluation; F. H. McMahon, "The Livermore Fortran Kernels" (1986).
//! `docs/design/references.md` lists them in full; `docs/design/kernels.md` gives each
//! kernel's measured time and rate on a reference machine.

pub mod allocation;
#[cfg(feature = "tokio")]
pub mod channel;
pub mod contention;
pub mod fileio;
pub mod linalg;
pub mod livermore;
pub mod logchain;
pub mod math;
pub mod memory;
pub mod noise;
pub mod paging;
pub mod primes;
pub mod rng;
pub mod search;
pub mod sorting;
pub mod sync;
pub mod threads;

pub use noise::lfsr_advance;
