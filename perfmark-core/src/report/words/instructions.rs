//! Instruction counts in words: the count on a test's line, the limit's
//! verdict, a comparison with a stored or base count, and whether a paired
//! comparison's time change is the instructions'.

use crate::instructions::count::{
    CountComparison, CountSource, FunctionChange, InstructionCount, InstructionsSaid,
};
use crate::report::fmt::{plain_percent, rounded_percent, signed_percent, signed_percent_with};
use crate::verdicts::Outcome;

/// `1.0123` → `+1.23%`: counts are exact, so two decimals.
fn count_percent(ratio: f64) -> String {
    signed_percent_with(ratio, 2)
}

impl InstructionCount {
    /// `N instr/iter`, with the spread of a count that is not deterministic.
    pub fn words(&self) -> String {
        if self.deterministic {
            format!("{} instr/iter", self.per_iter)
        } else {
            format!(
                "{} instr/iter (not deterministic: {:.0} to {:.0} over {} {})",
                self.per_iter,
                self.min_per_iter,
                self.max_per_iter,
                self.processes,
                if self.processes == 1 {
                    "process"
                } else {
                    "processes"
                }
            )
        }
    }

    /// The limit check's verdict: within the limit, or over it and how it
    /// was counted; `None` without a limit.
    pub fn limit_words(&self) -> Option<String> {
        let (limit, passed) = (self.limit?, self.within_limit()?);
        Some(if passed {
            format!("within instruction limit {limit}: {}", self.words())
        } else {
            format!(
                "over instruction limit {limit}: {}, counted under Callgrind over {} rounds \
                 (setup and the harness excluded)",
                self.words(),
                self.rounds
            )
        })
    }
}

impl CountSource {
    /// `vs baseline` or `vs base`.
    pub fn words(self) -> &'static str {
        match self {
            CountSource::Baseline => "vs baseline",
            CountSource::Base => "vs base",
        }
    }
}

impl CountComparison {
    /// The sentence, for a count of `now_per_iter` now: `instruction count
    /// +1.20% vs baseline (12000 → 12144 instr/iter, tolerance 1%):
    /// regressed beyond the 1% tolerance`.
    pub fn reason(&self, source: CountSource, now_per_iter: u64) -> String {
        let tolerance = plain_percent(self.tolerance);
        let varies = if self.variation > 0.0 {
            format!(
                ", counts ranging over {:.2}% between rounds and processes",
                self.variation * 100.0
            )
        } else {
            String::new()
        };
        let head = format!(
            "instruction count {} {} ({:.0} → {} instr/iter, tolerance {tolerance}{varies})",
            count_percent(self.ratio),
            source.words(),
            self.earlier_per_iter,
            now_per_iter,
        );
        let verdict = match self.change {
            Outcome::Regressed => format!(
                "instruction count {}",
                super::baseline::regressed_beyond(self.tolerance)
            ),
            Outcome::Improved => format!(
                "fewer instructions beyond the {tolerance} tolerance{}",
                match source {
                    CountSource::Baseline => ": consider re-recording the baseline",
                    CountSource::Base => "",
                }
            ),
            Outcome::Unchanged => "no change beyond the tolerance".to_owned(),
            // Only the three above are a count comparison's outcomes
            // (`Outcome`'s doc); any other is said as report.json spells it.
            other => format!("instruction count {}", other.as_str().replace('_', " ")),
        };
        format!(
            "{head}: {verdict}{}",
            where_it_went(&self.functions, now_per_iter)
        )
    }
}

/// The functions named on a test's line: the three largest changes.
const NAMED: usize = 3;

/// `; where: f +24.0 (812.0 → 836.0 instr/iter, 41% of the count), …`:
/// the [`NAMED`] functions whose self counts changed most, each with its
/// counts per iteration and its share of the count now; empty when none
/// changed. A function's code and the code inlined into it count as one
/// here (`report.json` keeps them apart, and keeps them all); the
/// routine's own code, inlined into perfmark's block, is "the routine".
fn where_it_went(functions: &[FunctionChange], now_per_iter: u64) -> String {
    let mut by_function: Vec<(&str, f64, f64)> = Vec::new();
    for f in functions {
        match by_function
            .iter_mut()
            .find(|(name, ..)| *name == f.function)
        {
            Some((_, earlier, now)) => {
                *earlier += f.earlier_per_iter;
                *now += f.now_per_iter;
            }
            None => by_function.push((&f.function, f.earlier_per_iter, f.now_per_iter)),
        }
    }
    by_function.sort_by(|a, b| (b.2 - b.1).abs().total_cmp(&(a.2 - a.1).abs()));
    let named: Vec<String> = by_function
        .iter()
        .take(NAMED)
        .map(|&(function, earlier, now)| {
            let share = if now_per_iter > 0 {
                now / now_per_iter as f64
            } else {
                0.0
            };
            format!(
                "{} {:+.1} ({earlier:.1} → {now:.1} instr/iter, {} of the count)",
                frame_words(function),
                now - earlier,
                rounded_percent(share, 0.1),
            )
        })
        .collect();
    if named.is_empty() {
        return String::new();
    }
    let more = by_function.len().saturating_sub(NAMED);
    format!(
        "; where: {}{}",
        named.join(", "),
        if more > 0 {
            format!(" (and {more} more in report.json)")
        } else {
            String::new()
        }
    )
}

/// A function as the reader knows it: perfmark's own frames hold the
/// routine's code inlined into the block that runs it.
fn frame_words(function: &str) -> String {
    if function.starts_with("perfmark_core::") {
        "the routine (inlined into perfmark's block)".to_owned()
    } else {
        function.to_owned()
    }
}

