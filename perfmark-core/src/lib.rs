//! perfmark's runtime. Users depend on the `perfmark` facade, not on this.
//!
//! The data flows one way: [`registry`] (what the macro submits) →
//! [`runner`] (command line, filters, one test at a time, exit status) →
//! [`measure`] (the [`Bencher`] hands its routine to a driver; the adaptive
//! sampler is one policy over it, timed with the [`clock`]) → [`stats`] →
//! [`checks`] (budget, regression) → [`report`] (console, `report.json`,
//! Markdown, HTML). The [`baseline`] store feeds the regression check and is
//! fed by the runner; both write their files through one atomic helper.
//! [`observe`] reads what the OS knows about other work around each
//! test's measurement (steal, run-queue waits, switches, migrations).
//! [`allocations`] holds the counting global allocator `main!()` installs
//! and what a test's untimed counting pass found.

pub mod allocations;
pub mod baseline;
pub mod bencher;
pub mod checks;
pub mod clock;
pub mod error;
pub(crate) mod fs;
pub mod measure;
pub mod observe;
pub mod pair;
pub mod platform;
pub mod registry;
pub mod report;
pub mod runner;
pub mod size;
pub mod stats;

/// The property tests' runner, shared with `tests/properties/`.
#[cfg(test)]
#[path = "../tests/common/props.rs"]
mod props;

pub use allocations::CountingAlloc;
pub use bencher::{Bencher, Work};
pub use error::Error;
#[doc(hidden)]
pub use inventory;
pub use size::Size;
