//! Reading JSON text (RFC 8259) into a [`Value`].
//!
//! Strict where the files need it: no trailing commas, no comments, no
//! control characters inside strings, only whitespace after the value, and
//! no key twice in one object (JSON leaves a duplicate's meaning to the
//! reader; a baseline file with one is most often a merge that kept both
//! sides, and keeping either silently would judge tests on a baseline
//! nobody chose). Numbers keep their kind: an integer that fits a `u64` or
//! an `i64` stays exact, every other number is the `f64` nearest to it
//! (`str::parse`, correctly rounded, so a written `f64` reads back
//! bit-equal). Nesting deeper than [`MAX_DEPTH`] is refused rather than
//! allowed to overflow the stack.

use super::{Error, Number, Object, Value};

/// The deepest nesting of arrays and objects read (serde_json's limit).
pub const MAX_DEPTH: usize = 128;

/// Parses `text` as one JSON value.
///
/// # Errors
/// When `text` is not JSON; the error names the line and column (1-based)
/// and says whether the text ended early ([`Error::is_eof`]).
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut p = Parser {
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    p.skip_ws();
    let value = p.value()?;
    p.skip_ws();
    if p.at < p.bytes.len() {
        return Err(p.error("trailing characters after the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    depth: usize,
}

impl Parser<'_> {
    /// An error at the current position.
    fn error(&self, message: &str) -> Error {
        self.error_at(self.at, message)
    }

    /// An error at the byte `at`. The place is serde_json's, which users
    /// saw before: the line and column just after the offending byte is
    /// read, columns counted in bytes (so column 0 when it is a newline).
    fn error_at(&self, at: usize, message: &str) -> Error {
        let read = &self.bytes[..(at + 1).min(self.bytes.len())];
        let line = 1 + read.iter().filter(|&&b| b == b'\n').count();
        let line_start = read.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        Error::syntax(message, line, read.len() - line_start, false)
    }

    /// The text ended early: the place is that of the last byte.
    fn eof(&self) -> Error {
        let last = self.bytes.len().checked_sub(1);
        let mut e = match last {
            Some(at) => self.error_at(at, "EOF while parsing a value"),
            None => Error::syntax("EOF while parsing a value", 1, 0, false),
        };
        e.eof = true;
        e
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Result<Value, Error> {
        match self.peek() {
            None => Err(self.eof()),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::String),
            Some(b'[') => self.nested(Self::array),
            Some(b'{') => self.nested(Self::object),
            Some(b'-' | b'0'..=b'9') => self.number().map(Value::Number),
            Some(_) => Err(self.error("expected a JSON value")),
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Result<Value, Error>) -> Result<Value, Error> {
        if self.depth == MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.depth += 1;
        let value = f(self);
        self.depth -= 1;
        value
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        for &expected in word.as_bytes() {
            match self.peek() {
                None => return Err(self.eof()),
                Some(b) if b == expected => self.at += 1,
                Some(_) => return Err(self.error(&format!("expected `{word}`"))),
            }
        }
        Ok(value)
    }

    fn array(&mut self) -> Result<Value, Error> {
        self.at += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                None => return Err(self.eof()),
                Some(_) => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self) -> Result<Value, Error> {
        self.at += 1; // '{'
        let mut object = Object::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Value::Object(object));
        }
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {}
                None => return Err(self.eof()),
                Some(_) => return Err(self.error("expected a key in double quotes")),
            }
            let key = self.string()?;
            if object.get(&key).is_some() {
                let why = format!(
                    "the key {key:?} appears twice in one object; keep one (a merge that kept \
                     both sides?)"
                );
                return Err(self.error_at(self.at - 1, &why));
            }
            self.skip_ws();
            match self.peek() {
                Some(b':') => self.at += 1,
                None => return Err(self.eof()),
                Some(_) => return Err(self.error("expected `:`")),
            }
            self.skip_ws();
            let value = self.value()?;
            object.insert(key, value);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Value::Object(object));
                }
                None => return Err(self.eof()),
                Some(_) => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    fn string(&mut self) -> Result<String, Error> {
        self.at += 1; // '"'
        let mut out = String::new();
        loop {
            // The run of plain characters up to the next quote, escape or control.
            let start = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // `start..at` ends at an ASCII byte or the end: whole UTF-8 characters.
            out.push_str(std::str::from_utf8(&self.bytes[start..self.at]).expect("input is a str"));
            match self.peek() {
                None => return Err(self.eof()),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = self.escape()?;
                    out.push(c);
                }
                Some(_) => return Err(self.error("control character in a string")),
            }
        }
    }

    fn escape(&mut self) -> Result<char, Error> {
        let Some(b) = self.peek() else {
            return Err(self.eof());
        };
        self.at += 1;
        Ok(match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                if (0xD800..0xDC00).contains(&high) {
                    // A surrogate pair: `\uD83D\uDE00`.
                    if self.bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                        return Err(self.error("lone leading surrogate in a \\u escape"));
                    }
                    self.at += 2;
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return Err(self.error("invalid trailing surrogate in a \\u escape"));
                    }
                    let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    char::from_u32(c).expect("a surrogate pair is a scalar value")
                } else {
                    char::from_u32(high)
                        .ok_or_else(|| self.error("lone trailing surrogate in a \\u escape"))?
                }
            }
            _ => {
                self.at -= 1;
                return Err(self.error("invalid escape"));
            }
        })
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let start = self.at;
        let Some(digits) = self.bytes.get(start..start + 4) else {
            self.at = self.bytes.len();
            return Err(self.eof());
        };
        self.at += 4;
        let mut v = 0;
        for &b in digits {
            let Some(d) = (b as char).to_digit(16) else {
                // serde_json's place: the last of the four.
                return Err(self.error_at(start + 3, "invalid escape"));
            };
            v = v * 16 + d;
        }
        Ok(v)
    }

    fn number(&mut self) -> Result<Number, Error> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            None => return Err(self.eof()),
            Some(_) => return Err(self.error("invalid number")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.at += 1;
            match self.peek() {
                Some(b'0'..=b'9') => self.digits(),
                None => return Err(self.eof()),
                Some(_) => return Err(self.error("invalid number")),
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            match self.peek() {
                Some(b'0'..=b'9') => self.digits(),
                None => return Err(self.eof()),
                Some(_) => return Err(self.error("invalid number")),
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).expect("ASCII");
        // `-0` is the float −0.0, as serde_json reads it: no integer is negative zero.
        if integer && text != "-0" {
            if let Ok(u) = text.parse::<u64>() {
                return Ok(Number::U64(u));
            }
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Number::I64(i));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Number::F64(f)),
            _ => Err(self.error_at(self.at - 1, "number out of range")),
        }
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_every_kind_of_value() {
        let v = parse(
            r#" {"a": [1, -2, 2.5, 1e3, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n"} "#,
        )
        .unwrap();
        let a = v.get("a").unwrap().as_array().unwrap();
        assert_eq!(a[0], Value::Number(Number::U64(1)));
        assert_eq!(a[1], Value::Number(Number::I64(-2)));
        assert_eq!(a[2], Value::Number(Number::F64(2.5)));
        assert_eq!(a[3], Value::Number(Number::F64(1000.0)));
        assert_eq!(a[4..], [Value::Bool(true), Value::Bool(false), Value::Null]);
        assert_eq!(v.get("b").unwrap().as_str(), Some("x\"é😀\n"));
    }

    #[test]
    fn big_integers_stay_exact_and_overflow_to_f64() {
        assert_eq!(
            parse("18446744073709551615").unwrap(),
            Value::Number(Number::U64(u64::MAX))
        );
        assert_eq!(
            parse("-9223372036854775808").unwrap(),
            Value::Number(Number::I64(i64::MIN))
        );
        assert_eq!(
            parse("18446744073709551616").unwrap(),
            Value::Number(Number::F64(18446744073709551616.0))
        );
        assert!(error("1e400").contains("number out of range"));
        assert_eq!(parse("-0").unwrap(), Value::Number(Number::F64(-0.0)));
        assert!(parse("-0").unwrap().as_f64().unwrap().is_sign_negative());
    }

    #[test]
    fn refuses_what_is_not_json_with_its_place() {
        assert_eq!(error("[1,]"), "expected a JSON value at line 1 column 4");
        assert_eq!(
            error("{\n  \"a\": 1,\n  \"a\": 2\n}"),
            "the key \"a\" appears twice in one object; keep one (a merge that kept both \
             sides?) at line 3 column 5"
        );
        assert!(parse(r#"[{"x": 1, "y": {"x": 2}}]"#).is_ok());
        assert!(error(r#"[{"x": 1}, {"y": {"z": 2, "z": 3}}]"#).contains("\"z\" appears twice"));
        assert_eq!(
            error("01"),
            "trailing characters after the JSON value at line 1 column 2"
        );
        assert_eq!(
            error("\"a\u{1}\""),
            "control character in a string at line 1 column 3"
        );
        assert_eq!(error("[1 2]"), "expected `,` or `]` at line 1 column 4");
        assert_eq!(error("nul x"), "expected `null` at line 1 column 4");
        assert_eq!(error("\"\\x\""), "invalid escape at line 1 column 3");
        assert_eq!(error("-"), "EOF while parsing a value at line 1 column 1");
        assert_eq!(error("[\n"), "EOF while parsing a value at line 2 column 0");
        assert!(error("\"\\ud800\"").contains("lone leading surrogate"));
        assert!(error("1.").contains("EOF"));
        assert!(error("1.e3").contains("invalid number"));
    }

    #[test]
    fn an_early_end_is_eof_wherever_it_falls() {
        for text in [
            "", "{", "{\"a\"", "{\"a\":", "{\"a\":1", "[1,", "\"ab", "tru", "-", "1e",
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.is_eof(), "{text:?}: {e}");
        }
        assert!(!parse("[1,]").unwrap_err().is_eof());
    }

    #[test]
    fn depth_is_bounded() {
        let deep = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&deep).is_ok());
        let deeper = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(error(&deeper).contains("recursion limit exceeded"));
        let huge = "[".repeat(1_000_000);
        assert!(error(&huge).contains("recursion limit exceeded"));
    }

    #[test]
    fn columns_count_bytes() {
        assert_eq!(
            error("\"é\" x"),
            "trailing characters after the JSON value at line 1 column 6"
        );
    }
}
