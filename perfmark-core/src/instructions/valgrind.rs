//! The coordinator's side of counting: finding a valgrind that runs,
//! starting this test binary under Callgrind in counting mode, and reading
//! the rounds back from its profile. Compiled with the `instructions`
//! feature, which `cargo perfmark baseline --instructions` and `cargo
//! perfmark compare --instructions` turn on.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Instant;

use super::count::{CacheHits, Events, FunctionCount, InstructionCount, Round};
use super::{profile, COUNT_FLAG, ROUNDS};

/// The variable naming the valgrind executable (default `valgrind` on the
/// `PATH`).
pub const VALGRIND_VAR: &str = "PERFMARK_VALGRIND";

/// The variable that turns Callgrind's cache simulation on, for estimated
/// cycles beside the instructions (it makes counting slower).
pub const CACHE_VAR: &str = "PERFMARK_INSTRUCTIONS_CACHE";

/// Rounds (of one process or of several) whose counts per iteration
/// differ by at most this fraction of the largest are taken to count the
/// same work.
const DETERMINISTIC_SPREAD: f64 = 1e-4;

/// Native time the shorter block of a round is given: the longer runs
/// twice as long, and Callgrind about 50 times slower, so a round costs
/// tens of milliseconds.
const BLOCK_NS: f64 = 200_000.0;

/// The most iterations a block is given, for routines of a nanosecond.
const MAX_BLOCK_ITERS: u64 = 100_000;

/// Iterations of the shorter block for a routine of `ns_per_iter`.
pub fn block_iters(ns_per_iter: f64) -> u64 {
    if ns_per_iter.is_nan() || ns_per_iter <= 0.0 {
        return 1;
    }
    ((BLOCK_NS / ns_per_iter).ceil() as u64).clamp(1, MAX_BLOCK_ITERS)
}

/// A valgrind that runs, with its version (`valgrind-3.22.0`).
#[derive(Debug, Clone)]
pub struct Valgrind {
    /// The executable.
    pub program: OsString,
    /// What `--version` printed.
    pub version: String,
    /// Whether the cache is simulated ([`CACHE_VAR`]).
    pub cache: bool,
}

/// The oldest Valgrind counted with: client-request dumps into one
/// combined file (`--combine-dumps`) and `--collect-atstart` are older,
/// but 3.10 (2014) is the oldest this was reasoned about.
const OLDEST: (u32, u32) = (3, 10);

impl Valgrind {
    /// Finds the valgrind to count with: [`VALGRIND_VAR`], else `valgrind`
    /// on the `PATH`; checks that it runs and is recent enough.
    ///
    /// # Errors
    /// One sentence that says why none can count and how to install one.
    pub fn find() -> Result<Valgrind, String> {
        let named = std::env::var_os(VALGRIND_VAR).filter(|v| !v.is_empty());
        let program = named.clone().unwrap_or_else(|| OsString::from("valgrind"));
        let how = "install Valgrind (`apt-get install valgrind` on Debian and Ubuntu, `dnf \
                   install valgrind` on Fedora), or name it with PERFMARK_VALGRIND=/path/to/valgrind, \
                   or run without --instructions";
        if !crate::platform::Support::current().instructions {
            return Err(format!(
                "--instructions: counting instructions needs Linux on x86-64, and this is {} on \
                 {}; run without --instructions",
                std::env::consts::OS,
                std::env::consts::ARCH
            ));
        }
        let shown = Path::new(&program).display().to_string();
        let out = Command::new(&program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                format!("--instructions: valgrind (`{shown}`) could not be run: {e}; {how}")
            })?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !out.status.success() || !version.starts_with("valgrind-") {
            return Err(format!(
                "--instructions: `{shown} --version` did not answer as valgrind does \
                 ({}); {how}",
                if version.is_empty() {
                    "no output".to_owned()
                } else {
                    format!("{version:?}")
                }
            ));
        }
        match parse_version(&version) {
            Some(v) if v >= OLDEST => {}
            _ => {
                return Err(format!(
                    "--instructions: {version} is older than valgrind-{}.{}, the oldest \
                     perfmark counts with; {how}",
                    OLDEST.0, OLDEST.1
                ))
            }
        }
        Ok(Valgrind {
            program,
            version,
            cache: std::env::var_os(CACHE_VAR).is_some_and(|v| v == "1"),
        })
    }
}

