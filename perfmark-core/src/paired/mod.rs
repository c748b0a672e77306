//! The paired comparison of two builds (`--compare-with PATH`, and so
//! `cargo perfmark compare`), the whole feature in one place:
//!
//! - [`runner`]: the run's step for a compare run: each selected test of
//!   both builds measured and judged, tests in one build only listed;
//! - [`measure`]: the slice policy over a [`measure::PairDriver`]: what to time
//!   next, when to stop;
//! - [`stats`]: the estimate of `head / base`, the decision rule and the
//!   look schedule, pure functions of numbers;
//! - [`check`]: the verdict as one of the run's checks, a value the
//!   report puts in words; [`record`]: what `report.json` keeps of it;
//! - [`pair`]: [`ProcessPair`], the two builds' worker processes (the
//!   transport, [`crate::worker`], is every run's).
//!
//! Only [`record`] (what `report.json` keeps) is in every test binary;
//! the rest is compiled with the `compare` feature, which `cargo perfmark
//! compare` turns on: a build without it still serves as a base, as its
//! workers are every run's.
//!
//! The measuring and statistical layers do not know the runner; the runner
//! step is the only part that reads the run's options.
//!
//! Interleaving two builds in slices of about 10 ms, in the same time
//! window, is what cancels a shared machine whose state changes every
//! second or two: tango-bench (bazhenov/tango) interleaves base and
//! candidate the same way, and duet benchmarking (Bulej et al., ICPE 2020)
//! runs the two side by side for the same reason.

pub mod builds;
#[cfg(feature = "compare")]
pub mod check;
#[cfg(feature = "compare")]
pub mod measure;
#[cfg(feature = "compare")]
pub mod pair;
pub mod record;
#[cfg(feature = "compare")]
pub(crate) mod runner;
#[cfg(feature = "compare")]
pub mod said;
#[cfg(feature = "compare")]
pub mod stats;

#[cfg(feature = "compare")]
pub use check::Paired;
#[cfg(all(feature = "compare", feature = "internals"))]
pub use measure::{run_paired, PairedMeasurement, PairedPlan, SlicePair};
#[cfg(feature = "compare")]
pub use pair::ProcessPair;
pub use record::{ComparisonRecord, RunComparison};
