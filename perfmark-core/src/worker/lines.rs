//! Reading protocol lines with bounded memory.
//!
//! A worker's stdout is also its test's stdout, and a test that prints in
//! its routine without a newline (`print!(".")` once per iteration) makes
//! one "line" of hundreds of megabytes in a few seconds. Reading it whole
//! would hold all of it in the coordinator's memory. [`LineReader`] keeps
//! at most [`MAX_LINE_BYTES`] of a line (its end, where a protocol line
//! printed after the test's own text is), and says when it cut one.

use std::io::{self, BufRead};

/// The longest line kept whole, in bytes (16 MiB). The longest protocol
/// line, a greeting listing every test of a binary, is far shorter for any
/// binary a person writes (100,000 tests of 100-byte names fit).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// One line read by [`LineReader::read_line`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line, newline included when there was one; for a cut line, its
    /// last `max` bytes (not necessarily starting on a UTF-8 boundary).
    pub bytes: &'a [u8],
    /// Whether the line was longer than the reader's bound and lost its
    /// beginning.
    pub cut: bool,
}

/// Reads lines of at most a bound of bytes each from a [`BufRead`].
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader keeping at most `max` bytes (at least 1) of each line.
    pub fn new(inner: R, max: usize) -> Self {
        LineReader {
            inner,
            max: max.max(1),
            buf: Vec::new(),
        }
    }

    /// The next line; `None` at the end of the input. Memory held stays
    /// under twice the bound, whatever the input.
    ///
    /// # Errors
    /// When reading fails (an interrupted read is retried).
    pub fn read_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let mut cut = false;
        let mut read_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            read_any = true;
            let (part, ends) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..=i], true),
                None => (chunk, false),
            };
            // Keep the end of the line: drop the front once the buffer
            // holds twice the bound, so each byte is moved O(1) times.
            let take = part.len().min(2 * self.max);
            if part.len() > take {
                cut = true;
                self.buf.clear();
            }
            self.buf.extend_from_slice(&part[part.len() - take..]);
            if self.buf.len() > 2 * self.max {
                let excess = self.buf.len() - self.max;
                self.buf.drain(..excess);
                cut = true;
            }
            let used = part.len();
            self.inner.consume(used);
            if ends {
                break;
            }
        }
        if !read_any {
            return Ok(None);
        }
        if self.buf.len() > self.max {
            let excess = self.buf.len() - self.max;
            self.buf.drain(..excess);
            cut = true;
        }
        Ok(Some(Line {
            bytes: &self.buf,
            cut,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(String, bool)> {
        // A small buffer, so lines span many reads.
        let mut reader = LineReader::new(io::BufReader::with_capacity(3, input), max);
        let mut out = Vec::new();
        while let Some(line) = reader.read_line().unwrap() {
            out.push((String::from_utf8_lossy(line.bytes).into_owned(), line.cut));
        }
        out
    }

    #[test]
    fn short_lines_come_whole_and_long_ones_keep_their_end() {
        assert_eq!(
            lines(b"ab\ncdefghij\nk", 4),
            [
                ("ab\n".to_owned(), false),
                ("hij\n".to_owned(), true),
                ("k".to_owned(), false)
            ]
        );
        assert_eq!(lines(b"", 4), []);
        let newline = ("\n".to_owned(), false);
        assert_eq!(lines(b"\n\n", 1), [newline.clone(), newline]);
        assert_eq!(lines(b"abcd\n", 5), [("abcd\n".to_owned(), false)]);
        assert_eq!(lines(b"abcde\n", 5), [("bcde\n".to_owned(), true)]);
    }

    #[test]
    fn memory_stays_bounded_on_an_endless_line() {
        let input = vec![b'.'; 1 << 20];
        let mut reader = LineReader::new(&input[..], 1000);
        let line = reader.read_line().unwrap().unwrap();
        assert!(line.cut && line.bytes.len() == 1000);
        assert!(
            reader.buf.capacity() <= 4 * 1000 + 2 * 8192,
            "{}",
            reader.buf.capacity()
        );
    }
}
