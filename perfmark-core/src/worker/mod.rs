//! The worker processes every run may start, and the protocol they speak.
//!
//! A perfmark test binary started with [`protocol::WORKER_FLAG`] is a
//! worker ([`mode`]): it greets, then serves timed slices of one test
//! ([`serve`]) over its stdin and stdout, line by line ([`lines`],
//! [`protocol`]). Its coordinator holds a [`WorkerProcess`] per worker
//! ([`process`]): the process phase every measured test may take
//! ([`crate::processes`]) starts workers of its own build, and a paired
//! comparison (`--compare-with`) workers of two builds. The worker side is
//! in every test binary, so any build can serve as the base of another.

pub(crate) mod layout;
pub mod lines;
pub(crate) mod mode;
pub mod process;
pub mod protocol;
pub(crate) mod serve;

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::Error;
pub use process::WorkerProcess;
use protocol::Reply;

/// One of the two builds compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The build compared against (e.g. the merge base of a pull request).
    Base,
    /// The build under test.
    Head,
}

impl Side {
    #[cfg(feature = "compare")]
    /// 0 for the base, 1 for the head: an index into a pair of anything.
    pub(crate) fn index(self) -> usize {
        match self {
            Side::Base => 0,
            Side::Head => 1,
        }
    }
}

/// How long a worker may take to greet and to reach its routine (the
/// test's own setup runs in between), and how long one request may go
/// unanswered, before the worker is taken to hang and is killed: the
/// default of `PERFMARK_WORKER_TIMEOUT`. A slice lasts about 10 ms, so only
/// a test's setup or a hung routine comes near it.
pub const DEFAULT_WORKER_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a greeting-only run (listing the tests) may take.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Debug)]
pub(crate) enum Event {
    Reply(Result<Reply, Error>),
    Closed,
}

/// The variable whose length shifts a worker's initial stack: the kernel
/// copies the environment's strings to the top of a new process's stack,
/// so `main` starts that many bytes lower (rounded to the ABI's 16).
pub const STACK_PAD_VAR: &str = "PERFMARK_WORKER_STACK_PAD";
/// The variable that tells a worker how many bytes to take from the heap,
/// and keep, before the test's own setup: later small allocations then
/// start at another offset within their pages and cache lines.
pub const HEAP_OFFSET_VAR: &str = "PERFMARK_WORKER_HEAP_OFFSET";
/// The variable set in a worker when the run holds no thread on a CPU
/// (`--no-pin`, one CPU allowed, or the kernel refused): a threaded test's
/// worker then holds none of its team either ([`crate::threads`]).
pub const TEAM_FREE_VAR: &str = "PERFMARK_WORKER_TEAM_FREE";
/// Offsets are drawn below this many bytes: a page, over which every
/// cache-line and fetch-block offset is reached.
pub const PLACEMENT_RANGE: usize = 4096;

/// Where a worker's stack and heap start, relative to where they would:
/// drawn for each worker so that the offsets of a test's data (which
/// caches, pages and store-to-load forwarding see) differ from process to
/// process, as Mytkowicz, Diwan, Hauswirth and Sweeney ("Producing wrong
/// data without doing anything obviously wrong!", ASPLOS 2009) showed the
/// environment's size alone can move a program's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Bytes of environment string added, lowering the initial stack.
    pub stack_pad: usize,
    /// Bytes allocated and kept before the test's setup, a multiple of 16.
    pub heap_offset: usize,
    /// The CPU the worker is held on from its start, when pinned: both
    /// workers of a process pair share one ([`crate::cpus`]).
    pub cpu: Option<usize>,
    /// Whether a threaded test's worker may hold its threads on CPUs of
    /// their own (false: [`TEAM_FREE_VAR`] is set).
    pub hold_team: bool,
}

impl Placement {
    /// A placement drawn from `rng` (splitmix64 state), both offsets below
    /// [`PLACEMENT_RANGE`].
    pub fn draw(rng: &mut u64) -> Placement {
        let range = PLACEMENT_RANGE as u64;
        Placement {
            stack_pad: (splitmix64(rng) % range) as usize,
            heap_offset: ((splitmix64(rng) % range) & !15) as usize,
            cpu: None,
            hold_team: true,
        }
    }
}

/// The next value of a splitmix64 sequence (Steele, Lea and Flood, "Fast
/// splittable pseudorandom number generators", OOPSLA 2014).
pub(crate) fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed that differs from run to run (std's per-process hash keys).
pub(crate) fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Whether the variable `key` belongs to the worker protocol (what a
/// worker must never inherit from its coordinator). A worker reads no
/// other option: the rest are a run's, or a test's own.
pub(crate) fn is_run_option(key: &str) -> bool {
    key.starts_with("PERFMARK_WORKER_")
}

/// What a perfmark test binary says of itself when it greets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Greeting {
    /// Its perf tests.
    pub(crate) tests: Vec<String>,
    /// Whether it was built with its layout pinned.
    pub(crate) pinned: bool,
}

/// The perf tests of the perfmark test binary at `path`, from its greeting.
/// An error names the path when it is not a perfmark test binary or speaks
/// another protocol version.
pub fn probe(path: &Path, side: Side) -> Result<Vec<String>, Error> {
    greeting(path, side).map(|g| g.tests)
}

/// The greeting of the perfmark test binary at `path`; errors as
/// [`probe`]'s.
pub(crate) fn greeting(path: &Path, side: Side) -> Result<Greeting, Error> {
    if !path.is_file() {
        return Err(Error::worker(
            side,
            path,
            "is not a file: give the path of another build of this test target",
        ));
    }
    let mut worker = WorkerProcess::spawn(path, side, None, None)?;
    let greeting = worker.greet(PROBE_TIMEOUT)?;
    let _ = worker.wait_briefly();
    Ok(greeting)
}

#[cfg(test)]
mod tests;
