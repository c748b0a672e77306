//! What the statistical account costs per test: the calls the runner makes
//! on a measured test's samples (the verdict estimate, the three candidate
//! statistics, summary, Tukey, sd CI, serial correlation, modes), timed on
//! synthetic samples of the sizes tests produce.
//!
//! `cargo run --release -p perfmark-core --example diagnostics_cost`

use std::hint::black_box;
use std::time::Instant;

use perfmark_core::stats::{self, Statistic};

fn main() {
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut noise = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    println!("{:>8} {:>14}", "samples", "diagnostics");
    for n in [30usize, 100, 300, 1_000, 3_000, 10_000] {
        // AR(1)-ish samples around 1000 ns with 5% spikes.
        let mut x = 0.0;
        let samples: Vec<f64> = (0..n)
            .map(|_| {
                x = 0.5 * x + (noise() - 0.5) * 20.0;
                if noise() < 0.05 {
                    1500.0 + x
                } else {
                    1000.0 + x
                }
            })
            .collect();
        let reps = (20_000 / n).max(3);
        let started = Instant::now();
        for _ in 0..reps {
            black_box(stats::estimate(&samples, 0.95));
            for s in Statistic::ALL {
                black_box(stats::estimate_with(&samples, 0.95, s));
            }
            black_box(stats::summarize(&samples));
            black_box(stats::tukey(&samples));
            black_box(stats::sd_interval(&samples, 0.95));
            black_box(stats::serial_correlation(&samples));
            black_box(stats::modes(&samples));
        }
        let per_test = started.elapsed().as_secs_f64() / reps as f64;
        println!("{n:>8} {:>11.3} ms", per_test * 1e3);
    }
}
