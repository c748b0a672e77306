//! Paired comparison of two builds, the process side: the worker mode of a
//! test binary, the line protocol it speaks, and the coordinator's handles
//! on worker processes. What to time and when to stop is the paired policy
//! in [`crate::measure::paired`]; the estimate and verdict are in
//! [`crate::stats::paired`].
//!
//! Interleaving two builds in slices of about 10 ms, in the same time
//! window, is what cancels a shared machine whose state changes every
//! second or two: tango-bench (bazhenov/tango) interleaves base and
//! candidate the same way, and duet benchmarking (Bulej et al., ICPE 2020)
//! runs the two side by side for the same reason.

pub mod lines;
pub mod process;
pub mod protocol;
pub mod serve;
pub mod worker;

pub use process::{probe, ProcessPair, WorkerProcess};
pub use protocol::{PROTOCOL_VERSION, WORKER_FLAG};
