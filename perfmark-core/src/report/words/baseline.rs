//! A stored baseline in words: the regression rule's outcome, and why a
//! test was not compared with its stored entry (no entry, another clock or
//! statistic, a time below the measurement's resolution, an estimate the
//! rule cannot use). The sentences are part of the output contract
//! (docs/output.md): change them only with it.

use std::fmt;

use crate::baseline::{Difference, Effect, MachineMatch, ReleaseChange};
use std::path::Path;

use crate::baseline::compare::DEFAULT_RESIDUAL_PRIOR;
use crate::baseline::compare::{
    CompareError, Comparison, Outcome, TestSpreadSource, DETECTION_POWER,
};
use crate::baseline::record::BaselineRecord;
use crate::baseline::run_spreads::{Prior, PriorSource};
use crate::baseline::said::{BaselineSaid, BelowResolution, NotUsed};
use crate::checks::Said;
use crate::clock::Clock;
use crate::report::fmt::{fmt_ns, plain_percent, signed_percent};

/// The words every regression verdict fails a test with, whichever
/// instrument and comparison: `regressed beyond the 5% tolerance`.
pub fn regressed_beyond(tolerance: f64) -> String {
    format!(
        "regressed beyond the {} tolerance",
        plain_percent(tolerance)
    )
}

impl Comparison {
    /// The verdict in a few words: `regressed beyond the 5% tolerance`,
    /// `slower, within tolerance`, `no significant change`, `faster, within
    /// tolerance`, `improved beyond tolerance`.
    pub fn verdict_words(&self) -> String {
        match self.verdict {
            Outcome::Regressed => regressed_beyond(self.tolerance),
            Outcome::SlowerWithinTolerance => "slower, within tolerance".to_owned(),
            Outcome::NoSignificantChange => "no significant change".to_owned(),
            Outcome::FasterWithinTolerance => "faster, within tolerance".to_owned(),
            Outcome::Improved => "improved beyond tolerance".to_owned(),
            // Only the five above are the rule's outcomes (`Outcome`'s doc);
            // any other is said as report.json spells it.
            other => other.as_str().replace('_', " "),
        }
    }

    /// The verdict in words, one line for the test's output and
    /// `report.json`'s `reasons`, e.g.
    /// `+12.4% [+9.8%, +15.1%] vs baseline (90% CI; run-to-run sd 2.0%,
    /// prior; tolerance 5%): regressed beyond the 5% tolerance`.
    ///
    /// The wording is part of the output contract (docs/output.md): tests
    /// and log readers match it.
    pub fn reason(&self) -> String {
        let source = match self.between_run_source {
            TestSpreadSource::Prior => "prior".to_string(),
            TestSpreadSource::Pooled { runs } => format!("{runs} runs + prior"),
            TestSpreadSource::Processes { runs: 1, df } => {
                format!("processes ({df} df) + prior")
            }
            TestSpreadSource::Processes { runs, df } => {
                format!("{runs} runs, processes ({df} df) + prior")
            }
        };
        let tolerance = plain_percent(self.tolerance);
        let mut outcome = self.verdict_words();
        if self.verdict == Outcome::Improved {
            outcome.push_str(": consider re-recording the baseline (--save-baseline)");
        }
        let spread = match self.machine {
            // With the machine-state reference: the machine's own move,
            // allowed for in the interval, and the residual spread.
            Some(m) => format!(
                "machine {} since the baseline, allowed for; residual sd {:.1}%",
                signed_percent(m.ratio),
                self.between_run_sd * 100.0
            ),
            None => format!("run-to-run sd {:.1}%", self.between_run_sd * 100.0),
        };
        format!(
            "{} [{}, {}] vs baseline ({} CI; {spread}, {source}; tolerance {tolerance}): {outcome}",
            signed_percent(self.ratio),
            signed_percent(self.ci.low),
            signed_percent(self.ci.high),
            plain_percent(self.ci.confidence),
        )
    }
}

