//! The baseline store (`perfmark_core::baseline`): file format, merging
//! saves, refusal of files it cannot trust, real concurrent and killed
//! processes, fingerprints, stale entries, and the merge of several runs.
//!
//! Processes are this test binary run again with `PERFMARK_STORE_CHILD`
//! set, which makes its `child_process` test act as a saver (see there).

use std::collections::BTreeSet;
use std::env;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use perfmark_core::baseline::{
    BaselineError, BaselineStore, Entry, Fingerprint, RecordedSpread, StoredEstimate,
    StoredProcesses, StoredReference, SCHEMA_VERSION,
};
use perfmark_core::clock::Clock;

// ---------------------------------------------------------------------------
// Helpers

/// A fresh, empty directory for one test, under cargo's scratch directory.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("baseline_store")
        .join(test);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// A fixed fingerprint, so files are reproducible.
fn fingerprint() -> Fingerprint {
    Fingerprint {
        arch: "x86_64".to_owned(),
        cores: 8,
        cpu_model: "Test CPU @ 3.00GHz".to_owned(),
        date: "2026-05-01T12:34:56Z".to_owned(),
        kernel: "6.1.0-test".to_owned(),
        os: "linux".to_owned(),
        perfmark_version: "0.1.0".to_owned(),
        profile: "release".to_owned(),
        rustc: "rustc 1.95.0 (59807616e 2026-04-14)".to_owned(),
    }
}

/// SplitMix64: a seeded generator, so every run draws the same numbers.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// An entry whose samples are noisy values around `ns` (full-precision
/// f64s, the kind that do not survive a lossy float parser).
fn noisy_entry(name: &str, ns: f64, samples: usize, seed: u64) -> Entry {
    let mut rng = Rng(seed);
    let samples_ns: Vec<f64> = (0..samples)
        .map(|_| ns * (0.9 + 0.2 * rng.unit()))
        .collect();
    let estimate = StoredEstimate::new("median", ns, (ns * 0.99, ns * 1.01), 0.95);
    Entry::new(name, estimate, samples_ns, 4096, fingerprint())
}

/// An entry every number of which is `generation`: a file holding a mix of
/// two saves would show it.
fn generation_entry(name: &str, generation: u64, samples: usize) -> Entry {
    let g = generation as f64;
    let estimate = StoredEstimate::new("median", g, (g, g), 0.95);
    Entry::new(
        name,
        estimate,
        vec![g; samples],
        generation.max(1),
        fingerprint(),
    )
}

/// The generation of an entry made by [`generation_entry`], checking that
/// every number in it agrees.
fn generation_of(entry: &Entry, samples: usize) -> u64 {
    let g = entry.estimate().ns_per_iter;
    assert_eq!(
        entry.samples_ns().len(),
        samples,
        "sample count of {}",
        entry.name()
    );
    assert!(
        entry.samples_ns().iter().all(|&s| s == g),
        "samples of mixed generations"
    );
    assert_eq!(
        (entry.estimate().ci_low_ns, entry.estimate().ci_high_ns),
        (g, g)
    );
    assert_eq!(entry.iters_per_sample(), (g as u64).max(1));
    g as u64
}

