//! Quicksort on a deterministic shuffle.
//!
//! Source: "Performance measurement", a university lecture on performance
//! evaluation, which lists
//! quicksort among the "toy benchmarks" whose "result is known before
//! running". The sort is written here (not `slice::sort_unstable`) so the
//! workload does not change when the standard library's sort does.

use crate::rng::SplitMix64;

/// Below this length a partition is finished by insertion sort, which is
/// faster than recursing on tiny slices.
const INSERTION_SORT_MAX: usize = 16;

/// Sorts `v` ascending: Hoare partitioning around a median-of-three pivot,
/// recursing into the smaller side and looping on the larger (so the stack
/// depth is O(log n)), insertion sort below 16 elements. O(n log n)
/// comparisons expected on a shuffle (about 1.2 · n log₂ n here); not
/// stable.
pub fn quicksort(v: &mut [u32]) {
    let mut rest = v;
    while rest.len() > INSERTION_SORT_MAX {
        let split = partition(rest);
        let (left, right) = rest.split_at_mut(split);
        if left.len() < right.len() {
            quicksort(left);
            rest = right;
        } else {
            quicksort(right);
            rest = left;
        }
    }
    insertion_sort(rest);
}

/// Hoare partition of `v` (at least 3 long) around the median of its
/// first, middle and last elements. Returns `s` with `0 < s < v.len()` and
/// every element of `v[..s]` ≤ every element of `v[s..]`.
fn partition(v: &mut [u32]) -> usize {
    let last = v.len() - 1;
    let mid = last / 2;
    // Order v[0] ≤ v[mid] ≤ v[last]: the median lands in the middle, and
    // the two ends act as sentinels for the scans below.
    if v[mid] < v[0] {
        v.swap(mid, 0);
    }
    if v[last] < v[0] {
        v.swap(last, 0);
    }
    if v[last] < v[mid] {
        v.swap(last, mid);
    }
    let pivot = v[mid];
    let mut i = 0;
    let mut j = last;
    loop {
        while v[i] < pivot {
            i += 1;
        }
        while v[j] > pivot {
            j -= 1;
        }
        if i >= j {
            return j + 1;
        }
        v.swap(i, j);
        i += 1;
        j -= 1;
    }
}

fn insertion_sort(v: &mut [u32]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// The quicksort workload: a fixed shuffle of `0..n`, sorted afresh on each
/// call.
#[derive(Debug, Clone)]
pub struct QuicksortInput {
    shuffled: Vec<u32>,
}

impl QuicksortInput {
    /// The numbers `0..n` shuffled by [`SplitMix64::shuffle`] from `seed`.
    pub fn new(n: u32, seed: u64) -> Self {
        let mut shuffled: Vec<u32> = (0..n).collect();
        SplitMix64::new(seed).shuffle(&mut shuffled);
        QuicksortInput { shuffled }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.shuffled.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.shuffled.is_empty()
    }

    /// The shuffled input.
    pub fn input(&self) -> &[u32] {
        &self.shuffled
    }

    /// Copies the shuffle into `buf` (reused across calls: no allocation
    /// after the first) and sorts it with [`quicksort`]; returns the sorted
    /// slice, which is `0..n`. The copy is n · 4 bytes, about 1% of the
    /// sort's time.
    pub fn run<'b>(&self, buf: &'b mut Vec<u32>) -> &'b [u32] {
        buf.clear();
        buf.extend_from_slice(&self.shuffled);
        quicksort(buf);
        buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_the_shuffle_back_to_the_identity() {
        let mut buf = Vec::new();
        for n in [0, 1, 2, 3, 16, 17, 100, 10_000] {
            let input = QuicksortInput::new(n, 5);
            assert_eq!(input.len(), n as usize);
            let sorted = input.run(&mut buf);
            assert!(sorted.iter().copied().eq(0..n), "n = {n}");
        }
    }

    #[test]
    fn sorts_adversarial_inputs() {
        let mut cases: Vec<Vec<u32>> = vec![
            vec![7; 1000],
            (0..1000).collect(),
            (0..1000).rev().collect(),
            (0..1000).map(|i| i % 3).collect(),
            (0..1000)
                .map(|i| if i & 1 == 0 { i } else { 1000 - i })
                .collect(),
            vec![u32::MAX, 0, u32::MAX, 0, 5],
        ];
        for v in &mut cases {
            let mut want = v.clone();
            want.sort_unstable();
            quicksort(v);
            assert_eq!(*v, want);
        }
    }

    #[test]
    fn partition_splits_properly() {
        let mut rng = SplitMix64::new(1);
        for len in 3..200 {
            let mut v: Vec<u32> = (0..len).map(|_| rng.below(10) as u32).collect();
            let s = partition(&mut v);
            assert!(s > 0 && s < v.len(), "len {len}: split {s}");
            let max_left = v[..s].iter().max().unwrap();
            let min_right = v[s..].iter().min().unwrap();
            assert!(max_left <= min_right);
        }
    }
}
