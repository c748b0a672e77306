//! `cargo xtask alarms --paired [--rounds N] [--tolerance T]`: the paired
//! comparison's false-failure and detection rates, measured end to end.
//!
//! The alarm suite (`perfmark-kernels/tests/alarms.rs`, seven kernels) is
//! built as separate binaries that differ in their code:
//!
//! - `base`: scale 1.00, the base of every comparison;
//! - `same`: the same source built again (A/A: a copy of `base`);
//! - `layout`: an unrelated function compiled in, shifting the layout;
//! - `+5%`, `+10%`, `+20%`: that much more work compiled in.
//!
//! Each round runs the head binaries with `--compare-with base`, in a fixed
//! interleaved order: A/A three times quiet and three times under an
//! intermittent load (a busy loop on one core, 2 s on, 2 s off: a noisy
//! neighbour whose state changes every two seconds), then `layout`, `+5%`,
//! `+10%` and `+20%` quiet. Every compared test's verdict, ratio and time
//! are read back from `report.json`, typed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use perfmark_core::report::Report;

use crate::load::{Load, Pattern};
use crate::perfrun::{median, scratch_dir, PerfBinary};

/// One head build.
struct Variant {
    name: &'static str,
    /// `PERFMARK_ALARM_SCALE_BUILD`, or none.
    scale: Option<&'static str>,
    layout: bool,
}

const VARIANTS: [Variant; 5] = [
    Variant {
        name: "layout",
        scale: None,
        layout: true,
    },
    Variant {
        name: "+5%",
        scale: Some("1.05"),
        layout: false,
    },
    Variant {
        name: "+10%",
        scale: Some("1.10"),
        layout: false,
    },
    Variant {
        name: "+20%",
        scale: Some("1.20"),
        layout: false,
    },
    Variant {
        name: "base",
        scale: None,
        layout: false,
    },
];

/// One compared test-run.
#[derive(Debug, Clone)]
struct Row {
    variant: String,
    test: String,
    loaded: bool,
    fails: bool,
    change: String,
    ratio: f64,
    ratio_low: f64,
    ratio_high: f64,
    between_pair_sd: f64,
    stop: String,
    seconds: f64,
    pairs: usize,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let rounds = crate::take_count(&mut args, "--rounds", 8)?;
    let tolerance = take_value(&mut args, "--tolerance")?.unwrap_or_else(|| "3%".to_owned());
    if !args.is_empty() {
        return Err(format!(
            "alarms --paired takes --rounds N and --tolerance T (e.g. 3%), not {args:?}"
        ));
    }
    let dir = scratch_dir("alarms-paired");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Build every variant, copying each binary away before the next build
    // replaces it.
    let mut built = Vec::new();
    for v in &VARIANTS {
        let mut envs = Vec::new();
        if let Some(scale) = v.scale {
            envs.push(("PERFMARK_ALARM_SCALE_BUILD", scale));
        }
        if v.layout {
            envs.push(("PERFMARK_ALARM_LAYOUT_BUILD", "1"));
        }
        eprintln!("alarms --paired: building {}", v.name);
        let b = PerfBinary::build_with("perfmark-kernels", "alarms", &envs)?;
        let copy = dir.join(format!("alarms-{}", v.name.replace('%', "pct")));
        std::fs::copy(&b.exe, &copy).map_err(|e| format!("{}: {e}", copy.display()))?;
        built.push((v.name, copy, b.package_dir));
    }
    let (_, base, package_dir) = built.pop().expect("base is built last");
    let same = dir.join("alarms-same");
    std::fs::copy(&base, &same).map_err(|e| format!("{}: {e}", same.display()))?;

    let mut schedule: Vec<(String, PathBuf, bool)> = Vec::new();
    for _ in 0..3 {
        schedule.push(("A/A".to_owned(), same.clone(), false));
        schedule.push(("A/A".to_owned(), same.clone(), true));
    }
    for (name, path, _) in &built {
        schedule.push(((*name).to_owned(), path.clone(), false));
    }
    // A noisy neighbour: one thread that spins for 2 s and rests for 2 s.
    let load = Load::new(Pattern {
        steady: 0,
        intermittent: Some((Duration::from_secs(2), Duration::from_secs(2))),
    });
    let started = Instant::now();
    let mut rows = Vec::new();
    for round in 0..rounds {
        eprintln!(
            "alarms --paired: round {} of {rounds} ({:.0} s so far)",
            round + 1,
            started.elapsed().as_secs_f64()
        );
        for (variant, head, loaded) in &schedule {
            load.set(*loaded);
            let report = compare(head, &base, &package_dir, &dir, &tolerance)?;
            load.set(false);
            for t in &report.tests {
                let Some(c) = &t.comparison else { continue };
                rows.push(Row {
                    variant: variant.clone(),
                    test: t.name.clone(),
                    loaded: *loaded,
                    fails: c.fails,
                    change: c.change.as_str().to_owned(),
                    ratio: c.ratio,
                    ratio_low: c.ratio_low,
                    ratio_high: c.ratio_high,
                    between_pair_sd: c.between_pair_sd,
                    stop: format!("{:?}", c.stop).to_lowercase(),
                    seconds: c.elapsed_s,
                    pairs: c.process_pairs,
                });
            }
        }
    }
    load.stop();
    print_table(&rows, &tolerance, rounds, started.elapsed());
    let csv = dir.join("rows.csv");
    write_rows(&rows, &csv)?;
    println!();
    println!("every test-run: {}", csv.display());
    Ok(())
}

