//! [`BaselineError`], the one error type of the baseline store.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What went wrong with a baseline file, with the file's path and what to
/// do about it.
///
/// As jiff's `Error`, this is one opaque type: the cases are told apart
/// with the `is_*` predicates, not by matching on public variants, so new
/// cases can be added without breaking callers. Its [`Display`] is meant to
/// be printed to the user as it is: lowercase, it starts with the path of
/// the file (or directory) concerned and ends with what to do, e.g.
///
/// ```text
/// perf-baselines/perf.json: schema 7 is newer than this perfmark supports (1); upgrade
/// perfmark, or delete the file and re-record with --save-baseline
/// ```
///
/// A file that cannot be trusted (corrupt, truncated, future schema) is
/// never skipped or overwritten: loading it and saving over it both fail
/// with this error, and the file is left as it was.
///
/// [`Display`]: fmt::Display
#[derive(Debug)]
pub struct BaselineError {
    /// The baseline file or directory concerned (every error the store
    /// makes names one; `None` is kept for values refused before a file).
    path: Option<PathBuf>,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// The file is not a baseline file of a schema this perfmark reads:
    /// not JSON, truncated, or with missing / wrong fields.
    Corrupt { detail: String, truncated: bool },
    /// The file has a schema newer than [`super::SCHEMA_VERSION`].
    FutureSchema { found: u64 },
    /// Reading, writing, locking or creating the file or its directory
    /// failed.
    Io {
        action: String,
        advice: &'static str,
        source: io::Error,
    },
    /// Another process held the lock longer than the store waits.
    LockTimeout { waited_s: u64 },
    /// The values handed to the store cannot be written as a baseline
    /// (not finite, interval upside down, runs that do not match).
    Invalid { detail: String },
}

/// What to do about a file that cannot be read as a baseline.
const CORRUPT_ADVICE: &str =
    "restore it from version control, or delete it and re-record with --save-baseline";

impl BaselineError {
    pub(crate) fn corrupt(path: &Path, detail: impl Into<String>) -> BaselineError {
        BaselineError {
            path: Some(path.to_owned()),
            kind: Kind::Corrupt {
                detail: detail.into(),
                truncated: false,
            },
        }
    }

    pub(crate) fn truncated(path: &Path, detail: impl Into<String>) -> BaselineError {
        BaselineError {
            path: Some(path.to_owned()),
            kind: Kind::Corrupt {
                detail: detail.into(),
                truncated: true,
            },
        }
    }

    pub(crate) fn future_schema(path: &Path, found: u64) -> BaselineError {
        BaselineError {
            path: Some(path.to_owned()),
            kind: Kind::FutureSchema { found },
        }
    }

    /// An I/O failure on `path`; `action` says what was being done
    /// ("cannot read the baseline file"), `advice` what the user can do.
    pub(crate) fn io(
        path: &Path,
        action: impl Into<String>,
        advice: &'static str,
        source: io::Error,
    ) -> BaselineError {
        BaselineError {
            path: Some(path.to_owned()),
            kind: Kind::Io {
                action: action.into(),
                advice,
                source,
            },
        }
    }

    pub(crate) fn lock_timeout(path: &Path, waited_s: u64) -> BaselineError {
        BaselineError {
            path: Some(path.to_owned()),
            kind: Kind::LockTimeout { waited_s },
        }
    }

    pub(crate) fn invalid(path: Option<&Path>, detail: impl Into<String>) -> BaselineError {
        BaselineError {
            path: path.map(Path::to_owned),
            kind: Kind::Invalid {
                detail: detail.into(),
            },
        }
    }

    /// The baseline file (or, for a directory that cannot be created, the
    /// directory) this error is about.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Whether the file exists but is not a readable baseline: not JSON,
    /// truncated, empty, or with missing or malformed fields. Such a file is
    /// never overwritten by a save.
    pub fn is_corrupt(&self) -> bool {
        matches!(self.kind, Kind::Corrupt { .. })
    }

    /// Whether the file ends early (a torn write, or a copy cut short):
    /// a special case of [`is_corrupt`](Self::is_corrupt).
    pub fn is_truncated(&self) -> bool {
        matches!(
            self.kind,
            Kind::Corrupt {
                truncated: true,
                ..
            }
        )
    }

    /// Whether the file was written by a newer perfmark with a schema this
    /// one does not know. Such a file is never overwritten by a save.
    pub fn is_future_schema(&self) -> bool {
        matches!(self.kind, Kind::FutureSchema { .. })
    }

    /// Whether an operating-system call failed: the directory cannot be
    /// created or written, the file cannot be read, the lock cannot be
    /// taken (including [`is_lock_timeout`](Self::is_lock_timeout)).
    pub fn is_io(&self) -> bool {
        matches!(self.kind, Kind::Io { .. } | Kind::LockTimeout { .. })
    }

    /// Whether another process held the baseline's lock for longer than a
    /// save waits for it.
    pub fn is_lock_timeout(&self) -> bool {
        matches!(self.kind, Kind::LockTimeout { .. })
    }

    /// Whether the values given to the store were refused (non-finite
    /// numbers, an interval upside down, a test target name cargo would
    /// not accept):
    /// a bug in the caller, reported rather than written.
    pub fn is_invalid(&self) -> bool {
        matches!(self.kind, Kind::Invalid { .. })
    }
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{}: ", path.display())?;
        }
        match &self.kind {
            Kind::Corrupt {
                detail,
                truncated: true,
            } => {
                write!(f, "truncated baseline file ({detail}); {CORRUPT_ADVICE}")
            }
            Kind::Corrupt {
                detail,
                truncated: false,
            } => {
                write!(f, "not a valid baseline file ({detail}); {CORRUPT_ADVICE}")
            }
            Kind::FutureSchema { found } => write!(
                f,
                "schema {found} is newer than this perfmark supports ({}); upgrade perfmark, or \
                 delete the file and re-record with --save-baseline",
                super::SCHEMA_VERSION
            ),
            Kind::Io {
                action,
                advice,
                source,
            } => write!(f, "{action}: {source}; {advice}"),
            Kind::LockTimeout { waited_s } => write!(
                f,
                "another process has held this lock for {waited_s} s; wait for the other \
                 perfmark run to finish, or stop it"
            ),
            Kind::Invalid { detail } => {
                write!(
                    f,
                    "{detail}; this is a bug in the caller of the baseline store"
                )
            }
        }
    }
}

impl std::error::Error for BaselineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            Kind::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
