//! The one grammar of option values written as text: in the attribute's
//! string literals (`budget = "1.5 us"`) and in the environment variables
//! and flags of the test binary (`PERFMARK_MAX_TIME=500ms`).
//!
//! ```text
//! duration := number space? duration-unit       "50ns", "1.5 us", "2µs"
//! percent  := number space? "%"                 "5%", "0.5 %"
//! level    := number                            "0.95"
//! count    := digit+                            "0", "12"
//! growth   := class | "O(" class ")"            "n log n", "O(n^2)"
//! class    := "1" | "log n" | "n" | "n log n" | "n^2" | "n^3"
//! number   := digit+ ("." digit+)?
//! space    := " "                               (one space, no more)
//! duration-unit := "ns" | "us" | "µs" | "ms" | "s"
//! ```
//!
//! Nothing else: no sign, no exponent, no surrounding or doubled spaces, no
//! other spelling of the units. A `-` in front of an otherwise valid value
//! is refused as [`Refusal::Negative`] rather than as a syntax error, so the
//! message can say that the value cannot be negative. Whether zero or a
//! large value makes sense is not the grammar's business: each option's
//! range in the table (`table.rs`) decides.

/// Why a text was refused by the grammar.
///
/// These carry no message: what a text should have been depends on the
/// option it was given for, so [`OptionError`](crate::OptionError) words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not of the grammar's form.
    Syntax,
    /// Of the form, with a minus sign in front.
    Negative,
    /// Of the form, but so large that its value is not a finite `f64`.
    TooLarge,
}

use crate::Complexity;

/// Nanoseconds per duration unit. `µs` is accepted with both the micro sign
/// (U+00B5) and the Greek small letter mu (U+03BC): they look the same in
/// source and in a shell.
pub const DURATION_UNITS_NS: [(&str, f64); 6] = [
    ("ns", 1.0),
    ("us", 1e3),
    ("\u{b5}s", 1e3),
    ("\u{3bc}s", 1e3),
    ("ms", 1e6),
    ("s", 1e9),
];

/// Parses a duration such as `"50ns"`, `"1.5 us"`, `"2ms"` or `"1s"` into
/// nanoseconds (zero included: `"0s"` is `0.0`).
///
/// # Errors
/// [`Refusal::Negative`] for a `-` in front of an otherwise valid duration,
/// [`Refusal::TooLarge`] when the value in nanoseconds is not finite,
/// [`Refusal::Syntax`] for anything else.
pub fn duration_ns(text: &str) -> Result<f64, Refusal> {
    unsigned(text, |text| {
        let (number, unit) = quantity(text)?;
        let &(_, ns_per_unit) = DURATION_UNITS_NS
            .iter()
            .find(|(name, _)| *name == unit)
            .ok_or(Refusal::Syntax)?;
        finite(number * ns_per_unit)
    })
}

/// Parses a percentage such as `"5%"`, `"0.5%"` or `"2 %"` into its number
/// of percent (`"5%"` is `5.0`; zero included).
///
/// # Errors
/// As [`duration_ns`], with `%` as the only unit.
pub fn percent(text: &str) -> Result<f64, Refusal> {
    unsigned(text, |text| match quantity(text)? {
        (number, "%") => finite(number),
        _ => Err(Refusal::Syntax),
    })
}

/// Parses a plain number such as `"0.95"` or `"3"`: how a confidence level
/// is written as text.
///
/// # Errors
/// As [`duration_ns`], with no unit at all.
pub fn number(text: &str) -> Result<f64, Refusal> {
    unsigned(text, |text| finite(decimal(text).ok_or(Refusal::Syntax)?))
}

/// Parses a count such as `"0"` or `"12"`: how a whole number (`allocs`)
/// is written, digits only.
///
/// # Errors
/// [`Refusal::Negative`] for a `-` in front of digits, [`Refusal::TooLarge`]
/// past `u64::MAX`, [`Refusal::Syntax`] for anything else (a sign, a point,
/// a space, an exponent, underscores).
pub fn count(text: &str) -> Result<u64, Refusal> {
    let (digits, negative) = match text.strip_prefix('-') {
        Some(rest) => (rest, true),
        None => (text, false),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Refusal::Syntax);
    }
    if negative {
        return Err(Refusal::Negative);
    }
    digits.parse().map_err(|_| Refusal::TooLarge)
}

