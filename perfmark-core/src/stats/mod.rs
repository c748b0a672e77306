//! Statistics: pure functions over samples (`&[f64]`, any unit, usually
//! nanoseconds per iteration), no clock and no I/O, so every method is
//! proven by seeded simulation (`tests/stats_simulation.rs`).
//!
//! - [`summarize`]: mean, median, sd, range, quartiles, COV.
//! - [`estimate()`] / [`estimate_with`]: THE verdict estimate, a point estimate
//!   with a confidence [`Interval`] corrected for serial correlation.
//! - [`tukey`]: outlier counts.
//! - [`autocorrelation`], [`effective_sample_size`], [`serial_correlation`]:
//!   serial correlation, its correction and its diagnosis.
//! - [`modes`]: multimodality, with each mode's centre and weight.
//! - [`robust_spread`], [`sd_interval`], [`gating_error_bound`],
//!   [`diagnose_noise`]: how far to trust the spread.
//! - [`at_resolution`]: what a time below the measurement's resolution (or
//!   below zero, after the harness's cost is subtracted) reads as.
//! - [`histogram()`], [`bulk`], [`bin_counts`]: the samples binned for a plot,
//!   their spikes left out, or in equal-width bins over them all (which
//!   `--verbose` draws at a glance).
//! - [`line`](mod@line): a weighted least-squares line (the complexity fit's, the
//!   reference's; how time grows with the size of the input is the
//!   complexity feature's own, [`crate::complexity::fit`]).
//! - the stored-baseline rule (a run against its baseline) lives with the
//!   baseline store, [`crate::baseline::compare`].
//! - the paired comparison's statistics live with that feature,
//!   [`crate::paired::stats`] (slice pairs, process
//!   pairs, the sequential looks, Holm across tests).
//! - [`bonferroni_confidence`]: the level each verdict of a run is decided
//!   at when the run as a whole is to keep its confidence.
//! - [`dist`]: every quantile — of data ([`quantile`]) and of the normal,
//!   t, χ² and binomial distributions.
//!
//! Imports between these files go one way, towards the leaves: `dist` and
//! `interval` use no other file of `stats/`; `summary` and `outliers` use
//! only those; `estimate` uses `autocorr`, `modality` and `outliers`, none
//! of which uses it back.
//!
//! `docs/design/statistics.md` explains every method, its source, and the measured
//! coverage of its intervals.

mod autocorr;
mod dispersion;
pub mod dist;
mod estimate;
mod family;
mod histogram;
pub(crate) mod interval;
pub(crate) mod line;
mod modality;
mod outliers;
mod resolution;
#[cfg(test)]
pub(crate) mod seeded;
pub(crate) mod summary;

pub use autocorr::{serial_correlation, SerialCorrelation};
pub use dispersion::{
    diagnose_noise, gating_error_bound, robust_spread, sd_interval, NoiseDiagnosis,
};
pub use dist::quantile;
#[cfg(feature = "compare")]
pub use estimate::estimate_in_groups;
pub use estimate::{estimate_with, Estimate, Statistic};
pub use family::bonferroni_confidence;
pub use histogram::bin_counts;
#[cfg(feature = "tool")]
pub use histogram::{bulk, histogram, Bulk, Histogram};
pub use interval::Interval;
pub use modality::{modes, Modality, Mode};
pub use outliers::{tukey, Outliers};
pub use resolution::{at_resolution, is_below_resolution, AtResolution};

// What perfmark's own tests and workspace tasks reach besides.
#[cfg(feature = "internals")]
pub use autocorr::{
    autocorrelation, effective_sample_size, LAG1_TEST_LEVEL, MANY_LAG_TEST_LEVEL, MAX_LAG,
};
#[cfg(feature = "internals")]
pub use dispersion::MACHINE_VARIANCE_SHARE;
#[cfg(feature = "internals")]
pub use dist::{normal_quantile, t_quantile};
#[cfg(any(test, feature = "internals"))]
pub use estimate::estimate;
#[cfg(feature = "internals")]
#[cfg(feature = "internals")]
pub use modality::{MAX_DIP_RATIO, MIN_MODE_SAMPLES, MIN_MODE_WEIGHT};
#[cfg(feature = "internals")]
pub use outliers::{MILD_IQR, SEVERE_IQR};
pub use summary::{geometric_mean, summarize, Summary};
