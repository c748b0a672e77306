//! The facts of a run in words, one source for every form that states them:
//! the facts tables of `cargo perfmark report`'s page and the `--verbose`
//! account print the same [`Fact`]s, each in its own layout.
//!
//! A fact is plain text (a form escapes it as it needs). The platform facts
//! follow the `SystemInfo` of Sestoft's "Microbenchmarks in Java and C#"
//! (2016): what a reader needs to judge
//! whether two timings are comparable.

use super::fmt::{fmt_bound, fmt_ns, fmt_percent};
#[cfg(feature = "tool")]
use super::Report;
use super::{Diagnostics, TestReport};
use crate::allocations::Allocations;
use crate::clock::Clock;
use crate::complexity::ComplexityRecord;
use crate::measure::Measurement;
#[cfg(feature = "tool")]
use crate::observe::Coverage;
use crate::stats::{Estimate, Modality, NoiseDiagnosis, Outliers, SerialCorrelation, Summary};

mod baselines;
mod interference;
mod words;
pub use baselines::{
    machine_moved_sentence, other_machine_baselines, other_machine_sentences, table_reasons,
    OTHER_MACHINE_SHORT,
};
use interference::{interference_facts, remeasured_words};
pub use words::verdict_words;
use words::{budget_words, kind_words, stop_words};

/// One fact: what it is about, and its value in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    /// A short lowercase label, e.g. `first call`.
    pub label: &'static str,
    /// The value, e.g. `1.234 µs (cold, timed alone)`.
    pub value: String,
}

impl Fact {
    fn new(label: &'static str, value: String) -> Fact {
        Fact { label, value }
    }
}

/// The machine, the toolchain, the timer and the noise floor of the run.
#[cfg(feature = "tool")]
pub fn platform_facts(report: &Report) -> Vec<Fact> {
    let p = &report.platform;
    let kernel = p
        .kernel
        .as_deref()
        .map(|k| format!(" (kernel {k})"))
        .unwrap_or_default();
    let floor = match report.noise_floor {
        Some(f) if f.is_finite() => format!(
            "{} (relative spread of a task with no intrinsic variation)",
            fmt_percent(f, 2)
        ),
        _ => "not measured".to_owned(),
    };
    vec![
        Fact::new("OS", format!("{}{kernel} · {}", p.os, p.arch)),
        Fact::new(
            "CPU",
            format!("{} · {} logical cores", p.cpu_model, p.cores),
        ),
        Fact::new("compiler", p.rustc.clone()),
        Fact::new(
            "build",
            format!("{} · perfmark {}", p.profile, p.perfmark_version),
        ),
        Fact::new(
            "timer",
            format!(
                "resolution {} · overhead {} per read",
                fmt_ns(p.clock.resolution_ns),
                fmt_ns(p.clock.overhead_ns)
            ),
        ),
        Fact::new("noise floor", floor),
    ]
    .into_iter()
    .chain(
        report
            .interference
            .as_ref()
            .map(|c| Fact::new("interference", coverage_words(c))),
    )
    .collect()
}

/// Which sources the run observed interference from, and the rule.
#[cfg(feature = "tool")]
fn coverage_words(c: &Coverage) -> String {
    if !c.observed {
        return format!("not observed (missing: {})", c.missing.join(", "));
    }
    let mut words = format!(
        "observed from {}; a test is warned when other work takes at least {} and {} of its time",
        c.sources.join(", "),
        fmt_percent(c.lost_share_threshold, 0),
        fmt_ns(c.min_lost_s * 1e9)
    );
    if !c.missing.is_empty() {
        words.push_str(&format!(" (missing: {})", c.missing.join(", ")));
    }
    words
}

