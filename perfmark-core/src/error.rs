//! [`Error`], the one error type of a test binary's run.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::worker::Side;

/// Why a run of the test binary could not do what it was asked, in words
/// meant for the user.
///
/// As jiff's `Error`, this is one opaque type: the cases are told apart
/// with the `is_*` predicates, not by matching on public variants, so new
/// cases can be added without breaking callers. Its [`Display`] is printed
/// as it is after `error: ` (or in a test's failure reason); it says what
/// was refused and what is accepted, e.g.
///
/// ```text
/// --save-baseline and --no-baseline cannot be used together
/// the base worker (target/base/perf) is not a file: give the path of another build of this test target
/// ```
///
/// Messages are lowercase, except those that repeat libtest's own words for
/// the options it shares with perfmark (`Unrecognized option: 'x'`), which
/// tools reading a test binary's output may match.
///
/// It covers the run itself: the command line and environment
/// ([`is_usage`](Self::is_usage)), and the worker processes of a paired
/// comparison ([`is_worker`](Self::is_worker), with
/// [`is_protocol`](Self::is_protocol) for a worker that speaks something
/// else), and the report files it writes ([`is_report`](Self::is_report)).
/// Baseline files have their own type,
/// [`BaselineError`](crate::baseline::BaselineError): the store is also
/// used without a run (recording over several processes, merging runs),
/// and every one of its errors names a file, which these do not.
///
/// [`Display`]: fmt::Display
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// An argument or `PERFMARK_…` variable was refused.
    Usage { message: String },
    /// A worker process could not serve; `protocol` when what it said was
    /// not this perfmark's worker protocol.
    Worker {
        side: Side,
        path: PathBuf,
        message: String,
        protocol: bool,
    },
    /// A line that carries the worker protocol's prefix but does not read
    /// as one of its replies, not yet tied to a worker.
    Protocol { detail: String },
    /// A report file could not be written.
    Report { message: String },
}

impl Error {
    /// The command line or the environment asked for something that is
    /// not accepted; `message` says what and what is.
    pub(crate) fn usage(message: impl Into<String>) -> Error {
        Error {
            kind: Kind::Usage {
                message: message.into(),
            },
        }
    }

    /// The `side` worker, the binary at `path`, could not serve;
    /// `message` completes the sentence "the base worker (PATH) …".
    pub(crate) fn worker(side: Side, path: &Path, message: impl Into<String>) -> Error {
        Error {
            kind: Kind::Worker {
                side,
                path: path.to_owned(),
                message: message.into(),
                protocol: false,
            },
        }
    }

    /// A report file could not be written; `message` names it and says
    /// what to do.
    pub(crate) fn report(message: impl Into<String>) -> Error {
        Error {
            kind: Kind::Report {
                message: message.into(),
            },
        }
    }

    /// A worker's line that does not read as a protocol reply.
    pub(crate) fn protocol(detail: impl Into<String>) -> Error {
        Error {
            kind: Kind::Protocol {
                detail: detail.into(),
            },
        }
    }

    /// This error, prefixed: `context: error`, the same kind. For the
    /// name of the option whose value was refused.
    pub(crate) fn within(self, context: &str) -> Error {
        self.reworded(|text| format!("{context}: {text}"))
    }

    /// This error as said by the `side` worker at `path`: a protocol error
    /// keeps being one, any other becomes that worker's, its text the
    /// message.
    pub(crate) fn of_worker(self, side: Side, path: &Path) -> Error {
        let (message, protocol) = match self.kind {
            Kind::Protocol { detail } => (detail, true),
            Kind::Worker { .. } => return self,
            Kind::Usage { message } | Kind::Report { message } => (message, false),
        };
        Error {
            kind: Kind::Worker {
                side,
                path: path.to_owned(),
                message,
                protocol,
            },
        }
    }

