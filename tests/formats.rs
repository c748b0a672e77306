//! End to end: the test binary's `--format`s, as the programs that read
//! libtest's output read them. JSON: every line is one of libtest's events
//! with the fields its readers need (cargo2junit, IDE test explorers), in
//! libtest's order; terse and `-q`: one character a test and libtest's
//! closing line; pretty: one line under a passing test, four at most under
//! a failing one.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

mod support;
use support::{explain, fixture_dir, fixture_target_dir, stdout};

/// The fixture's `perf` binary, built once in release.
fn binary() -> &'static PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .current_dir(fixture_dir())
            .args(["test", "--release", "--no-run", "--message-format=json"])
            .args(["--test", "perf"])
            .env("CARGO_TARGET_DIR", fixture_target_dir())
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "fixture build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["target"]["name"] == "perf")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the test executable")
    })
}

/// The binary run with `args`, reports in a scratch directory, no
/// `PERFMARK_*` of the caller's, with nothing else of this file running.
fn run(name: &str, args: &[&str]) -> Output {
    let _alone = support::alone();
    let reports = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("formats-{name}"));
    let mut cmd = Command::new(binary());
    cmd.current_dir(fixture_dir())
        .args(args)
        .arg("--report-dir")
        .arg(&reports);
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("PERFMARK_MAX_TIME", "200ms")
        .output()
        .expect("the fixture runs")
}

/// The tests `custom_over` (fails its budget), `custom_under` (passes)
/// and `ignored_slow` (ignored), and nothing slow.
const SELECTION: [&str; 3] = ["custom_over", "custom_under", "ignored_slow"];

/// The top-level keys of the JSON object `line`, in the order the text
/// gives them (serde_json's map sorts them).
fn keys_in_order(line: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(line).unwrap();
    let object = value.as_object().expect("an object");
    let mut keys: Vec<(usize, String)> = object
        .keys()
        .map(|k| {
            let at = line
                .find(&format!("\"{k}\": "))
                .unwrap_or_else(|| panic!("{k} spaced as libtest spaces it in {line}"));
            (at, k.clone())
        })
        .collect();
    keys.sort();
    keys.into_iter().map(|(_, k)| k).collect()
}

#[test]
fn json_is_libtests_events_with_perfmarks_figures_added() {
    for format in [
        &["--format", "json"][..],
        &["--format=json", "-Z", "unstable-options"],
    ] {
        let out = run("json", &[&SELECTION[..], format].concat());
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        // Every line is one event, spaced as libtest writes them.
        for line in &lines {
            assert!(
                line.starts_with("{ \"type\": ") && line.ends_with(" }"),
                "{line}"
            );
        }
        let events: Vec<serde_json::Value> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
            .collect();
        let shape: Vec<(String, String, String)> = events
            .iter()
            .map(|e| {
                let s = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
                (s("type"), s("event"), s("name"))
            })
            .collect();
        let t = |event: &str, name: &str| ("test".to_owned(), event.to_owned(), name.to_owned());
        assert_eq!(
            shape,
            [
                ("suite".to_owned(), "started".to_owned(), String::new()),
                t("started", "custom_over"),
                t("failed", "custom_over"),
                t("started", "custom_under"),
                t("ok", "custom_under"),
                t("started", "ignored_slow"),
                t("ignored", "ignored_slow"),
                ("suite".to_owned(), "failed".to_owned(), String::new()),
            ],
            "{text}"
        );
        // libtest's fields in libtest's order, perfmark's after them.
        assert_eq!(keys_in_order(lines[0]), ["type", "event", "test_count"]);
        assert_eq!(events[0]["test_count"], 3);
        assert_eq!(keys_in_order(lines[1]), ["type", "event", "name"]);
        let failed = keys_in_order(lines[2]);
        assert_eq!(
            failed[..5],
            ["type", "name", "event", "exec_time", "stdout"]
        );
        assert!(failed.contains(&"perfmark".to_owned()), "{failed:?}");
        assert!(events[2]["exec_time"].as_f64().unwrap() > 0.0);
        let why = events[2]["stdout"].as_str().unwrap();
        assert!(why.contains("over budget 50.00 ns"), "{why}");
        let ok = &events[4];
        assert_eq!(
            keys_in_order(lines[4])[..4],
            ["type", "name", "event", "exec_time"]
        );
        assert!(ok.get("stdout").is_none(), "{ok}");
        let figures = &ok["perfmark"];
        assert_eq!(figures["verdict"], "pass");
        assert_eq!(figures["estimate"]["ns_per_iter"], 100.0);
        assert_eq!(figures["budget"]["outcome"], "under");
        assert!(
            figures["summary"]
                .as_str()
                .unwrap()
                .contains("within budget 150.0 ns"),
            "{figures}"
        );
        assert_eq!(events[6]["message"], "too slow for CI");
        let end = &events[7];
        assert_eq!(
            keys_in_order(lines[7]),
            [
                "type",
                "event",
                "passed",
                "failed",
                "ignored",
                "measured",
                "filtered_out",
                "exec_time"
            ]
        );
        for (key, count) in [
            ("passed", 1),
            ("failed", 1),
            ("ignored", 1),
            ("measured", 0),
        ] {
            assert_eq!(end[key], count, "{key}: {end}");
        }
        assert!(end["filtered_out"].as_u64().unwrap() > 0);
    }
}

#[test]
fn terse_and_quiet_are_libtests_terse() {
    for flag in [&["-q"][..], &["--format", "terse"]] {
        let out = run("terse", &[&SELECTION[..], flag].concat());
        assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
        let text = stdout(&out);
        assert!(
            text.starts_with("\nrunning 3 tests\ncustom_over --- FAILED\n.i\nfailures:\n"),
            "{text}"
        );
        assert!(
            text.contains("\nfailures:\n    custom_over\n\ntest result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; "),
            "{text}"
        );
        assert!(!text.contains("perfmark 0.1.0"), "no header: {text}");
    }
}

#[test]
fn pretty_has_one_line_under_a_pass_and_at_most_four_under_a_failure() {
    let out = run("pretty", &SELECTION);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let text = stdout(&out);
    let under = |name: &str| -> Vec<String> {
        text.lines()
            .skip_while(|l| !l.starts_with(&format!("test {name} ... ")))
            .skip(1)
            .take_while(|l| l.starts_with("    "))
            .map(str::to_owned)
            .collect()
    };
    let pass = under("custom_under");
    assert_eq!(pass.len(), 1, "{text}");
    assert!(
        pass[0].starts_with("    median 100.0 ns/iter [100.0 ns, 100.0 ns] 95% CI · within budget"),
        "{text}"
    );
    let fail = under("custom_over");
    assert!((2..=4).contains(&fail.len()), "{text}");
    assert!(
        fail.iter().any(|l| l.contains("over budget 50.00 ns")),
        "{text}"
    );
    // --verbose and its variable say everything.
    for (args, envs) in [
        (&["--verbose"][..], &[][..]),
        (&[][..], &[("PERFMARK_VERBOSE", "1")][..]),
    ] {
        let mut cmd = Command::new(binary());
        cmd.current_dir(fixture_dir())
            .args(["--exact", "custom_under"])
            .args(args)
            .env("PERFMARK_MAX_TIME", "200ms")
            .envs(envs.iter().copied());
        let out = cmd.output().unwrap();
        let text = stdout(&out);
        assert!(text.contains("\n    mean 100.0 ns · sd "), "{text}");
        assert!(text.contains("\n    histogram (ns/iter):"), "{text}");
    }
}
