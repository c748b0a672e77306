//! Shared state under contention: what one operation on a lock, an atomic
//! or a channel costs a thread while other threads do the same.
//!
//! Each kernel is one operation a perf test hands to
//! `Bencher::iter_shared`, which runs it on every thread of a
//! `threads = [..]` test at once. On one thread each is the uncontended
//! cost (Sestoft's "cost of taking a free lock"); with more, the time per
//! operation and thread grows as the threads wait for the lock or bounce
//! the cache line that holds the shared word between their cores, which is
//! the reason to measure under contention at all. [`PerThreadWork`] shares
//! nothing, so its time per iteration stays flat: the control.
//!
//! Sources: Peter Sestoft, "Microbenchmarks in Java and C#" (2016), "Cost
//! of taking a free lock"; the OpenJDK JMH samples' `@Threads` and
//! `@Group` benchmarks of contended counters.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::Mutex;
use std::thread::JoinHandle;

/// A counter behind a `Mutex`, shared by every thread that increments it.
#[derive(Debug, Default)]
pub struct LockedCounter {
    count: Mutex<u64>,
    /// Extra work done while the lock is held, in rounds of a dependent
    /// multiply–add (0: the increment alone).
    held_work: u32,
}

impl LockedCounter {
    /// A counter at zero whose critical section is the increment alone.
    pub fn new() -> Self {
        LockedCounter::default()
    }

    /// A counter at zero whose critical section also does `rounds` rounds
    /// of dependent arithmetic: a lock held longer, as when code grows
    /// inside it.
    pub fn holding(rounds: u32) -> Self {
        LockedCounter {
            count: Mutex::new(0),
            held_work: rounds,
        }
    }

    /// Locks, increments (after the held work), unlocks; returns the new
    /// count.
    ///
    /// # Panics
    /// When the mutex is poisoned, which this type never does.
    #[inline]
    pub fn increment(&self) -> u64 {
        let mut count = self.count.lock().expect("the counter's mutex is poisoned");
        let mut x = *count;
        for _ in 0..self.held_work {
            x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
        black_box(x);
        *count += 1;
        *count
    }

    /// The count.
    ///
    /// # Panics
    /// When the mutex is poisoned, which this type never does.
    pub fn count(&self) -> u64 {
        *self.count.lock().expect("the counter's mutex is poisoned")
    }
}

/// A counter every thread adds to with one atomic read-modify-write.
#[derive(Debug, Default)]
pub struct AtomicCounter {
    count: AtomicU64,
}

impl AtomicCounter {
    /// A counter at zero.
    pub fn new() -> Self {
        AtomicCounter::default()
    }

    /// Adds one (`fetch_add`, relaxed); returns the previous count.
    #[inline]
    pub fn increment(&self) -> u64 {
        self.count.fetch_add(1, Ordering::Relaxed)
    }

    /// The count.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }
}

/// Values an [`Mpsc`] holds before a sender waits.
pub const MPSC_CAPACITY: usize = 4096;

/// A multi-producer, single-consumer channel (`std::sync::mpsc`, bounded
/// at [`MPSC_CAPACITY`] values): every thread sends into one sender, and a
/// consumer thread of its own receives and sums what arrives. A sender
/// waits when the channel is full, so its memory stays bounded however
/// far the consumer falls behind. The consumer is a thread beside the
/// test's: on a machine with few CPUs it competes with the senders.
#[derive(Debug)]
pub struct Mpsc {
    sender: Option<SyncSender<u64>>,
    consumer: Option<JoinHandle<(u64, u64)>>,
}

impl Mpsc {
    /// A channel with its consumer started.
    ///
    /// # Panics
    /// When the consumer thread cannot be started.
    pub fn new() -> Self {
        let (sender, receiver) = mpsc::sync_channel::<u64>(MPSC_CAPACITY);
        let consumer = std::thread::Builder::new()
            .name("mpsc-consumer".to_owned())
            .spawn(move || {
                let (mut n, mut sum) = (0u64, 0u64);
                for value in receiver {
                    n += 1;
                    sum = sum.wrapping_add(value);
                }
                (n, sum)
            })
            .expect("the consumer thread starts");
        Mpsc {
            sender: Some(sender),
            consumer: Some(consumer),
        }
    }

    /// Sends `value` to the consumer.
    ///
    /// # Panics
    /// When the consumer has stopped, which it does only in [`Mpsc::finish`].
    #[inline]
    pub fn send(&self, value: u64) {
        self.sender
            .as_ref()
            .expect("the channel is open until finish")
            .send(value)
            .expect("the consumer receives until finish");
    }

    /// Closes the channel and waits for the consumer: how many values it
    /// received and their (wrapping) sum.
    ///
    /// # Panics
    /// When the consumer thread panicked.
    pub fn finish(mut self) -> (u64, u64) {
        self.close()
    }

    fn close(&mut self) -> (u64, u64) {
        drop(self.sender.take());
        self.consumer
            .take()
            .map_or((0, 0), |c| c.join().expect("the consumer does not panic"))
    }
}

impl Default for Mpsc {
    fn default() -> Self {
        Mpsc::new()
    }
}

impl Drop for Mpsc {
    fn drop(&mut self) {
        self.close();
    }
}

/// Work that shares nothing: a sum over a thread's own range. Its time
/// per iteration stays flat as threads are added, as long as each has a
/// CPU of its own.
#[derive(Debug, Clone, Copy)]
pub struct PerThreadWork {
    /// Terms of the sum.
    pub terms: u64,
}

impl PerThreadWork {
    /// The sum of `x * x ^ (x >> 3)` for `x` below `terms` (wrapping): a
    /// dependent chain the optimizer cannot close into a formula.
    #[inline]
    pub fn run(&self) -> u64 {
        let mut sum = 0u64;
        for x in 0..black_box(self.terms) {
            sum = sum.wrapping_add(x.wrapping_mul(x) ^ (x >> 3));
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counters_count_every_increment_of_every_thread() {
        let locked = LockedCounter::holding(3);
        let atomic = AtomicCounter::new();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        locked.increment();
                        atomic.increment();
                    }
                });
            }
        });
        assert_eq!(locked.count(), 4000);
        assert_eq!(atomic.count(), 4000);
    }

    #[test]
    fn the_consumer_receives_every_value_sent() {
        let channel = Mpsc::new();
        std::thread::scope(|s| {
            for t in 0..3u64 {
                let channel = &channel;
                s.spawn(move || {
                    for i in 0..100 {
                        channel.send(t * 1000 + i);
                    }
                });
            }
        });
        let expected: u64 = (0..3u64)
            .flat_map(|t| (0..100).map(move |i| t * 1000 + i))
            .sum();
        assert_eq!(channel.finish(), (300, expected));
    }

    #[test]
    fn per_thread_work_has_its_known_answer() {
        let expected = (0..10u64).fold(0u64, |s, x| s.wrapping_add((x * x) ^ (x >> 3)));
        assert_eq!(PerThreadWork { terms: 10 }.run(), expected);
    }
}
