use super::*;
use crate::budget::BudgetOutcome;
use crate::checks::Record;

#[test]
fn a_failed_finding_fails_the_test_and_keeps_its_record() {
    let mut report = TestReport::new("t".to_owned(), Verdict::Pass, "x.rs", 1);
    report.record(Finding::pass(Source::Budget, "no budget: measured only"));
    assert_eq!(report.verdict, Verdict::Pass);
    let budget = BudgetRecord {
        budget_ns: 50.0,
        outcome: BudgetOutcome::Over,
        ratio: 1.2,
        look: None,
        may_flip: false,
    };
    report.record(Finding {
        source: Source::Budget,
        passed: false,
        reason: "over budget".to_owned(),
        warnings: vec!["w".to_owned()],
        record: Some(Record::Budget(budget)),
    });
    assert_eq!(report.verdict, Verdict::Fail);
    assert_eq!(
        report.reasons,
        [
            Reason::said(Source::Budget, "no budget: measured only"),
            Reason::failing(Source::Budget, "over budget")
        ]
    );
    assert_eq!(report.warnings, ["w"]);
    assert_eq!(
        report.budget.as_ref().map(|b| b.outcome),
        Some(BudgetOutcome::Over)
    );
    // A later passing check does not undo the failure.
    report.record(Finding::pass(Source::Allocations, "fine"));
    assert_eq!(report.verdict, Verdict::Fail);
    // report.json keeps the words alone.
    let json = serde_json::to_value(&report.reasons).unwrap();
    assert_eq!(
        json,
        serde_json::json!(["no budget: measured only", "over budget", "fine"])
    );
}
