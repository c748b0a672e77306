//! Parsers of the `/proc` files the observation reads: pure functions of
//! their text, so they are tested on fixed contents and never on the state
//! of the machine that runs the tests.
//!
//! The formats are the kernel's (Documentation/scheduler/sched-stats.rst,
//! Documentation/filesystems/proc.rst, `man 5 proc`).

/// `/proc/thread-self/schedstat`: the thread's scheduler statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchedStat {
    /// Time spent on a CPU, ns.
    pub run_ns: u64,
    /// Time spent runnable on a run queue, waiting for a CPU, ns.
    pub wait_ns: u64,
    /// Times the thread was given a CPU.
    pub timeslices: u64,
}

/// Parses `/proc/<pid>/task/<tid>/schedstat`: three numbers on one line,
/// `run_ns wait_ns timeslices`. `None` for anything else (a kernel without
/// `CONFIG_SCHED_INFO` has no such file).
pub fn parse_schedstat(text: &str) -> Option<SchedStat> {
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    let run_ns = fields.next()?.ok()?;
    let wait_ns = fields.next()?.ok()?;
    let timeslices = fields.next()?.ok()?;
    Some(SchedStat {
        run_ns,
        wait_ns,
        timeslices,
    })
}

/// A counter of `/proc/thread-self/sched` (lines `key   :   value`), e.g.
/// `se.nr_migrations` or `nr_involuntary_switches`. The file exists only on
/// kernels built with `CONFIG_SCHED_DEBUG`; `None` when the key is absent or
/// not a whole number.
pub fn parse_sched_counter(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim().parse().ok())?
    })
}

/// One `cpu` line of `/proc/stat`, in ticks of `USER_HZ`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTicks {
    /// user + nice + system + irq + softirq: time the CPU did work (guest
    /// time is already inside user and nice).
    pub busy: u64,
    /// idle + iowait: time the CPU had nothing to run.
    pub idle: u64,
    /// Time the hypervisor ran something else while this virtual CPU had
    /// work (steal).
    pub steal: u64,
}

impl CpuTicks {
    /// Every tick of the line: busy, idle and stolen.
    pub fn total(&self) -> u64 {
        self.busy + self.idle + self.steal
    }

    /// `self − earlier`, each field at least 0 (a counter that went back,
    /// as a CPU taken offline and back can make it, counts nothing).
    pub fn since(&self, earlier: &CpuTicks) -> CpuTicks {
        CpuTicks {
            busy: self.busy.saturating_sub(earlier.busy),
            idle: self.idle.saturating_sub(earlier.idle),
            steal: self.steal.saturating_sub(earlier.steal),
        }
    }
}

/// `/proc/stat`'s CPU lines: all CPUs together, then each CPU.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CpuTimes {
    /// The `cpu` line.
    pub all: CpuTicks,
    /// The `cpuN` lines, in the file's order.
    pub per_cpu: Vec<CpuTicks>,
}

/// Parses the `cpu` lines of `/proc/stat`: `cpu user nice system idle
/// iowait irq softirq steal guest guest_nice`. Older kernels stop earlier
/// (no steal before 2.6.11): the missing fields count 0. `None` without an
/// all-CPU line.
pub fn parse_stat(text: &str) -> Option<CpuTimes> {
    let mut all = None;
    let mut per_cpu = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { continue };
        let Some(index) = name.strip_prefix("cpu") else {
            continue;
        };
        let n: Vec<u64> = words.map_while(|w| w.parse().ok()).collect();
        if n.len() < 4 {
            return None;
        }
        let field = |i: usize| n.get(i).copied().unwrap_or(0);
        let ticks = CpuTicks {
            busy: field(0) + field(1) + field(2) + field(5) + field(6),
            idle: field(3) + field(4),
            steal: field(7),
        };
        if index.is_empty() {
            all = Some(ticks);
        } else if index.bytes().all(|b| b.is_ascii_digit()) {
            per_cpu.push(ticks);
        }
    }
    Some(CpuTimes { all: all?, per_cpu })
}

