//! What counting found for one test, decided: the count, the limit, the
//! comparisons with the stored baseline's count and the base build's,
//! each a finding for the runner to fold into the test's report.

use super::count::{
    function_changes, CountComparison, CountSource, FunctionCount, InstructionCount,
    InstructionsSaid,
};
use crate::baseline::StoredInstructions;
use crate::checks::{Finding, Said, Warning};

/// What counting decided about one test, for the runner to fold into its
/// report: the count (none when it failed), one finding per decision, and
/// the warnings.
#[derive(Debug)]
pub(crate) struct Judged {
    pub(crate) count: Option<InstructionCount>,
    pub(crate) findings: Vec<Finding>,
    pub(crate) warnings: Vec<Warning>,
}

/// Decides on what counting found for one test: the count (or why there
/// is none), the test's `limit` check, the comparison with the `stored`
/// baseline's count and with the `base` build's, each a finding of its
/// own. A failed count fails a test with a limit (the limit could not be
/// checked) and is said for the others.
pub(crate) fn judge(
    counted: Result<InstructionCount, String>,
    limit: Option<u64>,
    stored: Option<&StoredInstructions>,
    base: Option<Result<InstructionCount, String>>,
    tolerance: f64,
) -> Judged {
    let mut count = match counted {
        Ok(count) => count,
        Err(error) => {
            return Judged {
                count: None,
                findings: vec![said(InstructionsSaid::NotCounted { limit, error })],
                warnings: Vec::new(),
            };
        }
    };
    let mut findings = Vec::new();
    if count.limit.is_some() {
        findings.push(said(InstructionsSaid::Limit(count.clone())));
    }
    if let Some(stored) = stored {
        let earlier = (stored.per_iter, stored.min_per_iter, stored.max_per_iter);
        let c = compared(&count, earlier, &stored.functions, tolerance);
        findings.push(said(c.clone().said(CountSource::Baseline, count.per_iter)));
        count.baseline = Some(c);
    }
    match base {
        Some(Ok(b)) => {
            let earlier = (b.per_iter as f64, b.min_per_iter, b.max_per_iter);
            let c = compared(&count, earlier, &b.functions, tolerance);
            findings.push(said(c.clone().said(CountSource::Base, count.per_iter)));
            count.base = Some(c);
        }
        Some(Err(error)) => findings.push(said(InstructionsSaid::BaseNotCounted { error })),
        None => {}
    }
    let warnings = (!count.deterministic)
        .then_some(Warning::CountNotDeterministic {
            min_per_iter: count.min_per_iter,
            max_per_iter: count.max_per_iter,
            rounds: count.rounds,
            processes: count.processes,
        })
        .into_iter()
        .collect();
    Judged {
        count: Some(count),
        findings,
        warnings,
    }
}

/// A finding of what counting `said`.
fn said(said: InstructionsSaid) -> Finding {
    Finding::new(Said::Instructions(said))
}

/// `count` compared with an `earlier` one (its median, smallest and
/// largest per iteration, and its per-function table) at `tolerance`.
fn compared(
    count: &InstructionCount,
    earlier: (f64, f64, f64),
    earlier_functions: &[FunctionCount],
    tolerance: f64,
) -> CountComparison {
    let now = (
        count.per_iter as f64,
        count.min_per_iter,
        count.max_per_iter,
    );
    let mut c = CountComparison::decide(now, earlier, tolerance);
    if !count.functions.is_empty() && !earlier_functions.is_empty() {
        c.functions = function_changes(&count.functions, earlier_functions, now.0);
    }
    c
}

impl CountComparison {
    /// What this comparison with a count from `source` says, of a count of
    /// `now_per_iter` per iteration.
    fn said(self, source: CountSource, now_per_iter: u64) -> InstructionsSaid {
        InstructionsSaid::Compared {
            comparison: self,
            source,
            now_per_iter,
        }
    }
}
