//! The command line and environment: libtest's flags (parsed as libtest
//! does, `libtest_args.rs`) and perfmark's own, each with a `PERFMARK_…`
//! variable.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::libtest_args::Arguments;
use super::{
    DEFAULT_CONFIDENCE, DEFAULT_COUNT_REGRESSION, DEFAULT_MAX_TIME, DEFAULT_PRECISION,
    DEFAULT_REGRESSION, DEFAULT_WARMUP,
};
use perfmark_options::text as option_text;
use perfmark_options::Key;

use crate::worker::DEFAULT_WORKER_TIMEOUT;
use crate::Error;

mod flags;
mod values;
use flags::Flags;
use values::*;

/// Where environment variables come from (a trait so tests can give their own).
pub(super) trait Env {
    /// The variable's value as the OS holds it; `None` when it is not set.
    fn get(&self, key: &str) -> Option<OsString>;
}

pub(super) struct EnvVars;

impl Env for EnvVars {
    fn get(&self, key: &str) -> Option<OsString> {
        std::env::var_os(key)
    }
}

/// perfmark's own options, beside libtest's.
#[derive(Debug)]
pub(crate) struct Options {
    pub(super) libtest: Arguments,
    pub(crate) save_baseline: bool,
    pub(super) no_baseline: bool,
    pub(super) baseline_dir: Option<PathBuf>,
    pub(super) report_dir: Option<PathBuf>,
    pub(super) verbose: bool,
    pub(super) force: bool,
    pub(crate) confidence: f64,
    pub(super) precision: f64,
    pub(crate) regression: f64,
    /// The instruction count's tolerance (`PERFMARK_COUNT_REGRESSION`);
    /// read, and checked, in every build, used where counting is built.
    #[cfg_attr(not(feature = "instructions"), allow(dead_code))]
    pub(crate) count_regression: f64,
    pub(super) max_time: Duration,
    pub(super) warmup: Duration,
    /// Another build of this test target to compare with, slice by slice:
    /// one link, or several links of it (the same build, its functions in
    /// other orders), process pair `p` running link `p mod n`.
    pub(super) compare_with: Vec<PathBuf>,
    /// Links of this build to run the head's workers from (`--head-layout`,
    /// each); none: this binary.
    pub(super) head_layouts: Vec<PathBuf>,
    /// How long a paired comparison's worker may stay silent (starting, or
    /// answering one request) before it is taken to hang and is killed.
    pub(crate) worker_timeout: Duration,
    /// Never measure a failure a second time, even when it was measured
    /// under interference.
    pub(super) no_remeasure: bool,
    /// Measure without the machine-wide lock.
    pub(super) no_lock: bool,
    /// Leave each test's thread, and each process pair's workers, to the
    /// scheduler instead of holding them on one CPU ([`crate::cpus`]).
    pub(super) no_pin: bool,
    /// Measure each test in this process only, without worker processes
    /// for the spread between processes ([`crate::processes`]).
    pub(super) no_processes: bool,
    /// Count each test's instructions under Callgrind too
    /// ([`crate::instructions`]).
    pub(super) instructions: bool,
    /// Where the machine-wide lock lives (default: the temporary directory).
    pub(super) lock_dir: Option<PathBuf>,
    /// Run-level control of false failures: `Some(true)` decides every
    /// verdict of the run at the Bonferroni-corrected level
    /// (`--family-wise`), `Some(false)` each at its test's own confidence
    /// (`--per-test-confidence`), `None` the mode's default
    /// ([`Options::family_wise_in`]).
    pub(super) family_wise: Option<bool>,
    /// The prior between-run sd the user set (a fraction), replacing the
    /// recorded or default one.
    pub(super) between_run_sd: Option<f64>,
    /// How long one test may run before the watchdog stops the run
    /// (`--timeout`); `None` for the default bound of each test
    /// ([`super::watchdog::default_bound`]).
    pub(super) timeout: Option<Duration>,
}

/// The flags that take no value.
const SWITCHES: [&str; 10] = [
    "--save-baseline",
    "--no-baseline",
    "--verbose",
    "--per-test-confidence",
    "--family-wise",
    "--no-remeasure",
    "--no-lock",
    "--no-pin",
    "--no-processes",
    "--instructions",
];

impl Options {
    /// Splits perfmark's flags from libtest's, parsed as libtest does;
    /// every perfmark flag has a `PERFMARK_…` variable, the flag winning.
    ///
    /// # Errors
    /// A message naming the flag or variable and what it accepts: a value
    /// outside the grammar, a variable that is not UTF-8 where text is
    /// expected, a flag without its value (or with an empty one), a switch
    /// given a value (`--save-baseline=false`), or flags that exclude each
    /// other; libtest's own flags, libtest's message
    /// ([`Arguments::parse`]).
    pub(super) fn parse(args: Vec<OsString>, env: &dyn Env) -> Result<Options, Error> {
        let (flags, rest) = Flags::scan(args)?;
        let libtest = Arguments::parse(rest)?;
        let options = Options::resolve(flags, libtest, env)?;
        options.check_exclusions()?;
        Ok(options)
    }

