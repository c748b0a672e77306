//! The tests of a run: each registered perf test, and the complexity check
//! of each function that declares `complexity`.

use crate::complexity::case::{self, ComplexityCase};
use crate::registry::PerfTest;

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
