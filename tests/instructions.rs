//! End to end: `--instructions` on the fixture's `counts` target
//! (tests/fixtures/basic/tests/counts.rs), counted under Valgrind's
//! Callgrind. Counts are exact, so every check here is a known ratio or an
//! equality: k times the work reads k times the instructions, a heavy
//! `iter_batched` setup adds nothing, two processes (one with the other
//! core busy) and two layouts of the same code count the same; at the
//! default count tolerance (1%) +2% of work fails a stored or paired count
//! verdict and +0.5% passes, a failure names the function that grew, a
//! count whose hash seeds differ between processes is said to vary and
//! never fails unchanged code, and a missing valgrind is one clear error.
//!
//! Without a runnable `valgrind` the counting tests say so and pass, unless
//! `PERFMARK_REQUIRE_VALGRIND=1` (set by `.ci/run`, which installs it).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

mod support;
use support::{build_fixture, explain, fixture_dir, fixture_target_dir, stdout};

struct Builds {
    base: PathBuf,
    head: PathBuf,
    /// The base with every function aligned to 64 bytes: the same code,
    /// laid out otherwise.
    aligned: PathBuf,
}

/// What a counting build turns on: counting, and the paired comparison
/// that counts both builds.
const COUNTING: &[&str] = &["perfmark/instructions", "perfmark/compare"];

fn builds() -> &'static Builds {
    static BUILDS: OnceLock<Builds> = OnceLock::new();
    BUILDS.get_or_init(|| Builds {
        base: build_fixture("counts", COUNTING, false, "counts-base"),
        head: build_fixture(
            "counts",
            &[COUNTING, &["head"]].concat(),
            false,
            "counts-head",
        ),
        aligned: build_fixture("counts", COUNTING, true, "counts-aligned"),
    })
}

/// Whether counting can be tested here; panics where it must be.
fn valgrind_runs() -> bool {
    let runs = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        assert!(
            std::env::var_os("PERFMARK_REQUIRE_VALGRIND").is_none(),
            "PERFMARK_REQUIRE_VALGRIND is set but valgrind does not run"
        );
        eprintln!("valgrind does not run here: the instruction-count tests are skipped");
    }
    runs
}

/// Runs `exe ARGS` in the fixture's directory with `--instructions`, one
/// run at a time, with no `PERFMARK_*` variable but `envs`.
fn run(exe: &Path, args: &[&str], report_dir: &Path, envs: &[(&str, &str)]) -> Output {
    let _alone = support::alone();
    let mut cmd = Command::new(exe);
    cmd.current_dir(fixture_dir())
        .args(["--instructions", "--no-processes", "--report-dir"])
        .arg(report_dir)
        .args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("PERFMARK_NO_LOCK", "1");
    cmd.envs(envs.iter().copied());
    cmd.output().expect("the fixture binary runs")
}

fn report_dir(name: &str) -> PathBuf {
    let dir = fixture_target_dir().join("counts-reports").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Each test's `instructions` record, by name.
fn counts(report_dir: &Path) -> BTreeMap<String, serde_json::Value> {
    let text = std::fs::read_to_string(report_dir.join("report.json")).expect("report.json");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    report["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter_map(|t| {
            let name = t["name"].as_str()?.to_owned();
            Some((name, t["instructions"].clone()))
        })
        .collect()
}

fn per_iter(counts: &BTreeMap<String, serde_json::Value>, test: &str) -> f64 {
    counts[test]["per_iter"]
        .as_u64()
        .unwrap_or_else(|| panic!("{test} has no count: {}", counts[test])) as f64
}

/// The line of the test's reasons that is its count verdict.
fn count_reason(report_dir: &Path, test: &str, words: &str) -> String {
    let text = std::fs::read_to_string(report_dir.join("report.json")).expect("report.json");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let t = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == test)
        .unwrap_or_else(|| panic!("{test} in the report"));
    t["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r.as_str())
        .find(|r| r.starts_with("instruction count") && r.contains(words))
        .unwrap_or_else(|| panic!("{test}: no count reason with {words:?}: {}", t["reasons"]))
        .to_owned()
}

const NO_LIMITS: [&str; 2] = ["--skip", "limit_"];