fn names_in(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .expect("list directory")
        .map(|e| {
            e.expect("directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Child processes

const CHILD_MODE: &str = "PERFMARK_STORE_CHILD";
const CHILD_DIR: &str = "PERFMARK_STORE_CHILD_DIR";
const CHILD_ARG: &str = "PERFMARK_STORE_CHILD_ARG";
const READY: &str = "perfmark-store-child-ready";
/// The target the child processes save into.
const CHILD_TARGET: &str = "perf";
/// Samples in the entry of the killed saver: about 100 kB of JSON, so a
/// save takes long enough to be killed in the middle of.
const BIG_SAMPLES: usize = 5_000;
/// Saves each concurrent child makes, one test each.
const SAVES_PER_CHILD: usize = 4;

/// Not a test of its own: the body of the child processes started by
/// `concurrent_saves_keep_both_processes_entries` and
/// `killed_saves_leave_the_old_or_the_new_file`. Without `PERFMARK_STORE_CHILD`
/// it returns at once.
///
/// - `concurrent`: prints the ready line, waits for the file `go` in the
///   directory, then saves tests `<ARG>::0` … `<ARG>::3`, one save each.
/// - `save-loop`: saves the entry `big` with generation ARG, ARG + 1, … in a
///   tight loop until killed, printing the ready line after the first save.
#[test]
fn child_process() {
    let Ok(mode) = env::var(CHILD_MODE) else {
        return;
    };
    let dir = PathBuf::from(env::var(CHILD_DIR).expect("child directory"));
    let arg = env::var(CHILD_ARG).expect("child argument");
    let store = BaselineStore::new(&dir);
    match mode.as_str() {
        "concurrent" => {
            println!("{READY}");
            let go = dir.join("go");
            let deadline = Instant::now() + Duration::from_secs(30);
            while !go.exists() {
                assert!(Instant::now() < deadline, "the parent never said go");
                thread::sleep(Duration::from_micros(200));
            }
            for i in 0..SAVES_PER_CHILD {
                let entry = noisy_entry(&format!("{arg}::{i}"), 100.0 + i as f64, 50, i as u64);
                store.save(CHILD_TARGET, &[entry]).expect("concurrent save");
            }
        }
        "save-loop" => {
            let mut generation: u64 = arg.parse().expect("generation");
            loop {
                let entry = generation_entry("big", generation, BIG_SAMPLES);
                store.save(CHILD_TARGET, &[entry]).expect("looping save");
                if generation.to_string() == arg {
                    println!("{READY}");
                }
                generation += 1;
            }
        }
        other => panic!("unknown child mode {other:?}"),
    }
}

/// Starts this test binary as a child in `mode`.
fn spawn_child(mode: &str, dir: &Path, arg: &str) -> Child {
    Command::new(env::current_exe().expect("test binary"))
        .args([
            "child_process",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_MODE, mode)
        .env(CHILD_DIR, dir)
        .env(CHILD_ARG, arg)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start child process")
}

/// Waits until the child prints its ready line (libtest may print `test
/// child_process ... ` before it on the same line), then keeps draining its
/// output so it never blocks on a full pipe. A child that is not ready
/// within a minute is killed and fails the test.
fn wait_ready(child: &mut Child) {
    let stdout = child.stdout.take().expect("piped stdout");
    let (ready_tx, ready_rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if line.contains(READY) {
                let _ = ready_tx.send(());
            }
        }
    });
    if ready_rx.recv_timeout(Duration::from_secs(60)).is_err() {
        let _ = child.kill();
        panic!("child was not ready within 60 s: {:?}", child.wait());
    }
}

// ---------------------------------------------------------------------------
// Format

#[test]
fn entries_round_trip_exactly() {
    let dir = scratch("round_trip");
    let store = BaselineStore::new(&dir);
    assert_eq!(store.load("perf").expect("no file is fine"), None);

    let mut entries: Vec<Entry> = (0..5)
        .map(|i| noisy_entry(&format!("group::test_{i}"), 10f64.powi(i), 300, i as u64))
        .collect();
    let runs: Vec<Entry> = (0..3)
        .map(|i| noisy_entry("merged", 50.0 + i as f64, 40, 10 + i))
        .collect();
    entries.push(Entry::median_run_of(&runs));
    let written = store.save("perf", &entries).expect("save");

    let loaded = store.load("perf").expect("load").expect("file exists");
    assert_eq!(loaded, written);
    assert_eq!(loaded.path(), dir.join("perf.json"));
    assert_eq!(loaded.len(), entries.len());
    for entry in &entries {
        let back = loaded.get(entry.name()).expect("entry saved");
        // Bit-for-bit: every sample's f64 reads back as written.
        assert_eq!(back, entry);
    }
    assert!(loaded.get("merged").unwrap().between_runs().is_some());
    assert!(loaded
        .get("group::test_0")
        .unwrap()
        .between_runs()
        .is_none());
}

#[test]
fn the_machine_state_reference_round_trips_and_merges_as_the_estimate_does() {
    let dir = scratch("reference");
    let store = BaselineStore::new(&dir);
    let reference = |ns: f64| StoredReference {
        ci_high_ns: ns * 1.01,
        ci_low_ns: ns * 0.99,
        confidence: 0.95,
        ns_per_step: ns,
    };
    let runs: Vec<Entry> = [(50.0, 1.2), (52.0, 1.25), (51.0, 1.22)]
        .iter()
        .enumerate()
        .map(|(i, &(ns, r))| {
            noisy_entry("merged", ns, 40, 20 + i as u64).with_reference(reference(r))
        })
        .collect();
    let merged = Entry::median_run_of(&runs);
    let between = merged.between_runs().unwrap();
    assert_eq!(between.reference_ns, [1.2, 1.25, 1.22]);
    // The stored reference is the runs' geometric mean, as the estimate
    // the rule compares is.
    let r = merged.reference().unwrap();
    let mean = (1.2f64 * 1.25 * 1.22).powf(1.0 / 3.0);
    assert!((r.ns_per_step - mean).abs() < 1e-12, "{r:?}");
    assert!(r.ci_low_ns < r.ns_per_step && r.ns_per_step < r.ci_high_ns);
    // The references moved by 2% and more: a line is fitted, with R − 2
    // degrees of freedom left.
    let fit = between.residual_fit().unwrap();
    assert_eq!(fit.residual.df, 1.0);
    let single = noisy_entry("single", 7.0, 40, 30).with_reference(reference(1.3));
    let written = store
        .save("perf", &[merged.clone(), single.clone()])
        .expect("save");
    let loaded = store.load("perf").expect("load").expect("file exists");
    assert_eq!(loaded, written);
    assert_eq!(loaded.get("merged").unwrap(), &merged);
    assert_eq!(loaded.get("single").unwrap(), &single);
    // A run without a reference leaves the merged entry without one.
    let mut mixed = runs.clone();
    mixed.push(noisy_entry("merged", 53.0, 40, 40));
    assert!(Entry::median_run_of(&mixed).reference().is_none());
    // A reference that is not a positive time inside its interval is
    // refused, and nothing is written.
    let bad = noisy_entry("bad", 7.0, 40, 31).with_reference(StoredReference {
        ci_low_ns: f64::NEG_INFINITY,
        ..reference(1.3)
    });
    let err = store.save("perf", &[bad]).unwrap_err();
    assert!(err.to_string().contains("reference"), "{err}");
    assert_eq!(store.load("perf").unwrap().unwrap(), written);
}

#[test]
fn the_spread_between_processes_round_trips_and_pools_over_runs() {
    let dir = scratch("processes");
    let store = BaselineStore::new(&dir);
    let spread = |sd_log: f64| StoredProcesses { df: 4.0, sd_log };
    let runs: Vec<Entry> = [(50.0, 0.02), (52.0, 0.04), (51.0, 0.0)]
        .iter()
        .enumerate()
        .map(|(i, &(ns, sd))| {
            noisy_entry("merged", ns, 40, 50 + i as u64).with_processes(spread(sd))
        })
        .collect();
    // Pooled over the runs: degrees of freedom summed, variances weighed.
    let merged = Entry::median_run_of(&runs);
    let pooled = merged.processes().unwrap();
    assert_eq!(pooled.df, 12.0);
    let expected = ((4.0 * 0.0004 + 4.0 * 0.0016) / 12.0f64).sqrt();
    assert!((pooled.sd_log - expected).abs() < 1e-15, "{pooled:?}");
    let single = noisy_entry("single", 7.0, 40, 60).with_processes(spread(0.03));
    let written = store
        .save("perf", &[merged.clone(), single.clone()])
        .expect("save");
    let loaded = store.load("perf").expect("load").expect("file exists");
    assert_eq!(loaded, written);
    assert_eq!(loaded.get("merged").unwrap(), &merged);
    assert_eq!(
        loaded.get("single").unwrap().processes(),
        Some(&spread(0.03))
    );
    // Runs measured in one process leave the merged entry without one.
    let plain: Vec<Entry> = (0..2)
        .map(|i| noisy_entry("plain", 9.0, 40, 70 + i))
        .collect();
    assert!(Entry::median_run_of(&plain).processes().is_none());
    // A spread that is not a finite sd with a degree of freedom is
    // refused, and nothing is written.
    for bad in [
        StoredProcesses {
            df: 0.0,
            sd_log: 0.1,
        },
        StoredProcesses {
            df: 4.0,
            sd_log: f64::NAN,
        },
    ] {
        let entry = noisy_entry("bad", 7.0, 40, 61).with_processes(bad);
        let err = store.save("perf", &[entry]).unwrap_err();
        assert!(err.to_string().contains("processes"), "{err}");
    }
    assert_eq!(store.load("perf").unwrap().unwrap(), written);
}

#[test]
fn file_is_pretty_with_sorted_keys_and_arrays_of_numbers_on_one_line() {
    let dir = scratch("pretty_sorted");
    let store = BaselineStore::new(&dir);
    let zeta = Entry::new(
        "zeta",
        StoredEstimate::new("mean", 12.5, (12.0, 13.0), 0.99),
        vec![12.25, 12.75],
        8,
        fingerprint(),
    );
    let alpha_runs = [
        Entry::new(
            "alpha::sort",
            StoredEstimate::new("median", 2.0, (1.5, 2.5), 0.95),
            vec![2.0],
            1,
            fingerprint(),
        ),
        Entry::new(
            "alpha::sort",
            StoredEstimate::new("median", 4.0, (3.5, 4.5), 0.95),
            vec![4.0],
            1,
            fingerprint(),
        ),
    ];
    let alpha = Entry::median_run_of(&alpha_runs);
    store.save("perf", &[zeta, alpha]).expect("save");
    let text = fs::read_to_string(dir.join("perf.json")).expect("read");
    let fp = r#"      "fingerprint": {
        "arch": "x86_64",
        "cores": 8,
        "cpu_model": "Test CPU @ 3.00GHz",
        "date": "2026-05-01T12:34:56Z",
        "kernel": "6.1.0-test",
        "os": "linux",
        "perfmark_version": "0.1.0",
        "profile": "release",
        "rustc": "rustc 1.95.0 (59807616e 2026-04-14)"
      },
"#;
    let expected = format!(
        r#"{{
  "schema": 1,
  "tests": {{
    "alpha::sort": {{
      "between_runs": {{
        "run_estimates_ns": [2.0, 4.0],
        "runs": 2,
        "sd_log": 0.49012907173427356
      }},
      "clock": "wall",
      "estimate": {{
        "ci_high": 2.5,
        "ci_low": 1.5,
        "confidence": 0.95,
        "ns_per_iter": 2.0,
        "statistic": "median"
      }},
{fp}      "iters_per_sample": 1,
      "sample_count": 1,
      "samples_ns": [2.0]
    }},
    "zeta": {{
      "clock": "wall",
      "estimate": {{
        "ci_high": 13.0,
        "ci_low": 12.0,
        "confidence": 0.99,
        "ns_per_iter": 12.5,
        "statistic": "mean"
      }},
{fp}      "iters_per_sample": 8,
      "sample_count": 2,
      "samples_ns": [12.25, 12.75]
    }}
  }}
}}
"#
    );
    assert_eq!(text, expected);
    assert!((std::f64::consts::LN_2 / 2f64.sqrt() - 0.49012907173427356).abs() < 1e-15);
}

