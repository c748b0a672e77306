//! placeholder
use std::time::Duration;
#[derive(Debug, Clone)]
pub struct Plan;
#[derive(Debug, Clone)]
pub struct Measurement;
#[derive(Debug, Clone, Copy)]
pub enum SampleKind { Loop, Batched, Custom }
pub(crate) fn run(_p: &Plan, _k: SampleKind, mut t: impl FnMut(u64) -> Duration, _e: Option<impl FnMut(u64) -> Duration>) -> Measurement { t(1); Measurement }
