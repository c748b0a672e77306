//! The `#[perf_test]` attribute of perfmark. Users reach it through the
//! `perfmark` facade (`use perfmark::perf_test;`), never through this crate.
//!
//! The expansion is a fixed pipeline (see `expand.rs`): parse the options
//! (`attr.rs`) and the function (`ast.rs`) into typed models, validate them
//! (`valid.rs`, and the body's use of its bencher in `timing.rs`, collecting
//! every error in `ctxt.rs`), then generate the
//! registration (`generate.rs`). Generation only ever sees a validated test;
//! on any error the function is emitted untouched beside the errors
//! (`fallback.rs`), so the user sees every mistake at once and nothing else.

mod ast;
mod attr;
mod ctxt;
mod expand;
mod fallback;
mod generate;
mod timing;
mod valid;

use proc_macro::TokenStream;

/// Makes a function a perf test: `cargo test --release` measures it and
/// passes or fails it against its options.
///
/// ```ignore
/// use perfmark::{perf_test, Bencher};
///
/// #[perf_test(budget = "50ns", confidence = 0.95)]
/// fn add() -> u64 { perfmark::black_box(1u64) + perfmark::black_box(2u64) }
///
/// #[perf_test(budget = "40us", args = [100, 1000])]
/// fn sort(b: &mut Bencher, n: usize) {
///     b.iter_batched(|| shuffled(n), |mut v| { v.sort(); v });
/// }
///
/// perfmark::main!();
/// ```
///
/// # Function shapes
/// - `fn f()` / `fn f() -> T`: the body is one iteration; the returned value
///   passes through `black_box`.
/// - `fn f(b: &mut Bencher)`: the body sets up and hands the timed routine to
///   the [`Bencher`](../perfmark/struct.Bencher.html).
/// - with `args = [..]`: `fn f(n: T)` (timed on a clone of the argument, made
///   outside the timing) or `fn f(b: &mut Bencher, n: T)`; one test per
///   argument, named `f::<argument>`.
/// - generic, any of these shapes over one type parameter and one const
///   parameter: `types = [u32, Vec<u8>]` gives one test per type
///   (`f::u32`, `f::Vec<u8>`: the type as written, its spaces left out but
///   between two words), `consts = [16, SMALL]` one per value (an integer,
///   `bool` or `char` literal, or the path of a constant: `f::16`,
///   `f::SMALL`); the function is called with them in the signature's
///   order (`f::<u32, 16>`), and the argument's declared type takes them
///   too (`n: [T; N]`).
///
/// # Threads
/// `threads = [1, 2, 4]` (or one count, `threads = 4`) gives one test per
/// thread count, named `f::t1`, `f::t2`, `f::t4`; `0` is the available
/// parallelism, named `f::tmax`. Each count is at most 1024, and a test
/// takes at most 64 of them. The routine runs on every thread at once:
/// `fn f()` is timed with the bencher's `iter_shared`, and a test that takes
/// the bencher (which it must with `args`) hands its routine to
/// `b.iter_shared(|| …)` itself. An `async fn` and `measure = "cpu"` cannot
/// take `threads`.
///
/// Every combination of `types`, `consts`, `threads` and `args` is a test,
/// named in that order: `f::u32::16::t2::1000`.
///
/// # Options
/// `budget = "50ns"`, `confidence = 0.95`, `regression = "5%"`,
/// `precision = "1%"`, `max_time = "2s"`, `warmup = "300ms"`, `args = [..]`,
/// `types = [..]`, `consts = [..]`, `threads = [..]`,
/// `ignore` or `ignore = "why"`, `allocs = 0` (a limit on heap allocations
/// per iteration, counted in an untimed pass by the allocator `main!()`
/// installs), `measure = "cpu"` (the thread's CPU time instead of wall
/// time), and with `args` (at least four, each a `perfmark::Size`)
/// `complexity = "n log n"` (`"1"`, `"log n"`, `"n"`, `"n log n"`, `"n^2"`,
/// `"n^3"`, also as `"O(…)"`), checked by its own test `f::complexity`
/// (one per instance: `f::u32::t2::complexity`).
/// Durations take the units `ns`, `us`, `µs`,
/// `ms`, `s`, decimals and one optional space (`"1.5 us"`); percentages are
/// a number and `%` (`"2.5%"`). `regression` is the tolerance beyond the
/// stored baseline, from `"0%"` (any significant slowdown fails) up to, but
/// not including, `"100%"`.
///
/// # Errors
/// Any other shape or option, and any invalid value, is a compile error
/// pointing at the offending tokens and saying what is accepted.
#[proc_macro_attribute]
pub fn perf_test(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::perf_test(args.into(), input.into()).into()
}
