//! The allocation check: fail when the heap allocations per
//! iteration, counted in the untimed counting pass, exceed the test's
//! `allocs` limit.
//!
//! Counts are deterministic for most routines, so there is no interval and
//! no margin: one allocation over the limit fails. A count that could not
//! be taken (the binary's global allocator is not perfmark's counting one)
//! fails a test with a limit too, and says why: a limit that silently
//! checks nothing would be worse than none.

use super::said::AllocationsSaid;
use crate::checks::{Check, Finding, Said, Subject};

/// The allocation check of a run: decides the tests with an `allocs` limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Allocs;

impl Check for Allocs {
    fn check(&self, subject: &Subject<'_>) -> Option<Finding> {
        Some(Finding::new(Said::Allocations(AllocationsSaid {
            limit: subject.plan.allocs?,
            counted: subject.allocations.cloned(),
        })))
    }
}
