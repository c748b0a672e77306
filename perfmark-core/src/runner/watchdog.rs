//! Each test's body on a thread of its own, named after the test, under a
//! time bound.
//!
//! A test that never returns (a deadlock, an endless loop, a body that
//! waits for input) must not hang the whole run with no word of which test
//! it was: the runner waits for the body at most a bound, then fails the
//! test, names it and stops the run (a thread cannot be killed, and one
//! left spinning would disturb every later measurement). Running the body
//! on a thread named after the test also names it in the one message Rust
//! prints for a stack overflow, which no handler can catch:
//! `thread 'sorting::sort_1k' has overflowed its stack`.
//!
//! The bound is `--timeout` / `PERFMARK_TIMEOUT` when given, else
//! [`default_bound`]: generous enough that no test the sampler can finish
//! is ever stopped, since the sampler itself stops at `max_time`.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use crate::bencher::Bencher;

/// Added to every default bound: time for a test's own setup (building
/// its inputs before it hands the routine to the Bencher), which no option
/// caps.
pub(super) const GRACE: Duration = Duration::from_secs(60);

/// How many times its warm-up and sampling caps a test may take before the
/// default bound stops it. The sampler stops sampling at `max_time` and
/// warming up at `warmup`, but each cap can be overrun by one block (a
/// whole iteration of a slow body), and the first call and the loop
/// overhead come on top; ten times leaves room for all of that.
pub(super) const CAPS_FACTOR: u32 = 10;

/// Stack of a test's thread when `RUST_MIN_STACK` does not say: 8 MiB, the
/// usual main-thread stack on Linux, where tests ran before they had
/// threads of their own (a spawned thread's default is 2 MiB).
const STACK_BYTES: usize = 8 << 20;

/// The default bound of a test measured with these caps:
/// `CAPS_FACTOR × (warmup + max_time) + GRACE` (92 s at the defaults).
pub(super) fn default_bound(warmup: Duration, max_time: Duration) -> Duration {
    warmup
        .saturating_add(max_time)
        .saturating_mul(CAPS_FACTOR)
        .saturating_add(GRACE)
}

/// How a bounded body ended.
pub(super) enum Bounded {
    /// The body returned or panicked (`Err` holds the payload); the
    /// Bencher comes back with what it measured, unless the thread ended
    /// without handing it back.
    Returned(thread::Result<()>, Option<Bencher>),
    /// The body was still running when the bound ran out; its thread is
    /// left behind, and the process must exit soon.
    Hung,
    /// No thread could be started for the test (the system is out of
    /// threads or memory): the error, in words.
    NoThread(String),
}

/// Runs `body` with `bencher` on a thread named `name`, waiting at most
/// `bound` for it.
pub(super) fn run_bounded(
    name: &str,
    bound: Duration,
    body: fn(&mut Bencher),
    bencher: Bencher,
) -> Bounded {
    let (done, finished) = mpsc::channel();
    let mut bencher = bencher;
    let mut builder = thread::Builder::new().name(thread_name(name));
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        builder = builder.stack_size(STACK_BYTES);
    }
    let spawned = builder.spawn(move || {
        let result = panic::catch_unwind(AssertUnwindSafe(|| body(&mut bencher)));
        // The runner may have given up waiting: then no one listens.
        let _ = done.send((result, bencher));
    });
    if let Err(e) = spawned {
        return Bounded::NoThread(format!("could not start a thread for the test: {e}"));
    }
    match finished.recv_timeout(bound) {
        Ok((result, bencher)) => Bounded::Returned(result, Some(bencher)),
        Err(RecvTimeoutError::Timeout) => Bounded::Hung,
        // The thread ended without a word, which only an abort (that ends
        // this process too) should do: reported as a panic all the same.
        Err(RecvTimeoutError::Disconnected) => Bounded::Returned(
            Err(Box::new("the test's thread ended without returning")),
            None,
        ),
    }
}

/// The test's name as a thread name: Rust refuses names with a NUL byte,
/// which no test name has, but an `args` value could.
fn thread_name(name: &str) -> String {
    name.replace('\0', "\u{fffd}")
}

/// The reason a test that did not return within `bound` fails with, and
/// how to give it longer.
pub(super) fn hung_reason(bound: Duration, overridden: bool) -> String {
    let how = if overridden {
        "--timeout / PERFMARK_TIMEOUT".to_owned()
    } else {
        format!(
            "{CAPS_FACTOR} × (warmup + max_time) + {} s",
            GRACE.as_secs()
        )
    };
    format!(
        "did not return within {} s ({how}): stopped, and the run with it; if the test is \
         meant to take this long, raise the bound with --timeout DURATION or PERFMARK_TIMEOUT",
        fmt_secs(bound)
    )
}

fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bencher::Measurer;
    use crate::measure::{Adaptive, Plan};

    fn bencher() -> Bencher {
        let mut plan = Plan::new(
            0.95,
            0.01,
            Duration::from_millis(1),
            Duration::from_millis(1),
        );
        plan.smoke = true;
        Bencher::new(Measurer::Adaptive(Adaptive::new(plan)))
    }

    #[test]
    fn the_default_bound_is_ten_times_the_caps_plus_a_minute() {
        let bound = default_bound(Duration::from_millis(200), Duration::from_secs(3));
        assert_eq!(bound, Duration::from_secs(92));
        let huge = default_bound(Duration::MAX, Duration::MAX);
        assert_eq!(huge, Duration::MAX);
    }

    #[test]
    fn a_body_runs_on_a_thread_named_after_its_test() {
        fn body(b: &mut Bencher) {
            assert_eq!(thread::current().name(), Some("group::named"));
            b.iter(|| 1 + 1);
        }
        match run_bounded("group::named", Duration::from_secs(60), body, bencher()) {
            Bounded::Returned(Ok(()), Some(bencher)) => assert!(bencher.finish().0.is_some()),
            _ => panic!("the body did not return normally"),
        }
    }

    #[test]
    fn a_panic_comes_back_as_its_payload() {
        fn body(_: &mut Bencher) {
            panic::panic_any("setup failed");
        }
        match run_bounded("p", Duration::from_secs(60), body, bencher()) {
            Bounded::Returned(Err(payload), _) => {
                assert_eq!(payload.downcast_ref::<&str>(), Some(&"setup failed"));
            }
            _ => panic!("the panic was lost"),
        }
    }

    #[test]
    fn a_body_that_never_returns_is_given_up_on_at_the_bound() {
        fn body(_: &mut Bencher) {
            // Long enough to outlast the bound, short enough not to keep a
            // thread of the test binary around for long.
            thread::sleep(Duration::from_secs(5));
        }
        let outcome = run_bounded("sleeps", Duration::from_millis(50), body, bencher());
        assert!(matches!(outcome, Bounded::Hung));
    }

    #[test]
    fn names_with_a_nul_byte_still_get_a_thread() {
        assert_eq!(thread_name("a\0b"), "a\u{fffd}b");
    }

    #[test]
    fn the_hung_reason_says_how_to_give_more_time() {
        let r = hung_reason(Duration::from_secs(92), false);
        assert!(r.starts_with("did not return within 92 s (10 × (warmup + max_time) + 60 s)"));
        assert!(r.contains("--timeout DURATION or PERFMARK_TIMEOUT"), "{r}");
        let r = hung_reason(Duration::from_millis(1500), true);
        assert!(
            r.starts_with("did not return within 1.500 s (--timeout"),
            "{r}"
        );
    }
}
