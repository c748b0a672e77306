//! The JSON text of the files people read and review: baseline files and
//! `report.json`.
//!
//! It is serde_json's pretty printing (two-space indent, one object key per
//! line) except for arrays of numbers, which are written on one line:
//! `"samples_ns": [811.9, 812.4, 813.0]`. serde_json's `PrettyFormatter`
//! puts every array element on its own line, so a baseline entry of 800
//! samples took 800 lines and re-recording one test changed most of them;
//! with the samples on one line an entry is some 30 lines and a
//! re-recording changes one line per field that moved.
//!
//! An array's layout is decided by its first element: a number, `true`,
//! `false` or `null` (what a non-finite `f64` is written as) puts the array
//! on one line, `[a, b, c]`; a string, an object or an array puts each
//! element on its own line, as serde_json does. An empty array is `[]`. In
//! the rare array that mixes both, later elements follow the first's
//! layout; the text is valid JSON either way.
//!
//! Only whitespace differs from serde_json's pretty text: numbers, strings
//! and escapes are serde_json's own (a number is the shortest text that
//! reads back to the same `f64`), so any JSON reader reads the same values
//! from both layouts.

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

/// One level of indentation.
const INDENT: &[u8] = b"  ";

/// `value` as JSON text in this module's layout, with no trailing newline
/// (as `serde_json::to_string_pretty`).
///
/// # Errors
/// When `value`'s `Serialize` fails (e.g. a map with keys that are not
/// strings); serde_json's own error.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut text = Vec::with_capacity(256);
    let mut serializer = serde_json::Serializer::with_formatter(&mut text, NumbersInline::new());
    value.serialize(&mut serializer)?;
    Ok(String::from_utf8(text).expect("serde_json writes UTF-8"))
}

/// How an array is being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// No element written yet.
    Undecided,
    /// `[a, b, c]` on one line.
    OneLine,
    /// One element per line, indented.
    PerLine,
}

/// The [`Formatter`] of [`to_string`]: serde_json's `PrettyFormatter`, but
/// an array whose first element is a number, a bool or `null` is written on
/// one line.
///
/// serde_json announces an array element ([`Formatter::begin_array_value`])
/// before it says what the element is, so the separator is held back until
/// the element's first write shows whether it is a scalar; the array's
/// layout is fixed then.
#[derive(Debug)]
struct NumbersInline {
    /// Indentation levels: open objects and arrays.
    depth: usize,
    /// The layout of each open array, innermost last.
    arrays: Vec<Layout>,
    /// An array element has begun and its separator is not written yet:
    /// `Some(first)`, `first` when it is the array's first element.
    pending: Option<bool>,
    /// The innermost open object has a key (as `PrettyFormatter`'s
    /// `has_value`): its closing brace goes on a line of its own.
    has_value: bool,
}

impl NumbersInline {
    fn new() -> NumbersInline {
        NumbersInline {
            depth: 0,
            arrays: Vec::new(),
            pending: None,
            has_value: false,
        }
    }

    /// Called as a value starts (its first write): writes the held-back
    /// separator if the value is an array element, fixing the array's
    /// layout at its first element. `scalar`: the value is a number, a bool
    /// or `null`.
    fn start_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        scalar: bool,
    ) -> io::Result<()> {
        let Some(first) = self.pending.take() else {
            return Ok(());
        };
        let layout = self
            .arrays
            .last_mut()
            .expect("an array element is inside an array");
        if *layout == Layout::Undecided {
            *layout = if scalar {
                Layout::OneLine
            } else {
                Layout::PerLine
            };
        }
        match (*layout, first) {
            (Layout::OneLine, true) => Ok(()),
            (Layout::OneLine, false) => writer.write_all(b", "),
            (_, first) => self.new_line(writer, if first { b"" } else { b"," }),
        }
    }

    /// `before`, then a new line indented to the current depth.
    fn new_line<W: ?Sized + io::Write>(&self, writer: &mut W, before: &[u8]) -> io::Result<()> {
        writer.write_all(before)?;
        writer.write_all(b"\n")?;
        (0..self.depth).try_for_each(|_| writer.write_all(INDENT))
    }

    /// Closes an object or array with `bracket`, on a line of its own if
    /// `own_line`.
    fn close<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        own_line: bool,
        bracket: &[u8],
    ) -> io::Result<()> {
        self.depth -= 1;
        if own_line {
            self.new_line(writer, b"")?;
        }
        writer.write_all(bracket)
    }
}

