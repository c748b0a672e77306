//! `cargo xtask weight [--runs N] [--top K] [HARNESS...]`: what depending on
//! perfmark costs a user — a clean release build of a scratch crate with
//! one perf test, beside the same crate with one Divan 0.1 bench and one
//! Criterion 0.7 bench. Per harness: the crates cargo compiles and the wall
//! time, each run and the median; for perfmark, where the time goes
//! (`cargo build --timings`, per package).
//!
//! The scratch crates live in `target/perfmark-weight/<harness>/`, each with
//! its own target directory, removed before every build. The registry is
//! fetched first (`cargo fetch`), so downloads are never timed; the builds
//! then run `--offline --locked`. The perfmark crate starts from this
//! workspace's `Cargo.lock`, so it builds the versions the workspace tests;
//! Divan's and Criterion's resolve once, on the first run, and keep their
//! lock files afterwards.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

use crate::perfrun::{median, workspace_root, write_file};

/// A harness and its scratch crate's files.
struct Harness {
    name: &'static str,
    /// The dev-dependency line of its `Cargo.toml`.
    dependency: fn(&Path) -> String,
    /// `test` or `bench`: the kind of the one target built.
    kind: &'static str,
    /// The target's source.
    source: &'static str,
}

const HARNESSES: [Harness; 3] = [
    Harness {
        name: "perfmark",
        dependency: |root| format!("perfmark = {{ path = {:?} }}", root.display().to_string()),
        kind: "test",
        source: "\
use perfmark::perf_test;
use std::hint::black_box;

#[perf_test(budget = \"50ns\")]
fn add() -> u64 {
    black_box(1u64) + black_box(2u64)
}

perfmark::main!();
",
    },
    Harness {
        name: "divan",
        dependency: |_| "divan = \"0.1\"".to_owned(),
        kind: "bench",
        source: "\
use std::hint::black_box;

fn main() {
    divan::main();
}

#[divan::bench]
fn add() -> u64 {
    black_box(1u64) + black_box(2u64)
}
",
    },
    Harness {
        name: "criterion",
        dependency: |_| "criterion = \"0.7\"".to_owned(),
        kind: "bench",
        source: "\
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn add(c: &mut Criterion) {
    c.bench_function(\"add\", |b| b.iter(|| black_box(1u64) + black_box(2u64)));
}

criterion_group!(benches, add);
criterion_main!(benches);
",
    },
];

/// One clean build of one harness's scratch crate.
struct Build {
    /// `Compiling` lines: packages compiled, the scratch crate included.
    crates: usize,
    wall_s: f64,
    /// Per package, the summed time of its units (lib, build script and its
    /// run, the test target), from cargo's timing report.
    packages: Vec<(String, f64)>,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let runs = crate::take_count(&mut args, "--runs", 1)?;
    let top = crate::take_count(&mut args, "--top", 15)?;
    if let Some(flag) = args.iter().find(|a| a.starts_with('-')) {
        return Err(format!(
            "weight takes --runs N, --top K and harness names, not `{flag}`"
        ));
    }
    let chosen: Vec<&Harness> = if args.is_empty() {
        HARNESSES.iter().collect()
    } else {
        args.iter()
            .map(|name| {
                HARNESSES.iter().find(|h| h.name == name).ok_or_else(|| {
                    format!("unknown harness `{name}`: perfmark, divan or criterion")
                })
            })
            .collect::<Result<_, _>>()?
    };
    let root = workspace_root();
    let base = root.join("target").join("perfmark-weight");
    for h in &chosen {
        let dir = base.join(h.name);
        write_crate(h, &dir, &root)?;
        eprintln!("weight: fetching {}'s dependencies (not timed)", h.name);
        let status = cargo(&dir)
            .arg("fetch")
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("cargo fetch failed in {}", dir.display()));
        }
    }
    println!(
        "clean release build of a crate with one test or bench per harness, in \
         target/perfmark-weight/ (dependencies fetched beforehand, not timed)"
    );
    println!("load average before: {}", load_average());
    let mut builds: Vec<Vec<Build>> = chosen.iter().map(|_| Vec::new()).collect();
    for r in 0..runs {
        // Each run starts one harness later, so none always builds first.
        let mut line = format!("run {}:", r + 1);
        for k in 0..chosen.len() {
            let i = (r + k) % chosen.len();
            let h = chosen[i];
            let b = build(h, &base.join(h.name))?;
            line.push_str(&format!(
                "  {} {} crates {:.1} s",
                h.name, b.crates, b.wall_s
            ));
            builds[i].push(b);
        }
        println!("{line}");
    }
    println!("load average after: {}", load_average());
    println!();
    println!("| harness | crates compiled | wall, median of {runs} | runs |");
    println!("|---|---|---|---|");
    let medians: Vec<f64> = builds
        .iter()
        .map(|bs| median(&bs.iter().map(|b| b.wall_s).collect::<Vec<_>>()))
        .collect();
    for ((h, bs), m) in chosen.iter().zip(&builds).zip(&medians) {
        let mut crates: Vec<usize> = bs.iter().map(|b| b.crates).collect();
        crates.dedup();
        let crates = crates
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("/");
        let each = bs
            .iter()
            .map(|b| format!("{:.1}", b.wall_s))
            .collect::<Vec<_>>()
            .join(", ");
        println!("| {} | {crates} | {m:.1} s | {each} |", h.name);
    }
    let index = |name: &str| chosen.iter().position(|h| h.name == name);
    if let (Some(p), Some(d)) = (index("perfmark"), index("divan")) {
        println!(
            "\nperfmark / divan, wall: {:.2}× (the goal is ≤ 1.6×)",
            medians[p] / medians[d]
        );
    }
    if let (Some(p), Some(c)) = (index("perfmark"), index("criterion")) {
        println!(
            "perfmark / criterion, wall: {:.2}× (the goal is ≤ 0.5×)",
            medians[p] / medians[c]
        );
    }
    if let Some(p) = index("perfmark") {
        let last = builds[p].last().expect("runs ≥ 1");
        print_breakdown(last, top);
    }
    Ok(())
}

