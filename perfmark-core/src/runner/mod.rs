//! The test binary's main: libtest's command line, one test at a time,
//! libtest's output lines and exit status, and the reports.

pub(crate) mod capture;
mod cli;
mod complexity;
mod family;
mod judge;
mod libtest_args;
mod machine;
mod paired;
mod remeasure;
mod watchdog;

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::{self, Write as _};
use std::panic;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use self::capture::panic_headline;
use self::capture::{install_panic_capture, panic_payload_text, take_panic_message};
use self::cli::{EnvVars, Options};
use self::complexity::ComplexityCase;
use self::family::Family;
use self::judge::judge;
use self::libtest_args::Format;
use self::machine::MachineLock;
use self::paired::Comparing;
use self::watchdog::{Bounded, Ran};

use crate::allocations::{self, Allocations};
use crate::baseline::{self, BaselineStore, Entry, Fingerprint};
use crate::bencher::{Bencher, Measurer};
use crate::checks::{
    allocs, Allocs, Budget, Check, Prior, Regression, RunComparison, RunSpreads, Verdict,
};
use crate::clock::{self, Clock};
use crate::measure::{noise_floor, Adaptive, Measurement, Plan, StopReason};
use crate::observe::Observer;
use crate::pair;
use crate::platform::Platform;
use crate::registry::{self, Ignore, PerfTest};
use crate::report::{self, console, fmt_ns, MachineLockRecord, Report, Startup, TestReport};

/// Default confidence level of every CI.
pub const DEFAULT_CONFIDENCE: f64 = perfmark_options::DEFAULT_CONFIDENCE;
/// Default target relative half-width of the CI.
pub const DEFAULT_PRECISION: f64 = perfmark_options::DEFAULT_PRECISION;
/// Default cap on the sampling phase.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_nanos(perfmark_options::DEFAULT_MAX_TIME_NS);
/// Default tolerance beyond the stored baseline: a slowdown must be both
/// significant and larger than this to fail (see docs/regression-rule.md).
pub const DEFAULT_REGRESSION: f64 = perfmark_options::DEFAULT_REGRESSION;
/// Default cap on the warm-up phase.
pub const DEFAULT_WARMUP: Duration = Duration::from_nanos(perfmark_options::DEFAULT_WARMUP_NS);

/// A wait for the machine-wide lock at least this long is said in the
/// header (it is always in `report.json`).
const NOTABLE_LOCK_WAIT: Duration = Duration::from_millis(100);

/// Facts about the test binary that only its own crate knows; `main!`
/// fills them in.
#[derive(Debug, Clone, Copy)]
pub struct BuildInfo {
    /// `cfg!(debug_assertions)` of the test crate.
    pub debug_assertions: bool,
    /// `CARGO_CRATE_NAME` of the test target, e.g. `perf`.
    pub crate_name: &'static str,
    /// `CARGO_MANIFEST_DIR` of the package.
    pub manifest_dir: &'static str,
}

/// Runs the binary's perf tests as the command line asks and exits with
/// libtest's status: 0 when every test passed, 101 otherwise.
pub fn run_main(build: BuildInfo) -> ! {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == pair::WORKER_FLAG) {
        let test = args.get(2).and_then(|a| a.to_str());
        let code = pair::worker::run(test);
        let _ = io::stdout().flush();
        std::process::exit(code);
    }
    let program = args
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let code = match Options::parse(args, &EnvVars) {
        Ok(options) if options.libtest.help => {
            print!("{}", cli::usage(&program));
            0
        }
        Ok(options) => Runner::new(build, options).run(),
        Err(message) => {
            eprintln!("error: {message}");
            101
        }
    };
    let _ = io::stdout().flush();
    std::process::exit(code)
}

/// One run of the binary.
struct Runner {
    build: BuildInfo,
    options: Options,
    /// Reads what the OS knows about other work around each measurement.
    observer: Arc<Observer>,
}

