//! `threads = [1, 2, 4]`: a routine measured on several threads at once.
//!
//! A team of `N` threads runs [`crate::Bencher::iter_shared`]'s routine:
//! the test's own (measuring) thread and `N − 1` helpers, started once per
//! measurement and kept waiting between samples. Each sample releases
//! them together (a generation counter they spin on, then park on), each
//! runs the sample's iterations, and the sample lasts from the first
//! thread's start to the last thread's end: what one thread sees of the
//! routine while the others run it too. Each thread's own time is kept
//! beside it ([`TeamTimes`]). Release is in two steps: a helper woken
//! from its park may start hundreds of microseconds late on a virtual
//! machine, so each sample first wakes the helpers and waits until every
//! one has arrived, spinning, and only then lets them go, and starts its
//! own iterations: their starts lie within a few hundred nanoseconds. JMH's `@Threads` measures the same way on
//! the JVM; Divan's `threads` option does in Rust.
//!
//! Placement: the measuring thread is held on its CPU by the runner; the
//! helpers are held on other CPUs of the run's candidates, one each, when
//! there are enough of them. When there are not, no helper is held (the
//! scheduler spreads them) and the test's record says so
//! ([`Placement::apart`]): threads that share a CPU measure its sharing.

use std::hint::black_box;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use crate::cpus::Cpus;

mod scaling;

pub use scaling::{scaling_lines, ScalingLine, ScalingPoint};

/// Spins a waiting thread makes before it parks: about 20–50 µs, longer
/// than the sampler's work between two samples, so that a helper is
/// usually spinning, not asleep, when the next sample releases it.
const SPINS: u32 = 1 << 14;

/// How many threads run a test's routine, and the CPUs they may be held
/// on.
#[derive(Debug, Clone)]
pub struct TeamPlan {
    threads: usize,
    cpus: Option<Arc<Cpus>>,
}

impl TeamPlan {
    /// The calling thread alone.
    pub const ONE: TeamPlan = TeamPlan {
        threads: 1,
        cpus: None,
    };

    /// `threads` threads (0: the available parallelism), held apart on
    /// `cpus`' candidates where there are enough of them.
    pub fn new(threads: u64, cpus: Option<Arc<Cpus>>) -> TeamPlan {
        let threads = match threads {
            0 => thread::available_parallelism().map_or(1, |n| n.get()),
            n => usize::try_from(n).unwrap_or(usize::MAX),
        };
        TeamPlan { threads, cpus }
    }

    /// The team's size.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Where the helpers go when the measuring thread is on `own`: the
    /// other candidates in order, one per helper, when there are enough;
    /// else none held.
    fn helper_cpus(&self, own: Option<usize>) -> Option<Vec<usize>> {
        let cpus = self.cpus.as_ref()?;
        let own = own?;
        let others: Vec<usize> = cpus
            .candidates
            .iter()
            .copied()
            .filter(|&c| c != own)
            .take(self.threads - 1)
            .collect();
        (others.len() == self.threads - 1).then_some(others)
    }
}

/// Where a team ran (in `report.json`, three fields of the team's
/// record).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Placement {
    /// The CPU each thread was held on, the measuring thread's first;
    /// empty when the helpers were left to the scheduler.
    pub cpus: Vec<usize>,
    /// Whether every thread had a CPU of its own.
    pub apart: bool,
    /// The CPUs the run could hold threads on.
    pub candidates: usize,
}

/// A threaded test's team (`report.json`'s per-test `threads`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct ThreadsRecord {
    /// The name of the function's scaling line: the test's without its
    /// thread segment (`lock` for `lock::t4`).
    pub function: String,
    /// Threads that ran the routine at once.
    pub count: usize,
    /// Where the team ran: `cpus`, `apart`, `candidates`.
    #[serde(flatten)]
    pub placement: Placement,
    /// Each thread's own median time per iteration over the sampling
    /// blocks, ns, the measuring thread's first. The test's estimate is
    /// the team's: each sample from the first start to the last end.
    pub per_thread_ns: Vec<f64>,
}

impl ThreadsRecord {
    /// The record of a `threads` instance of one thread, measured on
    /// `cpus`, of `candidates` (its time per iteration is the test's
    /// estimate).
    pub fn alone(function: String, cpus: Vec<usize>, candidates: usize) -> ThreadsRecord {
        ThreadsRecord {
            function,
            count: 1,
            placement: Placement {
                cpus,
                apart: true,
                candidates,
            },
            per_thread_ns: Vec::new(),
        }
    }
}

/// One sample of a team: its time (the first start to the last end) and
/// each thread's own, the measuring thread's first.
#[derive(Debug, Clone)]
pub struct TeamSample {
    /// From the first thread's start to the last thread's end.
    pub total: Duration,
    /// Each thread's own time, the measuring thread's first.
    pub each: Vec<Duration>,
}