    /// The options from the flags given, each flag not given from its
    /// variable or else its default; the variables are read in a fixed
    /// order, so that the first bad one is the one refused.
    fn resolve(flags: Flags, libtest: Arguments, env: &dyn Env) -> Result<Options, Error> {
        let family_wise = family_wise(&flags, env)?;
        let switch = |set: bool, var: &str| -> Result<bool, Error> {
            Ok(set || env_bool(env, var)?.unwrap_or(false))
        };
        let path = |given: Option<PathBuf>, var: &str| given.or_else(|| env_path(env, var));
        let save_baseline = switch(flags.save_baseline, "PERFMARK_SAVE_BASELINE")?;
        let no_baseline = switch(flags.no_baseline, "PERFMARK_NO_BASELINE")?;
        let verbose = switch(flags.verbose, "PERFMARK_VERBOSE")?;
        let force = env_bool(env, "PERFMARK_FORCE")?.unwrap_or(false);
        let (confidence, precision, regression, max_time, warmup) = env_measuring(env)?;
        Ok(Options {
            save_baseline,
            no_baseline,
            verbose,
            force,
            baseline_dir: path(flags.baseline_dir, "PERFMARK_BASELINE_DIR"),
            report_dir: path(flags.report_dir, "PERFMARK_REPORT_DIR"),
            confidence,
            precision,
            regression,
            count_regression: env_option(
                env,
                ("PERFMARK_COUNT_REGRESSION", accepts(Key::CountRegression)),
                option_text::count_regression,
                DEFAULT_COUNT_REGRESSION,
            )?,
            max_time,
            warmup,
            compare_with: paths_or_env(flags.compare_with, env, "PERFMARK_COMPARE_WITH"),
            head_layouts: paths_or_env(flags.head_layouts, env, "PERFMARK_HEAD_LAYOUTS"),
            family_wise,
            between_run_sd: flag_or_env(
                flags.between_run_sd,
                env,
                ("PERFMARK_BETWEEN_RUN_SD", BETWEEN_RUN_SD_ACCEPTS),
                between_run_sd,
            )?,
            worker_timeout: env_worker_timeout(env)?,
            no_remeasure: switch(flags.no_remeasure, "PERFMARK_NO_REMEASURE")?,
            timeout: flag_or_env(
                flags.timeout,
                env,
                ("PERFMARK_TIMEOUT", TIMEOUT_ACCEPTS),
                timeout,
            )?,
            no_lock: switch(flags.no_lock, "PERFMARK_NO_LOCK")?,
            no_pin: switch(flags.no_pin, "PERFMARK_NO_PIN")?,
            no_processes: switch(flags.no_processes, "PERFMARK_NO_PROCESSES")?,
            instructions: switch(flags.instructions, "PERFMARK_INSTRUCTIONS")?,
            lock_dir: env_path(env, "PERFMARK_LOCK_DIR"),
            libtest,
        })
    }

    /// An error for options that exclude each other: head layouts without
    /// a build to compare with, a comparison that would save baselines, or
    /// saving baselines while ignoring them.
    fn check_exclusions(&self) -> Result<(), Error> {
        if self.compare_with.is_empty() && !self.head_layouts.is_empty() {
            return Err(Error::usage(
                "--head-layout names other links of this build for a paired comparison: give \
                 the base with --compare-with PATH too",
            ));
        }
        if !self.compare_with.is_empty() && self.save_baseline {
            return Err(Error::usage(
                "--compare-with and --save-baseline cannot be used together: a paired \
                 comparison measures two builds, not a baseline",
            ));
        }
        if self.save_baseline && self.no_baseline {
            return Err(Error::usage(
                "--save-baseline and --no-baseline cannot be used together",
            ));
        }
        Ok(())
    }

    /// Whether the run's verdicts are decided family-wise: as asked, or by
    /// the mode's default — on when the run compares (with another build,
    /// or with a stored baseline from this machine: a gate over many
    /// tests), off otherwise (each test at its own confidence, as a test
    /// suite of budgets reads).
    pub(super) fn family_wise_in(&self, comparing: bool) -> bool {
        self.family_wise.unwrap_or(comparing)
    }
}

