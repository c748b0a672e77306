//! `cargo xtask linearity`: does k times the work read k times the time?
//!
//! Runs the calibration suite (`tests/calibration.rs`: dependent chains of
//! about 3 ns, 100 ns, 1 µs, … 1 ms, each at k = 1, 2, 4, 8) in separate processes and
//! prints, per size, t(k) / (k · t(1)) — 1.000 is perfect linearity — with
//! its spread over the repeats.
//!
//! The async groups (`async_ns_100`, `async_us_1`: the same chains awaited
//! on perfmark's executor) are in the same table, and each is also read
//! against its synchronous twin, t_async(k) / t_sync(k): 1.000 is an async
//! routine that reads as its sync twin once the cost of awaiting is
//! subtracted. Last, what running a future costs, as given: a `block_on`
//! per iteration, and one future awaiting every iteration (the form the
//! async Bencher uses).

use crate::perfrun::{estimates, median, scratch_dir, PerfBinary};

const GROUPS: [&str; 8] = [
    "ns_3",
    "ns_100",
    "us_1",
    "us_10",
    "us_100",
    "ms_1",
    "async_ns_100",
    "async_us_1",
];
/// Each async group and its synchronous twin.
const TWINS: [(&str, &str); 2] = [("async_ns_100", "ns_100"), ("async_us_1", "us_1")];
/// The cost of running a future, per iteration, each way.
const EXECUTOR_COSTS: [(&str, &str); 2] = [
    ("block_on_each_iteration", "a block_on per iteration"),
    ("await_in_one_block_on", "awaited in one block_on"),
];
/// The k of the twin comparison: 1 and the KS.
const ALL_KS: [u32; 4] = [1, 2, 4, 8];
const KS: [u32; 3] = [2, 4, 8];

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let repeats = crate::take_count(&mut args, "--repeats", 3)?;
    let binary = PerfBinary::build("perfmark", "calibration")?;
    let dir = scratch_dir("linearity");
    let mut runs = Vec::new();
    let mut add_ns = Vec::new();
    // Per repeat: t_async(k) / t_sync(k) per twin and k; the executor costs.
    let mut twin_runs: Vec<Vec<Vec<f64>>> = Vec::new();
    let mut cost_runs: Vec<Vec<f64>> = Vec::new();
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
        let mut twins = Vec::new();
        for (a, sync) in TWINS {
            let ratios: Vec<f64> = ALL_KS
                .iter()
                .map(|k| Some(get(&format!("{a}::{k}"))? / get(&format!("{sync}::{k}"))?))
                .collect::<Option<_>>()
                .ok_or_else(|| format!("the report lacks a `{a}::k` or a `{sync}::k`"))?;
            twins.push(ratios);
        }
        twin_runs.push(twins);
        let costs: Vec<f64> = EXECUTOR_COSTS
            .iter()
            .map(|(name, _)| get(name).ok_or_else(|| format!("the report has no `{name}`")))
            .collect::<Result<_, _>>()?;
        cost_runs.push(costs);
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
    println!();
    println!("async against its sync twin: t_async(k) / t_sync(k), median [min, max]");
    println!(
        "{:<20} {:>24} {:>24} {:>24} {:>24}",
        "routine", "k = 1", "k = 2", "k = 4", "k = 8"
    );
    let mut worst_twin: f64 = 0.0;
    for (ti, (a, sync)) in TWINS.iter().enumerate() {
        let mut line = format!("{:<20}", format!("{a}/{sync}"));
        for ki in 0..ALL_KS.len() {
            let rs: Vec<f64> = twin_runs.iter().map(|t| t[ti][ki]).collect();
            let m = median(&rs);
            worst_twin = worst_twin.max((m - 1.0).abs());
            line.push_str(&format!(" {:>9.3} [{:.3}, {:.3}]", m, min(&rs), max(&rs)));
        }
        println!("{line}");
    }
    println!(
        "worst median deviation of async from its sync twin: {:.2}%",
        worst_twin * 100.0
    );
    println!();
    println!("running a future on perfmark's executor (BlockOn), per iteration, as given:");
    for (ci, (_, words)) in EXECUTOR_COSTS.iter().enumerate() {
        let xs: Vec<f64> = cost_runs.iter().map(|c| c[ci]).collect();
        println!(
            "  {words:<26} median {:.3} ns [{:.3}, {:.3}]",
            median(&xs),
            min(&xs),
            max(&xs)
        );
    }
    Ok(())
}

fn min(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::MAX, f64::min)
}

fn max(xs: &[f64]) -> f64 {
    xs.iter().copied().fold(f64::MIN, f64::max)
}
