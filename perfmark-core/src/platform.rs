//! The platform header (the `SystemInfo` of Sestoft's "Microbenchmarks in
//! Java and C#", 2016) and the
//! environment checks (as BenchmarkDotNet's): facts that decide whether a
//! timing can be trusted and whether two timings are comparable.

use std::fs;
use std::path::PathBuf;

use crate::baseline::{cpu_model_from_cpuinfo, MachineMatch};
use crate::clock::ClockInfo;

/// What the header names, and what `report.json` records.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
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

impl Platform {
    /// Reads the platform facts. `optimized` is whether the *test binary*
    /// was built without debug assertions.
    pub fn detect(optimized: bool, clock: ClockInfo) -> Platform {
        Platform {
            os: std::env::consts::OS.to_owned(),
            kernel: read_trimmed("/proc/sys/kernel/osrelease"),
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

/// The CPU model from /proc/cpuinfo, as baseline fingerprints record it.
fn cpu_model() -> Option<String> {
    cpu_model_from_cpuinfo(&fs::read_to_string("/proc/cpuinfo").ok()?)
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
