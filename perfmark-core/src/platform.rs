//! The platform header (the `SystemInfo` of Sestoft's "Microbenchmarks in
//! Java and C#", 2016) and the
//! environment checks (as BenchmarkDotNet's): facts that decide whether a
//! timing can be trusted and whether two timings are comparable.

use std::fs;

use crate::baseline::cpu_model_from_cpuinfo;
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

    /// Environment warnings, each one sentence saying what to do.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.profile != "release" {
            warnings.push(
                "unoptimized build: timings are not representative; run `cargo test --release`"
                    .to_owned(),
            );
        }
        if let Some(governor) =
            read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
        {
            if governor != "performance" {
                warnings.push(format!(
                    "CPU frequency governor is `{governor}`: the clock speed may change during \
                     measurement; `performance` gives steadier timings"
                ));
            }
        }
        if let Some(load) = load_average() {
            if load > self.cores as f64 {
                warnings.push(format!(
                    "load average {load:.2} is above the {} cores: other work is competing for the \
                     CPU and timings will be noisy",
                    self.cores
                ));
            }
        }
        if is_virtual_machine() {
            warnings.push(
                "virtual machine: other guests share the CPU; expect more run-to-run variation"
                    .to_owned(),
            );
        }
        warnings
    }
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
