//! Observing the machine: what the OS knows about other work that took a
//! test's time, read at the test's boundaries (and around each slice in a
//! paired comparison), never inside a timed region.
//!
//! Samples alone cannot tell a slow routine from a routine that was kept
//! off its CPU: a hypervisor that steals the virtual CPU, another process
//! that takes the core, a migration to a cold cache. Newcomer's timer
//! ("Profiling for performance", 1993) charged interrupts and context swaps
//! to the measured loop and made a 100 µs loop read 5 ms, and he asks that
//! every thread have its own time accounting; the noise task of Boyer's
//! `bb.util.Benchmark` ("Robust Java benchmarking", 2008) is "only subject to
//! external noise (e.g. from operating system context switches)". Linux
//! keeps exactly that accounting per thread, and this module reads it:
//!
//! | source | what it gives |
//! |---|---|
//! | `/proc/thread-self/schedstat` | the measuring thread's time on a CPU (run) and runnable but waiting for one (wait), ns |
//! | `getrusage(RUSAGE_THREAD)` | its voluntary and involuntary context switches |
//! | `/proc/thread-self/sched` | its migrations between CPUs (`se.nr_migrations`) |
//! | `/proc/stat` | every CPU's busy, idle and stolen ticks (all CPUs, and each) |
//! | `getrusage(RUSAGE_SELF, RUSAGE_CHILDREN)` | this process's own CPU time, to tell other processes' CPU time from ours |
//! | `/proc/loadavg` | the load average before and after |
//!
//! # Time taken by other work
//!
//! Over a span of wall time `W` (a test's body, setup and warm-up included):
//!
//! - **waited** = the measuring thread's run-queue wait, in the share that
//!   other processes had of the competition for the CPUs, and at most the
//!   CPU time they used over the span (all CPUs' busy ticks less this
//!   process's CPU time). Both keep a test's own threads out: a test that
//!   runs more threads than there are cores makes its measuring thread wait
//!   for them, which is the test's work, not interference. The share is
//!   `other / (other + the test's other threads' CPU time)`: on a quiet
//!   machine other processes still use a few tens of milliseconds a second
//!   (daemons, the parent process, the 10 ms ticks of `/proc/stat`), and
//!   charging a multi-threaded test's whole wait to them up to that bound
//!   would make quiet test-runs warn.
//! - **stolen** = the thread's run time × f / (1 − f), where f is the share
//!   of the CPUs' wanted time (busy + steal) that the hypervisor stole over
//!   the span. Stolen time is counted neither as the thread's run time nor
//!   as its wait, so it is estimated from the machine's steal rate.
//! - **lost share** = (waited + stolen) / W.
//!
//! A span is **disturbed** when its lost share is at least
//! [`LOST_SHARE_THRESHOLD`] (5%) *and* the time lost is at least
//! [`MIN_LOST`] (10 ms). The rule rests on time lost, not on raw counts:
//! involuntary switches happen at every scheduler tick (~250 Hz) on a quiet
//! machine as soon as any other task is runnable, and cost nothing when the
//! thread gets its CPU straight back. 5% lies between what a quiet machine
//! takes (daemons and kernel threads wake for microseconds) and what a
//! competing busy loop takes (one more runnable thread than cores takes
//! about a third of a test's time); `cargo xtask interference` checks it,
//! quiet and under load. The 10 ms floor keeps a single wake-up of a daemon
//! from disturbing a test of 50 ms.
//!
//! Off Linux nothing is read ([`Observer::of_platform`]) and the header's
//! word on what the platform lacks says so. When the thread's schedstat
//! cannot be read (a kernel without `CONFIG_SCHED_INFO`), interference is
//! not observed and the run's header says so once
//! ([`Coverage::header_warning`]); other missing sources only leave their
//! own figures out.

mod interference;
pub mod procfs;
pub mod source;

use std::time::Duration;

use crate::platform::{EnvironmentWarning, Support};
#[cfg(feature = "internals")]
pub use interference::CpuShare;
#[cfg(feature = "compare")]
pub use interference::SlicePairObservation;
pub use interference::{Interference, PairedInterference, SideInterference, ThreadObservation};
use procfs::{CpuTimes, SchedStat};
#[cfg(any(test, feature = "internals"))]
pub use source::Fixed;
pub use source::{Live, ProcFile, Source, Switches, Unobserved};

/// A span is disturbed when other work took at least this share of its
/// wall time (and at least [`MIN_LOST`]).
pub const LOST_SHARE_THRESHOLD: f64 = 0.05;

/// A span is disturbed only when other work took at least this much of it.
pub const MIN_LOST: Duration = Duration::from_millis(10);