/// One test of the run: a registered perf test, or the complexity check of
/// a function that declares `complexity` (`NAME::complexity`).
#[derive(Debug)]
enum Case {
    Test(&'static PerfTest),
    Complexity(ComplexityCase),
}

impl Case {
    /// The registered tests, sorted by name, each complexity check right
    /// after the last of its function's tests (so that it can judge their
    /// measurements).
    fn all(tests: &[&'static PerfTest]) -> Vec<Case> {
        let mut cases: Vec<Case> = tests.iter().map(|&t| Case::Test(t)).collect();
        let mut groups: Vec<(usize, ComplexityCase)> = complexity::cases(tests)
            .into_iter()
            .map(|group| {
                let last = cases
                    .iter()
                    .rposition(|c| matches!(c, Case::Test(t) if group.members.iter().any(|m| std::ptr::eq(*m, *t))))
                    .unwrap_or(cases.len() - 1);
                (last, group)
            })
            .collect();
        groups.sort_by_key(|(last, _)| std::cmp::Reverse(*last));
        for (last, group) in groups {
            cases.insert(last + 1, Case::Complexity(group));
        }
        cases
    }

    fn name(&self) -> String {
        match self {
            Case::Test(t) => t.name(),
            Case::Complexity(c) => c.name.clone(),
        }
    }

    /// The registered test whose options and location stand for the case.
    fn test(&self) -> &'static PerfTest {
        match self {
            Case::Test(t) => t,
            Case::Complexity(c) => c.first(),
        }
    }
}

/// What happened to a test that ran.
struct Outcome {
    report: TestReport,
    failure_detail: Option<String>,
    /// The test did not return within its bound and its thread still runs:
    /// no other test may be measured beside it.
    hung: bool,
}

impl Runner {
    fn new(build: BuildInfo, options: Options) -> Self {
        Runner {
            build,
            options,
            observer: Arc::new(Observer::live()),
        }
    }

    /// Whether this run measures (an optimized build, or `PERFMARK_FORCE`).
    fn measuring(&self) -> bool {
        !self.build.debug_assertions || self.options.force
    }

