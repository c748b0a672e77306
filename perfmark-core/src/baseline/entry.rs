//! One test's stored baseline.

use serde::{Deserialize, Serialize};

use super::Fingerprint;
use crate::clock::Clock;
use crate::stats::Interval;

/// The verdict's estimate as a baseline file stores it: the point estimate of
/// the time per iteration with its confidence interval, in ns.
///
/// Not [`crate::stats::Estimate`] (which also holds the naive interval and
/// the sample sizes, and is never read back) nor `report.json`'s record of
/// it: the statistic is kept as a string, so a file naming a statistic this
/// build does not know is still read, and the regression check can say
/// which statistic it records instead of rejecting the whole file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredEstimate {
    /// Upper end of the confidence interval, ns per iteration.
    #[serde(rename = "ci_high")]
    pub ci_high_ns: f64,
    /// Lower end of the confidence interval, ns per iteration.
    #[serde(rename = "ci_low")]
    pub ci_low_ns: f64,
    /// Level of the interval, in (0, 1): `0.95`.
    pub confidence: f64,
    /// The point estimate, ns per iteration.
    pub ns_per_iter: f64,
    /// Which statistic the estimate is, as `stats::Statistic` serializes:
    /// `median`, `mean`, `mean_remove_upper`.
    pub statistic: String,
    /// The degrees of freedom of the t quantile the interval was made with,
    /// when it was combined over worker processes (absent: a normal-theory
    /// interval of the run's own samples).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub df: Option<f64>,
}

impl StoredEstimate {
    /// An estimate from plain values: `statistic` (`"median"`, `"mean"`, …),
    /// the estimate and the interval `(low, high)` in ns per iteration, and
    /// the interval's confidence level.
    pub fn new(
        statistic: impl Into<String>,
        ns_per_iter: f64,
        ci_ns: (f64, f64),
        confidence: f64,
    ) -> StoredEstimate {
        StoredEstimate {
            ci_high_ns: ci_ns.1,
            ci_low_ns: ci_ns.0,
            confidence,
            ns_per_iter,
            statistic: statistic.into(),
            df: None,
        }
    }

    /// The same estimate, its interval made with a t quantile on `df`
    /// degrees of freedom.
    #[must_use]
    pub fn with_df(mut self, df: Option<f64>) -> StoredEstimate {
        self.df = df.filter(|d| d.is_finite() && *d >= 1.0);
        self
    }

    /// The stored confidence interval, `[ci_low, ci_high]` at `confidence`.
    pub fn interval(&self) -> Interval {
        Interval {
            low: self.ci_low_ns,
            high: self.ci_high_ns,
            confidence: self.confidence,
        }
    }

    /// The reason this estimate cannot be stored, if any: a number not
    /// finite, the interval upside down, a confidence outside (0, 1), or a
    /// statistic name not in `snake_case`.
    fn problem(&self) -> Option<String> {
        let finite = [
            ("ns_per_iter", self.ns_per_iter),
            ("ci_low", self.ci_low_ns),
            ("ci_high", self.ci_high_ns),
        ];
        if let Some((field, value)) = finite.iter().find(|(_, v)| !v.is_finite()) {
            return Some(format!("{field} is {value}, not a finite number of ns"));
        }
        if self.ci_low_ns > self.ci_high_ns {
            return Some(format!(
                "ci_low ({}) is above ci_high ({})",
                self.ci_low_ns, self.ci_high_ns
            ));
        }
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Some(format!("confidence {} is not in (0, 1)", self.confidence));
        }
        let statistic_ok = !self.statistic.is_empty()
            && self
                .statistic
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        (!statistic_ok).then(|| {
            format!(
                "statistic {:?} is not a snake_case name such as \"median\" or \"mean\"",
                self.statistic
            )
        })
    }
}

mod between_runs;
pub use between_runs::{BetweenRuns, StoredReference};

/// One test's baseline: its estimate, its samples and the environment they
/// were measured in.
///
/// Built by the runner with [`Entry::new`] from a measured test, or read
/// from a baseline file. Values are checked when saved, not when built, so
/// the runner can build one from whatever it measured and get a
/// [`BaselineError`](super::BaselineError) naming the test if it is unfit to store.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    name: String,
    estimate: StoredEstimate,
    samples_ns: Vec<f64>,
    iters_per_sample: u64,
    between_runs: Option<BetweenRuns>,
    fingerprint: Fingerprint,
    clock: Clock,
    reference: Option<StoredReference>,
    processes: Option<StoredProcesses>,
    instructions: Option<StoredInstructions>,
}

