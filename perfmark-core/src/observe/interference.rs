//! The figures of one span, derived from two readings, as `report.json`
//! keeps them; the rule that calls a span disturbed (see the module
//! documentation of [`super`]); and the warnings in words.

use serde::{Deserialize, Serialize};

use super::procfs::CpuTicks;
use super::{Reading, LOST_SHARE_THRESHOLD, MIN_LOST};

/// The measuring thread over one span: a test's body, or one slice of a
/// paired comparison (with its warm run).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ThreadObservation {
    /// Wall time of the span, ns.
    pub wall_ns: f64,
    /// Time the thread was on a CPU, ns.
    pub run_ns: Option<f64>,
    /// Time it was runnable but waiting for a CPU, ns.
    pub wait_ns: Option<f64>,
    /// Times the scheduler took its CPU away.
    pub involuntary_switches: Option<u64>,
    /// Times it gave its CPU up (blocked or slept).
    pub voluntary_switches: Option<u64>,
    /// Times it moved to another CPU.
    pub migrations: Option<u64>,
}

impl ThreadObservation {
    /// The thread's figures from `before` to `after` (both read on it).
    pub fn between(before: &Reading, after: &Reading) -> ThreadObservation {
        let (a, b) = (before.sched, after.sched);
        let delta = |x: Option<u64>, y: Option<u64>| Some(y?.saturating_sub(x?));
        ThreadObservation {
            wall_ns: (after.mono_ns - before.mono_ns).max(0.0),
            run_ns: delta(a.map(|s| s.run_ns), b.map(|s| s.run_ns)).map(|n| n as f64),
            wait_ns: delta(a.map(|s| s.wait_ns), b.map(|s| s.wait_ns)).map(|n| n as f64),
            involuntary_switches: delta(
                before.switches.map(|s| s.involuntary),
                after.switches.map(|s| s.involuntary),
            ),
            voluntary_switches: delta(
                before.switches.map(|s| s.voluntary),
                after.switches.map(|s| s.voluntary),
            ),
            migrations: delta(before.migrations, after.migrations),
        }
    }

    /// The share of the span's wall time spent waiting for a CPU.
    pub fn wait_share(&self) -> Option<f64> {
        let wait = self.wait_ns?;
        (self.wall_ns > 0.0).then(|| (wait / self.wall_ns).clamp(0.0, 1.0))
    }

    /// The sum of `spans` (wall times added; each figure added over the
    /// spans that have it, `None` when none has); `None` for no spans.
    pub fn total<'a>(spans: impl IntoIterator<Item = &'a ThreadObservation>) -> Option<Self> {
        fn add<T: std::ops::Add<Output = T>>(x: Option<T>, y: Option<T>) -> Option<T> {
            match (x, y) {
                (Some(x), Some(y)) => Some(x + y),
                (x, y) => x.or(y),
            }
        }
        spans.into_iter().fold(None, |sum: Option<Self>, s| {
            Some(match sum {
                None => *s,
                Some(t) => ThreadObservation {
                    wall_ns: t.wall_ns + s.wall_ns,
                    run_ns: add(t.run_ns, s.run_ns),
                    wait_ns: add(t.wait_ns, s.wait_ns),
                    involuntary_switches: add(t.involuntary_switches, s.involuntary_switches),
                    voluntary_switches: add(t.voluntary_switches, s.voluntary_switches),
                    migrations: add(t.migrations, s.migrations),
                },
            })
        })
    }
}

/// One CPU over a span (`/proc/stat`'s `cpuN` line).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct CpuShare {
    /// Share of the span the CPU was busy (any process, this one included).
    pub busy: f64,
    /// Share of the span the hypervisor stole from it.
    pub steal: f64,
}

/// The machine over a span.
#[derive(Debug, Clone, Default)]
struct MachineSpan {
    /// Stolen ticks over all ticks, all CPUs.
    steal_share: Option<f64>,
    /// Stolen ticks over wanted ticks (busy + stolen), all CPUs.
    stolen_of_wanted: Option<f64>,
    /// CPU time of other processes: busy ticks less this process's CPU
    /// time, ns, at least 0.
    other_cpu_ns: Option<f64>,
    /// This process's CPU time over the span, all its threads, ns.
    own_cpu_ns: Option<f64>,
    cpus: Vec<CpuShare>,
    load_before: Option<f64>,
    load_after: Option<f64>,
}

fn machine_between(before: &Reading, after: &Reading) -> MachineSpan {
    let mut m = MachineSpan {
        load_before: before.load,
        load_after: after.load,
        ..MachineSpan::default()
    };
    let (Some(a), Some(b)) = (&before.cpus, &after.cpus) else {
        return m;
    };
    let all = b.all.since(&a.all);
    let share = |part: u64, of: u64| (of > 0).then(|| part as f64 / of as f64);
    m.steal_share = share(all.steal, all.total());
    m.stolen_of_wanted = share(all.steal, all.busy + all.steal);
    if let (Some(x), Some(y)) = (before.process_cpu_ns, after.process_cpu_ns) {
        let own_ns = y.saturating_sub(x) as f64;
        m.own_cpu_ns = Some(own_ns);
        m.other_cpu_ns = Some((all.busy as f64 * after.tick_ns - own_ns).max(0.0));
    }
    if a.per_cpu.len() == b.per_cpu.len() {
        m.cpus = b
            .per_cpu
            .iter()
            .zip(&a.per_cpu)
            .map(|(y, x): (&CpuTicks, &CpuTicks)| {
                let d = y.since(x);
                CpuShare {
                    busy: share(d.busy, d.total()).unwrap_or(0.0),
                    steal: share(d.steal, d.total()).unwrap_or(0.0),
                }
            })
            .collect();
    }
    m
}