    fn run(self) -> i32 {
        let started = Instant::now();
        let args = &self.options.libtest;
        let all = registry::all_tests();
        let cases = Case::all(&all);
        let selected: Vec<&Case> = cases
            .iter()
            .filter(|c| self.selected_name(&c.name(), c.test().options.ignore != Ignore::No))
            .collect();
        let filtered_out = cases.len() - selected.len();

        if args.list {
            for c in &selected {
                println!("{}: test", c.name());
            }
            if args.format != Format::Terse {
                println!();
                println!("{} tests, 0 benchmarks", selected.len());
            }
            return 0;
        }

        let will_measure = self.measuring() && selected.iter().any(|c| self.runs(c.test()));
        // Taken before the clock's calibration and the noise floor, which
        // are measurements too.
        let (machine_lock, lock_warning) = if will_measure && !self.options.no_lock {
            self.take_machine_lock()
        } else {
            (None, None)
        };
        let calibration_started = Instant::now();
        let clock = clock::info();
        // The thread CPU clock is calibrated only when a test will use it.
        let cpu_clock = selected
            .iter()
            .any(|c| self.runs(c.test()) && measure_of(c.test()) == Clock::Cpu)
            .then(clock::cpu_info)
            .flatten();
        let clock_calibration_s = calibration_started.elapsed().as_secs_f64();
        let mut platform = Platform::detect(!self.build.debug_assertions, clock);
        platform.cpu_clock = cpu_clock;
        let mut environment_warnings = platform.warnings();
        if !allocations::installed() {
            environment_warnings.push(format!(
                "allocations are not counted: {}",
                allocs::NOT_COUNTED
            ));
        }
        environment_warnings.extend(self.observer.coverage().header_warning());
        let store = self.baseline_store();
        let fingerprint = Fingerprint::current(
            &platform.rustc,
            &platform.profile,
            &platform.perfmark_version,
        );
        if self.options.save_baseline && !self.measuring() {
            eprintln!("error: refusing to save baselines from an unoptimized build: run `cargo test --release -- --save-baseline`");
            return 101;
        }
        let mut comparing = match &self.options.compare_with {
            None => None,
            Some(path) => match Comparing::start(path) {
                Ok(comparing) => Some(comparing),
                Err(e) => {
                    eprintln!("error: --compare-with: {e}");
                    return 101;
                }
            },
        };
        let baselines = if self.options.no_baseline
            || self.options.save_baseline
            || comparing.is_some()
            || !self.measuring()
        {
            None
        } else {
            match store.load(self.build.crate_name) {
                Ok(file) => file,
                Err(e) => {
                    eprintln!("error: {e}");
                    return 101;
                }
            }
        };
        if let Some(file) = &baselines {
            let stale = file.stale_tests(all.iter().map(|t| t.name()));
            if !stale.is_empty() {
                environment_warnings.push(format!(
                    "{} has entries for tests that no longer exist: {}",
                    file.path().display(),
                    stale.join(", ")
                ));
            }
        }
        let noise_floor_started = Instant::now();
        let (noise_floor, noise_floor_shared) = if will_measure {
            let (floor, shared) = self.noise_floor(machine_lock.as_ref());
            (Some(floor), shared)
        } else {
            (None, false)
        };
        let startup = will_measure.then(|| Startup {
            clock_calibration_s,
            noise_floor_s: noise_floor_started.elapsed().as_secs_f64(),
            noise_floor_shared,
        });
        environment_warnings.extend(lock_warning);
        // How much estimates move between processes here: the source both
        // the regression rule and the budget's near-the-line note read.
        let prior = Prior::resolve(
            self.options.between_run_sd,
            baselines.as_ref(),
            &fingerprint,
        );
        let spreads = RunSpreads::new(prior, baselines.as_ref(), &fingerprint);
        // The checks every measured test goes through, in the order their
        // reasons are printed.
        let regression = baselines
            .as_ref()
            .map(|file| Regression::new(file, &fingerprint, &spreads));
        let budget = Budget::new(&spreads);
        let mut checks: Vec<&dyn Check> = vec![&budget];
        if let Some(regression) = &regression {
            checks.push(regression);
        }
        checks.push(&Allocs);
        // The registered tests this run measures (a complexity check
        // decides no budget or regression of its own).
        let measured: Vec<&PerfTest> = selected
            .iter()
            .filter_map(|case| match case {
                Case::Test(t) => Some(*t),
                Case::Complexity(_) => None,
            })
            .filter(|t| self.measuring() && self.runs(t))
            .collect();
        if let Some(c) = comparing.as_mut() {
            c.compared = measured.iter().filter(|t| c.has(&t.name())).count();
        }
        // Every verdict the run will decide: a budget, and a regression
        // against a stored baseline from this machine or the base build.
        let family = Family::new(
            self.options.family_wise_in(comparing.is_some()),
            measured.iter().map(|t| {
                let name = t.name();
                let regression = match &comparing {
                    Some(c) => c.has(&name),
                    None => spreads.usable_entry(&name).is_some(),
                };
                let verdicts = usize::from(t.options.budget_ns.is_some()) + usize::from(regression);
                (name, verdicts)
            }),
        );
        let report_dir = self.report_dir();
        self.print_header(&platform, noise_floor, &environment_warnings, &report_dir);
        if let Some(lock) = machine_lock
            .as_ref()
            .filter(|l| l.waited >= NOTABLE_LOCK_WAIT)
        {
            println!(
                "machine lock: waited {:.2} s for another perfmark run measuring on this machine ({})",
                lock.waited.as_secs_f64(),
                lock.path.display()
            );
        }
        if let Some(startup) = startup.as_ref().filter(|_| self.nextest_run_id().is_some()) {
            println!("{}", startup.line());
        }
        match &comparing {
            Some(c) => println!("{}", c.header(&family)),
            None if will_measure && family.verdicts > 0 => {
                println!("verdicts: {}", family.words());
                println!("{}", prior.header());
            }
            None => {}
        }

        println!();
        println!(
            "running {} test{}",
            selected.len(),
            if selected.len() == 1 { "" } else { "s" }
        );
        let previous_hook = install_panic_capture();
        let mut reports = Vec::with_capacity(selected.len());
        let mut failures = Vec::new();
        for case in &selected {
            let name = case.name();
            let t = case.test();
            if !self.runs(t) {
                let why = match t.options.ignore {
                    Ignore::Because(why) => Some(why),
                    _ => None,
                };
                println!("{}", console::ignored_line(&name, why));
                reports.push(ignored_report(t, name));
                continue;
            }
            print!("{}", console::test_line_start(&name));
            let _ = io::stdout().flush();
            let outcome = match (case, &comparing) {
                (Case::Complexity(group), _) => self.run_complexity(group, noise_floor, &reports),
                (Case::Test(_), Some(c)) if c.has(&name) && self.measuring() => {
                    self.compare_one(t, name, noise_floor, c, &family, &spreads)
                }
                (Case::Test(_), Some(c)) => {
                    let mut outcome = self.run_one(t, name, noise_floor, &family, &checks);
                    if !c.has(&outcome.report.name) {
                        outcome
                            .report
                            .reasons
                            .push("new: not in the base build, not compared".to_owned());
                    }
                    outcome
                }
                (Case::Test(_), None) => self.run_one(t, name, noise_floor, &family, &checks),
            };
            let ok = outcome.report.verdict != Verdict::Fail;
            println!("{}", console::outcome_word(&outcome.report));
            for line in console::lines_under(&outcome.report, self.options.verbose) {
                println!("{line}");
            }
            if !ok {
                failures.push((outcome.report.name.clone(), outcome.failure_detail));
            }
            reports.push(outcome.report);
            if outcome.hung {
                let left = selected.len() - reports.len();
                if left > 0 {
                    println!("    run stopped: {left} test(s) after it were not run");
                }
                break;
            }
        }
        panic::set_hook(previous_hook);
        // Every test is measured: let the next process measure.
        let machine_lock = machine_lock.map(|lock| MachineLockRecord {
            path: lock.path.display().to_string(),
            waited_s: lock.waited.as_secs_f64(),
        });
        let removed: Vec<String> = comparing
            .as_ref()
            .map(|c| {
                let here: BTreeSet<String> = all.iter().map(|t| t.name()).collect();
                c.base_tests
                    .iter()
                    .filter(|name| !here.contains(*name) && self.selected_name(name, false))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        if !removed.is_empty() {
            println!();
            for name in &removed {
                println!("removed: {name} (in the base build only, not compared)");
            }
        }

        let passed = reports
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::Pass | Verdict::NotMeasured))
            .count();
        let ignored = reports
            .iter()
            .filter(|r| r.verdict == Verdict::Ignored)
            .count();
        if !failures.is_empty() {
            println!();
            println!("failures:");
            for (name, detail) in &failures {
                if let Some(detail) = detail {
                    println!();
                    println!("---- {name} ----");
                    println!("{detail}");
                }
            }
            println!();
            println!("failures:");
            for (name, _) in &failures {
                println!("    {name}");
            }
        }

        let mut code = if failures.is_empty() { 0 } else { 101 };
        if self.options.save_baseline {
            match save_baselines(&store, self.build.crate_name, &reports, &fingerprint) {
                Ok(line) => println!("\n{line}"),
                Err(e) => {
                    eprintln!("error: {e}");
                    code = 101;
                }
            }
        }
        let report = Report {
            schema: report::REPORT_SCHEMA,
            target: self.build.crate_name.to_owned(),
            platform,
            noise_floor,
            environment_warnings,
            tests: reports,
            comparison: comparing.map(|c| RunComparison {
                base: c.base.display().to_string(),
                compared: c.compared,
                family_wise: family.corrects(),
                removed,
            }),
            family_wise: Some(family.record()),
            between_run_prior: Some(prior),
            finished_in_s: started.elapsed().as_secs_f64(),
            interference: Some(self.observer.coverage().clone()),
            machine_lock,
            startup,
        };
        if let Err(message) = report.write(&report_dir) {
            eprintln!("error: {message}");
            code = 101;
        }
        println!();
        println!(
            "test result: {}. {passed} passed; {} failed; {ignored} ignored; 0 measured; {filtered_out} filtered out; finished in {:.2}s",
            if failures.is_empty() { "ok" } else { "FAILED" },
            failures.len(),
            started.elapsed().as_secs_f64(),
        );
        println!();
        code
    }

