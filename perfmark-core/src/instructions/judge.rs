//! What counting found for one test, decided: the count, the limit, the
//! comparisons with the stored baseline's count and the base build's,
//! each a finding for the runner to fold into the test's report.

use super::count::{CountComparison, CountSource, InstructionCount};
use crate::baseline::StoredInstructions;
use crate::checks::{Finding, Source};
use crate::report::words::instructions as words;

/// What counting decided about one test, for the runner to fold into its
/// report: the count (none when it failed), one finding per decision, and
/// the warnings.
#[derive(Debug)]
pub(crate) struct Judged {
    pub(crate) count: Option<InstructionCount>,
    pub(crate) findings: Vec<Finding>,
    pub(crate) warnings: Vec<String>,
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
        Err(e) => {
            let finding = match limit {
                Some(limit) => Finding::fail(Source::Instructions, words::not_counted_for(limit, &e)),
                None => Finding::pass(Source::Instructions, words::not_counted(&e)),
            };
            return Judged {
                count: None,
                findings: vec![finding],
                warnings: Vec::new(),
            };
        }
    };
    let now = (count.per_iter as f64, count.min_per_iter, count.max_per_iter);
    let mut findings = Vec::new();
    if let Some((passed, reason)) = count.limit_finding() {
        findings.push(Finding {
            passed,
            ..Finding::pass(Source::Instructions, reason)
        });
    }
    // A comparison with an earlier count (median, smallest, largest per
    // iteration), as its finding.
    let compare = |earlier: (f64, f64, f64), source: CountSource, count: &InstructionCount| {
        let c = CountComparison::decide(now, earlier, tolerance);
        let finding = Finding {
            passed: !c.fails(),
            ..Finding::pass(Source::Instructions, c.reason(source, count))
        };
        (c, finding)
    };
    if let Some(stored) = stored {
        let earlier = (stored.per_iter, stored.min_per_iter, stored.max_per_iter);
        let (c, finding) = compare(earlier, CountSource::Baseline, &count);
        findings.push(finding);
        count.baseline = Some(c);
    }
    match base {
        Some(Ok(b)) => {
            let earlier = (b.per_iter as f64, b.min_per_iter, b.max_per_iter);
            let (c, finding) = compare(earlier, CountSource::Base, &count);
            findings.push(finding);
            count.base = Some(c);
        }
        Some(Err(e)) => findings.push(Finding::pass(
            Source::Instructions,
            words::base_not_counted(&e),
        )),
        None => {}
    }
    let mut warnings = Vec::new();
    if !count.deterministic {
        warnings.push(words::not_deterministic(&count));
    }
    Judged {
        count: Some(count),
        findings,
        warnings,
    }
}