    /// The same error with `message` in place of its words (after the
    /// worker it names, for a worker's error), keeping its kind.
    pub(crate) fn reworded(self, reword: impl FnOnce(&str) -> String) -> Error {
        let kind = match self.kind {
            Kind::Usage { message } => Kind::Usage {
                message: reword(&message),
            },
            Kind::Worker {
                side,
                path,
                message,
                protocol,
            } => Kind::Worker {
                side,
                path,
                message: reword(&message),
                protocol,
            },
            Kind::Protocol { detail } => Kind::Protocol {
                detail: reword(&detail),
            },
            Kind::Report { message } => Kind::Report {
                message: reword(&message),
            },
        };
        Error { kind }
    }

    /// Whether an argument or a `PERFMARK_…` variable was refused (the
    /// binary exits with 101 before running a test).
    pub fn is_usage(&self) -> bool {
        matches!(self.kind, Kind::Usage { .. })
    }

    /// Whether a report file (`report.json`, `bencher.json`, `summary.md`,
    /// or the appended `$GITHUB_STEP_SUMMARY`) could not be written.
    pub fn is_report(&self) -> bool {
        matches!(self.kind, Kind::Report { .. })
    }

    /// Whether a worker process of a paired comparison could not serve: it
    /// could not be started, crashed, hung, failed its test, or is not a
    /// perfmark test binary this perfmark can drive.
    pub fn is_worker(&self) -> bool {
        matches!(self.kind, Kind::Worker { .. })
    }

    /// Whether a worker spoke something other than this perfmark's worker
    /// protocol: an unreadable or overlong protocol line, or another
    /// protocol version. Rebuilding both builds with the same perfmark is
    /// the cure.
    pub fn is_protocol(&self) -> bool {
        matches!(
            self.kind,
            Kind::Protocol { .. } | Kind::Worker { protocol: true, .. }
        )
    }

    /// The build whose worker this error is about, if any.
    pub fn side(&self) -> Option<Side> {
        match &self.kind {
            Kind::Worker { side, .. } => Some(*side),
            _ => None,
        }
    }

    /// The binary whose worker this error is about, if any.
    pub fn path(&self) -> Option<&Path> {
        match &self.kind {
            Kind::Worker { path, .. } => Some(path),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Usage { message } | Kind::Report { message } => f.write_str(message),
            Kind::Worker {
                side,
                path,
                message,
                ..
            } => {
                let side = match side {
                    Side::Base => "base",
                    Side::Head => "head",
                };
                write!(f, "the {side} worker ({}) {message}", path.display())
            }
            Kind::Protocol { detail } => f.write_str(detail),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_error_names_its_build_and_binary() {
        let e = Error::worker(Side::Base, Path::new("target/base/perf"), "hung");
        assert_eq!(e.to_string(), "the base worker (target/base/perf) hung");
        assert!(e.is_worker() && !e.is_protocol() && !e.is_usage());
        assert_eq!(e.side(), Some(Side::Base));
        assert_eq!(e.path(), Some(Path::new("target/base/perf")));
    }

    #[test]
    fn a_protocol_error_stays_one_when_its_worker_is_known() {
        let e = Error::protocol("unreadable worker line \"x\"");
        assert!(e.is_protocol() && !e.is_worker());
        let e = e.of_worker(Side::Head, Path::new("perf"));
        assert!(e.is_protocol() && e.is_worker());
        assert_eq!(
            e.to_string(),
            "the head worker (perf) unreadable worker line \"x\""
        );
    }

    #[test]
    fn usage_errors_print_as_given_and_take_their_option_in_front() {
        let e = Error::usage("\"soon\" is not a duration").within("--timeout");
        assert!(e.is_usage() && !e.is_worker() && e.side().is_none());
        assert_eq!(e.to_string(), "--timeout: \"soon\" is not a duration");
        let e = e.reworded(|m| format!("{m}!"));
        assert_eq!(e.to_string(), "--timeout: \"soon\" is not a duration!");
    }
}
