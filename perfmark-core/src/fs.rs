//! Files that no crash leaves torn and no two processes write at once: the
//! reports, the baseline store and `cargo perfmark report`'s pages all
//! write through [`replace_file`], and the baseline store and the
//! machine-wide measurement lock both lock through [`lock`].

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How [`lock`] waits for another process's lock.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Wait {
    /// As long as it takes (the OS blocks until the holder lets go).
    Forever,
    /// Polling, backing off from 1 ms to 20 ms, at most this long.
    AtMost(Duration),
}

/// Why [`lock`] returned without the lock.
#[derive(Debug)]
pub(crate) enum LockError {
    /// The lock file could not be opened (`opening`) or locked.
    Io { opening: bool, error: io::Error },
    /// Another process held it for the whole [`Wait::AtMost`].
    TimedOut,
}

/// Opens (creating it if needed) the lock file `path` and takes an
/// exclusive advisory lock on it (`File::lock`: `flock` on Unix, which the
/// kernel releases when its holder dies, even by SIGKILL). `on_wait` is
/// called once, with the path, when another process holds it. The lock is
/// held until the returned file is closed.
///
/// # Errors
/// [`LockError::Io`] when the file cannot be opened or locked (a read-only
/// directory, say); [`LockError::TimedOut`] after a [`Wait::AtMost`].
pub(crate) fn lock(
    path: &Path,
    wait: Wait,
    on_wait: impl FnOnce(&Path),
) -> Result<File, LockError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|error| LockError::Io {
            opening: true,
            error,
        })?;
    let locked = |error| LockError::Io {
        opening: false,
        error,
    };
    match file.try_lock() {
        Ok(()) => return Ok(file),
        Err(TryLockError::WouldBlock) => on_wait(path),
        Err(TryLockError::Error(e)) => return Err(locked(e)),
    }
    let limit = match wait {
        Wait::Forever => return file.lock().map(|()| file).map_err(locked),
        Wait::AtMost(limit) => limit,
    };
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        if started.elapsed() >= limit {
            return Err(LockError::TimedOut);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(locked(e)),
        }
    }
}

/// Distinguishes the temporary files of successive writes in one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Replaces `target` (in directory `dir`) with `bytes` so that, whatever
/// happens, `target` holds either its old content or all of the new one:
/// write a temporary file in the same directory, `fsync` it, `rename` it
/// over the target (atomic within one file system), then `fsync` the
/// directory so the rename itself is durable.
///
/// The temporary file is `.<target name>.<pid>.<n>.tmp`: a dot-file with a
/// `.tmp` suffix, never mistaken for the target ([`is_temp_of`] recognizes
/// it). If the process dies before the rename it stays behind; a writer that
/// holds a lock on the target may delete it (the baseline store does).
///
/// # Errors
/// When the temporary file cannot be created, written or synced, or the
/// rename or the directory sync fails; the temporary file is then removed
/// (best effort) and `target` is untouched.
pub fn replace_file(dir: &Path, target: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = file_name(target);
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    let written = write_synced(&temp, bytes)
        .and_then(|()| retry_while(|| fs::rename(&temp, target), in_use_for_now, &RENAME_PAUSES));
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written?;
    sync_dir(dir)
}

/// How long a rename waits, one pause after each try that found a file in
/// use for now ([`in_use_for_now`]): about 0.9 s in all.
const RENAME_PAUSES: [Duration; 6] = [
    Duration::from_millis(10),
    Duration::from_millis(20),
    Duration::from_millis(50),
    Duration::from_millis(100),
    Duration::from_millis(200),
    Duration::from_millis(500),
];

/// Whether a rename failed only because another process has the file open
/// for a moment. On Windows a file opened without `FILE_SHARE_DELETE` (a
/// virus scanner or the search indexer reading the temporary file just
/// written, an editor holding the target) cannot be renamed or replaced
/// until it is closed: `ERROR_ACCESS_DENIED` (5) or
/// `ERROR_SHARING_VIOLATION` (32). std's own readers share delete, and
/// std renames with POSIX semantics where Windows has them, so perfmark's
/// readers never block a save; rustup retries its renames the same way.
/// Elsewhere no rename error passes.
fn in_use_for_now(error: &io::Error) -> bool {
    cfg!(windows) && matches!(error.raw_os_error(), Some(5 | 32))
}

/// `attempt`, tried again after each of `pauses` while it fails with an
/// error `transient` accepts; its last result.
fn retry_while<T>(
    mut attempt: impl FnMut() -> io::Result<T>,
    transient: impl Fn(&io::Error) -> bool,
    pauses: &[Duration],
) -> io::Result<T> {
    let mut pauses = pauses.iter();
    loop {
        match attempt() {
            Err(e) if transient(&e) => match pauses.next() {
                Some(&pause) => std::thread::sleep(pause),
                None => return Err(e),
            },
            result => return result,
        }
    }
}

/// Whether `name` (a file name in the target's directory) is a temporary
/// file of a [`replace_file`] of `target`.
pub(crate) fn is_temp_of(target: &Path, name: &str) -> bool {
    let prefix = format!(".{}.", file_name(target));
    name.starts_with(&prefix) && name.ends_with(".tmp")
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Makes a rename in `dir` durable.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Directories cannot be opened as files off Unix; NTFS journals renames.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "perfmark-fs-{name}-{}-{}",
            std::process::id(),
            TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary_file() {
        let dir = scratch("replace");
        let target = dir.join("report.json");
        replace_file(&dir, &target, b"old content, longer than the new").unwrap();
        replace_file(&dir, &target, b"new").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["report.json"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failed_write_leaves_the_target_untouched() {
        let dir = scratch("fail");
        let target = dir.join("report.json");
        replace_file(&dir, &target, b"kept").unwrap();
        // Renaming a file over a non-empty directory fails.
        let blocked = dir.join("blocked");
        fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(replace_file(&dir, &blocked, b"x").is_err());
        assert_eq!(fs::read(&target).unwrap(), b"kept");
        assert!(fs::read_dir(&dir).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".tmp")));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_in_use_for_now_is_renamed_once_it_is_let_go() {
        let in_use = || io::Error::from_raw_os_error(32);
        let pauses = [Duration::ZERO; 3];
        let mut tries = 0;
        let renamed = retry_while(
            || {
                tries += 1;
                if tries < 3 {
                    Err(in_use())
                } else {
                    Ok(tries)
                }
            },
            |e| e.raw_os_error() == Some(32),
            &pauses,
        );
        assert_eq!(renamed.unwrap(), 3);
        // Held past the last pause: the last error.
        let mut tries = 0;
        let held = retry_while(
            || -> io::Result<()> {
                tries += 1;
                Err(in_use())
            },
            |e| e.raw_os_error() == Some(32),
            &pauses,
        );
        assert_eq!(held.unwrap_err().raw_os_error(), Some(32));
        assert_eq!(tries, 4);
        // Any other error is the answer at once; off Windows every one is.
        assert!(!in_use_for_now(&io::Error::from_raw_os_error(2)));
        assert_eq!(in_use_for_now(&in_use()), cfg!(windows));
    }

    #[test]
    fn temporary_files_are_recognized_by_their_target() {
        let target = Path::new("/x/perf.json");
        assert!(is_temp_of(target, ".perf.json.4242.0.tmp"));
        assert!(!is_temp_of(target, ".perf.json.lock"));
        assert!(!is_temp_of(target, "perf.json"));
        assert!(!is_temp_of(target, ".other.json.1.0.tmp"));
    }
}
