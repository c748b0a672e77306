//! The test binary's main: libtest's command line, one test at a time,
//! libtest's output lines and exit status, and the reports.
//!
//! A run goes in steps of its own: [`Runner::run`] selects the tests and
//! lists them, or sets the run up ([`setup`]), decides how its verdicts
//! are judged, and prints the header; [`Runner::run_tests`] is the loop
//! over the tests, [`Runner::run_test`] one of them (measured and judged
//! in [`one_test`], compared with a base build in [`crate::paired::runner`], or a
//! complexity check in [`crate::complexity::runner`]); [`summary`] closes the run. Every
//! line goes through the [`Console`].

pub(crate) mod case;
pub(crate) mod cli;
pub(crate) mod family;
pub(crate) mod judge;
mod libtest_args;
mod machine;
pub(crate) mod one_test;
pub(crate) mod outcome;
mod remeasure;
pub(crate) mod setup;
mod summary;
mod watchdog;

use std::ffi::OsString;
use std::io::{self, Write as _};
use std::panic;
use std::sync::Arc;
use std::time::{Duration, Instant};

use self::case::Case;
use self::cli::{EnvVars, Options};
use self::family::Family;
use self::libtest_args::Format;
use self::one_test::ignored_report;
use self::outcome::Finished;
use self::setup::Setup;
use self::summary::Ran;

use crate::checks::{Check, RunnerSaid, Said, Verdict};

use crate::allocations::check::Allocs;

use crate::baseline::run_spreads::RunSpreads;

use crate::baseline::check::Regression;

use crate::budget::Budget;
use crate::cpus::{Cpus, NotPinned};
use crate::measure::capture::install_panic_capture;
use crate::observe::Observer;
use crate::platform::Support;
use crate::registry::{self, Ignore, PerfTest};
use crate::report::console::Console;

/// Default confidence level of every CI.
pub const DEFAULT_CONFIDENCE: f64 = perfmark_options::DEFAULT_CONFIDENCE;
/// Default target relative half-width of the CI.
pub const DEFAULT_PRECISION: f64 = perfmark_options::DEFAULT_PRECISION;
/// Default cap on the sampling phase.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_nanos(perfmark_options::DEFAULT_MAX_TIME_NS);
/// Default tolerance beyond the stored baseline: a slowdown must be both
/// significant and larger than this to fail (see docs/design/regression-rule.md).
pub const DEFAULT_REGRESSION: f64 = perfmark_options::DEFAULT_REGRESSION;
/// The default tolerance of an instruction count (1%).
pub const DEFAULT_COUNT_REGRESSION: f64 = perfmark_options::DEFAULT_COUNT_REGRESSION;
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
    if args
        .get(1)
        .is_some_and(|a| a == crate::instructions::COUNT_FLAG)
    {
        let rest: Vec<String> = args[2..]
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let code = crate::instructions::worker::run(&rest);
        let _ = io::stdout().flush();
        std::process::exit(code);
    }
    if args
        .get(1)
        .is_some_and(|a| a == crate::worker::protocol::WORKER_FLAG)
    {
        let test = args.get(2).and_then(|a| a.to_str());
        let code = crate::worker::mode::run(test);
        let _ = io::stdout().flush();
        std::process::exit(code);
    }
    let program = args
        .first()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut console = Console::stdio();
    let code = match Options::parse(args, &EnvVars) {
        Ok(options) if options.libtest.help => {
            console.usage(&cli::usage(&program));
            0
        }
        Ok(options) => {
            console.set_style(options.libtest.format.style(), options.verbose);
            Runner::new(build, options).run(&mut console)
        }
        Err(e) => {
            console.error(e);
            101
        }
    };
    let _ = io::stdout().flush();
    std::process::exit(code)
}

