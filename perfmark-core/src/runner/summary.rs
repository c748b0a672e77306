//! The end of a run, after its last test: the base's tests that were not
//! compared, the footer (what holds for the whole run, said once), libtest's
//! `failures:`, the baselines saved, the reports written, and libtest's
//! closing line with the exit status.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Instant;

use super::family::Family;
use super::setup::Setup;
use super::Runner;
use crate::baseline::{self, BaselineError, BaselineStore, Entry, Fingerprint};
use crate::measure::reference;
use crate::measure::Measurement;
use crate::paired::RunComparison;
use crate::report::console::{Console, Counts};
use crate::report::{self, words, EstimateRecord, MachineLockRecord, Report, TestReport};

/// What the tests of a run left: every test's report, in the order run,
/// and the failed ones' names with what libtest prints under `failures:`.
#[derive(Default)]
pub(super) struct Ran {
    pub(super) reports: Vec<TestReport>,
    pub(super) failures: Vec<(String, Option<String>)>,
}

impl Runner {
    /// Closes the run: releases the machine lock, prints what is left to
    /// say, saves baselines and writes the reports; returns the exit
    /// status, 0 when every test passed and every file was written, else
    /// 101.
    pub(super) fn summarize(
        &self,
        mut setup: Setup,
        family: &Family,
        ran: Ran,
        filtered_out: usize,
        started: Instant,
        console: &mut Console,
    ) -> i32 {
        // Every test is measured: let the next process measure.
        let machine_lock = setup.machine_lock.take().map(|lock| MachineLockRecord {
            path: lock.path.display().to_string(),
            waited_s: lock.waited.as_secs_f64(),
        });
        let removed = self.removed_tests(&setup);
        console.removed(&removed);
        let scaling = report::scaling_of(&ran.reports);
        console.footer(&words::runner::footer(
            &ran.reports,
            family.bound(&ran.reports).as_ref(),
            &scaling,
        ));
        console.failures(&ran.failures);
        let mut code = if ran.failures.is_empty() { 0 } else { 101 };
        if self.options.save_baseline && !self.save_baselines(&setup, &ran.reports, console) {
            code = 101;
        }
        let counts = Counts::of(&ran.reports, filtered_out);
        let report = Report {
            schema: report::REPORT_SCHEMA,
            target: self.build.crate_name.to_owned(),
            platform: setup.platform,
            noise_floor: setup.noise_floor,
            environment_warnings: words::environment::all(&setup.environment_warnings),
            tests: ran.reports,
            comparison: setup.comparing.map(|c| RunComparison {
                base: c.base[0].display().to_string(),
                head_links: c.head.len(),
                base_links: c.base.len(),
                compared: c.compared,
                family_wise: family.corrects(),
                removed,
                head_pinned: c.pinned.0,
                base_pinned: c.pinned.1,
            }),
            family_wise: Some(family.record()),
            between_run_prior: Some(setup.prior),
            finished_in_s: started.elapsed().as_secs_f64(),
            interference: Some(self.observer.coverage().clone()),
            machine_lock,
            startup: setup.startup,
            scaling,
        };
        if let Err(message) = report.write(&setup.report_dir) {
            console.error(message);
            code = 101;
        }
        console.result(&counts, started.elapsed());
        code
    }

    /// `--save-baseline`: saves this run's measured tests as baselines in
    /// the `setup`'s store and says what was saved; whether it could.
    fn save_baselines(&self, setup: &Setup, reports: &[TestReport], console: &mut Console) -> bool {
        let saved = save_baselines(
            &setup.store,
            self.build.crate_name,
            reports,
            &setup.fingerprint,
        );
        match saved {
            Ok(saved) => {
                let unbounded: Vec<&str> = saved.unbounded.iter().map(String::as_str).collect();
                let file = saved
                    .file
                    .as_ref()
                    .map(|(path, len)| (path.as_path(), *len));
                console.baselines_saved(file, saved.recorded, &unbounded);
                true
            }
            Err(e) => {
                console.error(e);
                false
            }
        }
    }

    /// Compare mode: the selected tests of the base that this build does
    /// not have.
    fn removed_tests(&self, setup: &Setup) -> Vec<String> {
        let Some(c) = &setup.comparing else {
            return Vec::new();
        };
        let here: BTreeSet<String> = setup.tests.iter().map(|t| t.name()).collect();
        c.base_tests
            .iter()
            .filter(|name| !here.contains(*name) && self.selected_name(name, false))
            .cloned()
            .collect()
    }
}

/// What `--save-baseline` did.
struct Saved {
    /// The file written, and how many tests it holds; `None` when no test
    /// could be recorded.
    file: Option<(PathBuf, usize)>,
    /// The tests this run recorded.
    recorded: usize,
    /// Measured tests left out, their CI unbounded (too few samples).
    unbounded: Vec<String>,
}

/// Saves the measured tests of this run as baselines (the other tests'
/// entries are kept).
fn save_baselines(
    store: &BaselineStore,
    target: &str,
    reports: &[TestReport],
    fingerprint: &Fingerprint,
) -> Result<Saved, BaselineError> {
    let mut entries: Vec<Entry> = Vec::new();
    // Measured tests left out, named in the line so that a missing entry
    // (and later a missing comparison) is never a surprise.
    let mut unbounded: Vec<String> = Vec::new();
    for r in reports {
        let (Some(e), Some(m)) = (r.estimate.as_ref(), r.measurement.as_ref()) else {
            continue;
        };
        if !(e.ci.low.is_finite() && e.ci.high.is_finite()) {
            unbounded.push(r.name.clone());
            continue;
        }
        entries.push(baseline_entry(r, e, m, fingerprint));
    }
    let file = if entries.is_empty() {
        None
    } else {
        let file = store.save(target, &entries)?;
        Some((file.path().to_owned(), file.len()))
    };
    Ok(Saved {
        file,
        recorded: entries.len(),
        unbounded,
    })
}

/// The baseline entry of the test reported as `r`, whose estimate `e` and
/// measurement `m` it records, on the machine `fingerprint` describes.
fn baseline_entry(
    r: &TestReport,
    e: &EstimateRecord,
    m: &Measurement,
    fingerprint: &Fingerprint,
) -> Entry {
    let mut entry = Entry::new(
        r.name.clone(),
        baseline::StoredEstimate::new(
            e.statistic.as_str(),
            e.ns_per_iter,
            (e.ci.low, e.ci.high),
            e.ci.confidence,
        )
        .with_df(r.processes.as_ref().map(|_| e.effective_samples - 1.0)),
        m.samples_ns.clone(),
        m.iters_per_sample,
        fingerprint.clone(),
    )
    .with_clock(r.measure);
    if let Some(reference) = reference::estimate(&m.reference_ns, e.ci.confidence) {
        entry = entry.with_reference(baseline::StoredReference {
            ci_high_ns: reference.ci.high,
            ci_low_ns: reference.ci.low,
            confidence: reference.ci.confidence,
            ns_per_step: reference.point,
        });
    }
    if let Some(p) = &r.processes {
        entry = entry.with_processes(baseline::StoredProcesses {
            df: p.df,
            sd_log: p.tau_own,
        });
    }
    if let Some(c) = &r.instructions {
        entry = entry.with_instructions(baseline::StoredInstructions {
            per_iter: c.per_iter as f64,
            min_per_iter: c.min_per_iter,
            max_per_iter: c.max_per_iter,
            functions: c.functions.clone(),
        });
    }
    entry
}
