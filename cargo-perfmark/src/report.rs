//! Reading `report.json` back: the file a test binary writes into
//! `target/perfmark/<test target>/` (its format: perfmark-core's
//! `report::json`).

use std::path::Path;

use perfmark_core::report::{json, Report};

use crate::Error;

/// Reads a report from the text of a `report.json`, of this version or a
/// later one (whose added fields are ignored); `null` numbers read back as
/// NaN, or ±∞ for a CI bound.
///
/// # Errors
/// When `text` is not JSON, or lacks a field of this version or has one of
/// the wrong type; the error names the line and column.
pub fn from_str(text: &str) -> Result<Report, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let report = json::deserialize(&mut de)?;
    de.end()?;
    Ok(report)
}

/// Reads the `report.json` at `path` ([`from_str`]).
///
/// # Errors
/// [`Error::is_report`] when the file cannot be read or is not a report;
/// the message names it.
pub fn read(path: &Path) -> Result<Report, Error> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::report(format!("cannot read {}: {e}", path.display())))?;
    let not_a_report = |why: String| {
        Error::report(format!(
            "{} is not a perfmark report: {why}",
            path.display()
        ))
    };
    // A file that reads but is not text is not a report, rather than "cannot be read".
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| not_a_report(format!("it is not UTF-8 text ({e})")))?;
    from_str(text).map_err(|e| not_a_report(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_with_null_numbers_reads_and_what_is_not_one_is_an_error() {
        let text = r#"{"schema": 1, "tests": []}"#;
        // The stable core alone is not a whole report of this version.
        assert!(from_str(text).is_err());
        assert!(from_str("[]").is_err());
        let e = read(Path::new("/nonexistent/report.json")).unwrap_err();
        assert!(
            e.is_report() && e.to_string().contains("/nonexistent/report.json"),
            "{e}"
        );
    }
}
