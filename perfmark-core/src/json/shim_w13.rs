//! TRANSITIONAL: the lead's branch's bridge for types j2 converts.
crate::json::bridge::serde_bridge!(
    crate::checks::BaselineCheck,
    crate::checks::BudgetCheck,
    crate::checks::ComparisonRecord,
    crate::checks::ComplexityCheck,
    crate::checks::MachinePrior,
    crate::checks::RunComparison,
    crate::checks::Verdict,
    crate::observe::Coverage,
    crate::observe::Interference,
    crate::observe::ThreadObservation,
);
