//! One test, measured and judged: its plan from its options and the
//! run's, its body run under the [`watchdog`] with what the OS saw
//! meanwhile, the checks' verdict, and a second measurement when a failure
//! was measured under interference ([`remeasure`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::family::Family;
use super::judge::{judge, Across};
use super::outcome::{Judged, Measured, Outcome};
use super::remeasure;
use super::watchdog::{self, Bounded, Ran};
use super::Runner;
use crate::allocations::{self, Allocations};
use crate::bencher::{Bencher, Measurer};
use crate::checks::{Check, RunnerSaid, Said, Verdict, Warning};
use crate::clock::{self, Clock};
use crate::cpus::{CpuRecord, NotPinned, Placed};
use crate::measure::capture::{panic_headline, panic_payload_text, take_panic_message};
use crate::measure::{Adaptive, Measurement, Plan, StopReason};
use crate::processes::{self, OwnWorkers, Prior, ProcessPlan, WorkerRun};
use crate::registry::{Ignore, PerfTest};
use crate::report::{Reason, TestReport};
use crate::threads::{TeamPlan, ThreadsRecord};

impl Runner {
    /// The measurement plan of `t`: its options, else the run's.
    pub(crate) fn plan_for(&self, t: &PerfTest) -> Plan {
        let o = &t.options;
        let mut plan = Plan::new(
            o.confidence.unwrap_or(self.options.confidence),
            o.precision.unwrap_or(self.options.precision),
            o.max_time_ns
                .map_or(self.options.max_time, Duration::from_nanos),
            o.warmup_ns
                .map_or(self.options.warmup, Duration::from_nanos),
        );
        plan.budget_ns = o.budget_ns;
        plan.smoke = !self.measuring();
        plan.allocs = o.allocs;
        plan.measure = t.clock();
        // Without a thread CPU clock the test fails before it is measured
        // (see `measure_one`); the wall clock's figures stand in meanwhile.
        if let Some(info) = plan.measure.info() {
            plan.clock = info;
        }
        plan
    }

    /// Measures and judges `t`; a failure measured under interference is
    /// measured once more, and that measurement decides
    /// ([`remeasure`]).
    pub(crate) fn run_one(
        &self,
        t: &PerfTest,
        name: String,
        noise_floor: Option<f64>,
        family: &Family,
        checks: &[&dyn Check],
    ) -> Outcome {
        let started = Instant::now();
        let mut plan = self.plan_for(t);
        // Measured at the run's corrected level, so the sampler keeps going
        // until that interval clears the budget, and every verdict of the
        // test is decided at it.
        plan.confidence = family.confidence(&name, plan.confidence);
        let tolerance = self.tolerance(t);
        let mut outcome = self.measure_one(t, name.clone(), &plan, tolerance, noise_floor, checks);
        if !self.options.no_remeasure && !outcome.hung && remeasure::wanted(&outcome) {
            let mut again = plan.clone();
            again.max_time =
                remeasure::max_time(plan.max_time, outcome.measured.measurement.as_ref());
            let second = self.measure_one(t, name, &again, tolerance, noise_floor, checks);
            outcome = remeasure::combine(outcome, second, again.max_time);
        }
        outcome.duration_s = started.elapsed().as_secs_f64();
        outcome
    }

    /// One measurement of `t` under `plan`, judged, with what the OS knew
    /// about other work meanwhile (read on the test's thread, before and
    /// after the body: outside every timed block). The body runs under the
    /// [`watchdog`]: a test that does not return within its bound fails as
    /// hung.
    pub(crate) fn measure_one(
        &self,
        t: &PerfTest,
        name: String,
        plan: &Plan,
        tolerance: f64,
        noise_floor: Option<f64>,
        checks: &[&dyn Check],
    ) -> Outcome {
        if plan.measure == Clock::Cpu && clock::cpu_info().is_none() {
            return failed_outcome(t, name, plan, RunnerSaid::CpuClockMissing, false);
        }
        let (result, mut outcome) = match self.run_body(t, name, plan) {
            Ok(ran) => ran,
            Err(outcome) => return *outcome,
        };
        match result {
            Err(payload) => {
                let message = take_panic_message().unwrap_or_else(|| panic_payload_text(&*payload));
                let headline = panic_headline(&message).to_owned();
                outcome
                    .judged
                    .say(Said::Runner(RunnerSaid::Panicked { headline }));
                outcome.measured.panic = Some(message);
                outcome.measured.measurement = None;
            }
            Ok(()) => match outcome.measured.measurement.take() {
                None => outcome.judged.say(Said::Runner(RunnerSaid::NoRoutine)),
                Some(m) if m.stop == StopReason::Smoke => {
                    outcome.judged.not_measured = true;
                    outcome.judged.say(Said::Runner(RunnerSaid::NotMeasured));
                    outcome.measured.measurement = Some(m);
                }
                Some(m) => {
                    self.judge_measured(t, &mut outcome, plan, tolerance, noise_floor, checks, &m);
                    outcome.measured.measurement = Some(m);
                }
            },
        }
        outcome
    }

