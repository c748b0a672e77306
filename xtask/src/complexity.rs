//! `cargo xtask complexity [--runs N]`: the complexity check's verdicts on
//! real routines, counted over N separate processes (default 20).
//!
//! Runs perfmark-kernels' complexity suite (`tests/complexity.rs`) with its
//! ignored tests: routines declared with their own class (`right::`, which
//! must pass), a log factor too low (`log_factor::`, under the margin: they
//! pass too) and a whole power of n too low (`wrong::`, which must fail).
//! Prints, per `NAME::complexity` test, how often it failed, the classes
//! fitted and the exponent's range; then the false-failure and detection
//! counts, as docs/attribute.md's "Complexity" section gives them. Measure alone:
//! other work on the machine is the noise the margin is sized for, but it
//! is not the machine docs/design/measurements.md's figures describe.

use std::collections::BTreeMap;

use crate::perfrun::{median, scratch_dir, PerfBinary};

#[derive(Default)]
struct Tally {
    declared: String,
    runs: usize,
    failed: usize,
    fitted: BTreeMap<String, usize>,
    exponents: Vec<f64>,
}

/// Whether the suite's `name` is declared so that it must pass.
fn expected_to_pass(name: &str) -> bool {
    !name.starts_with("wrong::")
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let runs = crate::take_count(&mut args, "--runs", 20)?;
    if let Some(extra) = args.first() {
        return Err(format!("complexity takes only --runs N, not `{extra}`"));
    }
    let binary = PerfBinary::build("perfmark-kernels", "complexity")?;
    let dir = scratch_dir("complexity");
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    for r in 0..runs {
        eprintln!("complexity: run {} of {runs}", r + 1);
        let (report, wall) = binary.run(&["--include-ignored".to_owned()], &dir, &[])?;
        eprintln!("complexity: run {} took {:.1} s", r + 1, wall.as_secs_f64());
        for t in &report.tests {
            let Some(c) = &t.complexity else {
                continue;
            };
            let tally = tallies.entry(t.name.clone()).or_default();
            c.declared.as_str().clone_into(&mut tally.declared);
            tally.runs += 1;
            tally.failed += usize::from(t.verdict == perfmark_core::checks::Verdict::Fail);
            let fitted = c.fitted.map_or("no fit", |f| f.as_str()).to_owned();
            *tally.fitted.entry(fitted).or_default() += 1;
            tally.exponents.extend(c.exponent.filter(|k| k.is_finite()));
        }
    }
    if tallies.is_empty() {
        return Err("the complexity suite reported no complexity test".to_owned());
    }
    println!("complexity checks over {runs} processes (perfmark-kernels, tests/complexity.rs)");
    println!(
        "{:<48} {:>9} {:>9} {:>8}  {:<28} exponent median [min, max]",
        "test", "declared", "expected", "failed", "fitted"
    );
    let (mut right_runs, mut false_failures, mut wrong_runs, mut detections) = (0, 0, 0, 0);
    for (name, t) in &tallies {
        let expected = expected_to_pass(name);
        if expected {
            right_runs += t.runs;
            false_failures += t.failed;
        } else {
            wrong_runs += t.runs;
            detections += t.failed;
        }
        let fitted: Vec<String> = t
            .fitted
            .iter()
            .map(|(class, n)| format!("{class} ×{n}"))
            .collect();
        let exponent = if t.exponents.is_empty() {
            "—".to_owned()
        } else {
            let (lo, hi) = t
                .exponents
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
            format!("{:.2} [{lo:.2}, {hi:.2}]", median(&t.exponents))
        };
        println!(
            "{name:<48} {:>9} {:>9} {:>4}/{:<3}  {:<28} {exponent}",
            t.declared,
            if expected { "pass" } else { "fail" },
            t.failed,
            t.runs,
            fitted.join(", "),
        );
    }
    println!(
        "false failures (declared right or a log factor low): {false_failures} of {right_runs} \
         test-runs ({:.1}%)",
        percent(false_failures, right_runs)
    );
    println!(
        "detections (declared a whole power of n low): {detections} of {wrong_runs} test-runs \
         ({:.1}%)",
        percent(detections, wrong_runs)
    );
    Ok(())
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}
