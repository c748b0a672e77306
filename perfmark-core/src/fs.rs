//! Writing files so that no crash leaves a torn one: the reports, the
//! baseline store and `cargo perfmark report`'s pages all write through
//! [`replace_file`].

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

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
    let written = write_synced(&temp, bytes).and_then(|()| fs::rename(&temp, target));
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written?;
    sync_dir(dir)
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
    fn temporary_files_are_recognized_by_their_target() {
        let target = Path::new("/x/perf.json");
        assert!(is_temp_of(target, ".perf.json.4242.0.tmp"));
        assert!(!is_temp_of(target, ".perf.json.lock"));
        assert!(!is_temp_of(target, "perf.json"));
        assert!(!is_temp_of(target, ".other.json.1.0.tmp"));
    }
}
