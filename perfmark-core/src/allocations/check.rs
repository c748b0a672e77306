//! The allocation check: fail when the heap allocations per
//! iteration, counted in the untimed counting pass, exceed the test's
//! `allocs` limit.
//!
//! Counts are deterministic for most routines, so there is no interval and
//! no margin: one allocation over the limit fails. A count that could not
//! be taken (the binary's global allocator is not perfmark's counting one)
//! fails a test with a limit too, and says why: a limit that silently
//! checks nothing would be worse than none. The sentences are
//! [`crate::report::words::allocations`]'s.

use crate::checks::{Check, Finding, Source, Subject};
use crate::report::words::allocations as words;

/// The allocation check of a run: decides the tests with an `allocs` limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Allocs;

impl Check for Allocs {
    fn check(&self, subject: &Subject<'_>) -> Option<Finding> {
        let limit = subject.plan.allocs?;
        let Some(counted) = subject.allocations else {
            return Some(Finding::fail(
                Source::Allocations,
                words::not_counted(limit),
            ));
        };
        let passed = counted.allocs_per_iter <= limit as f64;
        let reason = words::reason(counted, limit, passed);
        Some(if passed {
            Finding::pass(Source::Allocations, reason)
        } else {
            Finding::fail(Source::Allocations, reason)
        })
    }
}
