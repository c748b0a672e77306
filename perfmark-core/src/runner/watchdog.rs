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
//!
//! What the OS knows about other work during the measurement (the
//! [`Observer`]'s readings) is read on the test's thread, just before and
//! just after the body: the thread-level figures (run-queue wait, context
//! switches, migrations) are the measuring thread's only when read there.

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::bencher::Bencher;
use crate::checks::RunnerSaid;
use crate::cpus::{self, Cpus, Placed};
use crate::observe::{Observer, Reading};

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
    /// Bencher comes back with what it measured, and the readings around
    /// the body, unless the thread ended without handing them back.
    Returned(thread::Result<()>, Option<Box<Ran>>),
    /// The body was still running when the bound ran out; its thread is
    /// left behind, and the process must exit soon.
    Hung,
    /// No thread could be started for the test (the system is out of
    /// threads or memory): the error as it displays.
    NoThread(String),
}

/// What a body that returned (or panicked) hands back.
pub(super) struct Ran {
    /// The Bencher, with what it measured.
    pub(super) bencher: Bencher,
    /// `observer`'s reading on the test's thread just before the body.
    pub(super) before: Reading,
    /// The same, just after the body.
    pub(super) after: Reading,
    /// Where the thread was held, when it was asked to be.
    pub(super) placed: Option<Placed>,
}

/// What the test's thread hands back: how the body ended, and the Bencher
/// with the readings unless the thread ended without returning.
type Handed = (thread::Result<()>, Option<Box<Ran>>);

/// Where the test's thread leaves what it hands back, with the condition
/// variable that wakes the runner. Not a channel: a channel's receiver
/// allocates when it starts to wait (it registers itself with the
/// sender), and the runner starts to wait while the body may be in the
/// counting pass of `allocs = N`, whose counters are process-wide. Waiting
/// on a condition variable allocates nothing.
type Slot = (Mutex<Option<Handed>>, Condvar);

/// The test's thread's end of the [`Slot`]: hands back what the body left,
/// or, dropped without having done so (the thread unwound past the body),
/// says that the thread ended without returning.
struct HandBack {
    slot: Arc<Slot>,
    done: bool,
}

impl HandBack {
    /// Leaves `handed` in the slot and wakes the runner, which may have
    /// given up waiting (then no one looks).
    fn give(&mut self, handed: Handed) {
        let (place, woken) = &*self.slot;
        *place.lock().unwrap_or_else(PoisonError::into_inner) = Some(handed);
        woken.notify_one();
        self.done = true;
    }
}

impl Drop for HandBack {
    fn drop(&mut self) {
        if !self.done {
            self.give((
                Err(Box::new("the test's thread ended without returning")),
                None,
            ));
        }
    }
}

/// Runs `body` with `bencher` on a thread named `name`, waiting at most
/// `bound` for it; `observer` reads the system on that thread before and
/// after the body (outside every timed block).
pub(super) fn run_bounded(
    name: &str,
    bound: Duration,
    body: fn(&mut Bencher),
    bencher: Bencher,
    observer: Arc<Observer>,
    pin: Option<Arc<Cpus>>,
) -> Bounded {
    let slot: Arc<Slot> = Arc::new((Mutex::new(None), Condvar::new()));
    let mut hand_back = HandBack {
        slot: Arc::clone(&slot),
        done: false,
    };
    let mut bencher = bencher;
    let spawned = crate::measure::test_thread(name).spawn(move || {
        // Before the body, so its setup (and the pages it first touches)
        // is on the CPU it is measured on.
        let placed = pin.map(|cpus| cpus::pin_current_thread(&cpus));
        let before = observer.read();
        let result = panic::catch_unwind(AssertUnwindSafe(|| body(&mut bencher)));
        let after = observer.read();
        let ran = Ran {
            bencher,
            before,
            after,
            placed,
        };
        hand_back.give((result, Some(Box::new(ran))));
    });
    if let Err(e) = spawned {
        return Bounded::NoThread(e.to_string());
    }
    let (place, woken) = &*slot;
    let place = place.lock().unwrap_or_else(PoisonError::into_inner);
    let (mut handed, _) = woken
        .wait_timeout_while(place, bound, |h| h.is_none())
        .unwrap_or_else(PoisonError::into_inner);
    match handed.take() {
        Some((result, ran)) => Bounded::Returned(result, ran),
        None => Bounded::Hung,
    }
}

