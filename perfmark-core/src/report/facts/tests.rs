use super::*;
use crate::checks::Verdict;
use crate::report::fixtures;

fn value<'a>(facts: &'a [Fact], label: &str) -> &'a str {
    &facts
        .iter()
        .find(|f| f.label == label)
        .unwrap_or_else(|| panic!("no {label} in {facts:?}"))
        .value
}

#[test]
fn platform_facts_name_the_machine_and_the_timer() {
    let facts = platform_facts(&fixtures::report(Vec::new()));
    let labels: Vec<&str> = facts.iter().map(|f| f.label).collect();
    assert_eq!(
        labels,
        [
            "OS",
            "CPU",
            "compiler",
            "build",
            "timer",
            "noise floor",
            "interference"
        ]
    );
    assert_eq!(
        value(&facts, "interference"),
        "observed from /proc/thread-self/schedstat, /proc/stat; a test is warned when \
         other work takes at least 5% and 10.00 ms of its time (missing: getrusage \
         (context switches and this process's CPU time), /proc/thread-self/sched \
         (migrations), /proc/loadavg (the load average))"
    );
    assert_eq!(value(&facts, "OS"), "linux (kernel 6.1.0-test) · x86_64");
    assert_eq!(
        value(&facts, "timer"),
        "resolution 20.00 ns · overhead 24.50 ns per read"
    );
    assert!(value(&facts, "noise floor").starts_with("1.20% (relative"));
}

#[test]
fn test_facts_in_order() {
    let t = fixtures::measured(
        "t",
        (0..60).map(|i| 40.0 + f64::from(i % 7)).collect(),
        Some(50.0),
    );
    let facts = test_facts(&t);
    let labels: Vec<&str> = facts.iter().map(|f| f.label).collect();
    assert_eq!(
        labels,
        [
            "samples",
            "sampling",
            "first call",
            "loop overhead",
            "warm-up",
            "sampling time",
            "summary",
            "range",
            "Tukey outliers",
            "budget",
            "CI correction",
            "serial correlation",
            "modes",
            "sd CI",
            "gating error",
            "noise"
        ]
    );
    assert_eq!(
        value(&facts, "sampling"),
        "the routine in a loop (iter): the CI reached the target precision"
    );
    assert_eq!(value(&facts, "first call"), "1.234 µs (cold, timed alone)");
    assert!(value(&facts, "budget").starts_with("50.00 ns (CI under, estimate at "));
    assert_eq!(
        value(&facts, "gating error"),
        "at most 0.0010% per sample from the timer's resolution"
    );
}

#[test]
fn interference_facts_give_the_time_lost_and_the_figures() {
    let mut t = fixtures::measured("t", vec![40.0; 60], None);
    t.interference = Some(fixtures::interference(300));
    let facts = test_facts(&t);
    let labels: Vec<&str> = facts.iter().map(|f| f.label).collect();
    assert!(labels.ends_with(&["interference", "CPUs"]), "{labels:?}");
    assert_eq!(
        value(&facts, "interference"),
        "30% of 1.000 s taken by other work, past the warning threshold · waited 300.0 ms \
         for a CPU while other processes ran (300.0 ms runnable in all) · 0.000 ns \
         estimated stolen · 700.0 ms on a CPU · 300 involuntary and 0 voluntary switches · \
         3 migrations · other processes used 1.30 CPU-s · steal 0.0% of all CPUs' time · \
         load average 1.20 → 1.20"
    );
    assert_eq!(
        value(&facts, "CPUs"),
        "cpu0 busy 100%, steal 0.0% · cpu1 busy 100%, steal 0.0%"
    );
}

#[test]
fn verdicts_in_words() {
    assert_eq!(verdict_words(Verdict::NotMeasured), "not measured");
    assert_eq!(verdict_words(Verdict::Fail), "fail");
}

#[test]
fn an_unmeasured_test_has_no_facts() {
    let t = fixtures::unmeasured("boom", Verdict::Fail, Some("oops"));
    assert!(test_facts(&t).is_empty());
}

#[test]
fn a_baseline_from_another_machine_is_shortened_in_a_row_also_when_read_back() {
    let t = fixtures::from_another_machine(fixtures::measured("t", vec![100.0; 20], None));
    let in_memory = table_reasons(&t);
    assert!(
        in_memory.contains(&OTHER_MACHINE_SHORT.to_owned()),
        "{in_memory:?}"
    );
    // report.json keeps no reason's source: the row is the same.
    let text = crate::report::json::to_string(&fixtures::report(vec![t]));
    let back = crate::report::json::from_str(text).unwrap();
    assert!(back.tests[0].reasons.iter().all(|r| r.source.is_none()));
    assert_eq!(table_reasons(&back.tests[0]), in_memory);
}
