//! The one grammar of option values (`perfmark_options::grammar`) and the
//! checks behind it: [`Key::parse`] is what the macro calls on an
//! attribute's string, [`Key::parse_env`] what the runtime calls on a
//! `PERFMARK_*` variable, [`Key::check_number`] what the macro calls on
//! `confidence = 0.95`.

use perfmark_options::grammar::{self, Refusal, DURATION_UNITS_NS};
use perfmark_options::{Key, Kind, Range, Value};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::props::check;

/// The options whose value is a duration, a percentage or a level.
const VALUED: [Key; 6] = [
    Key::Budget,
    Key::Confidence,
    Key::Regression,
    Key::Precision,
    Key::MaxTime,
    Key::Warmup,
];

/// Texts near the grammar (signs, stray points, spaces, tabs, units in the
/// wrong case or spelling), any text at all, and numbers too long for an
/// `f64`.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[-+ ]{0,2}[0-9]{0,5}(\\.[0-9]{0,4})?[ \t]{0,2}(ns|us|µs|μs|ms|s|%|sec|NS|Us|e3|n s|%%)?[ %\n]?",
        2 => any::<String>(),
        1 => "\\PC{0,16}",
        1 => "-?[0-9]{300,330}(\\.[0-9]{1,5})? ?(ns|s|%)?",
        1 => "[0-9]{1,3}(\\.[0-9]{1,400})? ?(ns|ms|s|%)?",
    ]
}

/// A text of the grammar's form (`digits (. digits)? space? unit`), with
/// the number it holds in the unit's nanoseconds (or percent, or as is).
fn well_formed() -> impl Strategy<Value = (String, f64)> {
    let units: Vec<(&'static str, f64)> = DURATION_UNITS_NS
        .iter()
        .copied()
        .chain([("%", 1.0), ("", 1.0)])
        .collect();
    (
        "[0-9]{1,24}",
        proptest::option::of("[0-9]{1,24}"),
        any::<bool>(),
        proptest::sample::select(units),
    )
        .prop_map(|(whole, fraction, space, (unit, factor))| {
            let number = match fraction {
                Some(f) => format!("{whole}.{f}"),
                None => whole,
            };
            let value: f64 = number.parse().expect("digits are a number");
            let space = if space && !unit.is_empty() { " " } else { "" };
            (format!("{number}{space}{unit}"), value * factor)
        })
}

fn range_of(key: Key) -> &'static Range {
    match &key.spec().kind {
        Kind::Duration(r) | Kind::WholeDuration(r) | Kind::Percent(r) | Kind::Level(r) => r,
        other => panic!("{key:?} holds no range: {other:?}"),
    }
}

/// An accepted value must lie in the option's range, in its field's type;
/// a refusal must name the option and the text, say what is accepted, and
/// be of exactly one kind.
fn value_or_clear_error(
    key: Key,
    text: &str,
    result: &Result<Value, perfmark_options::OptionError>,
    accepts: &str,
) -> Result<(), TestCaseError> {
    let range = range_of(key);
    match result {
        Ok(Value::F64(v)) => {
            prop_assert!(
                v.is_finite() && range.contains(*v),
                "{key:?} {text:?} -> {v}"
            );
            prop_assert!(!matches!(key.spec().kind, Kind::WholeDuration(_)));
        }
        Ok(Value::U64(n)) => {
            prop_assert!(matches!(key.spec().kind, Kind::WholeDuration(_)));
            prop_assert!(range.contains(*n as f64), "{key:?} {text:?} -> {n}");
        }
        // Only `measure` holds a clock and only `complexity` a growth
        // class, and neither takes a number.
        Ok(Value::Measure(m)) => prop_assert!(false, "{key:?} {text:?} -> {m:?}"),
        Ok(Value::Class(c)) => prop_assert!(false, "{key:?} {text:?} -> {c:?}"),
        Err(e) => {
            let message = e.to_string();
            prop_assert_eq!(e.key(), key);
            prop_assert!(e.is_syntax() != e.is_out_of_range(), "{message}");
            prop_assert!(message.contains(key.name()), "{message}");
            prop_assert!(message.contains(&format!("`{text}`")), "{message}");
            prop_assert!(
                message.ends_with(&format!("expected {accepts}")),
                "{message}"
            );
        }
    }
    Ok(())
}