/// One run of the binary.
pub(crate) struct Runner {
    build: BuildInfo,
    pub(crate) options: Options,
    /// Reads what the OS knows about other work around each measurement.
    pub(crate) observer: Arc<Observer>,
    /// The CPUs a test may be measured on; `None` where they cannot be
    /// read, or the platform has no pinning ([`Support::pinning`]).
    pub(crate) cpus: Option<Arc<Cpus>>,
    /// The between-process spread learned on this machine, read when the
    /// run is set up and written back when it ends
    /// ([`crate::processes::learned`]).
    pub(crate) learned: std::sync::Mutex<Option<crate::processes::learned::Store>>,
}

/// How the run judges each test: the checks every measured test goes
/// through, in the order their reasons are printed, and the between-run
/// spread and family-wise levels they read.
struct Judging<'a> {
    checks: &'a [&'a dyn Check],
    #[cfg(feature = "compare")]
    spreads: &'a RunSpreads<'a>,
    family: &'a Family,
}

impl Runner {
    fn new(build: BuildInfo, options: Options) -> Self {
        Runner {
            build,
            options,
            observer: Arc::new(Observer::of_platform(&Support::current())),
            cpus: Support::current()
                .pinning
                .then(Cpus::detect)
                .flatten()
                .map(Arc::new),
            learned: std::sync::Mutex::new(None),
        }
    }

    /// The time rule's tolerance for test `t`: its `regression` option,
    /// else the run's (`PERFMARK_REGRESSION`, default 5%).
    pub(crate) fn tolerance(&self, t: &PerfTest) -> f64 {
        t.options.regression.unwrap_or(self.options.regression)
    }

    /// The count rule's tolerance for test `t`: its `count_regression`
    /// option, else the run's (`PERFMARK_COUNT_REGRESSION`, default 1%).
    /// The clock's `regression` never applies to a count.
    #[cfg(feature = "instructions")]
    pub(crate) fn count_tolerance(&self, t: &PerfTest) -> f64 {
        t.options
            .count_regression
            .unwrap_or(self.options.count_regression)
    }

    /// Whether this run measures (an optimized build, or `PERFMARK_FORCE`).
    fn measuring(&self) -> bool {
        !self.build.debug_assertions || self.options.force
    }

    /// The whole run; returns the exit status.
    fn run(self, console: &mut Console) -> i32 {
        let started = Instant::now();
        let tests = registry::all_tests();
        let cases = Case::all(&tests);
        let selected: Vec<&Case> = cases
            .iter()
            .filter(|c| self.selected_name(&c.name(), c.test().options.ignore != Ignore::No))
            .collect();
        let filtered_out = cases.len() - selected.len();
        if self.options.libtest.list {
            let names: Vec<String> = selected.iter().map(|c| c.name()).collect();
            console.list(&names, self.options.libtest.format == Format::Terse);
            return 0;
        }
        let setup = match self.set_up(tests, &selected, console) {
            Ok(setup) => setup,
            Err(e) => {
                console.error(e);
                return 101;
            }
        };
        let spreads = RunSpreads::new(setup.prior, setup.baselines.as_ref(), &setup.fingerprint);
        let regression = setup
            .baselines
            .as_ref()
            .map(|file| Regression::new(file, &setup.fingerprint, &spreads));
        let budget = Budget::new(&spreads);
        let mut checks: Vec<&dyn Check> = vec![&budget];
        if let Some(regression) = &regression {
            checks.push(regression);
        }
        checks.push(&Allocs);
        let family = self.family(&selected, &setup, &spreads);
        self.print_preamble(&setup, &family, selected.len(), console);
        let judging = Judging {
            checks: &checks,
            #[cfg(feature = "compare")]
            spreads: &spreads,
            family: &family,
        };
        self.open_learned(&setup);
        let ran = self.run_tests(&selected, &setup, &judging, console);
        self.save_learned();
        self.summarize(setup, &family, ran, filtered_out, started, console)
    }

