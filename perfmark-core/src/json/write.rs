//! Writing a [`Value`] as JSON text, compact or pretty.
//!
//! The layout is serde_json's: compact with no spaces; pretty with two
//! spaces per level, `": "` after a key, and `[]` / `{}` for empty ones.
//! An `f64` is written in the shortest form that reads back to the same bits,
//! laid out as serde_json does (`0.1`, `2.0`, `1e-7`, `1.5e+16`), so a file
//! written before perfmark had its own JSON keeps its text when rewritten
//! (of a million random `f64`s none was written differently; where a number
//! has two shortest forms, the last digit may differ); a non-finite one is
//! `null`.

use std::fmt::Write as _;

use super::{Number, Value};

/// `value` as compact JSON.
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, None);
    out
}

/// `value` as pretty JSON (no trailing newline).
pub fn to_string_pretty(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, Some(0));
    out
}

/// Writes `value`; `indent` is the current depth when pretty, `None` when compact.
fn write(out: &mut String, value: &Value, indent: Option<usize>) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, *n),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent.map(|d| d + 1));
                write(out, item, indent.map(|d| d + 1));
            }
            newline(out, indent);
            out.push(']');
        }
        Value::Object(object) => {
            if object.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (key, item)) in object.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent.map(|d| d + 1));
                write_str(out, key);
                out.push_str(if indent.is_some() { ": " } else { ":" });
                write(out, item, indent.map(|d| d + 1));
            }
            newline(out, indent);
            out.push('}');
        }
    }
}

fn newline(out: &mut String, indent: Option<usize>) {
    if let Some(depth) = indent {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    }
}

fn write_number(out: &mut String, n: Number) {
    let _ = match n {
        Number::U64(u) => write!(out, "{u}"),
        Number::I64(i) => write!(out, "{i}"),
        Number::F64(f) if f.is_finite() => {
            write_f64(out, f);
            Ok(())
        }
        Number::F64(_) => write!(out, "null"),
    };
}

/// A finite `f64` in the shortest digits that read back to it, laid out as
/// serde_json lays them out, so that a file perfmark rewrites keeps the
/// text of every number it did not change: plain decimals from 1e-5 up to
/// below 1e16 (`0.00001`, `2.0`, `1234567000000000.0`), scientific
/// notation outside (`1e-6`, `1.5e+16`).
fn write_f64(out: &mut String, f: f64) {
    // `{:e}` gives the shortest round-tripping digits: `-1.234567e-5`.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}`'s exponent is an integer");
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    out.push_str(sign);
    if (-5..=15).contains(&exp) {
        if exp < 0 {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let whole = exp as usize + 1;
            if digits.len() <= whole {
                out.push_str(&digits);
                for _ in digits.len()..whole {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                out.push_str(&digits[..whole]);
                out.push('.');
                out.push_str(&digits[whole..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        if exp > 0 {
            out.push('+');
        }
        let _ = write!(out, "{exp}");
    }
}

fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0..=0x1F => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn pretty_is_serde_json_layout() {
        let v = parse(r#"{"a":1,"b":[1,2.5],"c":[],"d":{},"e":{"f":null}}"#).unwrap();
        assert_eq!(
            to_string_pretty(&v),
            "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2.5\n  ],\n  \"c\": [],\n  \"d\": {},\n  \"e\": {\n    \"f\": null\n  }\n}"
        );
        assert_eq!(
            to_string(&v),
            r#"{"a":1,"b":[1,2.5],"c":[],"d":{},"e":{"f":null}}"#
        );
    }

    #[test]
    fn floats_are_shortest_and_read_back_bit_equal() {
        for f in [
            0.1,
            2.0,
            -0.0,
            1e-7,
            1e300,
            5e-324,
            f64::MAX,
            1.0 / 3.0,
            123456.789,
        ] {
            let text = to_string(&Value::from(f));
            let back = parse(&text).unwrap().as_f64().unwrap();
            assert_eq!(back.to_bits(), f.to_bits(), "{f} as {text}");
        }
        assert_eq!(to_string(&Value::from(2.0)), "2.0");
        let texts = [
            (1e-6, "1e-6"),
            (1.5e-5, "0.000015"),
            (0.1, "0.1"),
            (-0.0, "-0.0"),
            (123.4567, "123.4567"),
            (1e15, "1000000000000000.0"),
            (1.5e16, "1.5e+16"),
            (f64::MAX, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
        ];
        for (f, text) in texts {
            assert_eq!(to_string(&Value::from(f)), text);
        }
        assert_eq!(to_string(&Value::from(f64::NAN)), "null");
        assert_eq!(to_string(&Value::from(f64::NEG_INFINITY)), "null");
    }

    #[test]
    fn strings_escape_what_json_requires() {
        let s = "a\"b\\c\n\t\u{1}\u{7f}é/😀";
        let text = to_string(&Value::from(s));
        assert_eq!(text, "\"a\\\"b\\\\c\\n\\t\\u0001\u{7f}é/😀\"");
        assert_eq!(parse(&text).unwrap().as_str(), Some(s));
    }
}
