//! The paired comparison of two builds (`--compare-with PATH`, and so
//! `cargo perfmark compare`), the whole feature in one place:
//!
//! - [`runner`]: the run's step for a compare run: each selected test of
//!   both builds measured and judged, tests in one build only listed;
//! - [`measure`]: the slice policy over a [`measure::PairDriver`]: what to time
//!   next, when to stop;
//! - [`stats`]: the estimate of `head / base`, the decision rule and the
//!   look schedule, pure functions of numbers;
//! - [`check`]: the verdict as one of the run's checks; [`record`]: what
//!   `report.json` keeps of it (its words are
//!   [`crate::report::words::paired`]'s);
//! - the process side: [`worker`] (the worker mode of a test binary),
//!   [`protocol`] and [`lines`] (the line protocol it speaks), [`serve`]
//!   (a worker's answers to the coordinator), [`process`] (the
//!   coordinator's handles on worker processes, [`ProcessPair`]).
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
pub mod check;
pub mod lines;
pub mod measure;
pub mod process;
pub mod protocol;
pub mod record;
pub(crate) mod runner;
pub mod serve;
pub mod stats;
pub mod worker;

pub use check::Paired;
pub use record::{ComparisonRecord, RunComparison};
pub use measure::Side;
#[cfg(feature = "internals")]
pub use measure::{run_paired, PairedMeasurement, PairedPlan, PairedStop, SlicePair};
pub use process::{probe, ProcessPair};
#[cfg(feature = "internals")]
pub use process::WorkerProcess;
pub use protocol::WORKER_FLAG;
#[cfg(feature = "internals")]
pub use protocol::PROTOCOL_VERSION;
