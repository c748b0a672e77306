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
    /// Compared tests each at their own confidence, with no correction for
    /// how many are compared in the run.
    pub(super) per_test_confidence: bool,
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
                        let what = if flag == "--compare-with" {
                            "the path of another build of this test binary: --compare-with PATH"
                        } else {
                            "a directory: {flag} DIR"
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
                _ => rest.push(arg),
            }
        }
        let libtest = Arguments::parse(rest)?;
        let flag = |set: bool, var: &str| -> Result<bool, String> {
            Ok(set || env_bool(env, var)?.unwrap_or(false))
        };
        let options = Options {
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
                Some(v) => {
                    option_text::confidence(&v).map_err(|e| format!("PERFMARK_CONFIDENCE: {e}"))?
                }
                None => DEFAULT_CONFIDENCE,
            },
            precision: match env.get("PERFMARK_PRECISION") {
                Some(v) => {
                    option_text::precision(&v).map_err(|e| format!("PERFMARK_PRECISION: {e}"))?
                }
                None => DEFAULT_PRECISION,
            },
            regression: match env.get("PERFMARK_REGRESSION") {
                Some(v) => {
                    option_text::regression(&v).map_err(|e| format!("PERFMARK_REGRESSION: {e}"))?
                }
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
            per_test_confidence: flag(flags.per_test_confidence, "PERFMARK_PER_TEST_CONFIDENCE")?,
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
        assert!(!o.per_test_confidence);
        let o = parse(
            &["--compare-with=b", "--per-test-confidence"],
            &[("PERFMARK_COMPARE_WITH", "a")],
        )
        .unwrap();
        assert_eq!(o.compare_with, Some(PathBuf::from("b")));
        assert!(o.per_test_confidence);
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
