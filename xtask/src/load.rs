//! A controlled noisy neighbour: busy loops in this process that a task
//! switches on around the runs it wants loaded, and that log when they were
//! busy.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// What the loops do while the load is on.
#[derive(Debug, Clone, Copy)]
pub struct Pattern {
    /// Loops that spin all the time.
    pub steady: usize,
    /// One more loop that spins for `.0` and rests for `.1`, over and over.
    pub intermittent: Option<(Duration, Duration)>,
}

/// The running loops.
pub struct Load {
    on: Arc<AtomicBool>,
    quit: Arc<AtomicBool>,
    threads: Vec<thread::JoinHandle<()>>,
    busy_periods: Arc<Mutex<Vec<(f64, f64)>>>,
}

/// Now, in seconds since the Unix epoch (as `report.json` stamps a test's
/// interference span).
pub fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

fn spin(x: &mut u64) {
    *x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
}

impl Load {
    /// Starts the loops of `pattern`, off until [`Load::set`] turns them on.
    pub fn new(pattern: Pattern) -> Self {
        let on = Arc::new(AtomicBool::new(false));
        let quit = Arc::new(AtomicBool::new(false));
        let busy_periods = Arc::new(Mutex::new(Vec::new()));
        let mut threads = Vec::new();
        for _ in 0..pattern.steady {
            let (o, q) = (Arc::clone(&on), Arc::clone(&quit));
            threads.push(thread::spawn(move || {
                let mut x = 1u64;
                while !q.load(Ordering::Relaxed) {
                    if o.load(Ordering::Relaxed) {
                        spin(&mut x);
                    } else {
                        thread::sleep(Duration::from_millis(20));
                    }
                }
            }));
        }
        if let Some((busy, rest)) = pattern.intermittent {
            let (o, q, log) = (
                Arc::clone(&on),
                Arc::clone(&quit),
                Arc::clone(&busy_periods),
            );
            threads.push(thread::spawn(move || {
                let mut x = 1u64;
                while !q.load(Ordering::Relaxed) {
                    if !o.load(Ordering::Relaxed) {
                        thread::sleep(Duration::from_millis(20));
                        continue;
                    }
                    // Logged open when it starts, so that a reader never
                    // misses the period under way.
                    if let Ok(mut log) = log.lock() {
                        log.push((unix_now(), f64::INFINITY));
                    }
                    let started = Instant::now();
                    while started.elapsed() < busy && o.load(Ordering::Relaxed) {
                        spin(&mut x);
                    }
                    if let Ok(mut log) = log.lock() {
                        if let Some(last) = log.last_mut() {
                            last.1 = unix_now();
                        }
                    }
                    let resting = Instant::now();
                    while resting.elapsed() < rest && o.load(Ordering::Relaxed) {
                        thread::sleep(Duration::from_millis(20));
                    }
                }
            }));
        }
        Load {
            on,
            quit,
            threads,
            busy_periods,
        }
    }

    /// Turns the loops on or off.
    pub fn set(&self, on: bool) {
        self.on.store(on, Ordering::Relaxed);
    }

    /// When the intermittent loop was busy so far: (from, to) in Unix
    /// seconds; a period still under way ends now.
    pub fn busy_periods(&self) -> Vec<(f64, f64)> {
        let now = unix_now();
        self.busy_periods
            .lock()
            .map(|l| l.iter().map(|&(from, to)| (from, to.min(now))).collect())
            .unwrap_or_default()
    }

    /// Stops and joins the loops.
    pub fn stop(mut self) {
        self.quit.store(true, Ordering::Relaxed);
        self.set(false);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        // An error return leaves no loop spinning behind.
        self.quit.store(true, Ordering::Relaxed);
        self.on.store(false, Ordering::Relaxed);
    }
}
