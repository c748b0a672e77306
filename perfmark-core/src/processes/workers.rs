//! Worker processes of this build, one at a time: the process phase's
//! driver ([`WorkerDriver`]) and the real one over worker processes
//! ([`OwnWorkers`]).

use std::path::PathBuf;
use std::time::Duration;

use crate::worker::Side;
use crate::worker::{fresh_seed, splitmix64, Placement, WorkerProcess};
use crate::Error;

/// What the process phase needs of its workers: one at a time, started
/// fresh, asked for slices, finished. Written as a trait so that the phase
/// is tested on simulated processes whose states are known.
pub trait WorkerDriver {
    /// What can go wrong (a worker that crashed, hung or refused).
    type Error;

    /// Starts a fresh worker of the test, held on `cpu` when given, ready
    /// to serve slices; the previous worker, if any, is finished first.
    fn start(&mut self, cpu: Option<usize>) -> Result<(), Self::Error>;

    /// Runs `warm_iters` iterations untimed (when above 0), then `iters`
    /// timed, in the current worker: the timed block's duration.
    fn slice(&mut self, iters: u64, warm_iters: u64) -> Result<Duration, Self::Error>;

    /// Finishes the current worker: the CPU it was held on, `None` when it
    /// ran where the scheduler put it.
    fn finish(&mut self) -> Result<Option<usize>, Self::Error>;
}

/// Worker processes of the test binary at `path` (this one), each at its
/// own stack and heap offsets, keeping the variables its test may read.
#[derive(Debug)]
pub struct OwnWorkers {
    test: String,
    path: PathBuf,
    rng: u64,
    timeout: Duration,
    current: Option<(WorkerProcess, Option<usize>)>,
    hold_team: bool,
}

impl OwnWorkers {
    /// Workers of `path` measuring `test`, each killed when silent for
    /// `timeout`.
    pub fn new(test: &str, path: PathBuf, timeout: Duration) -> Self {
        OwnWorkers {
            test: test.to_owned(),
            path,
            rng: fresh_seed(),
            timeout,
            current: None,
            hold_team: true,
        }
    }

    /// Whether a threaded test's workers may hold their threads on CPUs
    /// of their own (true unless told): false where the run holds none.
    pub fn holding_team(mut self, hold: bool) -> Self {
        self.hold_team = hold;
        self
    }

    /// A random value for the caller's draws (the CPUs' order).
    pub fn draw(&mut self) -> u64 {
        splitmix64(&mut self.rng)
    }
}

impl WorkerDriver for OwnWorkers {
    type Error = Error;

    fn start(&mut self, cpu: Option<usize>) -> Result<(), Error> {
        self.finish()?;
        let placement = Placement {
            cpu,
            hold_team: self.hold_team,
            ..Placement::draw(&mut self.rng)
        };
        let mut w = WorkerProcess::spawn_with(
            &self.path,
            Side::Head,
            Some(&self.test),
            Some(placement),
            true,
        )?;
        let held = cpu.filter(|&c| w.held_on() == Some(c));
        w.greet(self.timeout)?;
        w.ready(self.timeout)?;
        self.current = Some((w, held));
        Ok(())
    }

    fn slice(&mut self, iters: u64, warm_iters: u64) -> Result<Duration, Error> {
        let timeout = self.timeout;
        let (worker, _) = self
            .current
            .as_mut()
            .expect("the process phase starts a worker before asking for slices");
        worker
            .slice(iters, warm_iters, timeout)
            .map(|(took, _)| took)
    }

    fn finish(&mut self) -> Result<Option<usize>, Error> {
        match self.current.take() {
            Some((worker, held)) => worker.finish().map(|()| held),
            None => Ok(None),
        }
    }
}

impl Drop for OwnWorkers {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}
