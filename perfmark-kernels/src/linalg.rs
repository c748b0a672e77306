//! Dense linear algebra from the LINPACK benchmark: DAXPY, and solving
//! A x = b by Gaussian elimination with partial pivoting.
//!
//! Source: "Performance measurement", a university lecture on performance
//! evaluation: LINPACK
//! "solves system of linear equations Ax=b with Gaussian elimination",
//! its metric is MFLOP/s, and "DAXPY [is its] most time consuming routine"
//! (`y[i] = a * x[i] + y[i]`).

use crate::rng::SplitMix64;

/// Floating-point operations of a DAXPY of length `n`: one multiply and one
/// add per element.
pub const fn daxpy_flops(n: usize) -> u64 {
    2 * n as u64
}

/// Bytes a DAXPY of length `n` moves: reads `x[i]` and `y[i]`, writes
/// `y[i]` (8 bytes each).
pub const fn daxpy_bytes(n: usize) -> u64 {
    24 * n as u64
}

/// `y ← a·x + y`, element by element, in double precision.
///
/// # Panics
/// When `x` and `y` differ in length.
#[inline]
pub fn daxpy(a: f64, x: &[f64], y: &mut [f64]) {
    axpy(a, x, y);
}

/// An element type of [`axpy`]: `f32` (BLAS's SAXPY) or `f64` (DAXPY).
pub trait Real:
    Copy + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> + From<f32>
{
}

impl Real for f32 {}
impl Real for f64 {}

/// `y ← a·x + y`, element by element, in the precision of `T`: the
/// family of BLAS's `?AXPY`.
///
/// # Panics
/// When `x` and `y` differ in length.
#[inline]
pub fn axpy<T: Real>(a: T, x: &[T], y: &mut [T]) {
    assert_eq!(x.len(), y.len(), "axpy needs vectors of equal length");
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi = *yi + a * xi;
    }
}

/// Inputs of an AXPY in the precision of `T`: two vectors of
/// pseudo-random values in [−1, 1), and `a = 1/1024`, as [`Daxpy`]'s.
#[derive(Debug, Clone)]
pub struct Axpy<T> {
    a: T,
    x: Vec<T>,
    y: Vec<T>,
}

impl<T: Real> Axpy<T> {
    /// Vectors of length `n` drawn from `seed`.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut draw = |_| T::from(2.0 * rng.next_f64() as f32 - 1.0);
        let x = (0..n).map(&mut draw).collect();
        let y = (0..n).map(&mut draw).collect();
        Axpy {
            a: T::from(1.0 / 1024.0),
            x,
            y,
        }
    }

    /// One AXPY: [`daxpy_flops`]`(len)` flops. Returns `y[0]` after the
    /// update, as a value to keep.
    pub fn run(&mut self) -> T {
        axpy(self.a, &self.x, &mut self.y);
        self.y.first().copied().unwrap_or(T::from(0.0))
    }
}

/// Inputs of a DAXPY: two vectors of pseudo-random values in [−1, 1).
/// Calling [`run`](Self::run) repeatedly keeps updating `y`; with `a` small
/// the values stay far from overflow for any realistic number of calls.
#[derive(Debug, Clone)]
pub struct Daxpy {
    a: f64,
    x: Vec<f64>,
    y: Vec<f64>,
}

impl Daxpy {
    /// Vectors of length `n` drawn from `seed`, and `a = 1/1024`.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut draw = |_| 2.0 * rng.next_f64() - 1.0;
        let x = (0..n).map(&mut draw).collect();
        let y = (0..n).map(&mut draw).collect();
        Daxpy {
            a: 1.0 / 1024.0,
            x,
            y,
        }
    }

    /// The vectors' length.
    pub fn len(&self) -> usize {
        self.x.len()
    }

    /// Whether the vectors are empty.
    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// One DAXPY: [`daxpy_flops`]`(len)` flops over [`daxpy_bytes`]`(len)`
    /// bytes. Returns `y[0]` after the update, as a value to keep.
    pub fn run(&mut self) -> f64 {
        daxpy(self.a, &self.x, &mut self.y);
        self.y.first().copied().unwrap_or(0.0)
    }
}

