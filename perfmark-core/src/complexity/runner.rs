//! The complexity check's own tests: one `NAME::complexity` beside the
//! `NAME::ARG` tests of each function that declares `complexity = "…"`, so
//! that libtest's filters, `--list`, nextest and IDEs see it as a test.
//!
//! It judges the group's measurements: those this run took already (the
//! arguments' tests come first in the run's order), and for the arguments
//! the filters left out, measurements it takes itself. Under nextest, which
//! runs every test in a process of its own, `NAME::complexity` therefore
//! measures every argument again.

use std::time::Instant;

use super::case::ComplexityCase;
use crate::checks::{RunnerSaid, Said, Verdict};
use crate::complexity::check;
use crate::complexity::record::ComplexityPoint;
use crate::complexity::said::{ComplexitySaid, MemberProblem};
use crate::registry::PerfTest;
use crate::report::TestReport;
use crate::runner::outcome::Outcome;
use crate::runner::Runner;

impl Runner {
    /// Runs `case`: each argument's measurement (from `earlier`, this run's
    /// reports so far, or taken now), then the fit and the verdict.
    pub(crate) fn run_complexity(
        &self,
        case: &ComplexityCase,
        noise_floor: Option<f64>,
        earlier: &[TestReport],
    ) -> Outcome {
        let started = Instant::now();
        let first = case.first();
        let mut outcome = Outcome::at(case.name.clone(), first.file, first.line);
        let confidence = first.options.confidence.unwrap_or(self.options.confidence);
        let mut points = Vec::new();
        let mut problems = Vec::new();
        let mut unoptimized = false;
        for &member in &case.members {
            let name = member.name();
            // A measurement of this run is reused when it recorded the
            // argument's size (a paired comparison measures in worker
            // processes, which keep it).
            let measured_now;
            let r = match earlier.iter().find(|r| r.name == name && r.size.is_some()) {
                Some(r) => r,
                None => {
                    measured_now = self.measure_member(member, name.clone(), noise_floor);
                    &measured_now
                }
            };
            match member_point(r, name) {
                Member::Point(point) => points.push(point),
                Member::Unusable(problem) => problems.push(problem),
                Member::Unoptimized => unoptimized = true,
            }
        }
        let judged = &mut outcome.judged;
        if !problems.is_empty() {
            judged.say(Said::Complexity(ComplexitySaid::MembersUnusable(problems)));
        } else if unoptimized {
            judged.not_measured = true;
            judged.say(Said::Runner(RunnerSaid::NotMeasured));
        } else {
            judged.record(check::decide(points, case.declared, confidence));
        }
        // The complexity verdict runs no body: it cannot hang.
        outcome.duration_s = started.elapsed().as_secs_f64();
        outcome
    }

    /// The report of the group's `member`, named `name`, measured now.
    fn measure_member(
        &self,
        member: &PerfTest,
        name: String,
        noise_floor: Option<f64>,
    ) -> TestReport {
        let plan = self.plan_for(member);
        let tolerance = self.tolerance(member);
        self.measure_one(member, name, &plan, tolerance, noise_floor, &[])
            .finish()
            .report
    }
}

/// What a member of a complexity group gives the fit.
enum Member {
    /// Its size and estimate.
    Point(ComplexityPoint),
    /// Nothing the fit can use, for this reason.
    Unusable(MemberProblem),
    /// An unoptimized build's test: not measured.
    Unoptimized,
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
            ci_low: e.ci_low,
            ci_high: e.ci_high,
            confidence: e.confidence,
        }),
        (Some(_), None) => Member::Unusable(MemberProblem::NotMeasured {
            reasons: r.reasons.iter().map(|r| r.text.clone()).collect(),
            name,
        }),
    }
}