#[test]
fn filtered_save_keeps_other_entries_byte_for_byte() {
    let dir = scratch("filtered");
    let store = BaselineStore::new(&dir);
    let a = noisy_entry("a", 10.0, 200, 1);
    let b = noisy_entry("b", 20.0, 200, 2);
    let c = noisy_entry("c", 30.0, 200, 3);
    store
        .save("perf", &[a, b.clone(), c.clone()])
        .expect("first save");

    // A run filtered to `a` saves only `a`.
    let a2 = noisy_entry("a", 11.0, 150, 4);
    let after = store
        .save("perf", std::slice::from_ref(&a2))
        .expect("filtered save");
    assert_eq!(after.get("a"), Some(&a2));
    assert_eq!(after.get("b"), Some(&b));
    assert_eq!(after.get("c"), Some(&c));

    // The kept entries are not even reformatted: the file is exactly what a
    // fresh save of the same three entries writes.
    let fresh = scratch("filtered_fresh");
    BaselineStore::new(&fresh)
        .save("perf", &[a2, b, c])
        .expect("fresh save");
    let merged_text = fs::read(dir.join("perf.json")).unwrap();
    assert_eq!(merged_text, fs::read(fresh.join("perf.json")).unwrap());

    // Fields of a newer perfmark (same schema) survive a save of another test.
    let text = String::from_utf8(merged_text).unwrap();
    let text = text
        .replacen("\"schema\": 1,", "\"schema\": 1,\n  \"note\": \"kept\",", 1)
        .replacen("\"b\": {", "\"b\": {\n      \"x_future\": [1, 2],", 1);
    fs::write(dir.join("perf.json"), &text).unwrap();
    store
        .save("perf", &[noisy_entry("c", 31.0, 10, 5)])
        .expect("save with unknown fields");
    let text = fs::read_to_string(dir.join("perf.json")).unwrap();
    assert!(text.contains("\"note\": \"kept\""), "{text}");
    assert!(text.contains("\"x_future\": [1, 2]\n"), "{text}");
}

// ---------------------------------------------------------------------------
// Files that cannot be trusted

/// Writes `bytes` as `perf.json`, then checks that loading and saving both
/// fail with an error that `is` of the expected kind, names the file and
/// says what to do, and that the file is left as it was.
fn assert_refused(test: &str, bytes: &[u8], is: fn(&BaselineError) -> bool) -> String {
    let dir = scratch(test);
    let store = BaselineStore::new(&dir);
    let path = dir.join("perf.json");
    fs::write(&path, bytes).unwrap();

    let error = store.load("perf").expect_err("load must refuse the file");
    assert!(is(&error), "{test}: wrong kind of error: {error}");
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("{}: ", path.display())),
        "{message}"
    );
    assert!(message.contains("--save-baseline"), "{message}");
    assert_eq!(error.path(), Some(path.as_path()));

    let save = store.save("perf", &[noisy_entry("new", 5.0, 10, 9)]);
    let save_error = save.expect_err("save must refuse to overwrite the file");
    assert!(
        is(&save_error),
        "{test}: wrong kind of error on save: {save_error}"
    );
    assert_eq!(save_error.to_string(), message);
    assert_eq!(
        fs::read(&path).unwrap(),
        bytes,
        "{test}: the file was changed"
    );
    // Nothing but the file is left behind (no temporary or lock file).
    assert_eq!(names_in(&dir), BTreeSet::from(["perf.json".to_owned()]));
    message
}

