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
//! | [`logchain`] | 100 chained logarithms | seed 000, Falco |
//! | [`math`] | `multiply`; the Mark7 math functions | seed 003, Sestoft |
//! | [`memory`] | pointer-chasing latency over 1 KiB … 256 MiB | seed 003, Sestoft |
//! | [`allocation`] | boxed object creation; malloc in the loop vs stack / reused buffer | seeds 003, 001 |
//! | [`threads`] | thread create, create + start, create + start + join | seed 003, Sestoft |
//! | [`sync`] | uncontended lock; atomic vs plain reads (sortedness check) | seed 003, Sestoft |
//! | [`primes`] | prime counting, sequential and over N threads; sieve | seeds 003, 004 |
//! | [`noise`] | LFSR advancer, the runner's noise floor | seed 002, Boyer |
//! | [`paging`] | touching 5 / 10 / 100 / 1000 fresh pages | seed 001, Newcomer |
//! | [`fileio`] | unbuffered vs buffered byte-by-byte file reads | seed 001, Newcomer |
//! | [`linalg`] | DAXPY; Gaussian elimination with partial pivoting | seed 004, lecture |
//! | [`livermore`] | Livermore loops 1, 3, 5, 7, 12 | seed 004, lecture |
//! | [`sorting`] | quicksort on a deterministic shuffle | seed 004, lecture |
//! | [`search`] | binary search over varied keys | seed 003, Sestoft |
//!
//! The seeds are the source documents in the perfmark repository's
//! `shared/seeds/`; `docs/kernels.md` gives each kernel's measured time and
//! rate on a reference machine.

pub mod allocation;
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
