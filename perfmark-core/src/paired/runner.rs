//! Compare mode (`--compare-with PATH`): each selected test in both builds
//! is measured by the paired policy over worker processes of the two
//! binaries, and decided from the paired ratios; tests in one build only
//! are listed as new or removed and never fail.

use std::sync::Arc;
use std::time::Instant;

use std::panic::{self, AssertUnwindSafe};

use super::Paired;
use crate::allocations::check::Allocs;
use crate::allocations::{self, Allocations};
use crate::baseline::run_spreads::RunSpreads;
use crate::bencher::{Bencher, Measurer};
use crate::budget::Budget;
use crate::checks::{Check, Said, Warning};
use crate::cpus::{CpuRecord, NotPinned};
use crate::measure::sampler::Plan;
use crate::measure::Measurement;
use crate::observe::{Interference, PairedInterference, Reading, SlicePairObservation};
use crate::paired::builds::Comparing;
use crate::paired::measure::{run_paired, PairedPlan, SlicePair};
use crate::paired::said::PairedSaid;
use crate::paired::ProcessPair;
use crate::registry::PerfTest;
use crate::runner::family::Family;
use crate::runner::judge::{judge, Across};
use crate::runner::outcome::Outcome;
use crate::runner::Runner;

/// Judges the head's measurement `m` by `checks`, at the `plan`,
/// tolerance and noise floor of `judging`, the samples grouped `across`
/// the process pairs.
fn decide(
    outcome: &mut Outcome,
    (plan, tolerance, noise_floor): (&Plan, f64, Option<f64>),
    m: &Measurement,
    checks: &[&dyn Check],
    across: Across<'_>,
) {
    let Outcome {
        name,
        measured,
        judged,
        ..
    } = outcome;
    judge(
        name,
        measured,
        judged,
        plan,
        tolerance,
        m,
        noise_floor,
        checks,
        across,
    );
}

impl Runner {
    /// Measures `t` against its twin in the base, slice by slice, and
    /// decides: the budget on the head's slices, the regression from the
    /// paired ratios.
    pub(crate) fn compare_one(
        &self,
        t: &PerfTest,
        name: String,
        noise_floor: Option<f64>,
        comparing: &Comparing,
        family: &Family,
        spreads: &RunSpreads<'_>,
    ) -> Outcome {
        let started = Instant::now();
        let mut plan = self.plan_for(t);
        let test_confidence = plan.confidence;
        plan.confidence = family.confidence(&name, test_confidence);
        let tolerance = self.tolerance(t);
        let mut outcome = Outcome::of(t, name.clone());
        let paired_plan = PairedPlan::new(plan.confidence, tolerance, plan.max_time);
        let (mut driver, not_pinned) =
            self.process_pair(&name, comparing, t.options.threads.is_some_and(|n| n != 1));
        let before = self.observer.read();
        let measured = run_paired(&mut driver, &paired_plan).and_then(|pm| {
            driver.close()?;
            Ok(pm)
        });
        // The workers have been waited for: their CPU time is this
        // process's, not other work's.
        let after = self.observer.read();
        outcome.measured.cpu = self.pairs_cpu_record(driver.pair_cpus(), not_pinned);
        let pm = match measured {
            Ok(pm) => pm,
            Err(e) => {
                let error = e.to_string();
                outcome
                    .judged
                    .say(Said::Paired(PairedSaid::Failed { error }));
                outcome.duration_s = started.elapsed().as_secs_f64();
                return outcome;
            }
        };
        let m = pm.head_measurement(
            driver.kind().unwrap_or(crate::measure::SampleKind::Loop),
            driver.first_call_ns().unwrap_or(f64::NAN),
        );
        outcome.measured.measure = plan.measure;
        outcome.measured.allocations = count_head_allocations(t, pm.iters_per_slice, plan.allocs);
        let paired = Paired::new(&pm, &comparing.base[0], plan.confidence, test_confidence);
        let budget = Budget::new(spreads);
        let checks: [&dyn Check; 3] = [&budget, &paired, &Allocs];
        let groups: Vec<usize> = pm.slice_pairs.iter().map(|s| s.pair).collect();
        let judging = (&plan, tolerance, noise_floor);
        decide(&mut outcome, judging, &m, &checks, Across::Groups(&groups));
        self.observe_slices(&mut outcome, &pm.slice_pairs, (&before, &after));
        outcome.measured.measurement = Some(m);
        outcome.duration_s = started.elapsed().as_secs_f64();
        outcome
    }

