//! Five of the Livermore Fortran Kernels, named by their numbers.
//!
//! Source: "Performance measurement", a university lecture on performance
//! evaluation: the Livermore
//! loops are "24 numerical application kernels" from LLNL "such as
//! hydrodynamics fragment, … inner product, … tridiagonal linear systems
//! solution, … first sum, first difference", rated in MFLOP/s. The loops
//! below follow F. H. McMahon's definitions ("The Livermore Fortran Kernels:
//! A computer test of the numerical performance range", Lawrence Livermore
//! National Laboratory, 1986; here from the C translation of the suite),
//! with his long-loop lengths; the flop counts are those of the loop bodies
//! as written.
//!
//! Inputs come from [`LivermoreData`], pseudo-random values near 1 so that
//! nothing overflows or underflows however often a kernel is rerun; each
//! kernel writes only its output array, which is never an input.

use crate::rng::SplitMix64;

/// Loop length of kernels 1, 3, 5 and 12 in McMahon's long-loop runs
/// (kernel 7 runs `LIVERMORE_N - 6` iterations, as its body reads six
/// elements ahead; the original uses 995).
pub const LIVERMORE_N: usize = 1001;

/// Flops per iteration of kernel 1 (`q + y·(r·z₁₀ + t·z₁₁)`: 3 multiplies,
/// 2 adds).
pub const K1_FLOPS_PER_ITER: u64 = 5;
/// Flops per iteration of kernel 3 (a multiply and an add).
pub const K3_FLOPS_PER_ITER: u64 = 2;
/// Flops per iteration of kernel 5 (a subtract and a multiply).
pub const K5_FLOPS_PER_ITER: u64 = 2;
/// Flops per iteration of kernel 7 (8 multiplies, 8 adds).
pub const K7_FLOPS_PER_ITER: u64 = 16;
/// Flops per iteration of kernel 12 (one subtract).
pub const K12_FLOPS_PER_ITER: u64 = 1;

/// Kernel 1, hydro fragment: `x[k] = q + y[k]·(r·z[k+10] + t·z[k+11])` for
/// every `k` of `x`.
///
/// # Panics
/// When `y` is shorter than `x`, or `z` shorter than `x.len() + 11`.
pub fn kernel1_hydro(x: &mut [f64], y: &[f64], z: &[f64], q: f64, r: f64, t: f64) {
    let n = x.len();
    let (y, z10, z11) = (&y[..n], &z[10..n + 10], &z[11..n + 11]);
    for (((xk, yk), z10k), z11k) in x.iter_mut().zip(y).zip(z10).zip(z11) {
        *xk = q + yk * (r * z10k + t * z11k);
    }
}

/// Kernel 3, inner product: `Σ z[k]·x[k]`, over the shorter slice.
pub fn kernel3_inner_product(z: &[f64], x: &[f64]) -> f64 {
    z.iter().zip(x).fold(0.0, |q, (zk, xk)| q + zk * xk)
}

/// Kernel 5, tri-diagonal elimination below the diagonal: `x[i] = z[i]·(y[i]
/// − x[i−1])` for `i` from 1; a first-order recurrence, so each iteration
/// waits for the one before. Writes `x[1..]`, reads `x[0]`.
///
/// # Panics
/// When `y` or `z` is shorter than `x`.
pub fn kernel5_tridiagonal(x: &mut [f64], y: &[f64], z: &[f64]) {
    let n = x.len();
    let (y, z) = (&y[..n], &z[..n]);
    for i in 1..n {
        x[i] = z[i] * (y[i] - x[i - 1]);
    }
}

