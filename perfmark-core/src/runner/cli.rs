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

use crate::pair::process::DEFAULT_WORKER_TIMEOUT;

/// Where environment variables come from (a trait so tests can give their own).
pub(super) trait Env {
    fn get(&self, key: &str) -> Option<String>;
}

pub(super) struct EnvVars;

impl Env for EnvVars {
    fn get(&self, key: &str) -> Option<String> {
        std::env::var(key).ok()
    }
}

/// perfmark's own options, beside libtest's.
#[derive(Debug)]
pub(super) struct Options {
    pub(super) libtest: Arguments,
    pub(super) save_baseline: bool,
    pub(super) no_baseline: bool,
    pub(super) baseline_dir: Option<PathBuf>,
    pub(super) report_dir: Option<PathBuf>,
    pub(super) verbose: bool,
    pub(super) force: bool,
    pub(super) confidence: f64,
    pub(super) precision: f64,
    pub(super) regression: f64,
    pub(super) max_time: Duration,
    pub(super) warmup: Duration,
    /// Another build of this test target to compare with, slice by slice.
    pub(super) compare_with: Option<PathBuf>,
    /// How long a paired comparison's worker may stay silent (starting, or
    /// answering one request) before it is taken to hang and is killed.
    pub(super) worker_timeout: Duration,
    /// Never measure a failure a second time, even when it was measured
    /// under interference.
    pub(super) no_remeasure: bool,
    /// Measure without the machine-wide lock.
    pub(super) no_lock: bool,
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
}

