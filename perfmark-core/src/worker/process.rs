//! One worker process: started in worker mode with its placement, spoken
//! to line by line over its stdin and stdout, read with a timeout, and
//! killed when dropped.

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::lines::{LineReader, MAX_LINE_BYTES};
use super::protocol::{decode_line, Reply, Request, PROTOCOL_VERSION, WORKER_FLAG};
use super::{
    is_run_option, Event, Greeting, Placement, Side, HEAP_OFFSET_VAR, STACK_PAD_VAR, TEAM_FREE_VAR,
};
use crate::measure::SampleKind;
use crate::observe::ThreadObservation;
use crate::Error;

/// One running worker process.
#[derive(Debug)]
pub struct WorkerProcess {
    pub(crate) side: Side,
    path: PathBuf,
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<String>>,
}

impl WorkerProcess {
    /// Starts `path` in worker mode for `test`, or to list its tests, at
    /// `placement` when given.
    pub fn spawn(
        path: &Path,
        side: Side,
        test: Option<&str>,
        placement: Option<Placement>,
    ) -> Result<Self, Error> {
        Self::spawn_with(path, side, test, placement, false)
    }

    /// [`WorkerProcess::spawn`], with this process's `PERFMARK_…`
    /// variables kept when `keep_environment` (a worker of this same build
    /// measuring what this process measured, whose test may read them).
    pub fn spawn_with(
        path: &Path,
        side: Side,
        test: Option<&str>,
        placement: Option<Placement>,
        keep_environment: bool,
    ) -> Result<Self, Error> {
        let mut child = worker_command(path, test, placement, keep_environment)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::worker(side, path, format!("could not be started: {e}")))?;
        let events = forward_replies(child.stdout.take().expect("piped"));
        let stderr = keep_stderr(child.stderr.take().expect("piped"));
        Ok(WorkerProcess {
            side,
            path: path.to_owned(),
            stdin: child.stdin.take(),
            child,
            events,
            stderr,
        })
    }

    pub(crate) fn error(&self, message: String) -> Error {
        Error::worker(self.side, &self.path, message)
    }

    /// The one CPU this worker is held on, if it is held on one.
    pub fn held_on(&self) -> Option<usize> {
        crate::cpus::held_on(self.child.id())
    }

    /// The next protocol reply, within `timeout`. A worker that says it
    /// failed, exits, or stays silent is an error (and a silent one is
    /// killed).
    pub fn expect(&mut self, timeout: Duration) -> Result<Reply, Error> {
        match self.events.recv_timeout(timeout) {
            Ok(Event::Reply(Ok(Reply::Failed { message }))) => {
                let _ = self.child.wait();
                Err(self.error(format!("failed: {message}")))
            }
            Ok(Event::Reply(Ok(reply))) => Ok(reply),
            Ok(Event::Reply(Err(e))) => {
                self.kill();
                Err(e.of_worker(self.side, &self.path))
            }
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .wait_briefly()
                    .map_or_else(|| "an unknown status".to_owned(), |s| s.to_string());
                Err(self.error(format!(
                    "exited ({status}) without answering{}",
                    self.stderr_tail()
                )))
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(self.error(format!(
                    "did not answer within {timeout:?} and was killed (PERFMARK_WORKER_TIMEOUT){}",
                    self.stderr_tail()
                )))
            }
        }
    }

    /// Sends `request` and waits for the answer.
    pub fn ask(&mut self, request: &Request, timeout: Duration) -> Result<Reply, Error> {
        let line = serde_json::to_string(request).expect("a request always serializes");
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        if sent.is_err() {
            // The reason is in how it exited.
            return self.expect(Duration::from_secs(5)).and_then(|reply| {
                Err(self.error(format!("stopped reading requests (last said {reply:?})")))
            });
        }
        self.expect(timeout)
    }

    /// Waits for the worker to reach its routine: how it times it and its
    /// first call, ns.
    pub(crate) fn ready(&mut self, timeout: Duration) -> Result<(SampleKind, f64), Error> {
        match self.expect(timeout)? {
            Reply::Ready {
                kind,
                first_call_ns,
            } => Ok((kind, first_call_ns)),
            other => Err(self.error(format!("answered {other:?} instead of ready"))),
        }
    }

    /// Asks for one slice: `warm_iters` untimed iterations, then `iters`
    /// timed. The timed block, and what the worker observed of its thread
    /// meanwhile.
    pub(crate) fn slice(
        &mut self,
        iters: u64,
        warm_iters: u64,
        timeout: Duration,
    ) -> Result<(Duration, Option<ThreadObservation>), Error> {
        match self.ask(&Request::Slice { iters, warm_iters }, timeout)? {
            Reply::Slice { ns, observed } if ns.is_finite() && ns >= 0.0 => {
                Ok((Duration::from_nanos(ns.round() as u64), observed))
            }
            other => Err(self.error(format!("answered {other:?} to a slice"))),
        }
    }

    /// Waits for the greeting and checks the protocol version.
    pub(crate) fn greet(&mut self, timeout: Duration) -> Result<Greeting, Error> {
        match self.expect(timeout) {
            Ok(Reply::Hello {
                protocol,
                tests,
                pinned,
                ..
            }) if protocol == PROTOCOL_VERSION => Ok(Greeting { tests, pinned }),
            Ok(Reply::Hello {
                protocol, perfmark, ..
            }) => {
                self.kill();
                Err(Error::protocol(format!(
                    "speaks perfmark worker protocol {protocol} (perfmark {perfmark}); this \
                     perfmark speaks {PROTOCOL_VERSION}: rebuild both with the same perfmark"
                ))
                .of_worker(self.side, &self.path))
            }
            Ok(other) => {
                self.kill();
                Err(self.error(format!("began with {other:?} instead of a greeting")))
            }
            Err(e) => Err(e.reworded(|message| {
                format!(
                    "is not a perfmark test binary, or not one this perfmark can drive: it \
                     {message}"
                )
            })),
        }
    }

    /// Lets the test body return and the process exit; kills it if it does
    /// not within a few seconds.
    pub fn finish(mut self) -> Result<(), Error> {
        let result = match self.ask(&Request::Done, Duration::from_secs(10)) {
            Ok(Reply::Finished) => Ok(()),
            Ok(other) => Err(self.error(format!("answered {other:?} to done"))),
            Err(e) => Err(e),
        };
        self.stdin = None;
        if self.wait_briefly().is_none() {
            self.kill();
        }
        result
    }

    pub(crate) fn wait_briefly(&mut self) -> Option<std::process::ExitStatus> {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub(crate) fn stderr_tail(&self) -> String {
        // Let the reader thread catch the last words.
        thread::sleep(Duration::from_millis(20));
        let text = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            return String::new();
        }
        let tail = &lines[lines.len().saturating_sub(6)..];
        format!("; its stderr ends:\n{}", tail.join("\n"))
    }
}

