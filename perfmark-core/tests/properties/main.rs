//! Property tests of perfmark's parsers: generated inputs, not hand-picked
//! ones. Each parser answers every input with a value or a clear error that
//! says what is accepted; none panics, allocates without bound, or writes;
//! what perfmark writes, it reads back equal.
//!
//! - [`grammar`]: the one grammar of durations, percentages and
//!   confidences, as the macro and the runtime call it;
//! - [`baseline`]: baseline files, valid, mutated, truncated and made up;
//! - [`protocol`]: the paired comparison's worker protocol lines.
//!
//! The command line and `PERFMARK_*` variables, and `report.json`, are
//! tested beside their private parts (`src/runner/cli/properties.rs`,
//! `src/report/json/properties.rs`). Cases per property: `PROPTEST_CASES`
//! (see `../common/props.rs`); the 100k-case command is in
//! docs/robustness.md.

#[path = "../common/props.rs"]
mod props;

mod baseline;
mod grammar;
mod protocol;
