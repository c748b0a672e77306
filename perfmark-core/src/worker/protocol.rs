//! The line protocol between a coordinator and its workers.
//!
//! A worker is the test binary started with [`WORKER_FLAG`]. It speaks on
//! its stdout, one JSON object per line behind [`LINE_PREFIX`], so that
//! whatever the test itself prints there is skipped rather than misread;
//! it listens on its stdin, one JSON [`Request`] per line. The first line a
//! worker writes is a [`Reply::Hello`] carrying [`PROTOCOL_VERSION`]: a
//! binary that does not greet, or greets with another version, is refused.
//!
//! A worker for one test greets, runs the test body, and when the body
//! hands its routine to the Bencher says [`Reply::Ready`] and serves timed
//! slices until [`Request::Done`]; then the body returns and the worker
//! says [`Reply::Finished`] and exits. A worker started without a test name
//! greets with the list of its tests and exits.
//!
//! A message is a JSON object whose one key names it and whose value holds
//! its fields (`{"slice":{"iters":1000,"warm_iters":100}}`); a message
//! without fields is its name alone (`"done"`). Fields added to a message
//! without a version bump are optional both ways: a reader ignores fields
//! it does not know, and a field a writer leaves out reads as absent
//! (`#[serde(default)]`). [`Reply::Slice`]'s `observed` is one: an older
//! worker does not send it, an older coordinator skips it.
//!
//! From version 2 on, the greeting keeps its shape in every version, so
//! that a coordinator can name the version of a worker it cannot drive; a
//! version 1 greeting (`{"reply":"hello","protocol":1,…}`) is read as one
//! too.

use serde::{Deserialize, Serialize};

use crate::measure::SampleKind;
use crate::observe::ThreadObservation;
use crate::Error;

/// Bumped whenever a message changes shape or meaning. Version 1 tagged
/// each message inside its object (`{"reply":"slice","ns":…}`); version 2
/// names it as the object's one key (`{"slice":{"ns":…}}`), which serde
/// reads without buffering the message first.
pub const PROTOCOL_VERSION: u32 = 2;

/// The hidden flag that puts a perfmark test binary in worker mode:
/// `BIN --perfmark-worker [TEST]`.
pub const WORKER_FLAG: &str = "--perfmark-worker";

/// What starts every protocol line on a worker's stdout.
pub const LINE_PREFIX: &str = "@perfmark-worker ";

/// What the coordinator asks of a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// Run `warm_iters` iterations untimed, then `iters` timed: one slice.
    Slice {
        /// Iterations in the timed block.
        iters: u64,
        /// Iterations run just before, untimed, to bring caches and branch
        /// predictors back to this routine after the other side ran.
        warm_iters: u64,
    },
    /// Measure the harness's own cost per iteration with an empty routine,
    /// in blocks of at least `min_block_ns`.
    Overhead {
        /// The shortest block worth timing, in ns.
        min_block_ns: f64,
    },
    /// No more slices: let the test body return.
    Done,
}

/// What a worker says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The first line: who this is.
    Hello {
        /// [`PROTOCOL_VERSION`] of the worker's perfmark.
        protocol: u32,
        /// The worker's perfmark version.
        perfmark: String,
        /// The test this worker runs, or none when it only lists.
        test: Option<String>,
        /// Every perf test of the binary (only when listing).
        tests: Vec<String>,
        /// Whether the binary was built with its layout pinned (read from
        /// its functions' addresses); false from a perfmark that does not
        /// say.
        #[serde(default)]
        pinned: bool,
    },
    /// The body handed a routine to the Bencher: slices may be asked for.
    Ready {
        /// How the routine is timed.
        kind: SampleKind,
        /// The routine's very first call, timed alone, in ns.
        first_call_ns: f64,
    },
    /// A slice's timed block, in ns.
    Slice {
        /// The block's duration.
        ns: f64,
        /// What the OS knew about the worker's measuring thread over the
        /// slice and its warm run (run and wait times, switches,
        /// migrations); absent from workers that do not observe it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        observed: Option<ThreadObservation>,
    },
    /// The harness's cost per iteration, in ns (0 for `iter_custom`).
    Overhead {
        /// Per-iteration cost of the empty routine.
        ns: f64,
    },
    /// The body returned; the worker exits.
    Finished,
    /// The test cannot be served: it panicked, does not exist, or never
    /// handed a routine to the Bencher.
    Failed {
        /// Why, in words.
        message: String,
    },
}

/// The protocol line of `reply`, newline included.
pub fn encode(reply: &Reply) -> String {
    let json = serde_json::to_string(reply).expect("a reply always serializes");
    format!("{LINE_PREFIX}{json}\n")
}

/// The reply on `line`: `None` when the line is not a protocol line (the
/// test printed it), an error when it is one but does not parse. The prefix
/// may come after text the test printed without a newline. A version 1
/// greeting reads as a [`Reply::Hello`] of its version.
pub fn decode(line: &str) -> Option<Result<Reply, Error>> {
    let at = line.find(LINE_PREFIX)?;
    let json = line[at + LINE_PREFIX.len()..].trim_end_matches(['\r', '\n']);
    Some(serde_json::from_str(json).or_else(|e| {
        first_greeting(json)
            .ok_or_else(|| Error::protocol(format!("unreadable worker line {json:?}: {e}")))
    }))
}

