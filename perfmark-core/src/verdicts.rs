//! The words a decision is made in, below every feature: a test's
//! [`Verdict`] and the [`Outcome`] of each of its checks.

/// The outcome of a test, as `report.json` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every check passed.
    Pass,
    /// A check failed, or the body panicked.
    Fail,
    /// `ignore`d and not asked for.
    Ignored,
    /// Unoptimized build: run as a smoke test, nothing enforced.
    NotMeasured,
}

impl Verdict {
    /// `report.json`'s spelling: `pass`, `fail`, `ignored`, `not_measured`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
            Verdict::Ignored => "ignored",
            Verdict::NotMeasured => "not_measured",
        }
    }
}

/// What one check of a test decided, as `report.json` spells it: the one
/// vocabulary of every check's outcome. Each check only ever produces its
/// own subset:
///
/// - the budget (`budget.outcome`): [`Under`](Outcome::Under),
///   [`Over`](Outcome::Over), [`InconclusiveUnder`](Outcome::InconclusiveUnder),
///   [`InconclusiveOver`](Outcome::InconclusiveOver);
/// - the stored baseline (`baseline.comparison.verdict`):
///   [`Regressed`](Outcome::Regressed),
///   [`SlowerWithinTolerance`](Outcome::SlowerWithinTolerance),
///   [`NoSignificantChange`](Outcome::NoSignificantChange),
///   [`FasterWithinTolerance`](Outcome::FasterWithinTolerance),
///   [`Improved`](Outcome::Improved);
/// - the paired comparison (`comparison.change`): [`Regressed`](Outcome::Regressed),
///   [`Improved`](Outcome::Improved), [`Unchanged`](Outcome::Unchanged),
///   [`SlowerWithinTolerance`](Outcome::SlowerWithinTolerance),
///   [`FasterWithinTolerance`](Outcome::FasterWithinTolerance),
///   [`Inconclusive`](Outcome::Inconclusive),
///   [`WithinLayoutSpread`](Outcome::WithinLayoutSpread),
///   [`SignDependsOnBuild`](Outcome::SignDependsOnBuild);
/// - the instruction count against an earlier one
///   (`instructions.baseline.change`, `instructions.base.change`):
///   [`Regressed`](Outcome::Regressed), [`Improved`](Outcome::Improved),
///   [`Unchanged`](Outcome::Unchanged);
/// - the re-measurement of a failure under interference
///   (`remeasured.outcome`): [`Passed`](Outcome::Passed),
///   [`Failed`](Outcome::Failed),
///   [`FailedUnderInterference`](Outcome::FailedUnderInterference).
///
/// What it means for the test is one of five, whichever check decided:
/// it fails ([`Outcome::fails`]), it is undecided and passed
/// ([`Outcome::inconclusive`]), it is compared and unchanged beyond the
/// tolerance ([`Outcome::unchanged`]), it improved ([`Outcome::improved`]),
/// or it cleared its budget or its re-measurement (none of these:
/// [`Outcome::Under`], [`Outcome::Passed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Budget: the whole CI is at or below the budget. Passes.
    Under,
    /// Budget: the whole CI is above the budget. Fails.
    Over,
    /// Budget: the CI straddles the budget; the point estimate is at or
    /// below it. Inconclusive, and passed.
    InconclusiveUnder,
    /// Budget: the CI straddles the budget; the point estimate is above
    /// it. Fails.
    InconclusiveOver,
    /// Significantly slower (or, counted, more instructions) beyond the
    /// tolerance: the test fails. Baseline: the ratio above
    /// `1 + tolerance`; paired: the point above `1 + tolerance`; count:
    /// grew beyond the tolerance and the counts' own variation.
    Regressed,
    /// Baseline or paired: significantly slower, but by no more than the
    /// tolerance (paired: the point within it, the interval reaching
    /// beyond it): a clear change, too small to fail.
    SlowerWithinTolerance,
    /// Baseline: no significant difference in either direction.
    NoSignificantChange,
    /// Baseline or paired: significantly faster, but by no more than the
    /// tolerance.
    FasterWithinTolerance,
    /// Significantly faster (or, counted, fewer instructions) beyond the
    /// tolerance: reported (a baseline could be re-recorded), never a
    /// failure. Baseline: the ratio below `1 / (1 + tolerance)`; paired:
    /// the point below it; count: shrank beyond the tolerance.
    Improved,
    /// Paired: the interval lies within `[1 / (1 + tolerance), 1 +
    /// tolerance]`; count: within the tolerance.
    Unchanged,
    /// Paired: neither regressed nor improved nor within the tolerance:
    /// the interval still spans an end of the tolerance band (or there was
    /// no estimate). Passed, and said.
    Inconclusive,
    /// Paired: undecided, nothing significant either way, and the change
    /// is one that the layouts drawn alone make: links were drawn, the
    /// point is within two standard deviations of what `h` drawn layouts
    /// average to (`|ln ratio| ≤ 2·√(2/h)·layout_sd`), and layout is most
    /// of the spread between pairs. Neither failed nor passed: the test's
    /// time depends on where its code lands more than the change moved it.
    WithinLayoutSpread,
    /// Paired: the change's sign depends on the build: one process pair
    /// read the head faster and another slower, each beyond what its own
    /// slices' noise allows
    /// ([`crate::paired::stats::sign_depends_on_the_build`]). Said with
    /// the range, never failed: whether the head is slower is a matter of
    /// where its code and data landed and which processes ran it.
    SignDependsOnBuild,
    /// Re-measurement: it passed; the first failure is put down to the
    /// interference.
    Passed,
    /// Re-measurement: it failed without interference: the failure stands.
    Failed,
    /// Re-measurement: it failed under interference again: the test fails,
    /// and its reasons say that the failure may be the machine's.
    FailedUnderInterference,
}