/// A test's instructions per iteration, counted under Callgrind
/// (`--save-baseline --instructions`): the median over the counting
/// rounds, and the smallest and largest round (equal for a deterministic
/// count). Counts compare across CPU models of one target and compiler.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredInstructions {
    /// Instructions per iteration: the median over the rounds.
    pub per_iter: f64,
    /// The smallest round's count per iteration.
    pub min_per_iter: f64,
    /// The largest round's count per iteration.
    pub max_per_iter: f64,
    /// The functions with the largest self counts per iteration, at most
    /// 32, so that a later count that changed can name where; absent in
    /// baselines recorded before such tables were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<crate::instructions::count::FunctionCount>,
}

impl StoredInstructions {
    /// The counts of several runs as one: the median of their counts, the
    /// extremes of all their rounds, and the function table of the run
    /// whose count lies nearest the median; `None` for no run.
    #[cfg(feature = "tool")]
    fn median_of(runs: &[&StoredInstructions]) -> Option<StoredInstructions> {
        let per_iter: Vec<f64> = runs.iter().map(|i| i.per_iter).collect();
        let median = crate::stats::quantile(&per_iter, 0.5);
        let nearest = runs.iter().min_by(|a, b| {
            (a.per_iter - median)
                .abs()
                .total_cmp(&(b.per_iter - median).abs())
        })?;
        Some(StoredInstructions {
            per_iter: median,
            min_per_iter: runs
                .iter()
                .map(|i| i.min_per_iter)
                .fold(f64::INFINITY, f64::min),
            max_per_iter: runs
                .iter()
                .map(|i| i.max_per_iter)
                .fold(f64::NEG_INFINITY, f64::max),
            functions: nearest.functions.clone(),
        })
    }

    /// The reason these counts cannot be stored, if any.
    fn problem(&self) -> Option<String> {
        let ok = [self.per_iter, self.min_per_iter, self.max_per_iter]
            .into_iter()
            .chain(self.functions.iter().map(|f| f.per_iter))
            .all(|v| v.is_finite() && v >= 0.0)
            && self.min_per_iter <= self.per_iter.ceil()
            && self.per_iter.floor() <= self.max_per_iter;
        (!ok).then(|| {
            format!(
                "instructions: per_iter {} between {} and {} is not a count within its rounds",
                self.per_iter, self.min_per_iter, self.max_per_iter
            )
        })
    }
}

/// The spread between the processes that measured a test in one run (the
/// runner's and its worker processes, `crate::processes`), as a baseline
/// keeps it: the standard deviation of their log estimates and its degrees
/// of freedom. A recording over several runs keeps them pooled.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StoredProcesses {
    /// Degrees of freedom: processes − 1 (summed over pooled runs).
    pub df: f64,
    /// The standard deviation of the processes' natural-log estimates.
    pub sd_log: f64,
}

impl StoredProcesses {
    /// The reason this spread cannot be stored, if any.
    fn problem(&self) -> Option<String> {
        (!(self.sd_log.is_finite() && self.sd_log >= 0.0 && self.df >= 1.0 && self.df.is_finite()))
            .then(|| {
                format!(
                    "processes: sd_log {} with {} df is not a finite sd with at least 1 df",
                    self.sd_log, self.df
                )
            })
    }

    /// Several runs' spreads pooled: degrees of freedom summed, variances
    /// weighed by them. `None` when none has one.
    #[cfg(feature = "tool")]
    pub fn pooled<'a>(
        spreads: impl IntoIterator<Item = &'a StoredProcesses>,
    ) -> Option<StoredProcesses> {
        let (mut df, mut ss) = (0.0, 0.0);
        for s in spreads {
            df += s.df;
            ss += s.df * s.sd_log.powi(2);
        }
        (df > 0.0).then(|| StoredProcesses {
            df,
            sd_log: (ss / df).sqrt(),
        })
    }
}

impl Entry {
    /// An entry for the test `name` (its full name, as libtest prints it:
    /// `sorting::sort_1k`) from one run: its `estimate`, the `samples_ns`
    /// themselves (ns per iteration, one per timed block, in measurement
    /// order), the iterations in each sample, and the `fingerprint` of the
    /// run. It has no between-run spread unless [`Entry::with_between_runs`]
    /// gives it one. It was taken with the wall clock unless
    /// [`Entry::with_clock`] says otherwise.
    pub fn new(
        name: impl Into<String>,
        estimate: StoredEstimate,
        samples_ns: Vec<f64>,
        iters_per_sample: u64,
        fingerprint: Fingerprint,
    ) -> Entry {
        Entry {
            name: name.into(),
            estimate,
            samples_ns,
            iters_per_sample,
            between_runs: None,
            fingerprint,
            clock: Clock::Wall,
            reference: None,
            processes: None,
            instructions: None,
        }
    }

    /// The same entry with its instruction counts (checked when saved).
    pub fn with_instructions(mut self, instructions: StoredInstructions) -> Entry {
        self.instructions = Some(instructions);
        self
    }

