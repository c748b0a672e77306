//! When a stored baseline cannot be compared because one side's time is
//! below the measurement's resolution ([`crate::stats::at_resolution`]):
//! the decision, with the reason it gives
//! ([`crate::report::words::baseline`]), so the comparison is never dropped
//! silently.
//!
//! The regression rule works on a log scale, where a time that cannot be
//! told from zero has no place: its ratio to anything means nothing. The
//! same rule decides "below resolution" for both sides: this run's estimate
//! as the checks read it, and the stored estimate (and each stored run's
//! estimate) at the resolution of the entry's iterations per sample. A
//! stored entry from before the rule may hold a negative time: it reads as
//! below resolution too.

use crate::baseline::Entry;
use crate::checks::Subject;
use crate::report::words::baseline as words;
use crate::stats::is_below_resolution;

/// Why the test's run and its stored `entry` cannot be compared on the
/// resolution's account, or `None` when both times are resolved.
pub(super) fn not_comparable(subject: &Subject<'_>, entry: &Entry) -> Option<String> {
    let here = subject.resolution_ns;
    if subject.below_resolution() {
        return Some(words::run_below_resolution(
            subject.estimate.statistic.as_str(),
            here,
        ));
    }
    // The resolution per iteration scales with the iterations per sample;
    // the block's timer is the same (a baseline from another machine is
    // never compared).
    let iters_here = subject.measurement.iters_per_sample.max(1) as f64;
    let stored = here * iters_here / entry.iters_per_sample().max(1) as f64;
    let e = entry.estimate();
    if is_below_resolution(e.ns_per_iter, stored) {
        return Some(words::stored_below_resolution(
            &e.statistic,
            e.ns_per_iter,
            stored,
        ));
    }
    let runs = entry.between_runs()?;
    let (i, x) = runs
        .run_estimates_ns
        .iter()
        .enumerate()
        .find(|(_, &x)| is_below_resolution(x, stored))?;
    Some(words::stored_run_below_resolution(
        i + 1,
        runs.runs,
        *x,
        stored,
    ))
}

#[cfg(test)]
mod tests {
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
        assert!(finding.passed, "{}", finding.reason);
        finding.reason
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