#[test]
fn counts_follow_the_work_exclude_the_setup_and_repeat_exactly() {
    if !valgrind_runs() {
        return;
    }
    let b = builds();
    let first = report_dir("first");
    let out = run(&b.base, &NO_LIMITS, &first, &[]);
    assert!(out.status.success(), "{}", explain(&out));
    assert!(
        stdout(&out).contains(" instr/iter"),
        "the line gains the count: {}",
        explain(&out)
    );
    let c = counts(&first);
    for (test, record) in c.iter().filter(|(test, _)| *test != "hashed") {
        assert_eq!(record["deterministic"], true, "{test}: {record}");
        assert_eq!(record["min_per_iter"], record["max_per_iter"], "{test}");
        assert_eq!(record["processes"], 2, "{test}: two processes agreed");
    }
    // Its hash keys drawn anew in each process: the map's count varies
    // between processes, so four count it, and it is said.
    assert_eq!(c["hashed"]["deterministic"], false, "{}", c["hashed"]);
    assert_eq!(c["hashed"]["processes"], 4, "{}", c["hashed"]);
    assert!(
        stdout(&out).contains("instr/iter (not deterministic: "),
        "said on the line: {}",
        explain(&out)
    );
    let base = per_iter(&c, "sum_1000");
    assert!(base > 3000.0, "a thousand iterations of a loop: {base}");
    for (test, k) in [("sum_1010", 1.01), ("sum_1020", 1.02), ("sum_2000", 2.0)] {
        let ratio = per_iter(&c, test) / base;
        assert!(
            (ratio / k - 1.0).abs() < 0.001,
            "{test}: {ratio} times sum_1000's count, not {k}"
        );
    }
    // 100 000 elements made per input, and dropped after the count stops:
    // the count is the routine's, within the tuple it returns.
    let batched = per_iter(&c, "heavy_setup") / base;
    assert!(
        (batched - 1.0).abs() < 0.01,
        "heavy_setup: {batched}× sum_1000"
    );

    // A second process, with the other core kept busy meanwhile: the same
    // counts, exactly.
    let busy = AtomicBool::new(true);
    let second = report_dir("second");
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            let mut x = 0u64;
            while busy.load(Ordering::Relaxed) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        });
        let out = run(&b.base, &NO_LIMITS, &second, &[]);
        busy.store(false, Ordering::Relaxed);
        out
    });
    assert!(out.status.success(), "{}", explain(&out));
    let again = counts(&second);
    for test in c.keys().filter(|t| *t != "hashed") {
        assert_eq!(
            c[test]["per_iter"], again[test]["per_iter"],
            "{test} counted twice"
        );
    }

    // The same code laid out otherwise (every function aligned to 64
    // bytes): the same counts.
    let aligned = report_dir("aligned");
    let out = run(&b.aligned, &NO_LIMITS, &aligned, &[]);
    assert!(out.status.success(), "{}", explain(&out));
    let laid_out = counts(&aligned);
    for test in c.keys().filter(|t| *t != "hashed") {
        assert_eq!(
            c[test]["per_iter"], laid_out[test]["per_iter"],
            "{test}: another layout"
        );
    }
}

/// The tests the tolerance and the functions are proven on.
const COMPARED: [&str; 5] = ["sum_1000", "scaled", "nudged", "two_parts", "hashed"];

/// `first`, then [`COMPARED`].
fn args<'a>(first: &[&'a str]) -> Vec<&'a str> {
    first.iter().copied().chain(COMPARED).collect()
}