    /// The instructions per iteration stored with the entry, when the
    /// recording counted them.
    pub fn instructions(&self) -> Option<&StoredInstructions> {
        self.instructions.as_ref()
    }

    /// The same entry with the spread between the processes that measured
    /// it (checked when saved).
    pub fn with_processes(mut self, processes: StoredProcesses) -> Entry {
        self.processes = Some(processes);
        self
    }

    /// The spread between the processes that measured the test, when the
    /// run measured it in worker processes too.
    pub fn processes(&self) -> Option<&StoredProcesses> {
        self.processes.as_ref()
    }

    /// The same entry with the machine-state reference measured beside
    /// it (checked when saved).
    pub fn with_reference(mut self, reference: StoredReference) -> Entry {
        self.reference = Some(reference);
        self
    }

    /// The machine-state reference measured beside the test, when the
    /// entry has one (files written before it have none).
    pub fn reference(&self) -> Option<&StoredReference> {
        self.reference.as_ref()
    }

    /// The same entry, taken with `clock` (`measure = "cpu"` tests).
    pub fn with_clock(mut self, clock: Clock) -> Entry {
        self.clock = clock;
        self
    }

    /// The same entry, as the representative of a recording over several
    /// processes whose spread is `between_runs` (checked when saved).
    #[cfg(feature = "tool")]
    pub fn with_between_runs(mut self, between_runs: BetweenRuns) -> Entry {
        self.between_runs = Some(between_runs);
        self
    }

    /// The entry that several runs of one test record together: the
    /// median run (the lower middle one for an even count, the earlier of
    /// equal estimates) with the runs' spread ([`BetweenRuns`]); one run
    /// as it is, since no spread can be measured from it. The caller
    /// checks that the runs are of one test measured alike
    /// (`cargo perfmark baseline` does).
    ///
    /// # Panics
    /// When `runs` is empty.
    #[cfg(feature = "tool")]
    pub fn median_run_of(runs: &[Entry]) -> Entry {
        assert!(!runs.is_empty(), "an entry needs at least one run");
        if runs.len() == 1 {
            return runs[0].clone();
        }
        let estimates: Vec<f64> = runs.iter().map(|r| r.estimate.ns_per_iter).collect();
        let mut order: Vec<usize> = (0..runs.len()).collect();
        // Stable sort: among equal estimates the earlier run comes first.
        order.sort_by(|&a, &b| estimates[a].total_cmp(&estimates[b]));
        let mut between = BetweenRuns::new(estimates);
        let mut median = runs[order[(runs.len() - 1) / 2]].clone();
        // The reference as the estimate is kept: per run, and as their
        // geometric mean (the point the rule compares), with the median
        // run's relative interval. Only when every run has one.
        let references: Option<Vec<&StoredReference>> =
            runs.iter().map(|r| r.reference.as_ref()).collect();
        median.reference = references.and_then(|refs| {
            between.reference_ns = refs.iter().map(|r| r.ns_per_step).collect();
            let own = median.reference.as_ref()?;
            let point = crate::stats::geometric_mean(&between.reference_ns);
            let scale = point / own.ns_per_step;
            // Scaled, a bound at the point itself (an interval that
            // collapsed at a side) can round to the wrong side of it.
            Some(StoredReference {
                ci_high_ns: (own.ci_high_ns * scale).max(point),
                ci_low_ns: (own.ci_low_ns * scale).min(point),
                confidence: own.confidence,
                ns_per_step: point,
            })
        });
        median.processes =
            StoredProcesses::pooled(runs.iter().filter_map(|r| r.processes.as_ref()));
        let counts: Option<Vec<&StoredInstructions>> =
            runs.iter().map(|r| r.instructions.as_ref()).collect();
        median.instructions = counts.and_then(|c| StoredInstructions::median_of(&c));
        median.with_between_runs(between)
    }

    /// The clock the estimate and samples were taken with. A run is never
    /// compared with an entry of another clock.
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// The test's full name, the key of the entry in its file.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The estimate and its confidence interval.
    pub fn estimate(&self) -> &StoredEstimate {
        &self.estimate
    }

    /// The samples, ns per iteration, in measurement order.
    #[cfg(feature = "tool")]
    pub fn samples_ns(&self) -> &[f64] {
        &self.samples_ns
    }

    /// Iterations timed together in each sample.
    pub fn iters_per_sample(&self) -> u64 {
        self.iters_per_sample
    }

    /// The between-run spread, when the baseline was recorded over several
    /// processes; `None` for a single `--save-baseline` run, for which the
    /// verdict assumes its documented prior.
    pub fn between_runs(&self) -> Option<&BetweenRuns> {
        self.between_runs.as_ref()
    }

    /// The environment the entry was measured in.
    pub fn fingerprint(&self) -> &Fingerprint {
        &self.fingerprint
    }