impl Comparison {
    /// What the comparison could have seen, one line for the test's output:
    /// `this comparison can detect slowdowns above +8.1% (one that large
    /// fails 9 runs in 10)`; for a comparison that can see nothing,
    /// `this comparison cannot detect any slowdown (its interval is
    /// unbounded)`. A new sentence beside the contract's (docs/output.md, "Reading
    /// the output").
    pub fn detection(&self) -> String {
        let mds = self.min_detectable_slowdown;
        if mds.is_finite() {
            let moved = match self.machine {
                Some(m) if (m.ratio.ln()).abs() >= 0.005 => format!(
                    "; the machine's move of {} since the baseline is part of it",
                    signed_percent(m.ratio)
                ),
                _ => String::new(),
            };
            format!(
                "this comparison can detect slowdowns above {} (one that large fails {} runs in \
                 10{moved})",
                signed_percent(1.0 + mds),
                (DETECTION_POWER * 10.0).round()
            )
        } else {
            "this comparison cannot detect any slowdown (its interval is unbounded)".to_owned()
        }
    }
}

/// What the regression check said, in one sentence: the comparison, or
/// why the entry was not compared.
pub fn said(said: &BaselineSaid) -> String {
    match said {
        BaselineSaid::NoEntry { path } => no_entry(path),
        BaselineSaid::Checked {
            record,
            machine,
            not_used,
        } => match (not_used, &record.comparison) {
            (Some(why), _) => not_used_words(why, machine),
            (None, Some(comparison)) => comparison.reason(),
            (None, None) => String::new(),
        },
    }
}

/// Why an entry was not compared, in words; an entry from another
/// `machine` says which.
fn not_used_words(why: &NotUsed, machine: &MachineMatch) -> String {
    match why {
        NotUsed::OtherClock { stored, measured } => other_clock(*stored, *measured),
        NotUsed::OtherMachine => machine.to_string(),
        NotUsed::BelowResolution(below) => below_resolution(below),
        NotUsed::OtherStatistic { stored, measured } => other_statistic(stored, measured.as_str()),
        NotUsed::Unusable(e) => unusable(e),
    }
}

/// `record` with the words `report.json` keeps in it, from the regression
/// check's finding among `said`: why the entry was not used, and the note
/// of a machine that differs without making times incomparable.
pub fn completed(mut record: BaselineRecord, said: &[Said]) -> BaselineRecord {
    let checked = said.iter().rev().find_map(|s| match s {
        Said::Baseline(BaselineSaid::Checked {
            machine, not_used, ..
        }) => Some((machine, not_used)),
        _ => None,
    });
    if let Some((machine, not_used)) = checked {
        record.not_used = not_used.as_ref().map(|why| not_used_words(why, machine));
        record.machine_note = machine.note();
    }
    record
}

/// Why a time below the measurement's resolution keeps the entry from
/// being compared.
fn below_resolution(below: &BelowResolution) -> String {
    match below {
        BelowResolution::Run {
            statistic,
            resolution_ns,
        } => run_below_resolution(statistic.as_str(), *resolution_ns),
        BelowResolution::Stored {
            statistic,
            ns_per_iter,
            resolution_ns,
        } => stored_below_resolution(statistic, *ns_per_iter, *resolution_ns),
        BelowResolution::StoredRun {
            run,
            runs,
            ns_per_iter,
            resolution_ns,
        } => stored_run_below_resolution(*run, *runs, *ns_per_iter, *resolution_ns),
    }
}

/// The reason a test with no entry in the baseline file at `path` passes
/// without a comparison.
fn no_entry(path: &Path) -> String {
    format!(
        "no baseline for this test in {}: not compared; record one with --save-baseline",
        path.display()
    )
}

/// Why an entry recorded with the `stored` clock is not used by a test
/// that measures the `measured` one.
fn other_clock(stored: Clock, measured: Clock) -> String {
    format!(
        "baseline not used: it records {}, this test measures {}; re-record with \
         --save-baseline",
        stored.words(),
        measured.words()
    )
}

