//! Reading `report.json` back, and drawing its page: `cargo perfmark
//! report`.
//!
//! A test binary writes `report.json` (its format: perfmark-core's
//! `report::json`) into its report directory, `target/perfmark/<test
//! target>/` unless told otherwise, and no page: [`draw_page`] draws
//! `report.html` beside it ([`crate::html`]). [`report_dirs`] finds the
//! report directories under a directory; [`draw_pages`] is the command,
//! and [`draw_pages_written_since`] what `baseline` and `compare` draw
//! after their runs. The command, and `compare`, also draw the flame
//! graphs of the profiles a counted comparison left in a report
//! directory ([`crate::flame`]).

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use perfmark_core::report::{json, Report, PAGE_FILE};

use crate::Error;

/// The file a report directory holds: what a test binary wrote.
pub const REPORT_FILE: &str = "report.json";

/// Reads the `report.json` at `path` (perfmark-core's `report::json::read`).
///
/// # Errors
/// [`Error::is_report`] when the file cannot be read or is not a report;
/// the message names it.
pub fn read(path: &Path) -> Result<Report, Error> {
    json::read(path).map_err(Error::report)
}

/// A page [`draw_page`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The page: `report.html` in the report directory.
    pub path: PathBuf,
    /// The tests it shows.
    pub tests: usize,
}

impl fmt::Display for Page {
    /// `wrote target/perfmark/perf/report.html (3 tests)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.tests == 1 { "" } else { "s" };
        write!(f, "wrote {} ({} test{s})", self.path.display(), self.tests)
    }
}

/// Draws the page of the report directory `dir`: reads its `report.json`
/// ([`read`]) and replaces its `report.html` atomically (a temporary file
/// in `dir`, renamed over it), so that a reader never sees half a page.
///
/// # Errors
/// [`Error::is_report`] when `report.json` cannot be read or is not a
/// report, or the page cannot be written; the message names the file.
pub fn draw_page(dir: &Path) -> Result<Page, Error> {
    let report = read(&dir.join(REPORT_FILE))?;
    let path = dir.join(PAGE_FILE);
    perfmark_core::fs::replace_file(dir, &path, crate::html::render(&report).as_bytes())
        .map_err(|e| Error::report(format!("cannot write {}: {e}", path.display())))?;
    Ok(Page {
        path,
        tests: report.tests.len(),
    })
}