/// A valid file's text, for the tests that damage one.
fn valid_text(test: &str) -> Vec<u8> {
    let dir = scratch(&format!("{test}_valid"));
    let store = BaselineStore::new(&dir);
    store
        .save(
            "perf",
            &[noisy_entry("a", 1.0, 20, 1), noisy_entry("b", 2.0, 20, 2)],
        )
        .unwrap();
    fs::read(dir.join("perf.json")).unwrap()
}

#[test]
fn corrupt_file_is_refused_and_untouched() {
    let message = assert_refused(
        "corrupt",
        b"{ \"schema\": 1, \"tests\": { oops } }\n",
        |e| e.is_corrupt() && !e.is_truncated() && !e.is_future_schema() && !e.is_io(),
    );
    assert!(message.contains("invalid JSON"), "{message}");
    assert!(message.contains("line 1 column"), "{message}");
    assert!(
        message.contains("restore it from version control"),
        "{message}"
    );

    assert_refused("not_utf8", b"\xff\xfe{}", BaselineError::is_corrupt);
    assert_refused("not_object", b"[1, 2, 3]\n", BaselineError::is_corrupt);
    assert_refused("no_schema", b"{\"tests\": {}}\n", BaselineError::is_corrupt);
    assert_refused(
        "schema_zero",
        b"{\"schema\": 0, \"tests\": {}}\n",
        BaselineError::is_corrupt,
    );
    assert_refused(
        "schema_text",
        b"{\"schema\": \"1\", \"tests\": {}}\n",
        BaselineError::is_corrupt,
    );
    assert_refused("no_tests", b"{\"schema\": 1}\n", BaselineError::is_corrupt);

    // Damaged entries, found by the names of the test and the field.
    let text = String::from_utf8(valid_text("corrupt")).unwrap();
    let no_estimate = text.replacen("\"estimate\"", "\"estimat\"", 1);
    let message = assert_refused(
        "missing_field",
        no_estimate.as_bytes(),
        BaselineError::is_corrupt,
    );
    assert!(
        message.contains("test `a`") && message.contains("estimate"),
        "{message}"
    );
    let wrong_count = text.replacen("\"sample_count\": 20", "\"sample_count\": 21", 1);
    let message = assert_refused(
        "sample_count",
        wrong_count.as_bytes(),
        BaselineError::is_corrupt,
    );
    assert!(
        message.contains("sample_count is 21 but 20 samples"),
        "{message}"
    );
    let upside_down = text.replacen("\"ci_low\": 0.99", "\"ci_low\": 9.99", 1);
    let message = assert_refused(
        "ci_upside_down",
        upside_down.as_bytes(),
        BaselineError::is_corrupt,
    );
    assert!(
        message.contains("ci_low (9.99) is above ci_high (1.01)"),
        "{message}"
    );
}

#[test]
fn truncated_file_is_refused_and_untouched() {
    let text = valid_text("truncated");
    // Cut anywhere (in a key, a number, between entries), it is refused.
    for cut in [1, 17, text.len() / 3, text.len() / 2, text.len() - 3] {
        let message = assert_refused(
            &format!("truncated_{cut}"),
            &text[..cut],
            BaselineError::is_truncated,
        );
        assert!(message.contains("truncated baseline file"), "{message}");
    }
    let message = assert_refused("empty", b"", BaselineError::is_truncated);
    assert!(message.contains("the file is empty"), "{message}");
    // A samples array shortened by hand (say, a cut file "repaired") is
    // valid JSON; `sample_count` catches it.
    let text = String::from_utf8(text).unwrap();
    let fixed = text.replacen(
        "\"samples_ns\": [",
        "\"samples_ns\": [1.0],\n      \"x\": [",
        1,
    );
    assert_ne!(fixed, text);
    assert_refused("hand_fixed", fixed.as_bytes(), BaselineError::is_corrupt);
}

#[test]
fn future_schema_is_refused_and_untouched() {
    let dir_name = "future_schema";
    let future = format!(
        "{{\n  \"schema\": {},\n  \"tests\": [\"a layout this perfmark does not know\"]\n}}\n",
        SCHEMA_VERSION + 6
    );
    let message = assert_refused(dir_name, future.as_bytes(), |e| {
        e.is_future_schema() && !e.is_corrupt() && !e.is_io()
    });
    let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("baseline_store")
        .join(dir_name)
        .join("perf.json");
    assert_eq!(
        message,
        format!(
            "{}: schema 7 is newer than this perfmark supports (1); upgrade perfmark, or delete \
             the file and re-record with --save-baseline",
            path.display()
        )
    );
}

#[test]
fn unwritable_directory_is_a_clear_error() {
    // Tests run as root, which ignores permission bits, so the directory is
    // made unwritable by putting it under a regular file: no user can
    // create it.
    let dir = scratch("unwritable");
    let blocker = dir.join("not-a-directory");
    fs::write(&blocker, b"a regular file").unwrap();
    let baselines = blocker.join("perf-baselines");
    let store = BaselineStore::new(&baselines);

    let error = store
        .save("perf", &[noisy_entry("a", 1.0, 5, 1)])
        .expect_err("cannot save");
    assert!(error.is_io() && !error.is_corrupt(), "{error}");
    assert_eq!(error.path(), Some(baselines.as_path()));
    let message = error.to_string();
    assert!(
        message.starts_with(&format!(
            "{}: cannot create the baseline directory",
            baselines.display()
        )),
        "{message}"
    );
    assert!(message.contains("--baseline-dir"), "{message}");
    assert!(std::error::Error::source(&error).is_some());

    // Loading from there is an error too, not "no baseline".
    let error = store.load("perf").expect_err("cannot read");
    assert!(error.is_io(), "{error}");
    assert!(error.to_string().contains(&baselines.display().to_string()));

    // A baseline path that is a directory cannot be read or replaced.
    let dir = scratch("file_is_directory");
    fs::create_dir_all(dir.join("perf.json")).unwrap();
    let store = BaselineStore::new(&dir);
    assert!(store
        .load("perf")
        .expect_err("a directory is not a file")
        .is_io());
    assert!(store
        .save("perf", &[noisy_entry("a", 1.0, 5, 1)])
        .expect_err("no replace")
        .is_io());
}

