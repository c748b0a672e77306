//! `cargo xtask stability`: the same tests measured in N separate
//! processes; max/min of each estimate (the goal: ≤ 1.03 for routines of
//! 100 ns and more), for the verdict statistic and for every candidate
//! statistic the report carries — the study that chose the verdict
//! statistic (docs/design/statistics.md).

use std::collections::BTreeMap;

use crate::perfrun::{finite, median, scratch_dir, PerfBinary};

const DEFAULT_TESTS: [&str; 5] = ["ns_100::1", "us_1::1", "us_10::1", "us_100::1", "ms_1::1"];

/// Per statistic: each process's point and the CI's relative half-width.
type ByStatistic = BTreeMap<String, Vec<(f64, f64)>>;

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
    let mut by_test: Vec<ByStatistic> = vec![BTreeMap::new(); names.len()];
    let mut durations: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for r in 0..runs {
        eprintln!("stability: process round {} of {runs}", r + 1);
        // libtest takes one filter: each test runs in a process of its own.
        for (i, name) in names.iter().enumerate() {
            let one = [
                "--include-ignored".to_owned(),
                "--exact".to_owned(),
                name.clone(),
            ];
            let (report, _) = binary.run(&one, &dir, &[])?;
            let t = report
                .tests
                .first()
                .ok_or_else(|| format!("no test `{name}` in the calibration suite"))?;
            durations[i].push(t.duration_s);
            let verdict = t
                .estimate
                .as_ref()
                .filter(|e| e.ns_per_iter.is_finite())
                .ok_or_else(|| format!("`{name}` has no estimate"))?;
            let point = verdict.ns_per_iter;
            let width = (verdict.ci.high - verdict.ci.low) / 2.0 / point;
            by_test[i]
                .entry("verdict".to_owned())
                .or_default()
                .push((point, width));
            for c in t.diagnostics.iter().flat_map(|d| &d.candidates) {
                let Some(p) = finite(c.point) else {
                    continue;
                };
                let w = (c.ci.high - c.ci.low) / 2.0 / p;
                by_test[i]
                    .entry(c.statistic.as_str().to_owned())
                    .or_default()
                    .push((p, w));
            }
        }
    }
    println!("stability over {runs} processes (max/min of the estimate; median CI half-width; median wall time)");
    println!(
        "{:<12} {:<18} {:>12} {:>10} {:>10} {:>8}",
        "test", "statistic", "median", "max/min", "CI ±", "time"
    );
    for ((name, stats), secs) in names.iter().zip(&by_test).zip(&durations) {
        for (statistic, values) in stats {
            let points: Vec<f64> = values.iter().map(|v| v.0).collect();
            let widths: Vec<f64> = values.iter().map(|v| v.1).collect();
            let lo = points.iter().copied().fold(f64::MAX, f64::min);
            let hi = points.iter().copied().fold(f64::MIN, f64::max);
            println!(
                "{name:<12} {statistic:<18} {:>9.2} ns {:>10.4} {:>9.2}% {:>7.2}s",
                median(&points),
                hi / lo,
                median(&widths) * 100.0,
                median(secs)
            );
        }
    }
    Ok(())
}
