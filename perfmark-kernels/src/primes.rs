//! Counting primes: by trial division, sequentially and split over threads
//! (Sestoft), and with the sieve of Eratosthenes (the lecture's toy
//! benchmark).
//!
//! Sources: Peter Sestoft's `TestCountPrimes` in "Practical Concurrent and
//! Parallel Programming 4" (2016) (`countSequential` and
//! `countParallelN` over a range of 100,000; about 11 ms sequentially in
//! Java, 4.1× faster at best on 4 cores, "one thread slower than
//! sequential"); "Performance measurement", a university lecture on
//! performance evaluation, which lists the
//! sieve among "toy benchmarks … that the result is known before running".
//! Known answers: π(10,000) = 1229, π(100,000) = 9592, π(1,000,000) = 78,498.

use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;

/// Sestoft's `isPrime`: trial division by 2, 3, 4, … up to √n. Deliberately
/// naive (even divisors are tried too): it is a workload, and its cost
/// grows like √n for primes.
#[inline]
pub fn is_prime(n: u32) -> bool {
    let n = u64::from(n);
    let mut k = 2u64;
    while k * k <= n && n % k != 0 {
        k += 1;
    }
    n >= 2 && k * k > n
}

/// The number of primes in `0..range`, testing each number in turn on the
/// calling thread: `range` calls of [`is_prime`].
pub fn count_primes_sequential(range: u32) -> u64 {
    (0..range).filter(|&n| is_prime(n)).count() as u64
}

/// The number of primes in `0..range`, with the range cut into `threads`
/// contiguous slices (the last takes the remainder), one scoped thread per
/// slice, each adding its primes to a shared atomic counter as it finds
/// them (Sestoft's `LongCounter`). The work is that of
/// [`count_primes_sequential`] plus creating and joining `threads` threads;
/// the slices are unequal in cost (primes further up take longer), as in
/// Sestoft's version.
///
/// # Panics
/// When `threads` is zero, or a thread cannot be created.
pub fn count_primes_parallel(range: u32, threads: u32) -> u64 {
    assert!(
        threads > 0,
        "count_primes_parallel needs at least one thread, got 0"
    );
    let counter = AtomicU64::new(0);
    let per_thread = range / threads;
    thread::scope(|scope| {
        for t in 0..threads {
            let from = per_thread * t;
            let to = if t + 1 == threads {
                range
            } else {
                per_thread * (t + 1)
            };
            let counter = &counter;
            scope.spawn(move || {
                for n in from..to {
                    if is_prime(n) {
                        counter.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    counter.into_inner()
}

/// The sieve of Eratosthenes over `0..=limit`, with its flag array kept
/// between calls so that a call measures the sieving, not the allocation.
#[derive(Debug, Clone)]
pub struct Sieve {
    composite: Vec<bool>,
}

impl Sieve {
    /// A sieve for the numbers up to and including `limit`.
    pub fn new(limit: usize) -> Self {
        Sieve {
            composite: vec![false; limit + 1],
        }
    }

    /// The sieve's limit (the largest number it decides).
    pub fn limit(&self) -> usize {
        self.composite.len() - 1
    }

    /// Clears the flags, sieves, and returns the number of primes up to
    /// the limit. Work: clearing `limit + 1` flags, then about
    /// `limit · ln ln limit` crossings-out, then one pass to count.
    pub fn run(&mut self) -> usize {
        let flags = &mut self.composite;
        flags.fill(false);
        let n = flags.len();
        let mut i = 2;
        while i * i < n {
            if !flags[i] {
                let mut j = i * i;
                while j < n {
                    flags[j] = true;
                    j += i;
                }
            }
            i += 1;
        }
        flags.iter().skip(2).filter(|&&c| !c).count()
    }

    /// Whether `n` was found prime by the last [`run`](Self::run).
    ///
    /// # Panics
    /// When `n` is above the limit.
    pub fn is_prime(&self, n: usize) -> bool {
        n >= 2 && !self.composite[n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_numbers() {
        let primes: Vec<u32> = (0..30).filter(|&n| is_prime(n)).collect();
        assert_eq!(primes, [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
        assert!(is_prime(65_521) && !is_prime(65_535) && is_prime(4_294_967_291));
    }

    #[test]
    fn known_prime_counts() {
        assert_eq!(count_primes_sequential(10_000), 1229);
        for threads in 1..=4 {
            assert_eq!(
                count_primes_parallel(10_000, threads),
                1229,
                "{threads} threads"
            );
        }
        // A range that does not divide evenly, and more threads than numbers.
        assert_eq!(count_primes_parallel(10_007, 3), 1229);
        assert_eq!(count_primes_parallel(10_008, 3), 1230);
        assert_eq!(count_primes_parallel(5, 8), 2);
    }

    #[test]
    fn the_sieve_finds_the_same_primes() {
        let mut sieve = Sieve::new(100_000);
        assert_eq!(sieve.limit(), 100_000);
        assert_eq!(sieve.run(), 9592);
        assert_eq!(sieve.run(), 9592, "a second run starts from clean flags");
        for n in (0..2000).chain(99_000..100_000) {
            assert_eq!(sieve.is_prime(n), is_prime(n as u32), "{n}");
        }
        assert_eq!(Sieve::new(1).run(), 0);
        assert_eq!(Sieve::new(2).run(), 1);
    }
}