/// The report directories at or under `root`, sorted: `root` itself when
/// it holds a `report.json`, and every directory below it that does, at any
/// depth. Symbolic links below `root` are not followed, and directories
/// below it that cannot be read are passed over. `root` may also be a
/// `report.json`: its directory is the one report directory.
///
/// # Errors
/// [`Error::is_report`] when `root` does not exist or cannot be read, or
/// is a file other than a `report.json`.
pub fn report_dirs(root: &Path) -> Result<Vec<PathBuf>, Error> {
    let meta = std::fs::metadata(root)
        .map_err(|e| Error::report(format!("cannot read {}: {e}", root.display())))?;
    if meta.is_file() {
        return match (root.file_name(), root.parent()) {
            (Some(name), Some(dir)) if name == REPORT_FILE => Ok(vec![dir.to_owned()]),
            _ => Err(Error::report(format!(
                "{} is a file: give a report directory (one that holds {REPORT_FILE}) or a \
                 directory above report directories",
                root.display()
            ))),
        };
    }
    std::fs::read_dir(root)
        .map_err(|e| Error::report(format!("cannot read {}: {e}", root.display())))?;
    let mut found = Vec::new();
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        if dir.join(REPORT_FILE).is_file() {
            found.push(dir.clone());
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            // The entry's own type: a link to a directory is not a directory.
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// `cargo perfmark report [DIR...]`: draws the page of every report
/// directory at or under each of `dirs`, or when none is given under
/// `default_root()` (the target directory's `perfmark/`), as
/// [`draw_under`] does; prints a [`Page`] line for each page written and
/// `error: …` for each error; then draws the flame graphs of each of those
/// directories that holds profiles ([`crate::flame::draw_and_say`]: a
/// graph not drawn is a warning). Returns the exit status: 0 when every
/// page was written, 2 when one was not or a place holds no report.
///
/// # Errors
/// When `default_root` fails.
pub fn draw_pages(
    dirs: &[PathBuf],
    default_root: impl FnOnce() -> Result<PathBuf, Error>,
) -> Result<u8, Error> {
    let roots = if dirs.is_empty() {
        vec![default_root()?]
    } else {
        dirs.to_vec()
    };
    let (found, mut errors) = found_under(&roots);
    let (pages, page_errors) = draw_each(&found);
    errors.extend(page_errors);
    for page in &pages {
        println!("{page}");
    }
    for e in &errors {
        eprintln!("error: {e}");
    }
    crate::flame::draw_and_say(&found.into_iter().collect::<Vec<_>>());
    Ok(if errors.is_empty() { 0 } else { 2 })
}

/// Draws the page of every report directory at or under each of `roots`
/// ([`report_dirs`]), each once. Every page that can be drawn is drawn.
/// Returns the pages written, and an error ([`Error::is_report`]) for each
/// root that holds no report (saying where it looked and what writes a
/// `report.json`) or cannot be read, and for each page that could not be
/// drawn (naming its `report.json`).
pub fn draw_under(roots: &[PathBuf]) -> (Vec<Page>, Vec<Error>) {
    let (found, mut errors) = found_under(roots);
    let (pages, page_errors) = draw_each(&found);
    errors.extend(page_errors);
    (pages, errors)
}

/// The report directories at or under each of `roots`, each once, and an
/// error for each root that holds none or cannot be read (as
/// [`draw_under`] says them).
fn found_under(roots: &[PathBuf]) -> (BTreeSet<PathBuf>, Vec<Error>) {
    let mut errors = Vec::new();
    let mut found = BTreeSet::new();
    for root in roots {
        match report_dirs(root) {
            Ok(under) if !under.is_empty() => found.extend(under),
            Err(e) if root.exists() => errors.push(e),
            // Missing or empty: no test binary has written there yet.
            _ => errors.push(nothing_in(root)),
        }
    }
    (found, errors)
}

/// The page of each of `dirs` ([`draw_page`]), and an error for each that
/// could not be drawn.
fn draw_each(dirs: &BTreeSet<PathBuf>) -> (Vec<Page>, Vec<Error>) {
    let mut pages = Vec::new();
    let mut errors = Vec::new();
    for dir in dirs {
        match draw_page(dir) {
            Ok(page) => pages.push(page),
            Err(e) => errors.push(e),
        }
    }
    (pages, errors)
}

/// Draws the page of each of the report directories `candidates` whose
/// `report.json` was written at or after `since` ([`written_since`]): the
/// reports of the runs a command made, as [`draw_pages_in`] does. Returns
/// the pages written.
pub fn draw_pages_written_since(
    candidates: impl IntoIterator<Item = PathBuf>,
    since: SystemTime,
) -> Vec<Page> {
    draw_pages_in(&written_since(candidates, since))
}

/// Those of the report directories `candidates` whose `report.json` was
/// written at or after `since` (less a slack of [`MTIME_SLACK`] for file
/// systems with coarse times), made canonical, each once, sorted. A
/// candidate without a `report.json` is passed over.
pub fn written_since(
    candidates: impl IntoIterator<Item = PathBuf>,
    since: SystemTime,
) -> Vec<PathBuf> {
    let since = since.checked_sub(MTIME_SLACK).unwrap_or(since);
    let is_new = |dir: &Path| {
        std::fs::metadata(dir.join(REPORT_FILE))
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= since)
    };
    let dirs: BTreeSet<PathBuf> = candidates
        .into_iter()
        .filter(|dir| is_new(dir))
        .map(|dir| dir.canonicalize().unwrap_or(dir))
        .collect();
    dirs.into_iter().collect()
}

/// Draws the page of each of the report directories `dirs` after a run:
/// prints a [`Page`] line for each page written; a page that cannot be
/// drawn is a `warning: …` line, never an error, so that the runs'
/// verdicts and exit status stand. Returns the pages written.
pub fn draw_pages_in(dirs: &[PathBuf]) -> Vec<Page> {
    let mut pages = Vec::new();
    for dir in dirs {
        match draw_page(dir) {
            Ok(page) => {
                println!("{page}");
                pages.push(page);
            }
            Err(e) => eprintln!("warning: {e} (its page was not drawn)"),
        }
    }
    pages
}

/// How much earlier than a command's start a `report.json` may say it was
/// written and still be taken for one of its runs': file systems that keep
/// times to the second or two round them down.
pub const MTIME_SLACK: Duration = Duration::from_secs(2);

/// No `report.json` at or under `root`: where we looked, and what would
/// have written one.
fn nothing_in(root: &Path) -> Error {
    Error::report(format!(
        "no {REPORT_FILE} in or under {}: a perf test binary writes one into \
         target/perfmark/<test target>/ (or its --report-dir) when `cargo test --release` runs \
         its perf tests",
        root.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_with_null_numbers_reads_and_what_is_not_one_is_an_error() {
        let text = r#"{"schema": 1, "tests": []}"#;
        // The stable core alone is not a whole report of this version.
        assert!(json::from_str(text).is_err());
        assert!(json::from_str("[]").is_err());
        let e = read(Path::new("/nonexistent/report.json")).unwrap_err();
        assert!(
            e.is_report() && e.to_string().contains("/nonexistent/report.json"),
            "{e}"
        );
    }

    use perfmark_core::report::fixtures;

    /// A fresh directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "cargo-perfmark-report-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Writes a report of tests named `names` into `dir` (created).
    fn write_report(dir: &Path, names: &[&str]) {
        let tests = names
            .iter()
            .map(|n| fixtures::measured(n, vec![10.0, 11.0, 12.0, 11.0], Some(20.0)))
            .collect();
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join(REPORT_FILE),
            json::to_string(&fixtures::report(tests)),
        )
        .unwrap();
    }

    #[test]
    fn report_directories_at_any_depth_are_found_and_links_are_not_followed() {
        let root = scratch("find");
        write_report(&root.join("perf"), &["a"]);
        write_report(&root.join("deep/er/still"), &["b"]);
        std::fs::create_dir_all(root.join("empty/nothing")).unwrap();
        std::fs::write(root.join("empty/report.html"), "").unwrap();
        assert_eq!(
            report_dirs(&root).unwrap(),
            [root.join("deep/er/still"), root.join("perf")]
        );
        // A report directory given itself, or its report.json.
        assert_eq!(
            report_dirs(&root.join("perf")).unwrap(),
            [root.join("perf")]
        );
        assert_eq!(
            report_dirs(&root.join("perf").join(REPORT_FILE)).unwrap(),
            [root.join("perf")]
        );
        #[cfg(unix)]
        {
            // A link to a report directory below the root is not followed.
            std::os::unix::fs::symlink(root.join("perf"), root.join("empty/link")).unwrap();
            assert_eq!(report_dirs(&root).unwrap().len(), 2);
        }
        assert!(report_dirs(&root.join("empty")).unwrap().is_empty());
        let missing = report_dirs(&root.join("missing")).unwrap_err();
        assert!(missing.to_string().contains("missing"), "{missing}");
        let file = report_dirs(&root.join("empty/report.html")).unwrap_err();
        assert!(file.to_string().contains("is a file"), "{file}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_page_is_drawn_beside_its_report() {
        let root = scratch("draw");
        write_report(&root, &["sort_1k", "parse::json"]);
        let page = draw_page(&root).unwrap();
        assert_eq!(page.path, root.join(PAGE_FILE));
        assert_eq!(page.tests, 2);
        assert_eq!(
            page.to_string(),
            format!("wrote {} (2 tests)", root.join(PAGE_FILE).display())
        );
        let html = std::fs::read_to_string(&page.path).unwrap();
        assert!(html.contains("<code>sort_1k</code>") && html.contains("<svg"));
        assert!(html.contains("<code>parse::json</code>"));
        // No temporary file is left beside it.
        let names: Vec<String> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_corrupt_report_is_an_error_naming_it_and_the_other_pages_are_drawn() {
        let root = scratch("corrupt");
        write_report(&root.join("good"), &["a"]);
        std::fs::create_dir_all(root.join("bad")).unwrap();
        std::fs::write(root.join("bad").join(REPORT_FILE), "{\"schema\": 1, \"tes").unwrap();
        let e = draw_page(&root.join("bad")).unwrap_err();
        assert!(
            e.is_report() && e.to_string().contains("bad/report.json"),
            "{e}"
        );
        let (pages, errors) = draw_under(std::slice::from_ref(&root));
        assert_eq!(pages.len(), 1);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].to_string().contains("bad/report.json"),
            "{}",
            errors[0]
        );
        assert_eq!(
            draw_pages(std::slice::from_ref(&root), || unreachable!()).unwrap(),
            2
        );
        assert!(root.join("good").join(PAGE_FILE).is_file());
        assert!(!root.join("bad").join(PAGE_FILE).exists());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn after_a_run_only_the_reports_it_wrote_are_drawn() {
        let root = scratch("since");
        write_report(&root.join("old"), &["a"]);
        // The old report predates the command by more than the slack.
        let old = SystemTime::now() - 2 * MTIME_SLACK;
        std::fs::File::options()
            .write(true)
            .open(root.join("old").join(REPORT_FILE))
            .unwrap()
            .set_modified(old - MTIME_SLACK)
            .unwrap();
        let since = SystemTime::now();
        write_report(&root.join("new"), &["b"]);
        std::fs::create_dir_all(root.join("bad")).unwrap();
        std::fs::write(root.join("bad").join(REPORT_FILE), "not json").unwrap();
        let candidates = [
            root.join("old"),
            root.join("new"),
            root.join("new"),
            root.join("bad"),
            root.join("missing"),
        ];
        // The corrupt one is a warning; the new one is drawn once.
        let pages = draw_pages_written_since(candidates, since);
        let new = root.join("new").canonicalize().unwrap();
        assert_eq!(
            pages,
            [Page {
                path: new.join(PAGE_FILE),
                tests: 1
            }]
        );
        assert!(!root.join("old").join(PAGE_FILE).exists());
        assert!(!root.join("bad").join(PAGE_FILE).exists());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn no_report_anywhere_says_where_it_looked_and_what_writes_one() {
        let root = scratch("none");
        // No DIR: the default root, here one with no report under it, or
        // none at all.
        for default in [root.clone(), root.join("perfmark")] {
            let (pages, errors) = draw_under(std::slice::from_ref(&default));
            assert!(pages.is_empty());
            let [e] = &errors[..] else {
                panic!("{errors:?}")
            };
            assert!(e.is_report() && e.exit_code() == 2, "{e}");
            let text = e.to_string();
            assert!(text.contains(&default.display().to_string()), "{e}");
            assert!(text.contains("cargo test --release"), "{e}");
            assert_eq!(draw_pages(&[], || Ok(default.clone())).unwrap(), 2);
        }
        // Of several DIRs, one without a report fails the command, and the
        // others' pages are still drawn, each once.
        write_report(&root.join("perf"), &["a"]);
        std::fs::create_dir_all(root.join("other")).unwrap();
        let (pages, errors) = draw_under(&[root.join("other"), root.join("perf"), root.clone()]);
        assert_eq!(pages.len(), 1, "{pages:?}");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].to_string().contains("other"), "{}", errors[0]);
        assert!(root.join("perf").join(PAGE_FILE).is_file());
        assert_eq!(
            draw_pages(&[root.join("perf")], || unreachable!()).unwrap(),
            0
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
