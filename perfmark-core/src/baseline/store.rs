//! [`BaselineStore`]: one directory of baseline files, one file per test
//! target; loading, and locked, merging, atomic saving.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::atomic::{self, LockGuard, DIR_ADVICE};
use super::entry::EntryRepr;
use super::unique_keys::UniqueKeys;
use super::{BaselineError, Entry, RecordedSpread, DEFAULT_DIR, SCHEMA_VERSION};

/// The top-level key of the machine's recorded between-run spread.
const SPREAD_KEY: &str = "between_run_spread";

/// A directory of baseline files: `<dir>/<test target>.json`, e.g.
/// `perf-baselines/perf.json` for the test target `perf` (`tests/perf.rs`).
///
/// The store only takes a directory; choosing it (`--baseline-dir`,
/// `PERFMARK_BASELINE_DIR`, or [`BaselineStore::in_package`]) is the
/// runner's job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineStore {
    dir: PathBuf,
}

/// The entries of one baseline file, as loaded or as left by a save.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineFile {
    path: PathBuf,
    entries: BTreeMap<String, Entry>,
    spread: Option<RecordedSpread>,
}

impl BaselineStore {
    /// The store in `dir`. Nothing is read or created until a load or save.
    pub fn new(dir: impl Into<PathBuf>) -> BaselineStore {
        BaselineStore { dir: dir.into() }
    }

    /// The default store of a package: `<manifest_dir>/perf-baselines`
    /// (pass `env!("CARGO_MANIFEST_DIR")` of the crate under test), meant to
    /// be committed.
    pub fn in_package(manifest_dir: impl AsRef<Path>) -> BaselineStore {
        BaselineStore::new(manifest_dir.as_ref().join(DEFAULT_DIR))
    }

    /// The directory.
    #[cfg(feature = "tool")]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file holding the baselines of the test target `target`:
    /// `<dir>/<target>.json`.
    pub fn path_of(&self, target: &str) -> PathBuf {
        self.dir.join(format!("{target}.json"))
    }

    /// The stored baselines of the test target `target`, or `None` when it
    /// has no baseline file yet.
    ///
    /// Takes no lock: saves replace the file by an atomic rename, so a load
    /// sees the file before or after a concurrent save, never a mixture.
    ///
    /// # Errors
    ///
    /// A [`BaselineError`] naming the file when it exists but is corrupt,
    /// truncated or of a newer schema ([`is_corrupt`], [`is_future_schema`]),
    /// or cannot be read ([`is_io`]); [`is_invalid`] when `target` is not a
    /// cargo target name (letters, digits, `-`, `_`).
    ///
    /// [`is_corrupt`]: BaselineError::is_corrupt
    /// [`is_future_schema`]: BaselineError::is_future_schema
    /// [`is_io`]: BaselineError::is_io
    /// [`is_invalid`]: BaselineError::is_invalid
    pub fn load(&self, target: &str) -> Result<Option<BaselineFile>, BaselineError> {
        self.check_target(target)?;
        let path = self.path_of(target);
        let Some(stored) = read_stored(&path)? else {
            return Ok(None);
        };
        Ok(Some(BaselineFile {
            entries: stored.entries,
            spread: stored.spread,
            path,
        }))
    }

    /// Saves `entries` into the file of test target `target`, keeping every
    /// other test's entry as it was (byte for byte), and returns the file as
    /// written. An entry whose test is already stored replaces it.
    ///
    /// The save is safe against other processes and crashes:
    /// 1. an exclusive lock is taken on `.<target>.json.lock` beside the
    ///    file (released by the kernel if the process dies);
    /// 2. the current file is read again under the lock, so two processes
    ///    saving different tests at once both keep their entries;
    /// 3. the merged file is written to a temporary file in the same
    ///    directory, `fsync`ed, renamed over the target, and the directory
    ///    is `fsync`ed: a process killed at any point leaves the old file or
    ///    the new one, complete. Temporary files left by killed saves
    ///    (`.<target>.json.<pid>.<n>.tmp`) are deleted by the next save.
    ///
    /// The directory is created if missing.
    ///
    /// # Errors
    ///
    /// - the file exists but is corrupt, truncated or of a newer schema: the
    ///   same error as [`load`](Self::load), and the file is left untouched;
    /// - the directory cannot be created or written ([`is_io`], naming the
    ///   directory or the file);
    /// - another process held the lock for two minutes
    ///   ([`is_lock_timeout`]);
    /// - an entry is unfit to store (non-finite numbers, an interval upside
    ///   down, no samples), or two entries have the same name
    ///   ([`is_invalid`], naming the test): nothing is written.
    ///
    /// [`is_io`]: BaselineError::is_io
    /// [`is_lock_timeout`]: BaselineError::is_lock_timeout
    /// [`is_invalid`]: BaselineError::is_invalid
    pub fn save(&self, target: &str, entries: &[Entry]) -> Result<BaselineFile, BaselineError> {
        self.save_with(target, entries, None)
    }