/// Why an entry that records the `stored` statistic is not used by a run
/// that estimated the `measured` one (each as its name, `median`).
fn other_statistic(stored: &str, measured: &str) -> String {
    format!(
        "baseline not used: it records the {stored}, this run the {measured}; re-record with \
         --save-baseline"
    )
}

/// Why the regression rule could not be applied: `error` as it displays.
fn unusable(error: &CompareError) -> String {
    format!("baseline not used: {error}")
}

/// Why a run whose `statistic` (its name) is below the measurement's
/// resolution, `resolution_ns` per iteration, is not compared.
fn run_below_resolution(statistic: &str, resolution_ns: f64) -> String {
    format!(
        "baseline not compared: this run's {statistic} is below the measurement's resolution \
         ({} per iteration), and a ratio to it means nothing",
        fmt_ns(resolution_ns)
    )
}

/// Why an entry whose `statistic` of `ns_per_iter` is below the
/// resolution, `resolution_ns` per iteration at the entry's iterations per
/// sample, is not compared.
fn stored_below_resolution(statistic: &str, ns_per_iter: f64, resolution_ns: f64) -> String {
    format!(
        "baseline not compared: its {statistic} {} is below the measurement's resolution ({} \
         per iteration), and a ratio to it means nothing",
        fmt_ns(ns_per_iter),
        fmt_ns(resolution_ns)
    )
}

/// Why an entry recorded over `runs` processes is not compared when its
/// `run`-th (from 1) measured `ns_per_iter`, below the resolution,
/// `resolution_ns` per iteration at the entry's iterations per sample.
fn stored_run_below_resolution(
    run: usize,
    runs: usize,
    ns_per_iter: f64,
    resolution_ns: f64,
) -> String {
    format!(
        "baseline not compared: run {run} of its {runs} measured {}, below the measurement's \
         resolution ({} per iteration), so their between-run spread means nothing",
        fmt_ns(ns_per_iter),
        fmt_ns(resolution_ns)
    )
}

/// Why a note-only difference leaves a baseline in use: the end of every
/// [`MachineMatch::note`].
pub(crate) const STILL_USED: &str =
    "still used (a kernel, rustc or perfmark patch release does not make times incomparable)";

impl MachineMatch {
    /// For a comparable baseline recorded under another kernel or another
    /// rustc or perfmark patch release, what differed and that it is still
    /// used: `baseline recorded under kernel 6.18.44-fc-v657, now
    /// 6.18.44-fc-v669: still used (a kernel, rustc or perfmark patch
    /// release does not make times incomparable)`, the differences joined
    /// by `; ` in the order of [`differences`](Self::differences). `None`
    /// when none differs (the date alone says nothing) or when the
    /// baseline is not comparable.
    pub fn note(&self) -> Option<String> {
        self.has_note().then(|| {
            let notes: Vec<String> = self.notes().map(note).collect();
            format!("baseline recorded under {}: {STILL_USED}", notes.join("; "))
        })
    }
}

/// A note-only difference in words: `kernel A, now B`, `rustc 1.95.0 (…),
/// now rustc 1.95.2 (…)`.
fn note(d: &Difference) -> String {
    match d.effect {
        Effect::Kernel => format!("kernel {}, now {}", d.then, d.now),
        _ => format!("{}, now {}", named(d.field, &d.then), d.now),
    }
}

/// A difference as the baseline's line lists it: `cores: 8 in the
/// baseline, 2 here`, `recorded 2026-05-01T12:34:56Z`.
fn difference(d: &Difference) -> String {
    match d.effect {
        Effect::Date => format!("recorded {}", d.then),
        _ => format!("{}: {} in the baseline, {} here", d.field, d.then, d.now),
    }
}

