//! perfmark's project tasks (matklad's xtask convention): `cargo xtask TASK`.

mod alarms;
mod alarms_paired;
mod baseline;
mod compare;
mod complexity;
mod interference;
mod linearity;
mod load;
mod peers;
mod perfrun;
mod speed;
mod stability;
mod weight;

use std::process::ExitCode;

const TASKS: &str = "\
usage: cargo xtask TASK [OPTIONS]

tasks:
  baseline [--runs N] [--pause D]      record the perf suites' baselines over N processes (default 5), D apart (default 30s)
  compare [REV] [-- ARGS]              this tree against REV (default HEAD), each test paired slice by slice
  alarms [--runs N] [--baseline-runs R] [--pause D]  false-alarm and detection rates of the regression rule
  alarms --paired [--rounds N] [--tolerance T] [--layouts N]  the same for the paired comparison (N layouts drawn per build, default 10; 1: none), builds A/A, padding, unrelated, +5/10/20%
  complexity [--runs N]                the complexity check on real routines over N processes (default 20): false failures, detections
  interference [--runs N] [--alarm-runs M] [--skip-alarms] [FILTER]  kernels suite and alarms, quiet and under busy loops: warnings, re-measurement
  peers [--runs N] [--quick]           Criterion's and Divan's verdicts on unchanged code across N processes (default 5)
  linearity [--repeats N]              k× the work reads k× the time? async against its sync twin? (calibration suite)
  stability [--runs N] [FILTER...]     one estimate across N separate processes (default 10)
  speed [--runs N]                     wall time per perf test and start-up time of --list
  weight [--runs N] [--top K] [HARNESS...]  clean build of a user's crate: perfmark, divan, criterion
";

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    let result = match task.as_deref() {
        Some("baseline") => baseline::run(&rest),
        Some("alarms") if rest.first().is_some_and(|a| a == "--paired") => {
            alarms_paired::run(&rest[1..])
        }
        Some("alarms") => alarms::run(&rest),
        Some("compare") => compare::run(&rest),
        Some("complexity") => complexity::run(&rest),
        Some("interference") => interference::run(&rest),
        Some("linearity") => linearity::run(&rest),
        Some("peers") => peers::run(&rest),
        Some("stability") => stability::run(&rest),
        Some("speed") => speed::run(&rest),
        Some("weight") => weight::run(&rest),
        Some("-h" | "--help") | None => {
            print!("{TASKS}");
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(format!("unknown task `{other}`\n\n{TASKS}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `args` holds the flag `name` (removing it).
fn take_flag(args: &mut Vec<String>, name: &str) -> bool {
    let before = args.len();
    args.retain(|a| a != name);
    args.len() != before
}

/// Reads `--name N` from `args` (removing it), or `default`.
fn take_count(args: &mut Vec<String>, name: &str, default: usize) -> Result<usize, String> {
    let Some(i) = args.iter().position(|a| a == name) else {
        return Ok(default);
    };
    let value = args
        .get(i + 1)
        .ok_or_else(|| format!("{name} needs a number"))?;
    let n = value
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{name} takes a positive whole number, not `{value}`"))?;
    args.drain(i..=i + 1);
    Ok(n)
}

/// Reads `--name DURATION` from `args` (removing it), in the attribute's
/// duration grammar (`30s`, `500ms`); zero when absent.
fn take_duration(args: &mut Vec<String>, name: &str) -> Result<std::time::Duration, String> {
    let Some(i) = args.iter().position(|a| a == name) else {
        return Ok(std::time::Duration::ZERO);
    };
    let value = args
        .get(i + 1)
        .ok_or_else(|| format!("{name} needs a duration such as 30s"))?;
    let ns = perfmark_options::grammar::duration_ns(value)
        .ok()
        .filter(|ns| ns.is_finite())
        .ok_or_else(|| format!("{name} takes a duration such as 30s or 500ms, not `{value}`"))?;
    args.drain(i..=i + 1);
    Ok(std::time::Duration::from_nanos(ns as u64))
}
