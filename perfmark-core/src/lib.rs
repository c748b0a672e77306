//! perfmark's runtime. Users depend on the `perfmark` facade, not on this.
//!
//! The data flows one way: [`registry`] (what the macro submits) →
//! [`runner`] (command line, filters, one test at a time, exit status) →
//! [`measure`] (the [`Bencher`] hands its routine to a driver; the adaptive
//! sampler is one policy over it, timed with the [`clock`]) → [`stats`] →
//! [`checks`] → [`report`] (console, `report.json`, Markdown; the HTML page
//! is `cargo perfmark report`'s, drawn from `report.json`).
//! [`observe`] reads what the OS knows about other work around each
//! test's measurement (steal, run-queue waits, switches, migrations).
//!
//! Each feature has one folder, which holds its own layers (what it
//! measures, its pure statistics, its decision and, where it has one, its
//! step of the run):
//! - [`budget`]: `budget = "…"`, the sampler's looks and the verdict;
//! - [`baseline`]: the stored baselines (the store, its entries and
//!   fingerprints) and the rule that compares a run with them, with the
//!   between-run spread it rests on;
//! - [`paired`]: `--compare-with`, two builds compared slice by slice in
//!   worker processes;
//! - [`complexity`]: `complexity = "…"`, the growth fit and its test;
//! - [`allocations`]: the counting global allocator `main!()` installs
//!   and the `allocs` limit;
//! - [`instructions`]: counts under Callgrind and the `instructions`
//!   limit;
//! - [`processes`]: the spread between processes every run measures.

// The docs are written for perfmark's contributors as much as for
// cargo-perfmark: they link the runtime's private steps and modules, which
// `cargo doc --document-private-items --features internals` renders.
#![allow(rustdoc::private_intra_doc_links)]

/// Declares modules that are the runtime's own: `pub(crate)`, or `pub`
/// with the `internals` feature, which perfmark's own tests and workspace
/// tasks enable to reach them (no API promise is made for them).
macro_rules! internal_modules {
    ($($name:ident),* $(,)?) => {
        $(
            #[cfg(feature = "internals")]
            pub mod $name;
            #[cfg(not(feature = "internals"))]
            pub(crate) mod $name;
        )*
    };
}

internal_modules!(
    allocations,
    bencher,
    budget,
    checks,
    clock,
    complexity,
    cpus,
    instructions,
    measure,
    observe,
    paired,
    platform,
    processes,
    registry,
    runner,
    stats,
    verdicts,
    worker,
);

pub mod baseline;
mod error;
pub mod fs;
mod json_text;
pub mod report;

/// The property tests' runner, shared with `tests/properties/`.
#[cfg(test)]
#[path = "../tests/common/props.rs"]
mod props;

pub use allocations::CountingAlloc;
pub use bencher::{AsyncBencher, Bencher, BlockOn, Executor, Work};
pub use complexity::size::Size;
pub use error::Error;
pub use worker::probe;
pub use worker::Side;

/// What the `perfmark` facade's `main!` and the code `#[perf_test]`
/// generates use. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::bencher::record_size;
    pub use crate::registry::{Complexity, Ignore, Measure, PerfTest, TestOptions};
    pub use crate::runner::{run_main, BuildInfo};
    pub use crate::{Bencher, BlockOn, Size};
    pub use inventory;
}
