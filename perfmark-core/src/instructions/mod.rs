//! Instruction counts: a second instrument beside the clock, the same on
//! any machine Valgrind runs on where the code itself does not vary.
//!
//! With `--instructions`, after a test is timed, the runner starts this
//! test binary twice more under Valgrind's Callgrind, in counting mode
//! ([`COUNT_FLAG`]), each process with its own hash seeds and addresses:
//! the test's body runs as usual (its setup once, untimed), the routine is
//! called once to warm it, and then, for each of [`ROUNDS`] rounds, a block
//! of `k` iterations and one of `2k` are run with Callgrind's collection
//! turned on exactly where a timed block reads its clock ([`Callgrind`], a
//! [`Meter`]): `iter_batched`'s inputs, the drops and the harness stay
//! outside, as they do for time. Each block's events are dumped to a part
//! of the profile of their own; a round's count per iteration is the
//! difference of its two blocks over `k`, so the fixed cost of a block
//! (entering the loop, the toggles) cancels. Rounds or processes that
//! disagree mark the count "not deterministic" (two more processes then
//! count), and every decision on it allows for their range ([`mod@count`]).
//!
//! Counting in a process of its own keeps Valgrind (about 50 times slower)
//! away from the timing, and the harness out of the count, as gungraun
//! does; Callgrind's client requests are issued by [`request`] without
//! Valgrind's headers. What a count is compared with, and the words, are
//! in [`mod@count`], the findings for the runner in [`judge`]; reading the
//! profile in [`profile`].

pub mod count;
#[cfg(feature = "instructions")]
pub(crate) mod judge;
#[cfg(feature = "instructions")]
pub mod profile;
pub mod request;
mod runner;
#[cfg(feature = "instructions")]
mod valgrind;
pub(crate) mod worker;

use std::ffi::CString;

use crate::measure::driver::Meter;

pub use count::InstructionCount;
#[cfg(feature = "instructions")]
pub use valgrind::{block_iters, count, Valgrind};

/// The first argument that starts the test binary in counting mode: then
/// the test's name, `k` and the rounds.
pub const COUNT_FLAG: &str = "__perfmark_count";

#[cfg(feature = "instructions")]
/// Rounds of blocks per count: three, so that a count that is not
/// deterministic shows it, at a cost of a few milliseconds of the routine.
pub const ROUNDS: u32 = 3;

/// The [`Meter`] of a counting block: turns Callgrind's collection on
/// before the block and off after it. Natively it does nothing.
#[derive(Debug, Clone, Copy)]
pub struct Callgrind;

/// What a [`Callgrind`]-metered block returns: nothing (Callgrind keeps
/// the counts); a type of its own so batched blocks can add it up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Collected;

impl std::ops::Add for Collected {
    type Output = Collected;
    fn add(self, _: Collected) -> Collected {
        Collected
    }
}

impl Meter for Callgrind {
    type Mark = ();
    type Reading = Collected;

    #[inline(always)]
    fn start() {
        request::toggle_collect();
    }

    #[inline(always)]
    fn stop((): ()) -> Collected {
        request::toggle_collect();
        Collected
    }
}

/// In the counting process: runs `rounds` rounds of `block(k)` and
/// `block(2k)`, dumping each block's events under a label of its own
/// ([`label`]).
pub(crate) fn run_rounds(k: u64, rounds: u32, mut block: impl FnMut(u64) -> Collected) {
    for r in 0..rounds {
        for (which, n) in [("k", k), ("2k", 2 * k)] {
            block(n);
            let label = CString::new(label(r, which)).expect("no NUL in a label");
            request::dump_stats_at(&label);
        }
    }
}

/// The label of round `r`'s block `which` (`k` or `2k`).
pub(crate) fn label(r: u32, which: &str) -> String {
    format!("perfmark {r} {which}")
}

/// The reason of a test with an `instructions` limit in a run that does
/// not count: said, never failed silently.
pub(crate) fn limit_not_checked(limit: u64) -> crate::checks::Finding {
    crate::checks::Finding::new(crate::checks::Said::Instructions(
        count::InstructionsSaid::LimitNotChecked { limit },
    ))
}
