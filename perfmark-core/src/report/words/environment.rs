//! The run's environment warnings in words: what the header warns of once
//! and `report.json`'s `environment_warnings` keep.

use super::allocations::NOT_COUNTED;
use crate::observe::ProcFile;
use crate::platform::EnvironmentWarning;

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
            "interference is not observed: {} cannot be read (not Linux, or a kernel without \
             schedstats), so no test is told when other work took its time",
            ProcFile::ThreadSchedstat.path()
        ),
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
}