#[test]
fn a_stored_count_catches_two_percent_and_passes_unchanged_code() {
    if !valgrind_runs() {
        return;
    }
    let b = builds();
    let baselines = fixture_target_dir().join("counts-baselines");
    let _ = std::fs::remove_dir_all(&baselines);
    let dir = baselines.to_str().unwrap();
    let recorded = report_dir("record");
    // A test whose time interval came out unbounded (a few samples on a
    // loaded machine) is left out of a recording, counts and all; what is
    // tested here is the counts, so the recording is tried up to three
    // times until every test is in it.
    let mut stored = String::new();
    for _ in 0..3 {
        let out = run(
            &b.base,
            &args(&["--save-baseline", "--baseline-dir", dir]),
            &recorded,
            &[],
        );
        assert!(out.status.success(), "{}", explain(&out));
        stored = std::fs::read_to_string(baselines.join("counts.json")).unwrap_or_default();
        if COMPARED
            .iter()
            .all(|t| stored.contains(&format!("\"{t}\"")))
        {
            break;
        }
    }
    assert!(
        COMPARED
            .iter()
            .all(|t| stored.contains(&format!("\"{t}\""))),
        "{stored}"
    );
    assert!(stored.contains("\"instructions\""), "{stored}");
    assert!(
        stored.contains("\"functions\""),
        "a table per count: {stored}"
    );

    // Unchanged code, the seed-dependent map included: no count moves.
    let same = report_dir("same");
    let out = run(&b.base, &args(&["--baseline-dir", dir]), &same, &[]);
    for test in COMPARED {
        let reason = count_reason(&same, test, "vs baseline");
        assert!(
            reason.contains("no change beyond the tolerance"),
            "{test}: {reason}\n{}",
            explain(&out)
        );
    }
    let head = report_dir("head");
    let out = run(&b.head, &args(&["--baseline-dir", dir]), &head, &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    the_head_reads_as_it_changed(&head, "vs baseline", &out);
    assert!(
        stdout(&out).contains("instruction count regressed beyond the 1% tolerance"),
        "said under the failed test: {}",
        explain(&out)
    );
}

/// The head's count verdicts against `source` at the default 1%: +2%
/// fails, naming `sum`; +0.5% passes; 5% more in one function of two
/// fails naming that function first; unchanged code reads +0.00%.
fn the_head_reads_as_it_changed(dir: &Path, source: &str, out: &Output) {
    let reason = count_reason(dir, "scaled", source);
    assert!(
        reason.contains(&format!("instruction count +2.00% {source}"))
            && reason.contains("instruction count regressed beyond the 1% tolerance; where: ")
            && reason.contains("sum +"),
        "{reason}\n{}",
        explain(out)
    );
    let nudged = count_reason(dir, "nudged", source);
    assert!(
        nudged.contains(&format!("+0.50% {source}"))
            && nudged.contains("no change beyond the tolerance"),
        "{nudged}"
    );
    let grown = count_reason(dir, "two_parts", source);
    let named = grown.split("; where: ").nth(1).unwrap_or_default();
    assert!(
        grown.contains("regressed beyond the 1% tolerance")
            && named
                .split(", ")
                .next()
                .is_some_and(|f| f.contains("second_part +350.0")),
        "the function that grew is named first: {grown}"
    );
    let same = count_reason(dir, "sum_1000", source);
    assert!(same.contains(&format!("+0.00% {source}")), "{same}");
}

#[test]
fn paired_counts_give_a_verdict_and_say_whether_they_explain_the_time() {
    if !valgrind_runs() {
        return;
    }
    let b = builds();
    let dir = report_dir("paired");
    let base = b.base.to_str().unwrap();
    let out = run(&b.head, &args(&["--compare-with", base]), &dir, &[]);
    the_head_reads_as_it_changed(&dir, "vs base", &out);
    let text = stdout(&out);
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("time ") && l.contains(", instructions +2.0%: ")),
        "one line says whether the instructions explain the time: {}",
        explain(&out)
    );
    // Both builds' profiles are kept, and cargo perfmark draws from them
    // a differential flame graph that marks the function that grew.
    for side in ["head", "base"] {
        let profile = dir
            .join("profiles")
            .join(format!("two_parts.{side}.callgrind"));
        assert!(profile.is_file(), "{} kept", profile.display());
    }
    let graphs = cargo_perfmark::flame::draw_in(&dir).expect("a profiles folder");
    assert!(graphs.failed.is_empty(), "{graphs}");
    let svg = std::fs::read_to_string(dir.join("profiles/two_parts.diff.svg")).expect("drawn");
    assert!(
        grown_within(&svg, "second_part"),
        "second_part is marked grown"
    );
    assert!(!grown_within(&svg, "first_part"), "first_part is not");

    // The base against itself: the map whose hash seeds differ between
    // processes varies, is said to, and does not fail.
    let aa = report_dir("paired-aa");
    let out = run(
        &b.base,
        &["--compare-with", base, "hashed", "sum_1000"],
        &aa,
        &[],
    );
    assert!(out.status.success(), "{}", explain(&out));
    for test in ["hashed", "sum_1000"] {
        let reason = count_reason(&aa, test, "vs base");
        assert!(
            reason.contains("no change beyond the tolerance"),
            "{test}: {reason}"
        );
    }
}

/// One frame of a flame graph's SVG: its title, where it lies (x and
/// width in percent, y), and whether it is drawn red (more instructions
/// in the head than in the base).
struct SvgFrame {
    title: String,
    x: f64,
    width: f64,
    y: f64,
    red: bool,
}

fn svg_frames(svg: &str) -> Vec<SvgFrame> {
    let attr = |rect: &str, name: &str| -> Option<String> {
        let value = rect
            .split(&format!(" {name}=\""))
            .nth(1)?
            .split('"')
            .next()?;
        Some(value.trim_end_matches('%').to_owned())
    };
    svg.split("<title>")
        .skip(1)
        .filter_map(|frame| {
            let (title, rest) = frame.split_once("</title>")?;
            let rect = rest.split("<rect").nth(1)?.split('>').next()?;
            let fill = attr(rect, "fill")?;
            let rgb: Vec<u32> = fill
                .trim_start_matches("rgb(")
                .trim_end_matches(')')
                .split(',')
                .filter_map(|v| v.trim().parse().ok())
                .collect();
            Some(SvgFrame {
                title: title.to_owned(),
                x: attr(rect, "x")?.parse().ok()?,
                width: attr(rect, "width")?.parse().ok()?,
                y: attr(rect, "y")?.parse().ok()?,
                red: rgb.len() == 3 && rgb[0] > rgb[1] + 20 && rgb[0] > rgb[2] + 20,
            })
        })
        .collect()
}

