//! The platform header (the `SystemInfo` of Sestoft's "Microbenchmarks in
//! Java and C#", 2016) and the
//! environment checks (as BenchmarkDotNet's): facts that decide whether a
//! timing can be trusted and whether two timings are comparable, and what
//! this platform gives perfmark ([`Support`]).

pub(crate) mod support;

use std::fs;
use std::path::PathBuf;

pub use support::{pretended, Capability, Support, PRETEND_VAR};

use crate::baseline::{cpu_model_from_cpuinfo, MachineMatch};
use crate::clock::ClockInfo;

/// What the header names, and what `report.json` records.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Platform {
    /// `linux`, `macos`, … (`std::env::consts::OS`).
    pub os: String,
    /// Kernel release, when known.
    pub kernel: Option<String>,
    /// `x86_64`, `aarch64`, …
    pub arch: String,
    /// CPU model name, when known.
    pub cpu_model: String,
    /// Logical cores available to this process.
    pub cores: usize,
    /// `rustc --version` of the compiler that built perfmark.
    pub rustc: String,
    /// `release` when built without debug assertions, else `debug`.
    pub profile: String,
    /// perfmark's version.
    pub perfmark_version: String,
    /// The calibrated clock.
    pub clock: ClockInfo,
    /// The calibrated thread CPU clock, when a test of the run is timed
    /// with it (`measure = "cpu"`).
    pub cpu_clock: Option<ClockInfo>,
}

impl Support {
    /// The header's one warning of what this platform lacks, with the
    /// platform it pretends to be when it does; `None` when it lacks
    /// nothing.
    pub fn header_warning(&self, pretended: Option<String>) -> Option<EnvironmentWarning> {
        let lacking = self.lacking();
        (!lacking.is_empty()).then_some(EnvironmentWarning::PlatformLacks { lacking, pretended })
    }
}

impl Platform {
    /// Reads the platform facts. `optimized` is whether the *test binary*
    /// was built without debug assertions.
    pub fn detect(optimized: bool, clock: ClockInfo) -> Platform {
        Platform {
            os: std::env::consts::OS.to_owned(),
            kernel: kernel_release(),
            arch: std::env::consts::ARCH.to_owned(),
            cpu_model: cpu_model().unwrap_or_else(|| "unknown CPU".to_owned()),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            rustc: env!("PERFMARK_RUSTC_VERSION").to_owned(),
            profile: if optimized { "release" } else { "debug" }.to_owned(),
            perfmark_version: env!("CARGO_PKG_VERSION").to_owned(),
            clock,
            cpu_clock: None,
        }
    }

    /// What this machine's state says against trusting a timing: an
    /// unoptimized build, a CPU frequency governor other than
    /// `performance`, a load average above the cores, a virtual machine.
    pub fn warnings(&self) -> Vec<EnvironmentWarning> {
        let mut warnings = Vec::new();
        if self.profile != "release" {
            warnings.push(EnvironmentWarning::Unoptimized);
        }
        if let Some(governor) =
            read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
        {
            if governor != "performance" {
                warnings.push(EnvironmentWarning::Governor(governor));
            }
        }
        if let Some(load) = load_average() {
            if load > self.cores as f64 {
                warnings.push(EnvironmentWarning::Load {
                    load,
                    cores: self.cores,
                });
            }
        }
        if is_virtual_machine() {
            warnings.push(EnvironmentWarning::VirtualMachine);
        }
        warnings
    }
}

/// A fact about the run's machine or setup that the header warns of once,
/// and `report.json`'s `environment_warnings` keep in words
/// ([`crate::report::words::environment`]).
#[derive(Debug, Clone, PartialEq)]
pub enum EnvironmentWarning {
    /// The test binary was built with debug assertions.
    Unoptimized,
    /// The CPU frequency governor, when it is not `performance`.
    Governor(String),
    /// The 1-minute load average, above the cores this process may use.
    Load {
        /// The load average.
        load: f64,
        /// Logical cores available to this process.
        cores: usize,
    },
    /// The machine is a virtual machine.
    VirtualMachine,
    /// The global allocator is not perfmark's counting allocator.
    AllocationsNotCounted,
    /// Nothing of the interference figures can be read here.
    InterferenceNotObserved,
    /// Interference is observed without these sources, each with what is
    /// lost ([`crate::observe::Coverage::missing`]).
    InterferenceWithout(Vec<String>),
    /// The baseline file has entries for tests that no longer exist.
    StaleBaselines {
        /// The baseline file.
        path: PathBuf,
        /// The names of the tests it has and the binary lacks.
        tests: Vec<String>,
    },
    /// A baseline recorded under another kernel or rustc or perfmark
    /// patch release, still used ([`MachineMatch::note`]).
    BaselineNote(Box<MachineMatch>),
    /// What this platform lacks ([`Support::lacking`]), and the platform
    /// it pretends to be when a test build makes it ([`PRETEND_VAR`]).
    PlatformLacks {
        /// The capabilities missing, in [`Capability::ALL`]'s order.
        lacking: Vec<Capability>,
        /// The `OS[-ARCH]` pretended, if any.
        pretended: Option<String>,
    },
    /// The machine-wide measurement lock could not be taken.
    NoMachineLock {
        /// The directory the lock file was to be in.
        dir: PathBuf,
        /// Why, as the error displays.
        error: String,
    },
}