/// Why a release change makes times incomparable, for the tool `name`.
fn release_change(name: &str, why: &ReleaseChange) -> String {
    match why {
        ReleaseChange::Unreadable { version } => format!(
            "{name} version \"{version}\" does not read as major.minor.patch, so any change of \
             it counts"
        ),
        ReleaseChange::PreRelease { word } => format!(
            "{name} {word} is a pre-release, whose number does not pin what it is, so any change \
             of it counts"
        ),
        ReleaseChange::OtherMinor { then, now } => format!(
            "{name} {}.{} in the baseline, {}.{} here: another major or minor release may \
             change the times",
            then.0, then.1, now.0, now.1
        ),
    }
}

/// `version` as a phrase naming `name`: `rustc 1.95.0 (…)` as it is,
/// `0.1.0` as `perfmark 0.1.0`.
fn named(name: &str, version: &str) -> String {
    if version.starts_with(&format!("{name} ")) {
        version.to_owned()
    } else {
        format!("{name} {version}")
    }
}

/// The machine in words: `Intel(R) Xeon(R) CPU @ 2.20GHz, 8 cores, linux
/// 6.1.0-18-amd64, x86_64, release profile`, with each release that makes
/// times incomparable named after it (`then`'s when `baseline`, else
/// `now`'s).
fn machine(m: &MachineMatch, baseline: bool) -> String {
    let f = if baseline { &m.baseline } else { &m.here };
    let os = if f.kernel.is_empty() {
        f.os.clone()
    } else {
        format!("{} {}", f.os, f.kernel)
    };
    let cores = if f.cores == 1 { "core" } else { "cores" };
    let mut words = format!(
        "{}, {} {cores}, {os}, {}, {} profile",
        f.cpu_model, f.cores, f.arch, f.profile
    );
    for d in &m.differences {
        if let Effect::OtherRelease(_) = d.effect {
            let version = if baseline { &d.then } else { &d.now };
            words.push_str(&format!(", {}", named(d.field, version)));
        }
    }
    words
}

impl fmt::Display for MachineMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_comparable() {
            write!(
                f,
                "baseline recorded on {}; this machine {}: not used to fail",
                machine(self, true),
                machine(self, false)
            )?;
            let why: Vec<String> = self
                .differences
                .iter()
                .filter_map(|d| match &d.effect {
                    Effect::OtherRelease(why) => Some(release_change(d.field, why)),
                    _ => None,
                })
                .collect();
            if !why.is_empty() {
                write!(f, " ({})", why.join("; "))?;
            }
            return Ok(());
        }
        if let Some(note) = self.note() {
            return f.write_str(&note);
        }
        f.write_str("baseline recorded on this machine")?;
        if !self.differences.is_empty() {
            let all: Vec<String> = self.differences.iter().map(difference).collect();
            write!(f, " ({})", all.join("; "))?;
        }
        Ok(())
    }
}

