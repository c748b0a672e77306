//! The JSON module held to serde_json (a dev-dependency) on generated
//! values: what one writes the other reads back equal, both ways, and a
//! text one refuses the other refuses too. Cases: `PROPTEST_CASES`
//! (256 by default; docs/robustness.md gives the command for 100k).

use proptest::prelude::*;

use super::{parse, write_compact, write_pretty, Number, Object, Value};

/// Our value as serde_json's.
fn to_serde(v: &Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Number(Number::U64(u)) => serde_json::Value::from(*u),
        Value::Number(Number::I64(i)) => serde_json::Value::from(*i),
        Value::Number(Number::F64(f)) => serde_json::Value::from(*f),
        Value::String(s) => serde_json::Value::String(s.clone()),
        Value::Array(a) => serde_json::Value::Array(a.iter().map(to_serde).collect()),
        Value::Object(o) => {
            serde_json::Value::Object(o.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect())
        }
    }
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        any::<String>().prop_map(Value::String),
        "[a-z\\\\\"\\n\\t\\u{1}-\\u{1f}é😀]{0,8}".prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{0,3}", inner, 0..6).prop_map(|m| {
                let mut o = Object::new();
                for (k, v) in m {
                    o.insert(k, v);
                }
                Value::Object(o)
            }),
        ]
    })
}

proptest! {
    // The suite's configuration: a fixed seed, no failure files (`tests/common/props.rs`).
    #![proptest_config(crate::props::config())]

    #[test]
    fn serde_json_reads_what_we_write(v in value()) {
        for text in [write_compact(&v), write_pretty(&v)] {
            let theirs: serde_json::Value = serde_json::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
            prop_assert_eq!(&theirs, &to_serde(&v), "{}", text);
        }
    }

    #[test]
    fn we_read_what_serde_json_writes(v in value()) {
        let serde = to_serde(&v);
        for text in [serde_json::to_string(&serde).unwrap(), serde_json::to_string_pretty(&serde).unwrap()] {
            let ours = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
            prop_assert_eq!(to_serde(&ours), serde.clone(), "{}", text);
            // And written again, the text is the same, byte for byte, but
            // where a number has two shortest forms (1513954631144922.2 and
            // .3 are the same f64): then only a digit differs.
            let ours_text = if text.contains('\n') { write_pretty(&ours) } else { write_compact(&ours) };
            let only_digits_differ = ours_text.len() == text.len()
                && ours_text
                    .bytes()
                    .zip(text.bytes())
                    .all(|(a, b)| a == b || (a.is_ascii_digit() && b.is_ascii_digit()));
            prop_assert!(only_digits_differ, "ours {}\ntheirs {}", ours_text, text);
        }
    }

    #[test]
    fn both_refuse_the_same_damaged_texts(v in value(), cut in any::<prop::sample::Index>(), junk in "[\\]\\[{},:\"0-9a-z \\\\]") {
        let text = write_pretty(&v);
        // Cut the text short, or put a junk character in it.
        let at = cut.index(text.len() + 1);
        if !text.is_char_boundary(at) {
            return Ok(());
        }
        for damaged in [text[..at].to_owned(), format!("{}{junk}{}", &text[..at], &text[at..])] {
            let ours = parse(&damaged);
            let theirs = serde_json::from_str::<serde_json::Value>(&damaged);
            // serde_json keeps the last of a duplicate key; we refuse it.
            let duplicate = ours.as_ref().is_err_and(|e| e.to_string().contains("appears twice"));
            if !duplicate {
                prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}: ours {:?}, theirs {:?}", damaged, ours, theirs);
            }
            if let (Ok(ours), Ok(theirs)) = (&ours, &theirs) {
                prop_assert_eq!(&to_serde(ours), theirs);
            }
            if let (Err(ours), Err(theirs)) = (&ours, &theirs) {
                prop_assert_eq!(ours.is_eof(), theirs.is_eof(), "{:?}: ours {}, theirs {}", damaged, ours, theirs);
                // serde_json may stop inside a huge exponent; the line agrees.
                let range = ours.to_string().contains("number out of range");
                if range {
                    prop_assert_eq!(ours.line(), theirs.line());
                } else if !duplicate {
                    prop_assert_eq!((ours.line(), ours.column()), (theirs.line(), theirs.column()), "{:?}: ours {}, theirs {}", damaged, ours, theirs);
                }
            }
        }
    }
}
