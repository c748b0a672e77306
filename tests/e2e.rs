//! End to end: a user's crate (`tests/fixtures/basic`) built and run by
//! cargo the way a user would, checked against libtest's behaviour and
//! perfmark's contract (the README's "Setup in your crate" through
//! "Options").

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod support;
use support::{explain, fixture_dir, fixture_target_dir, result_lines, result_summary, stdout};

/// Runs `cargo test [--release] --test perf -- ARGS` in the fixture crate,
/// building it first if need be, with nothing else of this file running.
fn cargo_perf(release: bool, args: &[&str], envs: &[(&str, &str)]) -> Output {
    let _alone = support::alone();
    build_once(release);
    // Not `cargo test --quiet`: cargo passes `--quiet` on to the test
    // binary, which then prints libtest's terse output.
    let test: &[&str] = if release {
        &["test", "--release"]
    } else {
        &["test"]
    };
    support::cargo_in_fixture(&[test, &["--test", "perf", "--"], args].concat(), envs)
}

/// Builds the fixture's test binary once per profile.
fn build_once(release: bool) {
    static RELEASE: OnceLock<()> = OnceLock::new();
    static DEBUG: OnceLock<()> = OnceLock::new();
    let once = if release { &RELEASE } else { &DEBUG };
    once.get_or_init(|| {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.current_dir(fixture_dir())
            .args(["test", "--no-run", "--quiet", "--test", "perf"]);
        if release {
            cmd.arg("--release");
        }
        let out = cmd
            .env("CARGO_TARGET_DIR", fixture_target_dir())
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "fixture build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

#[test]
fn a_test_far_under_budget_passes() {
    let out = cargo_perf(true, &["fast_add", "--exact"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test fast_add ... ok"]);
    let text = stdout(&out);
    assert!(text.contains("within budget 1.000 ms"), "{text}");
    assert!(
        result_summary(&out).starts_with("test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 10 filtered out; finished in "),
        "{text}"
    );
}

#[test]
fn a_test_far_over_budget_fails_with_101() {
    let out = cargo_perf(true, &["slow_spin"], &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test slow_spin ... FAILED"]);
    let text = stdout(&out);
    assert!(text.contains("over budget 10.00 ns"), "{text}");
    assert!(text.contains("failures:\n    slow_spin"), "{text}");
    assert!(
        result_summary(&out).starts_with("test result: FAILED. 0 passed; 1 failed;"),
        "{text}"
    );
}

/// A plain `cargo test` compiles neither the paired comparison's
/// coordinator nor counting: asked for them, the test binary says which
/// feature it lacks and how to get it, and measures nothing.
#[test]
fn a_plain_build_refuses_what_it_was_built_without() {
    for (args, feature, tool) in [
        (
            &["--compare-with", "/nonexistent"][..],
            "`compare`",
            "cargo perfmark compare",
        ),
        (
            &["--instructions"][..],
            "`instructions`",
            "cargo perfmark baseline --instructions",
        ),
    ] {
        let out = cargo_perf(true, &[&["fast_add", "--exact"], args].concat(), &[]);
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        let text = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
        assert!(
            text.contains(&format!("needs perfmark's {feature} feature")),
            "{text}"
        );
        assert!(text.contains(tool), "{text}");
        assert!(result_lines(&out).is_empty(), "{text}");
    }
}

#[test]
fn synthetic_timings_through_iter_custom_get_the_right_verdicts() {
    let out = cargo_perf(true, &["custom_"], &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        [
            "test custom_over ... FAILED",
            "test custom_scaled ... ok",
            "test custom_under ... ok"
        ]
    );
    let text = stdout(&out);
    assert!(
        text.contains("median 100.0 ns/iter [100.0 ns, 100.0 ns]"),
        "{text}"
    );
}

#[test]
fn a_panicking_body_fails_only_its_own_test() {
    let out = cargo_perf(true, &["--skip", "slow_spin", "--skip", "custom_over"], &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let lines = result_lines(&out);
    assert!(
        lines.contains(&"test panics ... FAILED".to_owned()),
        "{lines:?}"
    );
    let failed: Vec<_> = lines.iter().filter(|l| l.ends_with("FAILED")).collect();
    assert_eq!(failed, ["test panics ... FAILED"], "{}", explain(&out));
    let text = stdout(&out);
    assert!(
        text.contains("boom: the fixture panics on purpose"),
        "{text}"
    );
    assert!(
        result_summary(&out).contains("7 passed; 1 failed; 1 ignored; 0 measured; 2 filtered out"),
        "{text}"
    );
}

#[test]
fn filters_and_exact_select_as_libtest_does() {
    // A substring filter selects both nested tests and the parameterized ones.
    let out = cargo_perf(true, &["--list", "inner"], &[]);
    assert_eq!(
        stdout(&out),
        "group::inner: test\ngroup::inner_batched: test\n\n2 tests, 0 benchmarks\n"
    );
    let out = cargo_perf(true, &["--list", "--exact", "group::inner"], &[]);
    assert_eq!(
        stdout(&out),
        "group::inner: test\n\n1 tests, 0 benchmarks\n"
    );
    let out = cargo_perf(true, &["--list", "with_args::1"], &[]);
    assert_eq!(
        stdout(&out),
        "with_args::10: test\nwith_args::100: test\n\n2 tests, 0 benchmarks\n"
    );
    let out = cargo_perf(true, &["--list", "--exact", "with_args::10"], &[]);
    assert_eq!(
        stdout(&out),
        "with_args::10: test\n\n1 tests, 0 benchmarks\n"
    );
    let out = cargo_perf(
        true,
        &[
            "--list",
            "--skip",
            "custom",
            "--skip",
            "with_args",
            "--skip",
            "group",
        ],
        &[],
    );
    assert_eq!(
        stdout(&out),
        "fast_add: test\nignored_slow: test\npanics: test\nslow_spin: test\n\n4 tests, 0 benchmarks\n"
    );
}

#[test]
fn list_terse_is_what_nextest_reads() {
    let out = cargo_perf(true, &["--list", "--format", "terse"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let expected = [
        "custom_over",
        "custom_scaled",
        "custom_under",
        "fast_add",
        "group::inner",
        "group::inner_batched",
        "ignored_slow",
        "panics",
        "slow_spin",
        "with_args::10",
        "with_args::100",
    ];
    let listed: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    let want: Vec<String> = expected.iter().map(|n| format!("{n}: test")).collect();
    assert_eq!(listed, want);
    let out = cargo_perf(true, &["--list", "--format", "terse", "--ignored"], &[]);
    assert_eq!(stdout(&out), "ignored_slow: test\n");
}

#[test]
fn the_command_line_is_libtests() {
    // Several filters select the tests matching any of them.
    let out = cargo_perf(true, &["--list", "slow_spin", "fast_add"], &[]);
    assert_eq!(
        stdout(&out),
        "fast_add: test\nslow_spin: test\n\n2 tests, 0 benchmarks\n"
    );
    // -q alone is --format terse.
    let out = cargo_perf(true, &["-q", "--list", "--exact", "fast_add"], &[]);
    assert_eq!(stdout(&out), "fast_add: test\n");
    // A mistake is libtest's error, with libtest's exit status.
    let out = cargo_perf(true, &["--list", "--foo"], &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("error: Unrecognized option: 'foo'\n"),
        "{}",
        explain(&out)
    );
    let out = cargo_perf(true, &["--help"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(stdout(&out).starts_with("Usage: "), "{}", explain(&out));
    assert!(
        stdout(&out).contains("--save-baseline"),
        "{}",
        explain(&out)
    );
}

#[test]
fn ignored_tests_are_reported_and_run_on_request() {
    let out = cargo_perf(true, &["ignored_slow"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(
        result_lines(&out),
        ["test ignored_slow ... ignored, too slow for CI"]
    );
    assert!(result_summary(&out).contains("0 passed; 0 failed; 1 ignored;"));
    let out = cargo_perf(
        true,
        &["--ignored", "--exact", "ignored_slow"],
        &[("PERFMARK_MAX_TIME", "200ms")],
    );
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test ignored_slow ... ok"]);
}

#[test]
fn an_unoptimized_build_passes_as_not_measured() {
    let out = cargo_perf(false, &["slow_spin"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test slow_spin ... ok"]);
    let text = stdout(&out);
    assert!(
        text.contains("not measured: unoptimized build, run `cargo test --release`"),
        "{text}"
    );
    // PERFMARK_FORCE enforces the budget anyway.
    let out = cargo_perf(false, &["slow_spin"], &[("PERFMARK_FORCE", "1")]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
}

#[test]
fn the_header_names_the_platform_and_the_timer() {
    let out = cargo_perf(true, &["fast_add", "--exact"], &[]);
    let text = stdout(&out);
    let header: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("running "))
        .collect();
    let first = header.first().copied().unwrap_or_default();
    assert!(first.starts_with("perfmark 0.1.0 · linux"), "{text}");
    assert!(
        first.contains("cores") && first.contains("rustc") && first.ends_with("release build"),
        "{text}"
    );
    assert!(
        header
            .iter()
            .any(|l| l.starts_with("timer: Instant, resolution ") && l.contains("noise floor")),
        "{text}"
    );
}

#[test]
fn report_json_has_the_stable_core() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-report");
    let _ = std::fs::remove_dir_all(&dir);
    // A page left by an earlier run, which the new report.json would belie.
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("report.html"), "<p>an earlier run</p>").unwrap();
    let out = cargo_perf(
        true,
        &["custom_", "--report-dir", dir.to_str().unwrap()],
        &[],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["schema"], 1);
    let tests = report["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 3);
    let over = &tests[0];
    assert_eq!(over["name"], "custom_over");
    assert_eq!(over["verdict"], "fail");
    assert!(over["reasons"][0].as_str().unwrap().contains("over budget"));
    let est = &over["estimate"];
    assert_eq!(est["statistic"], "median");
    assert_eq!(est["ns_per_iter"], 100.0);
    assert_eq!(est["ci_low"], 100.0);
    assert_eq!(est["ci_high"], 100.0);
    assert_eq!(est["confidence"], 0.95);
    assert!(over["samples"].as_u64().unwrap() >= 30);
    assert!(over["iters_per_sample"].as_u64().unwrap() >= 10_000);
    assert_eq!(tests[2]["name"], "custom_under");
    assert_eq!(tests[2]["verdict"], "pass");
    assert!(dir.join("summary.md").exists());
    // The page is `cargo perfmark report`'s: the test binary removed the
    // earlier one and drew none, and the header says how to draw it.
    assert!(!dir.join("report.html").exists(), "{}", explain(&out));
    assert!(
        stdout(&out).contains(&format!(
            "(the page: cargo perfmark report {})\n",
            dir.display()
        )),
        "{}",
        explain(&out)
    );
    let page = cargo_perfmark::report::draw_page(&dir).expect("the page is drawn");
    assert_eq!(page.tests, 3);
    let html = std::fs::read_to_string(&page.path).expect("report.html written");
    assert!(html.contains("custom_over") && html.contains("<svg"));
}

#[test]
fn each_test_is_held_on_one_cpu_unless_told_not_to() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-cpu");
    let run = |extra: &[&str], envs: &[(&str, &str)]| -> serde_json::Value {
        let _ = std::fs::remove_dir_all(&dir);
        let mut args = vec!["fast_add", "--exact", "--verbose", "--report-dir"];
        args.push(dir.to_str().unwrap());
        args.extend_from_slice(extra);
        let out = cargo_perf(true, &args, envs);
        assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("placement: "), "{}", explain(&out));
        let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
        let report: serde_json::Value = serde_json::from_str(&text).unwrap();
        report["tests"][0]["cpu"].clone()
    };
    if !cfg!(target_os = "linux") {
        return;
    }
    let cpu = run(&[], &[]);
    let allowed = cpu["allowed"].as_u64().expect("the allowed set is read");
    if allowed > 1 {
        assert!(cpu["not_pinned"].is_null(), "{cpu}");
        let on = cpu["cpus"].as_array().unwrap();
        assert_eq!(on.len(), 1, "{cpu}");
        assert!(on[0].as_u64().is_some(), "{cpu}");
    } else {
        assert_eq!(cpu["not_pinned"], "one_cpu", "{cpu}");
    }
    for off in [
        run(&["--no-pin"], &[]),
        run(&[], &[("PERFMARK_NO_PIN", "1")]),
    ] {
        assert_eq!(off["not_pinned"], "turned_off", "{off}");
        assert_eq!(off["cpus"].as_array().map(Vec::len), Some(0), "{off}");
    }
}

#[test]
fn report_json_has_the_interference_fields() {
    // What the figures are depends on the machine (and on what else runs
    // on it): only that the fields are there and consistent is checked.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("e2e-interference");
    let _ = std::fs::remove_dir_all(&dir);
    let out = cargo_perf(
        true,
        &["fast_add", "--exact", "--report-dir", dir.to_str().unwrap()],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let coverage = &report["interference"];
    let observed = coverage["observed"]
        .as_bool()
        .expect("interference.observed");
    assert!(
        coverage["sources"].is_array() && coverage["missing"].is_array(),
        "{coverage}"
    );
    assert_eq!(coverage["lost_share_threshold"], 0.05);
    assert_eq!(coverage["min_lost_s"], 0.01);
    let test = &report["tests"][0];
    assert!(test["remeasured"].is_null(), "a pass is never re-measured");
    if !observed {
        assert!(test["interference"].is_null(), "{test}");
        assert!(
            stdout(&out).contains("warning: interference is not observed: "),
            "{}",
            explain(&out)
        );
        return;
    }
    let i = test["interference"]
        .as_object()
        .expect("per-test interference");
    for key in [
        "started_unix_s",
        "wall_s",
        "run_s",
        "wait_s",
        "involuntary_switches",
        "voluntary_switches",
        "migrations",
        "steal",
        "other_cpu_s",
        "cpus",
        "load_before",
        "load_after",
        "waited_s",
        "stolen_s",
        "lost_s",
        "lost_share",
        "disturbed",
        "paired",
    ] {
        assert!(i.contains_key(key), "no {key} in {i:?}");
    }
    let wall = i["wall_s"].as_f64().unwrap();
    let run = i["run_s"].as_f64().expect("run_s when observed");
    assert!(wall > 0.0 && run > 0.0 && run <= wall * 1.01, "{i:?}");
    let share = i["lost_share"].as_f64().expect("lost_share when observed");
    assert!((0.0..=1.0).contains(&share), "{i:?}");
    assert_eq!(
        i["disturbed"].as_bool().unwrap(),
        share >= 0.05 && i["lost_s"].as_f64().unwrap() >= 0.01,
        "{i:?}"
    );
}

/// A fresh baseline directory for one test.
fn baseline_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("e2e-baselines")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run_scaled(dir: &Path, scale: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "--exact",
        "custom_scaled",
        "--baseline-dir",
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    cargo_perf(true, &args, &[("PERFMARK_FIXTURE_SCALE", scale)])
}

#[test]
fn a_saved_baseline_fails_a_real_regression_and_passes_unchanged_code() {
    let dir = baseline_dir("regression");
    let out = run_scaled(&dir, "1.0", &["--save-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(
        stdout(&out).contains("baseline saved: "),
        "{}",
        explain(&out)
    );
    let file = dir.join("perf.json");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["schema"], 1, "{saved}");

    // The machine-state reference was measured beside the test and kept.
    let reference = &saved["tests"]["custom_scaled"]["reference"];
    assert!(
        reference["ns_per_step"].as_f64().is_some_and(|ns| ns > 0.0),
        "{saved}"
    );

    // Unchanged: no significant change. (The point is the middle of what
    // the code's change can be given the machine's measured move, so it
    // need not read +0.0%.)
    let out = run_scaled(&dir, "1.0", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(
        stdout(&out).contains("vs baseline: no significant change"),
        "{}",
        explain(&out)
    );
    // +20% against a one-process baseline with the reference: the
    // machine's move is measured, not assumed, so the residual spread
    // (2.5% by default) applies and +20% fails. Unless the machine itself
    // moved beyond the tolerance between the two processes (each measured
    // on its own CPU, and the two virtual CPUs of a shared host can differ
    // by 15%): a synthetic time follows no machine, so the rule cannot
    // tell its +20% from the machine's move, and says so with what it can
    // still see. Or the machine-state reference was itself measured while
    // other work ran (these tests run side by side), and the interval
    // holds both 0 and +20%: then the rule cannot see the change either,
    // and says none is significant. Up to three tries for a still machine.
    let mut tries = 0;
    let out = loop {
        let out = run_scaled(&dir, "1.2", &[]);
        tries += 1;
        if out.status.code() == Some(101) || tries == 3 {
            break out;
        }
    };
    let text = stdout(&out);
    if text.contains("note: the machine moved") {
        assert!(text.contains("only slowdowns above +"), "{}", explain(&out));
    } else if out.status.code() == Some(0) {
        // Passed three times: only honest if the interval could not tell
        // +20% from nothing.
        let (low, high) = baseline_interval(&text).expect("a baseline comparison");
        assert!(
            text.contains("vs baseline: no significant change") && low < 0.0 && high > 20.0,
            "+20% passed on an interval that could see it: {}",
            explain(&out)
        );
    } else {
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        assert!(
            text.contains(
                "since the baseline, allowed for; residual sd 2.5%, prior; tolerance 5%)"
            ),
            "{}",
            explain(&out)
        );
        assert!(
            text.contains("regressed beyond the 5% tolerance"),
            "{}",
            explain(&out)
        );
    }
    // A file written before the reference reads as it did, and is judged
    // by the rule without it.
    let mut old: serde_json::Value = saved.clone();
    old["tests"]["custom_scaled"]
        .as_object_mut()
        .unwrap()
        .remove("reference");
    std::fs::write(&file, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    // +20% against a one-process baseline, noiseless: below what the
    // default between-run spread (7.5%, calibrated alone over 47 minutes
    // on the reference VM) lets a comparison of two processes see, and the
    // output says what it can see (with --verbose): with se = 7.5%·√2 and
    // t(4 df) 2.132, slowdowns above +43.6% are caught 9 times in 10.
    let out = run_scaled(&dir, "1.2", &["--verbose"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let text = stdout(&out);
    assert!(text.contains("+20.0% ["), "{}", explain(&out));
    assert!(text.contains("no significant change"), "{}", explain(&out));
    assert!(
        text.contains(
            "this comparison can detect slowdowns above +43.6% (one that large fails 9 runs in 10)"
        ),
        "{}",
        explain(&out)
    );
    assert!(
        text.contains("between-run sd 7.5% (perfmark's default"),
        "{}",
        explain(&out)
    );
    // +50%, noiseless: beyond it, so it fails.
    let out = run_scaled(&dir, "1.5", &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert!(stdout(&out).contains("+50.0% ["), "{}", explain(&out));
    assert!(
        stdout(&out).contains("regressed beyond the 5% tolerance"),
        "{}",
        explain(&out)
    );
    // A machine said to move only 2% between processes sees +20%: the
    // flag and the variable set the prior.
    for (extra, envs) in [
        (&["--between-run-sd", "2%"][..], &[][..]),
        (&[][..], &[("PERFMARK_BETWEEN_RUN_SD", "2%")][..]),
    ] {
        let mut args = vec![
            "--exact",
            "custom_scaled",
            "--verbose",
            "--baseline-dir",
            dir.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let mut envs = envs.to_vec();
        envs.push(("PERFMARK_FIXTURE_SCALE", "1.2"));
        let out = cargo_perf(true, &args, &envs);
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        let text = stdout(&out);
        assert!(
            text.contains("run-to-run sd 2.0%, prior"),
            "{}",
            explain(&out)
        );
        assert!(
            text.contains("regressed beyond the 5% tolerance"),
            "{}",
            explain(&out)
        );
    }
    // Three times slower: significant and beyond the 5% tolerance.
    let out = run_scaled(&dir, "3.0", &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test custom_scaled ... FAILED"]);
    assert!(stdout(&out).contains("+200.0% ["), "{}", explain(&out));
    assert!(
        stdout(&out).contains("regressed beyond the 5% tolerance"),
        "{}",
        explain(&out)
    );
    // Three times as fast: reported, never failed.
    let out = run_scaled(&dir, "0.33", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    assert!(
        stdout(&out).contains("improved beyond tolerance"),
        "{}",
        explain(&out)
    );
    // --no-baseline ignores it.
    let out = run_scaled(&dir, "3.0", &["--no-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    // The environment variable stands in for the flag.
    let out = cargo_perf(
        true,
        &["--exact", "custom_scaled"],
        &[
            ("PERFMARK_FIXTURE_SCALE", "3.0"),
            ("PERFMARK_BASELINE_DIR", dir.to_str().unwrap()),
        ],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
}

#[test]
fn a_filtered_save_keeps_the_other_entries() {
    let dir = baseline_dir("filtered");
    let d = dir.to_str().unwrap();
    let out = cargo_perf(
        true,
        &[
            "--exact",
            "custom_under",
            "--save-baseline",
            "--baseline-dir",
            d,
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let out = run_scaled(&dir, "1.0", &["--save-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let text = std::fs::read_to_string(dir.join("perf.json")).unwrap();
    assert!(
        text.contains("\"custom_under\"") && text.contains("\"custom_scaled\""),
        "{text}"
    );
}

#[test]
fn a_corrupt_baseline_is_an_error_naming_the_file_and_is_left_untouched() {
    let dir = baseline_dir("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("perf.json");
    let garbage = b"{ \"schema\": 1, \"tests\": { \"custom_scaled\": ";
    std::fs::write(&file, garbage).unwrap();
    for extra in [&[][..], &["--save-baseline"][..]] {
        let out = run_scaled(&dir, "1.0", extra);
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("perf.json"), "{}", explain(&out));
        assert_eq!(
            std::fs::read(&file).unwrap(),
            garbage,
            "the corrupt file was modified"
        );
    }
}

/// Saves `custom_scaled`'s baseline into `dir` at scale 1, then rewrites
/// its stored fingerprint with `edit`, as if recorded elsewhere.
fn save_with_fingerprint(dir: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let out = run_scaled(dir, "1.0", &["--save-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let file = dir.join("perf.json");
    let mut saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    edit(&mut saved["tests"]["custom_scaled"]["fingerprint"]);
    std::fs::write(&file, serde_json::to_string_pretty(&saved).unwrap()).unwrap();
}

#[test]
fn a_baseline_from_another_machine_is_not_used_to_fail() {
    let dir = baseline_dir("other-machine");
    save_with_fingerprint(&dir, |fingerprint| {
        fingerprint["cpu_model"] = "Imaginary CPU 9000".into();
        fingerprint["cores"] = 64.into();
    });
    let out = run_scaled(&dir, "3.0", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    let text = stdout(&out);
    assert!(
        text.contains("baseline recorded on Imaginary CPU 9000")
            && text.contains("not used to fail"),
        "{text}"
    );
}

#[test]
fn a_baseline_from_another_kernel_still_fails_a_real_regression_and_says_so_once() {
    let dir = baseline_dir("other-kernel");
    let mut here = String::new();
    save_with_fingerprint(&dir, |fingerprint| {
        here = fingerprint["kernel"].as_str().unwrap().to_owned();
        fingerprint["kernel"] = format!("{here}-older").into();
    });
    let older = format!("{here}-older");
    let report_dir = dir.join("report");
    let out = run_scaled(&dir, "3.0", &["--report-dir", report_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert_eq!(result_lines(&out), ["test custom_scaled ... FAILED"]);
    let text = stdout(&out);
    assert!(
        text.contains("regressed beyond the 5% tolerance"),
        "{}",
        explain(&out)
    );
    let now = if here.is_empty() { "unknown" } else { &here };
    let note = format!(
        "baseline recorded under kernel {older}, now {now}: still used (a kernel, rustc or \
         perfmark patch release does not make times incomparable)"
    );
    assert_eq!(text.matches(&note).count(), 1, "{}", explain(&out));
    assert!(!text.contains("not used to fail"), "{}", explain(&out));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report_dir.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(
        report["environment_warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|w| **w == *note)
            .count(),
        1
    );
    let baseline = &report["tests"][0]["baseline"];
    assert_eq!(baseline["machine_note"], *note, "{baseline}");
    assert_eq!(baseline["other_machine"], false, "{baseline}");
}

#[test]
fn family_wise_verdicts_are_decided_at_the_corrected_level() {
    // Two tests with a budget: each decided at 1 − 0.05/2, and the header
    // says so.
    let out = cargo_perf(true, &["custom_", "--skip", "scaled", "--family-wise"], &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let text = stdout(&out);
    // The footer says what the correction bounds: both budgets were
    // decided by a CI that cleared the line (the timings are noiseless).
    assert!(
        text.contains(
            "\nfamily-wise (Bonferroni over 2 verdicts, each at 1 − (1 − c)/2): the chance that \
             any of them failed falsely by its CI is at most 5%\n"
        ),
        "{text}"
    );
    assert!(text.contains(" 97.5% CI "), "{text}");
    assert!(text.contains("over budget 50.00 ns"), "{text}");
    // Without the option each test keeps its own confidence: the default
    // output states no run-wide bound, --verbose says how verdicts are
    // decided.
    let out = cargo_perf(true, &["custom_", "--skip", "scaled"], &[]);
    let text = stdout(&out);
    assert!(text.contains(" 95% CI "), "{text}");
    assert!(!text.contains("family-wise"), "{text}");
    let out = cargo_perf(true, &["custom_", "--skip", "scaled", "--verbose"], &[]);
    assert!(
        stdout(&out).contains("--family-wise to keep it"),
        "{}",
        explain(&out)
    );
}

/// The commands the README, CONTRIBUTING.md and the guides give, as written: every
/// `cargo perfmark …` is accepted by cargo perfmark's parser, every `cargo
/// test … -- ARGS` and what `cargo perfmark` passes its test binaries by a
/// perf test binary (run with `--list`, so nothing is measured or saved),
/// and every `cargo xtask TASK` names a task. Commands with placeholders
/// (`[FILTER]`, `[options]`) are grammar, not commands, and are left out.
/// The workflows' commands (`yaml` blocks) are run by `tests/ci_workflows.rs`.
#[test]
fn the_documented_commands_are_accepted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let xtask = std::fs::read_to_string(root.join("xtask/src/main.rs")).unwrap();
    // Every Markdown file a reader is pointed to: the READMEs, CONTRIBUTING
    // and all of docs/.
    let mut docs: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "cargo-perfmark/README.md"]
        .iter()
        .map(|d| root.join(d))
        .collect();
    for dir in ["docs", "docs/design"] {
        let mut more: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        more.sort();
        docs.extend(more);
    }
    assert!(docs.len() >= 20, "{docs:?}");
    let mut test_args = Vec::new();
    let mut subcommands = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        let doc = doc.strip_prefix(root).unwrap().display().to_string();
        for command in documented_commands(&text) {
            // A placeholder (`[REV]`, `N`, `PKG`, `…`) is a pattern, not a
            // command.
            let placeholder = command.contains(['[', '<', '…'])
                || command
                    .split_whitespace()
                    .any(|w| w.chars().all(|c| c.is_ascii_uppercase() || c == '_') && w.len() <= 4);
            if placeholder {
                continue;
            }
            if let Some(task) = command.strip_prefix("cargo xtask ") {
                let task = task.split_whitespace().next().unwrap_or_default();
                assert!(
                    xtask.contains(&format!("Some(\"{task}\")")),
                    "{doc}: `{command}`: no xtask task `{task}`"
                );
            } else if let Some(rest) = command.strip_prefix("cargo perfmark") {
                let words: Vec<String> = std::iter::once("perfmark".to_owned())
                    .chain(
                        rest.split_whitespace()
                            .map(|w| w.trim_matches('\'').to_owned()),
                    )
                    .collect();
                // What it passes the test binaries is checked as theirs.
                match support::perfmark_test_args(words) {
                    Ok(args) if !args.is_empty() => {
                        test_args.push((doc.clone(), command.clone(), args.join(" ")))
                    }
                    Ok(_) => {}
                    Err(e) => panic!("{doc}: `{command}` is refused by cargo perfmark: {e}"),
                }
                subcommands += 1;
            } else if let Some((_, args)) = command.split_once(" -- ") {
                test_args.push((doc.clone(), command.clone(), args.to_owned()));
            }
        }
    }
    assert!(
        subcommands >= 5,
        "only {subcommands} `cargo perfmark` commands found"
    );
    assert!(test_args.len() >= 8, "found only {test_args:?}");
    for (doc, command, args) in test_args {
        // Variables and shell syntax around a command are not its arguments.
        if args.contains(['$', '|', '>', '"', '\'']) {
            continue;
        }
        let mut args: Vec<&str> = args.split_whitespace().collect();
        args.push("--list");
        let out = cargo_perf(true, &args, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{doc}: `{command}`:\n{}",
            explain(&out)
        );
    }
}

/// `cargo …` commands in `text`: code spans, and lines of `sh` blocks
/// (without their trailing `# comment`).
fn documented_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_sh = trimmed == "```sh";
            continue;
        }
        if in_sh {
            let command = trimmed.split(" #").next().unwrap_or_default().trim();
            if command.starts_with("cargo ") {
                commands.push(command.to_owned());
            }
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 1 && span.starts_with("cargo ") {
                commands.push(span.to_owned());
            }
        }
    }
    commands
}

#[test]
fn a_cpu_placeholder_keeps_each_cpu_models_baselines_apart() {
    let root = baseline_dir("per-cpu");
    let templ = root.join("{cpu}");
    let out = run_scaled(&templ, "1.0", &["--save-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", explain(&out));
    // One directory, named after this machine's CPU model, holds the file.
    let dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let name = dirs[0].file_name().unwrap().to_str().unwrap().to_owned();
    assert!(
        !name.contains('{')
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
        "{name}"
    );
    assert!(dirs[0].join("perf.json").is_file());
    // The same template finds it again: three times slower fails.
    let out = run_scaled(&templ, "3.0", &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    assert!(
        stdout(&out).contains("regressed beyond the 5% tolerance"),
        "{}",
        explain(&out)
    );
}

/// The interval of the `… [low%, high%] vs baseline` line in `text`, in
/// percent.
fn baseline_interval(text: &str) -> Option<(f64, f64)> {
    let before = text.lines().find_map(|l| l.split_once(" vs baseline"))?.0;
    let inside = before.rsplit_once('[')?.1.split_once(']')?.0;
    let (low, high) = inside.split_once(", ")?;
    let percent = |s: &str| s.trim().trim_end_matches('%').parse::<f64>().ok();
    Some((percent(low)?, percent(high)?))
}

#[test]
fn the_baseline_interval_is_read_from_its_line() {
    let text = "test custom_scaled ... ok\n    median 120.0 ns/iter [120.0 ns, 120.0 ns] 95% CI · \
                +20.0% [-48.8%, +181.2%] vs baseline: no significant change\n";
    assert_eq!(baseline_interval(text), Some((-48.8, 181.2)));
    assert_eq!(baseline_interval("no comparison\n"), None);
}
