//! The paired comparison's worker protocol (`perfmark_core::pair`): every
//! reply and request a side writes reads back equal on the other, on one
//! line; any line at all reads as "not a protocol line", a reply, or an
//! error; and lines are read with bounded memory however long they are.

use std::io::BufReader;

use perfmark_core::measure::SampleKind;
use perfmark_core::observe::ThreadObservation;
use perfmark_core::worker::lines::{LineReader, MAX_LINE_BYTES};
use perfmark_core::worker::protocol::{self, decode, decode_line, Reply, Request, LINE_PREFIX};
use proptest::prelude::*;

use crate::props::check;

fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        proptest::num::f64::NORMAL | proptest::num::f64::ZERO | proptest::num::f64::SUBNORMAL,
        0.0..1e9f64,
    ]
}

fn kind() -> impl Strategy<Value = SampleKind> {
    prop::sample::select(vec![
        SampleKind::Loop,
        SampleKind::Batched,
        SampleKind::Custom,
    ])
}

/// What a worker may say it observed of its measuring thread over a
/// slice: nothing (a worker that does not observe), or any figures.
fn observed() -> impl Strategy<Value = Option<ThreadObservation>> {
    let count = || prop::option::of(any::<u64>());
    prop::option::of(
        (
            finite(),
            prop::option::of(finite()),
            prop::option::of(finite()),
            count(),
            count(),
            count(),
        )
            .prop_map(
                |(
                    wall_ns,
                    run_ns,
                    wait_ns,
                    involuntary_switches,
                    voluntary_switches,
                    migrations,
                )| {
                    ThreadObservation {
                        wall_ns,
                        run_ns,
                        wait_ns,
                        involuntary_switches,
                        voluntary_switches,
                        migrations,
                    }
                },
            ),
    )
}

/// Any reply, with any text where the protocol carries text (test names
/// and panic messages with quotes, newlines, the prefix itself).
fn reply() -> impl Strategy<Value = Reply> {
    let text = prop_oneof![
        4 => any::<String>(),
        1 => any::<String>().prop_map(|s| format!("{s}{LINE_PREFIX}{s}\n")),
    ];
    prop_oneof![
        (
            any::<u32>(),
            text.clone(),
            prop::option::of(text.clone()),
            prop::collection::vec(text.clone(), 0..5),
            any::<bool>()
        )
            .prop_map(|(protocol, perfmark, test, tests, pinned)| Reply::Hello {
                protocol,
                perfmark,
                test,
                tests,
                pinned
            }),
        (kind(), finite()).prop_map(|(kind, first_call_ns)| Reply::Ready {
            kind,
            first_call_ns
        }),
        (finite(), observed()).prop_map(|(ns, observed)| Reply::Slice { ns, observed }),
        finite().prop_map(|ns| Reply::Overhead { ns }),
        Just(Reply::Finished),
        text.prop_map(|message| Reply::Failed { message }),
    ]
}

fn request() -> impl Strategy<Value = Request> {
    prop_oneof![
        (any::<u64>(), any::<u64>())
            .prop_map(|(iters, warm_iters)| Request::Slice { iters, warm_iters }),
        finite().prop_map(|min_block_ns| Request::Overhead { min_block_ns }),
        Just(Request::Done),
    ]
}

#[test]
fn every_reply_is_one_line_that_reads_back_equal() {
    check(
        "protocol: replies round trip",
        (reply(), ".{0,20}"),
        |(reply, printed_before)| {
            let line = protocol::encode(&reply);
            prop_assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
            prop_assert_eq!(decode(&line), Some(Ok(reply.clone())));
            // After text the test printed without a newline, too.
            if !printed_before.contains(LINE_PREFIX) {
                let after = format!("{printed_before}{line}");
                prop_assert_eq!(decode(&after), Some(Ok(reply)));
            }
            Ok(())
        },
    );
}

#[test]
fn every_request_is_one_line_that_reads_back_equal() {
    check("protocol: requests round trip", request(), |request| {
        let line = serde_json::to_string(&request).expect("a request serializes");
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(serde_json::from_str::<Request>(&line).ok(), Some(request));
        Ok(())
    });
}

