//! One measurement at a time on the machine, whoever runs it.
//!
//! A test binary runs its perf tests one after the other, but a test runner
//! that starts several processes at once does not: cargo-nextest runs every
//! test in a process of its own, as many at a time as there are cores. Two
//! measurements at once disturb each other (which is why `--test-threads`
//! is accepted and ignored).
//! So every process that is about to measure takes an exclusive lock on a
//! file in the temporary directory (`std::fs::File::lock`, an advisory lock
//! the OS drops when the process ends, however it ends), named after the
//! machine so that a temporary directory shared between machines does not
//! serialize them, and holds it until its last test is measured. The time
//! it waited is reported.
//!
//! The workers of a paired comparison (`--compare-with`) never take it:
//! they run in worker mode, which does not reach the runner, while their
//! coordinator holds it for them (taking it again would deadlock).
//!
//! Under nextest each test's process would also measure the machine's noise
//! floor again (about 0.2 s each); processes of the same nextest run
//! (`NEXTEST_RUN_ID`) share the first one's instead, through a file beside
//! the lock, read and written only while holding it.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::fs::{LockError, Wait};

/// The environment variable nextest sets to the same id for every test of
/// one `cargo nextest run`.
pub const NEXTEST_RUN_ID: &str = "NEXTEST_RUN_ID";

/// A shared noise floor older than this is measured again, even within
/// one nextest run: the machine's state drifts.
const SHARED_NOISE_FLOOR_MAX_AGE: Duration = Duration::from_secs(600);

/// The held lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub(super) struct MachineLock {
    /// Held open: closing it releases the lock.
    _file: File,
    /// The lock file.
    pub path: PathBuf,
    /// How long taking it waited for another process.
    pub waited: Duration,
}

impl MachineLock {
    /// Takes the lock in `dir`, waiting as long as another process holds
    /// it; `on_wait` is called (once) before waiting, with the lock's path.
    ///
    /// # Errors
    /// When the lock file cannot be opened or locked (a read-only
    /// temporary directory, say).
    pub fn acquire(dir: &Path, on_wait: impl FnOnce(&Path)) -> io::Result<MachineLock> {
        let path = lock_path(dir);
        let started = Instant::now();
        let file = crate::fs::lock(&path, Wait::Forever, on_wait).map_err(|e| match e {
            LockError::Io { error, .. } => error,
            LockError::TimedOut => unreachable!("a lock waited for forever does not time out"),
        })?;
        Ok(MachineLock {
            _file: file,
            path,
            waited: started.elapsed(),
        })
    }

    /// The noise floor shared by the processes of nextest run `run_id`,
    /// when one measured it less than [`SHARED_NOISE_FLOOR_MAX_AGE`] ago.
    pub fn shared_noise_floor(&self, run_id: &str) -> Option<f64> {
        let text = std::fs::read_to_string(self.noise_floor_path()).ok()?;
        let value: serde_json::Value = serde_json::from_str(&text).ok()?;
        let age_s = unix_now_s() - value["measured_unix_s"].as_f64()?;
        let fresh = (0.0..SHARED_NOISE_FLOOR_MAX_AGE.as_secs_f64()).contains(&age_s);
        (value["run_id"].as_str()? == run_id && fresh)
            .then(|| value["noise_floor"].as_f64())
            .flatten()
            .filter(|f| f.is_finite() && *f >= 0.0)
    }

    /// Shares `noise_floor`, just measured, with the later processes of
    /// nextest run `run_id`. Best effort: a failure to write only means
    /// they measure their own.
    pub fn share_noise_floor(&self, run_id: &str, noise_floor: f64) {
        let value = serde_json::json!({
            "run_id": run_id,
            "noise_floor": noise_floor,
            "measured_unix_s": unix_now_s(),
        });
        let _ = std::fs::write(self.noise_floor_path(), value.to_string());
    }

    fn noise_floor_path(&self) -> PathBuf {
        self.path.with_extension("noise-floor.json")
    }
}

fn unix_now_s() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// The lock file in `dir` for this machine: `perfmark-measure-<machine>.lock`.
pub(super) fn lock_path(dir: &Path) -> PathBuf {
    dir.join(format!("perfmark-measure-{}.lock", machine_key()))
}

/// What names this machine: its systemd machine id (`/etc/machine-id`),
/// else its host name, else `local`; letters, digits, `-`, `_` and `.`
/// only, at most 40 characters.
fn machine_key() -> String {
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .map(|s| s.trim().to_owned())
    };
    let raw = read("/etc/machine-id")
        .filter(|s| !s.is_empty())
        .or_else(|| read("/proc/sys/kernel/hostname").filter(|s| !s.is_empty()))
        .or_else(|| std::env::var("HOSTNAME").ok().filter(|s| !s.is_empty()))
        .or_else(|| std::env::var("COMPUTERNAME").ok().filter(|s| !s.is_empty()))
        .unwrap_or_else(|| "local".to_owned());
    sanitize(&raw)
}

fn sanitize(raw: &str) -> String {
    let key: String = raw
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(40)
        .collect();
    if key.is_empty() {
        "local".to_owned()
    } else {
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "perfmark-machine-lock-test-{name}-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn keys_are_file_name_safe() {
        assert_eq!(sanitize("build-host.example.com"), "build-host.example.com");
        assert_eq!(sanitize("a/b c:\\d"), "abcd");
        assert_eq!(sanitize("///"), "local");
        assert_eq!(sanitize(&"x".repeat(100)).len(), 40);
        let path = lock_path(Path::new("/tmp"));
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("perfmark-measure-") && name.ends_with(".lock"));
    }

    #[test]
    fn a_second_taker_waits_until_the_first_lets_go() {
        let dir = scratch("wait");
        let first =
            MachineLock::acquire(&dir, |_| panic!("the first taker does not wait")).unwrap();
        assert!(first.waited < Duration::from_secs(1));
        let (sender, receiver) = std::sync::mpsc::channel();
        let taker = {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let lock = MachineLock::acquire(&dir, |path| {
                    sender.send(path.to_owned()).unwrap();
                })
                .unwrap();
                lock.waited
            })
        };
        // The second taker says it waits, on the same file.
        let waited_on = receiver.recv().unwrap();
        assert_eq!(waited_on, first.path);
        std::thread::sleep(Duration::from_millis(50));
        drop(first);
        let waited = taker.join().unwrap();
        assert!(waited >= Duration::from_millis(50), "{waited:?}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_noise_floor_is_shared_within_one_run_only() {
        let dir = scratch("noise");
        let lock = MachineLock::acquire(&dir, |_| {}).unwrap();
        assert_eq!(lock.shared_noise_floor("run-1"), None);
        lock.share_noise_floor("run-1", 0.0125);
        assert_eq!(lock.shared_noise_floor("run-1"), Some(0.0125));
        assert_eq!(lock.shared_noise_floor("run-2"), None);
        drop(lock);
        let _ = std::fs::remove_dir_all(dir);
    }
}
