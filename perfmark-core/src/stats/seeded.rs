//! A seeded source of normal deviates for the statistics' simulations in
//! unit tests: the same seed, the same numbers, on every machine.

/// Standard normal deviates by Box–Muller over splitmix64 (the generator
/// the coordinator draws worker placements from).
pub(crate) struct SeededNormal(pub(crate) u64);

impl SeededNormal {
    /// Uniform in [0, 1), 53 bits.
    fn uniform(&mut self) -> f64 {
        (crate::worker::splitmix64(&mut self.0) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The next standard normal deviate.
    pub(crate) fn next(&mut self) -> f64 {
        let u = self.uniform().max(1e-300);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }
}
