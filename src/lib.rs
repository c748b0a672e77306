//! perfmark: performance as a test.
//!
//! Put [`#[perf_test]`](perf_test) on a function in a test target with
//! `harness = false`, end the file with [`perfmark::main!()`](main!), and
//! `cargo test --release` measures each test and passes or fails it: against
//! its budget, a stored baseline, or the base build of a pull request
//! (`cargo perfmark compare`).
//!
//! ```toml
//! [dev-dependencies]
//! perfmark = "0.1"
//!
//! [[test]]
//! name = "perf"
//! harness = false
//! ```
//!
//! ```no_run
//! // tests/perf.rs
//! use perfmark::{black_box, perf_test, Bencher};
//!
//! /// The whole body is one iteration.
//! #[perf_test(budget = "1us")]
//! fn count_words() -> usize {
//!     black_box("the quick brown fox jumps over the lazy dog").split_whitespace().count()
//! }
//!
//! /// The body sets up; the Bencher times the routine it is handed.
//! #[perf_test(budget = "40us")]
//! fn sort_1k(b: &mut Bencher) {
//!     let input: Vec<u64> = (0..1000).map(|i| i * 7919 % 1000).collect();
//!     b.iter_batched(|| input.clone(), |mut v| {
//!         v.sort();
//!         v
//!     });
//! }
//!
//! perfmark::main!();
//! ```
//!
//! Async code is measured too: `#[perf_test] async fn` runs on perfmark's
//! own executor ([`BlockOn`]), and [`Bencher::to_async`] runs an async
//! routine on any [`Executor`]; the `tokio` feature implements it for
//! tokio's `Runtime` and `Handle`.
//!
//! The user's guide is the repository's README and `docs/`: every option,
//! the verdicts and how they are decided, the output, continuous
//! integration, troubleshooting, and migrating from Criterion or Divan.
#![deny(missing_docs)]

/// Makes a function a perf test, run by [`main!`]: its time per iteration
/// is measured and checked against the options given.
///
/// The function is one iteration (`fn f()`, `fn f() -> T`, `async fn`),
/// or hands its routine to a [`Bencher`] (`fn f(b: &mut Bencher)`); with
/// `args = [..]` it takes one argument and becomes one test per argument
/// (`f::10`, `f::100`). Options, all optional: `budget`, `confidence`,
/// `regression`, `precision`, `max_time`, `warmup`, `args`, `allocs`,
/// `instructions`, `count_regression`, `complexity`, `measure`, `ignore`,
/// `crate`. An invalid value is a compile error saying what is accepted.
///
/// ```no_run
/// use perfmark::{perf_test, Bencher};
///
/// #[perf_test(args = [1_000, 10_000, 100_000, 1_000_000], complexity = "n log n", allocs = 0)]
/// fn sort(b: &mut Bencher, n: u64) {
///     let input: Vec<u64> = (0..n).map(|i| i * 7919 % n).collect();
///     b.iter_batched_ref(|| input.clone(), |v: &mut Vec<u64>| v.sort_unstable());
/// }
///
/// #[perf_test(budget = "2us", ignore = "slow on shared runners")]
/// async fn parse() -> u64 {
///     perfmark::black_box("12345").parse().unwrap()
/// }
///
/// perfmark::main!();
/// ```
#[doc(inline)]
pub use perfmark_macros::perf_test;

/// What a `fn f(b: &mut Bencher)` perf test hands its timed routine to. A
/// test in full:
///
/// ```no_run
/// use perfmark::{perf_test, Bencher};
///
/// #[perf_test(budget = "100ns")]
/// fn search(b: &mut Bencher) {
///     let table: Vec<u64> = (0..1024).map(|i| i * 3).collect();
///     b.items(1);
///     b.iter(|| table.binary_search(&perfmark::black_box(2049)));
/// }
///
/// perfmark::main!();
/// ```
#[doc(inline)]
pub use perfmark_core::Bencher;

/// The async forms of the [`Bencher`], made by [`Bencher::to_async`].
///
/// ```no_run
/// use perfmark::{perf_test, Bencher, BlockOn};
///
/// #[perf_test(budget = "1us")]
/// fn channel(b: &mut Bencher) {
///     let (tx, rx) = std::sync::mpsc::channel();
///     b.to_async(BlockOn).iter(async || {
///         tx.send(7u64).unwrap();
///         rx.recv().unwrap()
///     });
/// }
///
/// perfmark::main!();
/// ```
#[doc(inline)]
pub use perfmark_core::AsyncBencher;

/// perfmark's own executor, the one `#[perf_test] async fn` runs on.
///
/// ```no_run
/// use perfmark::{perf_test, Bencher, BlockOn};
///
/// #[perf_test]
/// fn ready(b: &mut Bencher) {
///     b.to_async(BlockOn).iter(async || std::future::ready(1u64).await);
/// }
///
/// perfmark::main!();
/// ```
#[doc(inline)]
pub use perfmark_core::BlockOn;

/// What runs the futures of [`Bencher::to_async`]: implement it for your
/// runtime.
///
/// ```
/// use perfmark::{BlockOn, Executor};
///
/// struct MyRuntime;
///
/// impl Executor for MyRuntime {
///     fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
///         BlockOn.block_on(future) // here, your runtime's own block_on
///     }
/// }
///
/// assert_eq!(MyRuntime.block_on(async { 6 * 7 }), 42);
/// ```
#[doc(inline)]
pub use perfmark_core::Executor;

