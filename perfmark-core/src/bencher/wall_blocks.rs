//! The wall time kept beside a CPU-timed measurement's blocks.

use std::time::Duration;

use crate::measure::driver::CpuBlock;

/// Blocks whose wall time a CPU-timed measurement keeps: the last this many.
const WALL_BLOCKS: usize = 4096;

/// The wall time of the last [`WALL_BLOCKS`] blocks of a CPU-timed
/// measurement, in a ring allocated before the measurement: keeping one is
/// a store, with no call (a `Vec::push` that may grow would put one in the
/// timed closure, which must stay small enough to inline).
#[derive(Debug)]
pub(super) struct WallBlocks {
    /// `(iterations, wall time)` of block `i` at `i % WALL_BLOCKS`.
    ring: Box<[(u64, Duration); WALL_BLOCKS]>,
    /// Blocks kept so far.
    kept: usize,
}

impl WallBlocks {
    pub(super) fn new() -> Self {
        let ring = vec![(0, Duration::ZERO); WALL_BLOCKS]
            .into_boxed_slice()
            .try_into()
            .expect("WALL_BLOCKS entries");
        WallBlocks { ring, kept: 0 }
    }

    /// Keeps the wall time of a block of `n` iterations; returns its CPU
    /// time, the block's time as the policy sees it.
    #[inline(always)]
    pub(super) fn keep(&mut self, n: u64, block: CpuBlock) -> Duration {
        self.ring[self.kept % WALL_BLOCKS] = (n, block.wall);
        self.kept = self.kept.wrapping_add(1);
        block.cpu
    }

    /// The last `k` blocks kept (at most [`WALL_BLOCKS`]), oldest first.
    pub(super) fn last(&self, k: usize) -> impl Iterator<Item = (u64, Duration)> + '_ {
        let k = k.min(self.kept).min(WALL_BLOCKS);
        (self.kept - k..self.kept).map(|i| self.ring[i % WALL_BLOCKS])
    }
}