/// One test's interference: what the OS knew about the span of its
/// measurement, and the time other work took from it (`report.json`'s
/// per-test `interference`). The derivation is in [`super`]'s
/// documentation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct Interference {
    /// When the span began, s since the Unix epoch.
    pub started_unix_s: f64,
    /// Wall time of the span, s. In compare mode: of the timed slices of
    /// both sides, added.
    pub wall_s: f64,
    /// The measuring thread's time on a CPU, s.
    pub run_s: Option<f64>,
    /// Its time runnable but waiting for a CPU, s.
    pub wait_s: Option<f64>,
    /// Times the scheduler took its CPU away.
    pub involuntary_switches: Option<u64>,
    /// Times it gave its CPU up.
    pub voluntary_switches: Option<u64>,
    /// Times it moved to another CPU.
    pub migrations: Option<u64>,
    /// Share of all CPUs' time stolen by the hypervisor over the span.
    pub steal: Option<f64>,
    /// CPU time other processes used over the span, all CPUs together, s.
    pub other_cpu_s: Option<f64>,
    /// Each CPU's busy and stolen shares over the span.
    pub cpus: Vec<CpuShare>,
    /// One-minute load average when the span began.
    pub load_before: Option<f64>,
    /// One-minute load average when it ended.
    pub load_after: Option<f64>,
    /// The wait counted as other work's: `wait_s`, at most `other_cpu_s`.
    pub waited_s: Option<f64>,
    /// The thread's time estimated stolen by the hypervisor, s.
    pub stolen_s: Option<f64>,
    /// Time taken by other work: `waited_s + stolen_s`.
    pub lost_s: Option<f64>,
    /// `lost_s / wall_s`.
    pub lost_share: Option<f64>,
    /// Whether the share and the time lost pass the thresholds
    /// ([`LOST_SHARE_THRESHOLD`], [`MIN_LOST`]).
    pub disturbed: bool,
    /// In compare mode, the figures per side and per slice pair.
    pub paired: Option<PairedInterference>,
}

impl Interference {
    /// The interference over the span from `before` to `after`, full
    /// readings both taken on the measuring thread.
    pub fn between(before: &Reading, after: &Reading) -> Interference {
        let thread = ThreadObservation::between(before, after);
        Interference::derive(before.unix_s, &thread, &machine_between(before, after))
    }

    /// Compare mode: the machine from the coordinator's readings `before`
    /// and `after` (the workers are its children and have been waited for,
    /// so their CPU time counts as this process's), the measuring threads
    /// from the workers' slices.
    pub fn of_slices(
        before: &Reading,
        after: &Reading,
        paired: PairedInterference,
    ) -> Interference {
        let slices = paired
            .slice_pairs
            .iter()
            .flat_map(|p| [p.base.as_ref(), p.head.as_ref()])
            .flatten();
        let thread = ThreadObservation::total(slices).unwrap_or_default();
        // The workers take turns: outside its slices a worker's CPU time
        // (start-up, setup, warm-up) did not compete with the slices, so
        // none of the wait is split off to the test's own threads.
        let machine = MachineSpan {
            own_cpu_ns: None,
            ..machine_between(before, after)
        };
        let mut i = Interference::derive(before.unix_s, &thread, &machine);
        i.paired = Some(paired);
        i
    }

    fn derive(started_unix_s: f64, t: &ThreadObservation, m: &MachineSpan) -> Interference {
        let waited_ns = t.wait_ns.map(|w| waited_for_others(w, t.run_ns, m));
        let stolen_ns = match (t.run_ns, m.stolen_of_wanted) {
            (Some(run), Some(f)) => Some(run * f / (1.0 - f.min(0.99))),
            (Some(_), None) => Some(0.0),
            _ => None,
        };
        let lost_ns = waited_ns.map(|w| w + stolen_ns.unwrap_or(0.0));
        let lost_share = lost_ns
            .filter(|_| t.wall_ns > 0.0)
            .map(|l| (l / t.wall_ns).clamp(0.0, 1.0));
        let disturbed = match (lost_ns, lost_share) {
            (Some(l), Some(s)) => disturbed(s, l),
            _ => false,
        };
        let s = |ns: Option<f64>| ns.map(|n| n / 1e9);
        Interference {
            started_unix_s,
            wall_s: t.wall_ns / 1e9,
            run_s: s(t.run_ns),
            wait_s: s(t.wait_ns),
            involuntary_switches: t.involuntary_switches,
            voluntary_switches: t.voluntary_switches,
            migrations: t.migrations,
            steal: m.steal_share,
            other_cpu_s: s(m.other_cpu_ns),
            cpus: m.cpus.clone(),
            load_before: m.load_before,
            load_after: m.load_after,
            waited_s: s(waited_ns),
            stolen_s: s(stolen_ns),
            lost_s: s(lost_ns),
            lost_share,
            disturbed,
            paired: None,
        }
    }
}