/// Kernel 7, equation of state fragment, for every `k` of `x`:
///
/// ```text
/// x[k] = u[k] + r·(z[k] + r·y[k])
///      + t·(u[k+3] + r·(u[k+2] + r·u[k+1])
///         + t·(u[k+6] + q·(u[k+5] + q·u[k+4])))
/// ```
///
/// # Panics
/// When `y` or `z` is shorter than `x`, or `u` shorter than `x.len() + 6`.
#[allow(clippy::too_many_arguments)]
pub fn kernel7_equation_of_state(
    x: &mut [f64],
    u: &[f64],
    y: &[f64],
    z: &[f64],
    q: f64,
    r: f64,
    t: f64,
) {
    let n = x.len();
    let (u, y, z) = (&u[..n + 6], &y[..n], &z[..n]);
    for k in 0..n {
        x[k] = u[k]
            + r * (z[k] + r * y[k])
            + t * (u[k + 3]
                + r * (u[k + 2] + r * u[k + 1])
                + t * (u[k + 6] + q * (u[k + 5] + q * u[k + 4])));
    }
}

/// Kernel 12, first difference: `x[k] = y[k+1] − y[k]` for every `k` of
/// `x`.
///
/// # Panics
/// When `y` is shorter than `x.len() + 1`.
pub fn kernel12_first_difference(x: &mut [f64], y: &[f64]) {
    let n = x.len();
    for (xk, w) in x.iter_mut().zip(y[..n + 1].windows(2)) {
        *xk = w[1] - w[0];
    }
}

/// The arrays and scalars the kernels read, and the array they write.
#[derive(Debug, Clone)]
pub struct LivermoreData {
    n: usize,
    /// Output array, `n` long.
    x: Vec<f64>,
    /// Inputs, `n + 12` long so every kernel's look-ahead stays in bounds.
    y: Vec<f64>,
    z: Vec<f64>,
    u: Vec<f64>,
    q: f64,
    r: f64,
    t: f64,
}

impl LivermoreData {
    /// Inputs for loops of length `n`: values uniform in [0.5, 1.5) drawn
    /// from `seed`, and the scalars q = 0.5, r = 0.25, t = 0.125. Kernel 5's
    /// recurrence multiplies by −z at each step, and the geometric mean of
    /// z over [0.5, 1.5) is below 1, so it stays bounded.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let mut draw = |_| 0.5 + rng.next_f64();
        let y = (0..n + 12).map(&mut draw).collect();
        let z = (0..n + 12).map(&mut draw).collect();
        let u = (0..n + 12).map(&mut draw).collect();
        LivermoreData {
            n,
            x: vec![0.0; n],
            y,
            z,
            u,
            q: 0.5,
            r: 0.25,
            t: 0.125,
        }
    }

    /// The loop length `n`.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the loops are empty.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Runs kernel 1 over `n` iterations ([`K1_FLOPS_PER_ITER`] each);
    /// returns `x[n−1]`.
    pub fn kernel1(&mut self) -> f64 {
        kernel1_hydro(&mut self.x, &self.y, &self.z, self.q, self.r, self.t);
        self.last()
    }

    /// Runs kernel 3 over `n` iterations ([`K3_FLOPS_PER_ITER`] each);
    /// returns the inner product of `z` and `y`.
    pub fn kernel3(&self) -> f64 {
        kernel3_inner_product(&self.z[..self.n], &self.y[..self.n])
    }

    /// Runs kernel 5 over `n − 1` iterations ([`K5_FLOPS_PER_ITER`] each),
    /// from `x[0] = 0`; returns `x[n−1]`.
    pub fn kernel5(&mut self) -> f64 {
        if let Some(first) = self.x.first_mut() {
            *first = 0.0;
        }
        kernel5_tridiagonal(&mut self.x, &self.y, &self.z);
        self.last()
    }

    /// Runs kernel 7 over `n − 6` iterations ([`K7_FLOPS_PER_ITER`] each);
    /// returns `x[n−7]`.
    pub fn kernel7(&mut self) -> f64 {
        let m = self.n.saturating_sub(6);
        kernel7_equation_of_state(
            &mut self.x[..m],
            &self.u,
            &self.y,
            &self.z,
            self.q,
            self.r,
            self.t,
        );
        self.x[..m].last().copied().unwrap_or(0.0)
    }

    /// Runs kernel 12 over `n` iterations ([`K12_FLOPS_PER_ITER`] each);
    /// returns `x[n−1]`.
    pub fn kernel12(&mut self) -> f64 {
        kernel12_first_difference(&mut self.x, &self.y);
        self.last()
    }

    fn last(&self) -> f64 {
        self.x.last().copied().unwrap_or(0.0)
    }
}

