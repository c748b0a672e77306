//! `cargo xtask linearity`: does k times the work read k times the time?
//!
//! Runs the calibration suite (`tests/calibration.rs`: dependent chains of
//! about 3 ns, 100 ns, 1 µs, … 1 ms, each at k = 1, 2, 4, 8) in separate processes and
//! prints, per size, t(k) / (k · t(1)) — 1.000 is perfect linearity — with
//! its spread over the repeats.

use crate::perfrun::{estimates, median, scratch_dir, PerfBinary};

const GROUPS: [&str; 6] = ["ns_3", "ns_100", "us_1", "us_10", "us_100", "ms_1"];
const KS: [u32; 3] = [2, 4, 8];

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let repeats = crate::take_count(&mut args, "--repeats", 3)?;
    let binary = PerfBinary::build("perfmark", "calibration")?;
    let dir = scratch_dir("linearity");
    let mut runs = Vec::new();
    let mut add_ns = Vec::new();
    for r in 0..repeats {
        eprintln!("linearity: run {} of {repeats}", r + 1);
        let (report, _) = binary.run(&["--include-ignored".to_owned()], &dir, &[])?;
        let est = estimates(&report);
        let get = |name: &str| est.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        add_ns.push(get("add").ok_or("the report has no `add`")?);
        let mut rows = Vec::new();
        for g in GROUPS {
            let t1 =
                get(&format!("{g}::1")).ok_or_else(|| format!("the report has no `{g}::1`"))?;
            let ratios: Vec<f64> = KS
                .iter()
                .map(|k| get(&format!("{g}::{k}")).map(|tk| tk / (f64::from(*k) * t1)))
                .collect::<Option<_>>()
                .ok_or_else(|| format!("the report lacks a `{g}::k`"))?;
            rows.push((t1, ratios));
        }
        runs.push(rows);
    }
    println!("linearity: t(k) / (k · t(1)), median [min, max] over {repeats} processes");
    println!(
        "{:<14} {:>12} {:>24} {:>24} {:>24}",
        "routine", "t(1)", "k = 2", "k = 4", "k = 8"
    );
    let mut worst: f64 = 0.0;
    for (gi, g) in GROUPS.iter().enumerate() {
        let t1: Vec<f64> = runs.iter().map(|rows| rows[gi].0).collect();
        let mut line = format!("{g:<14} {:>9.1} ns", median(&t1));
        for ki in 0..KS.len() {
            let rs: Vec<f64> = runs.iter().map(|rows| rows[gi].1[ki]).collect();
            let (lo, hi) = rs
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
            let m = median(&rs);
            worst = worst.max((m - 1.0).abs());
            line.push_str(&format!(" {:>9.3} [{:.3}, {:.3}]", m, lo, hi));
        }
        println!("{line}");
    }
    println!(
        "add (black-boxed integer add): median {:.3} ns [{:.3}, {:.3}]",
        median(&add_ns),
        add_ns.iter().copied().fold(f64::MAX, f64::min),
        add_ns.iter().copied().fold(f64::MIN, f64::max)
    );
    println!("worst median deviation from linear: {:.2}%", worst * 100.0);
    Ok(())
}
