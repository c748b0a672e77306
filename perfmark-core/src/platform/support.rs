//! What this platform gives perfmark: the one place that decides, per
//! target, which of the measurements beside the clock's can be made.
//!
//! Linux on x86-64 has everything. Every other target compiles the same
//! runtime and decides the clock's verdicts (budgets, baselines, paired
//! comparisons, the spread between worker processes) as it does; what it
//! lacks is left out and said once in the header
//! ([`crate::platform::EnvironmentWarning::PlatformLacks`]), never a failed build.
//!
//! The decision is a plain value, [`Support::of`] a target's OS and
//! architecture, so the header's words and the runner's fallbacks are the
//! same code on every target, and Linux's tests can drive them by
//! pretending to be another platform ([`PRETEND_VAR`]).

use std::sync::OnceLock;

/// `PERFMARK_PRETEND_PLATFORM=OS[-ARCH]` (`macos`, `windows-x86_64`,
/// `linux-aarch64`, with `std::env::consts`'s names): the run takes away
/// what that platform lacks. Honoured only in a build with perfmark-core's
/// `pretend-platform` feature, which nothing but perfmark's own end-to-end
/// tests turns on (see [`Support::current`]).
pub const PRETEND_VAR: &str = "PERFMARK_PRETEND_PLATFORM";

/// What perfmark measures with, beside the clock, that a platform may lack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// Holding a test's thread, or a process pair's workers, on one CPU
    /// (`sched_setaffinity`: Linux).
    Pinning,
    /// The interference figures: the measuring thread's run-queue wait,
    /// switches and migrations, and the machine's steal (`/proc` and
    /// `getrusage(RUSAGE_THREAD)`: Linux).
    Interference,
    /// The thread's CPU clock, for `measure = "cpu"`
    /// (`CLOCK_THREAD_CPUTIME_ID`: Linux and macOS).
    ThreadCpuClock,
    /// Instruction counts under Callgrind (`--instructions`: Valgrind's
    /// client requests, written for Linux on x86-64).
    Instructions,
}

impl Capability {
    /// Every capability, in the order the header names what is missing.
    pub const ALL: [Capability; 4] = [
        Capability::Pinning,
        Capability::Interference,
        Capability::ThreadCpuClock,
        Capability::Instructions,
    ];
}

/// Which [`Capability`]s a platform has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Support {
    /// [`Capability::Pinning`].
    pub pinning: bool,
    /// [`Capability::Interference`].
    pub interference: bool,
    /// [`Capability::ThreadCpuClock`].
    pub thread_cpu_clock: bool,
    /// [`Capability::Instructions`].
    pub instructions: bool,
}

impl Support {
    /// What perfmark supports on `os` and `arch` (`std::env::consts`'s
    /// names). Each answer matches the `cfg` that compiles the capability's
    /// platform code in (`cpus/linux.rs`, `observe/source.rs`, `clock.rs`,
    /// `instructions/request.rs`); a target it does not know has none.
    pub fn of(os: &str, arch: &str) -> Support {
        let linux = os == "linux";
        Support {
            pinning: linux,
            interference: linux,
            thread_cpu_clock: linux || os == "macos",
            instructions: linux && arch == "x86_64",
        }
    }

    /// What this build's target supports.
    pub fn here() -> Support {
        Support::of(std::env::consts::OS, std::env::consts::ARCH)
    }

    /// What this run may use: [`Support::here`], less what the platform
    /// named by [`PRETEND_VAR`] lacks, when this build honours it. A
    /// pretence only ever takes away, so it never reaches code this target
    /// does not compile. Read once per process.
    pub fn current() -> Support {
        static CURRENT: OnceLock<Support> = OnceLock::new();
        *CURRENT.get_or_init(|| match pretended() {
            Some(name) => Support::here().and(Support::named(&name)),
            None => Support::here(),
        })
    }

    /// The platform `name` (`OS` or `OS-ARCH`) supports; an `OS` alone is
    /// taken on this machine's architecture.
    pub fn named(name: &str) -> Support {
        match name.split_once('-') {
            Some((os, arch)) => Support::of(os, arch),
            None => Support::of(name, std::env::consts::ARCH),
        }
    }

    /// What both `self` and `other` support.
    pub fn and(self, other: Support) -> Support {
        Support {
            pinning: self.pinning && other.pinning,
            interference: self.interference && other.interference,
            thread_cpu_clock: self.thread_cpu_clock && other.thread_cpu_clock,
            instructions: self.instructions && other.instructions,
        }
    }

    /// Whether `capability` is supported.
    pub fn has(&self, capability: Capability) -> bool {
        match capability {
            Capability::Pinning => self.pinning,
            Capability::Interference => self.interference,
            Capability::ThreadCpuClock => self.thread_cpu_clock,
            Capability::Instructions => self.instructions,
        }
    }

    /// What is missing, in [`Capability::ALL`]'s order.
    pub fn lacking(&self) -> Vec<Capability> {
        Capability::ALL
            .into_iter()
            .filter(|&c| !self.has(c))
            .collect()
    }
}

/// The platform [`PRETEND_VAR`] names, in a build that honours it.
#[cfg(feature = "pretend-platform")]
pub fn pretended() -> Option<String> {
    std::env::var(PRETEND_VAR).ok().filter(|v| !v.is_empty())
}

/// Never: only a build with the `pretend-platform` feature pretends, so
/// the variable cannot change a user's run.
#[cfg(not(feature = "pretend-platform"))]
pub fn pretended() -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use Capability::*;

    #[test]
    fn linux_on_x86_64_has_everything_and_each_other_target_says_what_it_lacks() {
        let lacking = |os, arch| Support::of(os, arch).lacking();
        assert_eq!(lacking("linux", "x86_64"), []);
        assert_eq!(lacking("linux", "aarch64"), [Instructions]);
        assert_eq!(
            lacking("macos", "aarch64"),
            [Pinning, Interference, Instructions]
        );
        assert_eq!(
            lacking("macos", "x86_64"),
            [Pinning, Interference, Instructions]
        );
        assert_eq!(lacking("windows", "x86_64"), Capability::ALL);
        assert_eq!(lacking("freebsd", "x86_64"), Capability::ALL);
    }

    #[test]
    fn a_pretence_only_takes_away() {
        assert_eq!(
            Support::named("macos-aarch64"),
            Support::of("macos", "aarch64")
        );
        let none = Support::of("windows", "x86_64");
        let all = Support::of("linux", "x86_64");
        assert_eq!(all.and(none), none);
        assert_eq!(none.and(all), none);
        assert_eq!(
            all.and(Support::named("linux-aarch64")).lacking(),
            [Instructions]
        );
    }

    /// The value agrees with the `cfg`s that compile each capability in.
    #[test]
    fn this_target_supports_what_it_compiles() {
        let here = Support::here();
        assert_eq!(here.pinning, cfg!(target_os = "linux"));
        assert_eq!(here.interference, cfg!(target_os = "linux"));
        assert_eq!(
            here.thread_cpu_clock,
            cfg!(any(target_os = "linux", target_os = "macos"))
        );
        assert_eq!(
            here.instructions,
            cfg!(all(target_arch = "x86_64", target_os = "linux"))
        );
    }
}