/// The part of the measuring thread's run-queue wait `wait_ns` charged to
/// other processes: at most the CPU time they used, and, when the test's
/// own other threads also ran, only their share of the competition. A
/// test whose threads outnumber the cores makes its measuring thread wait
/// for them; on a quiet machine other processes still use a little (a
/// daemon, the parent process, `/proc/stat`'s 10 ms ticks rounding), and
/// without the split the whole of that little would be charged as lost
/// time, enough to warn on quiet test-runs. The split
/// is the even-handed guess: a waiting thread waits for whoever ran, in
/// proportion to how much each ran.
fn waited_for_others(wait_ns: f64, run_ns: Option<f64>, m: &MachineSpan) -> f64 {
    let Some(other) = m.other_cpu_ns else {
        return wait_ns;
    };
    let own_other_threads = match (m.own_cpu_ns, run_ns) {
        (Some(own), Some(run)) => (own - run).max(0.0),
        _ => 0.0,
    };
    let competing = other + own_other_threads;
    let share = if competing > 0.0 {
        other / competing
    } else {
        1.0
    };
    (wait_ns * share).min(other)
}

/// Whether a span that lost `lost_ns` of its time, `share` of it, is
/// disturbed (see [`super`]).
fn disturbed(share: f64, lost_ns: f64) -> bool {
    share >= LOST_SHARE_THRESHOLD && lost_ns >= MIN_LOST.as_nanos() as f64
}

/// One slice pair of a paired comparison: each side's measuring thread
/// over its slice (and the slice's warm run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct SlicePairObservation {
    /// The process pair it ran in (0-based).
    pub pair: usize,
    /// Whether the head's slice ran first.
    pub head_first: bool,
    /// The base's slice (`None` from a worker that does not report it).
    pub base: Option<ThreadObservation>,
    /// The head's slice.
    pub head: Option<ThreadObservation>,
}

/// One side of a paired comparison over all its slices.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct SideInterference {
    /// Slices with figures.
    pub slices: usize,
    /// Their wall time, s.
    pub wall_s: f64,
    /// Time the side's measuring thread waited for a CPU, s.
    pub wait_s: Option<f64>,
    /// Times the scheduler took its CPU away.
    pub involuntary_switches: Option<u64>,
    /// Times it moved to another CPU.
    pub migrations: Option<u64>,
    /// `wait_s / wall_s`: the share of the side's slice time other work
    /// took (no steal: a worker does not read the machine).
    pub lost_share: Option<f64>,
    /// Slices whose own wait share passed [`LOST_SHARE_THRESHOLD`].
    pub disturbed_slices: usize,
}

impl SideInterference {
    fn of<'a>(slices: impl Iterator<Item = &'a ThreadObservation> + Clone) -> SideInterference {
        let total = ThreadObservation::total(slices.clone()).unwrap_or_default();
        SideInterference {
            slices: slices.clone().count(),
            wall_s: total.wall_ns / 1e9,
            wait_s: total.wait_ns.map(|w| w / 1e9),
            involuntary_switches: total.involuntary_switches,
            migrations: total.migrations,
            lost_share: total.wait_share(),
            disturbed_slices: slices
                .filter(|s| s.wait_share().is_some_and(|w| w >= LOST_SHARE_THRESHOLD))
                .count(),
        }
    }
}

/// A paired comparison's interference: per side, and per slice pair so
/// that interference hitting one side more than the other is visible.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct PairedInterference {
    /// The base's slices together.
    pub base: SideInterference,
    /// The head's slices together.
    pub head: SideInterference,
    /// Every slice pair, in the order taken.
    pub slice_pairs: Vec<SlicePairObservation>,
}

impl PairedInterference {
    /// The figures of `slice_pairs`.
    pub fn new(slice_pairs: Vec<SlicePairObservation>) -> PairedInterference {
        PairedInterference {
            base: SideInterference::of(slice_pairs.iter().filter_map(|p| p.base.as_ref())),
            head: SideInterference::of(slice_pairs.iter().filter_map(|p| p.head.as_ref())),
            slice_pairs,
        }
    }

    /// The shares of the head's and the base's slice time other work took
    /// (`(head, base)`), when one of them is past the threshold and at
    /// least that much more than the other: the slices interleave so that
    /// interference common to both cancels in the ratio, but this did not
    /// hit both alike. `None` otherwise.
    pub fn asymmetry(&self) -> Option<(f64, f64)> {
        let (b, h) = (self.base.lost_share?, self.head.lost_share?);
        ((b.max(h) >= LOST_SHARE_THRESHOLD) && (b - h).abs() >= LOST_SHARE_THRESHOLD)
            .then_some((h, b))
    }
}

#[cfg(test)]
mod tests;