/// `valgrind-3.22.0` → `(3, 22)`.
fn parse_version(text: &str) -> Option<(u32, u32)> {
    let rest = text.strip_prefix("valgrind-")?;
    let mut parts = rest.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// Counting processes a count starts with: two, each with its own hash
/// seeds and addresses, so that a count that depends on them shows it.
const PROCESSES: usize = 2;

/// Processes added when the first ones disagree: a count that varies is
/// judged on its range, and two more processes make that range a fair one
/// (with two a side, an unchanged count that varies would lie wholly above
/// its earlier range now and then).
const MORE_PROCESSES: usize = 2;

/// The most functions a count keeps in its table (the largest self counts
/// per iteration): enough to name what changed, bounded for the baseline.
pub const FUNCTIONS_KEPT: usize = 32;

/// What one counting process measured: its rounds and its per-function
/// table (self instructions per iteration).
struct ProcessCount {
    rounds: Vec<Round>,
    functions: Vec<(profile::Frame, f64)>,
}

/// Counts test `test` of the binary `exe` under `valgrind`, with blocks
/// of `k` and `2k` iterations; `limit` is the test's `instructions` limit.
/// [`PROCESSES`] counting processes run at once; when their rounds
/// disagree, [`MORE_PROCESSES`] more. With `keep`, the first process's
/// profile is kept at that path (for `cargo perfmark`'s flame graphs).
///
/// # Errors
/// A counting process failed (the body panicked under Valgrind, the
/// binary is not a perfmark test binary of this version) or wrote no
/// usable profile: the words say which, with Valgrind's own last lines.
pub fn count(
    valgrind: &Valgrind,
    exe: &Path,
    test: &str,
    k: u64,
    limit: Option<u64>,
    keep: Option<&Path>,
) -> Result<InstructionCount, String> {
    let started = Instant::now();
    let mut processes = count_processes(valgrind, exe, test, k, PROCESSES, keep)?;
    if !agree(&processes, k) {
        processes.extend(count_processes(
            valgrind,
            exe,
            test,
            k,
            MORE_PROCESSES,
            None,
        )?);
    }
    let rounds: Vec<Round> = processes.iter().flat_map(|p| p.rounds.clone()).collect();
    let (per_iter, min, max, cycles) = super::count::summarize(&rounds, k).ok_or_else(|| {
        "the counts do not grow with the iterations (a longer block counted fewer \
         instructions): they are not the routine's"
            .to_owned()
    })?;
    let (deterministic, min, max) = recorded_range(min, max);
    Ok(InstructionCount {
        per_iter,
        min_per_iter: min,
        max_per_iter: max,
        deterministic,
        iters: k,
        rounds: ROUNDS,
        processes: processes.len() as u32,
        cycles_per_iter: cycles,
        limit,
        functions: mean_table(&processes),
        baseline: None,
        base: None,
        valgrind: valgrind.version.clone(),
        elapsed_s: started.elapsed().as_secs_f64(),
    })
}

/// Whether the processes' rounds count the same work ([`recorded_range`]).
fn agree(processes: &[ProcessCount], k: u64) -> bool {
    let rounds: Vec<Round> = processes.iter().flat_map(|p| p.rounds.clone()).collect();
    super::count::summarize(&rounds, k).is_some_and(|(_, min, max, _)| recorded_range(min, max).0)
}

/// The processes' per-function tables, averaged, as the largest
/// [`FUNCTIONS_KEPT`] self counts per iteration.
fn mean_table(processes: &[ProcessCount]) -> Vec<FunctionCount> {
    let mut sums: std::collections::BTreeMap<&profile::Frame, f64> = Default::default();
    for p in processes {
        for (frame, per_iter) in &p.functions {
            *sums.entry(frame).or_default() += per_iter;
        }
    }
    let n = processes.len().max(1) as f64;
    let mut table: Vec<FunctionCount> = sums
        .into_iter()
        .map(|(frame, sum)| FunctionCount {
            function: frame.function.clone(),
            inlined_from: frame.inlined_from.clone(),
            per_iter: sum / n,
        })
        .filter(|f| f.per_iter > 0.0)
        .collect();
    table.sort_by(|a, b| b.per_iter.total_cmp(&a.per_iter));
    table.truncate(FUNCTIONS_KEPT);
    table
}

/// Runs `n` counting processes of test `test` of `exe` at once, each in a
/// scratch directory of its own, and reads their profiles; the first one's
/// profile is copied to `keep` when given.
fn count_processes(
    valgrind: &Valgrind,
    exe: &Path,
    test: &str,
    k: u64,
    n: usize,
    keep: Option<&Path>,
) -> Result<Vec<ProcessCount>, String> {
    let dirs = (0..n)
        .map(|_| scratch_dir())
        .collect::<Result<Vec<_>, _>>()?;
    let started: Vec<_> = dirs
        .iter()
        .map(|dir| {
            callgrind_command(valgrind, exe, test, k, dir)
                .spawn()
                .map_err(|e| format!("valgrind could not be started: {e}"))
        })
        .collect();
    let mut results = Vec::with_capacity(n);
    for (child, dir) in started.into_iter().zip(&dirs) {
        results.push(child.and_then(|c| read_process(c, k, dir)));
    }
    if let (Some(keep), Some(dir)) = (keep, dirs.first()) {
        keep_profile(&dir.join(PROFILE), keep);
    }
    for dir in &dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
    results.into_iter().collect()
}

/// The file name of a counting process's profile in its scratch directory.
const PROFILE: &str = "callgrind.out";

/// Waits for the counting process `child` whose profile and log are in
/// `dir`, and reads its rounds and per-function table.
fn read_process(child: Child, k: u64, dir: &Path) -> Result<ProcessCount, String> {
    let out = child
        .wait_with_output()
        .map_err(|e| format!("the counting process could not be waited for: {e}"))?;
    if !out.status.success() {
        return Err(counting_failure(&out, &dir.join(LOG)));
    }
    let out_file = dir.join(PROFILE);
    let text = std::fs::read_to_string(&out_file)
        .map_err(|e| format!("callgrind wrote no profile ({}): {e}", out_file.display()))?;
    let parts = profile::parts(&text)?;
    Ok(ProcessCount {
        rounds: rounds_of(&parts, ROUNDS)?,
        functions: profile::per_iteration(&parts, k, ROUNDS)?,
    })
}

/// Copies a profile to `keep`, making its folder; a failure is left
/// unsaid here (the flame graph that needed it is then not drawn, and
/// `cargo perfmark` says so).
fn keep_profile(profile: &Path, keep: &Path) {
    if let Some(parent) = keep.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let _ = std::fs::copy(profile, keep);
}

/// The file name of Valgrind's log in a counting process's directory.
const LOG: &str = "valgrind.log";

/// The command that runs test `test` of `exe` in counting mode under
/// Callgrind, collecting only where the blocks ask, into one profile
/// ([`PROFILE`]) in `dir`, with Valgrind's log ([`LOG`]) beside it.
fn callgrind_command(valgrind: &Valgrind, exe: &Path, test: &str, k: u64, dir: &Path) -> Command {
    let (out_file, log_file) = (dir.join(PROFILE), dir.join(LOG));
    let mut cmd = Command::new(&valgrind.program);
    cmd.arg("--tool=callgrind")
        .arg("--collect-atstart=no")
        .arg("--combine-dumps=yes")
        .arg("--compress-strings=no")
        .arg("--compress-pos=no")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(format!("--log-file={}", log_file.display()));
    if valgrind.cache {
        cmd.arg("--cache-sim=yes");
    }
    cmd.arg(exe)
        .arg(COUNT_FLAG)
        .arg(test)
        .arg(k.to_string())
        .arg(ROUNDS.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    cmd
}

/// The words for a counting process that failed: its status, what it
/// said on stderr, and the last lines of Valgrind's log in `log_file`.
fn counting_failure(out: &Output, log_file: &Path) -> String {
    let said = String::from_utf8_lossy(&out.stderr).trim().to_owned();
    let log = std::fs::read_to_string(log_file).unwrap_or_default();
    let tail: Vec<&str> = log.lines().rev().take(3).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    format!(
        "the counting process under valgrind failed ({}){}{}",
        out.status,
        if said.is_empty() {
            String::new()
        } else {
            format!(": {said}")
        },
        if tail.is_empty() {
            String::new()
        } else {
            format!("; valgrind: {}", tail.join(" / "))
        }
    )
}

/// Whether rounds whose counts per iteration range over `[min, max]`
/// count the same work, and the range to record: its middle when they do.
fn recorded_range(min: f64, max: f64) -> (bool, f64, f64) {
    // Rounds that differ by a ten-thousandth count the same work: a few
    // instructions a block outside the iterations (the allocator tidying
    // up now and then) spread over thousands of them. The bound is
    // relative only: half an instruction is 5% of a ten-instruction
    // routine. Such a count is deterministic, recorded as its middle.
    let deterministic = max - min <= DETERMINISTIC_SPREAD * max;
    if deterministic {
        let middle = (min + max) / 2.0;
        (true, middle, middle)
    } else {
        (false, min, max)
    }
}

/// The rounds in `parts`, matched by their labels.
fn rounds_of(parts: &[profile::Part], rounds: u32) -> Result<Vec<Round>, String> {
    let events = |part: &profile::Part| -> Result<Events, String> {
        Ok(Events {
            instructions: *part
                .totals
                .get("Ir")
                .ok_or_else(|| format!("part {:?} has no instruction count (Ir)", part.label))?,
            cache: CacheHits::from_events(&part.totals),
        })
    };
    let pairs = profile::block_pairs(parts, rounds).map_err(|e| {
        format!(
            "{e}: the test's body did not hand its routine to the Bencher under valgrind, or \
             this binary's perfmark does not count"
        )
    })?;
    pairs
        .into_iter()
        .map(|(short, long)| {
            Ok(Round {
                short: events(short)?,
                long: events(long)?,
            })
        })
        .collect()
}

/// A fresh directory of this process's own for one count.
fn scratch_dir() -> Result<PathBuf, String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "perfmark-count-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| {
        format!(
            "cannot make a directory for the profile ({}): {e}",
            dir.display()
        )
    })?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_and_compared() {
        assert_eq!(parse_version("valgrind-3.22.0"), Some((3, 22)));
        assert_eq!(parse_version("valgrind-3.9.0"), Some((3, 9)));
        assert!(parse_version("valgrind-3.9.0").unwrap() < OLDEST);
        assert_eq!(parse_version("valgrind-3.25.0.GIT"), Some((3, 25)));
        assert_eq!(parse_version("memcheck"), None);
    }

    #[test]
    fn blocks_last_about_two_hundred_microseconds() {
        assert_eq!(block_iters(1.0), 100_000);
        assert_eq!(block_iters(1000.0), 200);
        assert_eq!(block_iters(1e9), 1);
        assert_eq!(block_iters(f64::NAN), 1);
        assert_eq!(block_iters(0.0), 1);
    }

    #[test]
    fn rounds_are_matched_by_label_and_a_missing_one_is_said() {
        let part = |label: &str, ir: u64| profile::Part {
            label: label.to_owned(),
            totals: [("Ir".to_owned(), ir)].into_iter().collect(),
            ..Default::default()
        };
        let parts = vec![part("perfmark 0 k", 110), part("perfmark 0 2k", 210)];
        let rounds = rounds_of(&parts, 1).unwrap();
        assert_eq!(
            super::super::count::summarize(&rounds, 10),
            Some((10, 10.0, 10.0, None))
        );
        let error = rounds_of(&parts, 2).unwrap_err();
        assert!(error.contains("no part \"perfmark 1 k\""), "{error}");
    }
}
