//! The interference facts of a test: what the OS knew about other work
//! while it was measured, and the re-measurement of a failure it caused.

use super::Fact;
use crate::observe::{Interference, PairedInterference, SideInterference};
use crate::report::fmt::{fmt_ns, fmt_percent};
use crate::report::Remeasured;
use crate::verdicts::Outcome;

/// What the OS knew about other work during the test: the time it took and
/// the figures behind it, each CPU, and in compare mode each side.
pub(super) fn interference_facts(i: &Interference) -> Vec<Fact> {
    let mut facts = vec![Fact::new("interference", thread_parts(i).join(" · "))];
    if !i.cpus.is_empty() {
        let cpus: Vec<String> = i
            .cpus
            .iter()
            .enumerate()
            .map(|(n, c)| {
                format!(
                    "cpu{n} busy {}, steal {}",
                    fmt_percent(c.busy, 0),
                    fmt_percent(c.steal, 1)
                )
            })
            .collect();
        facts.push(Fact::new("CPUs", cpus.join(" · ")));
    }
    if let Some(p) = &i.paired {
        facts.push(Fact::new("interference by side", paired_words(p)));
    }
    facts
}

/// The measuring thread's figures, each a phrase: the time other work
/// took first, then waits, steal, CPU time, switches, migrations and load.
fn thread_parts(i: &Interference) -> Vec<String> {
    let mut parts = vec![lost_words(i)];
    if let (Some(waited), Some(wait)) = (i.waited_s, i.wait_s) {
        parts.push(format!(
            "waited {} for a CPU while other processes ran ({} runnable in all)",
            fmt_ns(waited * 1e9),
            fmt_ns(wait * 1e9)
        ));
    }
    if let Some(stolen) = i.stolen_s {
        parts.push(format!("{} estimated stolen", fmt_ns(stolen * 1e9)));
    }
    if let Some(run) = i.run_s {
        parts.push(format!("{} on a CPU", fmt_ns(run * 1e9)));
    }
    if let (Some(inv), Some(vol)) = (i.involuntary_switches, i.voluntary_switches) {
        parts.push(format!("{inv} involuntary and {vol} voluntary switches"));
    }
    if let Some(m) = i.migrations {
        parts.push(format!("{m} migrations"));
    }
    if let Some(other) = i.other_cpu_s {
        parts.push(format!("other processes used {other:.2} CPU-s"));
    }
    if let Some(steal) = i.steal {
        parts.push(format!("steal {} of all CPUs' time", fmt_percent(steal, 1)));
    }
    if let (Some(a), Some(b)) = (i.load_before, i.load_after) {
        parts.push(format!("load average {a:.2} → {b:.2}"));
    }
    parts
}

/// The share of the measurement other work took, and whether it is past
/// the warning threshold.
fn lost_words(i: &Interference) -> String {
    let mut lost = match i.lost_share {
        Some(_) => format!(
            "{} of {} taken by other work",
            i.lost_percent(),
            fmt_ns(i.wall_s * 1e9)
        ),
        None => format!(
            "time taken by other work not known (no run and wait times) over {}",
            fmt_ns(i.wall_s * 1e9)
        ),
    };
    if i.disturbed {
        lost.push_str(", past the warning threshold");
    }
    lost
}

fn paired_words(p: &PairedInterference) -> String {
    let side = |name: &str, s: &SideInterference| match s.lost_share {
        Some(share) => format!(
            "{name}: {} of its {} slices' {} waiting for a CPU, {} slices past {}",
            fmt_percent(share, 1),
            s.slices,
            fmt_ns(s.wall_s * 1e9),
            s.disturbed_slices,
            fmt_percent(crate::observe::LOST_SHARE_THRESHOLD, 0)
        ),
        None => format!("{name}: not reported by its worker"),
    };
    format!("{} · {}", side("base", &p.base), side("head", &p.head))
}

pub(super) fn remeasured_words(r: &Remeasured) -> String {
    let first = r
        .first_ns_per_iter
        .map(|ns| format!(" at {}/iter", fmt_ns(ns)))
        .unwrap_or_default();
    let outcome = match r.outcome {
        Outcome::Passed => "it passed, and decided",
        Outcome::Failed => "it failed with less interference: the failure stands",
        Outcome::FailedUnderInterference => "it failed under interference again",
        // Only the three above are a re-measurement's outcomes
        // (`Outcome`'s doc).
        other => other.as_str(),
    };
    format!(
        "the first measurement failed{first} while {} of its time was taken by other work; \
         measured again within {}: {outcome}",
        r.first_interference.lost_percent(),
        fmt_ns(r.max_time_s * 1e9)
    )
}
