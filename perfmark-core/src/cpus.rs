//! Where a measurement runs: the CPUs this process may use, which kind of
//! core each one is, and pinning a thread to one of them.
//!
//! Where a process runs is part of its speed. On a shared many-core host a
//! test's time moved 2x between two processes of the same binary, and a
//! comparison pinned by hand to one CPU narrowed from ±20–30% to ±2–5%:
//! a thread the scheduler moves between CPUs takes the state of each
//! (its cache, its sibling's load, its clock) into its samples. So a test
//! is measured on one CPU from its setup to its last sample, and the two
//! workers of a paired comparison's process pair share one CPU, drawn per
//! pair: a CPU's state then lies in the spread between pairs, never in one
//! pair's ratio. pyperf pins its worker processes for the same reason
//! (Victor Stinner, pyperf's "Tune the system for benchmarks").
//!
//! On a machine whose cores differ in capacity (performance and efficiency
//! cores), a test that ran on one kind in the baseline and the other now
//! would read as a change of the code: only the fastest kind is used, and
//! named. Memory a test touches first follows its CPU: Linux places a page
//! on the node of the CPU that first writes it, and the test's setup runs
//! on the pinned thread.
//!
//! Everything that reads the machine is behind [`Cpus::detect`] and
//! [`pin_current_thread`]; what they decide from is pure ([`parse_list`],
//! [`fastest_kind`]) and tested on fixed inputs.

/// Two cores are of one kind when the slower's capacity is at least this
/// fraction of the faster's. Performance and efficiency cores differ by
/// 20–60% (in `cpu_capacity` or in maximum frequency); the "favoured" cores
/// of one kind that boost a few percent higher do not make a kind of their
/// own.
pub const SAME_KIND: f64 = 0.85;

/// The CPUs a test may be measured on, as this process found them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cpus {
    /// The CPUs this process may run on, ascending.
    pub allowed: Vec<usize>,
    /// The fastest kind's CPUs among them, ascending (all of `allowed`
    /// when the cores are alike or their capacities unknown).
    pub candidates: Vec<usize>,
    /// How that kind was told apart, when the allowed cores differ.
    pub kind: Option<CoreKind>,
}

/// The kind of core drawn from, on a machine whose cores differ.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct CoreKind {
    /// Its name: the kernel's PMU name (`cpu_core`) on Intel's hybrid
    /// processors, else what set it apart (`capacity 1024`, `max 5400 MHz`).
    pub name: String,
    /// Allowed CPUs of other kinds, left unused.
    pub left_out: usize,
}

/// Why a test's thread or workers were not pinned.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum NotPinned {
    /// `--no-pin` or `PERFMARK_NO_PIN=1`.
    TurnedOff,
    /// The process may run on one CPU only: it runs there anyway.
    OneCpu,
    /// This OS has no way to pin a thread that perfmark uses.
    Unsupported,
    /// The kernel refused (the error's text), e.g. under a seccomp policy.
    Refused(String),
}

/// Where one test was measured (`report.json`'s per-test `cpu`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct CpuRecord {
    /// The CPU of each process that measured the test: one in a normal
    /// run, one per process pair in a paired comparison (both workers of
    /// a pair on it). A CPU read but not held when not pinned; empty when
    /// not known.
    pub cpus: Vec<usize>,
    /// Why the measurement was not pinned; absent when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_pinned: Option<NotPinned>,
    /// CPUs the process may run on.
    pub allowed: usize,
    /// CPUs a test could be pinned to (the fastest kind's).
    pub candidates: usize,
    /// The kind of core used, when the allowed cores differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<CoreKind>,
}

impl Cpus {
    /// The CPUs of this process, with each one's kind read from the
    /// kernel. `None` where the allowed set cannot be read (not Linux).
    pub fn detect() -> Option<Cpus> {
        let allowed = sys::allowed()?;
        let hybrid = sys::hybrid_kinds();
        let (candidates, kind) = fastest_kind(&allowed, hybrid.as_ref(), sys::capacity);
        Some(Cpus {
            allowed,
            candidates,
            kind,
        })
    }

    /// What the report says of a measurement on `cpus`, pinned unless
    /// `not_pinned` says why not.
    pub fn record(&self, cpus: Vec<usize>, not_pinned: Option<NotPinned>) -> CpuRecord {
        CpuRecord {
            cpus,
            not_pinned,
            allowed: self.allowed.len(),
            candidates: self.candidates.len(),
            kind: self.kind.clone(),
        }
    }

