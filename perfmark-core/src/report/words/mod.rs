//! The verdicts in words: the sentences the checks and the runner give a
//! test, made here alone, one file per feature (and one for the runner's,
//! one for a measurement's warnings), from the figures decided on. The
//! sentences are part of the output contract (docs/output.md).

pub mod allocations;
pub mod baseline;
pub mod budget;
pub mod complexity;
pub mod cpus;
pub mod environment;
pub mod instructions;
pub mod interference;
pub mod measurement;
pub mod paired;
pub mod processes;
pub mod remeasure;
pub mod runner;