    /// [`save`](Self::save) for a recording over several processes: the
    /// entries, and the machine's between-run `spread` estimated from them
    /// ([`RecordedSpread::from_entries`]), which replaces the file's
    /// (top-level `between_run_spread`).
    ///
    /// # Errors
    ///
    /// As [`save`](Self::save); also [`is_invalid`] when the spread is not a
    /// usable one (see [`RecordedSpread`]).
    ///
    /// [`is_invalid`]: BaselineError::is_invalid
    #[cfg(feature = "tool")]
    pub fn save_recording(
        &self,
        target: &str,
        entries: &[Entry],
        spread: &RecordedSpread,
    ) -> Result<BaselineFile, BaselineError> {
        self.save_with(target, entries, Some(spread))
    }

    fn save_with(
        &self,
        target: &str,
        entries: &[Entry],
        spread: Option<&RecordedSpread>,
    ) -> Result<BaselineFile, BaselineError> {
        self.check_target(target)?;
        let path = self.path_of(target);
        check_fit_to_save(&path, entries, spread)?;
        let _lock = self.lock(target)?;

        // Under the lock: what is on disk now is what we merge into.
        let stored = read_stored(&path)?;
        // Best effort: a temporary file that cannot be deleted is ignored
        // by every reader, and the write below reports a broken directory.
        let _ = atomic::remove_stale_temps(&self.dir, &path);

        let mut file = stored.unwrap_or_else(Stored::empty);
        file.put(entries, spread);
        let Stored {
            top,
            tests,
            entries: merged,
            spread: kept_spread,
        } = file;
        let text = file_text(top, tests);
        crate::fs::replace_file(&self.dir, &path, text.as_bytes()).map_err(|e| {
            BaselineError::io(&path, "cannot write the baseline file", DIR_ADVICE, e)
        })?;
        Ok(BaselineFile {
            path,
            entries: merged,
            spread: kept_spread,
        })
    }

    /// Creates the directory if missing and takes the exclusive lock of
    /// the test target `target`'s file, `.<target>.json.lock`.
    fn lock(&self, target: &str) -> Result<LockGuard, BaselineError> {
        fs::create_dir_all(&self.dir).map_err(|e| {
            BaselineError::io(
                &self.dir,
                "cannot create the baseline directory",
                DIR_ADVICE,
                e,
            )
        })?;
        let lock_path = self.dir.join(format!(".{target}.json.lock"));
        LockGuard::acquire(&lock_path)
    }

    /// The test targets that have a baseline file in the directory, sorted.
    /// Lock files and temporary files of saves (dot-files) and files not
    /// named `<target>.json` are not baselines and are not listed. A missing
    /// directory has none.
    ///
    /// # Errors
    ///
    /// [`BaselineError::is_io`] when the directory cannot be listed.
    #[cfg(feature = "tool")]
    pub fn targets(&self) -> Result<Vec<String>, BaselineError> {
        let listing = match fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(list_error(&self.dir, e)),
        };
        let mut targets = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|e| list_error(&self.dir, e))?;
            let name = entry.file_name();
            let Some(target) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
                continue;
            };
            if is_target_name(target) && entry.path().is_file() {
                targets.push(target.to_owned());
            }
        }
        targets.sort();
        Ok(targets)
    }

    fn check_target(&self, target: &str) -> Result<(), BaselineError> {
        if is_target_name(target) {
            return Ok(());
        }
        Err(BaselineError::invalid(
            Some(&self.dir),
            format!(
                "test target name {target:?} is not a cargo target name (letters, digits, `-` \
                 and `_`)"
            ),
        ))
    }
}

impl BaselineFile {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entry of the test named `test`, if stored.
    pub fn get(&self, test: &str) -> Option<&Entry> {
        self.entries.get(test)
    }