/// Runs `head --compare-with base` and reads its report back.
fn compare(
    head: &Path,
    base: &Path,
    package_dir: &Path,
    dir: &Path,
    tolerance: &str,
) -> Result<Report, String> {
    let binary = PerfBinary {
        exe: head.to_owned(),
        package_dir: package_dir.to_owned(),
    };
    let args = vec!["--compare-with".to_owned(), base.display().to_string()];
    let (report, _) = binary.run(
        &args,
        &dir.join("report"),
        &[("PERFMARK_REGRESSION", tolerance.to_owned())],
    )?;
    Ok(report)
}

fn print_table(rows: &[Row], tolerance: &str, rounds: usize, took: Duration) {
    println!(
        "paired alarms: {rounds} rounds, tolerance {tolerance}, default confidence 0.95 \
         corrected over the suite's tests; {:.0} s",
        took.as_secs_f64()
    );
    println!(
        "| head vs base | load | test-runs | failed | rate | median ratio | process pairs (median) | s per compared test: median, p90 |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut groups: Vec<(String, bool)> = Vec::new();
    for r in rows {
        if !groups.contains(&(r.variant.clone(), r.loaded)) {
            groups.push((r.variant.clone(), r.loaded));
        }
    }
    for (variant, loaded) in groups {
        let g: Vec<&Row> = rows
            .iter()
            .filter(|r| r.variant == variant && r.loaded == loaded)
            .collect();
        let failed = g.iter().filter(|r| r.fails).count();
        let ratios: Vec<f64> = g.iter().map(|r| r.ratio).collect();
        let mut secs: Vec<f64> = g.iter().map(|r| r.seconds).collect();
        secs.sort_by(f64::total_cmp);
        let pairs: Vec<f64> = g.iter().map(|r| r.pairs as f64).collect();
        let p90 = secs[((secs.len() as f64 * 0.9).ceil() as usize).saturating_sub(1)];
        println!(
            "| {variant} | {} | {} | {failed} | {:.1}% | {:.3} | {:.0} | {:.2}, {:.2} |",
            if loaded {
                "1 core busy 2 s on / 2 s off"
            } else {
                "none"
            },
            g.len(),
            100.0 * failed as f64 / g.len() as f64,
            median(&ratios),
            median(&pairs),
            median(&secs),
            p90,
        );
    }
    // Per head and test: a layout change that fails one test in every round
    // is a real difference of that binary, not noise; a "+5%" that reads
    // +4% on one kernel is caught less often there.
    println!();
    println!("| head vs base | test | test-runs | failed | inconclusive | median ratio |");
    println!("|---|---|---|---|---|---|");
    let mut keys: Vec<(String, String)> = Vec::new();
    for r in rows {
        let key = (r.variant.clone(), r.test.clone());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    for (variant, test) in keys {
        let g: Vec<&Row> = rows
            .iter()
            .filter(|r| r.variant == variant && r.test == test)
            .collect();
        let ratios: Vec<f64> = g.iter().map(|r| r.ratio).collect();
        println!(
            "| {variant} | {test} | {} | {} | {} | {:.3} |",
            g.len(),
            g.iter().filter(|r| r.fails).count(),
            g.iter().filter(|r| r.change == "inconclusive").count(),
            median(&ratios)
        );
    }
}

/// Every test-run, one line each, for a closer look at misses and spreads.
fn write_rows(rows: &[Row], path: &Path) -> Result<(), String> {
    let mut text = String::from(
        "variant,test,loaded,fails,change,ratio,ratio_low,ratio_high,between_pair_sd,stop,process_pairs,seconds\n",
    );
    for r in rows {
        text.push_str(&format!(
            "{},{},{},{},{},{:.5},{:.5},{:.5},{:.5},{},{},{:.3}\n",
            r.variant,
            r.test,
            r.loaded,
            r.fails,
            r.change,
            r.ratio,
            r.ratio_low,
            r.ratio_high,
            r.between_pair_sd,
            r.stop,
            r.pairs,
            r.seconds
        ));
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads `--name VALUE` from `args` (removing it).
fn take_value(args: &mut Vec<String>, name: &str) -> Result<Option<String>, String> {
    let Some(i) = args.iter().position(|a| a == name) else {
        return Ok(None);
    };
    let value = args
        .get(i + 1)
        .cloned()
        .ok_or_else(|| format!("{name} needs a value"))?;
    args.drain(i..=i + 1);
    Ok(Some(value))
}
