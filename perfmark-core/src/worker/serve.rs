//! The worker's policy: the [`Bencher`](crate::Bencher)'s routine serving
//! the coordinator's requests (see [`super::protocol`]) instead of being
//! measured to completion.

use std::io::{self, Write};

use super::lines::LineReader;
use super::protocol::{self, Reply, Request};
use crate::clock::Clock;
use crate::measure::driver::{batched_block, loop_block, metered_batched, metered_loop, CpuClock};
use crate::measure::per_call::{per_call_block, CpuCallClock, RandomPhase, WallClock};
use crate::measure::sampler::loop_overhead_ns;
use crate::measure::{Driver, LocalDriver, Measurement, Policy, SampleKind, StopReason};
use crate::observe::{self, Reading, ThreadObservation};

/// The longest request line a worker reads, in bytes.
const REQUEST_MAX_BYTES: usize = 64 << 10;

/// The shortest block timed when measuring the harness's own cost, ns.
const OVERHEAD_BLOCK_NS: f64 = 1e6;

/// Writes one protocol line and flushes it.
#[inline(never)]
pub(crate) fn say(reply: &Reply) {
    let mut out = io::stdout().lock();
    // A coordinator that went away cannot be told anything more; the next
    // read of stdin ends the worker.
    let _ = out.write_all(protocol::encode(reply).as_bytes());
    let _ = out.flush();
}

/// The harness's own cost per iteration for routines of `kind` timed with
/// `clock`, measured with an empty routine in the same harness (0 for
/// `iter_custom`).
#[inline(never)]
fn harness_overhead_ns(kind: SampleKind, clock: Clock) -> f64 {
    let read_pair_ns = clock.info().map_or(0.0, |c| c.overhead_ns);
    let cpu = clock == Clock::Cpu;
    match kind {
        // A team's samples are timed from the threads' common start: no
        // empty team is run beside them.
        SampleKind::Custom | SampleKind::Threads => 0.0,
        SampleKind::Loop => {
            let empty = |n: u64| {
                if cpu {
                    metered_loop::<CpuClock, ()>(n, &mut || ()).cpu
                } else {
                    loop_block(n, &mut || ())
                }
            };
            let mut driver = LocalDriver::new(kind, empty, Some(empty));
            loop_overhead_ns(&mut driver, OVERHEAD_BLOCK_NS, read_pair_ns)
        }
        SampleKind::Batched => {
            let empty = |n: u64| {
                if cpu {
                    metered_batched::<CpuClock, (), ()>(n, &mut || (), &mut |()| ()).cpu
                } else {
                    batched_block(n, &mut || (), &mut |()| ())
                }
            };
            let mut driver = LocalDriver::new(kind, empty, Some(empty));
            loop_overhead_ns(&mut driver, OVERHEAD_BLOCK_NS, read_pair_ns)
        }
        SampleKind::PerCall => {
            // Each call's read pair is the harness's cost per iteration.
            let unused = |_: u64| std::time::Duration::ZERO;
            if cpu {
                let resolution_ns = crate::clock::cpu_info().map_or(0.0, |c| c.resolution_ns);
                let mut phase = RandomPhase::new(CpuCallClock::new(), resolution_ns, 1);
                let empty = |n: u64| per_call_block(n, &mut || (), &mut |()| (), &mut phase);
                let mut driver = LocalDriver::new(kind, unused, Some(empty));
                loop_overhead_ns(&mut driver, OVERHEAD_BLOCK_NS, 0.0)
            } else {
                let resolution_ns = crate::clock::info().resolution_ns;
                let mut phase = RandomPhase::new(WallClock::new(), resolution_ns, 1);
                let empty = |n: u64| per_call_block(n, &mut || (), &mut |()| (), &mut phase);
                let mut driver = LocalDriver::new(kind, unused, Some(empty));
                loop_overhead_ns(&mut driver, OVERHEAD_BLOCK_NS, 0.0)
            }
        }
    }
}

/// The coordinator's next request; `None` when it is done, gone, or speaks
/// another version (which it is told).
#[inline(never)]
fn next_request() -> Option<Request> {
    // A request is a few dozen bytes: a longer line is not one.
    let mut lines = LineReader::new(io::stdin().lock(), REQUEST_MAX_BYTES);
    let line = match lines.read_line() {
        Ok(Some(line)) => line,
        Ok(None) | Err(_) => return None,
    };
    if line.cut {
        say(&Reply::Failed {
            message: format!("a request line longer than {REQUEST_MAX_BYTES} bytes"),
        });
        return None;
    }
    let line = String::from_utf8_lossy(line.bytes);
    let line = line.trim_end();
    match serde_json::from_str::<Request>(line) {
        Ok(request) => Some(request),
        Err(e) => {
            say(&Reply::Failed {
                message: format!("unreadable request {line:?}: {e}"),
            });
            None
        }
    }
}

/// The measuring thread over a slice, from readings taken before its warm
/// run and after its timed block; `None` when the thread's run and wait
/// times cannot be read (interference is not observed here).
#[inline(never)]
fn observed(before: &Reading, after: &Reading) -> Option<ThreadObservation> {
    let o = ThreadObservation::between(before, after);
    o.run_ns.is_some().then_some(o)
}

/// The worker's policy: serve the coordinator's requests with the driver,
/// whose blocks are timed with `clock` (the test's `measure`).
#[derive(Debug)]
pub(crate) struct Serve {
    /// The clock the driver's blocks are timed with.
    pub(crate) clock: Clock,
}

impl Policy for Serve {
    // Inlined like the adaptive sampler (see `Policy`).
    #[inline(always)]
    fn measure<D: Driver + ?Sized>(&mut self, driver: &mut D) -> Measurement {
        let first_call_ns = driver.run(1).as_nanos() as f64;
        say(&Reply::Ready {
            kind: driver.kind(),
            first_call_ns,
        });
        // The harness's cost, from a harness of its own: measured through
        // the test's driver here, it kept the routine's captured variables
        // in memory in every run of the binary, worker or not (2.4 ns more
        // per iteration on the calibration suite's `ns_3`).
        let overhead_ns = harness_overhead_ns(driver.kind(), self.clock);
        let mut slices = 0;
        // Reading, parsing and answering stay in functions of their own, out
        // of this inlined body: only the driver's blocks are inlined here.
        while let Some(request) = next_request() {
            match request {
                Request::Slice { iters, warm_iters } => {
                    // Read before the warm run, not between it and the
                    // timed block, which it keeps warm.
                    let before = observe::read_thread();
                    if warm_iters > 0 {
                        driver.run(warm_iters);
                    }
                    let ns = driver.run(iters.max(1)).as_nanos() as f64;
                    let after = observe::read_thread();
                    slices += 1;
                    say(&Reply::Slice {
                        ns,
                        observed: observed(&before, &after),
                    });
                }
                Request::Overhead { .. } => say(&Reply::Overhead { ns: overhead_ns }),
                Request::Done => break,
            }
        }
        // The coordinator keeps the times; the body only needs to return.
        Measurement {
            kind: driver.kind(),
            samples_ns: Vec::new(),
            iters_per_sample: 0,
            first_call_ns,
            loop_overhead_ns: 0.0,
            warmup_ns: 0.0,
            warmup_blocks: 0,
            warmup_settled: true,
            sampling_ns: 0.0,
            stop: StopReason::Precision,
            planned_samples: slices,
            budget_look: None,
            reference_ns: Vec::new(),
        }
    }
}