/// Parses an instruction count such as `"2000"`, `"2k"` or `"1.5M"`:
/// digits, an optional decimal part, and an optional multiplier `k`
/// (10^3), `M` (10^6) or `G` (10^9) right after them; the value must be
/// whole (`"1.5k"` is 1500, `"1.2345k"` is refused).
///
/// # Errors
/// [`Refusal::Negative`] for a `-` in front, [`Refusal::TooLarge`] past
/// `u64::MAX`, [`Refusal::Syntax`] for anything else (a space, an
/// exponent, another suffix, a fraction of an instruction).
pub fn scaled_count(text: &str) -> Result<u64, Refusal> {
    if let Some(rest) = text.strip_prefix('-') {
        return match scaled_count(rest) {
            Ok(_) => Err(Refusal::Negative),
            Err(r) => Err(r),
        };
    }
    let (number, scale) = match text.as_bytes().last() {
        Some(b'k') => (&text[..text.len() - 1], 1_000u64),
        Some(b'M') => (&text[..text.len() - 1], 1_000_000),
        Some(b'G') => (&text[..text.len() - 1], 1_000_000_000),
        _ => (text, 1),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || number.ends_with('.') {
        return Err(Refusal::Syntax);
    }
    // Whole part and fraction as integers, exactly: 1.5M is 1 500 000.
    let whole: u128 = whole.parse().map_err(|_| Refusal::TooLarge)?;
    let places = u32::try_from(fraction.len()).map_err(|_| Refusal::Syntax)?;
    let frac: u128 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().map_err(|_| Refusal::Syntax)?
    };
    let denominator = 10u128.checked_pow(places).ok_or(Refusal::Syntax)?;
    let scaled_fraction = frac * u128::from(scale);
    if !scaled_fraction.is_multiple_of(denominator) {
        return Err(Refusal::Syntax);
    }
    let value = whole
        .checked_mul(u128::from(scale))
        .and_then(|w| w.checked_add(scaled_fraction / denominator))
        .ok_or(Refusal::TooLarge)?;
    u64::try_from(value).map_err(|_| Refusal::TooLarge)
}

/// Parses a growth class such as `"n log n"` or `"O(n^2)"` (one space
/// between words, none inside the parentheses).
///
/// # Errors
/// [`Refusal::Syntax`] for anything else.
pub fn complexity(text: &str) -> Result<Complexity, Refusal> {
    let class = text
        .strip_prefix("O(")
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or(text);
    Complexity::ALL
        .into_iter()
        .find(|c| c.as_str() == class)
        .ok_or(Refusal::Syntax)
}

/// Applies `parse` to `text`; with a `-` in front, to the rest, turning a
/// success into [`Refusal::Negative`] (a failure stays what it was: `-5
/// parsecs` is a syntax error, not a negative duration).
fn unsigned(text: &str, parse: impl Fn(&str) -> Result<f64, Refusal>) -> Result<f64, Refusal> {
    match text.strip_prefix('-') {
        Some(rest) => parse(rest).and(Err(Refusal::Negative)),
        None => parse(text),
    }
}

/// Splits `"1.5 us"` into `(1.5, "us")`: a [`decimal`], at most one space,
/// and a non-empty unit with no whitespace in it.
fn quantity(text: &str) -> Result<(f64, &str), Refusal> {
    let number_len = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, rest) = text.split_at(number_len);
    let unit = rest.strip_prefix(' ').unwrap_or(rest);
    if unit.is_empty() || unit.contains(char::is_whitespace) {
        return Err(Refusal::Syntax);
    }
    Ok((decimal(number).ok_or(Refusal::Syntax)?, unit))
}

/// `digit+ ("." digit+)?` as an `f64`; `None` for anything else. A very
/// long string of digits gives infinity, which callers refuse.
fn decimal(text: &str) -> Option<f64> {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || fraction.is_some_and(|f| !digits(f)) {
        return None;
    }
    // Digits with at most one inner `.`: `f64`'s parser always takes them.
    text.parse().ok()
}

