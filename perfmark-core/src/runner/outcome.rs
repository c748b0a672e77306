//! What running one test gave: what the runner prints, reports and
//! counts, whether measured once or again under interference.

use crate::report::TestReport;

/// What happened to a test that ran.
pub(crate) struct Outcome {
    pub(crate) report: TestReport,
    /// What libtest prints under `failures:` for a failed test.
    pub(crate) failure_detail: Option<String>,
    /// The test did not return within its bound and its thread still runs:
    /// no other test may be measured beside it.
    pub(crate) hung: bool,
}