/// The one family-wise setting from its two flags and two variables:
/// `--family-wise` / `PERFMARK_FAMILY_WISE=1` turn it on,
/// `--per-test-confidence` / `PERFMARK_PER_TEST_CONFIDENCE=1` (or
/// `PERFMARK_FAMILY_WISE=0`) off; a flag wins over the variables, and
/// asking for both at one level is an error.
fn family_wise(flags: &Flags, env: &dyn Env) -> Result<Option<bool>, Error> {
    const BOTH: &str = "cannot be used together: choose family-wise (the run keeps the \
                        confidence) or per-test (each test keeps it)";
    match (flags.family_wise, flags.per_test_confidence) {
        (true, true) => {
            return Err(Error::usage(format!(
                "--family-wise and --per-test-confidence {BOTH}"
            )))
        }
        (true, false) => return Ok(Some(true)),
        (false, true) => return Ok(Some(false)),
        (false, false) => {}
    }
    let on = env_bool(env, "PERFMARK_FAMILY_WISE")?;
    let per_test = env_bool(env, "PERFMARK_PER_TEST_CONFIDENCE")?.filter(|&p| p);
    match (on, per_test) {
        (Some(true), Some(true)) => Err(Error::usage(format!(
            "PERFMARK_FAMILY_WISE=1 and PERFMARK_PER_TEST_CONFIDENCE=1 {BOTH}"
        ))),
        (Some(on), _) => Ok(Some(on)),
        (None, Some(true)) => Ok(Some(false)),
        _ => Ok(None),
    }
}

/// The settings of measuring that only variables give, read in this
/// order: confidence, precision, regression, max time and warmup, each its
/// default when its variable is not set.
fn env_measuring(env: &dyn Env) -> Result<(f64, f64, f64, Duration, Duration), Error> {
    let confidence = env_option(
        env,
        ("PERFMARK_CONFIDENCE", accepts(Key::Confidence)),
        option_text::confidence,
        DEFAULT_CONFIDENCE,
    )?;
    let precision = env_option(
        env,
        ("PERFMARK_PRECISION", accepts(Key::Precision)),
        option_text::precision,
        DEFAULT_PRECISION,
    )?;
    let regression = env_option(
        env,
        ("PERFMARK_REGRESSION", accepts(Key::Regression)),
        option_text::regression,
        DEFAULT_REGRESSION,
    )?;
    let max_time = env_duration(
        env,
        Key::MaxTime,
        option_text::max_time_ns,
        DEFAULT_MAX_TIME,
    )?;
    let warmup = env_duration(env, Key::Warmup, option_text::warmup_ns, DEFAULT_WARMUP)?;
    Ok((confidence, precision, regression, max_time, warmup))
}

/// `PERFMARK_WORKER_TIMEOUT`, a duration as `PERFMARK_MAX_TIME` takes one;
/// [`DEFAULT_WORKER_TIMEOUT`] when it is not set.
fn env_worker_timeout(env: &dyn Env) -> Result<Duration, Error> {
    env_option(
        env,
        ("PERFMARK_WORKER_TIMEOUT", accepts(Key::MaxTime)),
        |v| option_text::max_time_ns(v).map(Duration::from_nanos),
        DEFAULT_WORKER_TIMEOUT,
    )
}

/// The variable `var` (which accepts what `accepts` says) parsed with
/// `parse`, its errors naming `var`; `default` when it is not set.
fn env_option<T>(
    env: &dyn Env,
    (var, accepts): (&str, &str),
    parse: impl Fn(&str) -> Result<T, perfmark_options::OptionError>,
    default: T,
) -> Result<T, Error> {
    match env_text(env, var, accepts)? {
        Some(v) => parse(&v).map_err(|e| Error::usage(format!("{var}: {e}"))),
        None => Ok(default),
    }
}

/// The value its flag gave, or else that of the variable `var` (which
/// accepts what `accepts` says), parsed with `parse`, its errors naming
/// `var`; `None` when neither is given.
fn flag_or_env<T>(
    given: Option<T>,
    env: &dyn Env,
    (var, accepts): (&str, &str),
    parse: fn(&str) -> Result<T, Error>,
) -> Result<Option<T>, Error> {
    match given {
        Some(value) => Ok(Some(value)),
        None => env_text(env, var, accepts)?
            .map(|v| parse(&v).map_err(|e| e.within(var)))
            .transpose(),
    }
}

/// A between-run sd written as a percentage of the percent grammar
/// (`"2%"`, `"0.5 %"`), above 0% and below 100%, as a fraction.
fn between_run_sd(text: &str) -> Result<f64, Error> {
    const ACCEPTS: &str = BETWEEN_RUN_SD_ACCEPTS;
    match perfmark_options::grammar::percent(text) {
        Ok(pct) if pct > 0.0 && pct < 100.0 => Ok(pct / 100.0),
        Ok(_) => Err(Error::usage(format!(
            "invalid between-run sd `{text}`: out of range; expected {ACCEPTS}"
        ))),
        Err(perfmark_options::grammar::Refusal::Negative) => Err(Error::usage(format!(
            "invalid between-run sd `{text}`: an sd cannot be negative; expected {ACCEPTS}"
        ))),
        Err(_) => Err(Error::usage(format!(
            "invalid between-run sd `{text}`: expected {ACCEPTS}"
        ))),
    }
}