/// Whether the differential flame graph `svg` marks code of `function`
/// as grown: a red frame on top of `function`'s (differential graphs
/// colour the frames whose own count changed, here the loop's code,
/// inlined into the function).
fn grown_within(svg: &str, function: &str) -> bool {
    let frames = svg_frames(svg);
    frames
        .iter()
        .filter(|f| f.title.contains(function))
        .any(|parent| {
            frames.iter().any(|f| {
                f.red
                    && f.y <= parent.y
                    && f.x >= parent.x - 1e-6
                    && f.x + f.width <= parent.x + parent.width + 1e-6
            })
        })
}

#[test]
fn a_limit_fails_above_it_passes_below_and_is_said_when_not_counted() {
    if !valgrind_runs() {
        return;
    }
    let b = builds();
    let dir = report_dir("limits");
    let out = run(&b.base, &["limit_"], &dir, &[]);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let text = stdout(&out);
    assert!(text.contains("test limit_below ... FAILED"), "{text}");
    assert!(text.contains("over instruction limit 1000: "), "{text}");
    assert!(text.contains("test limit_above ... ok"), "{text}");

    // Not counting: the limit is said not to be checked, and nothing fails.
    let mut cmd = Command::new(&b.base);
    cmd.current_dir(fixture_dir())
        .args(["--no-processes", "--report-dir"])
        .arg(report_dir("limits-off"))
        .arg("limit_below")
        .env("PERFMARK_NO_LOCK", "1")
        .env_remove("PERFMARK_INSTRUCTIONS");
    let out = cmd.output().expect("runs");
    assert!(out.status.success(), "{}", explain(&out));
    // The test's line says so too, not only the report.
    assert!(
        stdout(&out)
            .contains("! instruction limit 1000 not checked: counted only with --instructions"),
        "{}",
        explain(&out)
    );
    let text = std::fs::read_to_string(report_dir_path("limits-off").join("report.json")).unwrap();
    assert!(
        text.contains(
            "instruction limit 1000 not checked: instructions are counted only with --instructions"
        ),
        "{text}"
    );
}

fn report_dir_path(name: &str) -> PathBuf {
    fixture_target_dir().join("counts-reports").join(name)
}

#[test]
fn a_missing_valgrind_is_one_clear_error_before_any_test() {
    let b = builds();
    let dir = report_dir("missing");
    let out = run(
        &b.base,
        &["sum_1000"],
        &dir,
        &[("PERFMARK_VALGRIND", "/nonexistent/valgrind")],
    );
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let all = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert!(
        all.contains("valgrind (`/nonexistent/valgrind`) could not be run")
            && all.contains("apt-get install valgrind"),
        "{all}"
    );
    assert!(!all.contains("test sum_1000"), "no test ran: {all}");
}

#[test]
fn a_simulated_cache_adds_estimated_cycles() {
    if !valgrind_runs() {
        return;
    }
    let b = builds();
    let dir = report_dir("cache");
    let out = run(
        &b.base,
        &["sum_1000", "--exact"],
        &dir,
        &[("PERFMARK_INSTRUCTIONS_CACHE", "1")],
    );
    assert!(out.status.success(), "{}", explain(&out));
    let c = counts(&dir);
    let record = &c["sum_1000"];
    let cycles = record["cycles_per_iter"]
        .as_f64()
        .unwrap_or_else(|| panic!("estimated cycles: {record}"));
    // Every instruction is at least one L1 access: the estimate is at least
    // the instruction count, and a loop over registers and the stack stays
    // within a few times it.
    let instructions = per_iter(&c, "sum_1000");
    assert!(
        cycles >= instructions && cycles < 5.0 * instructions,
        "{cycles} estimated cycles for {instructions} instructions"
    );
    // bencher.json beside report.json holds the same figures.
    let text = std::fs::read_to_string(dir.join("bencher.json")).expect("bencher.json");
    let bencher: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        bencher["sum_1000"]["instructions"]["value"].as_f64(),
        Some(instructions),
        "{text}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(
        bencher["sum_1000"]["latency"]["value"], report["tests"][0]["estimate"]["ns_per_iter"],
        "{text}"
    );
}
