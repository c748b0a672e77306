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

use super::case::{ComplexityCase, Member};
use crate::checks::{RunnerSaid, Said};
use crate::complexity::check;
use crate::complexity::said::ComplexitySaid;
use crate::registry::PerfTest;
use crate::runner::outcome::Outcome;
use crate::runner::Runner;

impl Runner {
    /// Runs `case`: each argument's measurement (`member` gives what each
    /// member test, named, offers the fit: from this run's reports so far,
    /// or measured now), then the fit and the verdict.
    pub(crate) fn run_complexity(
        &self,
        case: &ComplexityCase,
        mut member: impl FnMut(&PerfTest, String) -> Member,
    ) -> Outcome {
        let started = Instant::now();
        let first = case.first();
        let mut outcome = Outcome::at(case.name.clone(), first.file, first.line);
        let confidence = first.options.confidence.unwrap_or(self.options.confidence);
        let mut points = Vec::new();
        let mut problems = Vec::new();
        let mut unoptimized = false;
        for &m in &case.members {
            match member(m, m.name()) {
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
}
