//! What a counting process measured, and the decisions taken on it: the
//! limit, the stored baseline, the base build. Pure: figures in, records
//! out ([`InstructionsSaid`]).

use crate::verdicts::Outcome;

/// Instructions per iteration of one test, counted under Callgrind
/// (`report.json`'s `instructions`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct InstructionCount {
    /// Instructions per iteration, the median over the rounds, rounded to
    /// a whole instruction.
    pub per_iter: u64,
    /// The smallest and largest count per iteration over the rounds, not
    /// rounded: equal when the count is deterministic.
    pub min_per_iter: f64,
    /// See `min_per_iter`.
    pub max_per_iter: f64,
    /// Whether every round counted the same instructions per iteration.
    pub deterministic: bool,
    /// Iterations of the shorter block of a round (the longer runs twice
    /// as many): a round's count per iteration is the difference of the two
    /// blocks over this many iterations, so the blocks' fixed cost cancels.
    pub iters: u64,
    /// Rounds counted in each counting process.
    pub rounds: u32,
    /// Counting processes (each with its own hash seeds and addresses):
    /// two, four when the first two disagree. Reports written before
    /// counts were taken in several processes read as one.
    #[serde(default = "one_process")]
    pub processes: u32,
    /// Estimated cycles per iteration when the cache was simulated:
    /// L1 hits + 5 × last-level hits + 35 × memory reads (the weights of
    /// gungraun and of Itamar Turner-Trauring's estimate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles_per_iter: Option<f64>,
    /// The test's `instructions` limit, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Where the instructions ran: the functions with the largest self
    /// counts per iteration (instructions in their own code, not in what
    /// they call), largest first, at most 32.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<FunctionCount>,
    /// Against the stored baseline's count, when one was stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<CountComparison>,
    /// Against the base build's count, in a paired comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<CountComparison>,
    /// The Valgrind that counted (`valgrind-3.22.0`).
    pub valgrind: String,
    /// Wall time of the counting process, seconds.
    pub elapsed_s: f64,
}

/// The count of one serialized default: a report of one process.
#[cfg(feature = "tool")]
fn one_process() -> u32 {
    1
}

/// One function's part of a count: the instructions per iteration run in
/// its own code (self count), code inlined into it from another file
/// told apart where Callgrind can tell (`inlined_from`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FunctionCount {
    /// The function, demangled, without the symbol's hash.
    pub function: String,
    /// The source file the code was inlined from, when it is code of
    /// another file inlined into `function`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inlined_from: Option<String>,
    /// Self instructions per iteration.
    pub per_iter: f64,
}

/// A function whose self count per iteration changed against an earlier
/// count's table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct FunctionChange {
    /// The function, as in [`FunctionCount`].
    pub function: String,
    /// As in [`FunctionCount`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inlined_from: Option<String>,
    /// Its self count per iteration in the earlier table; 0 when the
    /// earlier table does not hold it (it was new, or below the 32
    /// largest).
    pub earlier_per_iter: f64,
    /// Its self count per iteration now; 0 when this count's table does
    /// not hold it.
    pub now_per_iter: f64,
}

impl FunctionChange {
    /// Instructions per iteration gained (negative: lost).
    pub fn delta(&self) -> f64 {
        self.now_per_iter - self.earlier_per_iter
    }
}

/// The functions whose self counts differ between the tables `now` and
/// `earlier`, largest change first: every change of at least a
/// ten-thousandth of `total` (the count per iteration) and of a hundredth
/// of an instruction, so that what rounding and the counts' own noise
/// leave is not named.
#[cfg(feature = "instructions")]
pub fn function_changes(
    now: &[FunctionCount],
    earlier: &[FunctionCount],
    total: f64,
) -> Vec<FunctionChange> {
    let key = |f: &FunctionCount| (f.function.clone(), f.inlined_from.clone());
    let mut both: std::collections::BTreeMap<_, (f64, f64)> = Default::default();
    for f in earlier {
        both.entry(key(f)).or_default().0 += f.per_iter;
    }
    for f in now {
        both.entry(key(f)).or_default().1 += f.per_iter;
    }
    let floor = (1e-4 * total).max(0.01);
    let mut changes: Vec<FunctionChange> = both
        .into_iter()
        .map(|((function, inlined_from), (e, n))| FunctionChange {
            function,
            inlined_from,
            earlier_per_iter: e,
            now_per_iter: n,
        })
        .filter(|c| c.delta().abs() >= floor)
        .collect();
    changes.sort_by(|a, b| b.delta().abs().total_cmp(&a.delta().abs()));
    changes
}