/// What a test that did not return within `bound` fails with: the bound
/// `--timeout` set when `overridden`, else the default rule.
pub(super) fn hung(bound: Duration, overridden: bool) -> RunnerSaid {
    RunnerSaid::Hung {
        bound,
        rule: (!overridden).then_some((CAPS_FACTOR, GRACE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bencher::Measurer;
    use crate::measure::{Adaptive, Plan};

    fn observer() -> Arc<Observer> {
        Arc::new(Observer::live())
    }

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
        let ran = run_bounded(
            "group::named",
            Duration::from_secs(60),
            body,
            bencher(),
            observer(),
            None,
        );
        match ran {
            Bounded::Returned(Ok(()), Some(ran)) => assert!(ran.bencher.finish().0.is_some()),
            _ => panic!("the body did not return normally"),
        }
    }

    #[test]
    fn the_observer_reads_on_the_tests_thread() {
        use crate::observe::{ProcFile, Source, Switches};
        use std::sync::Mutex;
        /// Records the thread each thread-level reading is taken on.
        struct Threads(Arc<Mutex<Vec<Option<String>>>>);
        impl Source for Threads {
            fn read(&self, _: ProcFile) -> Option<String> {
                None
            }
            fn thread_switches(&self) -> Option<Switches> {
                let name = thread::current().name().map(str::to_owned);
                self.0.lock().unwrap().push(name);
                None
            }
            fn process_cpu_ns(&self) -> Option<u64> {
                None
            }
            fn tick_ns(&self) -> f64 {
                1e7
            }
            fn now(&self) -> (f64, f64) {
                (0.0, 0.0)
            }
        }
        fn body(b: &mut Bencher) {
            b.iter(|| 1 + 1);
        }
        let threads = Arc::new(Mutex::new(Vec::new()));
        let observer = Arc::new(Observer::new(Box::new(Threads(Arc::clone(&threads)))));
        // Probing what the source covers read on this thread: not counted.
        threads.lock().unwrap().clear();
        let ran = run_bounded(
            "group::observed",
            Duration::from_secs(60),
            body,
            bencher(),
            observer,
            None,
        );
        assert!(matches!(ran, Bounded::Returned(Ok(()), Some(_))));
        let on = threads.lock().unwrap().clone();
        assert_eq!(on, vec![Some("group::observed".to_owned()); 2]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_body_given_cpus_runs_held_on_one_of_them_setup_included() {
        fn body(b: &mut Bencher) {
            // The setup's view of its own thread: one CPU allowed.
            let own = Cpus::detect().unwrap();
            assert_eq!(own.allowed.len(), 1, "{own:?}");
            b.iter(|| 1 + 1);
        }
        let cpus = Arc::new(Cpus::detect().unwrap());
        if cpus.allowed.len() < 2 {
            return; // one CPU: nothing is pinned, by design
        }
        let ran = run_bounded(
            "pinned",
            Duration::from_secs(60),
            body,
            bencher(),
            observer(),
            Some(Arc::clone(&cpus)),
        );
        match ran {
            Bounded::Returned(Ok(()), Some(ran)) => match ran.placed {
                Some(Placed::Pinned(cpu)) => assert!(cpus.candidates.contains(&cpu)),
                other => panic!("not pinned: {other:?}"),
            },
            _ => panic!("the body did not return normally"),
        }
    }

    #[test]
    fn a_panic_comes_back_as_its_payload() {
        fn body(_: &mut Bencher) {
            panic::panic_any("setup failed");
        }
        match run_bounded(
            "p",
            Duration::from_secs(60),
            body,
            bencher(),
            observer(),
            None,
        ) {
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
        let outcome = run_bounded(
            "sleeps",
            Duration::from_millis(50),
            body,
            bencher(),
            observer(),
            None,
        );
        assert!(matches!(outcome, Bounded::Hung));
    }

    #[test]
    fn names_with_a_nul_byte_still_get_a_thread() {
        // Rust refuses thread names with a NUL byte, which no test name
        // has, but an `args` value could.
        let named = crate::measure::test_thread("a\0b")
            .spawn(|| thread::current().name().map(str::to_owned))
            .expect("a thread")
            .join()
            .expect("joined");
        assert_eq!(named.as_deref(), Some("a\u{fffd}b"));
    }

    #[test]
    fn the_hung_reason_says_how_to_give_more_time() {
        let said = |bound, overridden| {
            crate::report::words::said(&crate::checks::Said::Runner(hung(bound, overridden)))
        };
        let r = said(Duration::from_secs(92), false);
        assert!(r.starts_with("did not return within 92 s (10 × (warmup + max_time) + 60 s)"));
        assert!(r.contains("--timeout DURATION or PERFMARK_TIMEOUT"), "{r}");
        let r = said(Duration::from_millis(1500), true);
        assert!(
            r.starts_with("did not return within 1.500 s (--timeout"),
            "{r}"
        );
    }
}