/// Scalars: the held-back separator, then serde_json's own text.
macro_rules! scalar_writers {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            fn $method<W: ?Sized + io::Write>(
                &mut self,
                writer: &mut W,
                value: $ty,
            ) -> io::Result<()> {
                self.start_value(writer, true)?;
                CompactFormatter.$method(writer, value)
            }
        )*
    };
}

impl Formatter for NumbersInline {
    scalar_writers!(
        write_bool(bool),
        write_i8(i8),
        write_i16(i16),
        write_i32(i32),
        write_i64(i64),
        write_i128(i128),
        write_u8(u8),
        write_u16(u16),
        write_u32(u32),
        write_u64(u64),
        write_u128(u128),
        write_f32(f32),
        write_f64(f64),
        write_number_str(&str),
    );

    fn write_null<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, true)?;
        CompactFormatter.write_null(writer)
    }

    // Also called for an object's key, when no element is pending.
    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, false)?;
        CompactFormatter.begin_string(writer)
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        char_escape: CharEscape,
    ) -> io::Result<()> {
        CompactFormatter.write_char_escape(writer, char_escape)
    }

    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        self.start_value(writer, false)?;
        CompactFormatter.write_raw_fragment(writer, fragment)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, false)?;
        self.depth += 1;
        self.arrays.push(Layout::Undecided);
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let per_line = self.arrays.pop() == Some(Layout::PerLine);
        self.close(writer, per_line, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        _writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.pending = Some(first);
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.start_value(writer, false)?;
        self.depth += 1;
        self.has_value = false;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, self.has_value, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, if first { b"" } else { b"," })
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::to_string;

    #[test]
    fn arrays_of_numbers_on_one_line_everything_else_pretty() {
        let value = json!({
            "empty_array": [],
            "empty_object": {},
            "floats": [811.9, 1e-7, -0.0, 1.7976931348623157e+308],
            "integers": [1, -2, 18446744073709551615u64],
            "mixed": [1, "x"],
            "nested": {"runs": [[1.5, 2.5], [], [3.0]], "objects": [{"a": [null, true]}, {}]},
            "strings": ["a", "b \"quoted\"\n"]
        });
        let expected = r#"{
  "empty_array": [],
  "empty_object": {},
  "floats": [811.9, 1e-7, -0.0, 1.7976931348623157e+308],
  "integers": [1, -2, 18446744073709551615],
  "mixed": [1, "x"],
  "nested": {
    "objects": [
      {
        "a": [null, true]
      },
      {}
    ],
    "runs": [
      [1.5, 2.5],
      [],
      [3.0]
    ]
  },
  "strings": [
    "a",
    "b \"quoted\"\n"
  ]
}"#;
        assert_eq!(to_string(&value).unwrap(), expected);
    }

    /// Without arrays of numbers the text is serde_json's pretty text.
    #[test]
    fn objects_and_strings_as_serde_json_writes_them() {
        let value = json!({"a": {"b": "c", "d": ["e", {"f": {}}], "g": []}, "h": "\u{1}"});
        assert_eq!(
            to_string(&value).unwrap(),
            serde_json::to_string_pretty(&value).unwrap()
        );
        assert_eq!(to_string(&json!(7.5)).unwrap(), "7.5");
        assert_eq!(to_string(&json!([])).unwrap(), "[]");
    }

    /// Every `f64` comes back bit for bit, and the text is serde_json's
    /// compact text once the layout's whitespace is taken out.
    #[test]
    fn numbers_are_serde_json_s_and_read_back_exactly() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let samples: Vec<f64> = (0..2_000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                f64::from_bits(state)
            })
            .filter(|x| x.is_finite())
            .chain([0.1, 1.0 / 3.0, 5e-324, f64::MAX, f64::MIN_POSITIVE])
            .collect();
        let value = json!({"samples_ns": samples, "count": samples.len()});
        let text = to_string(&value).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        let back: Value = serde_json::from_str(&text).unwrap();
        let read: Vec<u64> = back["samples_ns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap().to_bits())
            .collect();
        let written: Vec<u64> = samples.iter().map(|x| x.to_bits()).collect();
        assert_eq!(read, written);
        let no_layout: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(no_layout, serde_json::to_string(&value).unwrap());
    }
}
