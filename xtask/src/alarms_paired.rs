//! `cargo xtask alarms --paired [--rounds N] [--tolerance T] [--layouts N]`:
//! the paired comparison's false-failure and detection rates, measured end
//! to end, with code layout drawn at random as `cargo perfmark compare`
//! draws it.
//!
//! The alarm suite (`perfmark-kernels/tests/alarms.rs`, nine kernels, three
//! of them chosen for their sensitivity to layout) is built as separate
//! binaries that differ in their code ([`VARIANTS`]):
//!
//! - `base`: scale 1.00, the base of every comparison;
//! - `A/A`: the same source (the same build as `base`, linked with its own
//!   seeds);
//! - layout-only changes, whose work is the base's: `pad 32 B` … `pad 80 B`
//!   (`PERFMARK_ALARM_PAD_BUILD`: that many bytes of no-ops before every
//!   other function of the suite) and `unrelated` (an unrelated function
//!   compiled in, `PERFMARK_ALARM_LAYOUT_BUILD`);
//! - `+5%`, `+10%`, `+20%`: that much more work compiled in.
//!
//! Every variant is built with the layout pinned
//! ([`cargo_perfmark::layout::Pinning`]: every function aligned to 64
//! bytes), into one target directory of the task's own, then linked again
//! `--layouts` times (default [`DEFAULT_LAYOUTS`]) with its functions
//! shuffled ([`draw_layouts`]), variant `i`'s link `k` with the seed
//! `1000·i + k + 1`, so that no two variants share an order. Each head
//! runs with `--compare-with` every link of the base and `--head-layout`
//! every link of its own; `--layouts 1` draws none and compares the pinned
//! builds as they are (the state before layouts were drawn).
//!
//! Each round ([`ROUND`]) runs sixteen comparisons in a fixed interleaved
//! order: A/A five times quiet and three times under an intermittent load
//! (a busy loop on one core, 2 s on, 2 s off: a noisy neighbour whose
//! state changes every two seconds), each layout-only change and each
//! scaled build once, quiet. With the suite's nine tests the default eight
//! rounds give 360 quiet A/A test-runs, 216 loaded ones, 360 of
//! layout-only changes and 72 of each scaled build. Every compared test's
//! verdict, ratio, layout sd and time are read back from `report.json`,
//! typed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cargo_perfmark::cargo::{build_perf_binaries, draw_layouts, Selection, TestBinary};
use cargo_perfmark::layout::{Pinning, DEFAULT_LAYOUTS, FUNCTION_ALIGNMENT};
use perfmark_core::report::Report;
use perfmark_core::stats::quantile;

use crate::load::{Load, Pattern};
use crate::perfrun::{median, scratch_dir, workspace_root, PerfBinary};

/// What a head build changes against the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Nothing: the same source.
    Same,
    /// Where the code lands, not the work.
    Layout,
    /// The work.
    Work,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Same => "same",
            Kind::Layout => "layout",
            Kind::Work => "work",
        }
    }
}

/// One build of the suite.
#[derive(Debug)]
struct Variant {
    name: &'static str,
    kind: Kind,
    /// The variables the suite reads at compile time (`option_env!`).
    envs: &'static [(&'static str, &'static str)],
}

/// The variables of the suite that select a variant: a compiled-in work
/// scale, the unrelated function, the padding's size in bytes.
const SCALE: &str = "PERFMARK_ALARM_SCALE_BUILD";
const UNRELATED: &str = "PERFMARK_ALARM_LAYOUT_BUILD";
const PAD: &str = "PERFMARK_ALARM_PAD_BUILD";
const BUILD_VARS: [&str; 3] = [SCALE, UNRELATED, PAD];

/// A [`Variant`], in one line.
const fn variant(
    name: &'static str,
    kind: Kind,
    envs: &'static [(&'static str, &'static str)],
) -> Variant {
    Variant { name, kind, envs }
}