    /// Runs `t`'s body with an adaptive [`Bencher`] on a thread of its own,
    /// bounded by the watchdog: the body's result, and the test's outcome
    /// with what the run saw (placement, interference, wall time, size,
    /// allocations, work, and the measurement, if one was taken); the
    /// outcome alone, failed, when the body hung or no thread could be
    /// started.
    fn run_body(
        &self,
        t: &PerfTest,
        name: String,
        plan: &Plan,
    ) -> Result<(std::thread::Result<()>, Outcome), Box<Outcome>> {
        let mut bencher =
            Bencher::new(Measurer::Adaptive(Adaptive::new(plan.clone()))).with_clock(plan.measure);
        if allocations::installed() {
            bencher = bencher.counting_allocations();
        }
        take_panic_message();
        let bound = self.bound_for(plan);
        let observer = Arc::clone(&self.observer);
        let (pin, not_pinned) = self.pinning();
        let pin = pin.filter(|_| not_pinned.is_none()).cloned();
        bencher = bencher.with_team(TeamPlan::new(t.options.threads.unwrap_or(1), pin.clone()));
        let (result, ran) =
            match watchdog::run_bounded(&name, bound, t.body, bencher, observer, pin) {
                Bounded::Returned(result, ran) => (result, ran),
                Bounded::Hung => {
                    let said = watchdog::hung(bound, self.options.timeout.is_some());
                    return Err(Box::new(failed_outcome(t, name, plan, said, true)));
                }
                Bounded::NoThread(error) => {
                    let said = RunnerSaid::NoThread { error };
                    return Err(Box::new(failed_outcome(t, name, plan, said, false)));
                }
            };
        let mut outcome = Outcome::of(t, name);
        outcome.measured.measure = plan.measure;
        let Some(ran) = ran else {
            return Ok((result, outcome));
        };
        self.take_measured(t, plan, &mut outcome.measured, *ran, not_pinned);
        Ok((result, outcome))
    }

    /// What the body's run `ran` left, into `measured`: where it ran, what
    /// the OS saw meanwhile, the team of a threaded test, size,
    /// allocations, work, and the measurement.
    fn take_measured(
        &self,
        t: &PerfTest,
        plan: &Plan,
        measured: &mut Measured,
        ran: Ran,
        not_pinned: Option<NotPinned>,
    ) {
        let Ran {
            bencher,
            before,
            after,
            placed,
        } = ran;
        measured.cpu = self.cpu_record(placed, not_pinned);
        measured.interference = self.observer.between(&before, &after);
        measured.wall_ns_per_iter = bencher.wall_ns_per_iter();
        measured.threads = team_record(t, &bencher, measured.cpu.as_ref());
        if let Some(team) = measured
            .threads
            .as_ref()
            .filter(|team| !team.placement.apart)
        {
            measured.warnings.push(Warning::ThreadsShareCpus {
                threads: team.count,
                candidates: team.placement.candidates,
            });
        }
        measured.size = bencher.size();
        measured.allocations = bencher
            .counted()
            .map(|(count, iters)| Allocations::per_iteration(count, iters, plan.allocs));
        let (measurement, work) = bencher.finish();
        measured.work = work;
        if plan.measure == Clock::Cpu
            && measurement
                .as_ref()
                .is_some_and(|m| m.kind == crate::measure::SampleKind::Custom)
        {
            measured.warnings.push(Warning::CpuClockNotForCustom);
        }
        measured.measurement = measurement;
    }