    /// Takes the machine-wide measurement lock ([`machine`]), saying so
    /// when it has to wait; when it cannot be taken, measures without it and
    /// returns the warning that says so.
    fn take_machine_lock(&self) -> (Option<MachineLock>, Option<String>) {
        let dir = self
            .options
            .lock_dir
            .clone()
            .unwrap_or_else(std::env::temp_dir);
        // On stderr: stdout's first line is the header's, which readers
        // of the output look for.
        let taken = MachineLock::acquire(&dir, |path| {
            eprintln!(
                "waiting for another perfmark run measuring on this machine to finish ({})",
                path.display()
            );
        });
        match taken {
            Ok(lock) => (Some(lock), None),
            Err(e) => (
                None,
                Some(format!(
                    "cannot take the machine-wide measurement lock in {}: {e}; measuring \
                     without it, so a perfmark run in another process may disturb this one \
                     (set PERFMARK_LOCK_DIR to a writable directory)",
                    dir.display()
                )),
            ),
        }
    }

    /// The id of the nextest run this process is a test of, if any.
    fn nextest_run_id(&self) -> Option<String> {
        std::env::var(machine::NEXTEST_RUN_ID)
            .ok()
            .filter(|id| !id.is_empty())
    }

    /// The machine's noise floor: under nextest, the one an earlier test of
    /// the same run measured (while holding the lock); else measured now.
    /// Returns it and whether it was shared.
    fn noise_floor(&self, lock: Option<&MachineLock>) -> (f64, bool) {
        let run = lock.zip(self.nextest_run_id());
        if let Some(floor) = run
            .as_ref()
            .and_then(|(lock, id)| lock.shared_noise_floor(id))
        {
            return (floor, true);
        }
        let floor = noise_floor::measure();
        if let Some((lock, id)) = &run {
            lock.share_noise_floor(id, floor);
        }
        (floor, false)
    }