#[cfg(feature = "instructions")]
/// The per-iteration counts of one block pair, round by round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Round {
    /// Events of the shorter block (`iters` iterations).
    pub short: Events,
    /// Events of the longer block (`2 × iters` iterations).
    pub long: Events,
}

#[cfg(feature = "instructions")]
/// The events a block collected.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Events {
    /// Instructions executed (`Ir`).
    pub instructions: u64,
    /// With the cache simulated: accesses that hit L1, hit the last level,
    /// and went to memory.
    pub cache: Option<CacheHits>,
}

#[cfg(feature = "instructions")]
/// Where a block's memory accesses were served, with the cache simulated.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct CacheHits {
    /// Instruction and data accesses served by L1.
    pub l1: u64,
    /// Served by the last-level cache.
    pub last_level: u64,
    /// Served by memory.
    pub memory: u64,
}

#[cfg(feature = "instructions")]
impl CacheHits {
    /// From Callgrind's cache events (`Ir Dr Dw I1mr D1mr D1mw ILmr DLmr
    /// DLmw`); `None` when any is missing.
    pub fn from_events(totals: &std::collections::BTreeMap<String, u64>) -> Option<CacheHits> {
        let get = |k: &str| totals.get(k).copied();
        let accesses = get("Ir")? + get("Dr")? + get("Dw")?;
        let l1_misses = get("I1mr")? + get("D1mr")? + get("D1mw")?;
        let ll_misses = get("ILmr")? + get("DLmr")? + get("DLmw")?;
        Some(CacheHits {
            l1: accesses.saturating_sub(l1_misses),
            last_level: l1_misses.saturating_sub(ll_misses),
            memory: ll_misses,
        })
    }

    fn cycles(self) -> f64 {
        self.l1 as f64 + 5.0 * self.last_level as f64 + 35.0 * self.memory as f64
    }
}

#[cfg(feature = "instructions")]
/// Summarizes `rounds` of blocks of `iters` and `2 × iters` iterations;
/// `None` when there are no rounds or a longer block counted fewer
/// instructions than its shorter one (the counts are then not of the
/// routine: another thread toggled collection, say).
pub fn summarize(rounds: &[Round], iters: u64) -> Option<(u64, f64, f64, Option<f64>)> {
    let n = iters.max(1) as f64;
    let mut per_iter = Vec::with_capacity(rounds.len());
    let mut cycles = Vec::new();
    for r in rounds {
        let extra = r.long.instructions.checked_sub(r.short.instructions)?;
        per_iter.push(extra as f64 / n);
        if let (Some(long), Some(short)) = (r.long.cache, r.short.cache) {
            cycles.push((long.cycles() - short.cycles()) / n);
        }
    }
    if per_iter.is_empty() {
        return None;
    }
    let median = crate::stats::quantile(&per_iter, 0.5);
    let min = per_iter.iter().copied().fold(f64::INFINITY, f64::min);
    let max = per_iter.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let cycles = (cycles.len() == per_iter.len()).then(|| crate::stats::quantile(&cycles, 0.5));
    Some((median.round().max(0.0) as u64, min, max, cycles))
}

impl InstructionCount {
    /// The count's relative spread over its rounds, `(max − min) / min`:
    /// 0 for a deterministic count.
    pub fn variation(&self) -> f64 {
        if self.deterministic || self.min_per_iter <= 0.0 {
            0.0
        } else {
            (self.max_per_iter - self.min_per_iter) / self.min_per_iter
        }
    }