impl Outcome {
    /// `report.json`'s spelling, snake_case: `under`, `over`,
    /// `inconclusive_under`, …, `failed_under_interference`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Under => "under",
            Outcome::Over => "over",
            Outcome::InconclusiveUnder => "inconclusive_under",
            Outcome::InconclusiveOver => "inconclusive_over",
            Outcome::Regressed => "regressed",
            Outcome::SlowerWithinTolerance => "slower_within_tolerance",
            Outcome::NoSignificantChange => "no_significant_change",
            Outcome::FasterWithinTolerance => "faster_within_tolerance",
            Outcome::Improved => "improved",
            Outcome::Unchanged => "unchanged",
            Outcome::Inconclusive => "inconclusive",
            Outcome::WithinLayoutSpread => "within_layout_spread",
            Outcome::SignDependsOnBuild => "sign_depends_on_build",
            Outcome::Passed => "passed",
            Outcome::Failed => "failed",
            Outcome::FailedUnderInterference => "failed_under_interference",
        }
    }

    /// Whether this outcome fails the test: true exactly for
    /// [`Over`](Outcome::Over), [`InconclusiveOver`](Outcome::InconclusiveOver)
    /// (a straddled budget is decided on the point estimate),
    /// [`Regressed`](Outcome::Regressed), [`Failed`](Outcome::Failed) and
    /// [`FailedUnderInterference`](Outcome::FailedUnderInterference).
    pub fn fails(self) -> bool {
        matches!(
            self,
            Outcome::Over
                | Outcome::InconclusiveOver
                | Outcome::Regressed
                | Outcome::Failed
                | Outcome::FailedUnderInterference
        )
    }

    /// Whether the evidence left the check undecided, and the test passed
    /// it (and is told so): true exactly for
    /// [`InconclusiveUnder`](Outcome::InconclusiveUnder),
    /// [`Inconclusive`](Outcome::Inconclusive),
    /// [`WithinLayoutSpread`](Outcome::WithinLayoutSpread) and
    /// [`SignDependsOnBuild`](Outcome::SignDependsOnBuild). Not
    /// [`InconclusiveOver`](Outcome::InconclusiveOver), which fails. Never
    /// true together with [`Outcome::fails`].
    pub fn inconclusive(self) -> bool {
        matches!(
            self,
            Outcome::InconclusiveUnder
                | Outcome::Inconclusive
                | Outcome::WithinLayoutSpread
                | Outcome::SignDependsOnBuild
        )
    }

    /// Whether a comparison found no change beyond the tolerance, whether
    /// or not a smaller one was significant: true exactly for
    /// [`Unchanged`](Outcome::Unchanged),
    /// [`NoSignificantChange`](Outcome::NoSignificantChange),
    /// [`SlowerWithinTolerance`](Outcome::SlowerWithinTolerance) and
    /// [`FasterWithinTolerance`](Outcome::FasterWithinTolerance). Passes.
    pub fn unchanged(self) -> bool {
        matches!(
            self,
            Outcome::Unchanged
                | Outcome::NoSignificantChange
                | Outcome::SlowerWithinTolerance
                | Outcome::FasterWithinTolerance
        )
    }

    /// Whether a comparison found the test better beyond the tolerance:
    /// true exactly for [`Improved`](Outcome::Improved). Reported, never a
    /// failure.
    pub fn improved(self) -> bool {
        self == Outcome::Improved
    }
}

#[cfg(test)]
mod tests {
    use super::Outcome;