    /// Every entry, sorted by test name.
    #[cfg(feature = "tool")]
    pub fn entries(&self) -> impl Iterator<Item = &Entry> + '_ {
        self.entries.values()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the file has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The machine's between-run spread recorded with the file's entries
    /// (`cargo perfmark baseline --runs N`), if any. Check its fingerprint
    /// before using it: it describes the machine of the recording.
    pub fn between_run_spread(&self) -> Option<&RecordedSpread> {
        self.spread.as_ref()
    }

    /// The names of stored entries whose test is not among `current` (the
    /// full names of every test of the binary, filtered or not): tests that
    /// were renamed or deleted, for the runner to report. Sorted.
    pub fn stale_tests<I, S>(&self, current: I) -> Vec<String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let current: BTreeSet<String> = current
            .into_iter()
            .map(|name| name.as_ref().to_owned())
            .collect();
        self.entries
            .keys()
            .filter(|name| !current.contains(*name))
            .cloned()
            .collect()
    }
}

/// A cargo target name: non-empty ASCII letters, digits, `-`, `_`. This
/// also keeps baseline files apart from the store's dot-files.
fn is_target_name(target: &str) -> bool {
    !target.is_empty()
        && target
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(feature = "tool")]
fn list_error(dir: &Path, e: io::Error) -> BaselineError {
    BaselineError::io(dir, "cannot list the baseline directory", DIR_ADVICE, e)
}

/// A baseline file as read: its top-level object and its `tests` object as
/// JSON (so a save rewrites the entries it does not replace exactly as
/// they were), and the entries checked and decoded.
struct Stored {
    top: Map<String, Value>,
    tests: Map<String, Value>,
    entries: BTreeMap<String, Entry>,
    spread: Option<RecordedSpread>,
}

impl Stored {
    /// A file with no entry and no spread.
    fn empty() -> Stored {
        Stored {
            top: Map::new(),
            tests: Map::new(),
            entries: BTreeMap::new(),
            spread: None,
        }
    }

    /// Puts `entries` in, each replacing the stored entry of its test, and
    /// `spread` when given, replacing the stored one.
    fn put(&mut self, entries: &[Entry], spread: Option<&RecordedSpread>) {
        if let Some(spread) = spread {
            let value = serde_json::to_value(spread)
                .expect("a spread of numbers and strings always serializes");
            self.top.insert(SPREAD_KEY.to_owned(), value);
            self.spread = Some(spread.clone());
        }
        for entry in entries {
            let value = serde_json::to_value(entry.to_repr())
                .expect("an entry of numbers and strings always serializes");
            self.tests.insert(entry.name().to_owned(), value);
            self.entries.insert(entry.name().to_owned(), entry.clone());
        }
    }
}

/// Checks that `entries` and `spread` can be saved into the file at
/// `path`: every entry fit to store, no test given twice, the spread a
/// usable one ([`BaselineError::is_invalid`] naming the test otherwise).
fn check_fit_to_save(
    path: &Path,
    entries: &[Entry],
    spread: Option<&RecordedSpread>,
) -> Result<(), BaselineError> {
    let mut names = BTreeSet::new();
    for entry in entries {
        if let Some(problem) = entry.problem() {
            let detail = format!("test `{}`: {problem}", entry.name());
            return Err(BaselineError::invalid(Some(path), detail));
        }
        if !names.insert(entry.name()) {
            let detail = format!("test `{}` is given twice in one save", entry.name());
            return Err(BaselineError::invalid(Some(path), detail));
        }
    }
    match spread.and_then(RecordedSpread::problem) {
        Some(problem) => Err(BaselineError::invalid(Some(path), problem)),
        None => Ok(()),
    }
}

/// The text of a file whose top-level object is `top` with this schema
/// and the `tests` object.
fn file_text(mut top: Map<String, Value>, tests: Map<String, Value>) -> String {
    top.insert("schema".to_owned(), Value::from(SCHEMA_VERSION));
    top.insert("tests".to_owned(), Value::Object(tests));
    to_sorted_pretty(Value::Object(top))
}

/// Reads and checks the baseline file at `path`; `None` when there is none.
fn read_stored(path: &Path) -> Result<Option<Stored>, BaselineError> {
    match fs::read(path) {
        Ok(bytes) => parse(path, &bytes).map(Some),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        // A file where the directory should be.
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => Err(BaselineError::io(
            path,
            "cannot read the baseline file, its directory is not a directory",
            DIR_ADVICE,
            e,
        )),
        Err(e) => Err(BaselineError::io(
            path,
            "cannot read the baseline file",
            "check that it is a readable file",
            e,
        )),
    }
}

