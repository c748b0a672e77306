//! The run's environment warnings in words: what the header warns of once
//! and `report.json`'s `environment_warnings` keep.

use super::allocations::NOT_COUNTED;
use crate::observe::ProcFile;
use crate::platform::{Capability, EnvironmentWarning, PRETEND_VAR};

/// The warning in words, one sentence saying what to do.
pub fn words(warning: &EnvironmentWarning) -> String {
    match warning {
        EnvironmentWarning::Unoptimized => {
            "unoptimized build: timings are not representative; run `cargo test --release`"
                .to_owned()
        }
        EnvironmentWarning::Governor(governor) => format!(
            "CPU frequency governor is `{governor}`: the clock speed may change during \
             measurement; `performance` gives steadier timings"
        ),
        EnvironmentWarning::Load { load, cores } => format!(
            "load average {load:.2} is above the {cores} cores: other work is competing for the \
             CPU and timings will be noisy"
        ),
        EnvironmentWarning::VirtualMachine => {
            "virtual machine: other guests share the CPU; expect more run-to-run variation"
                .to_owned()
        }
        EnvironmentWarning::AllocationsNotCounted => {
            format!("allocations are not counted: {NOT_COUNTED}")
        }
        EnvironmentWarning::InterferenceNotObserved => format!(
            "interference is not observed: {} cannot be read (a kernel without schedstats), so \
             no test is told when other work took its time",
            ProcFile::ThreadSchedstat.path()
        ),
        EnvironmentWarning::PlatformLacks { lacking, pretended } => {
            platform_lacks(lacking, pretended.as_deref())
        }
        EnvironmentWarning::InterferenceWithout(missing) => {
            format!("interference is observed without {}", missing.join(", "))
        }
        EnvironmentWarning::StaleBaselines { path, tests } => format!(
            "{} has entries for tests that no longer exist: {}",
            path.display(),
            tests.join(", ")
        ),
        EnvironmentWarning::BaselineNote(machine) => machine.note().unwrap_or_default(),
        EnvironmentWarning::NoMachineLock { dir, error } => format!(
            "cannot take the machine-wide measurement lock in {}: {error}; measuring without \
             it, so a perfmark run in another process may disturb this one (set \
             PERFMARK_LOCK_DIR to a writable directory)",
            dir.display()
        ),
    }
}

/// What the platform lacks, each with what its absence means, and that
/// the clock's verdicts stand; `pretended` names the platform a test build
/// pretends to be.
fn platform_lacks(lacking: &[Capability], pretended: Option<&str>) -> String {
    let each: Vec<&str> = lacking.iter().map(|&c| lacks(c)).collect();
    let which = match pretended {
        Some(name) => format!("this run pretends to be {name} ({PRETEND_VAR}), which"),
        None => "this platform".to_owned(),
    };
    format!(
        "{which} has no {}; budgets, baselines and paired comparisons are timed and decided \
         as everywhere",
        list(&each)
    )
}

/// One missing capability, and what its absence means.
fn lacks(capability: Capability) -> &'static str {
    match capability {
        Capability::Pinning => {
            "CPU pinning (each test runs where the OS schedules it, so timings vary more)"
        }
        Capability::Interference => {
            "interference figures (no test is told when other work took its time, or measured \
             again for it)"
        }
        Capability::ThreadCpuClock => "thread CPU clock (a test with measure = \"cpu\" fails here)",
        Capability::Instructions => "instruction counts (--instructions needs Linux on x86-64)",
    }
}

/// `items` as an English list: `a`, `a and b`, `a, b and c`.
fn list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every warning in words, in order.
pub fn all(warnings: &[EnvironmentWarning]) -> Vec<String> {
    warnings.iter().map(words).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unobserved_machine_says_what_cannot_be_read() {
        let w = words(&EnvironmentWarning::InterferenceNotObserved);
        assert!(
            w.starts_with(
                "interference is not observed: /proc/thread-self/schedstat cannot be read"
            ),
            "{w}"
        );
        assert_eq!(
            words(&EnvironmentWarning::InterferenceWithout(vec![
                "/proc/thread-self/sched (migrations)".to_owned(),
                "/proc/stat (steal and other processes' CPU time)".to_owned(),
            ])),
            "interference is observed without /proc/thread-self/sched (migrations), \
             /proc/stat (steal and other processes' CPU time)"
        );
    }

    #[test]
    fn each_platform_says_once_what_it_lacks() {
        use crate::platform::Support;
        let said = |os, arch| {
            Support::of(os, arch)
                .header_warning(None)
                .map(|w| words(&w))
        };
        assert_eq!(said("linux", "x86_64"), None);
        assert_eq!(
            said("linux", "aarch64").unwrap(),
            "this platform has no instruction counts (--instructions needs Linux on x86-64); \
             budgets, baselines and paired comparisons are timed and decided as everywhere"
        );
        assert_eq!(
            said("macos", "aarch64").unwrap(),
            "this platform has no CPU pinning (each test runs where the OS schedules it, so \
             timings vary more), interference figures (no test is told when other work took \
             its time, or measured again for it) and instruction counts (--instructions needs \
             Linux on x86-64); budgets, baselines and paired comparisons are timed and decided \
             as everywhere"
        );
        let windows = said("windows", "x86_64").unwrap();
        assert!(
            windows.contains(
                ", thread CPU clock (a test with measure = \"cpu\" fails here) and instruction \
                 counts"
            ),
            "{windows}"
        );
        let pretending = Support::of("windows", "x86_64")
            .header_warning(Some("windows".to_owned()))
            .map(|w| words(&w))
            .unwrap();
        assert!(
            pretending.starts_with(
                "this run pretends to be windows (PERFMARK_PRETEND_PLATFORM), which has no CPU \
                 pinning"
            ),
            "{pretending}"
        );
    }
}
