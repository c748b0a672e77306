//! `cargo xtask stability`: the same tests measured in N separate
//! processes; max/min of each estimate (the goal: ≤ 1.03 for
//! routines of 100 ns and more).

use crate::perfrun::{estimates, median, scratch_dir, PerfBinary};

const DEFAULT_TESTS: [&str; 5] = ["ns_100::1", "us_1::1", "us_10::1", "us_100::1", "ms_1::1"];

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let runs = crate::take_count(&mut args, "--runs", 10)?;
    let names: Vec<String> = if args.is_empty() {
        DEFAULT_TESTS.iter().map(|s| (*s).to_owned()).collect()
    } else {
        args
    };
    let binary = PerfBinary::build("perfmark", "calibration")?;
    let dir = scratch_dir("stability");
    let mut by_test: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for r in 0..runs {
        eprintln!("stability: process {} of {runs}", r + 1);
        // libtest takes one filter: each test runs in a process of its own.
        for (i, name) in names.iter().enumerate() {
            let one = [
                "--include-ignored".to_owned(),
                "--exact".to_owned(),
                name.clone(),
            ];
            let (report, _) = binary.run(&one, &dir, &[])?;
            let est = estimates(&report);
            let v = est
                .first()
                .ok_or_else(|| format!("no estimate for `{name}`"))?
                .1;
            by_test[i].push(v);
        }
    }
    println!("stability over {runs} processes: median, min, max, max/min");
    for (name, vs) in names.iter().zip(&by_test) {
        let lo = vs.iter().copied().fold(f64::MAX, f64::min);
        let hi = vs.iter().copied().fold(f64::MIN, f64::max);
        println!(
            "{name:<20} {:>12.2} ns {:>12.2} {:>12.2} {:>8.4}",
            median(vs),
            lo,
            hi,
            hi / lo
        );
    }
    Ok(())
}
