//! Counting mode: the test binary, started under Callgrind by the runner
//! ([`super::count`](mod@super::count)), runs one test's body with the counting policy and
//! exits. Nothing is printed on success; a failure is one line on standard
//! error and status 101.

use std::panic::{self, AssertUnwindSafe};

use crate::bencher::{Bencher, Measurer};
use crate::measure::capture::{install_panic_capture, panic_payload_text, take_panic_message};
use crate::registry;

/// Runs counting mode with the arguments after [`super::COUNT_FLAG`]: the
/// test's name, `k` and the rounds. Returns the exit status.
pub fn run(args: &[String]) -> i32 {
    let [name, k, rounds] = args else {
        eprintln!("counting mode takes a test's name, the block's iterations and the rounds");
        return 101;
    };
    let (Ok(k), Ok(rounds)) = (k.parse::<u64>(), rounds.parse::<u32>()) else {
        eprintln!("counting mode: {k:?} and {rounds:?} are not counts");
        return 101;
    };
    if super::request::running_on_valgrind() == 0 {
        eprintln!(
            "counting mode runs under valgrind --tool=callgrind, started by a run with \
             --instructions"
        );
        return 101;
    }
    let tests = registry::all_tests();
    let Some(t) = tests.iter().find(|t| t.name() == *name) else {
        eprintln!("this binary has no perf test named {name:?}");
        return 101;
    };
    let previous_hook = install_panic_capture();
    let body = t.body;
    take_panic_message();
    // On a thread of its own, as the run's process measures a test.
    let ran = crate::measure::test_thread(name).spawn(move || {
        let mut bencher = Bencher::new(Measurer::CountOnly { iters: k.max(1) })
            .counting_instructions(k.max(1), rounds);
        let result = panic::catch_unwind(AssertUnwindSafe(|| body(&mut bencher)));
        (result, bencher.finish().0.is_some())
    });
    let outcome = ran.map(std::thread::JoinHandle::join);
    panic::set_hook(previous_hook);
    match outcome {
        Ok(Ok((Ok(()), true))) => 0,
        Ok(Ok((Ok(()), false))) => {
            eprintln!("the test never handed a routine to the Bencher");
            101
        }
        Ok(Ok((Err(payload), _))) | Ok(Err(payload)) => {
            let message = take_panic_message().unwrap_or_else(|| panic_payload_text(&*payload));
            eprintln!("the test panicked under valgrind: {message}");
            101
        }
        Err(e) => {
            eprintln!("could not start a thread for the test: {e}");
            101
        }
    }
}
