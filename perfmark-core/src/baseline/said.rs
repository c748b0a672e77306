//! What the baseline check found, as values: its sentence is made in
//! `report/words`.

use super::record::BaselineRecord;
use crate::baseline::compare::{CompareError, Comparison};
use crate::baseline::MachineMatch;
use crate::clock::Clock;
use crate::stats::Statistic;
use std::path::PathBuf;

/// What the regression check said of a test.
#[derive(Debug, Clone)]
pub enum BaselineSaid {
    /// The baseline file at `path` has no entry for the test: not
    /// compared.
    NoEntry {
        /// The baseline file.
        path: PathBuf,
    },
    /// The test's entry was found: the record (with the regression rule's
    /// comparison when it was used), how the entry's machine matches this
    /// one, and why it was not used, when it was not.
    Checked {
        /// What `report.json` keeps; its `not_used` and `machine_note`
        /// are said from the two fields below.
        record: Box<BaselineRecord>,
        /// The entry's fingerprint against this machine's.
        machine: Box<MachineMatch>,
        /// Why the entry was not compared; `None` when it was.
        not_used: Option<NotUsed>,
    },
}

impl BaselineSaid {
    /// Whether it fails the test: a comparison that regressed.
    pub fn fails(&self) -> bool {
        self.comparison().is_some_and(|c| c.verdict.fails())
    }

    /// The regression rule's result, when the entry was compared.
    pub fn comparison(&self) -> Option<&Comparison> {
        match self {
            BaselineSaid::NoEntry { .. } => None,
            BaselineSaid::Checked { record, .. } => record.comparison.as_ref(),
        }
    }
}

/// Why a test's stored entry was not compared with its run.
#[derive(Debug, Clone, PartialEq)]
pub enum NotUsed {
    /// The entry records the `stored` clock, the test measures another.
    OtherClock {
        /// The entry's clock.
        stored: Clock,
        /// The test's.
        measured: Clock,
    },
    /// The entry comes from a machine whose times are not comparable
    /// (the record's [`MachineMatch`] says which).
    OtherMachine,
    /// A time is below the measurement's resolution.
    BelowResolution(BelowResolution),
    /// The entry records another statistic than the run estimated.
    OtherStatistic {
        /// The entry's statistic, by name (`median`).
        stored: String,
        /// The run's.
        measured: Statistic,
    },
    /// The regression rule could not be applied.
    Unusable(CompareError),
}

/// Which time is below the measurement's resolution, so that a stored
/// baseline is not compared.
#[derive(Debug, Clone, PartialEq)]
pub enum BelowResolution {
    /// This run's `statistic` is below the resolution, `resolution_ns`
    /// per iteration.
    Run {
        /// The run's verdict statistic.
        statistic: Statistic,
        /// The resolution per iteration, ns.
        resolution_ns: f64,
    },
    /// The entry's `statistic` (its name) of `ns_per_iter` is below the
    /// resolution, `resolution_ns` per iteration at the entry's iterations
    /// per sample.
    Stored {
        /// The stored statistic's name, `median`.
        statistic: String,
        /// Its estimate, ns per iteration.
        ns_per_iter: f64,
        /// The resolution per iteration at the entry's iterations per
        /// sample, ns.
        resolution_ns: f64,
    },
    /// Of an entry recorded over `runs` processes, the `run`-th (from 1)
    /// measured `ns_per_iter`, below the resolution.
    StoredRun {
        /// The run, from 1.
        run: usize,
        /// The runs recorded.
        runs: usize,
        /// What it measured, ns per iteration.
        ns_per_iter: f64,
        /// The resolution per iteration at the entry's iterations per
        /// sample, ns.
        resolution_ns: f64,
    },
}