/// What the OS says at one instant about the calling thread, this process
/// and the machine. Figures whose source is missing are `None`.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    mono_ns: f64,
    unix_s: f64,
    sched: Option<SchedStat>,
    migrations: Option<u64>,
    switches: Option<Switches>,
    process_cpu_ns: Option<u64>,
    cpus: Option<CpuTimes>,
    load: Option<f64>,
    tick_ns: f64,
}

impl Reading {
    /// Reads everything: the calling thread, this process and the machine.
    pub fn take(source: &dyn Source) -> Reading {
        let mut r = Reading::take_thread(source);
        r.process_cpu_ns = source.process_cpu_ns();
        r.cpus = source
            .read(ProcFile::Stat)
            .and_then(|t| procfs::parse_stat(&t));
        r.load = source
            .read(ProcFile::Loadavg)
            .and_then(|t| procfs::parse_loadavg(&t));
        r.tick_ns = source.tick_ns();
        r
    }

    /// Reads the calling thread's figures only (cheaper: per slice).
    pub fn take_thread(source: &dyn Source) -> Reading {
        let (mono_ns, unix_s) = source.now();
        Reading {
            mono_ns,
            unix_s,
            sched: source
                .read(ProcFile::ThreadSchedstat)
                .and_then(|t| procfs::parse_schedstat(&t)),
            migrations: source
                .read(ProcFile::ThreadSched)
                .and_then(|t| procfs::parse_sched_counter(&t, "se.nr_migrations")),
            switches: source.thread_switches(),
            process_cpu_ns: None,
            cpus: None,
            load: None,
            tick_ns: source.tick_ns(),
        }
    }
}

/// Reads the calling thread's figures from the running system: what a
/// worker reads around each slice. Not inlined, so that it stays out of
/// the test's inlined measurement loop.
#[inline(never)]
pub fn read_thread() -> Reading {
    Reading::take_thread(&Live)
}

/// Which sources this machine has, as `report.json` records it once per
/// run (`interference` at the top level).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Coverage {
    /// Whether interference is observed at all (the measuring thread's
    /// schedstat can be read).
    pub observed: bool,
    /// The sources that could be read.
    pub sources: Vec<String>,
    /// The sources that could not, each with what is lost without it.
    pub missing: Vec<String>,
    /// [`LOST_SHARE_THRESHOLD`].
    pub lost_share_threshold: f64,
    /// [`MIN_LOST`], s.
    pub min_lost_s: f64,
}

impl Coverage {
    /// The header's one warning about the observation: that interference is
    /// not observed, or which sources are missing; `None` when every source
    /// is there.
    pub fn header_warning(&self) -> Option<EnvironmentWarning> {
        if !self.observed {
            return Some(EnvironmentWarning::InterferenceNotObserved);
        }
        (!self.missing.is_empty())
            .then(|| EnvironmentWarning::InterferenceWithout(self.missing.clone()))
    }

    /// Tries every source once.
    pub fn probe(source: &dyn Source) -> Coverage {
        let r = Reading::take(source);
        let mut sources = Vec::new();
        let mut missing = Vec::new();
        let mut check = |present: bool, name: &str, without: &str| {
            if present {
                sources.push(name.to_owned());
            } else {
                missing.push(format!("{name} ({without})"));
            }
        };
        check(
            r.sched.is_some(),
            ProcFile::ThreadSchedstat.path(),
            "the thread's run and wait times",
        );
        check(
            r.switches.is_some() && r.process_cpu_ns.is_some(),
            "getrusage",
            "context switches and this process's CPU time",
        );
        check(
            r.migrations.is_some(),
            ProcFile::ThreadSched.path(),
            "migrations",
        );
        check(
            r.cpus.is_some(),
            ProcFile::Stat.path(),
            "steal and other processes' CPU time",
        );
        check(
            r.load.is_some(),
            ProcFile::Loadavg.path(),
            "the load average",
        );
        Coverage {
            observed: r.sched.is_some(),
            sources,
            missing,
            lost_share_threshold: LOST_SHARE_THRESHOLD,
            min_lost_s: MIN_LOST.as_secs_f64(),
        }
    }
}

/// The run's observer: its source and what the source covers.
pub struct Observer {
    source: Box<dyn Source + Send + Sync>,
    coverage: Coverage,
}

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Observer")
            .field("coverage", &self.coverage)
            .finish_non_exhaustive()
    }
}

impl Observer {
    /// An observer of the running system.
    pub fn live() -> Observer {
        Observer::new(Box::new(Live))
    }