    /// Every variant, once.
    const ALL: [Outcome; 16] = [
        Outcome::Under,
        Outcome::Over,
        Outcome::InconclusiveUnder,
        Outcome::InconclusiveOver,
        Outcome::Regressed,
        Outcome::SlowerWithinTolerance,
        Outcome::NoSignificantChange,
        Outcome::FasterWithinTolerance,
        Outcome::Improved,
        Outcome::Unchanged,
        Outcome::Inconclusive,
        Outcome::WithinLayoutSpread,
        Outcome::SignDependsOnBuild,
        Outcome::Passed,
        Outcome::Failed,
        Outcome::FailedUnderInterference,
    ];

    /// An exhaustive match, so that a new variant must be added to `ALL`.
    fn listed(o: Outcome) -> bool {
        match o {
            Outcome::Under
            | Outcome::Over
            | Outcome::InconclusiveUnder
            | Outcome::InconclusiveOver
            | Outcome::Regressed
            | Outcome::SlowerWithinTolerance
            | Outcome::NoSignificantChange
            | Outcome::FasterWithinTolerance
            | Outcome::Improved
            | Outcome::Unchanged
            | Outcome::Inconclusive
            | Outcome::WithinLayoutSpread
            | Outcome::SignDependsOnBuild
            | Outcome::Passed
            | Outcome::Failed
            | Outcome::FailedUnderInterference => ALL.contains(&o),
        }
    }

    #[test]
    fn every_outcome_is_spelled_as_report_json_spells_it() {
        let spellings = [
            "under",
            "over",
            "inconclusive_under",
            "inconclusive_over",
            "regressed",
            "slower_within_tolerance",
            "no_significant_change",
            "faster_within_tolerance",
            "improved",
            "unchanged",
            "inconclusive",
            "within_layout_spread",
            "sign_depends_on_build",
            "passed",
            "failed",
            "failed_under_interference",
        ];
        for (o, word) in ALL.into_iter().zip(spellings) {
            assert!(listed(o));
            assert_eq!(o.as_str(), word);
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(json, format!("\"{}\"", o.as_str()), "{o:?}");
            assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), o);
        }
    }

    #[test]
    fn exactly_five_outcomes_fail() {
        let failing = [
            Outcome::Over,
            Outcome::InconclusiveOver,
            Outcome::Regressed,
            Outcome::Failed,
            Outcome::FailedUnderInterference,
        ];
        let passing = [
            Outcome::Under,
            Outcome::InconclusiveUnder,
            Outcome::SlowerWithinTolerance,
            Outcome::NoSignificantChange,
            Outcome::FasterWithinTolerance,
            Outcome::Improved,
            Outcome::Unchanged,
            Outcome::Inconclusive,
            Outcome::WithinLayoutSpread,
            Outcome::SignDependsOnBuild,
            Outcome::Passed,
        ];
        assert_eq!(failing.len() + passing.len(), ALL.len());
        for o in ALL {
            assert_eq!(failing.contains(&o), !passing.contains(&o), "{o:?}");
            assert_eq!(o.fails(), failing.contains(&o), "{o:?}");
        }
    }

    /// What each outcome meant for the test before the checks shared one
    /// enum (each check's `call()`), kept: at most one predicate holds, and
    /// none only for a cleared budget or re-measurement.
    #[test]
    fn each_outcome_means_one_thing() {
        use Outcome::*;
        let meanings: [(Outcome, &str); 16] = [
            (Under, "pass"),
            (Over, "fail"),
            (InconclusiveUnder, "inconclusive"),
            (InconclusiveOver, "fail"),
            (Regressed, "fail"),
            (SlowerWithinTolerance, "unchanged"),
            (NoSignificantChange, "unchanged"),
            (FasterWithinTolerance, "unchanged"),
            (Improved, "improved"),
            (Unchanged, "unchanged"),
            (Inconclusive, "inconclusive"),
            (WithinLayoutSpread, "inconclusive"),
            (SignDependsOnBuild, "inconclusive"),
            (Passed, "pass"),
            (Failed, "fail"),
            (FailedUnderInterference, "fail"),
        ];
        for (o, meaning) in meanings {
            let held = [
                (o.fails(), "fail"),
                (o.inconclusive(), "inconclusive"),
                (o.unchanged(), "unchanged"),
                (o.improved(), "improved"),
            ];
            let said: Vec<&str> = held.iter().filter(|h| h.0).map(|h| h.1).collect();
            let want: Vec<&str> = [meaning].into_iter().filter(|m| *m != "pass").collect();
            assert_eq!(said, want, "{o:?}");
        }
    }
}