    /// Reads the between-process spread this machine has learned, when
    /// the run measures workers.
    fn open_learned(&self, setup: &Setup) {
        if self.options.no_processes || !self.measuring() {
            return;
        }
        let path = std::env::current_exe()
            .ok()
            .and_then(|exe| crate::processes::learned::path_for(&exe));
        let f = &setup.fingerprint;
        let machine = format!(
            "{}|{}|{}|{}|{}",
            f.cpu_model, f.cores, f.os, f.arch, f.profile
        );
        let store = crate::processes::learned::Store::open(path, machine);
        if let Ok(mut slot) = self.learned.lock() {
            *slot = Some(store);
        }
    }

    /// Writes back what the run learned; a file that cannot be written is
    /// only a cache not kept.
    fn save_learned(&self) {
        if let Ok(mut slot) = self.learned.lock() {
            if let Some(store) = slot.as_mut() {
                let _ = store.save();
            }
        }
    }

    /// Every verdict the run will decide, for its family-wise correction:
    /// a budget, and a regression against a stored baseline from this
    /// machine or the base build.
    fn family(&self, selected: &[&Case], setup: &Setup, spreads: &RunSpreads<'_>) -> Family {
        let measured = self.measured(selected);
        let comparing = setup.comparing.as_ref();
        let verdicts: Vec<(String, bool, bool)> = measured
            .iter()
            .map(|t| {
                let name = t.name();
                let regression = match comparing {
                    Some(c) => c.has(&name),
                    None => spreads.usable_entry(&name).is_some(),
                };
                (name, t.options.budget_ns.is_some(), regression)
            })
            .collect();
        // A gate over many comparisons, with a base build or with stored
        // baselines, keeps the run's false-failure rate by default.
        let compares = comparing.is_some() || verdicts.iter().any(|v| v.2);
        Family::new(self.options.family_wise_in(compares), verdicts)
    }

    /// Everything before the first test's line: the header, the machine
    /// lock's wait when notable, the start-up cost under nextest, how the
    /// verdicts are decided, and libtest's `running N tests`.
    fn print_preamble(&self, setup: &Setup, family: &Family, tests: usize, console: &mut Console) {
        console.header(
            &setup.platform,
            setup.noise_floor,
            self.measuring(),
            &setup.environment_warnings,
            &setup.report_dir,
        );
        if let Some(lock) = setup
            .machine_lock
            .as_ref()
            .filter(|l| l.waited >= NOTABLE_LOCK_WAIT)
        {
            console.lock_waited(lock.waited, &lock.path);
        }
        if let Some(startup) = setup
            .startup
            .as_ref()
            .filter(|_| self.nextest_run_id().is_some())
        {
            console.startup(startup);
        }
        // How the verdicts are decided: the family-wise statement is the
        // footer's (only there is it known which verdicts a CI decided);
        // the between-run spread the regression rule assumes is said when
        // a stored baseline will be compared with, the rest with --verbose.
        match &setup.comparing {
            Some(c) => {
                let (head_links, base_links) = c.links();
                console.comparing(&c.base[0], head_links, base_links);
                console.layout_not_pinned(c.pinned.0, c.pinned.1);
                console.layout_not_drawn(head_links, base_links);
                if console.verbose() {
                    console.verdicts(family.record());
                }
            }
            None if setup.will_measure && family.verdicts > 0 => {
                if console.verbose() {
                    console.verdicts(family.record());
                }
                if console.verbose() || family.regressions > 0 {
                    console.prior(&setup.prior);
                }
            }
            None => {}
        }
        if let Some(cpus) = &self.cpus {
            // Said by default only when it changes what a reader should
            // know: some allowed cores are left unused.
            if console.verbose() || cpus.kind.is_some() {
                let (_, not_pinned) = self.pinning();
                let paired = setup.comparing.is_some();
                console.placement(cpus, not_pinned.as_ref(), paired);
            }
        }
        console.running(tests);
    }