/// Writes the scratch crate of `h` into `dir` (its own workspace).
fn write_crate(h: &Harness, dir: &Path, root: &Path) -> Result<(), String> {
    let target = h.kind;
    let folder = if target == "test" { "tests" } else { "benches" };
    let manifest = format!(
        "# Written by `cargo xtask weight`: a user's crate with one {target}.\n\
         [package]\nname = \"weight-{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n\
         [dev-dependencies]\n{dependency}\n\n\
         [[{target}]]\nname = \"{name}\"\nharness = false\n",
        name = h.name,
        dependency = (h.dependency)(root),
    );
    write_file(&dir.join("Cargo.toml"), &manifest)?;
    write_file(&dir.join("src/lib.rs"), "")?;
    write_file(&dir.join(folder).join(format!("{}.rs", h.name)), h.source)?;
    if h.name == "perfmark" {
        // The versions this workspace builds and tests, not the newest.
        fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"))
            .map_err(|e| format!("cannot copy Cargo.lock: {e}"))?;
    }
    Ok(())
}

/// `cargo` in the scratch crate `dir`, with its own target directory and no
/// compiler wrapper (a cache would make a clean build not clean).
pub(crate) fn cargo(dir: &Path) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("CARGO_TERM_COLOR", "never")
        .env("RUSTC_WRAPPER", "")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    cmd
}

/// One clean build: the target directory removed, then `cargo build
/// --release --timings` of the one test or bench target.
fn build(h: &Harness, dir: &Path) -> Result<Build, String> {
    let target = dir.join("target");
    if target.exists() {
        fs::remove_dir_all(&target)
            .map_err(|e| format!("cannot remove {}: {e}", target.display()))?;
    }
    eprintln!("weight: building {} from clean", h.name);
    let started = Instant::now();
    let out = cargo(dir)
        .args(["build", "--release", "--offline", "--locked", "--timings"])
        .arg(format!("--{}", h.kind))
        .arg(h.name)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let wall_s = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("building {} failed:\n{stderr}", dir.display()));
    }
    let crates = stderr
        .lines()
        .filter(|l| l.trim_start().starts_with("Compiling "))
        .count();
    let html = target.join("cargo-timings").join("cargo-timing.html");
    let html =
        fs::read_to_string(&html).map_err(|e| format!("cannot read {}: {e}", html.display()))?;
    Ok(Build {
        crates,
        wall_s,
        packages: unit_times(&html)?,
    })
}

/// Per package, the summed duration of its units in cargo's timing report
/// (the `UNIT_DATA` array of `cargo-timing.html`), longest first.
fn unit_times(html: &str) -> Result<Vec<(String, f64)>, String> {
    const MARK: &str = "const UNIT_DATA = ";
    let start = html
        .find(MARK)
        .ok_or("cargo's timing report has no UNIT_DATA")?
        + MARK.len();
    let units: Value = serde_json::Deserializer::from_str(&html[start..])
        .into_iter::<Value>()
        .next()
        .ok_or("cargo's timing report: UNIT_DATA is empty")?
        .map_err(|e| format!("cargo's timing report: UNIT_DATA: {e}"))?;
    // (name, version, summed duration)
    let mut packages: Vec<(&str, &str, f64)> = Vec::new();
    for unit in units.as_array().into_iter().flatten() {
        let name = unit["name"].as_str().unwrap_or("?");
        let version = unit["version"].as_str().unwrap_or("?");
        let duration = unit["duration"].as_f64().unwrap_or(0.0);
        match packages
            .iter_mut()
            .find(|(n, v, _)| *n == name && *v == version)
        {
            Some((_, _, d)) => *d += duration,
            None => packages.push((name, version, duration)),
        }
    }
    packages.sort_by(|a, b| b.2.total_cmp(&a.2));
    // Two versions of one crate (syn 2 and 3, say) are named with theirs.
    let named = packages
        .iter()
        .map(|&(name, version, d)| {
            let twice = packages.iter().filter(|p| p.0 == name).count() > 1;
            let label = if twice {
                format!("{name} {version}")
            } else {
                name.to_owned()
            };
            (label, d)
        })
        .collect();
    Ok(named)
}

fn print_breakdown(b: &Build, top: usize) {
    let total: f64 = b.packages.iter().map(|(_, d)| d).sum();
    println!(
        "\nperfmark's build, per package (last run, `cargo build --timings`): {:.1} s of \
         compiler time in {:.1} s of wall time; units overlap on several cores",
        total, b.wall_s
    );
    println!("| package | s | share |");
    println!("|---|---|---|");
    for (name, d) in b.packages.iter().take(top) {
        println!("| {name} | {d:.2} | {:.1}% |", 100.0 * d / total);
    }
    if b.packages.len() > top {
        let rest: f64 = b.packages[top..].iter().map(|(_, d)| d).sum();
        println!(
            "| {} others | {rest:.2} | {:.1}% |",
            b.packages.len() - top,
            100.0 * rest / total
        );
    }
}

pub(crate) fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}