    /// Why nothing is pinned in this run even though it was not turned
    /// off: one CPU allowed. `None` when pinning has a choice to make.
    pub fn nothing_to_choose(&self) -> Option<NotPinned> {
        (self.allowed.len() <= 1).then_some(NotPinned::OneCpu)
    }

    #[cfg(feature = "compare")]
    /// The candidates in an order drawn by `next` (a uniform 64-bit
    /// generator): a Fisher–Yates shuffle. Process pair `p` takes the
    /// `p mod n`-th, so the pairs of one test spread over the CPUs evenly
    /// (on two CPUs, one pair on each) instead of landing where a draw with
    /// replacement puts them: where CPUs differ in speed (the two virtual
    /// CPUs of our reference machine differed by up to 1.4x), the mix of
    /// CPUs then moves the estimate less from run to run.
    pub fn shuffled(&self, next: impl FnMut() -> u64) -> Vec<usize> {
        shuffled(&self.candidates, next)
    }
}

/// `cpus` in an order drawn by `next` (a uniform 64-bit generator): a
/// Fisher–Yates shuffle.
pub fn shuffled(cpus: &[usize], mut next: impl FnMut() -> u64) -> Vec<usize> {
    let mut order = cpus.to_vec();
    for i in (1..order.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// Where the calling thread was placed: the CPU it was pinned to, or why
/// it was not (with the CPU it was on, when known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// Held on this CPU.
    Pinned(usize),
    /// Left to the scheduler, for this reason; on this CPU when read.
    Free(NotPinned, Option<usize>),
}

impl Placed {
    /// The CPU and the reason it was not held, as a [`CpuRecord`] takes them.
    pub fn parts(self) -> (Vec<usize>, Option<NotPinned>) {
        match self {
            Placed::Pinned(cpu) => (vec![cpu], None),
            Placed::Free(why, cpu) => (cpu.into_iter().collect(), Some(why)),
        }
    }
}

/// Pins the calling thread for a test measured here: the kernel first
/// places it among `cpus`' candidates (on an idle one where there is one:
/// Linux wakes a thread on an idle CPU of its allowed set), and it is then
/// held on that CPU until it ends. Allocates nothing, so it may run inside
/// a counted pass of `allocs = N`.
pub fn pin_current_thread(cpus: &Cpus) -> Placed {
    if let Some(why) = cpus.nothing_to_choose() {
        return Placed::Free(why, sys::current());
    }
    if cpus.candidates.len() < cpus.allowed.len() {
        if let Err(e) = sys::set_current(&cpus.candidates) {
            return Placed::Free(e, sys::current());
        }
    }
    let Some(cpu) = sys::current() else {
        return Placed::Free(NotPinned::Unsupported, None);
    };
    match sys::set_current(&[cpu]) {
        Ok(()) => Placed::Pinned(cpu),
        Err(e) => Placed::Free(e, Some(cpu)),
    }
}

/// The CPU the calling thread runs on now, when the OS says.
pub fn current_cpu() -> Option<usize> {
    sys::current()
}

/// Holds the calling thread on `cpu` (a thread of a threaded test's team);
/// whether the OS did.
pub fn hold_current_thread(cpu: usize) -> bool {
    sys::set_current(&[cpu]).is_ok()
}

/// Makes the process `cmd` starts held on `cpu` from its first
/// instruction (the affinity is set between fork and exec), so that
/// everything it runs, the test's setup included, runs there. Where that
/// cannot be done the process starts unpinned: [`held_on`] tells.
pub fn start_on(cmd: &mut std::process::Command, cpu: usize) {
    sys::start_on(cmd, cpu);
}

/// The one CPU the process `pid` is held on, or `None` when it may run
/// on several (or its affinity cannot be read).
pub fn held_on(pid: u32) -> Option<usize> {
    sys::held_on(pid)
}

/// Parses the kernel's CPU list format (`0-3,8,10-11`, as in
/// `/sys/devices/system/cpu/online`), ascending and without repeats.
/// `None` for anything else.
// Read from Linux's files alone (cpus/linux.rs): unused elsewhere.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn parse_list(text: &str) -> Option<Vec<usize>> {
    let text = text.trim();
    if text.is_empty() {
        return Some(Vec::new());
    }
    let mut cpus = Vec::new();
    for part in text.split(',') {
        let (low, high) = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let one: usize = part.trim().parse().ok()?;
                (one, one)
            }
        };
        if low > high || high - low > 1 << 16 {
            return None;
        }
        cpus.extend(low..=high);
    }
    cpus.sort_unstable();
    cpus.dedup();
    Some(cpus)
}