    /// Whether the count is within its limit, `None` without one. A count
    /// that varies is judged on its smallest round: only instructions
    /// every round executed are surely over the limit.
    pub fn within_limit(&self) -> Option<bool> {
        Some(self.min_per_iter <= self.limit? as f64)
    }
}

/// Where a stored or base count came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum CountSource {
    /// The stored baseline.
    Baseline,
    /// The base build of a paired comparison.
    Base,
}

/// A count compared with an earlier one (`instructions.baseline` and
/// `instructions.base` in `report.json`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
pub struct CountComparison {
    /// The earlier count per iteration (its median).
    pub earlier_per_iter: f64,
    /// This count over the earlier one.
    pub ratio: f64,
    /// The tolerance, as a fraction.
    pub tolerance: f64,
    /// The counts' own variation allowed for beyond the tolerance: the
    /// larger relative range, over rounds and processes, of the two sides
    /// (0 when both are deterministic).
    pub variation: f64,
    /// The decision: [`Outcome::Regressed`] (grew beyond the tolerance and
    /// the counts' own variation: fails), [`Outcome::Improved`] (shrank
    /// beyond it: reported, never failed) or [`Outcome::Unchanged`].
    pub change: Outcome,
    /// Where the instructions went: the functions whose self counts
    /// changed, largest change first ([`function_changes`]); empty when
    /// either side has no table.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<FunctionChange>,
}

impl CountComparison {
    /// Compares `now` (its median, smallest and largest per iteration)
    /// with `earlier`'s. Regressed when the median grew beyond `tolerance`
    /// and even the smallest count now lies beyond the largest earlier one
    /// by more than `tolerance` plus the larger relative range of the two
    /// sides; improved likewise the other way. An exact count (no range)
    /// is judged on the tolerance alone; one that varies between rounds or
    /// processes must clear its own range once more, as a few processes'
    /// range is narrower than the count's whole spread.
    pub fn decide(
        now: (f64, f64, f64),
        earlier: (f64, f64, f64),
        tolerance: f64,
    ) -> CountComparison {
        let (median, low, high) = now;
        let (e_median, e_low, e_high) = earlier;
        let ratio = if e_median > 0.0 {
            median / e_median
        } else if median > 0.0 {
            f64::INFINITY
        } else {
            1.0
        };
        let range = |lo: f64, hi: f64| if lo > 0.0 { (hi - lo) / lo } else { 0.0 };
        let variation = range(low, high).max(range(e_low, e_high));
        let margin = tolerance + variation;
        let change = if low > e_high * (1.0 + margin) && ratio > 1.0 + tolerance {
            Outcome::Regressed
        } else if high < e_low * (1.0 - margin) && ratio < 1.0 - tolerance {
            Outcome::Improved
        } else {
            Outcome::Unchanged
        };
        CountComparison {
            earlier_per_iter: e_median,
            ratio,
            tolerance,
            variation,
            change,
            functions: Vec::new(),
        }
    }

    /// Whether the comparison fails the test.
    pub fn fails(&self) -> bool {
        self.change.fails()
    }
}

/// What counting said of a test.
#[derive(Debug, Clone, PartialEq)]
pub enum InstructionsSaid {
    #[cfg(feature = "instructions")]
    /// Counting failed, for `error`; a test with a `limit` fails, as its
    /// limit could not be checked.
    NotCounted {
        /// The test's `instructions` limit.
        limit: Option<u64>,
        /// Why, as the error displays.
        error: String,
    },
    #[cfg(feature = "instructions")]
    /// The count against its limit (`count.limit`).
    Limit(InstructionCount),
    #[cfg(feature = "instructions")]
    /// The count (of `now_per_iter` per iteration) against an earlier one
    /// from `source`.
    Compared {
        /// The comparison.
        comparison: CountComparison,
        /// Where the earlier count came from.
        source: CountSource,
        /// This count per iteration.
        now_per_iter: u64,
    },
    #[cfg(feature = "instructions")]
    /// The base build's count failed, for `error`.
    BaseNotCounted {
        /// Why, as the error displays.
        error: String,
    },
    /// A test with an instruction limit in a run that does not count.
    LimitNotChecked {
        /// The limit.
        limit: u64,
    },
}

