//! `cargo perfmark`: perfmark's tasks for any package or workspace, as a
//! cargo subcommand (`cargo install --path cargo-perfmark`), and as a
//! library for a workspace's own xtask.
//!
//! - `cargo perfmark baseline` ([`baseline::record_workspace`]): records
//!   the perf test targets' baselines over several processes, so that the
//!   between-run spread is measured, not assumed.
//! - `cargo perfmark compare [REV]` ([`compare::compare_rev`]): the working
//!   tree against REV, each perf test binary measured slice by slice
//!   beside its twin built from REV (`--compare-with`).
//! - `cargo perfmark report [DIR...]` ([`report::draw_pages`]): draws the
//!   HTML page ([`html`]) of each report directory from the `report.json`
//!   a test binary wrote there; `baseline` and `compare` draw the pages of
//!   the reports their runs wrote.
//! - [`flame`]: the differential flame graph of each test a counted
//!   comparison (`compare --instructions`) profiled in both builds, drawn
//!   beside the profiles by `compare` and `report`.
//!
//! A perf test target is a `[[test]]` with `harness = false` whose `main`
//! is `perfmark::main!()`: after building the test targets, the tasks keep
//! the binaries that answer perfmark's worker greeting. The workspace root
//! and target directory come from `cargo metadata`, so `CARGO_TARGET_DIR`
//! and cargo's configuration are respected.
//!
//! This is tooling a test binary never runs: building revisions in git
//! worktrees, reading cargo's messages, merging runs into a baseline
//! ([`baseline::merge_runs`]), reading `report.json` back
//! ([`report::read`]) and drawing its page live here, not in perfmark-core.

pub mod baseline;
pub mod cargo;
pub mod cli;
pub mod compare;
mod error;
pub mod flame;
pub mod html;
pub mod layout;
pub mod report;

pub use error::Error;
