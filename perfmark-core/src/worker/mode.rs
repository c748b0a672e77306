//! Worker mode: the test binary serving timed slices of one test to a
//! coordinator (see [`super::protocol`]).
//!
//! The test body runs as in a normal run (its setup once, in this
//! process), but the [`Bencher`] is given the [`Serve`] policy: instead of
//! measuring to completion, it answers the coordinator's requests until
//! told it is done.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use super::protocol::{Reply, PROTOCOL_VERSION};
use super::serve::{say, Serve};
use super::{HEAP_OFFSET_VAR, TEAM_FREE_VAR};
use crate::bencher::{Bencher, Measurer};
use crate::cpus::{pin_current_thread, Cpus, Placed};
use crate::measure::capture::{install_panic_capture, panic_payload_text, take_panic_message};
use crate::measure::Measurement;
use crate::registry::{self, PerfTest};
use crate::threads::TeamPlan;

/// Runs worker mode for `test` (or lists the tests when `None`) and returns
/// the exit status.
pub fn run(test: Option<&str>) -> i32 {
    let tests = registry::all_tests();
    say(&hello(test, &tests));
    let Some(name) = test else {
        return 0;
    };
    let Some(t) = tests.iter().find(|t| t.name() == name) else {
        say(&Reply::Failed {
            message: format!("this binary has no perf test named {name:?}"),
        });
        return 101;
    };
    let previous_hook = install_panic_capture();
    let ran = serve_on_test_thread(t, name);
    panic::set_hook(previous_hook);
    match ran {
        Ok((result, measurement)) => say_how_it_ended(result, measurement),
        Err(e) => {
            say(&Reply::Failed {
                message: format!("could not start a thread for the test: {e}"),
            });
            101
        }
    }
}

/// The greeting: this perfmark's protocol and version, the test asked
/// for, and the names of `tests` when asked for none.
fn hello(test: Option<&str>, tests: &[&PerfTest]) -> Reply {
    Reply::Hello {
        protocol: PROTOCOL_VERSION,
        perfmark: env!("CARGO_PKG_VERSION").to_owned(),
        test: test.map(str::to_owned),
        tests: match test {
            None => tests.iter().map(|t| t.name()).collect(),
            Some(_) => Vec::new(),
        },
        pinned: crate::worker::layout::pinned(),
    }
}

/// Runs the body of `t` (named `name`) with a [`Serve`] bencher on a
/// thread of its own: how the body ended (its panic's payload, if it
/// panicked) and the measurement it handed the bencher, if any. An error
/// when the thread cannot be started.
fn serve_on_test_thread(
    t: &PerfTest,
    name: &str,
) -> std::io::Result<(std::thread::Result<()>, Option<Measurement>)> {
    // Slices are timed with the test's own clock, as in a normal run.
    let clock = t.clock();
    let body = t.body;
    let threads = t.options.threads;
    take_panic_message();
    // On a thread of its own, as the runner's process runs a test: the
    // allocator gives a new thread an arena of its own, whose placement
    // (aligned for huge pages, for one) differs from the main thread's.
    // On the main thread a 4 MiB pointer chase ran 3.8 times slower in
    // every worker than in the runner's process, which no spread between
    // processes should have to absorb.
    let ran = crate::measure::test_thread(name).spawn(move || {
        take_heap_offset();
        let mut bencher = Bencher::new(Measurer::Serve(Serve { clock }))
            .with_clock(clock)
            .with_team(team_of(threads));
        let result = panic::catch_unwind(AssertUnwindSafe(|| body(&mut bencher)));
        (result, bencher.finish().0)
    })?;
    Ok(match ran.join() {
        Ok(ran) => ran,
        Err(payload) => (Err(payload), None),
    })
}

/// The team of a worker's test thread, called on that thread: one thread
/// without `threads`; else the test's count, the calling thread pinned
/// among the process's CPUs first so that the helpers are held apart from
/// it (a threaded test's worker starts unheld, see the runner's
/// `measure_processes`). A run that holds no thread ([`TEAM_FREE_VAR`])
/// leaves every thread free.
fn team_of(threads: Option<u64>) -> TeamPlan {
    let Some(threads) = threads.filter(|&n| n != 1) else {
        return TeamPlan::ONE;
    };
    let cpus = Cpus::detect()
        .filter(|_| std::env::var_os(TEAM_FREE_VAR).is_none())
        .map(Arc::new);
    let held = cpus
        .as_ref()
        .is_some_and(|c| matches!(pin_current_thread(c), Placed::Pinned(_)));
    TeamPlan::new(threads, cpus.filter(|_| held))
}

/// Tells the coordinator how the test's body ended and returns the exit
/// status: finished (0) when it handed a routine to the bencher and
/// returned, failed (101) when it panicked or handed none.
fn say_how_it_ended(result: std::thread::Result<()>, measurement: Option<Measurement>) -> i32 {
    match (result, measurement) {
        (Err(payload), _) => {
            let message = take_panic_message().unwrap_or_else(|| panic_payload_text(&*payload));
            say(&Reply::Failed {
                message: format!("panicked at {message}"),
            });
            101
        }
        (Ok(()), None) => {
            say(&Reply::Failed {
                message: "the test never handed a routine to the Bencher".to_owned(),
            });
            101
        }
        (Ok(()), Some(_)) => {
            say(&Reply::Finished);
            0
        }
    }
}

/// Takes the bytes the coordinator's placement asks for
/// ([`super::Placement`]) from the heap and keeps them for the
/// process's life, so that the test's own allocations start that much
/// further on. Nothing when the variable is absent or not a number below
/// a page.
fn take_heap_offset() {
    let Some(bytes) = std::env::var(HEAP_OFFSET_VAR)
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0 && n <= super::PLACEMENT_RANGE)
    else {
        return;
    };
    let kept: Box<[u8]> = vec![0u8; bytes].into_boxed_slice();
    std::mem::forget(std::hint::black_box(kept));
}