#[test]
fn invalid_entries_and_names_are_refused_before_writing() {
    let dir = scratch("invalid");
    let store = BaselineStore::new(&dir);
    let nan = Entry::new(
        "nan",
        StoredEstimate::new("median", f64::NAN, (1.0, 2.0), 0.95),
        vec![1.0],
        1,
        fingerprint(),
    );
    let error = store
        .save("perf", &[noisy_entry("ok", 1.0, 5, 1), nan])
        .expect_err("NaN");
    assert!(error.is_invalid(), "{error}");
    assert!(
        error.to_string().contains("test `nan`: ns_per_iter is NaN"),
        "{error}"
    );
    let no_samples = Entry::new(
        "empty",
        StoredEstimate::new("median", 1.0, (1.0, 1.0), 0.95),
        vec![],
        1,
        fingerprint(),
    );
    assert!(store
        .save("perf", &[no_samples])
        .expect_err("no samples")
        .is_invalid());
    let bad_confidence = Entry::new(
        "c",
        StoredEstimate::new("median", 1.0, (1.0, 1.0), 95.0),
        vec![1.0],
        1,
        fingerprint(),
    );
    assert!(store
        .save("perf", &[bad_confidence])
        .expect_err("confidence")
        .is_invalid());
    let twice = [noisy_entry("x", 1.0, 5, 1), noisy_entry("x", 2.0, 5, 2)];
    assert!(store
        .save("perf", &twice)
        .expect_err("duplicate")
        .to_string()
        .contains("given twice"));
    for target in ["", "../perf", "perf.json", ".perf", "a/b"] {
        assert!(store
            .save(target, &[noisy_entry("x", 1.0, 5, 1)])
            .expect_err(target)
            .is_invalid());
        assert!(store.load(target).expect_err(target).is_invalid());
    }
    assert!(
        names_in(&dir).is_empty(),
        "nothing may be written: {:?}",
        names_in(&dir)
    );
}

// ---------------------------------------------------------------------------
// Processes

#[test]
fn concurrent_saves_keep_both_processes_entries() {
    const ROUNDS: usize = 20;
    let started = Instant::now();
    for round in 0..ROUNDS {
        let dir = scratch(&format!("concurrent_{round}"));
        let store = BaselineStore::new(&dir);
        let kept = noisy_entry("kept", 7.0, 30, round as u64);
        store
            .save(CHILD_TARGET, std::slice::from_ref(&kept))
            .expect("initial save");

        let mut children = [
            spawn_child("concurrent", &dir, "alpha"),
            spawn_child("concurrent", &dir, "beta"),
        ];
        children.iter_mut().for_each(wait_ready);
        fs::write(dir.join("go"), b"").unwrap();
        for child in &mut children {
            assert!(
                child.wait().expect("child exit").success(),
                "a child's save failed"
            );
        }

        let file = store
            .load(CHILD_TARGET)
            .expect("valid file")
            .expect("file exists");
        let mut expected: BTreeSet<String> = BTreeSet::from(["kept".to_owned()]);
        for prefix in ["alpha", "beta"] {
            for i in 0..SAVES_PER_CHILD {
                let name = format!("{prefix}::{i}");
                let entry = file
                    .get(&name)
                    .unwrap_or_else(|| panic!("round {round}: {name} lost"));
                assert_eq!(entry, &noisy_entry(&name, 100.0 + i as f64, 50, i as u64));
                expected.insert(name);
            }
        }
        let names: BTreeSet<String> = file.entries().map(|e| e.name().to_owned()).collect();
        assert_eq!(names, expected, "round {round}");
        assert_eq!(file.get("kept"), Some(&kept));
        let left: Vec<String> = names_in(&dir)
            .into_iter()
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(
            left.is_empty(),
            "round {round}: lock or temporary files left: {left:?}"
        );
    }
    eprintln!(
        "concurrent saves: {ROUNDS} rounds of 2 processes in {:?}",
        started.elapsed()
    );
}

#[test]
fn killed_saves_leave_the_old_or_the_new_file() {
    const KILLS: usize = 25;
    let dir = scratch("killed");
    let store = BaselineStore::new(&dir);
    let kept = noisy_entry("kept", 3.0, 100, 77);
    store
        .save(
            CHILD_TARGET,
            &[kept.clone(), generation_entry("big", 1, BIG_SAMPLES)],
        )
        .unwrap();

    // Kill at a random moment within the first three saves after the
    // child's first one, so kills land in every phase of a save (reading
    // under the lock, writing the temporary file, syncing, renaming).
    let save_started = Instant::now();
    store
        .save(CHILD_TARGET, &[generation_entry("big", 1, BIG_SAMPLES)])
        .unwrap();
    let save_us = save_started.elapsed().as_micros().max(100) as u64;

    let mut rng = Rng(2026);
    let mut committed = 1;
    let mut torn_temps = 0;
    let started = Instant::now();
    for kill in 0..KILLS {
        let first = committed + 1;
        let mut child = spawn_child("save-loop", &dir, &first.to_string());
        // The child has saved generation `first`: from now on the file may
        // only hold it or a later one.
        wait_ready(&mut child);
        thread::sleep(Duration::from_micros(rng.next_u64() % (3 * save_us)));
        child.kill().expect("SIGKILL the child");
        let status = child.wait().expect("reap child");
        assert!(
            !status.success(),
            "kill {kill}: the child was not killed: {status}"
        );

        let file = store
            .load(CHILD_TARGET)
            .unwrap_or_else(|e| panic!("kill {kill}: the file is damaged: {e}"))
            .expect("the file exists");
        let generation = generation_of(file.get("big").expect("big entry"), BIG_SAMPLES);
        assert!(
            generation >= first,
            "kill {kill}: generation {generation} went back before {first}"
        );
        assert_eq!(
            file.get("kept"),
            Some(&kept),
            "kill {kill}: the other entry changed"
        );
        assert_eq!(file.len(), 2);
        let text = fs::read_to_string(dir.join("perf.json")).unwrap();
        assert!(text.ends_with("}\n"), "kill {kill}: file not complete");
        committed = generation;

        // Temporary files of a killed save are never taken for baselines.
        torn_temps += names_in(&dir)
            .iter()
            .filter(|n| n.ends_with(".tmp"))
            .count();
        assert_eq!(store.targets().unwrap(), vec![CHILD_TARGET.to_owned()]);
    }
    eprintln!(
        "killed saves: {KILLS} kills in {:?} (one save {save_us} us), {} saves committed, \
         {torn_temps} temporary files of interrupted saves seen",
        started.elapsed(),
        committed - 1
    );
    // The next save cleans up whatever the killed ones left.
    store
        .save(CHILD_TARGET, &[generation_entry("big", committed + 1, 10)])
        .unwrap();
    assert_eq!(names_in(&dir), BTreeSet::from(["perf.json".to_owned()]));
}