/// The fastest kind's CPUs among `allowed`, and how the kind was told
/// apart when the allowed cores differ.
///
/// `hybrid` is the kernel's own split on Intel's hybrid processors (the
/// PMU name and its CPUs, the performance kind `cpu_core` first); without
/// it, `capacity` gives a CPU's relative capacity (`cpu_capacity`, else
/// its maximum frequency), and the CPUs within [`SAME_KIND`] of the
/// largest are the fastest kind. Cores whose capacity is unknown, or that
/// are all alike, are one kind: every allowed CPU, and no kind named.
pub fn fastest_kind(
    allowed: &[usize],
    hybrid: Option<&Vec<(String, Vec<usize>)>>,
    capacity: impl Fn(usize) -> Option<Capacity>,
) -> (Vec<usize>, Option<CoreKind>) {
    let all = || (allowed.to_vec(), None);
    if let Some(kinds) = hybrid {
        for (name, cpus) in kinds {
            let ours: Vec<usize> = allowed
                .iter()
                .copied()
                .filter(|c| cpus.contains(c))
                .collect();
            if !ours.is_empty() {
                if ours.len() == allowed.len() {
                    return all();
                }
                let left_out = allowed.len() - ours.len();
                let kind = CoreKind {
                    name: name.clone(),
                    left_out,
                };
                return (ours, Some(kind));
            }
        }
    }
    let capacities: Option<Vec<Capacity>> = allowed.iter().map(|&c| capacity(c)).collect();
    let Some(capacities) = capacities else {
        return all();
    };
    let Some(top) = capacities.iter().copied().max_by_key(|c| c.value) else {
        return all();
    };
    if top.value == 0 {
        return all();
    }
    let ours: Vec<usize> = allowed
        .iter()
        .zip(&capacities)
        .filter(|(_, c)| c.value as f64 >= SAME_KIND * top.value as f64)
        .map(|(&cpu, _)| cpu)
        .collect();
    if ours.len() == allowed.len() {
        return all();
    }
    let kind = CoreKind {
        name: top.to_string(),
        left_out: allowed.len() - ours.len(),
    };
    (ours, Some(kind))
}

/// What a CPU's capacity was read from, and its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// The reading.
    pub value: u64,
    /// Its source: `cpu_capacity` (the scheduler's relative capacity, 1024
    /// for the largest) or `cpuinfo_max_freq` (kHz).
    pub source: CapacitySource,
}

/// Where a [`Capacity`] was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// Read from Linux's files alone (cpus/linux.rs): never made elsewhere.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub enum CapacitySource {
    /// `/sys/devices/system/cpu/cpuN/cpu_capacity`.
    Scheduler,
    /// `/sys/devices/system/cpu/cpuN/cpufreq/cpuinfo_max_freq`, kHz.
    MaxFrequencyKhz,
}

impl std::fmt::Display for Capacity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.source {
            CapacitySource::Scheduler => write!(f, "capacity {}", self.value),
            CapacitySource::MaxFrequencyKhz => write!(f, "max {} MHz", self.value / 1000),
        }
    }
}

/// The Linux calls behind placement: affinity, the current CPU, core kinds.
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as sys;

#[cfg(not(target_os = "linux"))]
mod sys {
    use super::{Capacity, NotPinned};

    pub(super) fn allowed() -> Option<Vec<usize>> {
        None
    }
    pub(super) fn current() -> Option<usize> {
        None
    }
    pub(super) fn set_current(_: &[usize]) -> Result<(), NotPinned> {
        Err(NotPinned::Unsupported)
    }
    pub(super) fn hybrid_kinds() -> Option<Vec<(String, Vec<usize>)>> {
        None
    }
    pub(super) fn start_on(_: &mut std::process::Command, _: usize) {}
    pub(super) fn held_on(_: u32) -> Option<usize> {
        None
    }
    pub(super) fn capacity(_: usize) -> Option<Capacity> {
        None
    }
}

#[cfg(test)]
mod tests;
