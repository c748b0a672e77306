//! perfmark: performance as a test.
//!
//! ```no_run
//! use perfmark::perf_test;
//!
//! #[perf_test(budget = "50ns")]
//! fn add() -> u64 { perfmark::black_box(1u64) + perfmark::black_box(2u64) }
//!
//! perfmark::main!();
//! ```
//!
//! `cargo test --release` measures each `#[perf_test]` and passes or fails it
//! against its budget. See the README for the options, the command line and
//! the output.
//!
//! Async code is measured too: `#[perf_test] async fn` runs on perfmark's
//! own executor ([`BlockOn`]), and [`Bencher::to_async`] runs an async
//! routine on any [`Executor`]; the `tokio` feature implements it for
//! tokio's `Runtime` and `Handle` (docs/async.md).

pub use perfmark_core::{AsyncBencher, Bencher, BlockOn, CountingAlloc, Executor, Size, Work};
pub use perfmark_macros::perf_test;
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
