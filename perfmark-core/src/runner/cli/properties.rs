//! Property tests of the command line and the `PERFMARK_*` variables
//! ([`Options::parse`]): every value of every variable, every flag in any
//! order, as text or as bytes that are not UTF-8. Each is taken, or refused
//! with a message that names the flag or variable and says what it accepts;
//! nothing panics. The case count and seed: `tests/common/props.rs`.

use std::collections::HashMap;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

use proptest::prelude::*;

use crate::props;

use super::{Env, Options, SWITCHES};

/// Every variable the test binary reads.
const VARIABLES: [&str; 20] = [
    "PERFMARK_SAVE_BASELINE",
    "PERFMARK_NO_BASELINE",
    "PERFMARK_VERBOSE",
    "PERFMARK_FORCE",
    "PERFMARK_BASELINE_DIR",
    "PERFMARK_REPORT_DIR",
    "PERFMARK_CONFIDENCE",
    "PERFMARK_PRECISION",
    "PERFMARK_REGRESSION",
    "PERFMARK_MAX_TIME",
    "PERFMARK_WARMUP",
    "PERFMARK_COMPARE_WITH",
    "PERFMARK_PER_TEST_CONFIDENCE",
    "PERFMARK_FAMILY_WISE",
    "PERFMARK_BETWEEN_RUN_SD",
    "PERFMARK_WORKER_TIMEOUT",
    "PERFMARK_NO_REMEASURE",
    "PERFMARK_NO_PIN",
    "PERFMARK_NO_PROCESSES",
    "PERFMARK_TIMEOUT",
];

/// The flags that take a value.
const VALUED_FLAGS: [&str; 5] = [
    "--baseline-dir",
    "--report-dir",
    "--compare-with",
    "--between-run-sd",
    "--timeout",
];

struct Vars(HashMap<String, OsString>);

impl Env for Vars {
    fn get(&self, key: &str) -> Option<OsString> {
        self.0.get(key).cloned()
    }
}

/// Values near what the variables and flags take, any text, and bytes.
fn value() -> impl Strategy<Value = OsString> {
    prop_oneof![
        4 => "[-+ ]?[0-9]{0,3}(\\.[0-9]{0,3})? ?(ns|us|µs|ms|s|%)?".prop_map(OsString::from),
        2 => prop::sample::select(vec![
            "1", "0", "true", "false", "yes", "no", "on", "off", " 1 ", "", "TRUE", "2",
            "0.95", "0.5", "1", "5%", "100%", "2s", "0s", "1ms", "0.5ms", "90s",
        ])
        .prop_map(OsString::from),
        2 => any::<String>().prop_map(OsString::from),
        1 => prop::collection::vec(any::<u8>(), 0..12).prop_map(OsString::from_vec),
    ]
}

/// Checks what a successful parse holds: every level and fraction in its
/// range, every duration positive where it must be.
fn sound(o: &Options) -> Result<(), TestCaseError> {
    prop_assert!(o.confidence > 0.5 && o.confidence < 1.0);
    prop_assert!(o.precision > 0.0 && o.precision < 1.0);
    prop_assert!((0.0..1.0).contains(&o.regression));
    prop_assert!(!o.max_time.is_zero());
    prop_assert!(o.timeout.is_none_or(|t| t.as_nanos() >= 1_000_000));
    prop_assert!(o.between_run_sd.is_none_or(|sd| sd > 0.0 && sd < 1.0));
    prop_assert!(!o.worker_timeout.is_zero());
    for dir in [&o.baseline_dir, &o.report_dir] {
        prop_assert!(dir.as_ref().is_none_or(|d| !d.as_os_str().is_empty()));
    }
    for link in o.compare_with.iter().chain(&o.head_layouts) {
        prop_assert!(!link.as_os_str().is_empty());
    }
    prop_assert!(!(o.save_baseline && o.no_baseline));
    Ok(())
}

#[test]
fn every_variable_value_is_taken_or_refused_by_name() {
    props::check(
        "cli: every PERFMARK_* variable",
        (prop::sample::select(VARIABLES.to_vec()), value()),
        |(var, value)| {
            let env = Vars(HashMap::from([(var.to_owned(), value.clone())]));
            match Options::parse(vec!["perf".into()], &env) {
                Ok(o) => sound(&o)?,
                Err(e) => {
                    prop_assert!(e.is_usage(), "{var}={value:?}: {e}");
                    let message = e.to_string();
                    prop_assert!(message.starts_with(var), "{var}={value:?}: {message}");
                    prop_assert!(
                        message.contains("expected") || message.contains("use 1/true"),
                        "{var}={value:?}: {message}"
                    );
                }
            }
            Ok(())
        },
    );
}

