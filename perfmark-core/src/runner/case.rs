//! The tests of a run: each registered perf test, and the complexity check
//! of each function that declares `complexity`.

use crate::checks::Verdict;
use crate::complexity::case::{self, ComplexityCase, Member};
use crate::complexity::record::ComplexityPoint;
use crate::complexity::said::MemberProblem;
use crate::registry::PerfTest;
use crate::report::TestReport;
use crate::runner::Runner;

/// One test of the run: a registered perf test, or the complexity check of
/// a function that declares `complexity` (`NAME::complexity`).
#[derive(Debug)]
pub(super) enum Case {
    Test(&'static PerfTest),
    Complexity(ComplexityCase),
}

impl Case {
    /// The registered tests, sorted by name, each complexity check right
    /// after the last of its function's tests (so that it can judge their
    /// measurements).
    pub(super) fn all(tests: &[&'static PerfTest]) -> Vec<Case> {
        let mut cases: Vec<Case> = tests.iter().map(|&t| Case::Test(t)).collect();
        let mut groups: Vec<(usize, ComplexityCase)> = case::cases(tests)
            .into_iter()
            .map(|group| {
                let last = cases
                    .iter()
                    .rposition(|c| matches!(c, Case::Test(t) if group.members.iter().any(|m| std::ptr::eq(*m, *t))))
                    .unwrap_or(cases.len() - 1);
                (last, group)
            })
            .collect();
        groups.sort_by_key(|(last, _)| std::cmp::Reverse(*last));
        for (last, group) in groups {
            cases.insert(last + 1, Case::Complexity(group));
        }
        cases
    }

    /// The test's name, as libtest's filters see it.
    pub(super) fn name(&self) -> String {
        match self {
            Case::Test(t) => t.name(),
            Case::Complexity(c) => c.name.clone(),
        }
    }

    /// The registered test whose options and location stand for the case.
    pub(super) fn test(&self) -> &'static PerfTest {
        match self {
            Case::Test(t) => t,
            Case::Complexity(c) => c.first(),
        }
    }
}

impl Runner {
    /// What the complexity group's `member`, named `name`, gives the fit:
    /// its measurement in this run, from `earlier` (this run's reports so
    /// far) when one recorded the argument's size (a paired comparison
    /// measures in worker processes, which keep it), else taken now.
    pub(super) fn complexity_member(
        &self,
        member: &PerfTest,
        name: String,
        noise_floor: Option<f64>,
        earlier: &[TestReport],
    ) -> Member {
        match earlier.iter().find(|r| r.name == name && r.size.is_some()) {
            Some(r) => member_point(r, name),
            None => {
                let plan = self.plan_for(member);
                let tolerance = self.tolerance(member);
                let measured = self
                    .measure_one(member, name.clone(), &plan, tolerance, noise_floor, &[])
                    .finish()
                    .report;
                member_point(&measured, name)
            }
        }
    }
}

/// What the member `name`, reported as `r`, gives the fit.
fn member_point(r: &TestReport, name: String) -> Member {
    match (r.size, &r.estimate) {
        _ if r.panic.is_some() => Member::Unusable(MemberProblem::Panicked {
            first_reason: r.reasons.first().map_or("", |r| r.text.as_str()).to_owned(),
            name,
        }),
        (None, _) => Member::Unusable(MemberProblem::WithoutSize { name }),
        (Some(0), _) => Member::Unusable(MemberProblem::SizeZero { name }),
        _ if r.verdict == Verdict::NotMeasured => Member::Unoptimized,
        (Some(size), Some(e)) => Member::Point(ComplexityPoint {
            test: name,
            size,
            ns_per_iter: e.ns_per_iter,
            ci: e.ci,
        }),
        (Some(_), None) => Member::Unusable(MemberProblem::NotMeasured {
            reasons: r.reasons.iter().map(|r| r.text.clone()).collect(),
            name,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Complexity;

    const fn test(fn_name: &'static str, arg: &'static str, class: Option<Complexity>) -> PerfTest {
        crate::registry::test_with_arg("perf", fn_name, arg, class)
    }

    static A_1: PerfTest = test("a", "1", Some(Complexity::Linear));
    static A_2: PerfTest = test("a", "2", Some(Complexity::Linear));
    static AB_1: PerfTest = test("ab", "1", None);
    static A_Z: PerfTest = test("a", "z", Some(Complexity::Linear));
    static B_1: PerfTest = test("b", "1", Some(Complexity::Quadratic));

    #[test]
    fn each_complexity_case_follows_the_last_of_its_tests() {
        // Sorted by name, as the registry gives them.
        let names: Vec<String> = Case::all(&[&A_1, &A_2, &A_Z, &AB_1, &B_1])
            .iter()
            .map(Case::name)
            .collect();
        assert_eq!(
            names,
            [
                "a::1",
                "a::2",
                "a::z",
                "a::complexity",
                "ab::1",
                "b::1",
                "b::complexity"
            ]
        );
    }
}
