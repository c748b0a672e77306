//! TRANSITIONAL (branch j2; deleted at merge): the types of other branches
//! that j2's impls write and read, through their serde derives.

crate::json::bridge::serde_bridge!(
    crate::measure::BudgetLook,
    crate::measure::SampleKind,
    crate::measure::paired::PairedStop,
    crate::stats::Interval,
    crate::stats::compare::Comparison,
    crate::stats::paired::PairedChange,
    crate::report::EstimateRecord,
);