/// Iterations each kernel runs for loops of length `n`, times its flops per
/// iteration: the flops of one call of `LivermoreData::kernel{1,3,5,7,12}`.
/// Returns `None` for a kernel number not implemented here.
pub const fn livermore_flops(kernel: u32, n: usize) -> Option<u64> {
    let n = n as u64;
    match kernel {
        1 => Some(K1_FLOPS_PER_ITER * n),
        3 => Some(K3_FLOPS_PER_ITER * n),
        5 => Some(K5_FLOPS_PER_ITER * n.saturating_sub(1)),
        7 => Some(K7_FLOPS_PER_ITER * n.saturating_sub(6)),
        12 => Some(K12_FLOPS_PER_ITER * n),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel1_with_constant_inputs() {
        let mut x = [0.0; 5];
        kernel1_hydro(&mut x, &[2.0; 5], &[3.0; 16], 1.0, 0.5, 0.25);
        // 1 + 2·(0.5·3 + 0.25·3) = 5.5
        assert_eq!(x, [5.5; 5]);
    }

    #[test]
    fn kernel3_sums_an_arithmetic_series() {
        let z: Vec<f64> = (0..1001).map(f64::from).collect();
        // Σ 2k for k < 1001 = 1001 · 1000
        assert_eq!(kernel3_inner_product(&z, &[2.0; 1001]), 1_001_000.0);
    }

    #[test]
    fn kernel5_alternates_with_unit_z() {
        // z = 1, y = c: x[i] = c − x[i−1], so x alternates x0, c − x0, x0, …
        let mut x = [0.0; 6];
        x[0] = 1.5;
        kernel5_tridiagonal(&mut x, &[4.0; 6], &[1.0; 6]);
        assert_eq!(x, [1.5, 2.5, 1.5, 2.5, 1.5, 2.5]);
    }

    #[test]
    fn kernel7_with_unit_inputs() {
        let (q, r, t) = (0.5, 0.25, 0.125);
        let mut x = [0.0; 4];
        kernel7_equation_of_state(&mut x, &[1.0; 10], &[1.0; 4], &[1.0; 4], q, r, t);
        let want = 1.0 + r * (1.0 + r) + t * (1.0 + r * (1.0 + r) + t * (1.0 + q * (1.0 + q)));
        assert_eq!(x, [want; 4]);
    }

    #[test]
    fn kernel12_differences_of_squares_are_odd_numbers() {
        let y: Vec<f64> = (0..11).map(|k| f64::from(k * k)).collect();
        let mut x = [0.0; 10];
        kernel12_first_difference(&mut x, &y);
        let want: Vec<f64> = (0..10).map(|k| f64::from(2 * k + 1)).collect();
        assert_eq!(x.to_vec(), want);
    }

    #[test]
    fn the_data_runs_every_kernel_repeatably_and_finitely() {
        let mut data = LivermoreData::new(LIVERMORE_N, 1);
        assert_eq!(data.len(), LIVERMORE_N);
        let first = [
            data.kernel1(),
            data.kernel3(),
            data.kernel5(),
            data.kernel7(),
            data.kernel12(),
        ];
        for _ in 0..3 {
            let again = [
                data.kernel1(),
                data.kernel3(),
                data.kernel5(),
                data.kernel7(),
                data.kernel12(),
            ];
            assert_eq!(again, first, "kernels do not feed on their own output");
        }
        assert!(first.iter().all(|v| v.is_finite()));
        // Kernel 12's last value by hand.
        assert_eq!(first[4], data.y[LIVERMORE_N] - data.y[LIVERMORE_N - 1]);
    }

    #[test]
    fn flop_counts() {
        assert_eq!(livermore_flops(1, LIVERMORE_N), Some(5005));
        assert_eq!(livermore_flops(7, LIVERMORE_N), Some(16 * 995));
        assert_eq!(livermore_flops(2, LIVERMORE_N), None);
    }
}
