use super::*;
use std::collections::HashMap;

struct FakeEnv(HashMap<&'static str, &'static str>);

impl Env for FakeEnv {
    fn get(&self, key: &str) -> Option<OsString> {
        self.0.get(key).map(OsString::from)
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
    Options::parse(args, &FakeEnv(env.iter().copied().collect())).map_err(|e| {
        assert!(e.is_usage(), "{e}");
        e.to_string()
    })
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
    assert_eq!(o.compare_with, [PathBuf::from("../base/perf")]);
    assert_eq!(o.family_wise, None);
    let o = parse(
        &["--compare-with=b", "--per-test-confidence"],
        &[("PERFMARK_COMPARE_WITH", "a")],
    )
    .unwrap();
    assert_eq!(o.compare_with, [PathBuf::from("b")]);
    assert_eq!(o.family_wise, Some(false));
    assert!(!o.no_remeasure);
    assert!(parse(&["--no-remeasure"], &[]).unwrap().no_remeasure);
    assert!(
        parse(&[], &[("PERFMARK_NO_REMEASURE", "1")])
            .unwrap()
            .no_remeasure
    );
    assert!(!parse(&[], &[]).unwrap().no_pin);
    assert!(parse(&["--no-pin"], &[]).unwrap().no_pin);
    assert!(parse(&[], &[("PERFMARK_NO_PIN", "1")]).unwrap().no_pin);
    assert!(parse(&["--no-pin=yes"], &[]).is_err());
    assert!(!parse(&[], &[]).unwrap().no_processes);
    assert!(parse(&["--no-processes"], &[]).unwrap().no_processes);
    assert!(
        parse(&[], &[("PERFMARK_NO_PROCESSES", "1")])
            .unwrap()
            .no_processes
    );
    let o = parse(&[], &[]).unwrap();
    assert!(!o.no_lock && o.lock_dir.is_none());
    assert!(parse(&["--no-lock"], &[]).unwrap().no_lock);
    // A switch takes no value, this one like the others.
    let e = parse(&["--no-lock=yes"], &[]).unwrap_err().to_string();
    assert!(e.contains("--no-lock"), "{e}");
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
    // Links: the flag repeated, or the variable's paths joined by `:`.
    let o = parse(
        &[
            "--compare-with",
            "b0",
            "--compare-with=b1",
            "--head-layout",
            "h1",
        ],
        &[("PERFMARK_HEAD_LAYOUTS", "x:y")],
    )
    .unwrap();
    assert_eq!(o.compare_with, [PathBuf::from("b0"), PathBuf::from("b1")]);
    assert_eq!(o.head_layouts, [PathBuf::from("h1")]);
    let o = parse(
        &[],
        &[
            ("PERFMARK_COMPARE_WITH", "b0:b1"),
            ("PERFMARK_HEAD_LAYOUTS", "h0::h1"),
        ],
    )
    .unwrap();
    assert_eq!(o.compare_with, [PathBuf::from("b0"), PathBuf::from("b1")]);
    assert_eq!(o.head_layouts, [PathBuf::from("h0"), PathBuf::from("h1")]);
    let e = parse(&["--head-layout", "h1"], &[]).unwrap_err();
    assert!(e.to_string().contains("--compare-with PATH"), "{e}");
    let e = parse(&["--compare-with"], &[]).unwrap_err();
    assert!(e.contains("--compare-with PATH"), "{e}");
    let e = parse(&["--compare-with", "b", "--save-baseline"], &[]).unwrap_err();
    assert!(e.contains("cannot be used together"), "{e}");
    let e = parse(&["--save-baseline", "--no-baseline"], &[]).unwrap_err();
    assert!(e.contains("cannot be used together"), "{e}");
}

/// Cases the property tests (`cli/properties.rs`) found, kept.
#[test]
#[cfg(unix)]
fn found_by_generated_inputs() {
    use std::os::unix::ffi::OsStringExt;
    let not_utf8 = || OsString::from_vec(vec![b'5', 0xff, b's']);
    // A value that is not UTF-8 was taken for "not set": the default
    // applied without a word.
    struct Bytes(OsString);
    impl Env for Bytes {
        fn get(&self, key: &str) -> Option<OsString> {
            (key == "PERFMARK_MAX_TIME" || key == "PERFMARK_BASELINE_DIR").then(|| self.0.clone())
        }
    }
    let e = Options::parse(vec!["perf".into()], &Bytes(not_utf8()))
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("PERFMARK_MAX_TIME=") && e.contains("not valid UTF-8"),
        "{e}"
    );
    assert!(e.contains("expected a positive duration string"), "{e}");
    // A path may be any bytes: the directory is taken as given.
    let args = vec!["perf".into(), "--baseline-dir".into(), not_utf8()];
    let o = Options::parse(args, &FakeEnv(HashMap::new())).unwrap();
    assert_eq!(o.baseline_dir, Some(PathBuf::from(not_utf8())));
    // A variable set but empty is not set: `PERFMARK_BASELINE_DIR=`
    // meant the package root itself.
    let o = parse(
        &[],
        &[("PERFMARK_BASELINE_DIR", ""), ("PERFMARK_REPORT_DIR", "")],
    )
    .unwrap();
    assert_eq!((o.baseline_dir, o.report_dir), (None, None));
    let e = parse(&["--baseline-dir="], &[]).unwrap_err();
    assert!(e.contains("--baseline-dir needs a directory"), "{e}");
    // A non-UTF-8 value given inline went to libtest's parser, which
    // exited with "unexpected argument '--baseline-dir'".
    let mut inline = OsString::from("--baseline-dir=");
    inline.push(not_utf8());
    let o = Options::parse(vec!["perf".into(), inline], &FakeEnv(HashMap::new())).unwrap();
    assert_eq!(o.baseline_dir, Some(PathBuf::from(not_utf8())));
    let mut inline = OsString::from("--timeout=");
    inline.push(not_utf8());
    let e = Options::parse(vec!["perf".into(), inline], &FakeEnv(HashMap::new()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("--timeout needs a duration") && e.contains("not UTF-8"),
        "{e}"
    );
    // A switch given a value ignored it: `--save-baseline=false` saved.
    for switch in SWITCHES {
        let e = parse(&[&format!("{switch}=false")], &[]).unwrap_err();
        assert_eq!(
            e,
            format!("{switch} takes no value: give {switch} alone, or leave it out")
        );
    }
}

#[test]
fn the_timeout_takes_a_duration_from_the_flag_or_the_variable() {
    assert_eq!(parse(&[], &[]).unwrap().timeout, None);
    let o = parse(&["--timeout", "90s"], &[("PERFMARK_TIMEOUT", "1s")]).unwrap();
    assert_eq!(o.timeout, Some(Duration::from_secs(90)));
    let o = parse(&[], &[("PERFMARK_TIMEOUT", "1.5 s")]).unwrap();
    assert_eq!(o.timeout, Some(Duration::from_millis(1500)));
    for bad in ["0s", "0.5ms", "ten", "-5s", ""] {
        let e = parse(&[], &[("PERFMARK_TIMEOUT", bad)]).unwrap_err();
        assert!(e.starts_with("PERFMARK_TIMEOUT: `"), "{e}");
        assert!(e.contains("expected a positive duration"), "{e}");
    }
    let e = parse(&["--timeout=5 parsecs"], &[]).unwrap_err();
    assert!(
        e.starts_with("--timeout: `5 parsecs` is not understood"),
        "{e}"
    );
    let e = parse(&["--timeout"], &[]).unwrap_err();
    assert!(e.contains("--timeout needs a duration"), "{e}");
}
