//! The words a decision is made in, below every feature: a test's
//! [`Verdict`] and the [`Call`] each feature's own outcome maps to.

/// The outcome of a test, as `report.json` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "read", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check passed.
    Pass,
    /// A check failed, or the body panicked.
    Fail,
    /// `ignore`d and not asked for.
    Ignored,
    /// Unoptimized build: run as a smoke test, nothing enforced.
    NotMeasured,
}

impl Verdict {
    /// `report.json`'s spelling: `pass`, `fail`, `ignored`, `not_measured`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Ignored => "ignored",
            Verdict::NotMeasured => "not_measured",
        }
    }
}

/// What a decision means for its test, whichever check made it: the one
/// vocabulary each feature's own outcome maps to (`BudgetOutcome`,
/// `Change`, `PairedChange`, `CountChange`, `RemeasureOutcome`, each with
/// its `call`), which keep their finer words and `report.json` spellings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// Cleared: within the budget or the limit.
    Pass,
    /// Compared, and no change beyond the tolerance.
    Unchanged,
    /// Better beyond the tolerance: reported, never failed.
    Improved,
    /// Undecided by the evidence: passed, and said.
    Inconclusive,
    /// The test fails.
    Fail,
}

impl Call {
    /// Whether the test fails: only [`Call::Fail`].
    pub fn fails(self) -> bool {
        self == Call::Fail
    }
}
