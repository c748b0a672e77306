//! The verdicts in words: the sentences the checks give a test, made here
//! alone, one file per feature, from the figures the checks decided on.
//! The sentences are part of the output contract (docs/output.md).

pub mod allocations;
pub mod baseline;
pub mod budget;
pub mod complexity;
pub mod instructions;
pub mod paired;