impl InstructionsSaid {
    /// Whether it fails the test: a count over its limit, a regression,
    /// or a count that failed for a test with a limit.
    pub fn fails(&self) -> bool {
        match self {
            #[cfg(feature = "instructions")]
            InstructionsSaid::NotCounted { limit, .. } => limit.is_some(),
            #[cfg(feature = "instructions")]
            InstructionsSaid::Limit(count) => count.within_limit() == Some(false),
            #[cfg(feature = "instructions")]
            InstructionsSaid::Compared { comparison, .. } => comparison.fails(),
            #[cfg(feature = "instructions")]
            InstructionsSaid::BaseNotCounted { .. } => false,
            InstructionsSaid::LimitNotChecked { .. } => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(instructions: u64) -> Events {
        Events {
            instructions,
            cache: None,
        }
    }

    #[test]
    fn the_fixed_cost_of_a_block_cancels() {
        // 37 instructions of harness around each block, 12 per iteration.
        let rounds = [Round {
            short: events(37 + 12 * 100),
            long: events(37 + 12 * 200),
        }; 3];
        assert_eq!(summarize(&rounds, 100), Some((12, 12.0, 12.0, None)));
        let broken = [Round {
            short: events(500),
            long: events(400),
        }];
        assert_eq!(summarize(&broken, 100), None);
        assert_eq!(summarize(&[], 100), None);
    }

    #[test]
    fn estimated_cycles_weigh_where_accesses_were_served() {
        let mut totals = std::collections::BTreeMap::new();
        for (k, v) in [
            ("Ir", 1000),
            ("Dr", 300),
            ("Dw", 100),
            ("I1mr", 10),
            ("D1mr", 20),
            ("D1mw", 0),
            ("ILmr", 1),
            ("DLmr", 4),
            ("DLmw", 0),
        ] {
            totals.insert(k.to_owned(), v);
        }
        let hits = CacheHits::from_events(&totals).unwrap();
        assert_eq!(
            hits,
            CacheHits {
                l1: 1370,
                last_level: 25,
                memory: 5
            }
        );
        assert_eq!(hits.cycles(), 1370.0 + 125.0 + 175.0);
        totals.remove("DLmw");
        assert_eq!(CacheHits::from_events(&totals), None);
    }

    #[test]
    fn an_exact_count_fails_one_percent_over_a_half_percent_tolerance() {
        let c = CountComparison::decide((1010.0, 1010.0, 1010.0), (1000.0, 1000.0, 1000.0), 0.005);
        assert_eq!(c.change, Outcome::Regressed);
        let c = CountComparison::decide((1004.0, 1004.0, 1004.0), (1000.0, 1000.0, 1000.0), 0.005);
        assert_eq!(c.change, Outcome::Unchanged);
        let c = CountComparison::decide((1000.0, 1000.0, 1000.0), (1000.0, 1000.0, 1000.0), 0.0);
        assert_eq!(c.change, Outcome::Unchanged);
        let c = CountComparison::decide((980.0, 980.0, 980.0), (1000.0, 1000.0, 1000.0), 0.01);
        assert_eq!(c.change, Outcome::Improved);
    }

    /// One side of a simulated count: `processes` processes whose counts
    /// per iteration are `truth` × (1 + `spread` × a normal deviate), each
    /// the same over its rounds (a hash seed drawn per process); the
    /// median, smallest and largest.
    fn simulated(
        normal: &mut crate::stats::seeded::SeededNormal,
        truth: f64,
        spread: f64,
        processes: usize,
    ) -> (f64, f64, f64) {
        let counts: Vec<f64> = (0..processes)
            .map(|_| truth * (1.0 + spread * normal.next()))
            .collect();
        let low = counts.iter().copied().fold(f64::INFINITY, f64::min);
        let high = counts.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (crate::stats::quantile(&counts, 0.5), low, high)
    }

    #[test]
    fn unchanged_counts_that_vary_between_processes_do_not_fail() {
        // Four processes a side (a count that varies gets two more), at
        // spreads from a tenth of the tolerance to twenty times it: 10 000
        // A/A comparisons each, at most 1 in 2 000 fails; with the two
        // processes alone it would fail up to 1 in 25.
        let mut normal = crate::stats::seeded::SeededNormal(0x5eed_c0de);
        for spread in [0.001, 0.005, 0.01, 0.05, 0.2] {
            let trials = 10_000;
            let failed = (0..trials)
                .filter(|_| {
                    let now = simulated(&mut normal, 1000.0, spread, 4);
                    let earlier = simulated(&mut normal, 1000.0, spread, 4);
                    CountComparison::decide(now, earlier, 0.01).fails()
                })
                .count();
            assert!(
                failed * 2000 <= trials,
                "spread {spread}: {failed} of {trials} failed"
            );
        }
        // Why four: with two processes a side, a count that varies 5%
        // lies wholly above its earlier range far more often.
        let failed = (0..10_000)
            .filter(|_| {
                let now = simulated(&mut normal, 1000.0, 0.05, 2);
                let earlier = simulated(&mut normal, 1000.0, 0.05, 2);
                CountComparison::decide(now, earlier, 0.01).fails()
            })
            .count();
        assert!(
            failed >= 100,
            "two processes a side: {failed} of 10000 failed"
        );
    }

    #[test]
    fn two_percent_more_fails_and_half_a_percent_passes_at_the_default() {
        let tolerance = perfmark_options::DEFAULT_COUNT_REGRESSION;
        let exact = |v: f64| (v, v, v);
        for base in [10.0, 1000.0, 1e6] {
            let c = CountComparison::decide(exact(base * 1.02), exact(base), tolerance);
            assert_eq!(c.change, Outcome::Regressed, "{base}");
            let c = CountComparison::decide(exact(base * 1.005), exact(base), tolerance);
            assert_eq!(c.change, Outcome::Unchanged, "{base}");
        }
        // A ten-instruction routine: one instruction more is 10%, and fails.
        let c = CountComparison::decide(exact(11.0), exact(10.0), tolerance);
        assert_eq!(c.change, Outcome::Regressed);
    }

    #[test]
    fn the_functions_that_changed_most_come_first() {
        let table = |rows: &[(&str, f64)]| -> Vec<FunctionCount> {
            rows.iter()
                .map(|(f, n)| FunctionCount {
                    function: (*f).to_owned(),
                    inlined_from: None,
                    per_iter: *n,
                })
                .collect()
        };
        let earlier = table(&[("a", 500.0), ("b", 400.0), ("c", 100.0)]);
        let now = table(&[("a", 500.0), ("b", 450.0), ("c", 90.0), ("d", 20.0)]);
        let changes = function_changes(&now, &earlier, 1060.0);
        let named: Vec<(&str, f64)> = changes
            .iter()
            .map(|c| (c.function.as_str(), c.delta()))
            .collect();
        assert_eq!(named, [("b", 50.0), ("d", 20.0), ("c", -10.0)]);
        // Below a ten-thousandth of the count: not named.
        let tiny = table(&[("a", 500.05), ("b", 400.0), ("c", 100.0)]);
        assert!(function_changes(&tiny, &earlier, 1000.0).is_empty());
    }

    #[test]
    fn a_count_that_varies_is_judged_beyond_its_variation() {
        // Rounds of 990..1030 against 1000..1020: +1% at the median, but
        // within what the rounds themselves spread over.
        let c = CountComparison::decide((1010.0, 990.0, 1030.0), (1000.0, 1000.0, 1020.0), 0.005);
        assert_eq!(c.change, Outcome::Unchanged);
        assert!((c.variation - 40.0 / 990.0).abs() < 1e-12, "{c:?}");
        // Beyond the tolerance and the larger range (2%): regressed.
        let c = CountComparison::decide((1100.0, 1090.0, 1110.0), (1000.0, 1000.0, 1020.0), 0.05);
        assert_eq!(c.change, Outcome::Unchanged, "{c:?}");
        let c = CountComparison::decide((1120.0, 1110.0, 1130.0), (1000.0, 1000.0, 1020.0), 0.05);
        assert_eq!(c.change, Outcome::Regressed);
    }
}
