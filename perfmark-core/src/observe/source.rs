//! Where the observation's figures come from: the running system
//! ([`Live`]), or fixed contents in tests ([`Fixed`]), behind one trait so
//! that a missing source can be injected.

use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// A file the observation reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProcFile {
    /// `/proc/thread-self/schedstat`: the calling thread's time on a CPU and
    /// waiting for one.
    ThreadSchedstat,
    /// `/proc/thread-self/sched`: the calling thread's migrations (kernels
    /// with `CONFIG_SCHED_DEBUG`).
    ThreadSched,
    /// `/proc/stat`: every CPU's busy, idle and stolen time.
    Stat,
    /// `/proc/loadavg`: the load average.
    Loadavg,
}

impl ProcFile {
    /// The file's path.
    pub fn path(self) -> &'static str {
        match self {
            ProcFile::ThreadSchedstat => "/proc/thread-self/schedstat",
            ProcFile::ThreadSched => "/proc/thread-self/sched",
            ProcFile::Stat => "/proc/stat",
            ProcFile::Loadavg => "/proc/loadavg",
        }
    }
}

/// The calling thread's context switches (`getrusage(RUSAGE_THREAD)`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Switches {
    /// The thread gave up its CPU (it blocked or slept).
    pub voluntary: u64,
    /// The scheduler took its CPU away: its time slice ran out while other
    /// work was waiting, or a task of higher priority woke.
    pub involuntary: u64,
}

/// What a reading is made of.
pub trait Source {
    /// The text of `file`, `None` when it cannot be read.
    fn read(&self, file: ProcFile) -> Option<String>;

    /// The calling thread's context switches, `None` when unknown.
    fn thread_switches(&self) -> Option<Switches>;

    /// CPU time (user + system) of this process and of its children that
    /// have been waited for, ns; `None` when unknown.
    fn process_cpu_ns(&self) -> Option<u64>;

    /// The length of one `/proc/stat` tick (`USER_HZ`), ns.
    fn tick_ns(&self) -> f64;

    /// Now: ns on a monotonic clock (any origin), and s since the Unix
    /// epoch.
    fn now(&self) -> (f64, f64);
}

/// The running system.
#[derive(Debug, Clone, Copy, Default)]
pub struct Live;

impl Source for Live {
    fn read(&self, file: ProcFile) -> Option<String> {
        std::fs::read_to_string(file.path()).ok()
    }

    fn thread_switches(&self) -> Option<Switches> {
        rusage::thread_switches()
    }

    fn process_cpu_ns(&self) -> Option<u64> {
        rusage::process_cpu_ns()
    }

    fn tick_ns(&self) -> f64 {
        rusage::tick_ns()
    }

    fn now(&self) -> (f64, f64) {
        static ORIGIN: OnceLock<Instant> = OnceLock::new();
        let origin = *ORIGIN.get_or_init(Instant::now);
        let mono_ns = origin.elapsed().as_nanos() as f64;
        let unix_s = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(f64::NAN, |d| d.as_secs_f64());
        (mono_ns, unix_s)
    }
}

/// A platform without the sources ([`crate::platform::Capability::Interference`]):
/// reads nothing but the time, so that interference is not observed.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unobserved;

impl Source for Unobserved {
    fn read(&self, _: ProcFile) -> Option<String> {
        None
    }

    fn thread_switches(&self) -> Option<Switches> {
        None
    }

    fn process_cpu_ns(&self) -> Option<u64> {
        None
    }

    fn tick_ns(&self) -> f64 {
        Live.tick_ns()
    }

    fn now(&self) -> (f64, f64) {
        Live.now()
    }
}

/// Fixed contents, for tests: each file's text or its absence, the
/// counters, and the time.
#[derive(Debug, Clone, Default)]
#[cfg(any(test, feature = "internals"))]
pub struct Fixed {
    /// `/proc/thread-self/schedstat`.
    pub schedstat: Option<String>,
    /// `/proc/thread-self/sched`.
    pub sched: Option<String>,
    /// `/proc/stat`.
    pub stat: Option<String>,
    /// `/proc/loadavg`.
    pub loadavg: Option<String>,
    /// `getrusage(RUSAGE_THREAD)`'s switches.
    pub switches: Option<Switches>,
    /// The process's CPU time, ns.
    pub process_cpu_ns: Option<u64>,
    /// Monotonic time, ns.
    pub mono_ns: f64,
    /// Unix time, s.
    pub unix_s: f64,
}

#[cfg(any(test, feature = "internals"))]
impl Source for Fixed {
    fn read(&self, file: ProcFile) -> Option<String> {
        match file {
            ProcFile::ThreadSchedstat => self.schedstat.clone(),
            ProcFile::ThreadSched => self.sched.clone(),
            ProcFile::Stat => self.stat.clone(),
            ProcFile::Loadavg => self.loadavg.clone(),
        }
    }

    fn thread_switches(&self) -> Option<Switches> {
        self.switches
    }

    fn process_cpu_ns(&self) -> Option<u64> {
        self.process_cpu_ns
    }

    fn tick_ns(&self) -> f64 {
        1e7
    }

    fn now(&self) -> (f64, f64) {
        (self.mono_ns, self.unix_s)
    }
}

#[cfg(target_os = "linux")]
mod rusage {
    use super::Switches;

    fn usage(who: libc::c_int) -> Option<libc::rusage> {
        // SAFETY: `rusage` is a struct of plain integers, for which all
        // zeroes is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: the pointer is to a live, writable `rusage` of this frame;
        // getrusage only writes one `rusage` through it.
        let rc = unsafe { libc::getrusage(who, &mut usage) };
        (rc == 0).then_some(usage)
    }

    fn timeval_ns(t: libc::timeval) -> u64 {
        (t.tv_sec.max(0) as u64) * 1_000_000_000 + (t.tv_usec.max(0) as u64) * 1_000
    }

    pub(super) fn thread_switches() -> Option<Switches> {
        let u = usage(libc::RUSAGE_THREAD)?;
        Some(Switches {
            voluntary: u.ru_nvcsw.max(0) as u64,
            involuntary: u.ru_nivcsw.max(0) as u64,
        })
    }

    pub(super) fn process_cpu_ns() -> Option<u64> {
        let own = usage(libc::RUSAGE_SELF)?;
        let children = usage(libc::RUSAGE_CHILDREN)?;
        Some(
            timeval_ns(own.ru_utime)
                + timeval_ns(own.ru_stime)
                + timeval_ns(children.ru_utime)
                + timeval_ns(children.ru_stime),
        )
    }

    pub(super) fn tick_ns() -> f64 {
        // SAFETY: sysconf takes no pointer and has no precondition.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if hz > 0 {
            1e9 / hz as f64
        } else {
            1e7
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod rusage {
    use super::Switches;

    pub(super) fn thread_switches() -> Option<Switches> {
        None
    }

    pub(super) fn process_cpu_ns() -> Option<u64> {
        None
    }

    pub(super) fn tick_ns() -> f64 {
        1e7
    }
}
