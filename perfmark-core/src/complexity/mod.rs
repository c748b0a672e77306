//! Complexity, `#[perf_test(args = […], complexity = "O(n)")]`, the whole
//! feature in one place:
//!
//! - [`fit`]: how a routine's time grows with the size of its input, and
//!   whether a declared growth class holds, pure functions of numbers;
//! - [`check`]: the decision from that fit, a value the report puts in
//!   words; [`record`]: what `report.json` keeps of it;
//! - [`runner`]: the run's step for the test `NAME::complexity`, which
//!   gathers the group's measurements (taking those the filters left out)
//!   and judges them.

pub(crate) mod case;
pub mod check;
pub mod fit;
pub mod record;
pub(crate) mod runner;
pub mod said;
pub mod size;

pub use record::ComplexityRecord;