/// A test's measurement in detail: how it was sampled, the summary
/// statistics, outliers, budget, and the statistical account (the CI's
/// correction for serial correlation, modes, the spread's CI, the gating
/// error, the noise diagnosis). Empty for a test that was not measured.
pub fn test_facts(t: &TestReport) -> Vec<Fact> {
    let mut facts = Vec::new();
    if let Some(m) = &t.measurement {
        facts.extend(measurement_facts(m));
    }
    if let Some(s) = &t.summary {
        facts.extend(summary_facts(s));
    }
    if let Some(o) = &t.outliers {
        facts.push(outliers_fact(o));
    }
    if let Some(b) = &t.budget {
        facts.push(Fact::new("budget", budget_words(b)));
    }
    if let Some(line) = clock_line(t) {
        facts.push(Fact::new("clock", line));
    }
    if let Some(a) = &t.allocations {
        facts.push(allocations_fact(a));
    }
    if let Some(cpu) = &t.cpu {
        facts.push(Fact::new("cpu", cpu.words()));
    }
    if let Some(p) = &t.processes {
        facts.push(Fact::new("processes", processes_words(p)));
    }
    if let Some(d) = &t.diagnostics {
        facts.extend(diagnostics_facts(d));
    }
    if let Some(i) = &t.interference {
        facts.extend(interference_facts(i));
    }
    if let Some(r) = &t.remeasured {
        facts.push(Fact::new("re-measured", remeasured_words(r)));
    }
    facts.extend(comparison_facts(t));
    facts
}

/// The sample summary's two lines: `summary` (mean, median, sd, cov) and
/// `range` (min, quartiles, max).
fn summary_facts(s: &Summary) -> [Fact; 2] {
    [
        Fact::new(
            "summary",
            format!(
                "mean {} · median {} · sd {} · cov {}",
                fmt_ns(s.mean),
                fmt_ns(s.median),
                fmt_ns(s.sd),
                fmt_percent(s.cov, 2)
            ),
        ),
        Fact::new(
            "range",
            format!(
                "min {} · q1 {} · q3 {} · max {}",
                fmt_ns(s.min),
                fmt_ns(s.q1),
                fmt_ns(s.q3),
                fmt_ns(s.max)
            ),
        ),
    ]
}

/// Tukey's outliers by side and kind.
fn outliers_fact(o: &Outliers) -> Fact {
    Fact::new(
        "Tukey outliers",
        format!(
            "{} in all · low: {} severe, {} mild · high: {} mild, {} severe",
            o.total(),
            o.low_severe,
            o.low_mild,
            o.high_mild,
            o.high_severe
        ),
    )
}

/// The heap allocations counted untimed, and the limit when there is one.
fn allocations_fact(a: &Allocations) -> Fact {
    let limit = a.limit.map(|l| format!(" · limit {l}")).unwrap_or_default();
    Fact::new(
        "heap allocations",
        format!(
            "{} · counted untimed over {} iterations{limit}",
            crate::report::words::allocations::fmt_allocations(a),
            a.iterations
        ),
    )
}

/// What the comparisons add: the complexity fit, the stored rule's
/// detection and the paired comparison's layout sensitivity.
fn comparison_facts(t: &TestReport) -> Vec<Fact> {
    let mut facts = Vec::new();
    if let Some(c) = &t.complexity {
        facts.extend(complexity_facts(c));
    }
    if let Some(c) = t.baseline.as_ref().and_then(|b| b.comparison.as_ref()) {
        facts.push(Fact::new("detection", c.detection()));
    }
    if let Some(line) = t.comparison.as_ref().and_then(|c| c.layout_line()) {
        let value = line.strip_prefix("layout: ").unwrap_or(&line).to_owned();
        facts.push(Fact::new("layout", value));
    }
    facts
}