/// Decodes a baseline file's bytes. The schema is checked before anything
/// else, so a newer perfmark's file is reported as such even if its layout
/// changed.
fn parse(path: &Path, bytes: &[u8]) -> Result<Stored, BaselineError> {
    let Value::Object(mut top) = read_json(path, bytes)? else {
        return Err(BaselineError::corrupt(
            path,
            "the top level is not a JSON object",
        ));
    };
    check_schema(path, &top)?;
    let tests = match top.remove("tests") {
        Some(Value::Object(tests)) => tests,
        Some(_) => return Err(BaselineError::corrupt(path, "`tests` is not a JSON object")),
        None => return Err(BaselineError::corrupt(path, "it has no `tests` object")),
    };
    let entries = decode_entries(path, &tests)?;
    let spread = match top.get(SPREAD_KEY) {
        None => None,
        Some(value) => Some(decode_spread(path, value)?),
    };
    Ok(Stored {
        top,
        tests,
        entries,
        spread,
    })
}

/// The file's JSON: truncated when it is empty or ends early, corrupt when
/// it is not JSON or gives a key twice in one object (see
/// `unique_keys.rs`).
fn read_json(path: &Path, bytes: &[u8]) -> Result<Value, BaselineError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(BaselineError::truncated(path, "the file is empty"));
    }
    serde_json::from_slice::<UniqueKeys>(bytes)
        .map(|u| u.0)
        .map_err(|e| {
            if e.is_eof() {
                let at = format!(
                    "the JSON ends early, at line {} column {}",
                    e.line(),
                    e.column()
                );
                BaselineError::truncated(path, at)
            } else {
                BaselineError::corrupt(path, format!("invalid JSON: {e}"))
            }
        })
}

/// Checks the top-level `schema`: this perfmark's, else a newer one's
/// (future schema) or not a baseline schema (corrupt).
fn check_schema(path: &Path, top: &Map<String, Value>) -> Result<(), BaselineError> {
    let Some(schema) = top.get("schema") else {
        return Err(BaselineError::corrupt(path, "it has no `schema` field"));
    };
    match schema.as_u64() {
        Some(SCHEMA_VERSION) => Ok(()),
        Some(found) if found > SCHEMA_VERSION => Err(BaselineError::future_schema(path, found)),
        _ => {
            let detail = format!("`schema` is {schema}, not a perfmark baseline schema");
            Err(BaselineError::corrupt(path, detail))
        }
    }
}

/// Each test's entry in the `tests` object, checked; corrupt, naming the
/// test, at the first that is not a storable entry.
fn decode_entries(
    path: &Path,
    tests: &Map<String, Value>,
) -> Result<BTreeMap<String, Entry>, BaselineError> {
    let mut entries = BTreeMap::new();
    for (name, value) in tests {
        let entry = serde_json::from_value::<EntryRepr>(value.clone())
            .map_err(|e| e.to_string())
            .and_then(|repr| Entry::from_repr(name, repr))
            .map_err(|problem| BaselineError::corrupt(path, format!("test `{name}`: {problem}")))?;
        entries.insert(name.clone(), entry);
    }
    Ok(entries)
}

/// The recorded between-run spread `value`, checked; corrupt when it is
/// not a usable one.
fn decode_spread(path: &Path, value: &Value) -> Result<RecordedSpread, BaselineError> {
    serde_json::from_value::<RecordedSpread>(value.clone())
        .map_err(|e| e.to_string())
        .and_then(|s| match s.problem() {
            Some(problem) => Err(problem),
            None => Ok(s),
        })
        .map_err(|problem| BaselineError::corrupt(path, format!("`{SPREAD_KEY}`: {problem}")))
}

/// `value` as the file's text: pretty JSON with each array of numbers on one
/// line ([`crate::json_text`]) and the keys of every object sorted, ending
/// with a newline. serde_json's map is sorted already unless some crate in
/// the build turns on its `preserve_order` feature; sorting again makes the
/// file's layout independent of that.
fn to_sorted_pretty(mut value: Value) -> String {
    sort_keys(&mut value);
    let mut text =
        crate::json_text::to_string(&value).expect("a serde_json::Value always serializes");
    text.push('\n');
    text
}

fn sort_keys(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.sort_keys();
            map.values_mut().for_each(sort_keys);
        }
        Value::Array(items) => items.iter_mut().for_each(sort_keys),
        _ => {}
    }
}
