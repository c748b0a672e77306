//! perfmark's runtime. Users depend on the `perfmark` facade, not on this.
//!
//! The data flows one way: [`registry`] (what the macro submits) →
//! [`runner`] (command line, filters, one test at a time, exit status) →
//! [`clock`] and [`sampler`] (driven through the [`Bencher`]) → [`stats`] →
//! [`verdict`] → [`report`].

pub mod baseline;
pub mod bencher;
pub mod clock;
pub mod html;
pub mod platform;
pub mod registry;
pub mod report;
pub mod runner;
pub mod sampler;
pub mod stats;
pub mod units;
pub mod verdict;

pub use bencher::{Bencher, Work};
#[doc(hidden)]
pub use inventory;