    /// libtest's selection of a test known by its name: the filter
    /// (substring, or whole name with `--exact`), `--skip` patterns, and
    /// `--ignored` (only ignored tests).
    fn selected_name(&self, name: &str, ignored: bool) -> bool {
        let args = &self.options.libtest;
        let matches = |pattern: &str| {
            if args.exact {
                name == pattern
            } else {
                name.contains(pattern)
            }
        };
        if !args.filters.is_empty() && !args.filters.iter().any(|f| matches(f)) {
            return false;
        }
        if args.skip.iter().any(|s| matches(s)) {
            return false;
        }
        !args.ignored || ignored
    }

    /// Whether a selected test runs (rather than being reported ignored).
    fn runs(&self, t: &PerfTest) -> bool {
        let args = &self.options.libtest;
        t.options.ignore == Ignore::No || args.ignored || args.include_ignored
    }

    fn baseline_store(&self) -> BaselineStore {
        match &self.options.baseline_dir {
            Some(dir) => BaselineStore::new(Path::new(self.build.manifest_dir).join(dir)),
            None => BaselineStore::in_package(self.build.manifest_dir),
        }
    }

    fn report_dir(&self) -> PathBuf {
        if let Some(dir) = &self.options.report_dir {
            return dir.clone();
        }
        target_dir(Path::new(self.build.manifest_dir))
            .join("perfmark")
            .join(self.build.crate_name)
    }

