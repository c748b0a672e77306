//! What the paired check found, as values: its sentence is made in
//! `report/words`.

use crate::paired::record::ComparisonRecord;
use crate::paired::stats::{PairedEstimate, PairedVerdict};

/// What the paired check said of a test.
#[derive(Debug, Clone)]
pub enum PairedSaid {
    /// Compared: the verdict, the estimate it rests on (none when fewer
    /// than two process pairs finished), and the record `report.json`
    /// keeps (its slices and process pairs are the design the verdict is
    /// said with).
    Compared {
        /// The record.
        record: Box<ComparisonRecord>,
        /// The paired estimate, when there is one.
        estimate: Option<Box<PairedEstimate>>,
        /// The decision.
        verdict: PairedVerdict,
    },
    /// The comparison failed, for `error` as it displays.
    Failed {
        /// Why.
        error: String,
    },
}

impl PairedSaid {
    /// Whether it fails the test: a regression, or a comparison that
    /// failed.
    pub fn fails(&self) -> bool {
        match self {
            PairedSaid::Compared { verdict, .. } => verdict.fails(),
            PairedSaid::Failed { .. } => true,
        }
    }
}
