//! Writing a run's report files: `report.json`, `bencher.json` and
//! `summary.md`, each replaced atomically ([`crate::fs::replace_file`]).
//! The page, `report.html`, is `cargo perfmark report`'s to draw from
//! `report.json`; a page left from an earlier run is removed.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::{bencher, json, markdown, Report};
use crate::Error;

impl Report {
    /// Writes `report.json`, `bencher.json` and `summary.md` into `dir`
    /// (created if needed), each replaced atomically, and appends the
    /// Markdown to `$GITHUB_STEP_SUMMARY` when set. Removes the
    /// page of an earlier run from `dir` ([`PAGE_FILE`]). Returns
    /// the paths written.
    ///
    /// # Errors
    /// When the directory or a file cannot be written, or the step summary
    /// cannot be appended to; the message names it and says what to do.
    pub(crate) fn write(&self, dir: &Path) -> Result<Vec<PathBuf>, Error> {
        let (written, md) = self.write_files(dir)?;
        if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY") {
            let path = PathBuf::from(summary);
            let mut file = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| cannot_append_summary(&path, e))?;
            file.write_all(md.as_bytes())
                .map_err(|e| cannot_append_summary(&path, e))?;
        }
        Ok(written)
    }

    /// [`Report::write`] without `$GITHUB_STEP_SUMMARY`; returns the paths
    /// written and the Markdown.
    fn write_files(&self, dir: &Path) -> Result<(Vec<PathBuf>, String), Error> {
        fs::create_dir_all(dir).map_err(|e| cannot_write(dir, e))?;
        let md = markdown::render(self);
        let files = [
            ("report.json", json::to_string(self)),
            ("bencher.json", bencher::to_string(self)),
            ("summary.md", md.clone()),
        ];
        let mut written = Vec::with_capacity(files.len());
        for (name, text) in files {
            let path = dir.join(name);
            crate::fs::replace_file(dir, &path, text.as_bytes())
                .map_err(|e| cannot_write(&path, e))?;
            written.push(path);
        }
        // A page drawn from an earlier report.json would show another run
        // beside this one's files. Best effort: the run's files are written,
        // and a page that cannot be removed is replaced by the next
        // `cargo perfmark report`.
        let _ = fs::remove_file(dir.join(PAGE_FILE));
        Ok((written, md))
    }
}

/// The page's file name in a report directory: `cargo perfmark report`
/// draws it beside `report.json`, and a run that writes a new
/// `report.json` removes it ([`Report::write`]).
pub const PAGE_FILE: &str = "report.html";

fn cannot_write(path: &Path, e: io::Error) -> Error {
    Error::report(format!(
        "cannot write {}: {e}; choose another place with --report-dir DIR",
        path.display()
    ))
}

/// The step summary is not the report directory: `--report-dir` would not
/// help (the reports themselves were written).
fn cannot_append_summary(path: &Path, e: io::Error) -> Error {
    Error::report(format!(
        "cannot append the Markdown summary to $GITHUB_STEP_SUMMARY ({}): {e}; the reports \
         were written",
        path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    #[test]
    fn writes_the_three_files_and_removes_an_earlier_page() {
        let dir = std::env::temp_dir().join(format!("perfmark-report-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let nested = dir.join("nested");
        fs::create_dir_all(&nested).unwrap();
        fs::write(nested.join(PAGE_FILE), "<p>an earlier run</p>").unwrap();
        let report = fixtures::report(vec![fixtures::measured("a", vec![1.0, 2.0, 3.0], None)]);
        let (written, md) = report.write_files(&nested).unwrap();
        assert_eq!(md, markdown::render(&report));
        let names: Vec<_> = written.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(names, ["report.json", "bencher.json", "summary.md"]);
        assert!(!nested.join(PAGE_FILE).exists(), "the earlier page is gone");
        let back = json::read(&written[0]).unwrap();
        assert_eq!(back.tests[0].name, "a");
        // Nothing to remove is not an error either.
        report.write_files(&dir.join("fresh")).unwrap();
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_page_that_cannot_be_removed_does_not_fail_the_write() {
        let dir = std::env::temp_dir().join(format!("perfmark-report-dir-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        // A directory where the page would be: remove_file fails on it.
        fs::create_dir_all(dir.join(PAGE_FILE)).unwrap();
        let report = fixtures::report(Vec::new());
        let (written, _) = report.write_files(&dir).unwrap();
        assert_eq!(written.len(), 3);
        let _ = fs::remove_dir_all(&dir);
    }
}