/// A version 1 greeting, `{"reply":"hello","protocol":1,"perfmark":"0.1.0",…}`.
#[derive(Deserialize)]
struct FirstGreeting {
    reply: String,
    protocol: u32,
    perfmark: String,
}

/// `json` as a version 1 greeting, if it is one: a [`Reply::Hello`] of
/// its version and perfmark, nothing else of it read.
fn first_greeting(json: &str) -> Option<Reply> {
    let greeting = serde_json::from_str::<FirstGreeting>(json).ok()?;
    (greeting.reply == "hello").then(|| Reply::Hello {
        protocol: greeting.protocol,
        perfmark: greeting.perfmark,
        test: None,
        tests: Vec::new(),
        pinned: false,
    })
}

/// [`decode`] for a line as [`LineReader`](super::lines::LineReader)
/// reads it: a line cut for its length is decoded from what is left of
/// it when that is a whole protocol line (the test printed a long line
/// before it), refused when it still shows the prefix, and skipped
/// otherwise (the test's own output).
pub fn decode_line(line: &super::lines::Line<'_>) -> Option<Result<Reply, Error>> {
    let text = String::from_utf8_lossy(line.bytes);
    match decode(&text) {
        Some(Err(_)) if line.cut => Some(Err(Error::protocol(format!(
            "wrote a protocol line longer than {} bytes",
            super::lines::MAX_LINE_BYTES
        )))),
        decoded => decoded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_greeting_that_does_not_say_whether_it_is_pinned_is_not() {
        let line = r#"{"hello":{"protocol":2,"perfmark":"0.1.0","test":null,"tests":[]}}"#;
        let Ok(Reply::Hello { pinned, .. }) = serde_json::from_str::<Reply>(line) else {
            panic!("a greeting");
        };
        assert!(!pinned);
    }

    #[test]
    fn replies_round_trip_and_other_lines_are_skipped() {
        let replies = [
            Reply::Hello {
                protocol: PROTOCOL_VERSION,
                perfmark: "0.1.0".into(),
                test: Some("a::b".into()),
                tests: vec![],
                pinned: true,
            },
            Reply::Ready {
                kind: SampleKind::Batched,
                first_call_ns: 812.0,
            },
            Reply::Slice {
                ns: 1.5e7,
                observed: None,
            },
            Reply::Slice {
                ns: 1.5e7,
                observed: Some(ThreadObservation {
                    wall_ns: 1.6e7,
                    run_ns: Some(1.2e7),
                    wait_ns: Some(4e6),
                    involuntary_switches: Some(3),
                    voluntary_switches: Some(0),
                    migrations: None,
                }),
            },
            Reply::Overhead { ns: 0.25 },
            Reply::Finished,
            Reply::Failed {
                message: "panicked: boom\nsecond line".into(),
            },
        ];
        for reply in replies {
            let line = encode(&reply);
            assert_eq!(line.matches('\n').count(), 1, "one line: {line:?}");
            assert_eq!(decode(&line), Some(Ok(reply)));
        }
        assert_eq!(decode("hello from the test\n"), None);
        let after_print = format!("partial line{}", encode(&Reply::Finished));
        assert_eq!(decode(&after_print), Some(Ok(Reply::Finished)));
        assert!(matches!(decode("@perfmark-worker {nope"), Some(Err(e)) if e.is_protocol()));
    }

    #[test]
    fn slice_figures_are_optional_both_ways() {
        // An older worker's slice, without figures, reads.
        assert_eq!(
            decode(r#"@perfmark-worker {"slice":{"ns":12.0}}"#),
            Some(Ok(Reply::Slice {
                ns: 12.0,
                observed: None
            }))
        );
        // Without figures the line is what an older coordinator expects.
        let plain = encode(&Reply::Slice {
            ns: 12.0,
            observed: None,
        });
        assert_eq!(plain, "@perfmark-worker {\"slice\":{\"ns\":12.0}}\n");
        // Fields this version does not know are skipped, as an older
        // coordinator skips `observed`.
        let later = r#"@perfmark-worker {"slice":{"ns":12.0,"observed":{"wall_ns":20.0,"later":1},"also_later":[1]}}"#;
        match decode(later) {
            Some(Ok(Reply::Slice {
                ns,
                observed: Some(o),
            })) => assert_eq!((ns, o.wall_ns, o.run_ns), (12.0, 20.0, None)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn requests_are_one_json_object_per_line() {
        let request = Request::Slice {
            iters: 1000,
            warm_iters: 100,
        };
        let text = serde_json::to_string(&request).unwrap();
        assert_eq!(text, r#"{"slice":{"iters":1000,"warm_iters":100}}"#);
        assert_eq!(serde_json::from_str::<Request>(&text).unwrap(), request);
        assert_eq!(
            serde_json::from_str::<Request>(r#""done""#).unwrap(),
            Request::Done
        );
    }

    #[test]
    fn a_first_version_greeting_reads_as_its_version_and_nothing_else_of_it_does() {
        let line = r#"@perfmark-worker {"reply":"hello","protocol":1,"perfmark":"0.1.0","test":"t","tests":[],"pinned":true}"#;
        assert_eq!(
            decode(line),
            Some(Ok(Reply::Hello {
                protocol: 1,
                perfmark: "0.1.0".into(),
                test: None,
                tests: vec![],
                pinned: false,
            }))
        );
        let slice = r#"@perfmark-worker {"reply":"slice","ns":12.0}"#;
        assert!(matches!(decode(slice), Some(Err(e)) if e.is_protocol()));
    }
}
