//! Property tests of `report.json` ([`super::to_string`], [`super::from_str`],
//! [`super::read`]): a report perfmark writes, whatever its numbers (NaN
//! and infinities included) and texts, reads back to the same report; any
//! other text (a report damaged, cut short, given wrong types, nested
//! deep) reads as a report or as an error that names the file and the
//! place, and nothing panics. The case count and seed:
//! `tests/common/props.rs`.

use std::path::PathBuf;

use proptest::prelude::*;

use super::{from_str, read, to_string};
use crate::checks::Verdict;
use crate::props;
use crate::report::{fixtures, Report, TestReport};

/// Any `f64`: NaN and the infinities too, which JSON writes as `null`.
fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -1e9..1e9f64,
        1 => any::<f64>(),
        1 => prop::sample::select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0]),
    ]
}

/// One test's report: measured on any finite samples (the statistics run
/// for real, as in the runner), or not measured.
fn test_report() -> impl Strategy<Value = TestReport> {
    let finite = prop_oneof![
        -1e6..1e6f64,
        proptest::num::f64::NORMAL | proptest::num::f64::ZERO | proptest::num::f64::SUBNORMAL,
    ];
    prop_oneof![
        3 => (
            any::<String>(),
            prop::collection::vec(finite, 1..50),
            prop::option::of(0.5..1e6f64),
            prop::collection::vec(any::<String>(), 0..3),
            number(),
        )
            .prop_map(|(name, samples, budget, warnings, rate)| {
                let mut t = fixtures::measured(&name, samples, budget);
                t.warnings = warnings;
                t.rate_per_s = Some(rate);
                t
            }),
        1 => (
            any::<String>(),
            prop::sample::select(vec![Verdict::Pass, Verdict::Fail, Verdict::Ignored, Verdict::NotMeasured]),
            prop::option::of(any::<String>()),
        )
            .prop_map(|(name, verdict, panic)| fixtures::unmeasured(&name, verdict, panic.as_deref())),
    ]
}

/// [`fixtures::realistic`], built once: its statistics over thousands of
/// samples take longer than the rest of a case.
fn realistic_report() -> &'static Report {
    static REALISTIC: std::sync::OnceLock<Report> = std::sync::OnceLock::new();
    REALISTIC.get_or_init(fixtures::realistic)
}

fn report() -> impl Strategy<Value = Report> {
    (
        prop::collection::vec(test_report(), 0..4),
        any::<String>(),
        prop::option::of(number()),
        prop::collection::vec(any::<String>(), 0..3),
        number(),
        // The realistic report holds thousands of samples: now and then.
        prop::bool::weighted(1.0 / 16.0),
    )
        .prop_map(
            |(tests, target, noise_floor, warnings, finished, realistic)| {
                let mut report = if realistic {
                    let mut r = realistic_report().clone();
                    r.tests.extend(tests);
                    r
                } else {
                    fixtures::report(tests)
                };
                report.target = target;
                report.noise_floor = noise_floor;
                report.environment_warnings = warnings;
                report.finished_in_s = finished;
                report
            },
        )
}

#[test]
fn what_perfmark_writes_reads_back_equal() {
    props::check("report.json: write then read", report(), |report| {
        let text = to_string(&report);
        let back = from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        // Equal as written: every field, every number's bits (NaN reads
        // back as NaN, an unbounded interval as ±∞).
        prop_assert_eq!(to_string(&back), text);
        prop_assert_eq!(back.tests.len(), report.tests.len());
        for (a, b) in report.tests.iter().zip(&back.tests) {
            prop_assert_eq!(&a.name, &b.name);
            prop_assert_eq!(a.verdict, b.verdict);
            let samples = |t: &TestReport| t.measurement.as_ref().map(|m| m.samples_ns.clone());
            prop_assert_eq!(samples(a), samples(b));
        }
        Ok(())
    });
}

/// Texts a reader may meet: a report damaged, any text.
fn texts() -> impl Strategy<Value = Vec<u8>> {
    // The realistic report with its long series cut short: every field
    // is still there to damage, and a case stays quick.
    let mut report = realistic_report().clone();
    for t in &mut report.tests {
        if let Some(m) = t.measurement.as_mut() {
            m.samples_ns.truncate(20);
        }
    }
    let valid = to_string(&report).into_bytes();
    prop_oneof![
        6 => prop::collection::vec(props::mutation(), 1..4)
            .prop_map(move |ms| props::mutate(&valid, &ms)),
        1 => prop::collection::vec(any::<u8>(), 0..128),
        1 => any::<String>().prop_map(String::into_bytes),
    ]
}

#[test]
fn any_text_is_a_report_or_an_error_naming_the_file_and_the_place() {
    let dir = scratch();
    let path = dir.join("report.json");
    props::check("report.json: read any text", texts(), |bytes| {
        std::fs::write(&path, &bytes).expect("write the case");
        match read(&path) {
            Ok(report) => {
                // What was read writes and reads again the same.
                let text = to_string(&report);
                let back = from_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(to_string(&back), text);
            }
            Err(message) => {
                let name = format!("{} is not a perfmark report: ", path.display());
                prop_assert!(message.starts_with(&name), "{}", message);
                prop_assert!(
                    message.contains(" line ") || message.contains("not UTF-8"),
                    "{}",
                    message
                );
            }
        }
        prop_assert_eq!(
            std::fs::read(&path).expect("the case"),
            bytes,
            "a read wrote"
        );
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
}

fn scratch() -> PathBuf {
    let root = std::path::Path::new("/dev/shm");
    let root = if root.is_dir() {
        root.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let dir = root.join(format!("perfmark-report-properties-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Deep nesting where a reader skips what it does not know (a field a
/// later version added) is skipped or refused, never a stack overflow.
#[test]
fn deep_nesting_in_an_unknown_field_overflows_no_stack() {
    let text = to_string(&fixtures::report(Vec::new()));
    let depth = 200_000;
    for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
        let deep = format!("{}0{}", open.repeat(depth), close.repeat(depth));
        let nested = text.replacen('{', &format!("{{\"later\": {deep},"), 1);
        // Read (skipped) or refused: either way this thread is still here.
        let _ = from_str(&nested);
    }
}
