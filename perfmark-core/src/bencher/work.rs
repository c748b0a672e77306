//! Work per iteration, for rates.

/// Work done by one iteration, declared so that rates are reported beside
/// the time (Boyer's `numberActions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tool", derive(serde::Deserialize))]
#[serde(rename_all = "snake_case", tag = "unit", content = "per_iter")]
pub enum Work {
    /// Items (elements, actions, operations) per iteration: reported as items/s.
    Items(u64),
    /// Bytes processed per iteration: reported as GB/s (10^9 bytes).
    Bytes(u64),
    /// Floating-point operations per iteration: reported as MFLOP/s.
    Flops(u64),
}
