//! Reading a file one byte at a time, unbuffered versus buffered.
//!
//! Source: Joseph M. Newcomer, "Profiling for performance", Dr. Dobb's
//! Journal (1993): "an input loop was reading from the
//! input file one character at a time, unbuffered. When we changed it to
//! use buffered I/O, it ran almost ten times faster" — and a timer that
//! counted only user time had hidden it, since the cost is in the kernel.
//! Both readers here consume the file byte by byte; the unbuffered one makes
//! one `read` system call per byte, the buffered one one per 8 KiB.

use std::fs::{self, File};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::rng::SplitMix64;

/// The buffered reader's buffer size, in bytes (std's default).
pub const READ_BUFFER_BYTES: usize = 8 * 1024;

/// File size used by the perf suite, in bytes.
pub const FILE_READ_BYTES: usize = 4096;

/// A temporary file of deterministic pseudo-random bytes, opened for
/// reading, removed when dropped.
#[derive(Debug)]
pub struct TempFileInput {
    path: PathBuf,
    file: File,
    len: usize,
    checksum: u64,
}

/// Distinguishes the files of one process (several may exist at once).
static NEXT_FILE: AtomicU64 = AtomicU64::new(0);

impl TempFileInput {
    /// Creates a file of `len` bytes drawn from `seed` in
    /// `std::env::temp_dir()`, named after the process and a counter, and
    /// opens it for reading. Untimed setup.
    ///
    /// # Errors
    /// When the file cannot be created, written or opened.
    pub fn new(len: usize, seed: u64) -> io::Result<Self> {
        let n = NEXT_FILE.fetch_add(1, Ordering::Relaxed);
        let name = format!("perfmark-kernels-{}-{n}.bin", std::process::id());
        let path = std::env::temp_dir().join(name);
        let mut rng = SplitMix64::new(seed);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let checksum = checksum(bytes.iter().copied());
        let written = File::create(&path).and_then(|mut f| f.write_all(&bytes));
        let opened = written.and_then(|()| File::open(&path));
        match opened {
            Ok(file) => Ok(TempFileInput {
                path,
                file,
                len,
                checksum,
            }),
            Err(e) => {
                // Best effort: do not leave a partial file behind.
                let _ = fs::remove_file(&path);
                Err(e)
            }
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's length in bytes (the work of one read, in bytes).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The checksum both readers must return (computed from the bytes as
    /// they were written).
    pub fn expected_checksum(&self) -> u64 {
        self.checksum
    }

    /// Reads the whole file from the start one byte per `read` system call
    /// and returns its checksum: `len() + 1` reads (the last one sees the
    /// end) and one seek.
    ///
    /// # Errors
    /// When seeking or reading fails.
    pub fn read_unbuffered(&self) -> io::Result<u64> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(0))?;
        let mut sum = Checksum::default();
        let mut byte = [0u8; 1];
        loop {
            match file.read(&mut byte) {
                Ok(0) => return Ok(sum.finish()),
                Ok(_) => sum.add(byte[0]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Reads the whole file from the start one byte at a time through a
    /// [`READ_BUFFER_BYTES`] buffer and returns its checksum: about
    /// `len() / READ_BUFFER_BYTES + 1` system calls, one buffer allocation
    /// and one seek.
    ///
    /// # Errors
    /// When seeking or reading fails.
    pub fn read_buffered(&self) -> io::Result<u64> {
        let mut file = &self.file;
        file.seek(SeekFrom::Start(0))?;
        let mut sum = Checksum::default();
        for byte in BufReader::with_capacity(READ_BUFFER_BYTES, file).bytes() {
            sum.add(byte?);
        }
        Ok(sum.finish())
    }
}

impl Drop for TempFileInput {
    fn drop(&mut self) {
        // Nothing useful can be done if removal fails (it is a temp dir).
        let _ = fs::remove_file(&self.path);
    }
}

/// Fletcher-style running checksum: position-sensitive, so a reader that
/// skipped or reordered bytes would be caught.
#[derive(Debug, Default)]
struct Checksum {
    a: u64,
    b: u64,
}

impl Checksum {
    fn add(&mut self, byte: u8) {
        self.a = self.a.wrapping_add(u64::from(byte));
        self.b = self.b.wrapping_add(self.a);
    }

    fn finish(&self) -> u64 {
        (self.b << 32) ^ self.a
    }
}

fn checksum(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut sum = Checksum::default();
    bytes.for_each(|b| sum.add(b));
    sum.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_readers_return_the_written_checksum() {
        let input = TempFileInput::new(10_000, 8).unwrap();
        assert_eq!(input.len(), 10_000);
        assert_eq!(fs::metadata(input.path()).unwrap().len(), 10_000);
        let want = input.expected_checksum();
        assert_eq!(input.read_unbuffered().unwrap(), want);
        assert_eq!(input.read_buffered().unwrap(), want);
        // Reading again starts over from the beginning.
        assert_eq!(input.read_unbuffered().unwrap(), want);
    }

    #[test]
    fn the_checksum_sees_order() {
        assert_ne!(
            checksum([1u8, 2].into_iter()),
            checksum([2u8, 1].into_iter())
        );
        // By hand: a = 1 + 2 = 3, b = 1 + 3 = 4.
        assert_eq!(checksum([1u8, 2].into_iter()), (4 << 32) ^ 3);
    }

    #[test]
    fn the_file_is_removed_on_drop() {
        let input = TempFileInput::new(16, 1).unwrap();
        let path = input.path().to_path_buf();
        assert!(path.exists());
        drop(input);
        assert!(!path.exists());
    }

    #[test]
    fn an_empty_file_reads_as_zero() {
        let input = TempFileInput::new(0, 1).unwrap();
        assert!(input.is_empty());
        assert_eq!(input.read_unbuffered().unwrap(), 0);
        assert_eq!(input.read_buffered().unwrap(), 0);
    }
}