/// The per-thread times of a team's samples, kept as they are taken.
#[derive(Debug, Clone)]
pub struct TeamTimes {
    /// Per sample: its iterations per thread and each thread's own time.
    samples: Vec<(u64, Vec<Duration>)>,
    /// Where the team ran, once it has.
    pub placement: Option<Placement>,
    threads: usize,
}

/// How many of the last samples [`TeamTimes`] keeps, at most.
const KEPT: usize = 4096;

impl TeamTimes {
    /// Times of a team of `threads`.
    pub fn new(threads: usize) -> TeamTimes {
        TeamTimes {
            samples: Vec::new(),
            placement: None,
            threads,
        }
    }

    /// Keeps a sample of `iters` iterations per thread; its time.
    #[inline(always)]
    pub fn keep(&mut self, iters: u64, sample: TeamSample) -> Duration {
        if self.samples.len() == KEPT {
            self.samples.remove(0);
        }
        self.samples.push((iters, sample.each));
        sample.total
    }

    /// The record of the team of the test whose scaling line is
    /// `function`, its per-thread times over the last `last` samples (the
    /// sampling ones).
    pub fn record(&self, function: String, last: usize) -> ThreadsRecord {
        let placement = self.placement.clone().unwrap_or(Placement {
            cpus: Vec::new(),
            apart: false,
            candidates: 0,
        });
        ThreadsRecord {
            function,
            count: self.threads,
            placement,
            per_thread_ns: self.per_thread_ns(last),
        }
    }

    /// Each thread's median own time per iteration over the last `last`
    /// samples (the sampling ones), in ns, the measuring thread's first.
    pub fn per_thread_ns(&self, last: usize) -> Vec<f64> {
        let from = self.samples.len().saturating_sub(last);
        let kept = &self.samples[from..];
        (0..self.threads)
            .map(|i| {
                let per_iter: Vec<f64> = kept
                    .iter()
                    .filter_map(|(n, each)| {
                        each.get(i)
                            .map(|d| d.as_nanos() as f64 / (*n).max(1) as f64)
                    })
                    .collect();
                if per_iter.is_empty() {
                    f64::NAN
                } else {
                    crate::stats::quantile(&per_iter, 0.5)
                }
            })
            .collect()
    }
}

/// What the threads of a team share.
struct Shared {
    /// Bumped to wake the helpers for a sample (or to stop them).
    generation: AtomicU64,
    /// Helpers awake and waiting for [`Shared::go`] in this sample.
    arrived: AtomicUsize,
    /// Set to the sample's generation once every helper has arrived.
    go: AtomicU64,
    /// The sample's iterations per thread.
    iters: AtomicU64,
    /// Helpers done with the current sample.
    done: AtomicUsize,
    stop: AtomicBool,
    /// Each helper's start and end of the current sample, as ns since
    /// `epoch`.
    spans: Vec<(AtomicU64, AtomicU64)>,
    epoch: Instant,
    /// The first panic of a helper, to be resumed on the measuring thread.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

impl Shared {
    fn since_epoch(&self, t: Instant) -> u64 {
        t.duration_since(self.epoch).as_nanos() as u64
    }