/// Lines near the protocol: a valid line damaged, a made-up JSON object
/// behind the prefix, numbers no reply may carry, any text.
fn any_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (reply(), any::<usize>(), any::<usize>()).prop_map(|(r, a, b)| {
            let line = protocol::encode(&r);
            let chars: Vec<char> = line.chars().collect();
            let (a, b) = (a % (chars.len() + 1), b % (chars.len() + 1));
            let (a, b) = (a.min(b), a.max(b));
            chars[..a].iter().chain(&chars[b..]).collect()
        }),
        2 => (
            prop::sample::select(vec!["hello", "ready", "slice", "overhead", "finished", "failed", "x"]),
            prop::sample::select(vec![
                "1", "-1", "1e999", "NaN", "null", "\"1\"", "[]", "{}", "18446744073709551616",
                "4294967296", "\"loop\"", "\"custom\"", "true",
            ]),
            prop::sample::select(vec!["ns", "protocol", "kind", "first_call_ns", "message", "tests", "test", "perfmark"]),
        )
            .prop_map(|(reply, value, field)| {
                format!("{LINE_PREFIX}{{\"{reply}\":{{\"{field}\":{value}}}}}\n")
            }),
        2 => any::<String>(),
        1 => any::<String>().prop_map(|s| format!("{LINE_PREFIX}{s}")),
    ]
}

#[test]
fn any_line_is_skipped_read_or_refused() {
    check("protocol: any line decodes", any_line(), |line| {
        match decode(&line) {
            None => prop_assert!(!line.contains(LINE_PREFIX)),
            Some(Ok(reply)) => {
                // What was read writes back to a line that reads the same.
                let again = protocol::encode(&reply);
                prop_assert_eq!(decode(&again), Some(Ok(reply)));
            }
            Some(Err(e)) => {
                prop_assert!(e.is_protocol(), "{}", e);
                prop_assert!(e.to_string().starts_with("unreadable worker line"), "{}", e);
            }
        }
        // A worker reads requests with the same parser.
        let _ = serde_json::from_str::<Request>(line.trim_end());
        Ok(())
    });
}

#[test]
fn a_number_no_reply_can_carry_is_refused_not_misread() {
    // JSON has no NaN or infinity: serde_json writes them as `null`, which
    // no reply's number accepts, so a worker that measured one is refused
    // by the coordinator (which also checks that times are finite).
    for ns in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let line = protocol::encode(&Reply::Slice { ns, observed: None });
        assert!(matches!(decode(&line), Some(Err(_))), "{line}");
    }
}

/// Output of a worker: protocol lines between the test's own text, which
/// may be long and have no newline.
fn worker_output() -> impl Strategy<Value = (Vec<u8>, Vec<Reply>, usize)> {
    (
        prop::collection::vec(
            (
                reply(),
                prop_oneof![Just(0usize), 0usize..64, Just(1000usize), Just(5000usize)],
                any::<bool>(),
            ),
            0..6,
        ),
        prop::sample::select(vec![64usize, 1024, 4096]),
    )
        .prop_map(|(parts, max)| {
            let mut bytes = Vec::new();
            let mut expected = Vec::new();
            for (reply, noise, newline) in parts {
                bytes.extend(std::iter::repeat_n(b'.', noise));
                if newline {
                    bytes.push(b'\n');
                }
                let line = protocol::encode(&reply);
                bytes.extend_from_slice(line.as_bytes());
                if line.len() <= max {
                    expected.push(reply);
                }
            }
            (bytes, expected, max)
        })
}

#[test]
fn lines_are_read_with_bounded_memory_and_protocol_lines_survive_long_output() {
    check(
        "protocol: bounded line reader",
        worker_output(),
        |(bytes, expected, max)| {
            let mut reader = LineReader::new(BufReader::with_capacity(7, &bytes[..]), max);
            let mut replies = Vec::new();
            while let Some(line) = reader.read_line().expect("reading memory") {
                prop_assert!(line.bytes.len() <= max);
                if let Some(Ok(reply)) = decode_line(&line) {
                    replies.push(reply);
                }
            }
            // Every protocol line that fits the bound arrives, even after
            // any length of text printed without a newline before it.
            prop_assert_eq!(replies, expected);
            Ok(())
        },
    );
    const { assert!(MAX_LINE_BYTES >= 1 << 20) };
}
