//! Placement on Linux: `sched_getaffinity`/`sched_setaffinity`, the CPU a
//! thread runs on, and the kinds and capacities of cores from sysfs.

use crate::cpus::{parse_list, Capacity, CapacitySource, NotPinned};
use std::fs;

/// The calling process's allowed CPUs (`sched_getaffinity`).
pub(super) fn allowed() -> Option<Vec<usize>> {
    // SAFETY: a zeroed cpu_set_t is an empty set; the call writes at
    // most `size_of::<cpu_set_t>()` bytes into it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: pid 0 is the calling thread; `set` is valid for writes.
    let rc = unsafe { libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set) };
    if rc != 0 {
        return None;
    }
    let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `cpu` is below CPU_SETSIZE, the set's size.
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect();
    (!cpus.is_empty()).then_some(cpus)
}

/// The CPU the calling thread runs on now.
pub(super) fn current() -> Option<usize> {
    // SAFETY: sched_getcpu takes nothing and returns -1 on error.
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).ok()
}

/// Restricts the calling thread to `cpus`; the kernel moves it before
/// returning when it runs elsewhere. Allocates nothing.
pub(super) fn set_current(cpus: &[usize]) -> Result<(), NotPinned> {
    // SAFETY: a zeroed cpu_set_t is an empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &cpu in cpus {
        if cpu >= libc::CPU_SETSIZE as usize {
            return Err(NotPinned::Refused(format!(
                "CPU {cpu} is beyond CPU_SETSIZE"
            )));
        }
        // SAFETY: `cpu` is below CPU_SETSIZE, checked above.
        unsafe { libc::CPU_SET(cpu, &mut set) };
    }
    // SAFETY: pid 0 is the calling thread; `set` lives across the call.
    let rc = unsafe { libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set) };
    if rc == 0 {
        Ok(())
    } else {
        Err(NotPinned::Refused(
            std::io::Error::last_os_error().to_string(),
        ))
    }
}

pub(super) fn start_on(cmd: &mut std::process::Command, cpu: usize) {
    use std::os::unix::process::CommandExt;
    if cpu >= libc::CPU_SETSIZE as usize {
        return;
    }
    // SAFETY: the closure runs in the child between fork and exec,
    // where only async-signal-safe calls may be made: it builds the
    // set on the stack and makes one system call, allocating nothing.
    // A refusal is not an error of the spawn: the caller reads the
    // child's affinity back (`held_on`).
    unsafe {
        cmd.pre_exec(move || {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set);
            Ok(())
        });
    }
}

pub(super) fn held_on(pid: u32) -> Option<usize> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    // SAFETY: a zeroed cpu_set_t is an empty set.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `set` is valid for writes of its size.
    let rc = unsafe { libc::sched_getaffinity(pid, std::mem::size_of_val(&set), &mut set) };
    if rc != 0 {
        return None;
    }
    let mut on = (0..libc::CPU_SETSIZE as usize)
        // SAFETY: `cpu` is below CPU_SETSIZE, the set's size.
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) });
    match (on.next(), on.next()) {
        (Some(cpu), None) => Some(cpu),
        _ => None,
    }
}

/// Intel's hybrid processors: the kernel's PMUs `cpu_core` (the
/// performance cores) and `cpu_atom` (the efficiency cores), with
/// their CPUs; `None` elsewhere.
pub(super) fn hybrid_kinds() -> Option<Vec<(String, Vec<usize>)>> {
    let kinds: Vec<(String, Vec<usize>)> = ["cpu_core", "cpu_atom"]
        .iter()
        .filter_map(|name| {
            let text = fs::read_to_string(format!("/sys/devices/{name}/cpus")).ok()?;
            Some(((*name).to_owned(), parse_list(&text)?))
        })
        .collect();
    (kinds.len() == 2).then_some(kinds)
}

/// A CPU's relative capacity: the scheduler's `cpu_capacity` where the
/// kernel gives it (Arm's big.LITTLE and others), else its maximum
/// frequency.
pub(super) fn capacity(cpu: usize) -> Option<Capacity> {
    let read = |path: String| -> Option<u64> { fs::read_to_string(path).ok()?.trim().parse().ok() };
    let base = format!("/sys/devices/system/cpu/cpu{cpu}");
    if let Some(value) = read(format!("{base}/cpu_capacity")) {
        return Some(Capacity {
            value,
            source: CapacitySource::Scheduler,
        });
    }
    read(format!("{base}/cpufreq/cpuinfo_max_freq")).map(|value| Capacity {
        value,
        source: CapacitySource::MaxFrequencyKhz,
    })
}
