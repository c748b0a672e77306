//! Typed parsers of the option values the test binary reads as text
//! (environment variables such as `PERFMARK_MAX_TIME=500ms`): each is
//! [`Key::parse_env`] for one key, returning the field's type. The grammar,
//! the ranges and the messages are the attribute's.

use crate::check::{OptionError, Value};
use crate::table::Key;

/// `budget`, in nanoseconds (> 0).
///
/// # Errors
/// As [`Key::parse_env`].
pub fn budget_ns(text: &str) -> Result<f64, OptionError> {
    f64_value(Key::Budget, text)
}

/// `confidence`, a level in (0.5, 1).
///
/// # Errors
/// As [`Key::parse_env`].
pub fn confidence(text: &str) -> Result<f64, OptionError> {
    f64_value(Key::Confidence, text)
}

/// `regression`, the tolerance as a fraction in [0, 1) (`"5%"` is `0.05`).
///
/// # Errors
/// As [`Key::parse_env`].
pub fn regression(text: &str) -> Result<f64, OptionError> {
    f64_value(Key::Regression, text)
}

/// `count_regression`, the count's tolerance as a fraction in [0, 1)
/// (`"1%"` is `0.01`).
///
/// # Errors
/// As [`Key::parse_env`].
pub fn count_regression(text: &str) -> Result<f64, OptionError> {
    f64_value(Key::CountRegression, text)
}

/// `precision`, a fraction in (0, 1) (`"1%"` is `0.01`).
///
/// # Errors
/// As [`Key::parse_env`].
pub fn precision(text: &str) -> Result<f64, OptionError> {
    f64_value(Key::Precision, text)
}

/// `max_time`, in whole nanoseconds (≥ 1).
///
/// # Errors
/// As [`Key::parse_env`].
pub fn max_time_ns(text: &str) -> Result<u64, OptionError> {
    u64_value(Key::MaxTime, text)
}

/// `warmup`, in whole nanoseconds (0 allowed).
///
/// # Errors
/// As [`Key::parse_env`].
pub fn warmup_ns(text: &str) -> Result<u64, OptionError> {
    u64_value(Key::Warmup, text)
}

fn f64_value(key: Key, text: &str) -> Result<f64, OptionError> {
    match key.parse_env(text)? {
        Value::F64(value) => Ok(value),
        _ => unreachable!("the table holds {key:?} as an f64"),
    }
}

fn u64_value(key: Key, text: &str) -> Result<u64, OptionError> {
    match key.parse_env(text)? {
        Value::U64(value) => Ok(value),
        _ => unreachable!("the table holds {key:?} as a u64"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_parser_matches_its_rows_kind() {
        assert_eq!(budget_ns("1.5 us"), Ok(1500.0));
        assert_eq!(confidence("0.99"), Ok(0.99));
        assert_eq!(regression("0%"), Ok(0.0));
        assert_eq!(precision("2%"), Ok(0.02));
        assert_eq!(max_time_ns("500ms"), Ok(500_000_000));
        assert_eq!(warmup_ns("0s"), Ok(0));
        assert!(max_time_ns("0s").unwrap_err().is_out_of_range());
        assert!(precision("2").unwrap_err().is_syntax());
    }
}