/// What counting said, in one sentence.
pub fn said(said: &InstructionsSaid) -> String {
    match said {
        #[cfg(feature = "instructions")]
        InstructionsSaid::NotCounted {
            limit: Some(limit),
            error,
        } => not_counted_for(*limit, error),
        #[cfg(feature = "instructions")]
        InstructionsSaid::NotCounted { limit: None, error } => not_counted(error),
        #[cfg(feature = "instructions")]
        InstructionsSaid::Limit(count) => count.limit_words().unwrap_or_default(),
        #[cfg(feature = "instructions")]
        InstructionsSaid::Compared {
            comparison,
            source,
            now_per_iter,
        } => comparison.reason(*source, *now_per_iter),
        #[cfg(feature = "instructions")]
        InstructionsSaid::BaseNotCounted { error } => base_not_counted(error),
        InstructionsSaid::LimitNotChecked { limit } => limit_not_checked(*limit),
    }
}

/// Whether the time change of a paired comparison is the instructions':
/// one line, e.g. "time +9.8%, instructions +0.0%: the same instructions
/// ran slower (memory, layout or the machine), not more work".
/// `time` is the head-over-base time ratio with its interval; `counts` the
/// instruction comparison.
pub fn explained(time: (f64, f64, f64), counts: &CountComparison) -> String {
    let (ratio, low, high) = time;
    if !ratio.is_finite() {
        // An undecided paired comparison may have no time ratio at all.
        return format!(
            "instructions {}: the time has no estimate to set them against",
            signed_percent(counts.ratio)
        );
    }
    let head = format!(
        "time {}, instructions {}",
        signed_percent(ratio),
        signed_percent(counts.ratio)
    );
    // Unchanged, and within the tolerance and the counts' own range: a
    // count that varies between processes moves by its range unchanged.
    let same_work = counts.change == Outcome::Unchanged
        && (counts.ratio - 1.0).abs() <= counts.tolerance.max(0.005) + counts.variation;
    let time_moved = low > 1.0 || high < 1.0;
    let covers = low <= counts.ratio && counts.ratio <= high;
    let why = match (same_work, time_moved, covers) {
        (true, true, _) if low > 1.0 => {
            "the same instructions ran slower (memory, layout or the machine), not more work"
        }
        (true, true, _) => {
            "the same instructions ran faster (memory, layout or the machine), not less work"
        }
        (true, false, _) => "the same work, and no time change the run could see",
        (false, _, true) => "the change in instructions explains the time",
        (false, _, false) if ratio > counts.ratio => {
            "the time grew more than the instructions: more than the extra work (memory, \
             branches or the machine)"
        }
        (false, _, false) => {
            "the time grew less than the instructions (or fell more): the added instructions \
             are cheap, or run in parallel"
        }
    };
    format!("{head}: {why}")
}

#[cfg(feature = "instructions")]
/// Why a test with an instruction `limit` fails when counting failed with
/// `error`.
pub fn not_counted_for(limit: u64, error: &str) -> String {
    format!(
        "instructions not counted, so the limit of {limit} per iteration cannot be checked: \
         {error}"
    )
}

#[cfg(feature = "instructions")]
/// What a test without a limit says when counting failed with `error`.
pub fn not_counted(error: &str) -> String {
    format!("instructions not counted: {error}")
}

#[cfg(feature = "instructions")]
/// What a compared test says when the base build's count failed with
/// `error`.
pub fn base_not_counted(error: &str) -> String {
    format!("the base build's instructions not counted: {error}")
}

#[cfg(feature = "instructions")]
/// The warning of a count whose rounds disagree: from `min_per_iter` to
/// `max_per_iter` per iteration over `rounds`.
pub fn not_deterministic(
    min_per_iter: f64,
    max_per_iter: f64,
    rounds: u32,
    processes: u32,
) -> String {
    format!(
        "the instruction count is not deterministic: {min_per_iter:.0} to {max_per_iter:.0} per \
         iteration over {rounds} rounds in each of {processes} processes; its comparisons allow \
         for that range"
    )
}

#[cfg(feature = "instructions")]
/// The warning of a stored instruction count made by another compiler,
/// `rustc`.
pub fn count_by_other_compiler(rustc: &str) -> String {
    format!("the stored instruction count was made by another compiler ({rustc}): not compared")
}

/// What a test with an instruction `limit` says in a run that does not
/// count.
pub fn limit_not_checked(limit: u64) -> String {
    format!(
        "instruction limit {limit} not checked: instructions are counted only with \
         --instructions (PERFMARK_INSTRUCTIONS=1)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_whether_the_instructions_explain_the_time() {
        let same =
            CountComparison::decide((1000.0, 1000.0, 1000.0), (1000.0, 1000.0, 1000.0), 0.05);
        assert_eq!(
            explained((1.098, 1.05, 1.15), &same),
            "time +9.8%, instructions +0.0%: the same instructions ran slower (memory, layout or \
             the machine), not more work"
        );
        assert!(explained((1.0, 0.97, 1.03), &same).contains("no time change"));
        assert_eq!(
            explained((f64::NAN, f64::NAN, f64::NAN), &same),
            "instructions +0.0%: the time has no estimate to set them against"
        );
        let more =
            CountComparison::decide((1100.0, 1100.0, 1100.0), (1000.0, 1000.0, 1000.0), 0.05);
        assert!(explained((1.098, 1.05, 1.15), &more).contains("explains the time"));
        assert!(explained((1.5, 1.4, 1.6), &more).contains("more than the extra work"));
        // A count that varies 30% between processes, +2.5% at the median:
        // the same work, whatever the time did.
        let varies =
            CountComparison::decide((1025.0, 900.0, 1170.0), (1000.0, 910.0, 1180.0), 0.01);
        assert!(explained((0.8, 0.4, 1.6), &varies).contains("the same work"));
    }
}