fn finite(value: f64) -> Result<f64, Refusal> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Refusal::TooLarge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_accepted_duration_form() {
        for (text, ns) in [
            ("50ns", 50.0),
            ("50 ns", 50.0),
            ("1.5us", 1500.0),
            ("1.5 us", 1500.0),
            ("2\u{b5}s", 2000.0),
            ("2 \u{b5}s", 2000.0),
            ("2\u{3bc}s", 2000.0),
            ("300ms", 3e8),
            ("0.25 s", 2.5e8),
            ("2s", 2e9),
            ("0ns", 0.0),
            ("0s", 0.0),
            ("007ms", 7e6),
            ("0.000001 ms", 1.0),
        ] {
            assert_eq!(duration_ns(text), Ok(ns), "{text:?}");
        }
    }

    #[test]
    fn every_refused_duration_form() {
        for text in [
            "",           // nothing
            "50",         // no unit
            "ns",         // no number
            " ns",        // no number, a space
            "50 parsecs", // unknown unit
            "5sec",       // unknown spelling
            "5NS",        // units are lowercase
            "5 n s",      // a space inside the unit
            "50  ns",     // two spaces
            "50\tns",     // a tab is not the space
            " 50ns",      // leading space
            "50ns ",      // trailing space
            "1.ns",       // no digit after the point
            ".5ns",       // no digit before the point
            "1.2.3ns",    // two points
            "1,5ns",      // a comma is not the decimal point
            "1e3ns",      // no exponent
            "+5ns",       // no plus sign
            "--5ns",      // one minus sign at most
            "-5 parsecs", // negative but not a duration either
            "5ns5",       // something after the unit
        ] {
            assert_eq!(duration_ns(text), Err(Refusal::Syntax), "{text:?}");
        }
        for text in ["-5ns", "-0.5 ms", "-0s"] {
            assert_eq!(duration_ns(text), Err(Refusal::Negative), "{text:?}");
        }
        let huge = format!("{}s", "9".repeat(400));
        assert_eq!(duration_ns(&huge), Err(Refusal::TooLarge));
        // Finite as a number of seconds, infinite in nanoseconds.
        let huge_ns = format!("1{}s", "0".repeat(305));
        assert_eq!(duration_ns(&huge_ns), Err(Refusal::TooLarge));
    }

    #[test]
    fn every_accepted_percent_form() {
        for (text, percent_value) in [
            ("5%", 5.0),
            ("5 %", 5.0),
            ("0.5%", 0.5),
            ("2.5 %", 2.5),
            ("0%", 0.0),
            ("100%", 100.0),
            ("150%", 150.0),
        ] {
            assert_eq!(percent(text), Ok(percent_value), "{text:?}");
        }
    }

    #[test]
    fn every_refused_percent_form() {
        for text in [
            "",
            "5",
            "%",
            " %",
            "0.05",
            "5 percent",
            "5%%",
            "5 % ",
            " 5%",
            "5  %",
            ".5%",
            "5.%",
            "1e1%",
            "+5%",
        ] {
            assert_eq!(percent(text), Err(Refusal::Syntax), "{text:?}");
        }
        assert_eq!(percent("-5%"), Err(Refusal::Negative));
        assert_eq!(percent("-0%"), Err(Refusal::Negative));
        let huge = format!("{}%", "9".repeat(400));
        assert_eq!(percent(&huge), Err(Refusal::TooLarge));
    }

    #[test]
    fn every_accepted_and_refused_count_form() {
        for (text, value) in [
            ("0", 0),
            ("7", 7),
            ("007", 7),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(count(text), Ok(value), "{text:?}");
        }
        for text in [
            "", "-", "1.0", "1e3", "+1", " 1", "1 ", "1_000", "one", "0x10",
        ] {
            assert_eq!(count(text), Err(Refusal::Syntax), "{text:?}");
        }
        assert_eq!(count("-1"), Err(Refusal::Negative));
        assert_eq!(count("18446744073709551616"), Err(Refusal::TooLarge));
    }

    #[test]
    fn every_accepted_and_refused_growth_form() {
        for (text, class) in [
            ("1", Complexity::Constant),
            ("log n", Complexity::Log),
            ("n", Complexity::Linear),
            ("n log n", Complexity::LinLog),
            ("n^2", Complexity::Quadratic),
            ("n^3", Complexity::Cubic),
            ("O(1)", Complexity::Constant),
            ("O(n log n)", Complexity::LinLog),
            ("O(n^3)", Complexity::Cubic),
        ] {
            assert_eq!(complexity(text), Ok(class), "{text:?}");
        }
        for text in [
            "", "O()", "O(n", "n)", "o(n)", "O( n )", "N", "nlogn", "n  log n", "n log(n)", "n^4",
            "n²", " n", "n ", "2^n", "O(O(n))", "log",
        ] {
            assert_eq!(complexity(text), Err(Refusal::Syntax), "{text:?}");
        }
    }

    #[test]
    fn every_accepted_and_refused_number_form() {
        for (text, value) in [("0.95", 0.95), ("1", 1.0), ("0.5", 0.5), ("00.9", 0.9)] {
            assert_eq!(number(text), Ok(value), "{text:?}");
        }
        for text in [
            "", "high", ".95", "0.", "0.9.5", "9.5e-1", "+0.9", " 0.9", "0.9 ", "95%",
        ] {
            assert_eq!(number(text), Err(Refusal::Syntax), "{text:?}");
        }
        assert_eq!(number("-0.9"), Err(Refusal::Negative));
        assert_eq!(number(&"9".repeat(400)), Err(Refusal::TooLarge));
    }
}
