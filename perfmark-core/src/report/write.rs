//! Writing a run's report files: `report.json`, `bencher.json`,
//! `report.html` and `summary.md`, each replaced atomically
//! (`crate::fs::replace_file`).

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::{bencher, html, json, markdown, Report};
use crate::Error;

impl Report {
    /// Writes `report.json`, `bencher.json`, `report.html` and `summary.md` into `dir` (created if
    /// needed), each replaced atomically, and appends the Markdown to
    /// `$GITHUB_STEP_SUMMARY` when set. Returns the paths written.
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
            ("report.html", html::render(self)),
            ("summary.md", md.clone()),
        ];
        let mut written = Vec::with_capacity(files.len());
        for (name, text) in files {
            let path = dir.join(name);
            crate::fs::replace_file(dir, &path, text.as_bytes())
                .map_err(|e| cannot_write(&path, e))?;
            written.push(path);
        }
        Ok((written, md))
    }
}

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
    fn writes_the_four_files() {
        let dir = std::env::temp_dir().join(format!("perfmark-report-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let report = fixtures::report(vec![fixtures::measured("a", vec![1.0, 2.0, 3.0], None)]);
        let (written, md) = report.write_files(&dir.join("nested")).unwrap();
        assert_eq!(md, markdown::render(&report));
        let names: Vec<_> = written.iter().map(|p| p.file_name().unwrap()).collect();
        assert_eq!(
            names,
            ["report.json", "bencher.json", "report.html", "summary.md"]
        );
        let back = json::read(&written[0]).unwrap();
        assert_eq!(back.tests[0].name, "a");
        let _ = fs::remove_dir_all(&dir);
    }
}