/// The command that starts `path` in worker mode for `test` (or to list
/// its tests) at `placement`, with this process's `PERFMARK_…` variables
/// removed: all of them, or when `keep_environment` the run's options
/// alone.
fn worker_command(
    path: &Path,
    test: Option<&str>,
    placement: Option<Placement>,
    keep_environment: bool,
) -> Command {
    let mut cmd = Command::new(path);
    cmd.arg(WORKER_FLAG);
    if let Some(test) = test {
        cmd.arg(test);
    }
    // A worker does what it is asked and nothing else: the run's own
    // options are not its; the test's own variables are, when kept.
    for (key, _) in std::env::vars_os() {
        let text = key.to_string_lossy();
        if text.starts_with("PERFMARK_") && (!keep_environment || is_run_option(&text)) {
            cmd.env_remove(key);
        }
    }
    if let Some(p) = placement {
        cmd.env(STACK_PAD_VAR, "x".repeat(p.stack_pad));
        cmd.env(HEAP_OFFSET_VAR, p.heap_offset.to_string());
        if !p.hold_team {
            cmd.env(TEAM_FREE_VAR, "1");
        }
        if let Some(cpu) = p.cpu {
            crate::cpus::start_on(&mut cmd, cpu);
        }
    }
    cmd
}

/// Reads the worker's `stdout` on a thread of its own: each protocol
/// reply as an event, then [`Event::Closed`] when the stream ends.
fn forward_replies(stdout: ChildStdout) -> Receiver<Event> {
    let (tx, events) = mpsc::channel();
    thread::spawn(move || {
        let mut lines = LineReader::new(BufReader::new(stdout), MAX_LINE_BYTES);
        while let Ok(Some(line)) = lines.read_line() {
            if let Some(reply) = decode_line(&line) {
                if tx.send(Event::Reply(reply)).is_err() {
                    return;
                }
            }
        }
        let _ = tx.send(Event::Closed);
    });
    events
}

/// Reads the worker's `stderr` on a thread of its own into the returned
/// text, of which it keeps the end (at most 16 KiB).
fn keep_stderr(mut pipe: ChildStderr) -> Arc<Mutex<String>> {
    let stderr = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&stderr);
    thread::spawn(move || {
        let mut chunk = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut chunk) {
            if n == 0 {
                break;
            }
            if let Ok(mut text) = sink.lock() {
                text.push_str(&String::from_utf8_lossy(&chunk[..n]));
                // Keep the end: that is where a crash explains itself.
                if text.len() > 16_384 {
                    let cut = text.len() - 8_192;
                    let cut = (cut..text.len())
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(cut);
                    text.drain(..cut);
                }
            }
        }
    });
    stderr
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}
