//! `cargo xtask peers [--runs N] [--quick]`: how the peers' own verdicts
//! hold between processes on this machine, on six small kernels of
//! unchanged code: the question perfmark's regression rule was built to
//! answer better than its peers do.
//!
//! - **Criterion.rs 0.7**: one process records a baseline
//!   (`--save-baseline peers`), then each of `N` other processes compares
//!   with it (`--baseline peers`); per kernel, how often Criterion said
//!   "Performance has regressed" or "has improved" about code that did
//!   not change.
//! - **Divan 0.1**: `N` processes; per kernel, the largest over the
//!   smallest of their medians.
//!
//! The scratch crate lives in `target/xtask/peers/` with the kernels in its
//! library, so both harnesses time the same compiled routines. `--quick`
//! gives Criterion 1 s of warm-up and 2 s of measurement per kernel (its
//! defaults are 3 s and 5 s). perfmark's own rates on the same question
//! are `cargo xtask alarms`'.

use std::path::{Path, PathBuf};
use std::process::Command;

use cargo_perfmark::cargo::test_binaries_in;

use crate::perfrun::{scratch_dir, write_file};

/// The six kernels: small, deterministic routines of 1 ns to a few µs.
const KERNELS: &str = "\
//! The kernels both harnesses time (written by `cargo xtask peers`).
use std::hint::black_box;

pub fn add() -> u64 {
    black_box(1u64) + black_box(2u64)
}

pub fn sum_1k(v: &[u64]) -> u64 {
    v.iter().sum()
}

