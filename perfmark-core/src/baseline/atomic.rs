//! The file-system half of a save: an exclusive cross-process lock, and the
//! clean-up of the temporary files that killed saves left. The file itself
//! is replaced by [`crate::fs::replace_file`], which no crash can tear.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::BaselineError;
use crate::fs::{LockError, Wait};

/// How long a save waits for another process's lock before giving up. A
/// save holds the lock for the milliseconds it takes to read, merge and
/// write one file, so a long wait means the holder is stopped or stuck.
const LOCK_TIMEOUT: Duration = Duration::from_secs(120);

/// What to tell the user when the baseline directory cannot be written.
pub(super) const DIR_ADVICE: &str =
    "choose a writable directory with --baseline-dir DIR or PERFMARK_BASELINE_DIR";

/// An exclusive lock on `.<file>.lock` beside a baseline file, held until
/// dropped.
///
/// The lock is [`crate::fs::lock`]'s, which the kernel releases when its
/// holder dies: a killed save never blocks the next.
/// On Unix the lock file is deleted by its holder before unlocking, so no
/// stray file stays beside the committed baselines. That is safe because a
/// process that obtains the lock checks that the path still names the file
/// it locked, and starts over if a previous holder deleted it meanwhile.
#[derive(Debug)]
pub(super) struct LockGuard {
    path: PathBuf,
    /// Kept open: closing it releases the lock.
    _file: File,
}

impl LockGuard {
    /// Takes the lock at `path`, waiting up to [`LOCK_TIMEOUT`].
    pub(super) fn acquire(path: &Path) -> Result<LockGuard, BaselineError> {
        let started = Instant::now();
        loop {
            let left = LOCK_TIMEOUT.saturating_sub(started.elapsed());
            let file = crate::fs::lock(path, Wait::AtMost(left), |_| {}).map_err(|e| match e {
                LockError::TimedOut => BaselineError::lock_timeout(path, LOCK_TIMEOUT.as_secs()),
                LockError::Io { opening, error } => {
                    let what = if opening {
                        "cannot create the baseline lock file"
                    } else {
                        "cannot lock the baseline lock file"
                    };
                    BaselineError::io(path, what, DIR_ADVICE, error)
                }
            })?;
            if still_names(path, &file) {
                return Ok(LockGuard {
                    path: path.to_owned(),
                    _file: file,
                });
            }
            // The previous holder deleted the file we locked: lock the new one.
        }
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        // Delete while still holding the lock (see the type's doc); the
        // lock itself goes when `_file` is closed right after. Failing to
        // delete leaves an empty dot-file, harmless, so the error is dropped.
        if cfg!(unix) {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Whether `path` is still the file `file` has open.
#[cfg(unix)]
fn still_names(path: &Path, file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(path), file.metadata()) {
        (Ok(on_disk), Ok(open)) => on_disk.dev() == open.dev() && on_disk.ino() == open.ino(),
        _ => false,
    }
}

/// Lock files are never deleted off Unix, so the path always names the
/// locked file.
#[cfg(not(unix))]
fn still_names(_path: &Path, _file: &File) -> bool {
    true
}

/// Deletes the temporary files that saves of `target` killed before their
/// rename left in `dir`. Must be called with `target`'s lock held: then no
/// live save of `target` has a temporary file.
pub(super) fn remove_stale_temps(dir: &Path, target: &Path) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if crate::fs::is_temp_of(target, &entry.file_name().to_string_lossy()) {
            match fs::remove_file(entry.path()) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(())
}
