//! The cost of a thread: creating one, starting it, and joining it.
//!
//! Source: Peter Sestoft, "Microbenchmarks in Java and C#" (2016), "Cost of
//! thread creation" and what follows:
//! a thread whose work is 1000 atomic increments of a shared counter,
//! measured as create (1 µs in Java), create + start (49 µs) and
//! create + start + join (73 µs), hence his advice "never create threads
//! for small computations".
//!
//! Rust has no thread object that exists before it runs: spawning creates
//! and starts the OS thread at once. So "create" here is everything that
//! comes before the OS call — the shared counter's reference count, the
//! boxed closure, the `std::thread::Builder` — as Java's `new Thread(…)` is
//! an object without an OS thread; "create + start" adds the spawn (the
//! thread is detached, as Sestoft's is never joined); "create + start +
//! join" waits for the thread's work to finish.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

/// Atomic increments each thread performs (Sestoft's `for (int j=0;
/// j<1000; j++) ai.getAndIncrement()`).
pub const THREAD_WORK_INCREMENTS: u64 = 1000;

/// A thread made but not started: its builder and its boxed work.
pub struct PreparedThread {
    builder: thread::Builder,
    work: Box<dyn FnOnce() + Send + 'static>,
}

impl std::fmt::Debug for PreparedThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedThread").finish_non_exhaustive()
    }
}

/// Makes a thread's builder and work without starting it: one reference
/// count increment and one small heap allocation (the boxed closure). The
/// work, once started, adds [`THREAD_WORK_INCREMENTS`] to `counter`.
pub fn create(counter: &Arc<AtomicU64>) -> PreparedThread {
    let counter = Arc::clone(counter);
    PreparedThread {
        builder: thread::Builder::new(),
        work: Box::new(move || increment_many(&counter)),
    }
}

impl PreparedThread {
    /// Starts the thread (one OS thread creation) and returns its handle.
    /// Dropping the handle detaches the thread, which then finishes on its
    /// own.
    ///
    /// # Panics
    /// When the operating system refuses to create a thread.
    pub fn start(self) -> JoinHandle<()> {
        self.builder
            .spawn(self.work)
            .expect("the operating system refused to create a thread")
    }
}

/// Creates, starts and joins one thread: the whole lifecycle, including its
/// [`THREAD_WORK_INCREMENTS`] increments of `counter`.
///
/// # Panics
/// When the operating system refuses to create a thread, or the thread
/// panics.
pub fn create_start_join(counter: &Arc<AtomicU64>) {
    create(counter)
        .start()
        .join()
        .expect("the counting thread panicked");
}

/// The thread's work alone, run on the calling thread (Sestoft's "Thread's
/// work" row), so it can be subtracted from the lifecycle's time.
pub fn increment_many(counter: &AtomicU64) {
    for _ in 0..THREAD_WORK_INCREMENTS {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_joined_thread_adds_its_increments() {
        let counter = Arc::new(AtomicU64::new(0));
        for _ in 0..3 {
            create_start_join(&counter);
        }
        assert_eq!(counter.load(Ordering::Relaxed), 3 * THREAD_WORK_INCREMENTS);
    }

    #[test]
    fn a_created_thread_does_nothing_until_started() {
        let counter = Arc::new(AtomicU64::new(0));
        let prepared = create(&counter);
        assert_eq!(Arc::strong_count(&counter), 2);
        assert_eq!(counter.load(Ordering::Relaxed), 0);
        prepared.start().join().unwrap();
        assert_eq!(counter.load(Ordering::Relaxed), THREAD_WORK_INCREMENTS);
        assert_eq!(
            Arc::strong_count(&counter),
            1,
            "the thread released its reference"
        );
        drop(create(&counter));
        assert_eq!(counter.load(Ordering::Relaxed), THREAD_WORK_INCREMENTS);
    }

    #[test]
    fn the_work_alone_counts_too() {
        let counter = AtomicU64::new(5);
        increment_many(&counter);
        assert_eq!(counter.load(Ordering::Relaxed), 5 + THREAD_WORK_INCREMENTS);
    }
}
