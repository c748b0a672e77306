//! Baseline files (`perfmark_core::baseline`): what a save writes, a load
//! reads back equal; whatever bytes a file holds (a valid file mutated,
//! cut short, given wrong types, huge numbers, `NaN` spelled as a string,
//! deep nesting, bytes that are not UTF-8, a key twice, entries of tests
//! that do not exist), a load gives entries fit to use or an error naming
//! the file, writes nothing, and a save over a file it refuses leaves it
//! as it was. An entry a load accepts goes through the regression check
//! without a panic.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use perfmark_core::baseline::check::Regression;
use perfmark_core::baseline::compare::Outcome;
use perfmark_core::baseline::run_spreads::{Prior, RunSpreads};
use perfmark_core::baseline::said::BaselineSaid;
use perfmark_core::baseline::{BaselineStore, Entry, Fingerprint, StoredEstimate};
use perfmark_core::checks::{Check, Said, Subject};
use perfmark_core::measure::{Measurement, Plan, SampleKind, StopReason};
use perfmark_core::stats;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::props::{check, mutate, mutation};

/// A fresh directory for one case. On tmpfs (`/dev/shm`) when there is
/// one: a save `fsync`s, which a disk makes slow at 100k cases.
fn scratch(property: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let root = Path::new("/dev/shm");
    let root = if root.is_dir() {
        root.join("perfmark-properties")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("properties")
    };
    // Each case's directory is removed when it ends ([`Scratch`]); the
    // process id keeps runs at the same time apart.
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = root.join(format!("{property}-{}-{n}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Removes a case's directory when the case ends, failed or not.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Every file in `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .expect("list the scratch directory")
        .map(|e| {
            let e = e.expect("an entry");
            let bytes = fs::read(e.path()).unwrap_or_default();
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect()
}

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        proptest::num::f64::NORMAL | proptest::num::f64::ZERO | proptest::num::f64::SUBNORMAL,
        1.0..1e6f64,
    ]
}

fn fingerprint() -> impl Strategy<Value = Fingerprint> {
    (
        prop::collection::vec(any::<String>(), 8),
        prop_oneof![1usize..256, any::<usize>()],
    )
        .prop_map(|(s, cores)| Fingerprint {
            arch: s[0].clone(),
            cores,
            cpu_model: s[1].clone(),
            date: s[2].clone(),
            kernel: s[3].clone(),
            os: s[4].clone(),
            perfmark_version: s[5].clone(),
            profile: s[6].clone(),
            rustc: s[7].clone(),
        })
}

/// One run's entry of the test `name`: any finite numbers, an interval the
/// right way up, a level in (0, 1), a snake_case statistic.
fn run_entry(name: String) -> impl Strategy<Value = Entry> {
    (
        (finite(), finite(), finite()),
        0.001f64..0.999,
        "[a-z_][a-z0-9_]{0,12}",
        prop::collection::vec(finite(), 1..40),
        prop_oneof![1u64..5000, any::<u64>().prop_map(|n| n.max(1))],
        fingerprint(),
    )
        .prop_map(
            move |((a, b, c), confidence, statistic, samples, iters, fp)| {
                let mut ends = [a, b, c];
                ends.sort_by(f64::total_cmp);
                let estimate =
                    StoredEstimate::new(statistic, ends[1], (ends[0], ends[2]), confidence);
                Entry::new(name.clone(), estimate, samples, iters, fp)
            },
        )
}

/// An entry of one run, or several runs of the same test merged (with its
/// between-run spread).
fn entry(name: String) -> impl Strategy<Value = Entry> {
    prop_oneof![
        3 => run_entry(name.clone()),
        1 => (run_entry(name), prop::collection::vec(finite(), 1..5)).prop_map(|(first, more)| {
            let runs: Vec<Entry> = std::iter::once(first.clone())
                .chain(more.into_iter().map(|ns| {
                    let e = first.estimate();
                    let estimate = StoredEstimate::new(
                        e.statistic.clone(),
                        ns,
                        (ns.min(e.ci_low_ns), ns.max(e.ci_high_ns)),
                        e.confidence,
                    );
                    Entry::new(
                        first.name(),
                        estimate,
                        first.samples_ns().to_vec(),
                        first.iters_per_sample(),
                        first.fingerprint().clone(),
                    )
                }))
                .collect();
            Entry::median_run_of(&runs)
        }),
    ]
}

/// Entries of distinct tests with any names (quotes, newlines, any
/// script, the empty name).
fn entries() -> impl Strategy<Value = Vec<Entry>> {
    prop::collection::btree_set(any::<String>(), 1..5)
        .prop_flat_map(|names| names.into_iter().map(entry).collect::<Vec<_>>())
}

#[test]
fn what_a_save_writes_a_load_reads_back_equal() {
    check(
        "baseline: save then load",
        (entries(), entries()),
        |(first, second)| {
            let dir = Scratch(scratch("round-trip"));
            let store = BaselineStore::new(&dir.0);
            store.save("perf", &first).map_err(fail)?;
            // A second save replaces its own tests and keeps the others.
            let saved = store.save("perf", &second).map_err(fail)?;
            let loaded = store.load("perf").map_err(fail)?.expect("the file exists");
            prop_assert_eq!(&loaded, &saved);
            let mut expected: BTreeMap<&str, &Entry> =
                first.iter().map(|e| (e.name(), e)).collect();
            expected.extend(second.iter().map(|e| (e.name(), e)));
            let got: BTreeMap<&str, &Entry> = loaded.entries().map(|e| (e.name(), e)).collect();
            prop_assert_eq!(got, expected);
            // Saving what was loaded changes no byte.
            let text = fs::read(dir.0.join("perf.json")).expect("the file");
            let all: Vec<Entry> = loaded.entries().cloned().collect();
            store.save("perf", &all).map_err(fail)?;
            prop_assert_eq!(fs::read(dir.0.join("perf.json")).expect("the file"), text);
            Ok(())
        },
    );
}

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

/// A valid file's text to damage: two tests, one of them recorded over
/// several runs.
fn valid_text() -> String {
    let dir = Scratch(scratch("valid"));
    let store = BaselineStore::new(&dir.0);
    let fp = Fingerprint::current("rustc 1.95.0", "release", "0.1.0");
    let one = |name: &str, ns: f64| {
        let estimate = StoredEstimate::new("median", ns, (ns * 0.99, ns * 1.01), 0.95);
        Entry::new(
            name,
            estimate,
            vec![ns, ns * 1.01, ns * 0.98],
            4096,
            fp.clone(),
        )
    };
    let merged = Entry::median_run_of(&[one("b", 20.0), one("b", 21.0), one("b", 19.5)]);
    store.save("perf", &[one("a", 10.0), merged]).unwrap();
    fs::read_to_string(dir.0.join("perf.json")).unwrap()
}

/// Bytes a baseline file may hold: a valid file mutated once or a few
/// times, arbitrary bytes, arbitrary text.
fn file_bytes(valid: String) -> impl Strategy<Value = Vec<u8>> {
    let valid = valid.into_bytes();
    prop_oneof![
        6 => prop::collection::vec(mutation(), 1..4).prop_map(move |ms| mutate(&valid, &ms)),
        1 => prop::collection::vec(any::<u8>(), 0..256),
        1 => any::<String>().prop_map(String::into_bytes),
    ]
}

/// A plan, a measurement and an estimate for a regression check against
/// any stored entry.
fn subject_parts(ns: f64) -> (Plan, Measurement, stats::Estimate) {
    let samples: Vec<f64> = (0..40)
        .map(|i| ns * (1.0 + 0.001 * f64::from(i % 7)))
        .collect();
    let plan = Plan::new(0.95, 0.01, Duration::from_secs(1), Duration::from_secs(1));
    let estimate = stats::estimate(&samples, 0.95);
    let measurement = Measurement {
        kind: SampleKind::Loop,
        samples_ns: samples,
        iters_per_sample: 100,
        first_call_ns: ns,
        loop_overhead_ns: 0.0,
        warmup_ns: 0.0,
        warmup_blocks: 0,
        warmup_settled: true,
        sampling_ns: 0.0,
        stop: StopReason::Precision,
        planned_samples: 40,
        budget_look: None,
        reference_ns: Vec::new(),
    };
    (plan, measurement, estimate)
}

/// What a loaded entry promises its users.
fn fit_to_use(entry: &Entry) -> Result<(), TestCaseError> {
    let e = entry.estimate();
    prop_assert!(e.ns_per_iter.is_finite() && e.ci_low_ns.is_finite() && e.ci_high_ns.is_finite());
    prop_assert!(e.ci_low_ns <= e.ci_high_ns);
    prop_assert!(e.confidence > 0.0 && e.confidence < 1.0);
    prop_assert!(!entry.samples_ns().is_empty());
    prop_assert!(entry.samples_ns().iter().all(|s| s.is_finite()));
    prop_assert!(entry.iters_per_sample() >= 1);
    if let Some(b) = entry.between_runs() {
        prop_assert!(b.runs >= 2 && b.runs == b.run_estimates_ns.len());
        prop_assert!(b.sd_log.is_finite() && b.sd_log >= 0.0);
    }
    // The regression check takes it, on this machine's fingerprint, with
    // a panic nowhere (a run 1 ns and 1 ms per iteration).
    let file_dir = Scratch(scratch("check"));
    let store = BaselineStore::new(&file_dir.0);
    let file = store
        .save("perf", std::slice::from_ref(entry))
        .map_err(fail)?;
    // The prior as a run resolves it: from the file's recorded spread when
    // it has one.
    let here = entry.fingerprint();
    let spreads = RunSpreads::new(Prior::resolve(None, Some(&file), here), Some(&file), here);
    // The entry's own time too: the same time as recorded never fails.
    let own = entry.estimate().ns_per_iter;
    for ns in [1.0, 1e6, own] {
        let (plan, measurement, estimate) = subject_parts(ns);
        let subject = Subject {
            name: entry.name(),
            plan: &plan,
            tolerance: 0.05,
            measurement: &measurement,
            estimate: &estimate,
            allocations: None,
            resolution_ns: measurement.resolution_ns(&plan.clock),
            processes: None,
        };
        let finding = Regression::new(&file, here, &spreads).check(&subject);
        let finding = finding.expect("the entry is in the file");
        let Said::Baseline(said) = &finding.said else {
            return Err(TestCaseError::fail(format!(
                "not the baseline's: {:?}",
                finding.said
            )));
        };
        // A failure is a regression the record shows: slower beyond the
        // tolerance, by the comparison's own ratio.
        if said.fails() {
            let BaselineSaid::Checked { record, .. } = said else {
                return Err(TestCaseError::fail(format!(
                    "failed without a record: {said:?}"
                )));
            };
            let c = record.comparison.as_ref().expect("a failure compared");
            prop_assert!(c.verdict == Outcome::Regressed, "{:?}", c.verdict);
            prop_assert!(c.ratio > 1.05 && c.ci.low > 1.0, "{c:?}");
        }
        // The recorded time itself (1% wide samples around it) is never a
        // regression.
        if ns == own {
            prop_assert!(!said.fails(), "the recorded time failed: {said:?}");
        }
    }
    Ok(())
}

#[test]
fn any_file_is_baselines_fit_to_use_or_an_error_naming_it_and_nothing_is_written() {
    let valid = valid_text();
    check(
        "baseline: load and save over any bytes",
        file_bytes(valid),
        |bytes| {
            let dir = Scratch(scratch("any-bytes"));
            let path = dir.0.join("perf.json");
            fs::write(&path, &bytes).expect("write the case");
            let before = snapshot(&dir.0);
            let store = BaselineStore::new(&dir.0);
            match store.load("perf") {
                Ok(file) => {
                    let file = file.expect("the file exists");
                    prop_assert!(snapshot(&dir.0) == before, "a load wrote");
                    for entry in file.entries() {
                        fit_to_use(entry)?;
                    }
                }
                Err(error) => {
                    prop_assert!(snapshot(&dir.0) == before, "a load wrote");
                    let message = error.to_string();
                    prop_assert!(
                        error.is_corrupt() || error.is_future_schema(),
                        "{}",
                        message
                    );
                    prop_assert!(
                        message.starts_with(&format!("{}: ", path.display())),
                        "{}",
                        message
                    );
                    prop_assert!(message.contains("--save-baseline"), "{}", message);
                    // A save refuses it the same way, and leaves no byte
                    // changed and no file behind.
                    let new = Entry::new(
                        "new",
                        StoredEstimate::new("median", 1.0, (1.0, 1.0), 0.95),
                        vec![1.0],
                        1,
                        Fingerprint::current("rustc", "release", "0.1.0"),
                    );
                    let refused = store.save("perf", &[new]);
                    prop_assert_eq!(
                        refused.map_err(|e| e.to_string()).err(),
                        Some(message.clone())
                    );
                    prop_assert!(snapshot(&dir.0) == before, "a refused save wrote");
                }
            }
            Ok(())
        },
    );
}

#[test]
fn entries_of_tests_that_do_not_exist_are_listed_as_stale() {
    check(
        "baseline: stale entries",
        (
            entries(),
            prop::collection::vec(any::<String>(), 0..6),
            any::<bool>(),
        ),
        |(entries, others, keep_some)| {
            let dir = Scratch(scratch("stale"));
            let store = BaselineStore::new(&dir.0);
            let file = store.save("perf", &entries).map_err(fail)?;
            // The binary's tests: some of the stored ones, and others.
            let mut current: BTreeSet<String> = others.into_iter().collect();
            if keep_some {
                current.insert(entries[0].name().to_owned());
            }
            let stale: BTreeSet<String> = file.stale_tests(&current).into_iter().collect();
            let expected: BTreeSet<String> = entries
                .iter()
                .map(|e| e.name().to_owned())
                .filter(|n| !current.contains(n))
                .collect();
            prop_assert_eq!(stale, expected);
            Ok(())
        },
    );
}

/// A case the mutations found, kept: a test's entry given twice in one file
/// (a merge that kept both sides) read as whichever came last.
#[test]
fn a_test_given_twice_is_refused_by_name() {
    let text = valid_text();
    let twice = text.replacen("\"tests\": {\n", "\"tests\": {\n    \"a\": {},\n", 1);
    let dir = Scratch(scratch("twice"));
    fs::write(dir.0.join("perf.json"), &twice).unwrap();
    let error = BaselineStore::new(&dir.0).load("perf").unwrap_err();
    assert!(error.is_corrupt(), "{error}");
    let message = error.to_string();
    assert!(
        message.contains("the key \"a\" appears twice in one object"),
        "{message}"
    );
}

#[test]
fn runs_merged_keep_a_reference_inside_its_interval() {
    // The median run's reference interval collapsed at its top or bottom
    // (a few steps at the timer's resolution): scaled to the runs'
    // geometric mean, a bound at the point must not round past it.
    let fp = Fingerprint::current("rustc 1.95.0", "release", "0.1.0");
    check(
        "baseline: a merged reference stays inside its interval",
        (prop::collection::vec(0.5f64..2.0, 2..6), prop::bool::ANY),
        |(points, at_top)| {
            let runs: Vec<Entry> = points
                .iter()
                .map(|&p| {
                    let estimate = StoredEstimate::new("median", 10.0, (9.0, 11.0), 0.95);
                    let (low, high) = if at_top {
                        (p * 0.999, p)
                    } else {
                        (p, p * 1.001)
                    };
                    Entry::new("t", estimate, vec![10.0], 1, fp.clone()).with_reference(
                        perfmark_core::baseline::StoredReference {
                            ci_high_ns: high,
                            ci_low_ns: low,
                            confidence: 0.95,
                            ns_per_step: p,
                        },
                    )
                })
                .collect();
            let merged = Entry::median_run_of(&runs);
            let r = merged.reference().expect("every run has one");
            prop_assert!(
                r.ci_low_ns <= r.ns_per_step && r.ns_per_step <= r.ci_high_ns,
                "{:?}",
                r
            );
            let dir = Scratch(scratch("reference"));
            BaselineStore::new(&dir.0)
                .save("perf", &[merged])
                .map_err(fail)?;
            Ok(())
        },
    );
}