pub fn sort_1k(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

pub fn fnv_64(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

pub fn push_1k() -> Vec<u64> {
    let mut v = Vec::new();
    for i in 0..1000 {
        v.push(black_box(i));
    }
    v
}

pub fn format_u64(x: u64) -> String {
    format!(\"{x}\")
}

/// 1000 values in a fixed scrambled order.
pub fn scrambled() -> Vec<u32> {
    (0..1000u32).map(|i| i.wrapping_mul(2_654_435_761) % 10_007).collect()
}
";

const CRITERION: &str = "\
use criterion::{criterion_group, criterion_main, Criterion};
use peers::*;
use std::hint::black_box;

fn kernels(c: &mut Criterion) {
    let ones: Vec<u64> = (0..1000).collect();
    let input = scrambled();
    let bytes = [7u8; 64];
    c.bench_function(\"add\", |b| b.iter(add));
    c.bench_function(\"sum_1k\", |b| b.iter(|| sum_1k(black_box(&ones))));
    c.bench_function(\"sort_1k\", |b| b.iter(|| sort_1k(black_box(&input))));
    c.bench_function(\"fnv_64\", |b| b.iter(|| fnv_64(black_box(&bytes))));
    c.bench_function(\"push_1k\", |b| b.iter(push_1k));
    c.bench_function(\"format_u64\", |b| b.iter(|| format_u64(black_box(1_234_567))));
}

criterion_group!(benches, kernels);
criterion_main!(benches);
";

const DIVAN: &str = "\
use peers::*;
use std::hint::black_box;

fn main() {
    divan::main();
}

#[divan::bench]
fn add_() -> u64 {
    add()
}

#[divan::bench]
fn sum_1k_(b: divan::Bencher) {
    let ones: Vec<u64> = (0..1000).collect();
    b.bench(|| sum_1k(black_box(&ones)));
}

#[divan::bench]
fn sort_1k_(b: divan::Bencher) {
    let input = scrambled();
    b.bench(|| sort_1k(black_box(&input)));
}

#[divan::bench]
fn fnv_64_(b: divan::Bencher) {
    let bytes = [7u8; 64];
    b.bench(|| fnv_64(black_box(&bytes)));
}

#[divan::bench]
fn push_1k_() -> Vec<u64> {
    push_1k()
}

#[divan::bench]
fn format_u64_() -> String {
    format_u64(black_box(1_234_567))
}
";

/// What Criterion concluded about one benchmark against its baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Call {
    Regressed,
    Improved,
    /// "No change in performance detected" or "Change within noise
    /// threshold".
    NoChange,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let runs = crate::take_count(&mut args, "--runs", 5)?;
    let quick = crate::take_flag(&mut args, "--quick");
    if let Some(other) = args.first() {
        return Err(format!("peers takes --runs N and --quick, not `{other}`"));
    }
    if runs == 0 {
        return Err("--runs must be at least 1".to_owned());
    }
    let dir = scratch_dir("peers");
    write_crate(&dir)?;
    let criterion = bench_binary(&dir, "criterion")?;
    let divan = bench_binary(&dir, "divan")?;
    let times: &[&str] = if quick {
        &["--warm-up-time", "1", "--measurement-time", "2"]
    } else {
        &[]
    };
    println!("load average before: {}", crate::weight::load_average());
    eprintln!("peers: Criterion records its baseline in one process");
    criterion_run(
        &criterion,
        &dir,
        &[times, &["--save-baseline", "peers"]].concat(),
    )?;
    let mut calls: Vec<Vec<(String, Call)>> = Vec::new();
    let mut medians: Vec<Vec<(String, f64)>> = Vec::new();
    for r in 0..runs {
        eprintln!(
            "peers: run {} of {runs}: Criterion against its baseline, then Divan",
            r + 1
        );
        let text = criterion_run(
            &criterion,
            &dir,
            &[times, &["--baseline", "peers"]].concat(),
        )?;
        calls.push(criterion_calls(&text));
        medians.push(divan_medians(&command_output(
            Command::new(&divan).current_dir(&dir).arg("--bench"),
        )?));
    }
    println!("load average after: {}", crate::weight::load_average());
    print_criterion(&calls);
    print_divan(&medians);
    Ok(())
}

/// Writes the scratch crate: the kernels in its library, one Criterion and
/// one Divan bench target.
fn write_crate(dir: &Path) -> Result<(), String> {
    let manifest = "\
# Written by `cargo xtask peers`.
[package]
name = \"peers\"
version = \"0.0.0\"
edition = \"2021\"
publish = false

[workspace]

[dev-dependencies]
criterion = \"0.7\"
divan = \"0.1\"

[[bench]]
name = \"criterion\"
harness = false

[[bench]]
name = \"divan\"
harness = false
";
    write_file(&dir.join("Cargo.toml"), manifest)?;
    write_file(&dir.join("src/lib.rs"), KERNELS)?;
    write_file(&dir.join("benches/criterion.rs"), CRITERION)?;
    write_file(&dir.join("benches/divan.rs"), DIVAN)
}

/// Builds the bench target `name` of the scratch crate; its executable.
fn bench_binary(dir: &Path, name: &str) -> Result<PathBuf, String> {
    eprintln!("peers: building the {name} bench");
    let out = crate::weight::cargo(dir)
        .args([
            "bench",
            "--no-run",
            "--message-format=json",
            "--bench",
            name,
        ])
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "building {name} in {} failed:\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    test_binaries_in(&String::from_utf8_lossy(&out.stdout))
        .into_iter()
        .find(|b| b.target == name)
        .map(|b| b.path)
        .ok_or_else(|| format!("cargo named no executable for the {name} bench"))
}

/// One Criterion process with `args`; its standard output.
fn criterion_run(binary: &Path, dir: &Path, args: &[&str]) -> Result<String, String> {
    command_output(
        Command::new(binary)
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .arg("--bench")
            .arg("--noplot")
            .args(args),
    )
}

/// The standard output of `cmd`, which must succeed.
fn command_output(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    if !out.status.success() {
        return Err(format!(
            "{:?} failed:\n{}",
            cmd.get_program(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Criterion's conclusion per benchmark in its standard output: the name
/// that starts a `time:` line, then the first verdict sentence after it.
fn criterion_calls(text: &str) -> Vec<(String, Call)> {
    let mut calls = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if let Some((name, _)) = line
            .split_once("time:")
            .filter(|(n, _)| !n.trim().is_empty())
        {
            current = Some(name.trim().to_owned());
            continue;
        }
        let call = if line.contains("Performance has regressed") {
            Call::Regressed
        } else if line.contains("Performance has improved") {
            Call::Improved
        } else if line.contains("No change in performance detected")
            || line.contains("Change within noise threshold")
        {
            Call::NoChange
        } else {
            continue;
        };
        if let Some(name) = current.take() {
            calls.push((name, call));
        }
    }
    calls
}

/// Divan's median per benchmark, in ns, from its table: a row's name, then
/// `fastest │ slowest │ median │ mean │ samples │ iters`.
fn divan_medians(text: &str) -> Vec<(String, f64)> {
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('│').map(str::trim).collect();
            let [first, _slowest, median, ..] = cells.as_slice() else {
                return None;
            };
            let name = first
                .trim_start_matches(['├', '╰', '─', ' '])
                .split_whitespace()
                .next()?;
            Some((name.trim_end_matches('_').to_owned(), duration_ns(median)?))
        })
        .collect()
}

/// `1.25 ns`, `3.4 µs` (or `us`), `2 ms`, `1 s`, `980 ps` in ns.
fn duration_ns(text: &str) -> Option<f64> {
    let (value, unit) = text.split_once(' ')?;
    let scale = match unit.trim() {
        "ps" => 1e-3,
        "ns" => 1.0,
        "µs" | "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    Some(value.parse::<f64>().ok()? * scale)
}

/// Per kernel, in the order of the first run: `(name, items)` gathered
/// over every run.
fn by_kernel<T: Copy>(runs: &[Vec<(String, T)>]) -> Vec<(String, Vec<T>)> {
    let mut kernels: Vec<(String, Vec<T>)> = Vec::new();
    for (name, item) in runs.iter().flatten() {
        match kernels.iter_mut().find(|(n, _)| n == name) {
            Some((_, items)) => items.push(*item),
            None => kernels.push((name.clone(), vec![*item])),
        }
    }
    kernels
}

fn print_criterion(runs: &[Vec<(String, Call)>]) {
    println!("\nCriterion.rs, unchanged code against a baseline recorded in another process:");
    println!("| kernel | comparisons | regressed | improved | no change |");
    println!("|---|---|---|---|---|");
    let (mut all, mut regressed, mut improved) = (0, 0, 0);
    for (name, calls) in by_kernel(runs) {
        let count = |c: Call| calls.iter().filter(|&&x| x == c).count();
        let (r, i) = (count(Call::Regressed), count(Call::Improved));
        println!(
            "| {name} | {} | {r} | {i} | {} |",
            calls.len(),
            count(Call::NoChange)
        );
        all += calls.len();
        regressed += r;
        improved += i;
    }
    if all > 0 {
        println!(
            "regressed in {:.0}% of comparisons, improved in {:.0}%",
            100.0 * regressed as f64 / all as f64,
            100.0 * improved as f64 / all as f64
        );
    }
}

fn print_divan(runs: &[Vec<(String, f64)>]) {
    println!("\nDivan, the median of each process:");
    println!("| kernel | processes | lowest median | highest median | highest / lowest |");
    println!("|---|---|---|---|---|");
    for (name, ns) in by_kernel(runs) {
        let low = ns.iter().copied().fold(f64::INFINITY, f64::min);
        let high = ns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        println!(
            "| {name} | {} | {low:.3} ns | {high:.3} ns | {:.2}× |",
            ns.len(),
            high / low
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_calls_are_read_per_benchmark() {
        let text = "\
add                     time:   [1.2034 ns 1.2101 ns 1.2180 ns]
                        change: [+4.1% +5.0% +6.2%] (p = 0.00 < 0.05)
                        Performance has regressed.
Found 3 outliers among 100 measurements (3.00%)
sort_1k                 time:   [3.1 µs 3.2 µs 3.3 µs]
                        change: [-1.0% +0.2% +1.1%] (p = 0.61 > 0.05)
                        No change in performance detected.
fnv_64                  time:   [20.1 ns 20.2 ns 20.3 ns]
                        change: [-9.0% -8.1% -7.2%] (p = 0.00 < 0.05)
                        Performance has improved.
push_1k                 time:   [900 ns 905 ns 910 ns]
                        change: [+1.0% +1.5% +2.0%] (p = 0.01 < 0.05)
                        Change within noise threshold.
";
        assert_eq!(
            criterion_calls(text),
            vec![
                ("add".to_owned(), Call::Regressed),
                ("sort_1k".to_owned(), Call::NoChange),
                ("fnv_64".to_owned(), Call::Improved),
                ("push_1k".to_owned(), Call::NoChange),
            ]
        );
    }

    #[test]
    fn divan_medians_are_read_from_its_table() {
        let text = "\
divan            fastest       │ slowest       │ median        │ mean          │ samples │ iters
├─ add_          0.3 ns        │ 0.5 ns        │ 0.31 ns       │ 0.32 ns       │ 100     │ 1638400
├─ sort_1k_      2.9 µs        │ 4.1 µs        │ 3.05 µs       │ 3.1 µs        │ 100     │ 100
╰─ format_u64_   18 ns         │ 40 ns         │ 19.5 ns       │ 20 ns         │ 100     │ 25600
";
        assert_eq!(
            divan_medians(text),
            vec![
                ("add".to_owned(), 0.31),
                ("sort_1k".to_owned(), 3050.0),
                ("format_u64".to_owned(), 19.5),
            ]
        );
        assert_eq!(duration_ns("980 ps"), Some(0.98));
        assert_eq!(duration_ns("1.5 ms"), Some(1.5e6));
        assert_eq!(duration_ns("12 furlongs"), None);
    }

    #[test]
    fn runs_are_gathered_per_kernel() {
        let runs = vec![
            vec![("a".to_owned(), 1.0), ("b".to_owned(), 2.0)],
            vec![("b".to_owned(), 3.0), ("a".to_owned(), 4.0)],
        ];
        assert_eq!(
            by_kernel(&runs),
            vec![
                ("a".to_owned(), vec![1.0, 4.0]),
                ("b".to_owned(), vec![2.0, 3.0])
            ]
        );
    }
}