/// What `--between-run-sd` and `PERFMARK_BETWEEN_RUN_SD` accept,
/// completing "expected …".
const BETWEEN_RUN_SD_ACCEPTS: &str = "a percentage such as `2%`, above 0% and below 100% (how \
     much unchanged code moves between processes here, as an sd)";

/// What `--help` prints: libtest's options as perfmark takes them, then
/// perfmark's own.
pub(super) fn usage(program: &str) -> String {
    format!(
        "\
Usage: {program} [OPTIONS] [FILTERS...]

A perfmark perf test binary: libtest's command line, one test at a time.

{LIBTEST_OPTIONS}
{PERFMARK_OPTIONS}
The FILTER strings are tested against the name of every test; a test runs
when its name contains any of them (or equals one, with --exact).
Exit status: 0 when every test passed, 101 otherwise.
"
    )
}

/// libtest's options as `--help` lists them, as perfmark takes them.
const LIBTEST_OPTIONS: &str = "\
Options (libtest's):
        --include-ignored   Run ignored and not ignored tests
        --ignored           Run only ignored tests
        --list              List all tests (`--format terse`: no count line)
        --exact             Exactly match filters rather than by substring
        --skip FILTER       Skip tests whose names contain FILTER (this flag
                            can be used multiple times)
        --format pretty|terse|json
                            pretty: a line of perfmark under each test;
                            terse: a character a test; json: libtest's
                            events with perfmark's figures added (no -Z
                            unstable-options needed)
    -q, --quiet             Alias to --format=terse
    -h, --help              Display this message
        --nocapture, --no-capture, --test-threads N, --show-output, --test,
        --bench, --color auto|always|never, --logfile PATH, -Z unstable-options
                            Accepted; perf tests run one at a time and their
                            output is never captured
";

/// perfmark's options as `--help` lists them, each with its variable,
/// then the variables that have no flag.
const PERFMARK_OPTIONS: &str = "\
Options (perfmark's; each also read from its variable):
        --verbose           Every line of each test and its full account,
                            not only its one line (PERFMARK_VERBOSE=1)
        --save-baseline     Measure and write the baselines of the tests run
                            (PERFMARK_SAVE_BASELINE=1)
        --no-baseline       Ignore stored baselines (PERFMARK_NO_BASELINE=1)
        --baseline-dir DIR  Where baselines live (PERFMARK_BASELINE_DIR);
                            default perf-baselines/ in the package root
        --report-dir DIR    Where the reports go (PERFMARK_REPORT_DIR)
        --compare-with PATH Compare with another build of this test target,
                            slice by slice (PERFMARK_COMPARE_WITH); given
                            again, another link of that build: each process
                            pair runs the next link
        --head-layout PATH  With --compare-with: another link of this build
                            to run the head's workers from (repeatable;
                            PERFMARK_HEAD_LAYOUTS, paths joined by :)
        --per-test-confidence
                            With --compare-with: each test at its own
                            confidence (PERFMARK_PER_TEST_CONFIDENCE=1)
        --family-wise       Every verdict of the run at the corrected level
                            (PERFMARK_FAMILY_WISE=1); default with
                            --compare-with
        --between-run-sd PCT
                            How much unchanged code moves between processes
                            here, as an sd (PERFMARK_BETWEEN_RUN_SD)
        --no-remeasure      Never measure a failure again
                            (PERFMARK_NO_REMEASURE=1)
        --no-pin            Leave each test's thread (and each process
                            pair's workers) to the scheduler instead of
                            holding it on one CPU (PERFMARK_NO_PIN=1)
        --no-processes      Measure each test in this process only, not
                            also in worker processes for the spread
                            between processes (PERFMARK_NO_PROCESSES=1)
        --instructions      Also count each test's instructions per
                            iteration under Valgrind's Callgrind
                            (PERFMARK_INSTRUCTIONS=1; valgrind from
                            PERFMARK_VALGRIND, default on the PATH)
        --timeout DURATION  How long one test may run before it fails as hung
                            and the run stops (PERFMARK_TIMEOUT); default
                            10 x (warmup + max_time) + 60 s

Variables only: PERFMARK_FORCE=1 (measure an unoptimized build),
PERFMARK_CONFIDENCE, PERFMARK_PRECISION, PERFMARK_REGRESSION,
PERFMARK_MAX_TIME, PERFMARK_WARMUP, PERFMARK_WORKER_TIMEOUT.
";

#[cfg(all(test, unix))]
mod properties;

#[cfg(test)]
mod tests;