/// The builds; the first is the base of every comparison, and a variant's
/// index in this list picks its link seeds.
static VARIANTS: [Variant; 10] = [
    variant("base", Kind::Same, &[]),
    variant("A/A", Kind::Same, &[]),
    variant("pad 32 B", Kind::Layout, &[(PAD, "32")]),
    variant("pad 48 B", Kind::Layout, &[(PAD, "48")]),
    variant("pad 64 B", Kind::Layout, &[(PAD, "64")]),
    variant("pad 80 B", Kind::Layout, &[(PAD, "80")]),
    variant("unrelated", Kind::Layout, &[(UNRELATED, "1")]),
    variant("+5%", Kind::Work, &[(SCALE, "1.05")]),
    variant("+10%", Kind::Work, &[(SCALE, "1.10")]),
    variant("+20%", Kind::Work, &[(SCALE, "1.20")]),
];

/// One round: (index in [`VARIANTS`], under the intermittent load). A/A
/// five times quiet and three times loaded, every other head once, quiet,
/// interleaved so that drift of the machine hits them alike.
const ROUND: [(usize, bool); 16] = [
    (1, false),
    (2, false),
    (1, true),
    (7, false),
    (1, false),
    (3, false),
    (1, true),
    (8, false),
    (1, false),
    (4, false),
    (1, true),
    (9, false),
    (1, false),
    (5, false),
    (1, false),
    (6, false),
];

/// A variant built and linked.
#[derive(Debug)]
struct Built {
    /// The pinned build, copied away: the process a comparison starts.
    exe: PathBuf,
    /// Its links with the functions shuffled (none with `--layouts 1`).
    links: Vec<PathBuf>,
}

/// What the builds cost.
#[derive(Debug, Default)]
struct BuildTimes {
    /// Each compiled variant's pinned build, in order (the first compiles
    /// the dependencies too).
    builds: Vec<(&'static str, Duration)>,
    /// Every link drawn, and how long they took together.
    links: usize,
    linking: Duration,
}

/// One compared test-run.
#[derive(Debug, Clone)]
struct Row {
    variant: &'static str,
    kind: Kind,
    test: String,
    loaded: bool,
    fails: bool,
    change: String,
    ratio: f64,
    ratio_low: f64,
    ratio_high: f64,
    between_pair_sd: f64,
    layout_sd: f64,
    layouts: usize,
    stop: String,
    seconds: f64,
    pairs: usize,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut args = args.to_vec();
    let rounds = crate::take_count(&mut args, "--rounds", 8)?;
    let layouts = crate::take_count(&mut args, "--layouts", DEFAULT_LAYOUTS)?;
    let tolerance = take_value(&mut args, "--tolerance")?.unwrap_or_else(|| "3%".to_owned());
    if !args.is_empty() {
        return Err(format!(
            "alarms --paired takes --rounds N, --tolerance T (e.g. 3%) and --layouts N, \
             not {args:?}"
        ));
    }
    let dir = scratch_dir("alarms-paired");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (built, package_dir, times) = build_all(&dir, layouts)?;

    let base = &built[0];
    let base_links = if base.links.is_empty() {
        std::slice::from_ref(&base.exe)
    } else {
        &base.links[..]
    };
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
        for &(index, loaded) in &ROUND {
            let (variant, head) = (&VARIANTS[index], &built[index]);
            let mut args = Vec::new();
            for link in base_links {
                args.extend(["--compare-with".to_owned(), link.display().to_string()]);
            }
            for link in &head.links {
                args.extend(["--head-layout".to_owned(), link.display().to_string()]);
            }
            let binary = PerfBinary {
                exe: head.exe.clone(),
                package_dir: package_dir.clone(),
            };
            load.set(loaded);
            let report = binary.run(
                &args,
                &dir.join("report"),
                &[("PERFMARK_REGRESSION", tolerance.clone())],
            );
            load.set(false);
            rows.extend(rows_of(&report?.0, variant, loaded));
        }
    }
    load.stop();
    print_header(&tolerance, rounds, layouts, started.elapsed(), &times);
    print_groups(&rows);
    print_tests(&rows);
    let csv = dir.join("rows.csv");
    write_rows(&rows, &csv)?;
    println!();
    println!("every test-run: {}", csv.display());
    Ok(())
}

