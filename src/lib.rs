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

pub use perfmark_core::{Bencher, Work};
pub use perfmark_macros::perf_test;
pub use std::hint::black_box;

/// The README's Rust snippets, compiled by `cargo test --doc -p perfmark`
/// so that what a user copies builds as written. A snippet that cannot be
/// whole is fenced `rust,ignore` and says why beside it.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeSnippets;

/// docs/ci.md's Rust snippets (the user's own xtask), compiled the same way.
#[cfg(doctest)]
#[doc = include_str!("../docs/ci.md")]
pub struct CiSnippets;

/// The entry point of a perf test binary (`harness = false`): runs every
/// `#[perf_test]` in it with libtest's command line and exit status.
#[macro_export]
macro_rules! main {
    () => {
        fn main() {
            ::perfmark::__private::run_main(::perfmark::__private::BuildInfo {
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
    pub use perfmark_core::inventory;
    pub use perfmark_core::registry::{Ignore, PerfTest, TestOptions};
    pub use perfmark_core::runner::{run_main, BuildInfo};
    pub use perfmark_core::Bencher;
}
