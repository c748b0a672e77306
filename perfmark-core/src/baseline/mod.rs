//! The baseline store: what a team records with `--save-baseline` (or
//! `cargo perfmark baseline --runs N`) and commits, and what later runs
//! compare against (docs/baselines.md describes the file).
//!
//! # Layout
//!
//! One directory, by default `perf-baselines/` in the package root
//! ([`BaselineStore::in_package`]), holding one JSON file per test target:
//! `perf-baselines/perf.json` holds every test of `tests/perf.rs`. Files are
//! pretty-printed with the keys of every object sorted, one key per line,
//! and each array of numbers (`samples_ns`, `run_estimates_ns`) on one line
//! ([`crate::json_text`]): an entry is about 30 lines whatever its sample
//! count, and a re-recorded test shows in review as a diff of a few lines of
//! that test (the estimate, the CI, the date, the samples line):
//!
//! ```json
//! {
//!   "schema": 1,
//!   "tests": {
//!     "sorting::sort_1k": {
//!       "between_runs": { "run_estimates_ns": [812.4, 799.0, 830.1], "runs": 3, "sd_log": 0.019 },
//!       "clock": "wall",
//!       "estimate": {
//!         "ci_high": 820.0, "ci_low": 805.1, "confidence": 0.95,
//!         "ns_per_iter": 812.4, "statistic": "median"
//!       },
//!       "fingerprint": {
//!         "arch": "x86_64", "cores": 8, "cpu_model": "AMD EPYC 7B13",
//!         "date": "2026-05-01T12:34:56Z", "kernel": "6.1.0-18-amd64", "os": "linux",
//!         "perfmark_version": "0.1.0", "profile": "release",
//!         "rustc": "rustc 1.95.0 (59807616e 2026-04-14)"
//!       },
//!       "iters_per_sample": 4096,
//!       "sample_count": 3,
//!       "samples_ns": [811.9, 812.4, 813.0]
//!     }
//!   }
//! }
//! ```
//!
//! (objects shown compacted here; the file has one key per line, and each
//! array of numbers on the line of its key, as `samples_ns`). `between_runs`
//! is present only for baselines recorded over several processes
//! ([`Entry::with_between_runs`]). A recording over several processes also stores the
//! machine's between-run spread at the top level, beside `schema` and
//! `tests` ([`RecordedSpread`]):
//!
//! ```json
//! "between_run_spread": { "df": 41.7, "estimator": "smyth2004_moments",
//!                         "fingerprint": { … }, "runs": 5, "sd_log": 0.021, "tests": 64 }
//! ```
//!
//! It is kept when single tests are saved again. `clock` is the clock an entry was
//! taken with, `wall` or `cpu` (`measure = "cpu"`); an entry written before the
//! field existed has none and reads as `wall`. A run is never compared with an
//! entry of the other clock: the regression check says so and asks to
//! re-record. Numbers are written in the shortest form that reads
//! back to the same `f64`, and read back exactly: perfmark-core turns on
//! serde_json's `float_roundtrip` feature, without which one sample in
//! seven came back one ulp off and every save would rewrite the entries it
//! was meant to keep. Unknown fields are ignored on reading and kept when
//! another test's entry is saved, so a newer perfmark may add optional
//! fields without a new `schema`; any change an older reader must not
//! ignore increments [`SCHEMA_VERSION`].
//!
//! # Trust
//!
//! A stored file that cannot be read as a baseline (corrupt, truncated,
//! a newer schema, a key twice in one object) is an error naming the file
//! and saying what to do; it is
//! never skipped, and a save over it fails and leaves it untouched
//! ([`BaselineError`]). Saves lock, re-read and merge, and replace the file
//! atomically ([`BaselineStore::save`]). An entry carries the
//! [`Fingerprint`] of the machine that measured it; the runner uses a
//! baseline to fail a test only when [`Fingerprint::compare`] says it comes
//! from the same machine.

mod atomic;
mod entry;
mod error;
mod fingerprint;
mod resolution;
mod spread;
mod store;
mod unique_keys;

#[cfg(feature = "internals")]
pub mod check;
#[cfg(not(feature = "internals"))]
pub(crate) mod check;
#[cfg(feature = "internals")]
pub mod compare;
#[cfg(not(feature = "internals"))]
pub(crate) mod compare;
#[cfg(feature = "internals")]
pub mod record;
#[cfg(not(feature = "internals"))]
pub(crate) mod record;
#[cfg(feature = "internals")]
pub mod run_spreads;
#[cfg(not(feature = "internals"))]
pub(crate) mod run_spreads;
#[cfg(feature = "internals")]
pub mod said;
#[cfg(not(feature = "internals"))]
pub(crate) mod said;

/// The clock an entry was measured with (an entry is compared only with
/// entries of the same clock).
pub use crate::clock::Clock;
pub use entry::{
    BetweenRuns, Entry, StoredEstimate, StoredInstructions, StoredProcesses, StoredReference,
};
pub use error::BaselineError;
pub use fingerprint::{
    cpu_model_from_cpuinfo, machine_dir, rfc3339_utc, Difference, Effect, Fingerprint,
    MachineMatch, ReleaseChange, CPU_PLACEHOLDER,
};
pub use spread::RecordedSpread;
#[cfg(feature = "tool")]
pub use spread::SMYTH_MOMENTS;
pub use store::{BaselineFile, BaselineStore};

/// The version of the baseline file format this perfmark writes, and the
/// newest it reads.
pub const SCHEMA_VERSION: u64 = 1;

/// The default baseline directory's name, inside the package root.
pub const DEFAULT_DIR: &str = "perf-baselines";