fn read_trimmed(path: &str) -> Option<String> {
    fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// The CPU model, as the header names it and baseline fingerprints record
/// it: from /proc/cpuinfo on Linux ([`cpu_model_from_cpuinfo`]),
/// `machdep.cpu.brand_string` on macOS, `PROCESSOR_IDENTIFIER` on Windows;
/// `None` where none is found. A fingerprint without a model could not
/// tell two machines of the same core count apart.
pub(crate) fn cpu_model() -> Option<String> {
    if let Ok(info) = fs::read_to_string("/proc/cpuinfo") {
        return cpu_model_from_cpuinfo(&info);
    }
    if cfg!(windows) {
        return std::env::var("PROCESSOR_IDENTIFIER")
            .ok()
            .map(|id| collapse_blanks(&id))
            .filter(|id| !id.is_empty());
    }
    sysctl::string(c"machdep.cpu.brand_string")
}

/// The kernel release: /proc/sys/kernel/osrelease on Linux, `kern.osrelease`
/// on macOS; `None` elsewhere.
pub(crate) fn kernel_release() -> Option<String> {
    read_trimmed("/proc/sys/kernel/osrelease").or_else(|| sysctl::string(c"kern.osrelease"))
}

/// `text` with its runs of blanks made one space, trimmed.
fn collapse_blanks(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// macOS's named system values (`sysctlbyname(3)`).
#[cfg(target_os = "macos")]
mod sysctl {
    use std::ffi::CStr;
    use std::ptr;

    /// The string value named `name`, blanks collapsed; `None` when it
    /// cannot be read or is empty.
    pub(super) fn string(name: &CStr) -> Option<String> {
        let mut len: libc::size_t = 0;
        // SAFETY: `name` is NUL-terminated; a null buffer asks only for the
        // value's length, which is written to `len`.
        let rc = unsafe {
            libc::sysctlbyname(name.as_ptr(), ptr::null_mut(), &mut len, ptr::null_mut(), 0)
        };
        if rc != 0 || len == 0 {
            return None;
        }
        let mut buf = vec![0u8; len];
        // SAFETY: `buf` has `len` writable bytes, the size sysctl is given;
        // it writes at most that many and the length written to `len`.
        let rc = unsafe {
            libc::sysctlbyname(
                name.as_ptr(),
                buf.as_mut_ptr().cast(),
                &mut len,
                ptr::null_mut(),
                0,
            )
        };
        if rc != 0 {
            return None;
        }
        buf.truncate(len);
        let text = super::collapse_blanks(&String::from_utf8_lossy(&buf).replace('\0', " "));
        (!text.is_empty()).then_some(text)
    }
}

/// Named system values exist on macOS only.
#[cfg(not(target_os = "macos"))]
mod sysctl {
    pub(super) fn string(_: &std::ffi::CStr) -> Option<String> {
        None
    }
}

/// The one-minute load average.
fn load_average() -> Option<f64> {
    read_trimmed("/proc/loadavg")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Whether the CPU says it runs under a hypervisor (x86 `hypervisor` flag).
fn is_virtual_machine() -> bool {
    fs::read_to_string("/proc/cpuinfo").is_ok_and(|info| {
        info.lines()
            .filter(|l| l.starts_with("flags"))
            .any(|l| l.split_whitespace().any(|flag| flag == "hypervisor"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Capability::Instructions;

    #[test]
    fn a_platform_that_lacks_nothing_says_nothing() {
        assert_eq!(Support::of("linux", "x86_64").header_warning(None), None);
        assert_eq!(
            Support::of("linux", "aarch64").header_warning(Some("linux-aarch64".to_owned())),
            Some(EnvironmentWarning::PlatformLacks {
                lacking: vec![Instructions],
                pretended: Some("linux-aarch64".to_owned()),
            })
        );
    }
}