impl Prior {
    /// The prior in words, for the header: `between-run sd 7.5%
    /// (perfmark's default: record this machine's …); against baselines
    /// with the machine-state reference, residual sd 2.5% (perfmark's
    /// default) and the machine's measured move`.
    pub fn header(&self) -> String {
        let source = match self.source {
            PriorSource::Default => {
                "perfmark's default: record this machine's with `cargo perfmark baseline --runs N` \
                 or set --between-run-sd"
                    .to_owned()
            }
            PriorSource::Setting => "set by --between-run-sd / PERFMARK_BETWEEN_RUN_SD".to_owned(),
            PriorSource::Recorded {
                tests,
                runs,
                recorded_sd,
            } if recorded_sd < self.spread.sd => format!(
                "perfmark's default: this machine recorded {:.1}% over {tests} tests × {runs} \
                 processes, and a recording never goes below the default; set \
                 --between-run-sd to go lower",
                recorded_sd * 100.0
            ),
            PriorSource::Recorded { tests, runs, .. } => format!(
                "recorded on this machine over {tests} tests × {runs} processes, weight {:.1} df",
                self.spread.df
            ),
        };
        let residual = if self.residual == DEFAULT_RESIDUAL_PRIOR {
            "perfmark's default".to_owned()
        } else if self.source == PriorSource::Setting {
            "set".to_owned()
        } else {
            "recorded on this machine".to_owned()
        };
        format!(
            "between-run sd {:.1}% ({source}); against baselines with the machine-state \
             reference, residual sd {:.1}% ({residual}) and the machine's measured move",
            self.spread.sd * 100.0,
            self.residual.sd * 100.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::compare::{compare, BaselineEstimate, RegressionRule, Spread};

    use crate::baseline::compare::inputs::test_run as run;

    #[test]
    fn the_reason_reads_well() {
        let rule = RegressionRule::new(0.95, 0.05)
            .unwrap()
            .with_prior(Spread { sd: 0.02, df: 4.0 })
            .unwrap();
        let base = BaselineEstimate::from_runs(&[run(100.0, 99.9, 100.1)]).unwrap();
        let c = compare(&base, &run(112.4, 112.3, 112.5), &rule).unwrap();
        let s = c.reason();
        assert!(s.starts_with("+12.4% [+"), "{s}");
        assert!(
            s.contains("vs baseline (90% CI; run-to-run sd 2.0%, prior; tolerance 5%)"),
            "{s}"
        );
        assert!(s.ends_with("regressed beyond the 5% tolerance"), "{s}");
        // se = 2%·√2 with 4 df: t 2.132 → threshold 6.03%, + 1.2816·se.
        assert_eq!(
            c.detection(),
            "this comparison can detect slowdowns above +10.1% (one that large fails 9 runs in 10)"
        );
        assert_eq!(plain_percent(0.025), "2.5%");
        assert_eq!(signed_percent(0.9), "-10.0%");
    }

    #[test]
    fn every_verdict_has_its_words() {
        let rule = RegressionRule::new(0.95, 0.30)
            .unwrap()
            .with_prior(Spread { sd: 0.02, df: 4.0 })
            .unwrap();
        let base = BaselineEstimate::from_runs(&[run(100.0, 99.9, 100.1)]).unwrap();
        let reason = |p: f64| {
            compare(&base, &run(p, p * 0.999, p * 1.001), &rule)
                .unwrap()
                .reason()
        };
        assert!(reason(100.0).ends_with("): no significant change"));
        assert!(reason(115.0).ends_with("): slower, within tolerance"));
        assert!(reason(85.0).ends_with("): faster, within tolerance"));
        assert!(reason(200.0).ends_with("): regressed beyond the 30% tolerance"));
        assert!(reason(50.0).ends_with(
            "): improved beyond tolerance: consider re-recording the baseline (--save-baseline)"
        ));
        assert_eq!(signed_percent(f64::INFINITY), "+inf%");
    }

    #[test]
    fn a_comparison_with_the_reference_names_the_machines_move() {
        let rule = RegressionRule::new(0.95, 0.05)
            .unwrap()
            .with_prior(Spread { sd: 0.02, df: 4.0 })
            .unwrap();
        let base = BaselineEstimate::from_runs(&[run(100.0, 99.9, 100.1)]).unwrap();
        let shift = crate::baseline::compare::MachineShift {
            ratio: 1.08,
            log_se: 0.001,
        };
        let c = crate::baseline::compare::compare_with_reference(
            &base,
            &run(108.0, 107.9, 108.1),
            &shift,
            crate::baseline::compare::Tracking::UNKNOWN,
            &rule,
        )
        .unwrap();
        let s = c.reason();
        assert!(
            s.contains("vs baseline (90% CI; machine +8.0% since the baseline, allowed for; residual sd 2.0%, prior; tolerance 5%): no significant change"),
            "{s}"
        );
        assert!(
            c.detection()
                .ends_with("the machine's move of +8.0% since the baseline is part of it)"),
            "{}",
            c.detection()
        );
    }
}

/// A time below the measurement's resolution, on either side, said as the
/// regression check's reason.
#[cfg(test)]
mod below_resolution {
    use std::time::Duration;

    use crate::baseline::check::Regression;
    use crate::baseline::run_spreads::{Prior, RunSpreads};
    use crate::baseline::{BaselineStore, Entry, Fingerprint, StoredEstimate};
    use crate::checks::{Check, Subject};
    use crate::measure::{Measurement, Plan, SampleKind, StopReason};
    use crate::stats::Estimate;

    fn measurement(iters: u64) -> Measurement {
        Measurement {
            kind: SampleKind::Loop,
            samples_ns: vec![1.0; 40],
            iters_per_sample: iters,
            first_call_ns: 1.0,
            loop_overhead_ns: 0.3,
            warmup_ns: 0.0,
            warmup_blocks: 0,
            warmup_settled: true,
            sampling_ns: 0.0,
            stop: StopReason::Precision,
            planned_samples: 40,
            budget_look: None,
            reference_ns: Vec::new(),
        }
    }

    fn estimate(point: f64, low: f64, high: f64) -> Estimate {
        Estimate::median_at(point, low, high, 40)
    }

    fn entry(name: &str, ns: f64, fingerprint: &Fingerprint) -> Entry {
        Entry::new(
            name,
            StoredEstimate::new("median", ns, (ns - 0.05, ns + 0.05), 0.95),
            vec![ns; 10],
            1000,
            fingerprint.clone(),
        )
    }

    /// The regression check's reason for a run whose estimate is `e` (read
    /// at a resolution of 0.001 ns per iteration) against `test`'s entry.
    fn reason(
        file: &crate::baseline::BaselineFile,
        here: &Fingerprint,
        test: &str,
        e: &Estimate,
    ) -> String {
        let plan = Plan::simulated(0.95, 0.01, Duration::from_secs(1), Duration::ZERO);
        let m = measurement(1000);
        let subject = Subject {
            name: test,
            plan: &plan,
            tolerance: 0.05,
            measurement: &m,
            estimate: e,
            resolution_ns: 0.001,
            allocations: None,
            processes: None,
        };
        let spreads = RunSpreads::new(Prior::resolve(None, None, here), Some(file), here);
        let finding = Regression::new(file, here, &spreads)
            .check(&subject)
            .expect("a finding");
        let reason = crate::report::words::said(&finding.said);
        assert!(!finding.said.fails(), "{reason}");
        reason
    }

    #[test]
    fn a_time_below_resolution_on_either_side_is_not_compared_and_says_why() {
        let dir = std::env::temp_dir().join(format!("perfmark-resolution-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let here = Fingerprint::current("rustc 1.0", "release", "0.1.0");
        let merged = Entry::median_run_of(&[
            entry("merged", 5.0, &here),
            entry("merged", 0.0, &here),
            entry("merged", 5.2, &here),
        ]);
        let store = BaselineStore::new(&dir);
        let entries = [
            entry("resolved", 5.0, &here),
            entry("zero", 0.0, &here),
            // Saved before the rule: a negative time.
            entry("negative", -0.2, &here),
            merged,
        ];
        store.save("perf", &entries).unwrap();
        let file = store.load("perf").unwrap().unwrap();

        let resolved = estimate(5.0, 4.9, 5.1);
        // Both resolved: compared.
        let r = reason(&file, &here, "resolved", &resolved);
        assert!(r.contains("vs baseline"), "{r}");
        // This run below resolution (read as 0 by `at_resolution`).
        let r = reason(&file, &here, "resolved", &estimate(0.0, 0.0, 0.3));
        assert!(
            r.starts_with("baseline not compared: this run's median"),
            "{r}"
        );
        // The stored time below resolution, zero or negative.
        for test in ["zero", "negative"] {
            let r = reason(&file, &here, test, &resolved);
            assert!(r.starts_with("baseline not compared: its median"), "{r}");
            assert!(r.contains("below the measurement's resolution"), "{r}");
        }
        // One of the stored runs below resolution (the median run is not).
        let r = reason(&file, &here, "merged", &resolved);
        assert!(r.contains("run 2 of its 3 measured"), "{r}");
        // No entry for the test: said, not dropped.
        let r = reason(&file, &here, "absent", &resolved);
        assert!(r.starts_with("no baseline for this test in "), "{r}");
        assert!(r.contains("not compared"), "{r}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A baseline's machine against this one, in words.
#[cfg(test)]
mod machines {
    use super::STILL_USED;
    use crate::baseline::Fingerprint;

    fn stored() -> Fingerprint {
        Fingerprint {
            arch: "x86_64".to_owned(),
            cores: 4,
            cpu_model: "AMD EPYC 7B13".to_owned(),
            date: "2026-05-01T12:34:56Z".to_owned(),
            kernel: "6.18.44-fc-v657".to_owned(),
            os: "linux".to_owned(),
            perfmark_version: "0.1.0".to_owned(),
            profile: "release".to_owned(),
            rustc: "rustc 1.95.0 (59807616e 2026-04-14)".to_owned(),
        }
    }

    #[test]
    fn every_field_is_in_its_class() {
        type Change = (&'static str, fn(&mut Fingerprint), bool);
        // (field, the change, whether the baseline stays comparable)
        let changes: [Change; 16] = [
            ("arch", |f| f.arch = "aarch64".to_owned(), false),
            (
                "CPU",
                |f| f.cpu_model = "Intel(R) Xeon(R)".to_owned(),
                false,
            ),
            ("cores", |f| f.cores = 2, false),
            ("OS", |f| f.os = "macos".to_owned(), false),
            ("profile", |f| f.profile = "bench".to_owned(), false),
            (
                "rustc minor",
                |f| f.rustc = "rustc 1.96.0 (a 2026-05-28)".to_owned(),
                false,
            ),
            (
                "rustc major",
                |f| f.rustc = "rustc 2.95.0 (a 2030-01-01)".to_owned(),
                false,
            ),
            (
                "perfmark minor",
                |f| f.perfmark_version = "0.2.0".to_owned(),
                false,
            ),
            (
                "perfmark major",
                |f| f.perfmark_version = "1.1.0".to_owned(),
                false,
            ),
            ("kernel", |f| f.kernel = "6.18.44-fc-v669".to_owned(), true),
            ("kernel unknown", |f| f.kernel.clear(), true),
            ("kernel major", |f| f.kernel = "7.0.1".to_owned(), true),
            (
                "rustc patch",
                |f| f.rustc = "rustc 1.95.2 (b 2026-05-02)".to_owned(),
                true,
            ),
            (
                "rustc rebuilt",
                |f| f.rustc = "rustc 1.95.0 (59807616e 2026-04-14) (Fedora)".to_owned(),
                true,
            ),
            (
                "perfmark patch",
                |f| f.perfmark_version = "0.1.3".to_owned(),
                true,
            ),
            ("date", |f| f.date = "2027-01-01T00:00:00Z".to_owned(), true),
        ];
        let baseline = stored();
        for (what, change, comparable) in changes {
            let mut here = stored();
            change(&mut here);
            let m = here.compare(&baseline);
            assert_eq!(m.is_comparable(), comparable, "{what}: {m}");
            assert_eq!(m.differences().len(), 1, "{what}: {:?}", m.differences());
            let noted = comparable && what != "date";
            assert_eq!(m.note().is_some(), noted, "{what}: {m}");
            let words = m.to_string();
            if let Some(note) = m.note() {
                assert_eq!(words, note);
                assert!(note.ends_with(STILL_USED), "{what}: {note}");
            } else if comparable {
                assert!(
                    words.starts_with("baseline recorded on this machine"),
                    "{words}"
                );
            } else {
                assert!(words.contains(": not used to fail"), "{what}: {words}");
            }
        }
        // Both sides' versions matter, whichever was unreadable.
        for (then, now) in [
            ("rustc (unknown version)", "rustc 1.95.0"),
            ("rustc 1.95.0", "rustc 1.95"),
        ] {
            let (mut old, mut new) = (stored(), stored());
            (old.rustc, new.rustc) = (then.to_owned(), now.to_owned());
            let m = new.compare(&old);
            assert!(!m.is_comparable(), "{then} -> {now}");
        }
    }

    #[test]
    fn a_kernel_patch_is_noted_and_the_baseline_used() {
        let mut here = stored();
        here.kernel = "6.18.44-fc-v669".to_owned();
        here.date = "2026-06-01T00:00:00Z".to_owned();
        let m = here.compare(&stored());
        assert!(m.is_comparable());
        let note = "baseline recorded under kernel 6.18.44-fc-v657, now 6.18.44-fc-v669: still \
                    used (a kernel, rustc or perfmark patch release does not make times \
                    incomparable)";
        assert_eq!(m.note().as_deref(), Some(note));
        assert_eq!(m.to_string(), note);
        // With another CPU as well, the baseline is not used and there is
        // no note: the sentence names both machines, kernels included.
        here.cpu_model = "Intel(R) Xeon(R)".to_owned();
        let m = here.compare(&stored());
        assert_eq!(m.note(), None);
        assert_eq!(
            m.to_string(),
            "baseline recorded on AMD EPYC 7B13, 4 cores, linux 6.18.44-fc-v657, x86_64, release \
             profile; this machine Intel(R) Xeon(R), 4 cores, linux 6.18.44-fc-v669, x86_64, \
             release profile: not used to fail"
        );
    }

    #[test]
    fn an_unreadable_or_pre_release_version_is_incomparable_and_says_why() {
        let mut here = stored();
        here.rustc = "rustc (unknown version)".to_owned();
        assert_eq!(
            here.compare(&stored()).to_string(),
            "baseline recorded on AMD EPYC 7B13, 4 cores, linux 6.18.44-fc-v657, x86_64, release \
             profile, rustc 1.95.0 (59807616e 2026-04-14); this machine AMD EPYC 7B13, 4 cores, \
             linux 6.18.44-fc-v657, x86_64, release profile, rustc (unknown version): not used \
             to fail (rustc version \"rustc (unknown version)\" does not read as \
             major.minor.patch, so any change of it counts)"
        );
        // Two nightlies of one number are different compilers.
        let (mut old, mut new) = (stored(), stored());
        old.rustc = "rustc 1.97.0-nightly (a1b2c3d4e 2026-05-01)".to_owned();
        new.rustc = "rustc 1.97.0-nightly (f5e6d7c8b 2026-05-30)".to_owned();
        let m = new.compare(&old);
        assert!(!m.is_comparable());
        assert!(
            m.to_string().ends_with(
                "not used to fail (rustc 1.97.0-nightly is a pre-release, whose number does not \
                 pin what it is, so any change of it counts)"
            ),
            "{m}"
        );
        // The same nightly on both sides: nothing differs.
        assert!(old.compare(&old).is_comparable());
        // perfmark's own pre-release, and a patch and a minor release at once.
        new = stored();
        new.perfmark_version = "0.1.1-dev".to_owned();
        assert!(!new.compare(&stored()).is_comparable());
        new.perfmark_version = "0.1.1".to_owned();
        new.rustc = "rustc 1.96.0 (a 2026-05-28)".to_owned();
        let m = new.compare(&stored());
        assert!(!m.is_comparable());
        assert!(
            m.to_string().contains(
                ", rustc 1.96.0 (a 2026-05-28): not used to fail (rustc 1.95 in the baseline, 1.96 \
             here: another major or minor release may change the times)"
            ),
            "{m}"
        );
    }
}
