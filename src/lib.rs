//! perfmark: performance as a test.
//!
//! ```ignore
//! use perfmark::{perf_test, Bencher};
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

pub use perfmark_core::{Bencher, Size, Work};
pub use perfmark_macros::perf_test;
pub use std::hint::black_box;

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
    pub use perfmark_core::bencher::record_size;
    pub use perfmark_core::inventory;
    pub use perfmark_core::registry::{Complexity, Ignore, PerfTest, TestOptions};
    pub use perfmark_core::runner::{run_main, BuildInfo};
    pub use perfmark_core::{Bencher, Size};
}