    /// The reason this entry cannot be stored, if any: every number finite,
    /// the interval not upside down, a confidence in (0, 1), at least one
    /// sample and one iteration per sample, a statistic name in
    /// `snake_case`, a consistent between-run record.
    pub(super) fn problem(&self) -> Option<String> {
        self.estimate
            .problem()
            .or_else(|| self.samples_problem())
            .or_else(|| self.between_runs.as_ref().and_then(between_runs_problem))
            .or_else(|| self.reference.as_ref().and_then(StoredReference::problem))
            .or_else(|| self.processes.as_ref().and_then(StoredProcesses::problem))
            .or_else(|| {
                self.instructions
                    .as_ref()
                    .and_then(StoredInstructions::problem)
            })
    }

    /// The reason the samples cannot be stored, if any: none, one not
    /// finite, or no iteration per sample.
    fn samples_problem(&self) -> Option<String> {
        if self.samples_ns.is_empty() {
            return Some("no samples".to_owned());
        }
        if let Some((i, s)) = self
            .samples_ns
            .iter()
            .enumerate()
            .find(|(_, s)| !s.is_finite())
        {
            return Some(format!("sample {i} is {s}, not a finite number of ns"));
        }
        (self.iters_per_sample == 0).then(|| "iters_per_sample is 0".to_owned())
    }

    pub(super) fn to_repr(&self) -> EntryRepr {
        EntryRepr {
            between_runs: self.between_runs.clone(),
            clock: self.clock,
            estimate: self.estimate.clone(),
            fingerprint: self.fingerprint.clone(),
            instructions: self.instructions.clone(),
            iters_per_sample: self.iters_per_sample,
            processes: self.processes,
            reference: self.reference.clone(),
            sample_count: self.samples_ns.len(),
            samples_ns: self.samples_ns.clone(),
        }
    }

    /// The entry `name` from its stored form, or the reason it is not one.
    pub(super) fn from_repr(name: &str, repr: EntryRepr) -> Result<Entry, String> {
        if repr.sample_count != repr.samples_ns.len() {
            return Err(format!(
                "sample_count is {} but {} samples are stored",
                repr.sample_count,
                repr.samples_ns.len()
            ));
        }
        let entry = Entry {
            name: name.to_owned(),
            estimate: repr.estimate,
            samples_ns: repr.samples_ns,
            iters_per_sample: repr.iters_per_sample,
            between_runs: repr.between_runs,
            fingerprint: repr.fingerprint,
            clock: repr.clock,
            reference: repr.reference,
            processes: repr.processes,
            instructions: repr.instructions,
        };
        match entry.problem() {
            Some(problem) => Err(problem),
            None => Ok(entry),
        }
    }
}

/// The reason a between-run record cannot be stored, if any: fewer than 2
/// runs or not one estimate a run, a spread or an estimate not finite, or
/// run references not one a run or not positive.
fn between_runs_problem(runs: &BetweenRuns) -> Option<String> {
    if runs.runs < 2 || runs.runs != runs.run_estimates_ns.len() {
        return Some(format!(
            "between_runs records {} runs but {} run estimates (at least 2 needed)",
            runs.runs,
            runs.run_estimates_ns.len()
        ));
    }
    if !(runs.sd_log.is_finite() && runs.sd_log >= 0.0) {
        return Some(format!(
            "between-run sd_log {} is not a finite sd",
            runs.sd_log
        ));
    }
    if runs.run_estimates_ns.iter().any(|r| !r.is_finite()) {
        return Some("a run estimate is not a finite number of ns".to_owned());
    }
    let refs = &runs.reference_ns;
    if !refs.is_empty() && refs.len() != runs.runs {
        return Some(format!(
            "between_runs records {} runs but {} run references",
            runs.runs,
            refs.len()
        ));
    }
    refs.iter()
        .any(|r| !(r.is_finite() && *r > 0.0))
        .then(|| "a run reference is not a positive number of ns".to_owned())
}

/// An entry as it is stored under its test's name (fields in alphabetical
/// order, as they appear in the JSON). `sample_count` is redundant with
/// `samples_ns` on purpose: it makes a file cut short inside the samples
/// array detectable even if someone repairs the brackets by hand, and gives
/// a reader the count without counting lines.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct EntryRepr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    between_runs: Option<BetweenRuns>,
    /// `wall` or `cpu`; files written before the field have wall-clock
    /// entries, so an absent field reads as `wall`.
    #[serde(default)]
    clock: Clock,
    estimate: StoredEstimate,
    fingerprint: Fingerprint,
    /// Absent when the recording did not count instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    instructions: Option<StoredInstructions>,
    iters_per_sample: u64,
    /// Absent when the run measured the test in one process only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    processes: Option<StoredProcesses>,
    /// Absent in files written before the machine-state reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reference: Option<StoredReference>,
    sample_count: usize,
    samples_ns: Vec<f64>,
}
