//! The coordinator's side of the protocol: worker processes of the head
//! and the base builds, started, asked for slices, and finished or killed.
//!
//! [`ProcessPair`] is the [`PairDriver`] that the paired policy
//! ([`crate::paired::measure`]) runs over: each process pair is one fresh
//! head worker and one fresh base worker of the same test, so per-process
//! effects (address-space layout, page placement) differ from pair to pair
//! and enter the uncertainty.
//!
//! Both workers of a pair start at the pair's stack and heap offsets and
//! on its CPU ([`Placement`], drawn anew for each pair), so that a
//! placement effect cancels in the pair's ratio; and when a build comes in
//! several links (the same code, its functions in other orders), pair `p`
//! runs link `p mod k` of each side: where code and data land is drawn
//! anew for every pair, so it enters the spread between pairs instead of
//! biasing the ratio.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cpus::Cpus;
use crate::measure::SampleKind;
use crate::observe::ThreadObservation;
use crate::paired::measure::PairDriver;
use crate::worker::protocol::{Reply, Request};
use crate::worker::{
    fresh_seed, splitmix64, Placement, Side, WorkerProcess, DEFAULT_WORKER_TIMEOUT,
};
use crate::Error;

/// The shortest block timed when measuring the harness's own cost.
const OVERHEAD_BLOCK_NS: f64 = 1e6;

/// A [`PairDriver`] over worker processes of two builds of one test, each
/// build in one or more links.
#[derive(Debug)]
pub struct ProcessPair {
    test: String,
    head: Vec<PathBuf>,
    base: Vec<PathBuf>,
    /// The splitmix64 state the workers' placements are drawn from.
    rng: u64,
    current: Option<(WorkerProcess, WorkerProcess)>,
    kind: Option<SampleKind>,
    first_call_ns: Option<f64>,
    started: Instant,
    pairs: usize,
    timeout: Duration,
    /// What the worker of the last slice observed of its thread.
    last_observed: Option<ThreadObservation>,
    /// The CPUs to hold each pair on, one drawn per pair; `None`: the
    /// workers are left to the scheduler.
    cpus: Option<Arc<Cpus>>,
    /// Each opened pair's CPU, when both its workers were held on it.
    pair_cpus: Vec<Option<usize>>,
    /// The candidate CPUs in the order drawn for this test: pair `p` runs
    /// on the `p mod n`-th ([`Cpus::shuffled`]).
    cpu_order: Vec<usize>,
    /// Whether a threaded test's workers may hold their threads on CPUs
    /// of their own.
    hold_team: bool,
}

impl ProcessPair {
    /// A driver for `test` in the head build's links `head` and the base
    /// build's links `base` (one or more each; pair `p` runs link `p mod n`
    /// of a side with `n` links), every worker at a placement drawn anew.
    ///
    /// # Panics
    /// When either side has no link.
    pub fn new(test: &str, head: &[PathBuf], base: &[PathBuf]) -> Self {
        assert!(
            !head.is_empty() && !base.is_empty(),
            "each build needs at least one link"
        );
        ProcessPair {
            test: test.to_owned(),
            head: head.to_vec(),
            base: base.to_vec(),
            rng: fresh_seed(),
            current: None,
            kind: None,
            first_call_ns: None,
            started: Instant::now(),
            pairs: 0,
            timeout: DEFAULT_WORKER_TIMEOUT,
            last_observed: None,
            cpus: None,
            pair_cpus: Vec::new(),
            cpu_order: Vec::new(),
            hold_team: true,
        }
    }

    /// The same driver, holding both workers of each process pair on one
    /// CPU of `cpus`' candidates, taken in turn from an order drawn for
    /// the test ([`Cpus::shuffled`]): a CPU's state
    /// then moves whole pairs, which the spread between pairs takes in,
    /// and never one side of a pair against the other.
    #[must_use]
    pub fn with_cpus(mut self, cpus: Arc<Cpus>) -> Self {
        self.cpus = Some(cpus);
        self
    }

    /// Whether a threaded test's workers may hold their threads on CPUs
    /// of their own (true unless told): false where the run holds none.
    pub fn holding_team(mut self, hold: bool) -> Self {
        self.hold_team = hold;
        self
    }

    /// Each opened pair's CPU: `Some` when both its workers were held on
    /// it, `None` when they ran where the scheduler put them.
    pub fn pair_cpus(&self) -> &[Option<usize>] {
        &self.pair_cpus
    }

    /// The same driver, killing a worker that stays silent for `timeout`
    /// (while it starts, or on one request) instead of
    /// [`DEFAULT_WORKER_TIMEOUT`].
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How the routine is timed (known once a pair is open).
    pub fn kind(&self) -> Option<SampleKind> {
        self.kind
    }

    /// The head's first call in its first process, in ns.
    pub fn first_call_ns(&self) -> Option<f64> {
        self.first_call_ns
    }