/// The complexity check's fit: the declared and fitted classes, the
/// exponent and the excess over the declared class with their bounds, each
/// size's time, and each candidate's fit.
fn complexity_facts(c: &ComplexityRecord) -> Vec<Fact> {
    let mut facts = Vec::new();
    let mut growth = format!("declared {}", c.declared);
    if let Some(fitted) = &c.fitted {
        growth.push_str(&format!(" · fitted {fitted}"));
    }
    if let (Some(k), Some(ci), Some(kd)) = (c.exponent, c.exponent_ci, c.declared_exponent) {
        growth.push_str(&format!(
            " · time ∝ n^{k:.3} [{:.3}, {:.3}] ({} CI); the declared class alone n^{kd:.3}",
            ci.low,
            ci.high,
            fmt_percent(ci.confidence, 0)
        ));
    }
    facts.push(Fact::new("growth", growth));
    if let (Some(e), Some(low), Some(detectable)) = (c.excess, c.excess_low, c.detectable_excess) {
        facts.push(Fact::new(
            "beyond the declared class",
            format!(
                "n^{e:+.3}, {} one-sided lower bound n^{low:+.3}; fails above n^{}; these sizes \
                 could catch n^{detectable:+.2} and more",
                fmt_percent(c.confidence, 0),
                c.margin
            ),
        ));
    }
    if let Some(error) = &c.error {
        facts.push(Fact::new("not fitted", error.clone()));
    }
    let mut points = c.points.clone();
    points.sort_by_key(|p| p.size);
    for p in &points {
        facts.push(Fact::new(
            "size",
            format!(
                "n = {}: {} [{}, {}] (`{}`)",
                p.size,
                fmt_ns(p.ns_per_iter),
                fmt_bound(p.ci.low),
                fmt_bound(p.ci.high),
                p.test
            ),
        ));
    }
    for candidate in &c.candidates {
        facts.push(Fact::new(
            "candidate",
            format!(
                "{}: t = {} + {} · g(n), relative rms {}",
                candidate.class,
                fmt_ns(candidate.constant_ns),
                fmt_ns(candidate.coefficient_ns),
                fmt_percent(candidate.relative_rms, 1)
            ),
        ));
    }
    facts
}

/// For a CPU-timed test, the clock and the wall time beside the CPU time:
/// a routine that sleeps or waits shows as wall time far above its CPU time.
pub fn clock_line(t: &TestReport) -> Option<String> {
    if t.measure != Clock::Cpu {
        return None;
    }
    let e = t.estimate.as_ref()?;
    let Some(wall) = t.wall_ns_per_iter else {
        return Some("times are thread CPU time (measure = \"cpu\")".to_owned());
    };
    let share = if wall > 0.0 {
        format!(
            "; on the CPU {:.0}% of its wall time",
            (e.ns_per_iter / wall * 100.0).clamp(0.0, 100.0)
        )
    } else {
        String::new()
    };
    Some(format!(
        "times are thread CPU time (measure = \"cpu\") · wall median {}/iter over the same \
         blocks{share}",
        fmt_ns(wall)
    ))
}

fn measurement_facts(m: &Measurement) -> Vec<Fact> {
    vec![
        Fact::new(
            "samples",
            format!(
                "{} ({} planned from the pilot) × {} iterations each",
                m.samples_ns.len(),
                m.planned_samples,
                m.iters_per_sample
            ),
        ),
        Fact::new(
            "sampling",
            format!("{}: {}", kind_words(m.kind), stop_words(m.stop)),
        ),
        Fact::new(
            "first call",
            format!("{} (cold, timed alone)", fmt_ns(m.first_call_ns)),
        ),
        Fact::new(
            "loop overhead",
            format!(
                "{} per iteration, subtracted from every sample",
                fmt_ns(m.loop_overhead_ns)
            ),
        ),
        Fact::new(
            "warm-up",
            format!(
                "{} in {} blocks, {}",
                fmt_ns(m.warmup_ns),
                m.warmup_blocks,
                if m.warmup_settled {
                    "settled"
                } else {
                    "stopped by the cap before settling"
                }
            ),
        ),
        Fact::new("sampling time", fmt_ns(m.sampling_ns)),
    ]
}

