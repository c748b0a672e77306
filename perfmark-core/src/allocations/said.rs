//! What the allocations check found, as values: its sentence is made in
//! `report/words`.

use super::Allocations;

/// What the allocation check said of a test with an `allocs` limit.
#[derive(Debug, Clone, PartialEq)]
pub struct AllocationsSaid {
    /// The limit, allocations per iteration.
    pub limit: u64,
    /// What the counting pass found; `None` when allocations were not
    /// counted (the limit cannot be checked).
    pub counted: Option<Allocations>,
}

impl AllocationsSaid {
    /// Whether it fails the test: more allocations per iteration than the
    /// limit, or none counted.
    pub fn fails(&self) -> bool {
        self.counted.as_ref().is_none_or(|c| !c.within(self.limit))
    }
}
