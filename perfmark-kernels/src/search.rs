//! Binary search over a sorted table, with a precomputed sequence of varied
//! keys.
//!
//! Source: Peter Sestoft, "Microbenchmarks in Java and C#" (2016), among
//! its pitfalls: "Measure the right thing. Eg when
//! measuring binary search, do not search for the same item repeatedly" —
//! the same key every time takes the same path, which the branch predictor
//! and the caches learn, and a benchmark of it reports a best case no real
//! caller sees. Here the keys come from a pseudo-random sequence made in
//! setup (so the generator's cost is not timed), half of them present in
//! the table and half absent, and no key follows itself.

use crate::rng::SplitMix64;

/// Searches per call of [`BinarySearch::run`] in the perf suite.
pub const SEARCHES_PER_CALL: usize = 1024;

/// Finds `key` in the ascending slice `table`: `Ok(index)` when present,
/// `Err(insertion point)` when not. About log₂(len) + 1 comparisons, each
/// data-dependent.
pub fn binary_search(table: &[u32], key: u32) -> Result<usize, usize> {
    let (mut lo, mut hi) = (0usize, table.len());
    // Invariant: table[..lo] < key, table[hi..] > key.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let v = table[mid];
        if v < key {
            lo = mid + 1;
        } else if v > key {
            hi = mid;
        } else {
            return Ok(mid);
        }
    }
    Err(lo)
}

/// A table of the even numbers `0, 2, …, 2(n−1)` and a sequence of keys to
/// look up in it.
#[derive(Debug, Clone)]
pub struct BinarySearch {
    table: Vec<u32>,
    keys: Vec<u32>,
}

impl BinarySearch {
    /// A table of `n` even numbers and `searches` keys drawn from `seed`,
    /// uniform over `0..2n` (so about half are even, hence present), each
    /// different from the one before it.
    ///
    /// # Panics
    /// When `n` is 0, or `2n` does not fit in `u32`.
    pub fn new(n: usize, searches: usize, seed: u64) -> Self {
        assert!(n > 0, "the table needs at least one element");
        let span = u32::try_from(2 * n).expect("2n must fit in u32");
        let table: Vec<u32> = (0..span).step_by(2).collect();
        let mut rng = SplitMix64::new(seed);
        let mut keys = Vec::with_capacity(searches);
        while keys.len() < searches {
            let key = rng.below(u64::from(span)) as u32;
            if keys.last() != Some(&key) {
                keys.push(key);
            }
        }
        BinarySearch { table, keys }
    }

    /// The number of searches one [`run`](Self::run) makes (its work, in
    /// items).
    pub fn searches(&self) -> usize {
        self.keys.len()
    }

    /// The table's length.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// The keys, in the order they are searched.
    pub fn keys(&self) -> &[u32] {
        &self.keys
    }

    /// Searches every key in turn and returns how many were found.
    pub fn run(&self) -> usize {
        self.keys
            .iter()
            .filter(|&&k| binary_search(&self.table, k).is_ok())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_even_keys() {
        let search = BinarySearch::new(1000, 5000, 2);
        assert_eq!(search.searches(), 5000);
        assert_eq!(search.table_len(), 1000);
        let even = search.keys().iter().filter(|&&k| k & 1 == 0).count();
        assert_eq!(search.run(), even);
        // About half, and never the same key twice in a row.
        assert!((2200..2800).contains(&even), "{even}");
        assert!(search.keys().windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn positions_and_insertion_points() {
        let table: Vec<u32> = (0..10).map(|i| 2 * i).collect();
        for k in 0..20u32 {
            let got = binary_search(&table, k);
            if k & 1 == 0 {
                assert_eq!(got, Ok(k as usize / 2));
            } else {
                assert_eq!(got, Err(k as usize / 2 + 1));
            }
        }
        assert_eq!(binary_search(&table, 100), Err(10));
        assert_eq!(binary_search(&[], 1), Err(0));
    }
}
