//! The machine's between-run spread, as a recording over several processes
//! measured it, stored once per baseline file beside the entries.

use serde::{Deserialize, Serialize};

use super::Fingerprint;
use crate::baseline::compare::Spread;
#[cfg(feature = "tool")]
use {super::Entry, crate::baseline::compare::moderated_prior};

/// The name [`RecordedSpread::estimator`] gives Smyth's moment estimate
/// ([`moderated_prior`]).
#[cfg(feature = "tool")]
pub const SMYTH_MOMENTS: &str = "smyth2004_moments";

/// How much a machine's tests move between processes, estimated from a
/// recording over several processes (`cargo perfmark baseline --runs N`): the
/// prior `(σ₀, ν₀)` the regression rule starts from on that machine, for
/// every test of the file (fields in alphabetical order, as in the JSON).
///
/// It is the empirical-Bayes prior of the recording's per-test spreads
/// ([`moderated_prior`], Smyth 2004): `sd_log` is `s₀`, `df` its weight
/// `d₀`. A test recorded over several processes pools its own spread with
/// it; a test saved by one process (`--save-baseline`) on the same machine
/// uses it alone. It is used only on the machine its `fingerprint` names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedSpread {
    /// The prior's weight `d₀`, in pseudo-degrees of freedom (capped at the
    /// degrees of freedom of all but one of the tests it pools).
    pub df: f64,
    /// How it was estimated: [`SMYTH_MOMENTS`].
    pub estimator: String,
    /// The machine and toolchain of the recording.
    pub fingerprint: Fingerprint,
    /// The same prior over the tests' residual spreads (each run divided
    /// by its own machine-state reference): `sd` and `df`. Absent when the
    /// runs had no reference (files written before it) or fewer than two
    /// tests had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub residual: Option<Spread>,
    /// Processes each test was recorded over.
    pub runs: usize,
    /// `s₀`: the between-run standard deviation of log estimates a typical
    /// test shows on this machine (0.02 ≈ 2%).
    pub sd_log: f64,
    /// Tests whose spreads it pools.
    pub tests: usize,
}

impl RecordedSpread {
    /// The machine's spread from the entries of one recording: those with
    /// a between-run record, on the machine of the first of them. `None`
    /// when fewer than two tests were recorded over several processes, or
    /// when they all agreed exactly between processes (nothing to estimate).
    #[cfg(feature = "tool")]
    pub fn from_entries(entries: &[Entry]) -> Option<RecordedSpread> {
        let recorded: Vec<&Entry> = entries
            .iter()
            .filter(|e| e.between_runs().is_some())
            .collect();
        let first = recorded.first()?;
        let machine = first.fingerprint();
        let mut runs = 0;
        let spreads: Vec<Spread> = recorded
            .iter()
            .filter(|e| machine.compare(e.fingerprint()).is_comparable())
            .filter_map(|e| e.between_runs())
            .map(|b| {
                runs = runs.max(b.runs);
                Spread {
                    sd: b.sd_log,
                    df: (b.runs - 1) as f64,
                }
            })
            .collect();
        let prior = moderated_prior(&spreads)?;
        let residuals: Vec<Spread> = recorded
            .iter()
            .filter(|e| machine.compare(e.fingerprint()).is_comparable())
            .filter_map(|e| e.between_runs())
            .filter_map(|b| Some(b.residual_fit()?.residual))
            .collect();
        Some(RecordedSpread {
            residual: moderated_prior(&residuals),
            df: prior.df,
            estimator: SMYTH_MOMENTS.to_owned(),
            fingerprint: machine.clone(),
            runs,
            sd_log: prior.sd,
            tests: spreads.len(),
        })
    }

    /// The machine's prior as a [`Spread`]: `s₀` (`sd_log`) with its weight
    /// `d₀` (`df`).
    pub fn spread(&self) -> Spread {
        Spread {
            sd: self.sd_log,
            df: self.df,
        }
    }

    /// The reason this record cannot be used, if any: a positive, finite
    /// sd and df, at least two tests and two runs.
    pub(super) fn problem(&self) -> Option<String> {
        if !(self.sd_log.is_finite() && self.sd_log > 0.0) {
            return Some(format!(
                "between_run_spread.sd_log {} is not a positive sd",
                self.sd_log
            ));
        }
        if !(self.df.is_finite() && self.df > 0.0) {
            return Some(format!(
                "between_run_spread.df {} is not a positive number of degrees of freedom",
                self.df
            ));
        }
        if let Some(r) = self.residual {
            if !(r.sd.is_finite() && r.sd > 0.0 && r.df.is_finite() && r.df > 0.0) {
                return Some(format!(
                    "between_run_spread.residual (sd {}, df {}) is not a positive sd with \
                     positive degrees of freedom",
                    r.sd, r.df
                ));
            }
        }
        if self.tests < 2 || self.runs < 2 {
            return Some(format!(
                "between_run_spread pools {} tests of {} runs: at least 2 of each are needed",
                self.tests, self.runs
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::{Entry, StoredEstimate};

    fn fingerprint(cpu: &str) -> Fingerprint {
        let mut f = Fingerprint::current("rustc 1.95.0", "release", "0.1.0");
        f.cpu_model = cpu.to_owned();
        f
    }

    fn recorded(name: &str, points: &[f64], cpu: &str) -> Entry {
        let runs: Vec<Entry> = points
            .iter()
            .map(|&p| {
                Entry::new(
                    name,
                    StoredEstimate::new("median", p, (p * 0.99, p * 1.01), 0.95),
                    vec![p],
                    1,
                    fingerprint(cpu),
                )
            })
            .collect();
        Entry::median_run_of(&runs)
    }

    #[test]
    fn a_recording_of_several_tests_gives_the_machine_spread() {
        let entries = [
            recorded("a", &[100.0, 102.0, 98.0, 101.0, 99.0], "cpu"),
            recorded("b", &[10.0, 10.3, 9.8, 10.1, 9.9], "cpu"),
            recorded("c", &[5.0, 5.05, 4.9, 5.1, 4.95], "cpu"),
            // Another machine's entry and a one-run entry are left out.
            recorded("d", &[1.0, 2.0, 3.0], "other cpu"),
            recorded("e", &[7.0], "cpu"),
        ];
        let spread = RecordedSpread::from_entries(&entries).unwrap();
        assert_eq!((spread.tests, spread.runs), (3, 5));
        assert!(spread.df > 0.0 && spread.df <= 8.0, "{spread:?}");
        assert!(spread.sd_log > 0.01 && spread.sd_log < 0.03, "{spread:?}");
        assert_eq!(spread.estimator, SMYTH_MOMENTS);
        assert_eq!(spread.problem(), None);
        assert_eq!(RecordedSpread::from_entries(&entries[..1]), None);
        assert_eq!(RecordedSpread::from_entries(&entries[4..]), None);
    }
}
