//! What runs an async perf test's futures: the [`Executor`] trait, the
//! minimal executor perfmark ships ([`BlockOn`]), and tokio's runtime
//! behind the `tokio` feature.
//!
//! An executor is asked for one thing, to run a future to completion on
//! the calling thread and return its output. The
//! [`AsyncBencher`](super::AsyncBencher) asks it once per block of
//! iterations, never once per iteration, and reads its clock and
//! allocation counters inside the future: what the executor does to
//! start and finish a future (entering a runtime's context, making a
//! waker) is neither timed nor counted.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Runs a future to completion on the calling thread.
///
/// Implement it for your own runtime to hand its futures to
/// [`Bencher::to_async`](crate::Bencher::to_async): the future must be
/// polled on the thread that calls `block_on` (the clock and, with
/// `measure = "cpu"`, the thread's CPU time are read inside it), and
/// `block_on` returns only once the future has completed. perfmark ships
/// [`BlockOn`], and with its `tokio` feature implements the trait for
/// `tokio::runtime::Runtime` and `tokio::runtime::Handle`. A reference to
/// an executor is one too, so `b.to_async(&runtime)` works.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an executor perfmark can run futures on",
    label = "not a `perfmark::Executor`",
    note = "pass `perfmark::BlockOn`, perfmark's own executor, or `&runtime` for a tokio runtime \
            (perfmark's `tokio` feature), or implement `perfmark::Executor` for your runtime"
)]
pub trait Executor {
    /// Polls `future` on the calling thread until it completes, and
    /// returns its output.
    fn block_on<F: Future>(&self, future: F) -> F::Output;
}

impl<E: Executor + ?Sized> Executor for &E {
    #[inline(always)]
    fn block_on<F: Future>(&self, future: F) -> F::Output {
        (**self).block_on(future)
    }
}

/// perfmark's own executor, with no runtime behind it: it polls the
/// future on the calling thread and parks the thread while the future
/// waits, until its waker unparks it. The waker is made once per thread,
/// so `block_on` itself does not allocate.
///
/// It is what `#[perf_test] async fn` runs on. It has no reactor and no
/// timers: a future that waits for I/O or a runtime's timer (tokio's
/// `sleep`, its sockets) needs that runtime's executor, through
/// [`Bencher::to_async`](crate::Bencher::to_async). Futures that wait for
/// other threads (channels, locks, `std` wakers of any kind) run here.
#[derive(Debug, Clone, Copy, Default)]
pub struct BlockOn;

/// Wakes a thread parked in [`BlockOn::block_on`].
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

thread_local! {
    /// The calling thread's waker, made on first use.
    static WAKER: Waker = Waker::from(Arc::new(Unpark(thread::current())));
}

impl Executor for BlockOn {
    #[inline]
    fn block_on<F: Future>(&self, future: F) -> F::Output {
        let mut future = pin!(future);
        let waker = WAKER.with(Waker::clone);
        let mut cx = Context::from_waker(&waker);
        loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
                return output;
            }
            // A wake that came before the park leaves its token, so the
            // park returns at once; a spurious return only polls again.
            thread::park();
        }
    }
}

/// A tokio runtime runs the future as its own `block_on` does: on the
/// calling thread, with the runtime's reactor and timers, its spawned
/// tasks on its workers (a current-thread runtime's also on this thread,
/// while the future waits).
#[cfg(feature = "tokio")]
impl Executor for tokio::runtime::Runtime {
    #[inline]
    fn block_on<F: Future>(&self, future: F) -> F::Output {
        tokio::runtime::Runtime::block_on(self, future)
    }
}

/// A handle runs the future as `Handle::block_on` does: on the calling
/// thread. As there, on a current-thread runtime it does not run the
/// runtime's spawned tasks, nor its reactor or timers: those run only
/// while the runtime's own `block_on` runs (on another thread, say). A
/// routine that waits for a task of such a runtime that nothing drives
/// never completes, and the test is stopped by its time bound; prefer the
/// runtime itself where you have it.
#[cfg(feature = "tokio")]
impl Executor for tokio::runtime::Handle {
    #[inline]
    fn block_on<F: Future>(&self, future: F) -> F::Output {
        tokio::runtime::Handle::block_on(self, future)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_ready_future_returns_its_output() {
        assert_eq!(BlockOn.block_on(async { 6 * 7 }), 42);
        let by_reference = Executor::block_on(&&BlockOn, async { "by reference" });
        assert_eq!(by_reference, "by reference");
    }

    /// A future that is pending until another thread sets its flag and
    /// wakes it: the park is left by the waker, not by a timeout.
    #[test]
    fn a_future_woken_by_another_thread_completes() {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Mutex;

        struct Flag {
            set: AtomicBool,
            waker: Mutex<Option<Waker>>,
        }
        let flag = Arc::new(Flag {
            set: AtomicBool::new(false),
            waker: Mutex::new(None),
        });
        let (ready, polled) = mpsc::channel::<()>();
        let setter = {
            let flag = Arc::clone(&flag);
            thread::spawn(move || {
                polled.recv().expect("polled once");
                thread::sleep(Duration::from_millis(20));
                flag.set.store(true, Ordering::SeqCst);
                if let Some(waker) = flag.waker.lock().unwrap().take() {
                    waker.wake();
                }
            })
        };
        let mut ready = Some(ready);
        let polls = std::cell::Cell::new(0u32);
        let out = BlockOn.block_on(std::future::poll_fn(|cx| {
            polls.set(polls.get() + 1);
            *flag.waker.lock().unwrap() = Some(cx.waker().clone());
            if flag.set.load(Ordering::SeqCst) {
                return Poll::Ready("woken");
            }
            if let Some(ready) = ready.take() {
                ready.send(()).unwrap();
            }
            Poll::Pending
        }));
        setter.join().unwrap();
        assert_eq!(out, "woken");
        assert!(polls.get() >= 2, "{}", polls.get());
    }

    #[cfg(feature = "tokio")]
    #[test]
    fn tokio_runs_its_own_futures() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        // A spawned task runs on a current-thread runtime while the
        // future given to `block_on` waits for it.
        let answer = Executor::block_on(&&runtime, async {
            tokio::spawn(async { 41u32 }).await.unwrap() + 1
        });
        assert_eq!(answer, 42);
        let handle = runtime.handle().clone();
        assert_eq!(Executor::block_on(&handle, async { 7 }), 7);
    }
}