    /// An observer of the running system where `support` has the
    /// interference figures, else one that observes nothing (and says
    /// nothing of it: the platform's own warning does).
    pub fn of_platform(support: &Support) -> Observer {
        if support.interference {
            Observer::live()
        } else {
            Observer::new(Box::new(Unobserved))
        }
    }

    /// An observer of `source` (tests give fixed contents).
    pub fn new(source: Box<dyn Source + Send + Sync>) -> Observer {
        let coverage = Coverage::probe(&*source);
        Observer { source, coverage }
    }

    /// What this observer's source covers.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// A full reading now, on the calling thread.
    pub fn read(&self) -> Reading {
        Reading::take(&*self.source)
    }

    /// The interference over the span from `before` to `after`, both taken
    /// on the measuring thread; `None` when interference is not observed.
    pub fn between(&self, before: &Reading, after: &Reading) -> Option<Interference> {
        self.coverage
            .observed
            .then(|| Interference::between(before, after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn everything() -> Fixed {
        Fixed {
            schedstat: Some("1000 20 3\n".to_owned()),
            sched: Some("se.nr_migrations   :   1\n".to_owned()),
            stat: Some("cpu  10 0 5 100 0 0 0 1 0 0\ncpu0 10 0 5 100 0 0 0 1 0 0\n".to_owned()),
            loadavg: Some("0.10 0.20 0.30 1/80 99\n".to_owned()),
            switches: Some(Switches::default()),
            process_cpu_ns: Some(0),
            mono_ns: 0.0,
            unix_s: 0.0,
        }
    }

    #[test]
    fn every_source_there_says_nothing_in_the_header() {
        let observer = Observer::new(Box::new(everything()));
        let c = observer.coverage();
        assert!(c.observed);
        assert!(c.missing.is_empty(), "{:?}", c.missing);
        assert_eq!(c.sources.len(), 5);
        assert_eq!(c.header_warning(), None);
        assert_eq!(c.lost_share_threshold, 0.05);
        assert_eq!(c.min_lost_s, 0.01);
        let r = observer.read();
        assert!(observer.between(&r, &r).is_some());
    }

    #[test]
    fn without_schedstat_interference_is_not_observed_and_the_header_says_so_once() {
        // Not Linux, or a kernel without schedstats: injected by leaving
        // the thread's schedstat out.
        let observer = Observer::new(Box::new(Fixed {
            schedstat: None,
            ..everything()
        }));
        let c = observer.coverage();
        assert!(!c.observed);
        assert_eq!(
            c.header_warning(),
            Some(EnvironmentWarning::InterferenceNotObserved)
        );
        let r = observer.read();
        assert_eq!(observer.between(&r, &r), None);
        // Nothing at all (another OS): the same single warning.
        let bare = Coverage::probe(&Fixed::default());
        assert!(!bare.observed && bare.sources.is_empty());
        assert_eq!(bare.header_warning(), c.header_warning());
    }

    #[test]
    fn a_missing_secondary_source_is_named_with_what_it_costs() {
        let c = Coverage::probe(&Fixed {
            stat: None,
            sched: None,
            ..everything()
        });
        assert!(c.observed);
        assert_eq!(
            c.header_warning(),
            Some(EnvironmentWarning::InterferenceWithout(vec![
                "/proc/thread-self/sched (migrations)".to_owned(),
                "/proc/stat (steal and other processes' CPU time)".to_owned(),
            ]))
        );
    }

    #[test]
    fn the_live_system_sees_this_threads_own_work() {
        let observer = Observer::live();
        let coverage = observer.coverage();
        let before = observer.read();
        // 30 ms of this thread's own work between the two reads.
        let started = std::time::Instant::now();
        let mut x = 0u64;
        while started.elapsed() < std::time::Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let after = read_thread();
        let seen = observer.between(&before, &after);
        if !cfg!(target_os = "linux") {
            // No schedstat: not observed, said once, nothing made up.
            assert!(!coverage.observed && seen.is_none());
            assert!(coverage.header_warning().is_some());
            return;
        }
        assert!(coverage.observed, "{coverage:?}");
        let i = seen.expect("a Linux thread's schedstat is read");
        assert!(i.wall_s >= 0.030, "{i:?}");
        // The thread ran for most of the loop (a shared machine may take
        // some of it), and never longer than the wall time.
        let run = i.run_s.expect("run time from schedstat");
        assert!(run >= 0.010 && run <= i.wall_s + 0.002, "{i:?}");
        // The whole-machine figures are read before the test only (after
        // it, the thread's own are read, as the runner does).
        assert!(i.load_before.is_some(), "{i:?}");
    }
}
