//! Which tests form a complexity group: one `NAME::complexity` test per
//! function that declares `complexity`, whose members are its tests, one
//! per argument.

use perfmark_options::Complexity;

use crate::complexity::record::ComplexityPoint;
use crate::complexity::said::MemberProblem;
use crate::registry::PerfTest;

/// The name a complexity check's test ends with.
pub const SUFFIX: &str = "complexity";

/// The test `NAME::complexity` of one function.
#[derive(Debug, Clone)]
pub(crate) struct ComplexityCase {
    /// `NAME::complexity`.
    pub name: String,
    /// The declared class.
    pub declared: Complexity,
    /// The function's tests, one per argument, in the run's order.
    pub members: Vec<&'static PerfTest>,
}

impl ComplexityCase {
    /// The test that stands for the group where one is needed (source
    /// location, `ignore`, confidence): the options are the attribute's, the
    /// same for every argument.
    pub fn first(&self) -> &'static PerfTest {
        self.members[0]
    }
}

/// The complexity cases of `tests` (sorted by name): one per function that
/// declares `complexity`.
pub(crate) fn cases(tests: &[&'static PerfTest]) -> Vec<ComplexityCase> {
    let mut cases: Vec<ComplexityCase> = Vec::new();
    for &t in tests {
        let Some(declared) = t.options.complexity else {
            continue;
        };
        let name = format!("{}::{SUFFIX}", t.function_name());
        match cases.iter_mut().find(|c| c.name == name) {
            Some(case) => case.members.push(t),
            None => cases.push(ComplexityCase {
                name,
                declared,
                members: vec![t],
            }),
        }
    }
    cases
}

/// What a member of a complexity group gives the fit.
pub(crate) enum Member {
    /// Its size and estimate.
    Point(ComplexityPoint),
    /// Nothing the fit can use, for this reason.
    Unusable(MemberProblem),
    /// An unoptimized build's test: not measured.
    Unoptimized,
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn test(fn_name: &'static str, arg: &'static str, class: Option<Complexity>) -> PerfTest {
        crate::registry::test_with_arg("perf::sorting", fn_name, arg, class)
    }

    static SORT_10: PerfTest = test("sort", "10", Some(Complexity::LinLog));
    static SORT_100: PerfTest = test("sort", "100", Some(Complexity::LinLog));
    static SCAN_10: PerfTest = test("scan", "10", None);

    #[test]
    fn one_case_per_function_that_declares_complexity() {
        let cases = cases(&[&SCAN_10, &SORT_10, &SORT_100]);
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].name, "sorting::sort::complexity");
        assert_eq!(cases[0].declared, Complexity::LinLog);
        let members: Vec<String> = cases[0].members.iter().map(|t| t.name()).collect();
        assert_eq!(members, ["sorting::sort::10", "sorting::sort::100"]);
    }
}
