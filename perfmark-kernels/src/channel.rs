//! A tokio channel round trip (with the `tokio` feature): a message sent
//! to a task on the runtime and its answer awaited, the unit of much async
//! code's latency — each round trip is two channel sends, two receives and
//! two switches between tasks.
//!
//! The echo task answers `x` with `x + 1`, so a chain of round trips has a
//! known answer.

use tokio::runtime::Handle;
use tokio::sync::mpsc;

/// Channel messages one [`Echo::round_trip`] sends (one each way).
pub const MESSAGES_PER_ROUND_TRIP: u64 = 2;

/// The caller's ends of two channels to an echo task on a runtime.
#[derive(Debug)]
pub struct Echo {
    to_task: mpsc::Sender<u64>,
    from_task: mpsc::Receiver<u64>,
}

impl Echo {
    /// Spawns the echo task on `runtime`; it runs while the runtime is
    /// driven (a current-thread runtime's while one of its `block_on`
    /// waits) and ends when the `Echo` is dropped.
    pub fn spawn_on(runtime: &Handle) -> Echo {
        let (to_task, mut requests) = mpsc::channel::<u64>(1);
        let (answers, from_task) = mpsc::channel::<u64>(1);
        runtime.spawn(async move {
            while let Some(x) = requests.recv().await {
                if answers.send(x.wrapping_add(1)).await.is_err() {
                    break;
                }
            }
        });
        Echo { to_task, from_task }
    }

    /// Sends `x` to the task and awaits its answer, `x + 1`.
    ///
    /// # Panics
    /// When the task is gone (its runtime was shut down).
    pub async fn round_trip(&mut self, x: u64) -> u64 {
        self.to_task
            .send(x)
            .await
            .expect("the echo task takes requests while its runtime runs");
        self.from_task
            .recv()
            .await
            .expect("the echo task answers while its runtime runs")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_of_round_trips_counts_them() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let mut echo = Echo::spawn_on(runtime.handle());
        let end = runtime.block_on(async {
            let mut x = 40;
            for _ in 0..1000 {
                x = echo.round_trip(x).await;
            }
            x
        });
        assert_eq!(end, 1040);
    }
}