/// The counting global allocator [`main!`] installs, over the system
/// allocator or yours.
///
/// ```no_run
/// // tests/perf.rs: the counting allocator over a global allocator of
/// // yours (here the system's)
/// use perfmark::perf_test;
///
/// #[perf_test(allocs = 1)]
/// fn one_box() -> Box<u64> {
///     Box::new(perfmark::black_box(7))
/// }
///
/// perfmark::main!(allocator = std::alloc::System);
/// ```
#[doc(inline)]
pub use perfmark_core::CountingAlloc;

/// The size of a `complexity` test's argument: implement it for a type of
/// your own.
///
/// ```
/// struct Graph {
///     nodes: Vec<u32>,
///     edges: Vec<(u32, u32)>,
/// }
///
/// impl perfmark::Size for Graph {
///     fn size(&self) -> u64 {
///         (self.nodes.len() + self.edges.len()) as u64
///     }
/// }
///
/// use perfmark::Size;
/// let g = Graph { nodes: vec![0, 1], edges: vec![(0, 1)] };
/// assert_eq!(g.size(), 3);
/// assert_eq!(vec![1, 2, 3].size(), 3);
/// ```
#[doc(inline)]
pub use perfmark_core::Size;

/// The work one iteration does, for rates ([`Bencher::work`]).
///
/// ```no_run
/// use perfmark::{perf_test, Bencher, Work};
///
/// #[perf_test]
/// fn checksum(b: &mut Bencher) {
///     let data = vec![1u8; 1 << 16];
///     b.work(Work::Bytes(data.len() as u64)); // reported as GB/s
///     b.iter(|| data.iter().map(|&x| u64::from(x)).sum::<u64>());
/// }
///
/// perfmark::main!();
/// ```
#[doc(inline)]
pub use perfmark_core::Work;

/// `std::hint::black_box`, re-exported: keeps the optimizer from assuming
/// anything about a value, so the work on it is done and timed. A perf
/// test's result and a Bencher routine's output pass through it already.
///
/// ```
/// let n = perfmark::black_box(40u64);
/// assert_eq!(n + 2, 42);
/// ```
#[doc(inline)]
pub use std::hint::black_box;

/// The README's Rust snippets, compiled by `cargo test --doc -p perfmark`
/// so that what a user copies builds as written. A snippet that cannot be
/// whole is fenced `rust,ignore` and says why beside it.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeSnippets;

/// The Rust snippets of docs/attribute.md (the complexity example, your
/// own allocator), compiled as the README's are.
#[cfg(doctest)]
#[doc = include_str!("../docs/attribute.md")]
pub struct AttributeGuideSnippets;

/// The Rust snippets of docs/migrating.md (perfmark's side of each
/// example), compiled as the README's are.
#[cfg(doctest)]
#[doc = include_str!("../docs/migrating.md")]
pub struct MigratingGuideSnippets;

/// The entry point of a perf test binary (`harness = false`): runs every
/// `#[perf_test]` in it with libtest's command line and exit status, and
/// installs perfmark's counting global allocator ([`CountingAlloc`]), which
/// counts heap allocations for the `allocs` option and the per-test
/// allocation figures.
///
/// - `perfmark::main!()`: counts over the system allocator.
/// - `perfmark::main!(allocator = mimalloc::MiMalloc)`: counts over your
///   own global allocator, given as a path to a unit struct. Remove your
///   `#[global_allocator]` item: this one replaces it.
/// - `perfmark::main!(allocator: MyAlloc = MyAlloc::new())`: the same for
///   an allocator built by a `const` expression, with its type.
///
/// ```no_run
/// // tests/perf.rs
/// #[perfmark::perf_test(budget = "1us")]
/// fn add() -> u64 {
///     perfmark::black_box(1u64) + perfmark::black_box(2u64)
/// }
///
/// perfmark::main!(allocator: std::alloc::System = std::alloc::System);
/// ```
///
/// A binary has one global allocator. A `#[global_allocator]` of your own
/// beside `main!()` is refused by rustc ("cannot define multiple global
/// allocators", pointing at yours and at the one `main!` defines); one in a
/// linked crate is refused too ("the `#[global_allocator]` in … conflicts
/// with global allocator in: …"). Either way, move your allocator into
/// `main!`'s `allocator` form. Allocations are never silently miscounted:
/// should the counting allocator not be the one in use, the run says that
/// allocations are not counted and tests with `allocs` fail.
#[macro_export]
macro_rules! main {
    () => {
        $crate::main!(allocator: ::std::alloc::System = ::std::alloc::System);
    };
    (allocator = $allocator:path $(,)?) => {
        $crate::main!(allocator: $allocator = $allocator);
    };
    (allocator: $ty:ty = $allocator:expr $(,)?) => {
        /// perfmark's counting allocator, over the allocator the binary uses.
        #[global_allocator]
        static PERFMARK_COUNTING_GLOBAL_ALLOCATOR: $crate::CountingAlloc<$ty> =
            $crate::CountingAlloc::new($allocator);

        fn main() {
            $crate::__private::run_main($crate::__private::BuildInfo {
                debug_assertions: cfg!(debug_assertions),
                crate_name: env!("CARGO_CRATE_NAME"),
                manifest_dir: env!("CARGO_MANIFEST_DIR"),
            })
        }
    };
}

/// Used by the code `#[perf_test]` and `main!` generate. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use perfmark_core::__private::*;
}