impl Options {
    /// Splits perfmark's flags from libtest's, parsed as libtest does;
    /// every perfmark flag has a `PERFMARK_…` variable, the flag winning.
    pub(super) fn parse(args: Vec<OsString>, env: &dyn Env) -> Result<Options, String> {
        let mut rest = Vec::with_capacity(args.len());
        let mut flags = Flags::default();
        let mut args = args.into_iter();
        if let Some(program) = args.next() {
            rest.push(program);
        }
        while let Some(arg) = args.next() {
            let Some(text) = arg.to_str() else {
                rest.push(arg);
                continue;
            };
            let (name, inline) = match text.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
                _ => (text, None),
            };
            let mut value = |flag: &str| -> Result<String, String> {
                inline
                    .clone()
                    .or_else(|| args.next().and_then(|v| v.into_string().ok()))
                    .ok_or_else(|| {
                        let what = match flag {
                            "--compare-with" => {
                                "the path of another build of this test binary: --compare-with PATH"
                            }
                            "--between-run-sd" => "a percentage: --between-run-sd 2%",
                            _ => "a directory: {flag} DIR",
                        };
                        format!("{flag} needs {}", what.replace("{flag}", flag))
                    })
            };
            match name {
                "--save-baseline" => flags.save_baseline = true,
                "--no-baseline" => flags.no_baseline = true,
                "--verbose" => flags.verbose = true,
                "--baseline-dir" => flags.baseline_dir = Some(value(name)?.into()),
                "--report-dir" => flags.report_dir = Some(value(name)?.into()),
                "--compare-with" => flags.compare_with = Some(value(name)?.into()),
                "--per-test-confidence" => flags.per_test_confidence = true,
                "--no-remeasure" => flags.no_remeasure = true,
                "--no-lock" => flags.no_lock = true,
                "--family-wise" => flags.family_wise = true,
                "--between-run-sd" => {
                    let text = value(name)?;
                    flags.between_run_sd =
                        Some(between_run_sd(&text).map_err(|e| format!("{name}: {e}"))?);
                }
                _ => rest.push(arg),
            }
        }
        let libtest = Arguments::parse(rest)?;
        let family_wise = family_wise(&flags, env)?;
        let flag = |set: bool, var: &str| -> Result<bool, String> {
            Ok(set || env_bool(env, var)?.unwrap_or(false))
        };
        let options =
            Options {
                save_baseline: flag(flags.save_baseline, "PERFMARK_SAVE_BASELINE")?,
                no_baseline: flag(flags.no_baseline, "PERFMARK_NO_BASELINE")?,
                verbose: flag(flags.verbose, "PERFMARK_VERBOSE")?,
                force: env_bool(env, "PERFMARK_FORCE")?.unwrap_or(false),
                baseline_dir: flags
                    .baseline_dir
                    .or_else(|| env.get("PERFMARK_BASELINE_DIR").map(Into::into)),
                report_dir: flags
                    .report_dir
                    .or_else(|| env.get("PERFMARK_REPORT_DIR").map(Into::into)),
                confidence: match env.get("PERFMARK_CONFIDENCE") {
                    Some(v) => option_text::confidence(&v)
                        .map_err(|e| format!("PERFMARK_CONFIDENCE: {e}"))?,
                    None => DEFAULT_CONFIDENCE,
                },
                precision: match env.get("PERFMARK_PRECISION") {
                    Some(v) => option_text::precision(&v)
                        .map_err(|e| format!("PERFMARK_PRECISION: {e}"))?,
                    None => DEFAULT_PRECISION,
                },
                regression: match env.get("PERFMARK_REGRESSION") {
                    Some(v) => option_text::regression(&v)
                        .map_err(|e| format!("PERFMARK_REGRESSION: {e}"))?,
                    None => DEFAULT_REGRESSION,
                },
                max_time: env_duration(
                    env,
                    "PERFMARK_MAX_TIME",
                    option_text::max_time_ns,
                    DEFAULT_MAX_TIME,
                )?,
                warmup: env_duration(
                    env,
                    "PERFMARK_WARMUP",
                    option_text::warmup_ns,
                    DEFAULT_WARMUP,
                )?,
                compare_with: flags
                    .compare_with
                    .or_else(|| env.get("PERFMARK_COMPARE_WITH").map(Into::into))
                    .filter(|p| !p.as_os_str().is_empty()),
                family_wise,
                between_run_sd: match flags.between_run_sd {
                    Some(sd) => Some(sd),
                    None => env
                        .get("PERFMARK_BETWEEN_RUN_SD")
                        .map(|v| {
                            between_run_sd(&v).map_err(|e| format!("PERFMARK_BETWEEN_RUN_SD: {e}"))
                        })
                        .transpose()?,
                },
                worker_timeout: env_duration(
                    env,
                    "PERFMARK_WORKER_TIMEOUT",
                    option_text::max_time_ns,
                    DEFAULT_WORKER_TIMEOUT,
                )?,
                no_remeasure: flag(flags.no_remeasure, "PERFMARK_NO_REMEASURE")?,
                no_lock: flag(flags.no_lock, "PERFMARK_NO_LOCK")?,
                lock_dir: env
                    .get("PERFMARK_LOCK_DIR")
                    .filter(|d| !d.is_empty())
                    .map(Into::into),
                libtest,
            };
        if options.compare_with.is_some() && options.save_baseline {
            return Err(
                "--compare-with and --save-baseline cannot be used together: a paired \
                 comparison measures two builds, not a baseline"
                    .to_owned(),
            );
        }
        if options.save_baseline && options.no_baseline {
            return Err("--save-baseline and --no-baseline cannot be used together".to_owned());
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
fn family_wise(flags: &Flags, env: &dyn Env) -> Result<Option<bool>, String> {
    const BOTH: &str = "cannot be used together: choose family-wise (the run keeps the \
                        confidence) or per-test (each test keeps it)";
    match (flags.family_wise, flags.per_test_confidence) {
        (true, true) => return Err(format!("--family-wise and --per-test-confidence {BOTH}")),
        (true, false) => return Ok(Some(true)),
        (false, true) => return Ok(Some(false)),
        (false, false) => {}
    }
    let on = env_bool(env, "PERFMARK_FAMILY_WISE")?;
    let per_test = env_bool(env, "PERFMARK_PER_TEST_CONFIDENCE")?.filter(|&p| p);
    match (on, per_test) {
        (Some(true), Some(true)) => Err(format!(
            "PERFMARK_FAMILY_WISE=1 and PERFMARK_PER_TEST_CONFIDENCE=1 {BOTH}"
        )),
        (Some(on), _) => Ok(Some(on)),
        (None, Some(true)) => Ok(Some(false)),
        _ => Ok(None),
    }
}

/// A between-run sd written as a percentage of the percent grammar
/// (`"2%"`, `"0.5 %"`), above 0% and below 100%, as a fraction.
fn between_run_sd(text: &str) -> Result<f64, String> {
    const ACCEPTS: &str = "expected a percentage such as `2%`, above 0% and below 100% \
                           (how much unchanged code moves between processes here, as an sd)";
    match perfmark_options::grammar::percent(text) {
        Ok(pct) if pct > 0.0 && pct < 100.0 => Ok(pct / 100.0),
        Ok(_) => Err(format!(
            "invalid between-run sd `{text}`: out of range; {ACCEPTS}"
        )),
        Err(perfmark_options::grammar::Refusal::Negative) => Err(format!(
            "invalid between-run sd `{text}`: an sd cannot be negative; {ACCEPTS}"
        )),
        Err(_) => Err(format!("invalid between-run sd `{text}`: {ACCEPTS}")),
    }
}

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
                            Only `--list --format terse` changes the output
    -q, --quiet             Alias to --format=terse
    -h, --help              Display this message
        --nocapture, --no-capture, --test-threads N, --show-output, --test,
        --bench, --color auto|always|never, --logfile PATH, -Z unstable-options
                            Accepted; perf tests run one at a time and their
                            output is never captured

Options (perfmark's; each also read from its variable):
        --verbose           The full account of each test (PERFMARK_VERBOSE=1)
        --save-baseline     Measure and write the baselines of the tests run
                            (PERFMARK_SAVE_BASELINE=1)
        --no-baseline       Ignore stored baselines (PERFMARK_NO_BASELINE=1)
        --baseline-dir DIR  Where baselines live (PERFMARK_BASELINE_DIR);
                            default perf-baselines/ in the package root
        --report-dir DIR    Where the reports go (PERFMARK_REPORT_DIR)
        --compare-with PATH Compare with another build of this test target,
                            slice by slice (PERFMARK_COMPARE_WITH)
        --per-test-confidence
                            With --compare-with: each test at its own
                            confidence (PERFMARK_PER_TEST_CONFIDENCE=1)

Variables only: PERFMARK_FORCE=1 (measure an unoptimized build),
PERFMARK_CONFIDENCE, PERFMARK_PRECISION, PERFMARK_REGRESSION,
PERFMARK_MAX_TIME, PERFMARK_WARMUP.

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
    compare_with: Option<PathBuf>,
    per_test_confidence: bool,
    no_remeasure: bool,
    no_lock: bool,
    family_wise: bool,
    between_run_sd: Option<f64>,
}

fn env_bool(env: &dyn Env, var: &str) -> Result<Option<bool>, String> {
    match env.get(var).as_deref().map(str::trim) {
        None => Ok(None),
        Some("1" | "true" | "yes" | "on") => Ok(Some(true)),
        Some("" | "0" | "false" | "no" | "off") => Ok(Some(false)),
        Some(other) => Err(format!(
            "{var}={other:?} is not understood: use 1/true/yes/on or 0/false/no/off"
        )),
    }
}

fn env_duration(
    env: &dyn Env,
    var: &str,
    parse: fn(&str) -> Result<u64, perfmark_options::OptionError>,
    default: Duration,
) -> Result<Duration, String> {
    match env.get(var) {
        None => Ok(default),
        Some(v) => parse(&v)
            .map(Duration::from_nanos)
            .map_err(|e| format!("{var}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct FakeEnv(HashMap<&'static str, &'static str>);

    impl Env for FakeEnv {
        fn get(&self, key: &str) -> Option<String> {
            self.0.get(key).map(|v| (*v).to_owned())
        }
    }

    pub(super) fn parse(
        args: &[&str],
        env: &[(&'static str, &'static str)],
    ) -> Result<Options, String> {
        let args = std::iter::once("perf")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        Options::parse(args, &FakeEnv(env.iter().copied().collect()))
    }

    #[test]
    fn perfmark_flags_are_split_from_libtest_flags() {
        let o = parse(
            &[
                "sort",
                "--exact",
                "--baseline-dir",
                "b",
                "--report-dir=r",
                "--save-baseline",
                "--nocapture",
            ],
            &[],
        )
        .unwrap();
        assert_eq!(o.libtest.filters, ["sort"]);
        assert!(o.libtest.exact && o.save_baseline && !o.no_baseline);
        assert_eq!(o.baseline_dir, Some(PathBuf::from("b")));
        assert_eq!(o.report_dir, Some(PathBuf::from("r")));
    }

    #[test]
    fn environment_variables_stand_in_for_flags_and_defaults() {
        let o = parse(
            &[],
            &[
                ("PERFMARK_NO_BASELINE", "1"),
                ("PERFMARK_BASELINE_DIR", "/tmp/b"),
                ("PERFMARK_MAX_TIME", "500ms"),
                ("PERFMARK_PRECISION", "2%"),
                ("PERFMARK_CONFIDENCE", "0.99"),
            ],
        )
        .unwrap();
        assert!(o.no_baseline);
        assert_eq!(o.baseline_dir, Some(PathBuf::from("/tmp/b")));
        assert_eq!(o.max_time, Duration::from_millis(500));
        assert_eq!(o.precision, 0.02);
        assert_eq!(o.confidence, 0.99);
        // The flag wins over the variable.
        let o = parse(
            &["--baseline-dir", "mine"],
            &[("PERFMARK_BASELINE_DIR", "/tmp/b")],
        )
        .unwrap();
        assert_eq!(o.baseline_dir, Some(PathBuf::from("mine")));
        let o = parse(&[], &[("PERFMARK_COMPARE_WITH", "../base/perf")]).unwrap();
        assert_eq!(o.compare_with, Some(PathBuf::from("../base/perf")));
        assert_eq!(o.family_wise, None);
        let o = parse(
            &["--compare-with=b", "--per-test-confidence"],
            &[("PERFMARK_COMPARE_WITH", "a")],
        )
        .unwrap();
        assert_eq!(o.compare_with, Some(PathBuf::from("b")));
        assert_eq!(o.family_wise, Some(false));
        assert!(!o.no_remeasure);
        assert!(parse(&["--no-remeasure"], &[]).unwrap().no_remeasure);
        assert!(
            parse(&[], &[("PERFMARK_NO_REMEASURE", "1")])
                .unwrap()
                .no_remeasure
        );
        let o = parse(&[], &[]).unwrap();
        assert!(!o.no_lock && o.lock_dir.is_none());
        assert!(parse(&["--no-lock"], &[]).unwrap().no_lock);
        let o = parse(
            &[],
            &[
                ("PERFMARK_NO_LOCK", "1"),
                ("PERFMARK_LOCK_DIR", "/run/perf"),
            ],
        )
        .unwrap();
        assert!(o.no_lock);
        assert_eq!(o.lock_dir, Some(PathBuf::from("/run/perf")));
    }

    #[test]
    fn one_family_wise_setting_with_a_default_per_mode() {
        let fw = |args: &[&str], env: &[(&'static str, &'static str)]| {
            parse(args, env).map(|o| (o.family_wise_in(false), o.family_wise_in(true)))
        };
        // The defaults: per test with stored baselines, family-wise when
        // comparing two builds.
        assert_eq!(fw(&[], &[]), Ok((false, true)));
        assert_eq!(fw(&["--family-wise"], &[]), Ok((true, true)));
        assert_eq!(fw(&["--per-test-confidence"], &[]), Ok((false, false)));
        assert_eq!(fw(&[], &[("PERFMARK_FAMILY_WISE", "1")]), Ok((true, true)));
        assert_eq!(
            fw(&[], &[("PERFMARK_FAMILY_WISE", "0")]),
            Ok((false, false))
        );
        assert_eq!(
            fw(&[], &[("PERFMARK_PER_TEST_CONFIDENCE", "1")]),
            Ok((false, false))
        );
        assert_eq!(
            fw(&[], &[("PERFMARK_PER_TEST_CONFIDENCE", "0")]),
            Ok((false, true))
        );
        // A flag wins over a variable.
        assert_eq!(
            fw(&["--per-test-confidence"], &[("PERFMARK_FAMILY_WISE", "1")]),
            Ok((false, false))
        );
        let e = fw(&["--family-wise", "--per-test-confidence"], &[]).unwrap_err();
        assert!(e.contains("cannot be used together"), "{e}");
        let e = fw(
            &[],
            &[
                ("PERFMARK_FAMILY_WISE", "1"),
                ("PERFMARK_PER_TEST_CONFIDENCE", "1"),
            ],
        )
        .unwrap_err();
        assert!(e.contains("cannot be used together"), "{e}");
    }

    #[test]
    fn the_between_run_sd_is_a_percentage_from_the_flag_or_the_variable() {
        assert_eq!(parse(&[], &[]).unwrap().between_run_sd, None);
        let o = parse(&["--between-run-sd", "3%"], &[]).unwrap();
        assert_eq!(o.between_run_sd, Some(0.03));
        let o = parse(&[], &[("PERFMARK_BETWEEN_RUN_SD", "0.5 %")]).unwrap();
        assert_eq!(o.between_run_sd, Some(0.005));
        let o = parse(
            &["--between-run-sd=4%"],
            &[("PERFMARK_BETWEEN_RUN_SD", "1%")],
        )
        .unwrap();
        assert_eq!(o.between_run_sd, Some(0.04));
        for bad in ["2", "0%", "100%", "2 %%", "1e1%"] {
            let e = parse(&["--between-run-sd", bad], &[]).unwrap_err();
            assert!(
                e.starts_with("--between-run-sd: invalid between-run sd"),
                "{bad}: {e}"
            );
            assert!(e.contains("such as `2%`"), "{e}");
        }
        let e = parse(&[], &[("PERFMARK_BETWEEN_RUN_SD", "-2%")]).unwrap_err();
        assert!(
            e.starts_with("PERFMARK_BETWEEN_RUN_SD:") && e.contains("negative"),
            "{e}"
        );
        let e = parse(&["--between-run-sd"], &[]).unwrap_err();
        assert!(e.contains("--between-run-sd 2%"), "{e}");
    }

    #[test]
    fn bad_values_say_what_is_accepted() {
        let e = parse(&[], &[("PERFMARK_FORCE", "maybe")]).unwrap_err();
        assert!(e.contains("PERFMARK_FORCE") && e.contains("1/true"), "{e}");
        let e = parse(&[], &[("PERFMARK_MAX_TIME", "2 parsecs")]).unwrap_err();
        assert!(e.contains("PERFMARK_MAX_TIME") && e.contains("ms"), "{e}");
        let e = parse(&["--baseline-dir"], &[]).unwrap_err();
        assert!(e.contains("--baseline-dir DIR"), "{e}");
        let e = parse(&["--compare-with"], &[]).unwrap_err();
        assert!(e.contains("--compare-with PATH"), "{e}");
        let e = parse(&["--compare-with", "b", "--save-baseline"], &[]).unwrap_err();
        assert!(e.contains("cannot be used together"), "{e}");
        let e = parse(&["--save-baseline", "--no-baseline"], &[]).unwrap_err();
        assert!(e.contains("cannot be used together"), "{e}");
    }
}
