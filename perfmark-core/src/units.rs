//! Parsing the option values that environment variables carry at run time,
//! with the same grammar `#[perf_test(...)]` accepts at compile time.

/// Parses a duration such as `50ns`, `1.5 us`, `2µs`, `300ms`, `2s` into
/// nanoseconds.
///
/// # Errors
/// When the text is not a non-negative number followed by one of the
/// units `ns`, `us`, `µs`, `ms`, `s`; the message says so.
pub fn parse_duration_ns(text: &str) -> Result<f64, String> {
    let invalid = || {
        format!(
            "invalid duration `{text}`: expected a number and a unit such as \"50ns\", \"1.5 us\", \"300ms\" or \"2s\" (units: ns, us, µs, ms, s)"
        )
    };
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(invalid)?;
    let (number, unit) = t.split_at(split);
    let value: f64 = number.parse().map_err(|_| invalid())?;
    let scale = match unit.trim_start() {
        "ns" => 1.0,
        "us" | "µs" | "μs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return Err(invalid()),
    };
    Ok(value * scale)
}

/// Parses a percentage such as `1%` or `0.5 %` into a fraction (0.01).
///
/// # Errors
/// When the text is not a number in (0, 100) followed by `%`.
pub fn parse_percent(text: &str) -> Result<f64, String> {
    let invalid = || {
        format!("invalid percentage `{text}`: expected a number between 0 and 100 followed by %, such as \"1%\" or \"0.5%\"")
    };
    let number = text.trim().strip_suffix('%').ok_or_else(invalid)?;
    let value: f64 = number.trim().parse().map_err(|_| invalid())?;
    if !(value > 0.0 && value < 100.0) {
        return Err(invalid());
    }
    Ok(value / 100.0)
}

/// Parses a regression tolerance such as `5%` or `0%` into a fraction.
///
/// # Errors
/// When the text is not a number in [0, 100) followed by `%`.
pub fn parse_tolerance(text: &str) -> Result<f64, String> {
    let invalid = || {
        format!("invalid tolerance `{text}`: expected a percentage from 0% to below 100%, such as \"5%\" or \"2.5%\"")
    };
    let number = text.trim().strip_suffix('%').ok_or_else(invalid)?;
    let value: f64 = number.trim().parse().map_err(|_| invalid())?;
    if !(0.0..100.0).contains(&value) {
        return Err(invalid());
    }
    Ok(value / 100.0)
}

/// Parses a confidence level, a number strictly between 0.5 and 1.
///
/// # Errors
/// When the text is not such a number.
pub fn parse_confidence(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(c) if c > 0.5 && c < 1.0 => Ok(c),
        _ => Err(format!(
            "invalid confidence `{text}`: expected a number strictly between 0.5 and 1, such as 0.95 or 0.99"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ns("50ns"), Ok(50.0));
        assert_eq!(parse_duration_ns("1.5 us"), Ok(1500.0));
        assert_eq!(parse_duration_ns("2µs"), Ok(2000.0));
        assert_eq!(parse_duration_ns("300ms"), Ok(3e8));
        assert_eq!(parse_duration_ns("2s"), Ok(2e9));
        for bad in ["", "ms", "50", "50 parsecs", "-1ms", "1..5s"] {
            assert!(parse_duration_ns(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn percents_and_confidences() {
        assert_eq!(parse_percent("1%"), Ok(0.01));
        assert_eq!(parse_percent("0.5 %"), Ok(0.005));
        for bad in ["1", "0%", "100%", "x%"] {
            assert!(parse_percent(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_tolerance("0%"), Ok(0.0));
        assert_eq!(parse_tolerance("2.5%"), Ok(0.025));
        assert!(parse_tolerance("100%").is_err() && parse_tolerance("5").is_err());
        assert_eq!(parse_confidence("0.99"), Ok(0.99));
        for bad in ["0.5", "1", "1.5", "high"] {
            assert!(parse_confidence(bad).is_err(), "{bad}");
        }
    }
}
