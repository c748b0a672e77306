//! What the stored-baseline comparisons of a run say once, for the whole
//! run: baselines from another machine, and a machine that moved since the
//! baselines were recorded.

use crate::report::fmt::signed_percent;
use crate::report::{Report, TestReport};

/// What the regression check said of baselines from another machine, each
/// sentence once (they name both machines, and repeat for every test whose
/// baseline came from there): for a table's header, where
/// [`table_reasons`] leaves them out of the rows.
pub fn other_machine_baselines(report: &Report) -> Vec<String> {
    other_machine_sentences(&report.tests)
        .into_iter()
        .map(|(sentence, _)| sentence)
        .collect()
}

/// Each sentence about baselines from another machine among `tests`, once,
/// with how many tests it was said of: for the console's footer.
pub fn other_machine_sentences(tests: &[TestReport]) -> Vec<(String, usize)> {
    let mut sentences: Vec<(String, usize)> = Vec::new();
    for b in tests.iter().filter_map(|t| t.baseline.as_ref()) {
        if let (true, Some(sentence)) = (b.other_machine, &b.not_used) {
            match sentences.iter_mut().find(|(s, _)| s == sentence) {
                Some((_, n)) => *n += 1,
                None => sentences.push((sentence.clone(), 1)),
            }
        }
    }
    sentences
}

/// What a table row says of a baseline from another machine, the whole
/// sentence being in the table's header ([`other_machine_baselines`]).
pub const OTHER_MACHINE_SHORT: &str = "baseline from another machine (see above): not used to fail";

/// A test's reasons as a table row gives them: the sentence about a
/// baseline from another machine shortened to [`OTHER_MACHINE_SHORT`].
pub fn table_reasons(t: &TestReport) -> Vec<String> {
    let not_used = t
        .baseline
        .as_ref()
        .filter(|b| b.other_machine)
        .and_then(|b| b.not_used.as_deref());
    t.reasons
        .iter()
        .map(|r| {
            // A report read back from `report.json` has no sources: the
            // reason is then known by being the baseline's own sentence.
            let said_of_baseline = r.source == Some(crate::checks::Source::Baseline)
                || r.source.is_none() && not_used == Some(r.text.as_str());
            if not_used.is_some() && said_of_baseline {
                OTHER_MACHINE_SHORT.to_owned()
            } else {
                r.text.clone()
            }
        })
        .collect()
}

/// The machine's move since the baselines were recorded, said once for the
/// run when perfmark's machine-state reference measured it beyond the
/// tolerance for any test: those comparisons allowed for the move, so only
/// slowdowns beyond it can show. E.g. `the machine moved -6.1% (-4.8% …
/// -11.4%) since the baselines were recorded, beyond the tolerance for 30
/// tests: their comparisons allowed for it and see only slowdowns above
/// +43.4% … +1879% (--verbose for each); re-record, or compare builds`.
/// `None` when no test's machine moved that far.
pub fn machine_moved_sentence(tests: &[TestReport]) -> Option<String> {
    let moved: Vec<(f64, f64)> = tests
        .iter()
        .filter_map(|t| t.baseline.as_ref()?.comparison.as_ref())
        .filter_map(|c| Some((c, c.machine?)))
        .filter(|(c, m)| m.ratio.ln().abs() > c.tolerance.ln_1p())
        .map(|(c, m)| (m.ratio, 1.0 + c.min_detectable_slowdown))
        .collect();
    if moved.is_empty() {
        return None;
    }
    let (middle, moves) = middle_and_range(moved.iter().map(|m| m.0).collect());
    let moves = if moved.len() == 1 {
        middle
    } else {
        format!("{middle} ({moves})")
    };
    let (_, seen) = middle_and_range(moved.iter().map(|m| m.1).collect());
    let n = moved.len();
    Some(format!(
        "the machine moved {moves} since the baselines were recorded, beyond the tolerance for \
         {n} test{}: {} allowed for it and see{} only slowdowns above {seen} (--verbose for \
         each); re-record, or compare builds",
        if n == 1 { "" } else { "s" },
        if n == 1 {
            "its comparison"
        } else {
            "their comparisons"
        },
        if n == 1 { "s" } else { "" },
    ))
}

/// Ratios (at least one) as signed percents: their middle value (the upper
/// median) and their range, `low … high`, the one value when there is one.
fn middle_and_range(mut ratios: Vec<f64>) -> (String, String) {
    ratios.sort_by(f64::total_cmp);
    let middle = signed_percent(ratios[ratios.len() / 2]);
    let range = match ratios.as_slice() {
        [_] => middle.clone(),
        [low, .., high] => format!("{} … {}", signed_percent(*low), signed_percent(*high)),
        [] => String::new(),
    };
    (middle, range)
}
