//! The command line and environment: libtest's flags (parsed by
//! libtest-mimic) and perfmark's own, each with a `PERFMARK_…` variable.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use libtest_mimic::Arguments;

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
    /// Compared tests each at their own confidence, with no correction for
    /// how many are compared in the run.
    pub(super) per_test_confidence: bool,
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
}

impl Options {
    /// Splits perfmark's flags from libtest's, which libtest-mimic parses;
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
                "--no-remeasure" => flags.no_remeasure = true,
                "--no-lock" => flags.no_lock = true,
                _ => rest.push(arg),
            }
        }
        let libtest = Arguments::from_iter(rest);
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
        assert_eq!(o.libtest.filter.as_deref(), Some("sort"));
        assert!(o.libtest.exact && o.libtest.nocapture && o.save_baseline && !o.no_baseline);
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
