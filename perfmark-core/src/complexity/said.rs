//! What the complexity check found, as values: its sentence is made in
//! `report/words`.

use crate::complexity::fit::{GrowthError, GrowthFit};
use crate::complexity::record::ComplexityRecord;

/// What a `NAME::complexity` test said.
#[derive(Debug, Clone)]
pub enum ComplexitySaid {
    /// The sizes were fitted: the fit, and the record `report.json` keeps.
    Fitted {
        /// The record.
        record: ComplexityRecord,
        /// The fit the verdict rests on.
        fit: GrowthFit,
    },
    /// No fit could be made, for `error`.
    NotFitted {
        /// The record, without a fit.
        record: ComplexityRecord,
        /// Why not.
        error: GrowthError,
    },
    /// Members of the group could not be used: the check was not made.
    MembersUnusable(Vec<MemberProblem>),
}

impl ComplexitySaid {
    /// Whether it fails the test: a refuted class, no fit, or members that
    /// could not be used.
    pub fn fails(&self) -> bool {
        match self {
            ComplexitySaid::Fitted { fit, .. } => fit.fails(),
            ComplexitySaid::NotFitted { .. } | ComplexitySaid::MembersUnusable(_) => true,
        }
    }

    /// The record `report.json` keeps, when the sizes were fitted or tried.
    pub fn record(&self) -> Option<&ComplexityRecord> {
        match self {
            ComplexitySaid::Fitted { record, .. } | ComplexitySaid::NotFitted { record, .. } => {
                Some(record)
            }
            ComplexitySaid::MembersUnusable(_) => None,
        }
    }
}

/// Why a member `NAME::ARG` of a complexity group could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum MemberProblem {
    /// It panicked, with its first reason in words.
    Panicked {
        /// The member's test name.
        name: String,
        /// Its report's first reason.
        first_reason: String,
    },
    /// It recorded no size.
    WithoutSize {
        /// The member's test name.
        name: String,
    },
    /// Its size is 0.
    SizeZero {
        /// The member's test name.
        name: String,
    },
    /// It was not measured, for its reasons in words.
    NotMeasured {
        /// The member's test name.
        name: String,
        /// Its report's reasons.
        reasons: Vec<String>,
    },
}