/// A build of the suite: the variables it was built with, the test binary,
/// and its copy.
type Compiled = (&'static [(&'static str, &'static str)], TestBinary, PathBuf);

/// Builds every variant pinned into `dir/target` and draws `layouts` links
/// of each into `dir/layouts` (none when `layouts` is 1); returns them in
/// [`VARIANTS`]' order, the package directory the suite runs in, and what
/// the builds took.
fn build_all(dir: &Path, layouts: usize) -> Result<(Vec<Built>, PathBuf, BuildTimes), String> {
    let root = workspace_root();
    let target_dir = dir.join("target");
    let pinning = Pinning::from_env();
    let selection = Selection {
        packages: vec!["perfmark-kernels".to_owned()],
        tests: vec!["alarms".to_owned()],
    };
    let bin_dir = dir.join("bin");
    std::fs::create_dir_all(&bin_dir).map_err(|e| format!("{}: {e}", bin_dir.display()))?;
    // Each build and link gets its variant's variables on cargo's command;
    // none of them may come from the shell this task was started in (the
    // load starts after the builds, so no other thread reads the
    // environment yet).
    for var in BUILD_VARS {
        std::env::remove_var(var);
    }
    let mut times = BuildTimes::default();
    let mut compiled: Vec<Compiled> = Vec::new();
    let mut built = Vec::new();
    for (index, v) in VARIANTS.iter().enumerate() {
        let slug = v.name.replace('%', "pct").replace(['/', ' ', '+'], "");
        let exe = bin_dir.join(format!("alarms-{index}-{slug}"));
        let binary = match compiled.iter().find(|(envs, _, _)| *envs == v.envs) {
            // The same source: the same build, copied, so that head and
            // base are two files.
            Some((_, binary, copy)) => {
                std::fs::copy(copy, &exe).map_err(|e| format!("{}: {e}", exe.display()))?;
                binary.clone()
            }
            None => {
                eprintln!(
                    "alarms --paired: building {} (functions aligned to {FUNCTION_ALIGNMENT} bytes)",
                    v.name
                );
                let started = Instant::now();
                let binary = build_variant(&root, &target_dir, &pinning, &selection, v.envs)?;
                times.builds.push((v.name, started.elapsed()));
                std::fs::copy(&binary.path, &exe).map_err(|e| format!("{}: {e}", exe.display()))?;
                compiled.push((v.envs, binary.clone(), exe.clone()));
                binary
            }
        };
        let mut links = Vec::new();
        if layouts > 1 {
            eprintln!("alarms --paired: linking {layouts} layouts of {}", v.name);
            let seeds: Vec<u64> = (0..layouts)
                .map(|k| 1000 * index as u64 + k as u64 + 1)
                .collect();
            let started = Instant::now();
            links = draw_layouts(
                &root,
                &target_dir,
                &pinning,
                &binary,
                v.envs,
                &seeds,
                &dir.join("layouts").join(&slug),
            )
            .map_err(|e| format!("{e} (`--layouts 1` compares the pinned builds as they are)"))?;
            times.linking += started.elapsed();
            times.links += links.len();
        }
        built.push(Built { exe, links });
    }
    let package_dir = compiled[0].1.package_dir.clone();
    Ok((built, package_dir, times))
}

/// The suite built pinned with `envs` (and none of the other variables of
/// [`BUILD_VARS`], which [`build_all`] clears) set for the compiler.
fn build_variant(
    root: &Path,
    target_dir: &Path,
    pinning: &Pinning,
    selection: &Selection,
    envs: &[(&str, &str)],
) -> Result<TestBinary, String> {
    build_perf_binaries(
        root,
        Some(target_dir),
        Some(pinning),
        envs,
        selection,
        &["compare"],
    )
    .map_err(|e| e.to_string())?
    .into_iter()
    .find(|b| b.target == "alarms")
    .ok_or_else(|| "cargo built no perf test binary `alarms`".to_owned())
}

/// The compared tests of one run of `variant`.
fn rows_of(report: &Report, variant: &Variant, loaded: bool) -> Vec<Row> {
    report
        .tests
        .iter()
        .filter_map(|t| {
            let c = t.comparison.as_ref()?;
            Some(Row {
                variant: variant.name,
                kind: variant.kind,
                test: t.name.clone(),
                loaded,
                fails: c.fails,
                change: c.change.as_str().to_owned(),
                ratio: c.ratio,
                ratio_low: c.ratio_low,
                ratio_high: c.ratio_high,
                between_pair_sd: c.between_pair_sd,
                layout_sd: c.layout_sd,
                layouts: c.layouts,
                stop: format!("{:?}", c.stop).to_lowercase(),
                seconds: c.elapsed_s,
                pairs: c.process_pairs,
            })
        })
        .collect()
}

fn print_header(
    tolerance: &str,
    rounds: usize,
    layouts: usize,
    took: Duration,
    times: &BuildTimes,
) {
    let drawn = if layouts > 1 {
        format!("{layouts} links of each build, functions shuffled")
    } else {
        "1 (each build as it is, no relinking)".to_owned()
    };
    println!(
        "paired alarms: rounds {rounds}, tolerance {tolerance}, default confidence 0.95 \
         corrected over the suite's tests; layouts: {drawn}; {:.0} s of comparisons",
        took.as_secs_f64()
    );
    let total: f64 = times.builds.iter().map(|(_, d)| d.as_secs_f64()).sum();
    let each: Vec<String> = times
        .builds
        .iter()
        .map(|(name, d)| format!("{name} {:.1}", d.as_secs_f64()))
        .collect();
    println!(
        "builds (pinned, functions aligned to {FUNCTION_ALIGNMENT} bytes): {total:.1} s \
         for {} ({}; the first compiles the dependencies too)",
        times.builds.len(),
        each.join(", ")
    );
    if times.links > 0 {
        println!(
            "links drawn: {} in {:.1} s, {:.2} s per link (each compiles the test crate again)",
            times.links,
            times.linking.as_secs_f64(),
            times.linking.as_secs_f64() / times.links as f64
        );
    }
    println!();
}

/// What a set of test-runs came to.
#[derive(Debug)]
struct Tally {
    runs: usize,
    failed: usize,
    within_spread: usize,
    inconclusive: usize,
    median_ratio: f64,
    median_layout_sd: f64,
    median_pairs: f64,
    median_s: f64,
    p90_s: f64,
}

impl Tally {
    fn of(rows: &[&Row]) -> Tally {
        let values = |f: fn(&Row) -> f64| rows.iter().map(|r| f(r)).collect::<Vec<f64>>();
        let count = |change: &str| rows.iter().filter(|r| r.change == change).count();
        let seconds = values(|r| r.seconds);
        Tally {
            runs: rows.len(),
            failed: rows.iter().filter(|r| r.fails).count(),
            within_spread: count("within_layout_spread"),
            inconclusive: count("inconclusive"),
            median_ratio: median(&values(|r| r.ratio)),
            median_layout_sd: median(&values(|r| r.layout_sd)),
            median_pairs: median(&values(|r| r.pairs as f64)),
            median_s: median(&seconds),
            p90_s: quantile(&seconds, 0.9),
        }
    }

    fn rate(&self) -> f64 {
        100.0 * self.failed as f64 / self.runs as f64
    }
}

fn load_words(loaded: bool) -> &'static str {
    if loaded {
        "1 core busy 2 s on / 2 s off"
    } else {
        "none"
    }
}