    fn print_header(
        &self,
        p: &Platform,
        noise_floor: Option<f64>,
        warnings: &[String],
        report_dir: &Path,
    ) {
        let kernel = p
            .kernel
            .as_deref()
            .map(|k| format!(" {k}"))
            .unwrap_or_default();
        println!(
            "perfmark {} · {}{kernel} {} · {} · {} cores · {} · {} build",
            p.perfmark_version, p.os, p.arch, p.cpu_model, p.cores, p.rustc, p.profile
        );
        let floor = match noise_floor {
            Some(f) => format!("noise floor {:.2}% (LFSR task, robust spread)", f * 100.0),
            None => "noise floor not measured".to_owned(),
        };
        println!(
            "timer: Instant, resolution {}, overhead {} per read · {floor}",
            fmt_ns(p.clock.resolution_ns),
            fmt_ns(p.clock.overhead_ns)
        );
        if let Some(cpu) = &p.cpu_clock {
            println!(
                "cpu timer (measure = \"cpu\"): thread CPU time, resolution {}, overhead {} per read",
                fmt_ns(cpu.resolution_ns),
                fmt_ns(cpu.overhead_ns)
            );
        }
        if !self.measuring() {
            println!("unoptimized build: tests run as smoke tests and are not measured; run `cargo test --release` (or set PERFMARK_FORCE=1)");
        }
        for w in warnings {
            println!("warning: {w}");
        }
        println!("reports: {}", report_dir.display());
    }