/// The one-minute load average, the first number of `/proc/loadavg`.
pub fn parse_loadavg(text: &str) -> Option<f64> {
    text.split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Contents as a 2-CPU KVM guest on Linux 6.1 writes them.
    const STAT: &str = "\
cpu  705642 27934 50038 2983871 5626 0 2568 1851 0 0
cpu0 332833 14043 21892 1516615 1140 0 1251 922 0 0
cpu1 372809 13891 28146 1467256 4486 0 1317 929 0 0
intr 84538287 0 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0
ctxt 160434893
btime 1763900000
processes 1234567
procs_running 3
procs_blocked 0
softirq 45212937 2 10523521 4 1337826 0 0 2541 16290040 0 17058003
";

    const SCHED: &str = "\
perf (19249, #threads: 1)
-------------------------------------------------------------------
se.exec_start                                :      12345678.901234
se.vruntime                                  :          1234.567890
se.sum_exec_runtime                          :           291.958000
se.nr_migrations                             :                    7
nr_switches                                  :                  412
nr_voluntary_switches                        :                  100
nr_involuntary_switches                      :                  312
se.load.weight                               :              1048576
policy                                       :                    0
prio                                         :                  120
";

    #[test]
    fn schedstat_is_three_numbers() {
        assert_eq!(
            parse_schedstat("291958 69971 1\n"),
            Some(SchedStat {
                run_ns: 291_958,
                wait_ns: 69_971,
                timeslices: 1
            })
        );
        assert_eq!(parse_schedstat(""), None);
        assert_eq!(parse_schedstat("12 x 3"), None);
        assert_eq!(parse_schedstat("12 13"), None);
    }

    #[test]
    fn sched_counters_are_found_by_key() {
        assert_eq!(parse_sched_counter(SCHED, "se.nr_migrations"), Some(7));
        assert_eq!(
            parse_sched_counter(SCHED, "nr_involuntary_switches"),
            Some(312)
        );
        // A prefix of another key is not that key; a fraction is not a count.
        assert_eq!(parse_sched_counter(SCHED, "nr_migrations"), None);
        assert_eq!(parse_sched_counter(SCHED, "se.sum_exec_runtime"), None);
        assert_eq!(parse_sched_counter("", "se.nr_migrations"), None);
    }

    #[test]
    fn stat_gives_busy_idle_and_steal_per_cpu() {
        let t = parse_stat(STAT).unwrap();
        assert_eq!(
            t.all,
            CpuTicks {
                busy: 705_642 + 27_934 + 50_038 + 2_568,
                idle: 2_983_871 + 5_626,
                steal: 1_851,
            }
        );
        assert_eq!(t.per_cpu.len(), 2);
        assert_eq!(t.per_cpu[1].steal, 929);
        assert_eq!(
            t.per_cpu[0].total(),
            332_833 + 14_043 + 21_892 + 1_516_615 + 1_140 + 1_251 + 922
        );
    }

    #[test]
    fn stat_of_an_old_kernel_has_no_steal_and_bad_text_is_refused() {
        let old = "cpu  10 0 5 100\ncpu0 10 0 5 100\n";
        let t = parse_stat(old).unwrap();
        assert_eq!(
            t.all,
            CpuTicks {
                busy: 15,
                idle: 100,
                steal: 0
            }
        );
        assert_eq!(parse_stat("intr 1 2 3\n"), None);
        assert_eq!(parse_stat("cpu 1 2\n"), None);
        assert_eq!(parse_stat(""), None);
    }

    #[test]
    fn ticks_since_never_go_negative() {
        let a = CpuTicks {
            busy: 10,
            idle: 20,
            steal: 5,
        };
        let b = CpuTicks {
            busy: 15,
            idle: 18,
            steal: 9,
        };
        assert_eq!(
            b.since(&a),
            CpuTicks {
                busy: 5,
                idle: 0,
                steal: 4
            }
        );
    }

    #[test]
    fn loadavg_is_its_first_number() {
        assert_eq!(parse_loadavg("0.25 0.14 0.52 2/87 19249\n"), Some(0.25));
        assert_eq!(parse_loadavg("nan 1 1"), None);
        assert_eq!(parse_loadavg(""), None);
    }
}