    #[cfg(any(test, feature = "internals"))]
    /// Process pairs started so far.
    pub fn pairs(&self) -> usize {
        self.pairs
    }

    /// Finishes the current pair, if any.
    pub fn close(&mut self) -> Result<(), Error> {
        if let Some((head, base)) = self.current.take() {
            let head = head.finish();
            let base = base.finish();
            head?;
            base?;
        }
        Ok(())
    }

    /// Starts a worker of `side` for the next pair (`self.pairs` is the
    /// pair's index), its link chosen by the pair, at the pair's
    /// `placement`.
    fn start(&mut self, side: Side, placement: Placement) -> Result<WorkerProcess, Error> {
        let links = match side {
            Side::Head => &self.head,
            Side::Base => &self.base,
        };
        let path = links[self.pairs % links.len()].clone();
        WorkerProcess::spawn_with(&path, side, Some(&self.test), Some(placement), false)
    }

    fn worker(&mut self, side: Side) -> &mut WorkerProcess {
        let (head, base) = self
            .current
            .as_mut()
            .expect("the paired policy opens a pair before asking for slices");
        match side {
            Side::Head => head,
            Side::Base => base,
        }
    }
}

impl PairDriver for ProcessPair {
    type Error = Error;

    fn open_pair(&mut self) -> Result<(), Error> {
        self.close()?;
        // Both start together; the order alternates so neither side always
        // gets the fresher page cache.
        let (first, second) = if self.pairs.is_multiple_of(2) {
            (Side::Head, Side::Base)
        } else {
            (Side::Base, Side::Head)
        };
        if self.cpu_order.is_empty() {
            if let Some(cpus) = &self.cpus {
                let rng = &mut self.rng;
                self.cpu_order = cpus.shuffled(|| splitmix64(rng));
            }
        }
        let cpu =
            (!self.cpu_order.is_empty()).then(|| self.cpu_order[self.pairs % self.cpu_order.len()]);
        // Both workers of a pair at one placement (stack and heap offsets,
        // CPU): its effect cancels in the pair's ratio, and the next pair
        // draws anew, so that only the links and the builds differ within
        // a pair.
        let placement = Placement {
            cpu,
            hold_team: self.hold_team,
            ..Placement::draw(&mut self.rng)
        };
        let mut a = self.start(first, placement)?;
        let mut b = self.start(second, placement)?;
        let held = [a.held_on(), b.held_on()];
        self.pair_cpus
            .push(cpu.filter(|&c| held == [Some(c), Some(c)]));
        a.greet(self.timeout)?;
        b.greet(self.timeout)?;
        let mut kinds = Vec::with_capacity(2);
        for w in [&mut a, &mut b] {
            let (kind, first_call_ns) = w.ready(self.timeout)?;
            kinds.push(kind);
            if w.side == Side::Head {
                self.first_call_ns.get_or_insert(first_call_ns);
            }
        }
        if kinds[0] != kinds[1] {
            return Err(a.error(format!(
                "times its routine as {:?} but the other build as {:?}: the builds differ in \
                 the test's iter form and cannot be paired",
                kinds[0], kinds[1]
            )));
        }
        self.kind = Some(kinds[0]);
        self.pairs += 1;
        self.current = Some(match first {
            Side::Head => (a, b),
            Side::Base => (b, a),
        });
        Ok(())
    }

    fn slice(&mut self, side: Side, iters: u64, warm_iters: u64) -> Result<Duration, Error> {
        let timeout = self.timeout;
        self.last_observed = None;
        let (took, observed) = self.worker(side).slice(iters, warm_iters, timeout)?;
        self.last_observed = observed;
        Ok(took)
    }

    fn last_observation(&mut self) -> Option<ThreadObservation> {
        self.last_observed.take()
    }

    fn loop_overhead_ns(&mut self) -> Result<Option<f64>, Error> {
        if self.kind == Some(SampleKind::Custom) {
            return Ok(None);
        }
        let timeout = self.timeout;
        let worker = self.worker(Side::Head);
        let request = Request::Overhead {
            min_block_ns: OVERHEAD_BLOCK_NS,
        };
        match worker.ask(&request, timeout)? {
            Reply::Overhead { ns } if ns.is_finite() && ns >= 0.0 => Ok(Some(ns)),
            other => Err(worker.error(format!("answered {other:?} to overhead"))),
        }
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    fn layouts(&self) -> usize {
        // Pair p runs link p mod n of each side: with the same number of
        // links a side, pairs p and p + n share both; with other numbers
        // the cycle of shared links is their least common multiple.
        let (h, b) = (self.head.len(), self.base.len());
        if h == 1 && b == 1 {
            1
        } else {
            h / gcd(h, b) * b
        }
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Drop for ProcessPair {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

#[cfg(test)]
mod tests;
