//! Text to numbers for the options written as strings: durations
//! (`"50ns"`, `"1.5 us"`) and percentages (`"1%"`). Pure functions, unit
//! tested below; the messages built from their errors live in `valid.rs`.

/// Why a duration or percentage string was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitError {
    /// Not a number followed by one of the accepted units.
    Syntax,
    /// A well-formed quantity with a minus sign.
    Negative,
    /// So large that it is not a finite `f64` (or not a `u64` of nanoseconds).
    TooLarge,
}

/// Nanoseconds per unit. `µs` is accepted with both the micro sign (U+00B5)
/// and the Greek small letter mu (U+03BC): they look the same in source.
const DURATION_UNITS_NS: &[(&str, f64)] = &[
    ("ns", 1.0),
    ("us", 1e3),
    ("\u{b5}s", 1e3),
    ("\u{3bc}s", 1e3),
    ("ms", 1e6),
    ("s", 1e9),
];

/// Parses a duration such as `"50ns"`, `"1.5 us"`, `"2ms"` or `"1s"` into
/// nanoseconds.
///
/// Grammar: digits, an optional fraction (`.` and digits), at most one
/// space, then a unit (`ns`, `us`, `µs`, `ms`, `s`). Nothing else: no sign,
/// no exponent, no surrounding spaces. Zero is returned as `0.0`; whether it
/// is allowed is the caller's decision.
///
/// # Errors
/// [`UnitError::Negative`] for a `-` in front of an otherwise valid duration,
/// [`UnitError::TooLarge`] when the value in nanoseconds is not finite, and
/// [`UnitError::Syntax`] for anything else.
pub fn parse_duration_ns(text: &str) -> Result<f64, UnitError> {
    if let Some(rest) = text.strip_prefix('-') {
        return match parse_duration_ns(rest) {
            Ok(_) => Err(UnitError::Negative),
            Err(error) => Err(error),
        };
    }
    let (number, unit) = split_quantity(text).ok_or(UnitError::Syntax)?;
    let &(_, ns_per_unit) = DURATION_UNITS_NS
        .iter()
        .find(|(name, _)| *name == unit)
        .ok_or(UnitError::Syntax)?;
    let ns = number * ns_per_unit;
    if ns.is_finite() {
        Ok(ns)
    } else {
        Err(UnitError::TooLarge)
    }
}

/// Parses a percentage such as `"1%"`, `"0.5%"` or `"2 %"` into its number of
/// percent (`"1%"` is `1.0`). Same number grammar as [`parse_duration_ns`],
/// with `%` as the only unit.
///
/// # Errors
/// As [`parse_duration_ns`].
pub fn parse_percent(text: &str) -> Result<f64, UnitError> {
    if let Some(rest) = text.strip_prefix('-') {
        return match parse_percent(rest) {
            Ok(_) => Err(UnitError::Negative),
            Err(error) => Err(error),
        };
    }
    match split_quantity(text) {
        Some((percent, "%")) if percent.is_finite() => Ok(percent),
        Some((_, "%")) => Err(UnitError::TooLarge),
        _ => Err(UnitError::Syntax),
    }
}

/// Splits `"1.5 us"` into `(1.5, "us")`: an unsigned decimal number, at most
/// one space, and a non-empty unit without spaces. `None` when the text does
/// not have that form.
fn split_quantity(text: &str) -> Option<(f64, &str)> {
    let number_len = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, rest) = text.split_at(number_len);
    let unit = rest.strip_prefix(' ').unwrap_or(rest);
    if unit.is_empty() || unit.contains(char::is_whitespace) {
        return None;
    }
    let (whole, fraction) = match number.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (number, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || fraction.is_some_and(|f| !all_digits(f)) {
        return None;
    }
    // The text is digits with at most one inner `.`, which `f64` always parses
    // (a huge number of digits gives infinity, which callers refuse).
    number.parse::<f64>().ok().map(|value| (value, unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_every_unit() {
        assert_eq!(parse_duration_ns("50ns"), Ok(50.0));
        assert_eq!(parse_duration_ns("1.5 us"), Ok(1500.0));
        assert_eq!(parse_duration_ns("2\u{b5}s"), Ok(2000.0));
        assert_eq!(parse_duration_ns("2\u{3bc}s"), Ok(2000.0));
        assert_eq!(parse_duration_ns("300ms"), Ok(3e8));
        assert_eq!(parse_duration_ns("2s"), Ok(2e9));
        assert_eq!(parse_duration_ns("0.25 s"), Ok(2.5e8));
        assert_eq!(parse_duration_ns("0ns"), Ok(0.0));
    }

    #[test]
    fn durations_refused() {
        for text in [
            "",
            "50",
            "ns",
            "50 parsecs",
            "50  ns",
            " 50ns",
            "50ns ",
            "1.ns",
            ".5ns",
            "1.2.3ns",
            "1e3ns",
            "+5ns",
            "5 n s",
            "5NS",
            "5sec",
        ] {
            assert_eq!(parse_duration_ns(text), Err(UnitError::Syntax), "{text:?}");
        }
        assert_eq!(parse_duration_ns("-5ns"), Err(UnitError::Negative));
        assert_eq!(parse_duration_ns("-0.5 ms"), Err(UnitError::Negative));
        assert_eq!(parse_duration_ns("-5 parsecs"), Err(UnitError::Syntax));
        let huge = format!("{}s", "9".repeat(400));
        assert_eq!(parse_duration_ns(&huge), Err(UnitError::TooLarge));
    }

    #[test]
    fn percentages() {
        assert_eq!(parse_percent("1%"), Ok(1.0));
        assert_eq!(parse_percent("0.5%"), Ok(0.5));
        assert_eq!(parse_percent("2 %"), Ok(2.0));
        assert_eq!(parse_percent("0%"), Ok(0.0));
        assert_eq!(parse_percent("-1%"), Err(UnitError::Negative));
        for text in ["1", "%", "1 percent", "0.01", "1%%", "1 % "] {
            assert_eq!(parse_percent(text), Err(UnitError::Syntax), "{text:?}");
        }
    }
}