#[test]
fn every_text_is_a_value_in_range_or_an_error_saying_what_is_accepted() {
    check(
        "grammar: every text, every option (macro and runtime)",
        (proptest::sample::select(VALUED.to_vec()), text()),
        |(key, text)| {
            let env_accepts = key.spec().env.as_ref().map_or(key.accepts(), |e| e.accepts);
            value_or_clear_error(key, &text, &key.parse_env(&text), env_accepts)?;
            if !matches!(key.spec().kind, Kind::Level(_)) {
                value_or_clear_error(key, &text, &key.parse(&text), key.accepts())?;
            }
            // The grammar alone never panics either, whatever the text.
            let _ = (
                grammar::duration_ns(&text),
                grammar::percent(&text),
                grammar::number(&text),
            );
            Ok(())
        },
    );
}

#[test]
fn the_macro_and_the_runtime_read_every_text_alike() {
    check(
        "grammar: macro and runtime agree",
        (
            proptest::sample::select(vec![
                Key::Budget,
                Key::Regression,
                Key::Precision,
                Key::MaxTime,
                Key::Warmup,
            ]),
            text(),
        ),
        |(key, text)| {
            match (key.parse(&text), key.parse_env(&text)) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
                (Err(a), Err(b)) => {
                    prop_assert_eq!(a.is_syntax(), b.is_syntax());
                    prop_assert_eq!(a.is_out_of_range(), b.is_out_of_range());
                }
                (a, b) => prop_assert!(false, "{key:?} {text:?}: macro {a:?}, runtime {b:?}"),
            }
            Ok(())
        },
    );
}

#[test]
fn a_confidence_reads_alike_as_a_literal_and_as_text() {
    check(
        "grammar: confidence literal and text agree",
        "[0-9]{1,3}\\.[0-9]{1,20}",
        |written| {
            let literal: f64 = written.parse().expect("a decimal");
            match (
                Key::Confidence.check_number(literal, &written),
                Key::Confidence.parse_env(&written),
            ) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
                (Err(a), Err(b)) => prop_assert_eq!(a.is_out_of_range(), b.is_out_of_range()),
                (a, b) => prop_assert!(false, "{written}: literal {a:?}, text {b:?}"),
            }
            Ok(())
        },
    );
}

#[test]
fn well_formed_texts_read_as_the_number_they_spell() {
    check(
        "grammar: well-formed texts against a reference",
        well_formed(),
        |(text, value)| {
            let expected = if value.is_finite() {
                Ok(value)
            } else {
                Err(Refusal::TooLarge)
            };
            let got = if text.ends_with('%') {
                grammar::percent(&text)
            } else if text.ends_with(|c: char| c.is_ascii_digit()) {
                grammar::number(&text)
            } else {
                grammar::duration_ns(&text)
            };
            prop_assert_eq!(got, expected, "{}", text);
            Ok(())
        },
    );
}

#[test]
fn a_minus_sign_refuses_a_valid_value_as_negative_and_changes_nothing_else() {
    check(
        "grammar: minus sign",
        text().prop_filter("unsigned", |t| !t.starts_with('-')),
        |text| {
            let signed = format!("-{text}");
            for parse in [grammar::duration_ns, grammar::percent, grammar::number] {
                let expected = parse(&text).and(Err(Refusal::Negative));
                prop_assert_eq!(parse(&signed), expected, "{:?}", signed);
            }
            Ok(())
        },
    );
}

/// Any finite, non-negative `f64`: zero, subnormal, normal, huge.
fn non_negative() -> impl Strategy<Value = f64> {
    prop_oneof![
        proptest::num::f64::POSITIVE | proptest::num::f64::ZERO | proptest::num::f64::SUBNORMAL,
        0.0..1e12f64,
    ]
}

#[test]
fn numbers_written_as_text_read_back_equal() {
    check(
        "grammar: round trip of numbers through text",
        (non_negative(), any::<bool>()),
        |(x, space)| {
            // `{}` of an f64 writes the shortest decimal that reads back
            // as the same number, and never an exponent: the grammar's form.
            let space = if space { " " } else { "" };
            prop_assert_eq!(grammar::duration_ns(&format!("{x}{space}ns")), Ok(x));
            prop_assert_eq!(grammar::percent(&format!("{x}{space}%")), Ok(x));
            prop_assert_eq!(grammar::number(&format!("{x}")), Ok(x));
            Ok(())
        },
    );
}

#[test]
fn whole_durations_written_in_nanoseconds_read_back_equal() {
    check(
        "grammar: round trip of whole durations",
        // Up to 2^53 ns (104 days): every whole number an f64 holds exactly.
        1u64..=(1u64 << 53),
        |ns| {
            prop_assert_eq!(
                Key::MaxTime.parse_env(&format!("{ns}ns")),
                Ok(Value::U64(ns))
            );
            prop_assert_eq!(
                Key::Warmup.parse_env(&format!("{ns} ns")),
                Ok(Value::U64(ns))
            );
            Ok(())
        },
    );
}
