//! `report.json`: the run in full, typed both ways.
//!
//! The format is versioned ([`super::REPORT_SCHEMA`]) and other tools may
//! read it (docs/reports.md shows it). Its stable core is
//! `schema` and, per test, `name`, `verdict`, `reasons`, `estimate`
//! {`statistic`, `ns_per_iter`, `ci_low`, `ci_high`, `confidence`}, `samples`
//! (the count) and `iters_per_sample`; later versions only add fields, so a
//! reader ignores the fields it does not know. The types are [`Report`] and
//! what it holds: [`to_string`] writes them, [`deserialize`] reads them back,
//! equal.
//!
//! JSON has no NaN and no infinities: a number that is not finite is written
//! as `null`. CI bounds read such a `null` back as −∞ or +∞ (see
//! [`crate::stats::Interval`]); every other number reads it back as NaN
//! ([`deserialize`]), so a report with a degenerate statistic still reads.

use super::Report;

#[cfg(feature = "tool")]
mod read;
#[cfg(feature = "tool")]
pub use read::{deserialize, from_str, read};

/// `report` as `report.json` holds it: pretty-printed JSON with each array
/// of numbers (a test's samples, its outlier fences, …) on one line, as in
/// baseline files ([`crate::json_text`]).
pub fn to_string(report: &Report) -> String {
    crate::json_text::to_string(report).expect("a report always serializes")
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests;
