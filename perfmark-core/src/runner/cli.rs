//! The command line and environment: libtest's flags (parsed as libtest
//! does, `libtest_args.rs`) and perfmark's own, each with a `PERFMARK_…`
//! variable.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::libtest_args::Arguments;
use super::{
    DEFAULT_CONFIDENCE, DEFAULT_MAX_TIME, DEFAULT_PRECISION, DEFAULT_REGRESSION, DEFAULT_WARMUP,
};
use perfmark_options::text as option_text;
use perfmark_options::Key;

use crate::paired::process::DEFAULT_WORKER_TIMEOUT;
use crate::Error;

mod values;
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
    pub(super) save_baseline: bool,
    pub(super) no_baseline: bool,
    pub(super) baseline_dir: Option<PathBuf>,
    pub(super) report_dir: Option<PathBuf>,
    pub(super) verbose: bool,
    pub(super) force: bool,
    pub(crate) confidence: f64,
    pub(super) precision: f64,
    pub(crate) regression: f64,
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
const SWITCHES: [&str; 9] = [
    "--save-baseline",
    "--no-baseline",
    "--verbose",
    "--per-test-confidence",
    "--family-wise",
    "--no-remeasure",
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
        let mut rest = Vec::with_capacity(args.len());
        let mut flags = Flags::default();
        let mut args = args.into_iter();
        if let Some(program) = args.next() {
            rest.push(program);
        }
        while let Some(arg) = args.next() {
            let (name, inline) = match split_inline(&arg) {
                Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
                None => match arg.to_str() {
                    Some(text) => (text.to_owned(), None),
                    None => {
                        rest.push(arg);
                        continue;
                    }
                },
            };
            let name = name.as_str();
            if SWITCHES.contains(&name) && inline.is_some() {
                return Err(Error::usage(format!(
                    "{name} takes no value: give {name} alone, or leave it out"
                )));
            }
            let mut value = |flag: &str| -> Result<OsString, Error> {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .filter(|v| !v.is_empty())
                    .ok_or_else(|| Error::usage(format!("{flag} needs {}", flag_value(flag))))
            };
            match name {
                "--save-baseline" => flags.save_baseline = true,
                "--no-baseline" => flags.no_baseline = true,
                "--verbose" => flags.verbose = true,
                "--baseline-dir" => flags.baseline_dir = Some(value(name)?.into()),
                "--report-dir" => flags.report_dir = Some(value(name)?.into()),
                "--compare-with" => flags.compare_with.push(value(name)?.into()),
                "--head-layout" => flags.head_layouts.push(value(name)?.into()),
                "--per-test-confidence" => flags.per_test_confidence = true,
                "--no-remeasure" => flags.no_remeasure = true,
                "--no-lock" => flags.no_lock = true,
                "--no-pin" => flags.no_pin = true,
                "--no-processes" => flags.no_processes = true,
                "--instructions" => flags.instructions = true,
                "--family-wise" => flags.family_wise = true,
                "--between-run-sd" => {
                    let text = text_value(name, value(name)?)?;
                    flags.between_run_sd = Some(between_run_sd(&text).map_err(|e| e.within(name))?);
                }
                "--timeout" => {
                    let text = text_value(name, value(name)?)?;
                    flags.timeout = Some(timeout(&text).map_err(|e| e.within(name))?);
                }
                _ => rest.push(arg),
            }
        }
        let libtest = Arguments::parse(rest)?;
        let family_wise = family_wise(&flags, env)?;
        let flag = |set: bool, var: &str| -> Result<bool, Error> {
            Ok(set || env_bool(env, var)?.unwrap_or(false))
        };
        let options = Options {
            save_baseline: flag(flags.save_baseline, "PERFMARK_SAVE_BASELINE")?,
            no_baseline: flag(flags.no_baseline, "PERFMARK_NO_BASELINE")?,
            verbose: flag(flags.verbose, "PERFMARK_VERBOSE")?,
            force: env_bool(env, "PERFMARK_FORCE")?.unwrap_or(false),
            baseline_dir: flags
                .baseline_dir
                .or_else(|| env_path(env, "PERFMARK_BASELINE_DIR")),
            report_dir: flags
                .report_dir
                .or_else(|| env_path(env, "PERFMARK_REPORT_DIR")),
            confidence: match env_text(env, "PERFMARK_CONFIDENCE", accepts(Key::Confidence))? {
                Some(v) => option_text::confidence(&v)
                    .map_err(|e| Error::usage(format!("PERFMARK_CONFIDENCE: {e}")))?,
                None => DEFAULT_CONFIDENCE,
            },
            precision: match env_text(env, "PERFMARK_PRECISION", accepts(Key::Precision))? {
                Some(v) => option_text::precision(&v)
                    .map_err(|e| Error::usage(format!("PERFMARK_PRECISION: {e}")))?,
                None => DEFAULT_PRECISION,
            },
            regression: match env_text(env, "PERFMARK_REGRESSION", accepts(Key::Regression))? {
                Some(v) => option_text::regression(&v)
                    .map_err(|e| Error::usage(format!("PERFMARK_REGRESSION: {e}")))?,
                None => DEFAULT_REGRESSION,
            },
            max_time: env_duration(
                env,
                Key::MaxTime,
                option_text::max_time_ns,
                DEFAULT_MAX_TIME,
            )?,
            warmup: env_duration(env, Key::Warmup, option_text::warmup_ns, DEFAULT_WARMUP)?,
            compare_with: paths_or_env(flags.compare_with, env, "PERFMARK_COMPARE_WITH"),
            head_layouts: paths_or_env(flags.head_layouts, env, "PERFMARK_HEAD_LAYOUTS"),
            family_wise,
            between_run_sd: match flags.between_run_sd {
                Some(sd) => Some(sd),
                None => env_text(env, "PERFMARK_BETWEEN_RUN_SD", BETWEEN_RUN_SD_ACCEPTS)?
                    .map(|v| between_run_sd(&v).map_err(|e| e.within("PERFMARK_BETWEEN_RUN_SD")))
                    .transpose()?,
            },
            worker_timeout: match env_text(env, "PERFMARK_WORKER_TIMEOUT", accepts(Key::MaxTime))? {
                Some(v) => option_text::max_time_ns(&v)
                    .map(Duration::from_nanos)
                    .map_err(|e| Error::usage(format!("PERFMARK_WORKER_TIMEOUT: {e}")))?,
                None => DEFAULT_WORKER_TIMEOUT,
            },
            no_remeasure: flag(flags.no_remeasure, "PERFMARK_NO_REMEASURE")?,
            timeout: match flags.timeout {
                Some(bound) => Some(bound),
                None => env_text(env, "PERFMARK_TIMEOUT", TIMEOUT_ACCEPTS)?
                    .map(|v| timeout(&v).map_err(|e| e.within("PERFMARK_TIMEOUT")))
                    .transpose()?,
            },
            no_lock: flag(flags.no_lock, "PERFMARK_NO_LOCK")?,
            no_pin: flag(flags.no_pin, "PERFMARK_NO_PIN")?,
            no_processes: flag(flags.no_processes, "PERFMARK_NO_PROCESSES")?,
            instructions: flag(flags.instructions, "PERFMARK_INSTRUCTIONS")?,
            lock_dir: env_path(env, "PERFMARK_LOCK_DIR"),
            libtest,
        };
        if options.compare_with.is_empty() && !options.head_layouts.is_empty() {
            return Err(Error::usage(
                "--head-layout names other links of this build for a paired comparison: give \
                 the base with --compare-with PATH too",
            ));
        }
        if !options.compare_with.is_empty() && options.save_baseline {
            return Err(Error::usage(
                "--compare-with and --save-baseline cannot be used together: a paired \
                 comparison measures two builds, not a baseline",
            ));
        }
        if options.save_baseline && options.no_baseline {
            return Err(Error::usage(
                "--save-baseline and --no-baseline cannot be used together",
            ));
        }
        Ok(options)
    }

    /// Whether the run's verdicts are decided family-wise: as asked, or by
    /// the mode's default — on when comparing with another build (a CI gate
    /// over many tests), off otherwise (each test at its own confidence, as
    /// a test suite reads).
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

The FILTER strings are tested against the name of every test; a test runs
when its name contains any of them (or equals one, with --exact).
Exit status: 0 when every test passed, 101 otherwise.
"
    )
}

#[derive(Default)]
struct Flags {
    save_baseline: bool,
    no_baseline: bool,
    verbose: bool,
    baseline_dir: Option<PathBuf>,
    report_dir: Option<PathBuf>,
    compare_with: Vec<PathBuf>,
    head_layouts: Vec<PathBuf>,
    per_test_confidence: bool,
    no_remeasure: bool,
    no_lock: bool,
    no_pin: bool,
    no_processes: bool,
    instructions: bool,
    family_wise: bool,
    between_run_sd: Option<f64>,
    timeout: Option<Duration>,
}

#[cfg(all(test, unix))]
mod properties;

#[cfg(test)]
mod tests;