/// Floating-point operations of [`LinearSystem::solve`] for an `n`×`n`
/// system, counted exactly as the code does them: for each pivot column
/// `k` and each of the `m = n − k − 1` rows below it, one division for the
/// multiplier, a multiply and a subtract for each of the `m` remaining
/// entries of the row and for the right-hand side; then back-substitution,
/// a multiply and a subtract per entry above the diagonal and one division
/// per row. About (2/3)·n³.
pub const fn gauss_flops(n: usize) -> u64 {
    let n = n as u64;
    let mut total = 0;
    let mut k = 0;
    while k < n {
        let m = n - k - 1;
        total += m * (1 + 2 * m + 2);
        k += 1;
    }
    total + n * (n - 1) + n
}

/// A square system `A x = b` whose solution is known: `b` is computed from
/// a chosen `x`, so a solver's answer can be checked.
#[derive(Debug, Clone)]
pub struct LinearSystem {
    n: usize,
    /// Row-major `n × n`.
    a: Vec<f64>,
    b: Vec<f64>,
    x: Vec<f64>,
}

impl LinearSystem {
    /// An `n × n` system with entries uniform in [−1, 1) drawn from `seed`
    /// (well conditioned with overwhelming probability at these sizes, and
    /// needing row exchanges, so the pivoting is exercised), the solution
    /// `x[i] = 1 + i / n`, and `b = A x`.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let a: Vec<f64> = (0..n * n).map(|_| 2.0 * rng.next_f64() - 1.0).collect();
        let x: Vec<f64> = (0..n).map(|i| 1.0 + i as f64 / n as f64).collect();
        let b = (0..n)
            .map(|i| {
                a[i * n..(i + 1) * n]
                    .iter()
                    .zip(&x)
                    .map(|(aij, xj)| aij * xj)
                    .sum()
            })
            .collect();
        LinearSystem { n, a, b, x }
    }

    /// A system from its parts: `a` row-major `n × n`, and the solution
    /// `x`; `b` is computed as `A x`.
    ///
    /// # Panics
    /// When the lengths do not fit `n`.
    pub fn from_parts(n: usize, a: Vec<f64>, x: Vec<f64>) -> Self {
        assert_eq!(a.len(), n * n, "a must hold n * n entries");
        assert_eq!(x.len(), n, "x must hold n entries");
        let b = (0..n)
            .map(|i| {
                a[i * n..(i + 1) * n]
                    .iter()
                    .zip(&x)
                    .map(|(aij, xj)| aij * xj)
                    .sum()
            })
            .collect();
        LinearSystem { n, a, b, x }
    }

    /// The order `n` of the system.
    pub fn order(&self) -> usize {
        self.n
    }

    /// The solution the system was built from.
    pub fn known_solution(&self) -> &[f64] {
        &self.x
    }

    /// Solves the system by Gaussian elimination with partial pivoting and
    /// back-substitution, in `scratch` (resized as needed, reused across
    /// calls), and returns the solution (a slice of `scratch`). Work:
    /// copying the n² + n inputs into the scratch, then [`gauss_flops`]`(n)`
    /// flops. A singular (or numerically singular) system gives infinite or
    /// NaN entries; it never panics.
    pub fn solve<'s>(&self, scratch: &'s mut Scratch) -> &'s [f64] {
        let n = self.n;
        scratch.a.clear();
        scratch.a.extend_from_slice(&self.a);
        scratch.b.clear();
        scratch.b.extend_from_slice(&self.b);
        let (a, b) = (&mut scratch.a[..], &mut scratch.b[..]);
        for k in 0..n {
            // Partial pivoting: bring the largest entry of column k (at or
            // below the diagonal) to the diagonal, to bound the growth of
            // rounding errors.
            let pivot = (k..n)
                .max_by(|&i, &j| a[i * n + k].abs().total_cmp(&a[j * n + k].abs()))
                .unwrap_or(k);
            if pivot != k {
                let (upper, lower) = a.split_at_mut(pivot * n);
                upper[k * n..(k + 1) * n].swap_with_slice(&mut lower[..n]);
                b.swap(k, pivot);
            }
            let (upper, lower) = a.split_at_mut((k + 1) * n);
            let pivot_row = &upper[k * n..];
            for (r, row) in lower.chunks_exact_mut(n).enumerate() {
                let factor = row[k] / pivot_row[k];
                for (rj, pj) in row[k + 1..].iter_mut().zip(&pivot_row[k + 1..]) {
                    *rj -= factor * pj;
                }
                b[k + 1 + r] -= factor * b[k];
            }
        }
        for i in (0..n).rev() {
            let row = &a[i * n..(i + 1) * n];
            let s = row[i + 1..]
                .iter()
                .zip(&b[i + 1..])
                .fold(b[i], |s, (aij, xj)| s - aij * xj);
            b[i] = s / row[i];
        }
        &scratch.b
    }

    /// The largest `|x_i − known_i|` of a solution.
    pub fn max_error(&self, solution: &[f64]) -> f64 {
        solution
            .iter()
            .zip(&self.x)
            .map(|(s, x)| (s - x).abs())
            .fold(0.0, f64::max)
    }
}

