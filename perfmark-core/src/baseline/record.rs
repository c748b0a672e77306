//! What `report.json` keeps of a test's comparison with its stored
//! baseline: data alone, which the check's finding carries
//! ([`super::said::BaselineSaid`]).

use super::compare::Comparison;
use super::run_spreads::Prior;

/// What `report.json` keeps of a test's comparison with its stored
/// baseline (its `baseline` object).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct BaselineRecord {
    /// The baseline file.
    pub path: String,
    /// Processes the baseline was recorded over.
    pub runs: usize,
    /// The regression rule's result, when the baseline was used.
    pub comparison: Option<Comparison>,
    /// Why the baseline was not used to fail (another machine, another
    /// statistic, an unusable estimate), in words: said from the finding's
    /// [`NotUsed`](super::said::NotUsed) when the report is written.
    pub not_used: Option<String>,
    /// Whether the baseline was not used for having been recorded on
    /// another machine, or by a rustc or perfmark of another minor release
    /// (times incomparable, [`Fingerprint::compare`](crate::baseline::Fingerprint::compare)): `not_used` then names
    /// both machines, a sentence the same for every test whose baseline came
    /// from there (the Markdown and HTML tables say it once).
    #[serde(default)]
    pub other_machine: bool,
    /// What differed in the baseline's fingerprint without making it
    /// incomparable (another kernel, a rustc or perfmark patch release),
    /// when the baseline's fingerprint otherwise matched: the sentence
    /// [`MachineMatch::note`](crate::baseline::MachineMatch::note) gives, which
    /// the run's header also says once. Absent when nothing such differed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_note: Option<String>,
    /// The run's prior between-run spread the rule started from.
    pub prior: Option<Prior>,
}
