use super::*;
use crate::platform::EnvironmentWarning;
use crate::report::facts::test_facts;
use crate::report::fixtures;

#[test]
fn the_summary_lines_of_a_measured_test() {
    let report = fixtures::realistic();
    let lines = summary_lines(&report.tests[0]);
    assert_eq!(
        lines,
        [
            "median 41.03 ns/iter [40.77 ns, 41.31 ns] (95% CI, 120 samples × 4096 iters) · 1.561 GB/s",
            "mean 41.47 ns · sd 2.756 ns · min 39.65 ns · cov 6.6% · first call 1.234 µs",
            "median 41.03 ns/iter",
            "warning: 3 outliers of 120 samples (3 high, 0 of them severe; 0 low)",
        ]
    );
    let under = lines_under(&report.tests[0], true);
    assert_eq!(under.len(), 4 + verbose_lines(&report.tests[0]).len());
    assert!(under.iter().all(|l| l.starts_with(INDENT)));
    // A comparison with a stored baseline says what it could detect, as
    // a fact of the full account (the HTML page's too).
    let compared = verbose_lines(&report.tests[3]);
    assert!(
        compared
            .iter()
            .any(|l| l.starts_with("detection: this comparison can detect slowdowns above +")),
        "{compared:?}"
    );
}

#[test]
fn cpu_time_and_allocations_have_lines_of_their_own() {
    use crate::allocations::{AllocCount, Allocations};
    use crate::clock::Clock;
    let mut t = fixtures::realistic().tests[0].clone();
    let plain = summary_lines(&t);
    t.measure = Clock::Cpu;
    t.wall_ns_per_iter = Some(4.0 * t.estimate.as_ref().unwrap().ns_per_iter);
    t.allocations = Some(Allocations::per_iteration(
        AllocCount {
            allocs: 4096,
            bytes: 4096 * 48,
        },
        4096,
        None,
    ));
    let lines = summary_lines(&t);
    assert_eq!(lines.len(), plain.len() + 2);
    assert_eq!(
        lines[2],
        "times are thread CPU time (measure = \"cpu\") · wall median 164.1 ns/iter over the \
         same blocks; on the CPU 25% of its wall time"
    );
    assert_eq!(
        lines[3],
        "heap: 1 allocation (48 B) per iteration (counted untimed over 4096 iterations)"
    );
}

#[test]
fn test_lines_as_libtest_prints_them() {
    let report = fixtures::realistic();
    assert_eq!(outcome_word(&report.tests[0]), "ok");
    assert_eq!(outcome_word(&report.tests[2]), "FAILED");
    assert_eq!(test_line_start("a::b"), "test a::b ... ");
    assert_eq!(ignored_line("slow", None), "test slow ... ignored");
    assert_eq!(
        ignored_line("slow", Some("needs a disk")),
        "test slow ... ignored, needs a disk"
    );
}

#[test]
fn verbose_lines_state_the_facts_then_the_figures_in_text() {
    let report = fixtures::realistic();
    let t = &report.tests[0];
    let lines = verbose_lines(t);
    let facts = test_facts(t);
    for (line, fact) in lines.iter().zip(&facts) {
        assert_eq!(*line, format!("{}: {}", fact.label, fact.value));
    }
    let rest = &lines[facts.len()..];
    assert_eq!(rest[0], "candidate statistics:");
    assert!(rest[1].starts_with("  median"), "{}", rest[1]);
    let rest = &rest[2..];
    assert_eq!(
        rest[0],
        "Tukey fences: 37.76 ns · 39.17 ns · 42.93 ns · 44.34 ns"
    );
    assert!(rest[1].starts_with("autocorrelation by lag 1..10: +0.02 +0.15"));
    assert_eq!(rest[2], "histogram (ns/iter):");
    assert_eq!(rest.len(), 3 + verbose::TEXT_HISTOGRAM_BINS);
    let ignored = &report.tests[4];
    assert!(verbose_lines(ignored).is_empty());
    assert!(lines_under(ignored, true).is_empty());
}