    /// Runs the `selected` tests one at a time, each test's panic captured
    /// for its failure; stops after a test that hung (its thread still
    /// runs, and would disturb any measurement beside it).
    fn run_tests(
        &self,
        selected: &[&Case],
        setup: &Setup,
        judging: &Judging<'_>,
        console: &mut Console,
    ) -> Ran {
        let previous_hook = install_panic_capture();
        let mut ran = Ran {
            reports: Vec::with_capacity(selected.len()),
            failures: Vec::new(),
        };
        for case in selected {
            let finished = self.run_test(case, setup, judging, &ran.reports, console);
            if finished.report.verdict == Verdict::Fail {
                ran.failures
                    .push((finished.report.name.clone(), finished.failure_detail));
            }
            ran.reports.push(finished.report);
            if finished.hung {
                let left = selected.len() - ran.reports.len();
                if left > 0 {
                    console.run_stopped(left);
                }
                break;
            }
        }
        panic::set_hook(previous_hook);
        ran
    }

    /// One test, with its line: ignored, a complexity check over the
    /// `earlier` reports, compared with the base build, or measured here;
    /// its report is written once, when every step is done.
    fn run_test(
        &self,
        case: &Case,
        setup: &Setup,
        judging: &Judging<'_>,
        earlier: &[crate::report::TestReport],
        console: &mut Console,
    ) -> Finished {
        let name = case.name();
        let t = case.test();
        if !self.runs(t) {
            let why = match t.options.ignore {
                Ignore::Because(why) => Some(why),
                _ => None,
            };
            console.ignored(&name, why);
            return Finished {
                report: ignored_report(t, name),
                failure_detail: None,
                hung: false,
            };
        }
        console.test_started(&name);
        let noise_floor = setup.noise_floor;
        let mut outcome = match (case, &setup.comparing) {
            (Case::Complexity(group), _) => self.run_complexity(group, |member, name| {
                self.complexity_member(member, name, noise_floor, earlier)
            }),
            #[cfg(feature = "compare")]
            (Case::Test(_), Some(c)) if c.has(&name) && self.measuring() => {
                self.compare_one(t, name, noise_floor, c, judging.family, judging.spreads)
            }
            (Case::Test(_), Some(c)) => {
                let mut outcome =
                    self.run_one(t, name, noise_floor, judging.family, judging.checks);
                if !c.has(&outcome.name) {
                    outcome.judged.say(Said::Runner(RunnerSaid::NotInBase));
                }
                outcome
            }
            (Case::Test(_), None) => {
                self.run_one(t, name, noise_floor, judging.family, judging.checks)
            }
        };
        if let Case::Test(_) = case {
            self.count_instructions(t, &mut outcome, setup);
        }
        let finished = outcome.finish();
        console.test_finished(&finished.report, finished.failure_detail.as_deref());
        finished
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

    /// The registered tests among `selected` this run measures (a
    /// complexity check decides no budget or regression of its own).
    fn measured(&self, selected: &[&Case]) -> Vec<&'static PerfTest> {
        selected
            .iter()
            .filter_map(|case| match case {
                Case::Test(t) => Some(*t),
                Case::Complexity(_) => None,
            })
            .filter(|t| self.measuring() && self.runs(t))
            .collect()
    }

    /// Where this run holds each measurement: the CPUs to pin to, or why
    /// nothing is pinned (`None` from both where the CPUs are unknown).
    pub(crate) fn pinning(&self) -> (Option<&Arc<Cpus>>, Option<NotPinned>) {
        match &self.cpus {
            None => (None, None),
            Some(_) if self.options.no_pin => (None, Some(NotPinned::TurnedOff)),
            Some(cpus) => (Some(cpus), cpus.nothing_to_choose()),
        }
    }

    /// Whether a selected test runs (rather than being reported ignored).
    fn runs(&self, t: &PerfTest) -> bool {
        let args = &self.options.libtest;
        t.options.ignore == Ignore::No || args.ignored || args.include_ignored
    }
}