fn diagnostics_facts(d: &Diagnostics) -> Vec<Fact> {
    let mut facts: Vec<Fact> = d
        .verdict_estimate()
        .map(ci_correction_fact)
        .into_iter()
        .collect();
    facts.extend(serial_fact(&d.serial));
    facts.extend(modes_fact(&d.modality));
    facts.push(Fact::new(
        "sd CI",
        format!(
            "{} CI [{}, {}]",
            fmt_percent(d.sd_ci.confidence, 0),
            fmt_bound(d.sd_ci.low),
            fmt_bound(d.sd_ci.high)
        ),
    ));
    facts.push(Fact::new(
        "gating error",
        format!(
            "at most {} per sample from the timer's resolution",
            fmt_percent(d.gating_error, 4)
        ),
    ));
    facts.extend(d.noise.as_ref().map(noise_fact));
    facts
}

/// What serial correlation did to the verdict statistic's CI: the
/// effective sample size, and the CI independent samples would have had.
fn ci_correction_fact(e: &Estimate) -> Fact {
    Fact::new(
        "CI correction",
        format!(
            "effective sample size {:.1} of {} · CI assuming independent samples [{}, {}]",
            e.effective_n,
            e.n,
            fmt_bound(e.naive_ci.low),
            fmt_bound(e.naive_ci.high)
        ),
    )
}

/// The serial-correlation test's figures; none without a lag.
fn serial_fact(s: &SerialCorrelation) -> Option<Fact> {
    let lag1 = s.lags.first()?;
    Some(Fact::new(
        "serial correlation",
        format!(
            "{} · lag-1 autocorrelation {lag1:.3} · {} of {} lags outside ±{:.3} ({:.1} \
             expected by chance) · Ljung–Box p = {:.3}",
            if s.flagged {
                "detected"
            } else {
                "not detected"
            },
            s.outside,
            s.lags.len(),
            s.band,
            s.expected_outside,
            s.ljung_box_p
        ),
    ))
}

/// The modes found, with their weights; none when there are none.
fn modes_fact(modality: &Modality) -> Option<Fact> {
    let modes: Vec<String> = modality
        .modes
        .iter()
        .map(|m| format!("{} ({})", fmt_ns(m.centre), fmt_percent(m.weight, 0)))
        .collect();
    (!modes.is_empty())
        .then(|| Fact::new("modes", format!("{}: {}", modes.len(), modes.join(", "))))
}

/// How much of the variance the machine's noise floor explains.
fn noise_fact(n: &NoiseDiagnosis) -> Fact {
    Fact::new(
        "noise",
        format!(
            "the machine's noise floor ({}) explains {} of the variance; the test's own \
             spread is {}{}",
            fmt_percent(n.floor_cov, 2),
            fmt_percent(n.machine_share, 0),
            fmt_percent(n.intrinsic_cov, 2),
            if n.machine_dominated {
                ": the spread is the machine's"
            } else {
                ""
            }
        ),
    )
}

#[cfg(test)]
mod tests;

/// What `--verbose` says of the spread between processes: `5 processes
/// (this one and 4 workers of 5 slices, 2 looks): 98.10 ns … 104.2 ns;
/// between processes sd 0.8% here, 1.1% with this machine's history (12
/// df); 0.31 s`.
fn processes_words(p: &crate::processes::ProcessSpread) -> String {
    let lo = p.estimates_ns.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = p.estimates_ns.iter().copied().fold(0.0, f64::max);
    let looks = if p.looks == 1 { "look" } else { "looks" };
    format!(
        "{} processes (this one and {} workers of {} slices, {} {looks}): {} … {}; between \
         processes sd {:.1}% here, {:.1}% with this machine's history ({:.0} df); {:.2} s",
        p.estimates_ns.len(),
        p.estimates_ns.len() - 1,
        p.slices,
        p.looks,
        fmt_ns(lo),
        fmt_ns(hi),
        p.tau_own * 100.0,
        p.tau * 100.0,
        p.tau_df,
        p.elapsed_s
    )
}
