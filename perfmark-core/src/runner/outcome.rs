//! What running one test gave: what the runner prints, reports and
//! counts, whether measured once or again under interference.

use crate::report::TestReport;

/// What happened to a test that ran.
pub(super) struct Outcome {
    pub(super) report: TestReport,
    /// What libtest prints under `failures:` for a failed test.
    pub(super) failure_detail: Option<String>,
    /// The test did not return within its bound and its thread still runs:
    /// no other test may be measured beside it.
    pub(super) hung: bool,
}
