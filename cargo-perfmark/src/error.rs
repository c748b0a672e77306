//! [`Error`], the one error type of `cargo perfmark`.

use std::fmt;

/// Why a `cargo perfmark` task could not give a verdict, in words meant for
/// the user.
///
/// As jiff's `Error`, this is one opaque type: the cases are told apart
/// with the `is_*` predicates, not by matching on public variants, so new
/// cases can be added without breaking callers. Its [`Display`] is printed
/// as it is after `error: `: lowercase, it says what failed and what to do,
/// e.g.
///
/// ```text
/// --runs takes a whole number of processes, at least 2, not `one`
/// ```
///
/// A regression is not an error: it is the verdict, an exit code of 101
/// that the tasks return. Every error exits with 2 ([`Error::exit_code`]),
/// so a CI log tells "slower" from "could not measure".
///
/// [`Display`]: fmt::Display
#[derive(Debug)]
pub struct Error {
    kind: Kind,
    message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The command line is not one `cargo perfmark` accepts.
    Usage,
    /// cargo could not be run, or failed to build or describe the
    /// workspace (its own message went to stderr).
    Build,
    /// git could not be run, or the revision cannot be checked out.
    Git,
    /// A test binary could not be run, failed otherwise than with a test
    /// verdict, or did not write what it was asked to.
    Run,
    /// A baseline file could not be read or written.
    Baseline,
    /// Values handed over cannot be merged into one baseline entry (runs
    /// of different tests, statistics, confidence levels or clocks).
    Invalid,
    /// A `report.json` cannot be read.
    Report,
}

impl Error {
    fn new(kind: Kind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Error {
        Error::new(Kind::Usage, message)
    }

    pub(crate) fn build(message: impl Into<String>) -> Error {
        Error::new(Kind::Build, message)
    }

    pub(crate) fn git(message: impl Into<String>) -> Error {
        Error::new(Kind::Git, message)
    }

    pub(crate) fn run(message: impl Into<String>) -> Error {
        Error::new(Kind::Run, message)
    }

    pub(crate) fn baseline(error: perfmark_core::baseline::BaselineError) -> Error {
        Error::new(Kind::Baseline, error.to_string())
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::new(Kind::Invalid, message)
    }

    pub(crate) fn report(message: impl Into<String>) -> Error {
        Error::new(Kind::Report, message)
    }

    /// The command line was wrong: the message says what is accepted.
    pub fn is_usage(&self) -> bool {
        self.kind == Kind::Usage
    }

    /// cargo failed to build or describe the workspace (its message is on
    /// stderr above this one), or could not be run.
    pub fn is_build(&self) -> bool {
        self.kind == Kind::Build
    }

    /// Runs that are not of one test measured one way cannot be merged.
    pub fn is_invalid(&self) -> bool {
        self.kind == Kind::Invalid
    }

    /// A `report.json` could not be read (the message names it).
    pub fn is_report(&self) -> bool {
        self.kind == Kind::Report
    }

    /// The process exit status for this error: 2, as for every error, so
    /// that it is never mistaken for a verdict (0 passed, 101 failed).
    pub fn exit_code(&self) -> u8 {
        2
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