#[test]
fn only_target_files_are_listed_as_baselines() {
    let dir = scratch("targets");
    let store = BaselineStore::new(&dir);
    assert!(BaselineStore::new(dir.join("missing"))
        .targets()
        .unwrap()
        .is_empty());
    store.save("perf", &[noisy_entry("a", 1.0, 5, 1)]).unwrap();
    store
        .save("kernels-suite", &[noisy_entry("b", 1.0, 5, 1)])
        .unwrap();
    for stray in [
        ".perf.json.4242.0.tmp",
        ".perf.json.lock",
        "README.md",
        "notes.json.bak",
        "x.y.json",
    ] {
        fs::write(dir.join(stray), b"{").unwrap();
    }
    assert_eq!(store.targets().unwrap(), ["kernels-suite", "perf"]);
    assert_eq!(store.load("perf").unwrap().unwrap().len(), 1);
    assert_eq!(
        BaselineStore::in_package("/pkg").dir(),
        Path::new("/pkg/perf-baselines")
    );
}

// ---------------------------------------------------------------------------
// Fingerprints

#[test]
fn current_fingerprint_describes_this_machine() {
    let fp = Fingerprint::current("rustc 1.95.0", "release", "0.1.0");
    assert_eq!(fp.os, env::consts::OS);
    assert_eq!(fp.arch, env::consts::ARCH);
    assert_eq!(fp.cores, thread::available_parallelism().unwrap().get());
    assert!(!fp.cpu_model.is_empty());
    assert_eq!(
        (
            fp.rustc.as_str(),
            fp.profile.as_str(),
            fp.perfmark_version.as_str()
        ),
        ("rustc 1.95.0", "release", "0.1.0")
    );
    if cfg!(target_os = "linux") {
        assert!(!fp.kernel.is_empty());
        assert_ne!(fp.cpu_model, "unknown CPU");
    }
    // RFC 3339 UTC to the second: 2026-05-01T12:34:56Z.
    let d = fp.date.as_bytes();
    assert_eq!(d.len(), 20, "{}", fp.date);
    for (i, &c) in d.iter().enumerate() {
        let expected_digit = !matches!(i, 4 | 7 | 10 | 13 | 16 | 19);
        assert_eq!(c.is_ascii_digit(), expected_digit, "{}", fp.date);
    }
    assert_eq!(
        (d[4], d[7], d[10], d[13], d[16], d[19]),
        (b'-', b'-', b'T', b':', b':', b'Z')
    );
    assert!(fp.date.as_str() >= "2025-01-01T00:00:00Z");
    assert!(fp.compare(&fp).is_comparable());
    assert!(fp.compare(&fp).differences().is_empty());
}