/// One line per group of heads: A/A quiet and loaded, each layout-only
/// change and all of them together, each scaled build.
fn print_groups(rows: &[Row]) {
    println!(
        "| head vs base | load | test-runs | failed | rate | within layout spread | \
         inconclusive | median ratio | layout sd (median) | process pairs (median) | \
         s per compared test: median, p90 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut groups: Vec<(String, Vec<&Row>, bool)> = Vec::new();
    for v in &VARIANTS[1..] {
        for loaded in [false, true] {
            let g: Vec<&Row> = rows
                .iter()
                .filter(|r| r.variant == v.name && r.loaded == loaded)
                .collect();
            if !g.is_empty() {
                groups.push((v.name.to_owned(), g, loaded));
            }
        }
        if v.name == "unrelated" {
            let all: Vec<&Row> = rows.iter().filter(|r| r.kind == Kind::Layout).collect();
            if !all.is_empty() {
                groups.push(("layout-only, all".to_owned(), all, false));
            }
        }
    }
    for (name, g, loaded) in groups {
        let t = Tally::of(&g);
        println!(
            "| {name} | {} | {} | {} | {:.1}% | {} | {} | {:.3} | {:.2}% | {:.0} | {:.2}, {:.2} |",
            load_words(loaded),
            t.runs,
            t.failed,
            t.rate(),
            t.within_spread,
            t.inconclusive,
            t.median_ratio,
            100.0 * t.median_layout_sd,
            t.median_pairs,
            t.median_s,
            t.p90_s,
        );
    }
}

/// Per head and test: a layout change that fails one test in every round
/// is a real difference of that binary, not noise; a "+5%" that reads +4%
/// on one kernel is caught less often there.
fn print_tests(rows: &[Row]) {
    println!();
    println!(
        "| head vs base | load | test | test-runs | failed | within layout spread | \
         inconclusive | median ratio | layout sd (median) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut keys: Vec<(&str, bool, &str)> = Vec::new();
    for r in rows {
        let key = (r.variant, r.loaded, r.test.as_str());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.sort_by_key(|&(variant, loaded, _)| {
        (VARIANTS.iter().position(|v| v.name == variant), loaded)
    });
    for (variant, loaded, test) in keys {
        let g: Vec<&Row> = rows
            .iter()
            .filter(|r| r.variant == variant && r.loaded == loaded && r.test == test)
            .collect();
        let t = Tally::of(&g);
        println!(
            "| {variant} | {} | {test} | {} | {} | {} | {} | {:.3} | {:.2}% |",
            load_words(loaded),
            t.runs,
            t.failed,
            t.within_spread,
            t.inconclusive,
            t.median_ratio,
            100.0 * t.median_layout_sd,
        );
    }
}

/// Every test-run, one line each, for a closer look at misses and spreads.
fn write_rows(rows: &[Row], path: &Path) -> Result<(), String> {
    let mut text = String::from(
        "variant,kind,test,loaded,fails,change,ratio,ratio_low,ratio_high,between_pair_sd,\
         layout_sd,layouts,stop,process_pairs,seconds\n",
    );
    for r in rows {
        text.push_str(&format!(
            "{},{},{},{},{},{},{:.5},{:.5},{:.5},{:.5},{:.5},{},{},{},{:.3}\n",
            r.variant,
            r.kind.as_str(),
            r.test,
            r.loaded,
            r.fails,
            r.change,
            r.ratio,
            r.ratio_low,
            r.ratio_high,
            r.between_pair_sd,
            r.layout_sd,
            r.layouts,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_runs_every_head_and_meets_the_counts_the_docs_promise() {
        let count = |index: usize, loaded: bool| {
            ROUND
                .iter()
                .filter(|&&(i, l)| i == index && l == loaded)
                .count()
        };
        assert_eq!(count(0, false) + count(0, true), 0, "the base is no head");
        assert_eq!((count(1, false), count(1, true)), (5, 3));
        for index in 2..VARIANTS.len() {
            assert_eq!((count(index, false), count(index, true)), (1, 0));
        }
        // The suite's nine tests over the default eight rounds: at least
        // 300 test-runs each of quiet A/A and of layout-only changes.
        let layout_heads: usize = (0..VARIANTS.len())
            .filter(|&i| VARIANTS[i].kind == Kind::Layout)
            .map(|i| count(i, false))
            .sum();
        assert!(8 * 9 * count(1, false) >= 300);
        assert!(8 * 9 * layout_heads >= 300);
    }

    #[test]
    fn variants_differ_in_their_variables_but_a_and_a() {
        for (i, a) in VARIANTS.iter().enumerate() {
            for b in &VARIANTS[i + 1..] {
                let same = a.envs == b.envs;
                assert_eq!(same, a.kind == Kind::Same && b.kind == Kind::Same);
            }
            for (k, _) in a.envs {
                assert!(BUILD_VARS.contains(k));
            }
        }
    }
}