/// One perfmark flag as written on the command line: a switch, or a flag
/// with its value inline (`--flag=value`) or as the next argument.
#[derive(Debug, Clone)]
enum Flag {
    Switch(&'static str, Option<OsString>),
    Valued(&'static str, OsString, bool),
}

fn flag() -> impl Strategy<Value = Flag> {
    prop_oneof![
        (
            prop::sample::select(SWITCHES.to_vec()),
            prop::option::weighted(0.1, value())
        )
            .prop_map(|(name, inline)| Flag::Switch(name, inline)),
        (
            prop::sample::select(VALUED_FLAGS.to_vec()),
            value(),
            any::<bool>()
        )
            .prop_map(|(name, value, inline)| Flag::Valued(name, value, inline)),
    ]
}

/// What parsing `flags` must give, worked out independently of the parser:
/// the name of the flag it refuses, or the values it takes (the last of a
/// repeated flag).
#[derive(Debug, Default)]
struct Expected {
    switches: Vec<&'static str>,
    values: HashMap<&'static str, OsString>,
}

fn expected(flags: &[Flag]) -> Result<Expected, &'static str> {
    let mut e = Expected::default();
    for flag in flags {
        match flag {
            Flag::Switch(name, Some(_)) => return Err(name),
            Flag::Switch(name, None) => e.switches.push(name),
            Flag::Valued(name, value, inline) => {
                // A separate value starting with `--x=` is still a value.
                let _ = inline;
                if value.is_empty() {
                    return Err(name);
                }
                if *name == "--timeout" {
                    let ok = value
                        .to_str()
                        .and_then(|t| perfmark_options::grammar::duration_ns(t).ok())
                        .is_some_and(|ns| ns >= 1e6);
                    if !ok {
                        return Err(name);
                    }
                }
                if *name == "--between-run-sd" {
                    let ok = value
                        .to_str()
                        .and_then(|t| perfmark_options::grammar::percent(t).ok())
                        .is_some_and(|pct| pct > 0.0 && pct < 100.0);
                    if !ok {
                        return Err(name);
                    }
                }
                e.values.insert(name, value.clone());
            }
        }
    }
    let has = |name| e.switches.contains(&name);
    if has("--family-wise") && has("--per-test-confidence") {
        return Err("--family-wise");
    }
    if has("--save-baseline") && (has("--no-baseline") || e.values.contains_key("--compare-with")) {
        return Err("--save-baseline");
    }
    Ok(e)
}

#[test]
fn flags_in_any_order_are_taken_or_refused_by_name() {
    props::check(
        "cli: perfmark's flags in any order",
        (
            prop::collection::vec(flag(), 0..6),
            prop::option::of("[a-z_:]{1,8}"),
            any::<bool>(),
        ),
        |(flags, filter, exact)| {
            let mut args: Vec<OsString> = vec!["perf".into()];
            for flag in &flags {
                match flag {
                    Flag::Switch(name, None) => args.push(name.into()),
                    Flag::Switch(name, Some(v)) => {
                        let mut arg = OsString::from(format!("{name}="));
                        arg.push(v);
                        args.push(arg);
                    }
                    Flag::Valued(name, v, true) => {
                        let mut arg = OsString::from(format!("{name}="));
                        arg.push(v);
                        args.push(arg);
                    }
                    Flag::Valued(name, v, false) => {
                        args.push(name.into());
                        args.push(v.clone());
                    }
                }
            }
            // libtest's own flags and filter pass through to libtest's
            // parser (`libtest_args.rs`, tested on its own): only what it
            // accepts is generated here.
            if exact {
                args.push("--exact".into());
            }
            if let Some(filter) = &filter {
                args.push(filter.into());
            }
            let result =
                Options::parse(args.clone(), &Vars(HashMap::new())).map_err(|e| e.to_string());
            match (expected(&flags), result) {
                (Ok(e), Ok(o)) => {
                    sound(&o)?;
                    prop_assert_eq!(&o.libtest.filters, &Vec::from_iter(filter.clone()));
                    prop_assert_eq!(o.libtest.exact, exact);
                    prop_assert_eq!(o.save_baseline, e.switches.contains(&"--save-baseline"));
                    prop_assert_eq!(o.no_baseline, e.switches.contains(&"--no-baseline"));
                    prop_assert_eq!(o.verbose, e.switches.contains(&"--verbose"));
                    let path = |flag| e.values.get(flag).map(PathBuf::from);
                    prop_assert_eq!(o.baseline_dir, path("--baseline-dir"));
                    prop_assert_eq!(o.report_dir, path("--report-dir"));
                    // Repeated, each is another link; the last is the map's.
                    prop_assert_eq!(o.compare_with.last().cloned(), path("--compare-with"));
                    prop_assert_eq!(o.timeout.is_some(), e.values.contains_key("--timeout"));
                    prop_assert_eq!(
                        o.between_run_sd.is_some(),
                        e.values.contains_key("--between-run-sd")
                    );
                    prop_assert_eq!(o.no_remeasure, e.switches.contains(&"--no-remeasure"));
                    prop_assert_eq!(o.no_pin, e.switches.contains(&"--no-pin"));
                    prop_assert_eq!(o.no_processes, e.switches.contains(&"--no-processes"));
                    let family_wise = if e.switches.contains(&"--family-wise") {
                        Some(true)
                    } else if e.switches.contains(&"--per-test-confidence") {
                        Some(false)
                    } else {
                        None
                    };
                    prop_assert_eq!(o.family_wise, family_wise);
                }
                (Err(name), Err(message)) => {
                    prop_assert!(message.contains(name), "{args:?}: {message}");
                }
                (e, o) => prop_assert!(false, "{args:?}: expected {e:?}, got {o:?}"),
            }
            Ok(())
        },
    );
}