/// Work space of [`LinearSystem::solve`], kept between calls so a call does
/// not allocate.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    a: Vec<f64>,
    b: Vec<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daxpy_by_hand() {
        let x = [1.0, 2.0, -4.0];
        let mut y = [0.5, 0.25, 8.0];
        daxpy(2.0, &x, &mut y);
        assert_eq!(y, [2.5, 4.25, 0.0]);
        assert_eq!(daxpy_flops(1000), 2000);
        assert_eq!(daxpy_bytes(1000), 24_000);
    }

    #[test]
    fn saxpy_by_hand_and_both_precisions_agree() {
        let mut y = [0.5f32, 0.25, 8.0];
        axpy(2.0f32, &[1.0, 2.0, -4.0], &mut y);
        assert_eq!(y, [2.5, 4.25, 0.0]);
        let (mut single, mut double) = (Axpy::<f32>::new(16, 5), Axpy::<f64>::new(16, 5));
        let (s, d) = (single.run(), double.run());
        assert!((f64::from(s) - d).abs() < 1e-6, "{s} {d}");
    }

    #[test]
    fn repeated_runs_add_a_times_x_each_time() {
        let mut d = Daxpy::new(64, 3);
        let (x0, y0) = (d.x[0], d.y[0]);
        for _ in 0..4 {
            d.run();
        }
        assert!((d.y[0] - (y0 + 4.0 * d.a * x0)).abs() < 1e-15);
        assert_eq!(d.len(), 64);
    }

    #[test]
    fn gauss_flop_count_by_hand() {
        // n = 1: one division. n = 2: elimination 1·(1 + 2 + 2) = 5, back
        // substitution 2 divisions + 1 multiply-subtract pair = 4.
        assert_eq!(gauss_flops(1), 1);
        assert_eq!(gauss_flops(2), 9);
        let n = 500u64;
        let approx = 2 * n * n * n / 3;
        assert!(gauss_flops(500).abs_diff(approx) < approx / 100);
    }

    #[test]
    fn solves_a_system_that_needs_pivoting() {
        // a11 = 0: elimination without row exchange would divide by zero.
        let system = LinearSystem::from_parts(2, vec![0.0, 1.0, 1.0, 1.0], vec![3.0, -2.0]);
        let mut scratch = Scratch::default();
        assert_eq!(system.solve(&mut scratch), [3.0, -2.0]);
    }

    #[test]
    fn recovers_the_known_solution() {
        let mut scratch = Scratch::default();
        for n in [1, 2, 10, 100] {
            let system = LinearSystem::new(n, 17);
            assert_eq!(system.order(), n);
            let err = system.max_error(system.solve(&mut scratch));
            assert!(err < 1e-9, "n = {n}: max error {err}");
            // The scratch is reused: solving again gives the same answer.
            let again = system.solve(&mut scratch).to_vec();
            assert_eq!(system.max_error(&again), err);
        }
    }

    #[test]
    fn a_singular_system_gives_non_finite_values_without_panicking() {
        let system = LinearSystem::from_parts(2, vec![1.0, 2.0, 2.0, 4.0], vec![1.0, 1.0]);
        let mut scratch = Scratch::default();
        assert!(system.solve(&mut scratch).iter().any(|v| !v.is_finite()));
    }
}