    fn plan_for(&self, t: &PerfTest) -> Plan {
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
        plan.measure = measure_of(t);
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
    fn run_one(
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
        let tolerance = t.options.regression.unwrap_or(self.options.regression);
        let mut outcome = self.measure_one(t, name.clone(), &plan, tolerance, noise_floor, checks);
        if !self.options.no_remeasure && !outcome.hung && remeasure::wanted(&outcome.report) {
            let mut again = plan.clone();
            again.max_time =
                remeasure::max_time(plan.max_time, outcome.report.measurement.as_ref());
            let second = self.measure_one(t, name, &again, tolerance, noise_floor, checks);
            outcome = remeasure::combine(outcome, second, again.max_time);
        }
        outcome.report.duration_s = started.elapsed().as_secs_f64();
        outcome
    }

    /// One measurement of `t` under `plan`, judged, with what the OS knew
    /// about other work meanwhile (read on the test's thread, before and
    /// after the body: outside every timed block). The body runs under the
    /// [`watchdog`]: a test that does not return within its bound fails as
    /// hung.
    fn measure_one(
        &self,
        t: &PerfTest,
        name: String,
        plan: &Plan,
        tolerance: f64,
        noise_floor: Option<f64>,
        checks: &[&dyn Check],
    ) -> Outcome {
        if plan.measure == Clock::Cpu && clock::cpu_info().is_none() {
            let mut report = TestReport::new(name, Verdict::Fail, t.file, t.line);
            report.measure = Clock::Cpu;
            let reason = "measure = \"cpu\" needs the thread's CPU clock \
                          (CLOCK_THREAD_CPUTIME_ID), which this platform does not have here; \
                          remove the option to measure wall time"
                .to_owned();
            report.reasons.push(reason.clone());
            return Outcome {
                report,
                failure_detail: Some(reason),
                hung: false,
            };
        }
        let mut bencher =
            Bencher::new(Measurer::Adaptive(Adaptive::new(plan.clone()))).with_clock(plan.measure);
        if allocations::installed() {
            bencher = bencher.counting_allocations();
        }
        take_panic_message();
        let bound = self.bound_for(plan);
        let observer = Arc::clone(&self.observer);
        let (result, ran) = match watchdog::run_bounded(&name, bound, t.body, bencher, observer) {
            Bounded::Returned(result, ran) => (result, ran),
            Bounded::Hung => {
                let reason = watchdog::hung_reason(bound, self.options.timeout.is_some());
                return failed_outcome(t, name, plan, reason, true);
            }
            Bounded::NoThread(reason) => return failed_outcome(t, name, plan, reason, false),
        };
        let mut report = TestReport::new(name, Verdict::Pass, t.file, t.line);
        report.measure = plan.measure;
        let mut measurement = None;
        if let Some(ran) = ran {
            let Ran {
                bencher,
                before,
                after,
            } = *ran;
            report.interference = self.observer.between(&before, &after);
            report.wall_ns_per_iter = bencher.wall_ns_per_iter();
            report.size = bencher.size();
            report.allocations = bencher
                .counted()
                .map(|(count, iters)| Allocations::per_iteration(count, iters, plan.allocs));
            let (m, work) = bencher.finish();
            report.work = work;
            measurement = m;
        }
        if plan.measure == Clock::Cpu
            && measurement
                .as_ref()
                .is_some_and(|m| m.kind == crate::measure::SampleKind::Custom)
        {
            report.warnings.push(
                "measure = \"cpu\" does not apply to iter_custom: the routine's own times are \
                 used as given"
                    .to_owned(),
            );
        }
        let mut failure_detail = None;
        match (result, measurement) {
            (Err(payload), _) => {
                let message = take_panic_message().unwrap_or_else(|| panic_payload_text(&*payload));
                report.verdict = Verdict::Fail;
                report
                    .reasons
                    .push(format!("panicked: {}", panic_headline(&message)));
                failure_detail = Some(format!("panicked at {message}"));
                report.panic = Some(message);
            }
            (Ok(()), None) => {
                report.verdict = Verdict::Fail;
                let reason = "the test never handed a routine to the Bencher: call b.iter, \
                              b.iter_batched, b.iter_batched_ref, b.iter_per_call or \
                              b.iter_custom once"
                    .to_owned();
                failure_detail = Some(reason.clone());
                report.reasons.push(reason);
            }
            (Ok(()), Some(m)) if m.stop == StopReason::Smoke => {
                report.verdict = Verdict::NotMeasured;
                report
                    .reasons
                    .push("not measured: unoptimized build, run `cargo test --release`".to_owned());
                report.samples = m.samples_ns.len();
                report.iters_per_sample = m.iters_per_sample;
                report.measurement = Some(m);
            }
            (Ok(()), Some(m)) => {
                judge(&mut report, plan, tolerance, &m, noise_floor, checks);
                report
                    .warnings
                    .extend(report.interference.as_ref().and_then(|i| i.warning()));
                failure_detail = keep_measurement(&mut report, m);
            }
        }
        Outcome {
            report,
            failure_detail,
            hung: false,
        }
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
/// `reason`; `hung` when its thread is still running.
fn failed_outcome(t: &PerfTest, name: String, plan: &Plan, reason: String, hung: bool) -> Outcome {
    let mut report = TestReport::new(name, Verdict::Fail, t.file, t.line);
    report.measure = plan.measure;
    report.reasons.push(reason.clone());
    Outcome {
        report,
        failure_detail: Some(reason),
        hung,
    }
}

/// Keeps the judged measurement in its report; returns the failure detail
/// libtest prints under `failures:` when the test failed.
fn keep_measurement(report: &mut TestReport, m: Measurement) -> Option<String> {
    report.samples = m.samples_ns.len();
    report.iters_per_sample = m.iters_per_sample;
    report.measurement = Some(m);
    (report.verdict == Verdict::Fail).then(|| report.reasons.join("\n"))
}

/// Saves the measured tests of this run as baselines (the other tests'
/// entries are kept); returns the line to print.
fn save_baselines(
    store: &BaselineStore,
    target: &str,
    reports: &[TestReport],
    fingerprint: &Fingerprint,
) -> Result<String, baseline::BaselineError> {
    let mut entries: Vec<Entry> = Vec::new();
    // Measured tests left out, named in the line so that a missing entry
    // (and later a missing comparison) is never a surprise.
    let mut unbounded: Vec<&str> = Vec::new();
    for r in reports {
        let (Some(e), Some(m)) = (r.estimate.as_ref(), r.measurement.as_ref()) else {
            continue;
        };
        if !(e.ci_low.is_finite() && e.ci_high.is_finite()) {
            unbounded.push(&r.name);
            continue;
        }
        entries.push(
            Entry::new(
                r.name.clone(),
                baseline::StoredEstimate::new(
                    e.statistic.as_str(),
                    e.ns_per_iter,
                    (e.ci_low, e.ci_high),
                    e.confidence,
                ),
                m.samples_ns.clone(),
                m.iters_per_sample,
                fingerprint.clone(),
            )
            .with_clock(r.measure),
        );
    }
    let left_out = if unbounded.is_empty() {
        String::new()
    } else {
        format!(
            "; not recorded, their CI unbounded (too few samples): {}",
            unbounded.join(", ")
        )
    };
    if entries.is_empty() {
        return Ok(format!(
            "no baseline saved: no test was measured with a bounded CI{left_out}"
        ));
    }
    let file = store.save(target, &entries)?;
    Ok(format!(
        "baseline saved: {} ({} of its {} tests recorded in this run){left_out}",
        file.path().display(),
        entries.len(),
        file.len()
    ))
}

/// The clock `t` is timed with: its `measure`, wall by default.
#[doc(hidden)]
pub fn measure_of(t: &PerfTest) -> Clock {
    t.options.measure.map(Clock::from).unwrap_or_default()
}

fn ignored_report(t: &PerfTest, name: String) -> TestReport {
    let reasons = match t.options.ignore {
        Ignore::Because(why) => vec![format!("ignored: {why}")],
        _ => vec!["ignored".to_owned()],
    };
    let mut report = TestReport::new(name, Verdict::Ignored, t.file, t.line);
    report.reasons = reasons;
    report
}

/// The directory cargo builds into: `CARGO_TARGET_DIR` when set, else the
/// ancestor of this executable above `<profile>/deps/`, else
/// `<manifest dir>/target`.
fn target_dir(manifest_dir: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return manifest_dir.join(dir);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            let deps = exe.parent()?;
            (deps.file_name()? == "deps").then(|| deps.parent()?.parent().map(Path::to_path_buf))?
        })
        .unwrap_or_else(|| manifest_dir.join("target"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{Complexity, TestOptions};

    const fn test(fn_name: &'static str, arg: &'static str, class: Option<Complexity>) -> PerfTest {
        PerfTest {
            module_path: "perf",
            fn_name,
            arg: Some(arg),
            arg_value: None,
            file: "tests/perf.rs",
            line: 1,
            options: TestOptions {
                complexity: class,
                ..TestOptions::NONE
            },
            body: |_| {},
        }
    }

    static A_1: PerfTest = test("a", "1", Some(Complexity::Linear));
    static A_2: PerfTest = test("a", "2", Some(Complexity::Linear));
    static AB_1: PerfTest = test("ab", "1", None);
    static A_Z: PerfTest = test("a", "z", Some(Complexity::Linear));
    static B_1: PerfTest = test("b", "1", Some(Complexity::Quadratic));

    #[test]
    fn each_complexity_case_follows_the_last_of_its_tests() {
        // Sorted by name, as the registry gives them.
        let names: Vec<String> = Case::all(&[&A_1, &A_2, &A_Z, &AB_1, &B_1])
            .iter()
            .map(Case::name)
            .collect();
        assert_eq!(
            names,
            [
                "a::1",
                "a::2",
                "a::z",
                "a::complexity",
                "ab::1",
                "b::1",
                "b::complexity"
            ]
        );
    }
}