    /// Judges a measurement `m` of `t` into `outcome`. Worker processes
    /// measure it again where they can change the verdict
    /// ([`crate::processes`]): none where the runner's intervals, widened
    /// by the spread learned on this machine, settle every check; else
    /// [`processes::FIRST_LOOK`] and a look, and the rest of
    /// [`processes::WORKERS`] where the look leaves a check failing or
    /// undecided. A stored baseline compared always starts workers; one
    /// recorded (`--save-baseline`) runs every worker, in one look. A
    /// warning says why when workers could not run.
    #[allow(clippy::too_many_arguments)]
    fn judge_measured(
        &self,
        t: &PerfTest,
        outcome: &mut Outcome,
        plan: &Plan,
        tolerance: f64,
        noise_floor: Option<f64>,
        checks: &[&dyn Check],
        m: &Measurement,
    ) {
        let judge_with = |outcome: &Outcome, across: Across<'_>| {
            let mut judged = Judged::default();
            let (name, measured) = (&outcome.name, &outcome.measured);
            judge(
                name,
                measured,
                &mut judged,
                plan,
                tolerance,
                m,
                noise_floor,
                checks,
                across,
            );
            judged
        };
        let decided = match self.process_plan(t, plan, m) {
            None => judge_with(outcome, Across::One),
            Some(process_plan) => {
                let budget = plan.budget_ns.is_some();
                self.judge_across_processes(outcome, budget, process_plan, &judge_with)
            }
        };
        if let Some(p) = &decided.processes {
            self.learn(&outcome.name, p.tau_own * p.tau_own, p.df);
        }
        let judged = &mut outcome.judged;
        judged.absorb(decided);
        let interference = outcome.measured.interference.as_ref();
        judged.warnings.extend(
            interference
                .filter(|i| i.disturbed)
                .map(|i| Warning::Disturbed(i.clone())),
        );
    }

    /// The judgement `judge_with` gives `outcome`, of a test with a
    /// `budget` or not, with as many worker processes of `process_plan` as
    /// can change it: none when the intervals widened by the spread learned
    /// on this machine settle every check (and no stored baseline is
    /// compared, nor one recorded), else [`Self::measure_processes`]. A
    /// warning says why when the workers failed.
    fn judge_across_processes(
        &self,
        outcome: &Outcome,
        budget: bool,
        process_plan: ProcessPlan,
        judge_with: &dyn Fn(&Outcome, Across<'_>) -> Judged,
    ) -> Judged {
        let prior = self.learned_prior(&outcome.name);
        // What the workers could at most show: the learned spread, known as
        // well as it would be once they confirmed it.
        let anticipated = Prior {
            df: prior.df + processes::WORKERS as f64,
            ..prior
        };
        let provisional = judge_with(outcome, Across::Prior(anticipated));
        let compared = provisional
            .baseline
            .as_ref()
            .is_some_and(|b| b.comparison.is_some());
        let every = self.options.save_baseline;
        if !every && !compared && provisional.settled() {
            return judge_with(outcome, Across::One);
        }
        let name = &outcome.name;
        let measured = self.measure_processes(
            name,
            budget,
            outcome,
            process_plan,
            prior,
            every,
            judge_with,
        );
        measured.unwrap_or_else(|e| {
            let mut judged = judge_with(outcome, Across::One);
            let error = e.to_string();
            judged.warnings.insert(0, Warning::WorkersFailed { error });
            judged
        })
    }

    /// The worker plan of `t`, measured in this process as `m` under
    /// `plan`; `None` when the run measures no workers (`--no-processes`,
    /// an unoptimized build, nothing to time, or an argument of a function
    /// that declares `complexity`: its verdict compares the arguments with
    /// one another, each measured in this process, and a fit over
    /// intervals widened to every process's state missed an n² routine
    /// declared O(n)).
    fn process_plan(&self, t: &PerfTest, plan: &Plan, m: &Measurement) -> Option<ProcessPlan> {
        if self.options.no_processes || plan.smoke || t.options.complexity.is_some() {
            return None;
        }
        ProcessPlan::for_measurement(m, plan.max_time)
    }

    /// Measures the test `name` again in worker processes of this
    /// binary, one at a time ([`processes::run`]), and judges it with
    /// `judge_with` over them: [`processes::FIRST_LOOK`] workers and a
    /// look, then the rest when the look leaves the verdict failing or
    /// undecided; every worker and one look when `every`.
    #[allow(clippy::too_many_arguments)]
    fn measure_processes(
        &self,
        name: &str,
        budget: bool,
        outcome: &Outcome,
        process_plan: ProcessPlan,
        prior: Prior,
        every: bool,
        judge_with: &dyn Fn(&Outcome, Across<'_>) -> Judged,
    ) -> Result<Judged, crate::Error> {
        let me = std::env::current_exe().map_err(|e| {
            crate::Error::usage(format!(
                "this test binary cannot be found to start its workers: {e}"
            ))
        })?;
        let (pin, not_pinned) = self.pinning();
        let mut driver = OwnWorkers::new(name, me, self.options.worker_timeout)
            .holding_team(pin.is_some() && not_pinned.is_none());
        // A threaded test's workers start where the scheduler puts them:
        // a process held on one CPU would hold every thread of its team
        // there. Their teams hold their own threads apart.
        let cpus: Vec<Option<usize>> = match (pin, &not_pinned) {
            (Some(cpus), None)
                if outcome
                    .measured
                    .threads
                    .as_ref()
                    .is_none_or(|team| team.count <= 1) =>
            {
                let runner = outcome
                    .measured
                    .cpu
                    .as_ref()
                    .and_then(|c| c.cpus.first().copied());
                let order = processes::cpu_order(&cpus.candidates, runner, || driver.draw());
                (0..processes::WORKERS)
                    .map(|i| Some(order[i % order.len()]))
                    .collect()
            }
            _ => vec![None; processes::WORKERS],
        };
        let started = Instant::now();
        let mut run = WorkerRun::new(process_plan, prior, every, budget);
        processes::take_looks(
            every,
            |upto| {
                let from = run.workers.len();
                let (workers, held) =
                    processes::run(&mut driver, &process_plan, &cpus[from..upto])?;
                run.workers.extend(workers);
                run.cpus.extend(held);
                run.elapsed = started.elapsed();
                Ok(run.clone())
            },
            |run| judge_with(outcome, Across::Workers(run)),
            Judged::settled,
        )
    }

    /// The between-process spread learned for `name` on this machine.
    fn learned_prior(&self, name: &str) -> Prior {
        self.learned
            .lock()
            .map_or(processes::learned::DEFAULT_PRIOR, |store| {
                store
                    .as_ref()
                    .map_or(processes::learned::DEFAULT_PRIOR, |s| s.prior(name))
            })
    }

    /// Adds a test's between-process variance to what this machine has
    /// learned.
    fn learn(&self, name: &str, tau2: f64, df: f64) {
        if let Ok(mut store) = self.learned.lock() {
            if let Some(store) = store.as_mut() {
                store.learn(name, tau2, df);
            }
        }
    }

    /// What the report says of where a test ran: where its thread was
    /// `placed`, or why it was `not_pinned` (when asked not to, or with
    /// one CPU allowed, the thread was not touched).
    fn cpu_record(
        &self,
        placed: Option<Placed>,
        not_pinned: Option<NotPinned>,
    ) -> Option<crate::cpus::CpuRecord> {
        let cpus = self.cpus.as_ref()?;
        let (on, why) = match (placed, not_pinned) {
            (Some(placed), _) => placed.parts(),
            (None, why) => (Vec::new(), why),
        };
        Some(cpus.record(on, why))
    }

    /// How long the body of a test measured with `plan` may run
    /// ([`watchdog`]).
    fn bound_for(&self, plan: &Plan) -> Duration {
        self.options
            .timeout
            .unwrap_or_else(|| watchdog::default_bound(plan.warmup, plan.max_time))
    }
}

/// A test measured with `plan` failed before it measured anything, for
/// what the runner `said`; `hung` when its thread is still running.
fn failed_outcome(
    t: &PerfTest,
    name: String,
    plan: &Plan,
    said: RunnerSaid,
    hung: bool,
) -> Outcome {
    let mut outcome = Outcome::of(t, name);
    outcome.measured.measure = plan.measure;
    outcome.judged.say(Said::Runner(said));
    outcome.hung = hung;
    outcome
}

/// The report of a selected test that is not run.
pub(crate) fn ignored_report(t: &PerfTest, name: String) -> TestReport {
    let why = match t.options.ignore {
        Ignore::Because(why) => Some(why.to_owned()),
        _ => None,
    };
    TestReport {
        reasons: vec![Reason::of(&Said::Runner(RunnerSaid::Ignored { why }))],
        ..TestReport::new(name, Verdict::Ignored, t.file, t.line)
    }
}

/// The team of a `threads` instance `t` measured by `bencher` on `cpu`:
/// its threads, where they ran and each one's time; for a one-thread
/// instance, that thread alone (its line's first point). `None` for a test
/// without `threads`.
fn team_record(t: &PerfTest, bencher: &Bencher, cpu: Option<&CpuRecord>) -> Option<ThreadsRecord> {
    t.options.threads?;
    let line = t.scaling_name().unwrap_or_else(|| t.function_name());
    Some(match &bencher.team_times {
        Some(team) => team.record(line, bencher.samples()),
        None => {
            let (cpus, candidates) =
                cpu.map_or((Vec::new(), 0), |c| (c.cpus.clone(), c.candidates));
            ThreadsRecord::alone(line, cpus, candidates)
        }
    })
}
