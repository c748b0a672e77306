//! What `#[perf_test]` submits: one [`PerfTest`] per test (per argument for
//! `args = [...]`), collected with `inventory` so the runner finds every test
//! of the binary without a list.

use crate::bencher::Bencher;

/// One registered perf test, as the `#[perf_test]` macro writes it.
///
/// The macro builds this in a `static`, so every field is `'static` and
/// `const`-constructible. New options are added to [`TestOptions`], never
/// here, so generated code keeps compiling across versions.
#[derive(Debug)]
pub struct PerfTest {
    /// `module_path!()` at the test's definition, e.g. `perf::sorting`.
    /// The first segment (the crate) is dropped from the test's name.
    pub module_path: &'static str,
    /// The function's identifier followed by the segments of its instance,
    /// each after `::`, for a function with `types`, `consts` or `threads`:
    /// the type, the constant and the thread count (`sort::u32::16::t2`);
    /// the identifier alone otherwise.
    pub fn_name: &'static str,
    /// For `args = [...]` tests: the argument as written (string literals
    /// without quotes), appended to the name as `fn_name::arg`.
    pub arg: Option<&'static str>,
    /// For `args` tests whose argument is a number literal: its value (used
    /// by the complexity check).
    pub arg_value: Option<f64>,
    /// `file!()` and `line!()` of the function.
    pub file: &'static str,
    /// Line of the function.
    pub line: u32,
    /// The attribute's options.
    pub options: TestOptions,
    /// Runs the test: sets up, then hands the timed routine to the Bencher.
    pub body: fn(&mut Bencher),
}

/// The options and the ignore state are defined once, beside the table of
/// options that the macro checks them with (`perfmark-options`).
pub use perfmark_options::{Complexity, Ignore, Measure, TestOptions};

inventory::collect!(PerfTest);

impl PerfTest {
    /// The test's name as libtest would give it: the module path inside the
    /// test crate, the function, and for `args` tests the argument, joined
    /// by `::` (e.g. `sorting::sort_1k`, `fib::20`).
    pub fn name(&self) -> String {
        let mut name = self.function_name();
        if let Some(arg) = self.arg {
            name.push_str("::");
            name.push_str(arg);
        }
        name
    }
}

impl PerfTest {
    /// The clock the test is timed with: its `measure` option, the wall
    /// clock by default. A normal run and a worker serving slices time a
    /// test alike.
    pub(crate) fn clock(&self) -> crate::clock::Clock {
        self.options
            .measure
            .map(crate::clock::Clock::from)
            .unwrap_or_default()
    }

    /// The function's path inside the test crate, without the argument:
    /// `sorting::sort_1k`, `fib` (for `fib::20`).
    pub fn function_name(&self) -> String {
        let mut name = String::new();
        if let Some((_, inner)) = self.module_path.split_once("::") {
            name.push_str(inner);
            name.push_str("::");
        }
        name.push_str(self.fn_name);
        name
    }

    /// For a `threads` instance, its name without the thread segment (the
    /// last of `fn_name`'s, where the macro puts it): the name its
    /// function's scaling line goes by (`lock::t4::10` → `lock::10`).
    pub fn scaling_name(&self) -> Option<String> {
        self.options.threads?;
        let function = self.function_name();
        let (without, _) = function.rsplit_once("::")?;
        Some(match self.arg {
            Some(arg) => format!("{without}::{arg}"),
            None => without.to_owned(),
        })
    }
}

/// A test of `module_path`'s `fn_name` with the argument `arg` and the
/// declared complexity `class`, for tests of what groups such tests.
#[cfg(test)]
pub(crate) const fn test_with_arg(
    module_path: &'static str,
    fn_name: &'static str,
    arg: &'static str,
    class: Option<Complexity>,
) -> PerfTest {
    PerfTest {
        module_path,
        fn_name,
        arg: Some(arg),
        arg_value: None,
        file: "tests/perf.rs",
        line: 1,
        options: TestOptions {
            complexity: class,
            ..TestOptions::NONE
        },
        body: |_| {},
    }
}

/// Every test registered in this binary, in a stable order (by name).
pub fn all_tests() -> Vec<&'static PerfTest> {
    let mut tests: Vec<&'static PerfTest> = inventory::iter::<PerfTest>.into_iter().collect();
    tests.sort_by_cached_key(|t| t.name());
    tests
}