    /// The process pair that compares the test `name` with its twin in the
    /// base, held on the run's CPUs unless the run does not pin (then why
    /// not). A threaded test's (`threaded`) workers start where the
    /// scheduler puts them, and their teams hold their threads apart: a
    /// process held on one CPU would hold its whole team there.
    fn process_pair(
        &self,
        name: &str,
        comparing: &Comparing,
        threaded: bool,
    ) -> (ProcessPair, Option<NotPinned>) {
        let mut driver = ProcessPair::new(name, &comparing.head, &comparing.base)
            .with_timeout(self.options.worker_timeout);
        let (pin, not_pinned) = self.pinning();
        driver = driver.holding_team(pin.is_some() && not_pinned.is_none());
        if let (Some(cpus), None, false) = (pin, &not_pinned, threaded) {
            driver = driver.with_cpus(Arc::clone(cpus));
        }
        (driver, not_pinned)
    }

    /// What the OS saw of other work around the comparison's slice `pairs`
    /// (between the readings `before` and `after`), into `outcome`: the
    /// interference, and a warning when it hit one side more than the
    /// other or disturbed the slices; nothing where it is not observed.
    fn observe_slices(
        &self,
        outcome: &mut Outcome,
        pairs: &[SlicePair],
        (before, after): (&Reading, &Reading),
    ) {
        if !self.observer.coverage().observed {
            return;
        }
        let observed = PairedInterference::new(slice_observations(pairs));
        let warnings = &mut outcome.judged.warnings;
        warnings.extend(
            observed
                .asymmetry()
                .map(|(head, base)| Warning::PairedAsymmetry { head, base }),
        );
        let i = Interference::of_slices(before, after, observed);
        warnings.extend(i.disturbed.then(|| Warning::Disturbed(i.clone())));
        outcome.measured.interference = Some(i);
    }
}

impl Runner {
    /// What the report says of where a paired comparison's workers ran:
    /// each pair's CPU when every pair was held on one, else why not.
    fn pairs_cpu_record(
        &self,
        pair_cpus: &[Option<usize>],
        not_pinned: Option<NotPinned>,
    ) -> Option<CpuRecord> {
        let cpus = self.cpus.as_ref()?;
        let held: Option<Vec<usize>> = pair_cpus.iter().copied().collect();
        Some(match (held, not_pinned) {
            (_, Some(why)) => cpus.record(Vec::new(), Some(why)),
            (Some(on), None) => cpus.record(on, None),
            (None, None) => cpus.record(
                Vec::new(),
                Some(NotPinned::Refused(
                    "a worker could not be held on its pair's CPU".to_owned(),
                )),
            ),
        })
    }
}

/// The head's allocations per iteration: the workers time, and this
/// process counts, running the body once more with a counting-only policy
/// (one warm call, then one slice's worth of iterations, untimed). `None`
/// when allocations are not counted here or the body panicked (its worker
/// said so already).
fn count_head_allocations(t: &PerfTest, iters: u64, limit: Option<u64>) -> Option<Allocations> {
    if !allocations::installed() {
        return None;
    }
    let mut bencher = Bencher::new(Measurer::CountOnly {
        iters: iters.max(1),
    })
    .counting_allocations();
    panic::catch_unwind(AssertUnwindSafe(|| (t.body)(&mut bencher))).ok()?;
    let (count, iters) = bencher.counted()?;
    Some(Allocations::per_iteration(count, iters, limit))
}

/// Each slice pair's figures, as the workers reported them.
fn slice_observations(pairs: &[SlicePair]) -> Vec<SlicePairObservation> {
    pairs
        .iter()
        .map(|p| SlicePairObservation {
            pair: p.pair,
            head_first: p.head_first,
            base: p.base_observed,
            head: p.head_observed,
        })
        .collect()
}