/// What `say` prints on a console over buffers: stdout, stderr.
fn printed(say: impl FnOnce(&mut Console<Vec<u8>, Vec<u8>>)) -> (String, String) {
    let mut console = Console::new(Vec::new(), Vec::new());
    say(&mut console);
    let (out, err) = console.into_inner();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn the_header_names_the_platform_timers_and_reports() {
    let (out, err) = printed(|c| {
        c.header(
            &fixtures::platform(),
            Some(0.0123),
            true,
            &[EnvironmentWarning::Load {
                load: 3.1,
                cores: 2,
            }],
            Path::new("target/perfmark/perf"),
        );
        c.lock_waited(Duration::from_millis(1500), Path::new("/tmp/perfmark.lock"));
    });
    assert_eq!(
        out,
        "perfmark 0.1.0 · linux 6.1.0-test x86_64 · Test CPU <8 cores> @ 3.0GHz · 2 cores · \
         rustc 1.80.0 · release build\n\
         timer: Instant, resolution 20.00 ns, overhead 24.50 ns per read · noise floor 1.23% \
         (LFSR task, robust spread)\n\
         warning: load average 3.10 is above the 2 cores: other work is competing for the CPU \
         and timings will be noisy\n\
         reports: target/perfmark/perf (the page: cargo perfmark report target/perfmark/perf)\n\
         machine lock: waited 1.50 s for another perfmark run measuring on this machine \
         (/tmp/perfmark.lock)\n"
    );
    assert_eq!(err, "");
    let (out, _) = printed(|c| c.header(&fixtures::platform(), None, false, &[], Path::new("r")));
    assert!(out.contains("· noise floor not measured\n"), "{out}");
    assert!(
        out.contains("\nunoptimized build: tests run as smoke tests"),
        "{out}"
    );
}

#[test]
fn each_test_has_its_line_and_the_lines_under_it() {
    let report = fixtures::realistic();
    let (out, _) = printed(|c| {
        c.running(1);
        c.test_started(&report.tests[0].name);
        c.test_finished(&report.tests[0], None);
        c.ignored("slow", Some("needs a disk"));
        c.run_stopped(2);
    });
    let mut expected = format!("\nrunning 1 test\ntest {} ... ok\n", report.tests[0].name);
    for line in lines_under(&report.tests[0], false) {
        expected.push_str(&line);
        expected.push('\n');
    }
    expected.push_str("test slow ... ignored, needs a disk\n");
    expected.push_str("    run stopped: 2 test(s) after it were not run\n");
    assert_eq!(out, expected);
    assert_eq!(printed(|c| c.running(3)).0, "\nrunning 3 tests\n");
}

#[test]
fn the_closing_lines_as_libtest_prints_them() {
    let failures = vec![
        ("a".to_owned(), Some("median above the budget".to_owned())),
        ("b".to_owned(), None),
    ];
    let counts = Counts {
        passed: 3,
        failed: 2,
        ignored: 1,
        filtered_out: 4,
    };
    let (out, _) = printed(|c| {
        c.removed(&["gone".to_owned()]);
        c.failures(&failures);
        c.result(&counts, Duration::from_millis(1234));
    });
    assert_eq!(
        out,
        "\nremoved: gone (in the base build only, not compared)\n\
         \nfailures:\n\n---- a ----\nmedian above the budget\n\
         \nfailures:\n    a\n    b\n\
         \ntest result: FAILED. 3 passed; 2 failed; 1 ignored; 0 measured; 4 filtered out; \
         finished in 1.23s\n\n"
    );
    let (out, _) = printed(|c| {
        c.removed(&[]);
        c.failures(&[]);
        c.result(&Counts::default(), Duration::ZERO);
    });
    assert_eq!(
        out,
        "\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; \
         finished in 0.00s\n\n"
    );
}

#[test]
fn counts_take_a_smoke_test_as_passed() {
    let report = fixtures::realistic();
    let counts = Counts::of(&report.tests, 7);
    let of = |v: Verdict| report.tests.iter().filter(|t| t.verdict == v).count();
    assert_eq!(counts.passed, of(Verdict::Pass) + of(Verdict::NotMeasured));
    assert_eq!(counts.failed, of(Verdict::Fail));
    assert_eq!(counts.ignored, of(Verdict::Ignored));
    assert_eq!(counts.filtered_out, 7);
}

#[test]
fn list_saved_baselines_and_errors() {
    let names = vec!["a".to_owned(), "b::1".to_owned()];
    assert_eq!(
        printed(|c| c.list(&names, false)).0,
        "a: test\nb::1: test\n\n2 tests, 0 benchmarks\n"
    );
    assert_eq!(printed(|c| c.list(&names, true)).0, "a: test\nb::1: test\n");
    let (out, _) = printed(|c| {
        c.baselines_saved(Some((Path::new("perf-baselines/perf.json"), 5)), 2, &["x"]);
        c.baselines_saved(None, 0, &[]);
    });
    assert_eq!(
        out,
        "\nbaseline saved: perf-baselines/perf.json (2 of its 5 tests recorded in this run); \
         not recorded, their CI unbounded (too few samples): x\n\
         \nno baseline saved: no test was measured with a bounded CI\n"
    );
    let (out, err) = printed(|c| {
        c.error("--timeout needs a duration");
        c.waiting_for_lock(Path::new("/tmp/l"));
    });
    assert_eq!(out, "");
    assert_eq!(
        err,
        "error: --timeout needs a duration\n\
         waiting for another perfmark run measuring on this machine to finish (/tmp/l)\n"
    );
}

#[test]
fn a_comparison_of_builds_not_pinned_alike_says_so_once() {
    let (out, _) = printed(|c| c.layout_not_pinned(false, false));
    assert_eq!(
        out,
        "note: neither build has its code layout pinned (cargo perfmark compare builds both \
         with every function aligned to 64 bytes): a change of a few percent can be where code \
         landed, not its speed\n"
    );
    let (out, _) = printed(|c| c.layout_not_pinned(true, false));
    assert!(out.starts_with("note: the base has its code layout pinned and the head does not"));
    let (out, _) = printed(|c| c.layout_not_pinned(true, true));
    assert_eq!(out, "");
}

#[test]
fn a_passing_test_has_one_line_and_a_failing_one_at_most_four() {
    let report = fixtures::realistic();
    let pass = &report.tests[0];
    assert_eq!(
        lines_under(pass, false),
        ["    median 41.03 ns/iter [40.77 ns, 41.31 ns] 95% CI · 1.561 GB/s · within budget 50.00 \
          ns (82%)"]
    );
    let fail = &report.tests[2];
    let under = lines_under(fail, false);
    assert!((2..=4).contains(&under.len()), "{under:?}");
    assert!(under[0].contains("over budget 450.0 µs"), "{under:?}");
    // Every test of the fixture: one line when it passed, four at most.
    for t in &report.tests {
        let n = lines_under(t, false).len();
        match t.verdict {
            Verdict::Fail => assert!((1..=4).contains(&n), "{}: {n}", t.name),
            _ => assert!(n <= 1, "{}: {n}", t.name),
        }
    }
}

#[test]
fn a_mark_says_what_needs_the_reader() {
    use crate::budget::BudgetRecord;
    use crate::verdicts::Outcome;
    let mut t = fixtures::realistic().tests[0].clone();
    assert!(line::marks(&t).is_empty());
    t.budget = Some(BudgetRecord {
        budget_ns: 41.2,
        outcome: Outcome::InconclusiveUnder,
        ratio: 0.996,
        look: None,
        may_flip: false,
    });
    let line = line::summary_line(&t).unwrap();
    assert!(
        line.ends_with(
            "inconclusive against budget 41.20 ns (100%): passed on the median · ! its CI \
             straddled the budget: raise max_time or the margin"
        ),
        "{line}"
    );
    // When the spread between processes set the interval, more max_time
    // would not narrow it, and the mark does not ask for it.
    t.processes = Some(crate::processes::ProcessSpread {
        estimates_ns: vec![8.0, 8.7, 8.4, 5.1, 5.1],
        weights: vec![0.2; 5],
        sd_log: 0.273,
        df: 4.0,
        tau_own: 0.273,
        tau: 0.273,
        tau_df: 6.0,
        slices: 5,
        iters_per_slice: 1000,
        elapsed_s: 0.1,
        cpus: vec![Some(1), Some(5), Some(1), Some(5)],
        looks: 2,
        beyond_history: false,
        sets_interval: true,
    });
    let line = line::summary_line(&t).unwrap();
    assert!(
        line.ends_with(
            "! its CI straddled the budget: processes differ by 31% here; widen the margin"
        ),
        "{line}"
    );
    // Warnings alone (outliers here) earn no mark.
    assert!(!t.warnings.is_empty());
}

#[test]
fn an_interval_the_samples_could_not_bound_prints_its_infinite_ends() {
    let mut t = fixtures::realistic().tests[0].clone();
    let e = t.estimate.as_mut().unwrap();
    (e.ci.low, e.ci.high) = (f64::NEG_INFINITY, f64::INFINITY);
    let line = line::summary_line(&t).unwrap();
    assert!(
        line.starts_with("median 41.03 ns/iter [−∞, +∞] 95% CI"),
        "{line}"
    );
    t.estimate.as_mut().unwrap().ci.low = 0.0;
    let line = line::summary_line(&t).unwrap();
    assert!(
        line.starts_with("median 41.03 ns/iter [0.000 ns, +∞] 95% CI"),
        "{line}"
    );
}

#[test]
fn an_instruction_limit_a_run_did_not_check_is_marked() {
    let mut t = fixtures::realistic().tests[0].clone();
    t.unchecked_instruction_limit = Some(2000);
    let line = line::summary_line(&t).unwrap();
    assert!(
        line.ends_with("! instruction limit 2000 not checked: counted only with --instructions"),
        "{line}"
    );
    // Not written to report.json: its reasons say it.
    let json = serde_json::to_value(&t).unwrap();
    assert!(json.get("unchecked_instruction_limit").is_none());
}

#[test]
fn a_machine_that_moved_beyond_the_tolerance_is_said_once_not_marked() {
    use crate::baseline::compare::{
        compare_with_reference, BaselineEstimate, MachineShift, RegressionRule, RunEstimate,
        Tracking,
    };
    use crate::baseline::record::BaselineRecord;
    use crate::report::facts::machine_moved_sentence;
    use crate::stats::Interval;
    let run = |p: f64| {
        RunEstimate::new(
            p,
            Interval {
                low: p * 0.999,
                high: p * 1.001,
                confidence: 0.95,
            },
        )
        .unwrap()
    };
    let base = BaselineEstimate::from_runs(&[run(100.0)]).unwrap();
    let rule = RegressionRule::new(0.95, 0.05).unwrap();
    let with_shift = |ratio: f64| {
        let shift = MachineShift {
            ratio,
            log_se: 0.001,
        };
        let mut t = fixtures::realistic().tests[0].clone();
        t.baseline = Some(BaselineRecord {
            path: "perf-baselines/perf.json".to_owned(),
            runs: 1,
            comparison: Some(
                compare_with_reference(
                    &base,
                    &run(100.0 * ratio),
                    &shift,
                    Tracking::UNKNOWN,
                    &rule,
                )
                .unwrap(),
            ),
            not_used: None,
            other_machine: false,
            machine_note: None,
            prior: None,
        });
        t
    };
    // Within the tolerance: allowed for, nothing to say.
    let still = with_shift(1.03);
    assert!(line::marks(&still).is_empty(), "{:?}", line::marks(&still));
    assert_eq!(machine_moved_sentence(std::slice::from_ref(&still)), None);
    // Beyond it: a fact of the run, said once in the footer, never on
    // each test's line.
    let moved = with_shift(1.12);
    assert!(line::marks(&moved).is_empty(), "{:?}", line::marks(&moved));
    let one = machine_moved_sentence(&[moved.clone(), still]).unwrap();
    assert!(
        one.starts_with(
            "the machine moved +12.0% since the baselines were recorded, beyond the tolerance \
             for 1 test: its comparison allowed for it and sees only slowdowns above +"
        ) && one.ends_with("(--verbose for each); re-record, or compare builds"),
        "{one}"
    );
    let mut faster = with_shift(0.9);
    faster.name = "other".to_owned();
    let two = machine_moved_sentence(&[moved, faster]).unwrap();
    assert!(
        two.starts_with("the machine moved +12.0% (-10.0% … +12.0%) since the baselines")
            && two.contains("for 2 tests: their comparisons allowed for it and see only"),
        "{two}"
    );
}

#[test]
fn terse_prints_a_character_a_test_as_libtest_does() {
    let report = fixtures::realistic();
    let counts = Counts::of(&report.tests[..3], 0);
    let (out, _) = printed(|c| {
        c.set_style(Style::Terse, true);
        c.header(&fixtures::platform(), None, true, &[], Path::new("r"));
        c.running(4);
        for t in &report.tests[..3] {
            c.test_started(&t.name);
            c.test_finished(t, Some("why"));
        }
        c.ignored("slow", None);
        c.footer(&["family-wise".to_owned()]);
        c.failures(&[("sorting::sort_10k".to_owned(), Some("why".to_owned()))]);
        c.result(&counts, Duration::from_millis(10));
    });
    assert_eq!(
        out,
        "\nrunning 4 tests\n.. 2/4\nsorting::sort_10k --- FAILED\ni\
         \nfailures:\n\n---- sorting::sort_10k ----\nwhy\n\nfailures:\n    sorting::sort_10k\n\
         \ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; \
         finished in 0.01s\n\n"
    );
}

#[test]
fn json_prints_libtests_events_and_nothing_else() {
    let report = fixtures::realistic();
    let (out, _) = printed(|c| {
        c.set_style(Style::Json, true);
        c.header(
            &fixtures::platform(),
            None,
            true,
            &[EnvironmentWarning::VirtualMachine],
            Path::new("r"),
        );
        c.running(2);
        c.test_started(&report.tests[0].name);
        c.test_finished(&report.tests[0], None);
        c.ignored("slow", Some("needs a disk"));
        c.footer(&["family-wise".to_owned()]);
        c.failures(&[("x".to_owned(), None)]);
        c.result(
            &Counts::of(&report.tests[..1], 3),
            Duration::from_millis(10),
        );
    });
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let shape: Vec<(&str, &str)> = lines
        .iter()
        .map(|v| (v["type"].as_str().unwrap(), v["event"].as_str().unwrap()))
        .collect();
    assert_eq!(
        shape,
        [
            ("suite", "started"),
            ("test", "started"),
            ("test", "ok"),
            ("test", "started"),
            ("test", "ignored"),
            ("suite", "ok"),
        ]
    );
    assert_eq!(lines[0]["test_count"], 2);
    assert_eq!(lines[4]["message"], "needs a disk");
    assert_eq!(lines[5]["filtered_out"], 3);
    assert_eq!(lines[5]["measured"], 0);
}