    /// One sample of `iters` iterations per thread of `routine`, on the
    /// calling thread and the helpers `threads`: wakes them, waits until
    /// each has arrived, lets them go, runs its own share, waits for theirs.
    /// A helper's panic is resumed here, after every helper stopped.
    fn sample<O, R: Fn() -> O>(&self, threads: &[Thread], iters: u64, routine: &R) -> TeamSample {
        let helpers = threads.len();
        self.iters.store(iters, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        self.arrived.store(0, Ordering::Relaxed);
        let generation = self.generation.fetch_add(1, Ordering::AcqRel) + 1;
        for t in threads {
            t.unpark();
        }
        wait_until(|| self.arrived.load(Ordering::Acquire) == helpers);
        self.go.store(generation, Ordering::Release);
        let start = Instant::now();
        for _ in 0..iters {
            black_box(routine());
        }
        let end = Instant::now();
        wait_until(|| self.done.load(Ordering::Acquire) == helpers);
        if let Some(payload) = self.panic.lock().map_or(None, |mut p| p.take()) {
            stop(self, threads);
            panic::resume_unwind(payload);
        }
        let (mut first, mut last) = (self.since_epoch(start), self.since_epoch(end));
        let mut each = Vec::with_capacity(helpers + 1);
        each.push(end - start);
        for (s, e) in &self.spans {
            let (s, e) = (s.load(Ordering::Relaxed), e.load(Ordering::Relaxed));
            first = first.min(s);
            last = last.max(e);
            each.push(Duration::from_nanos(e.saturating_sub(s)));
        }
        TeamSample {
            total: Duration::from_nanos(last - first),
            each,
        }
    }
}

/// Runs `body` with a function that takes one sample of `routine` on the
/// team of `plan` (its iterations per thread in, the [`TeamSample`] out),
/// the helpers started before and stopped after. A helper's panic is
/// resumed on the calling thread, after every helper stopped. Returns
/// where the team ran.
pub fn with_team<O, R, B>(plan: &TeamPlan, routine: &R, body: B) -> Placement
where
    R: Fn() -> O + Sync,
    B: FnOnce(&mut dyn FnMut(u64) -> TeamSample),
{
    let helpers = plan.threads - 1;
    let own = crate::cpus::current_cpu();
    let held = plan.helper_cpus(own);
    let placement = Placement {
        cpus: match (&held, own) {
            (Some(others), Some(own)) => {
                std::iter::once(own).chain(others.iter().copied()).collect()
            }
            _ => Vec::new(),
        },
        apart: held.is_some(),
        candidates: plan.cpus.as_ref().map_or(0, |c| c.candidates.len()),
    };
    let shared = Shared {
        generation: AtomicU64::new(0),
        arrived: AtomicUsize::new(0),
        go: AtomicU64::new(0),
        iters: AtomicU64::new(0),
        done: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        spans: (0..helpers)
            .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
            .collect(),
        epoch: Instant::now(),
        panic: Mutex::new(None),
    };
    thread::scope(|scope| {
        let mut threads: Vec<Thread> = Vec::with_capacity(helpers);
        for i in 0..helpers {
            let cpu = held.as_ref().map(|cpus| cpus[i]);
            let shared = &shared;
            let spawned = thread::Builder::new()
                .name(format!("perfmark-team-{}", i + 1))
                .spawn_scoped(scope, move || helper(shared, i, cpu, routine));
            match spawned {
                Ok(handle) => threads.push(handle.thread().clone()),
                Err(error) => {
                    stop(shared, &threads);
                    panic!(
                        "perfmark could not start thread {} of the test's {}: {error}",
                        i + 2,
                        plan.threads
                    );
                }
            }
        }
        let mut sample = |iters: u64| shared.sample(&threads, iters, routine);
        let ran = panic::catch_unwind(AssertUnwindSafe(|| body(&mut sample)));
        stop(&shared, &threads);
        if let Err(payload) = ran {
            panic::resume_unwind(payload);
        }
    });
    placement
}

/// Stops the helpers `threads` of `shared`.
fn stop(shared: &Shared, threads: &[Thread]) {
    shared.stop.store(true, Ordering::Release);
    shared.generation.fetch_add(1, Ordering::Release);
    for t in threads {
        t.unpark();
    }
}

/// Waits until `ready()`: spins first, then yields the CPU.
fn wait_until(ready: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !ready() {
        if spins < SPINS {
            std::hint::spin_loop();
            spins += 1;
        } else {
            thread::yield_now();
        }
    }
}

/// Helper `i`'s life: held on `cpu` when given, it runs each released
/// sample's iterations of `routine`, records its span, and says it is done;
/// a panic is kept for the measuring thread, and the helper stops.
fn helper<O, R: Fn() -> O + Sync>(shared: &Shared, i: usize, cpu: Option<usize>, routine: &R) {
    if let Some(cpu) = cpu {
        crate::cpus::hold_current_thread(cpu);
    }
    let mut seen = 0u64;
    loop {
        let mut spins = 0u32;
        let generation = loop {
            let g = shared.generation.load(Ordering::Acquire);
            if g != seen {
                break g;
            }
            if spins < SPINS {
                std::hint::spin_loop();
                spins += 1;
            } else {
                thread::park();
            }
        };
        seen = generation;
        if shared.stop.load(Ordering::Acquire) {
            return;
        }
        shared.arrived.fetch_add(1, Ordering::AcqRel);
        wait_until(|| shared.go.load(Ordering::Acquire) == generation);
        let iters = shared.iters.load(Ordering::Relaxed);
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(routine());
            }
            (start, Instant::now())
        }));
        match ran {
            Ok((start, end)) => {
                shared.spans[i]
                    .0
                    .store(shared.since_epoch(start), Ordering::Relaxed);
                shared.spans[i]
                    .1
                    .store(shared.since_epoch(end), Ordering::Relaxed);
                shared.done.fetch_add(1, Ordering::Release);
            }
            Err(payload) => {
                if let Ok(mut slot) = shared.panic.lock() {
                    slot.get_or_insert(payload);
                }
                shared.done.fetch_add(1, Ordering::Release);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