#[test]
fn fingerprint_same_and_different_machines() {
    let baseline = fingerprint();
    let mut here = fingerprint();
    let same = here.compare(&baseline);
    assert!(same.is_comparable());
    assert_eq!(same.to_string(), "baseline recorded on this machine");

    // A patch release of the toolchain, another kernel and the date are
    // listed and leave the baseline in use, with a note (not the date).
    here.rustc = "rustc 1.95.1 (0000000 2026-06-01)".to_owned();
    here.perfmark_version = "0.1.1".to_owned();
    here.kernel = "6.1.0-test2".to_owned();
    here.date = "2026-06-02T08:00:00Z".to_owned();
    let newer = here.compare(&baseline);
    assert!(newer.is_comparable());
    let fields = |m: &perfmark_core::baseline::MachineMatch| -> Vec<(&str, String, String)> {
        m.differences()
            .iter()
            .map(|d| (d.field, d.then.clone(), d.now.clone()))
            .collect()
    };
    let owned =
        |(field, then, now): (&'static str, &str, &str)| (field, then.to_owned(), now.to_owned());
    assert_eq!(
        fields(&newer),
        [
            ("kernel", "6.1.0-test", "6.1.0-test2"),
            (
                "rustc",
                "rustc 1.95.0 (59807616e 2026-04-14)",
                "rustc 1.95.1 (0000000 2026-06-01)"
            ),
            ("perfmark", "0.1.0", "0.1.1"),
            ("date", "2026-05-01T12:34:56Z", "2026-06-02T08:00:00Z"),
        ]
        .map(owned)
    );
    let note = "baseline recorded under kernel 6.1.0-test, now 6.1.0-test2; rustc 1.95.0 \
                (59807616e 2026-04-14), now rustc 1.95.1 (0000000 2026-06-01); perfmark 0.1.0, \
                now 0.1.1: still used (a kernel, rustc or perfmark patch release does not make \
                times incomparable)";
    assert_eq!(newer.note().as_deref(), Some(note));
    assert_eq!(newer.to_string(), note);
    // The date alone: nothing to note.
    let mut later = fingerprint();
    later.date = "2026-06-02T08:00:00Z".to_owned();
    assert_eq!(later.compare(&baseline).note(), None);

    // A minor release of rustc: not used to fail, and the sentence says why.
    let mut upgraded = fingerprint();
    upgraded.rustc = "rustc 1.96.0 (0000000 2026-06-01)".to_owned();
    let verdict = upgraded.compare(&baseline);
    assert!(!verdict.is_comparable());
    assert_eq!(verdict.note(), None);
    assert_eq!(
        verdict.to_string(),
        "baseline recorded on Test CPU @ 3.00GHz, 8 cores, linux 6.1.0-test, x86_64, release \
         profile, rustc 1.95.0 (59807616e 2026-04-14); this machine Test CPU @ 3.00GHz, 8 \
         cores, linux 6.1.0-test, x86_64, release profile, rustc 1.96.0 (0000000 2026-06-01): \
         not used to fail (rustc 1.95 in the baseline, 1.96 here: another major or minor \
         release may change the times)"
    );

    // Another CPU or core count: not used to fail, said in words.
    let mut other = fingerprint();
    other.cpu_model = "Other CPU".to_owned();
    other.cores = 2;
    let verdict = other.compare(&baseline);
    assert!(!verdict.is_comparable());
    assert_eq!(
        verdict.to_string(),
        "baseline recorded on Test CPU @ 3.00GHz, 8 cores, linux 6.1.0-test, x86_64, release \
         profile; this machine Other CPU, 2 cores, linux 6.1.0-test, x86_64, release profile: \
         not used to fail"
    );
    assert_eq!(
        fields(&verdict)[..2],
        [
            ("CPU", "Test CPU @ 3.00GHz", "Other CPU"),
            ("cores", "8", "2")
        ]
        .map(owned)
    );

    // Each machine field alone disqualifies (the kernel does not: above).
    type Change = (&'static str, fn(&mut Fingerprint));
    let changes: [Change; 7] = [
        ("cpu", |f| f.cpu_model.push('!')),
        ("cores", |f| f.cores = 16),
        ("os", |f| f.os = "macos".to_owned()),
        ("arch", |f| f.arch = "aarch64".to_owned()),
        ("profile", |f| f.profile = "debug".to_owned()),
        ("rustc", |f| f.rustc = "rustc 2.0.0".to_owned()),
        ("perfmark", |f| f.perfmark_version = "0.2.0".to_owned()),
    ];
    for (what, change) in changes {
        let mut here = fingerprint();
        change(&mut here);
        let verdict = here.compare(&baseline);
        assert!(!verdict.is_comparable(), "{what} must disqualify");
        assert_eq!(
            verdict.differences().len(),
            1,
            "{what}: {:?}",
            verdict.differences()
        );
        assert!(verdict.to_string().contains(": not used to fail"));
    }
}

// ---------------------------------------------------------------------------
// Stale entries and merged runs

#[test]
fn stale_entries_are_listed() {
    let dir = scratch("stale");
    let store = BaselineStore::new(&dir);
    let saved = ["mod_a::x", "mod_b::y", "old_name", "z"].map(|n| noisy_entry(n, 1.0, 3, 1));
    store.save("perf", &saved).unwrap();
    let file = store.load("perf").unwrap().unwrap();
    let current = vec![
        "mod_a::x".to_owned(),
        "z".to_owned(),
        "brand_new".to_owned(),
    ];
    assert_eq!(file.stale_tests(&current), ["mod_b::y", "old_name"]);
    assert_eq!(
        file.stale_tests(["mod_a::x", "mod_b::y", "old_name", "z"]),
        Vec::<String>::new()
    );
    assert_eq!(file.stale_tests(Vec::<&str>::new()).len(), 4);
}

/// Three tests recorded over five processes each, named `a`, `b`, `c`.
fn recording() -> Vec<Entry> {
    let factors: [f64; 5] = [1.0, 1.02, 0.98, 1.01, 0.995];
    ["a", "b", "c"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let runs: Vec<Entry> = factors
                .iter()
                .enumerate()
                .map(|(r, f)| {
                    // Each test moves a little differently between runs.
                    let ns = 10.0 * (i + 1) as f64 * f.powf(1.0 + i as f64 / 2.0);
                    noisy_entry(name, ns, 10, (10 * i + r) as u64)
                })
                .collect();
            Entry::median_run_of(&runs)
        })
        .collect()
}

#[test]
fn the_machine_spread_is_stored_at_the_top_and_kept_by_later_saves() {
    let dir = scratch("machine_spread");
    let store = BaselineStore::new(&dir);
    let entries = recording();
    let spread = RecordedSpread::from_entries(&entries).expect("three recorded tests");
    assert_eq!((spread.tests, spread.runs), (3, 5));
    let file = store.save_recording("perf", &entries, &spread).unwrap();
    assert_eq!(file.between_run_spread(), Some(&spread));
    let text = fs::read_to_string(dir.join("perf.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = json["between_run_spread"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["df", "estimator", "fingerprint", "runs", "sd_log", "tests"]
    );
    assert_eq!(json["between_run_spread"]["estimator"], "smyth2004_moments");
    // Read back exactly; a one-test save keeps it.
    let loaded = store.load("perf").unwrap().unwrap();
    assert_eq!(loaded.between_run_spread(), Some(&spread));
    store
        .save("perf", &[noisy_entry("d", 3.0, 10, 99)])
        .unwrap();
    let loaded = store.load("perf").unwrap().unwrap();
    assert_eq!(loaded.between_run_spread(), Some(&spread));
    assert_eq!(loaded.len(), 4);
}

#[test]
fn an_unusable_machine_spread_is_refused() {
    let mut text: serde_json::Value = serde_json::from_slice(&valid_text("bad_spread")).unwrap();
    text["between_run_spread"] = serde_json::json!({
        "df": 4.0, "estimator": "smyth2004_moments",
        "fingerprint": fingerprint(),
        "runs": 5, "sd_log": -0.02, "tests": 3
    });
    let message = assert_refused(
        "bad_spread",
        serde_json::to_string_pretty(&text).unwrap().as_bytes(),
        BaselineError::is_corrupt,
    );
    assert!(message.contains("between_run_spread"), "{message}");
    // And a save is refused before anything is written.
    let dir = scratch("bad_spread_save");
    let mut spread = RecordedSpread::from_entries(&recording()).unwrap();
    spread.tests = 1;
    let error = BaselineStore::new(&dir)
        .save_recording("perf", &recording(), &spread)
        .unwrap_err();
    assert!(error.is_invalid(), "{error}");
    assert!(!dir.join("perf.json").exists());
}

#[test]
fn entries_record_their_clock_and_old_files_read_as_wall() {
    let dir = scratch("clock");
    let store = BaselineStore::new(&dir);
    let cpu = noisy_entry("slept", 100.0, 30, 1).with_clock(Clock::Cpu);
    let wall = noisy_entry("spun", 100.0, 30, 2);
    assert_eq!(wall.clock(), Clock::Wall);
    store.save("perf", &[cpu.clone(), wall]).expect("save");
    let text = fs::read_to_string(dir.join("perf.json")).expect("read");
    assert!(text.contains("\"clock\": \"cpu\""), "{text}");
    let loaded = store.load("perf").expect("load").expect("file exists");
    assert_eq!(loaded.get("slept"), Some(&cpu));
    assert_eq!(loaded.get("spun").unwrap().clock(), Clock::Wall);

    // A file written before the field existed: every entry is wall-clock.
    let old = text
        .replace("      \"clock\": \"cpu\",\n", "")
        .replace("      \"clock\": \"wall\",\n", "");
    assert!(!old.contains("\"clock\""), "{old}");
    fs::write(dir.join("perf.json"), old).expect("write");
    let loaded = store.load("perf").expect("load").expect("file exists");
    assert_eq!(loaded.get("slept").unwrap().clock(), Clock::Wall);
}

#[test]
fn a_file_saved_again_with_nothing_new_keeps_every_byte() {
    // perfmark-kernels' committed baseline file: 64 tests, 0.86 MB, as the
    // store writes it (each array of numbers on one line). A save that
    // changes no entry must not change its text either (numbers included),
    // or every save would churn the whole file in review.
    let committed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../perfmark-kernels/perf-baselines/perf.json"
    );
    let before = std::fs::read(committed).unwrap();
    let dir = std::env::temp_dir().join(format!("perfmark-resave-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("perf.json"), &before).unwrap();
    BaselineStore::new(&dir).save("perf", &[]).unwrap();
    let after = std::fs::read(dir.join("perf.json")).unwrap();
    assert!(before == after, "the text changed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_in_the_old_layout_reads_and_is_rewritten_in_the_new() {
    // Files written before arrays of numbers went on one line: serde_json's
    // pretty text, one sample per line.
    let dir = scratch("old_layout");
    let store = BaselineStore::new(&dir);
    let entries = recording();
    let spread = RecordedSpread::from_entries(&entries).unwrap();
    let written = store.save_recording("perf", &entries, &spread).unwrap();
    let new_text = fs::read_to_string(dir.join("perf.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&new_text).unwrap();
    let old_text = serde_json::to_string_pretty(&value).unwrap() + "\n";
    assert!(old_text.contains("\"samples_ns\": [\n"), "{old_text}");
    assert!(old_text.lines().count() > new_text.lines().count() + 30);
    fs::write(dir.join("perf.json"), &old_text).unwrap();

    let loaded = store.load("perf").unwrap().unwrap();
    assert_eq!(loaded, written);
    // The next save writes the new layout, every number as it was.
    store.save("perf", &[]).unwrap();
    assert_eq!(fs::read_to_string(dir.join("perf.json")).unwrap(), new_text);

    // A key twice is still refused in both layouts: a merge that kept both
    // sides of a re-recorded test's samples line.
    for (layout, text) in [("new", &new_text), ("old", &old_text)] {
        let twice = text.replacen(
            "\"samples_ns\": [",
            "\"samples_ns\": [1.0],\n      \"samples_ns\": [",
            1,
        );
        let message = assert_refused(
            &format!("twice_{layout}_layout"),
            twice.as_bytes(),
            BaselineError::is_corrupt,
        );
        assert!(
            message.contains("the key \"samples_ns\" appears twice in one object"),
            "{message}"
        );
    }
}

/// The lines of `old` and `new` that a line diff shows as removed or added
/// (each line not in their longest common subsequence).
fn diff_lines<'a>(old: &'a str, new: &'a str) -> Vec<&'a str> {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    // common[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut common = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i][j] = if a[i] == b[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut changed) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            (i, j) = (i + 1, j + 1);
        } else if j == b.len() || (i < a.len() && common[i + 1][j] >= common[i][j + 1]) {
            changed.push(a[i]);
            i += 1;
        } else {
            changed.push(b[j]);
            j += 1;
        }
    }
    changed
}

#[test]
fn a_re_recorded_test_changes_a_few_lines_of_the_file() {
    let dir = scratch("re_recorded");
    let store = BaselineStore::new(&dir);
    let recorded = |name: &str, ns: f64, seed: u64, date: &str| {
        let runs: Vec<Entry> = (0..5)
            .map(|r| {
                let run = noisy_entry(name, ns * (1.0 + 0.01 * r as f64), 300, seed + r);
                let fingerprint = Fingerprint {
                    date: date.to_owned(),
                    ..fingerprint()
                };
                Entry::new(
                    name,
                    run.estimate().clone(),
                    run.samples_ns().to_vec(),
                    4096,
                    fingerprint,
                )
            })
            .collect();
        Entry::median_run_of(&runs)
    };
    let first = "2026-05-01T12:34:56Z";
    store
        .save(
            "perf",
            &[
                recorded("a", 10.0, 1, first),
                recorded("b", 20.0, 10, first),
                recorded("c", 30.0, 20, first),
            ],
        )
        .unwrap();
    let before = fs::read_to_string(dir.join("perf.json")).unwrap();
    // `b` re-recorded: new samples, estimate, CI, runs and date.
    store
        .save("perf", &[recorded("b", 21.0, 30, "2026-06-02T08:00:00Z")])
        .unwrap();
    let after = fs::read_to_string(dir.join("perf.json")).unwrap();

    let changed = diff_lines(&before, &after);
    // Removed and added: run estimates, sd_log, ci_high, ci_low,
    // ns_per_iter, date, samples: seven lines each way, all of them `b`'s.
    assert_eq!(changed.len(), 14, "{changed:#?}");
    let b_lines = |text: &str| -> BTreeSet<String> {
        let start = text.find("\n    \"b\": {").unwrap();
        let end = text.find("\n    \"c\": {").unwrap();
        text[start..end].lines().map(str::to_owned).collect()
    };
    let (b_before, b_after) = (b_lines(&before), b_lines(&after));
    assert!(changed
        .iter()
        .all(|line| b_before.contains(*line) || b_after.contains(*line)));
    // An entry is a screenful (29 lines with its name), whatever its
    // sample count.
    assert_eq!(after.lines().count(), 5 + 3 * 29, "{after}");

    // The same re-recording in serde_json's pretty layout: one line per
    // changed sample.
    let old_layout = |text: &str| {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        serde_json::to_string_pretty(&value).unwrap()
    };
    let (before, after) = (old_layout(&before), old_layout(&after));
    let changed_before = diff_lines(&before, &after).len();
    assert!(changed_before > 600, "{changed_before}");
}
