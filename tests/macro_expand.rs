//! What `#[perf_test]` registers: every function shape and option, read back
//! from the registry the runner uses (`perfmark_core::registry`).
//!
//! This is an ordinary test binary (libtest's harness): the perf tests below
//! are only registered, never measured, and the `#[test]`s check the
//! registrations field by field.

use perfmark::{perf_test, Bencher};
use perfmark_core::registry::{all_tests, Ignore, Measure, PerfTest};
use std::hint::black_box;

#[perf_test]
fn unit_body() {
    black_box(1u64 + 2);
}

#[perf_test(budget = "50ns")]
fn returns_value() -> u64 {
    black_box(1u64) + black_box(2u64)
}

#[perf_test(budget = "1.5 us", confidence = 0.99)]
fn with_bencher(b: &mut Bencher) {
    let data: Vec<u32> = (0..64).collect();
    b.items(64).iter(|| data.iter().sum::<u32>());
}

#[perf_test(
    budget = "2ms",
    confidence = 0.9,
    regression = "2.5%",
    precision = "0.5%",
    max_time = "2s",
    warmup = "300ms"
)]
fn every_option() -> u32 {
    black_box(7)
}

#[perf_test(budget = "2\u{b5}s", max_time = "1.5 ms", warmup = "0s")]
fn micro_sign_and_zero_warmup() {}

#[perf_test(regression = "0%")]
fn zero_tolerance() {}

#[perf_test(allocs = 0, measure = "cpu")]
fn counted_on_cpu() {}

#[perf_test(allocs = 3, measure = "wall")]
fn counted_on_the_wall() {}

#[perf_test(ignore)]
fn ignored_flag() {}

#[perf_test(ignore = "too slow for CI", budget = "1s")]
fn ignored_with_reason() {}

#[perf_test(args = [10, 1000])]
fn fib(n: u64) -> u64 {
    (1..n)
        .fold((0u64, 1u64), |(a, b), _| (b, a.wrapping_add(b)))
        .1
}

#[perf_test(args = [-5, 0, 7i32])]
fn signed(n: i32) -> i32 {
    n.wrapping_mul(3)
}

#[perf_test(args = [0.5, -2.25])]
fn floats(x: f64) -> f64 {
    x.sqrt()
}

#[perf_test(args = ["abc", "hello world"])]
fn strs(s: &str) -> usize {
    s.len()
}

#[perf_test(args = ["owned"])]
fn owned_string(s: String) -> String {
    s.to_uppercase()
}

const SMALL: usize = 16;

#[perf_test(budget = "10us", args = [SMALL, SMALL * 4])]
fn with_bencher_and_arg(b: &mut Bencher, n: usize) {
    b.iter_batched(|| vec![1u8; n], |v| v.len());
}

#[perf_test(args = [SMALL, 100, 1000, 10_000], complexity = "O(n log n)")]
fn grows(b: &mut Bencher, n: usize) {
    b.iter(|| n);
}

#[perf_test(args = [vec![3, 1, 2]])]
fn vector_arg(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

#[perf_test(args = [true])]
fn boolean(flag: bool) -> bool {
    !flag
}

#[perf_test(budget = "1us")]
async fn async_body() -> u64 {
    black_box(1u64) + black_box(2u64)
}

#[perf_test(args = [3, 30, 300, 3000], complexity = "n")]
async fn async_with_arg(n: u64) -> u64 {
    (0..n).sum()
}

#[perf_test(types = [u8, u64, Vec<u8>])]
fn made<T: Default>() -> T {
    T::default()
}

#[perf_test(consts = [16, SMALL], types = [u32, String], args = [None])]
fn filled<const N: usize, T: Clone + Default>(b: &mut Bencher, n: Option<[T; N]>) {
    b.iter(|| {
        n.clone()
            .unwrap_or_else(|| std::array::from_fn(|_| T::default()))
    });
}

#[perf_test(consts = [-1, 7])]
fn shifted<const N: i8>() -> i8 {
    black_box(N)
}

#[perf_test(threads = [1, 2, 0], max_time = "1s")]
fn shared() -> u64 {
    black_box(1u64) + black_box(2u64)
}

#[perf_test(threads = 4, types = [u16], args = [10, 100, 1000, 10000], complexity = "n")]
fn shared_args<T: From<u8> + Copy>(b: &mut Bencher, n: u64) {
    b.iter_shared(|| (0..n).fold(T::from(0), |_, i| T::from(i as u8)));
}

#[perf_test(types = [u32])]
async fn fetched<T: Default>() -> T {
    T::default()
}

#[perf_test]
const fn const_fn() -> u64 {
    42
}

#[perf_test]
fn r#match() {}

mod sorting {
    use super::*;

    #[perf_test(budget = "40us")]
    fn sort_1k(b: &mut Bencher) {
        b.iter_batched(
            || (0..1000u32).rev().collect::<Vec<_>>(),
            |mut v| {
                v.sort();
                v
            },
        );
    }

    pub mod nested {
        #[perfmark::perf_test(budget = "3 s")]
        pub fn deep() {}
    }

    // Same name as a test at the crate root: the module path tells them apart.
    #[perf_test]
    fn unit_body() {}
}

#[cfg(any())]
#[perf_test]
fn compiled_out() {}

/// The registration named `name`; panics with the list of names if absent.
fn test(name: &str) -> &'static PerfTest {
    let tests = all_tests();
    let found = tests.iter().find(|t| t.name() == name);
    found.copied().unwrap_or_else(|| {
        let names: Vec<String> = tests.iter().map(|t| t.name()).collect();
        panic!("no perf test named `{name}` among {names:?}")
    })
}

/// The line of the `#[perf_test` attribute closest above `fn <fn_name>` in this file.
fn attribute_line(fn_name: &str) -> u32 {
    let source = include_str!("macro_expand.rs");
    let lines: Vec<&str> = source.lines().collect();
    let def = lines
        .iter()
        .position(|l| {
            l.contains(&format!("fn {fn_name}(")) || l.contains(&format!("fn {fn_name}<"))
        })
        .expect("function in this file");
    let attr = lines[..def]
        .iter()
        .rposition(|l| l.contains("perf_test(") || l.ends_with("perf_test]"));
    attr.expect("attribute above the function") as u32 + 1
}

#[test]
fn names_follow_the_module_path_without_the_crate() {
    let names: Vec<String> = all_tests().iter().map(|t| t.name()).collect();
    let expected = [
        "async_body",
        "async_with_arg::3",
        "async_with_arg::30",
        "async_with_arg::300",
        "async_with_arg::3000",
        "boolean::true",
        "const_fn",
        "counted_on_cpu",
        "counted_on_the_wall",
        "every_option",
        "fetched::u32",
        "fib::10",
        "fib::1000",
        "filled::String::16::None",
        "filled::String::SMALL::None",
        "filled::u32::16::None",
        "filled::u32::SMALL::None",
        "floats::-2.25",
        "floats::0.5",
        "grows::100",
        "grows::1000",
        "grows::10_000",
        "grows::SMALL",
        "ignored_flag",
        "ignored_with_reason",
        "made::Vec<u8>",
        "made::u64",
        "made::u8",
        "match",
        "micro_sign_and_zero_warmup",
        "owned_string::owned",
        "returns_value",
        "shared::t1",
        "shared::t2",
        "shared::tmax",
        "shared_args::u16::t4::10",
        "shared_args::u16::t4::100",
        "shared_args::u16::t4::1000",
        "shared_args::u16::t4::10000",
        "shifted::-1",
        "shifted::7",
        "signed::-5",
        "signed::0",
        "signed::7i32",
        "sorting::nested::deep",
        "sorting::sort_1k",
        "sorting::unit_body",
        "strs::abc",
        "strs::hello world",
        "unit_body",
        "vector_arg::vec![3, 1, 2]",
        "with_bencher",
        "with_bencher_and_arg::SMALL",
        "with_bencher_and_arg::SMALL*4",
        "zero_tolerance",
    ];
    assert_eq!(names, expected);
}

#[test]
fn module_path_file_and_line() {
    let t = test("sorting::sort_1k");
    assert_eq!(t.module_path, "macro_expand::sorting");
    assert_eq!(t.fn_name, "sort_1k");
    assert_eq!(t.file, "tests/macro_expand.rs");
    assert_eq!(t.line, attribute_line("sort_1k"));
    assert_eq!(test("every_option").line, attribute_line("every_option"));
    assert_eq!(test("fib::1000").line, attribute_line("fib"));
    assert_eq!(
        test("match").fn_name,
        "match",
        "raw identifiers are named without `r#`"
    );
}

#[test]
fn options_without_values_are_not_given() {
    let options = test("unit_body").options;
    assert_eq!(options.budget_ns, None);
    assert_eq!(options.confidence, None);
    assert_eq!(options.regression, None);
    assert_eq!(options.precision, None);
    assert_eq!(options.max_time_ns, None);
    assert_eq!(options.warmup_ns, None);
    assert_eq!(options.ignore, Ignore::No);
    assert_eq!(options.allocs, None);
    assert_eq!(options.measure, None);
}

#[test]
fn allocation_limits_and_clocks() {
    let cpu = test("counted_on_cpu").options;
    assert_eq!(cpu.allocs, Some(0));
    assert_eq!(cpu.measure, Some(Measure::Cpu));
    let wall = test("counted_on_the_wall").options;
    assert_eq!(wall.allocs, Some(3));
    assert_eq!(wall.measure, Some(Measure::Wall));
}

#[test]
fn durations_are_nanoseconds_and_percentages_fractions() {
    assert_eq!(test("returns_value").options.budget_ns, Some(50.0));
    let with_bencher = test("with_bencher").options;
    assert_eq!(with_bencher.budget_ns, Some(1500.0));
    assert_eq!(with_bencher.confidence, Some(0.99));

    let every = test("every_option").options;
    assert_eq!(every.budget_ns, Some(2e6));
    assert_eq!(every.confidence, Some(0.9));
    assert_eq!(every.regression, Some(0.025));
    assert_eq!(every.precision, Some(0.005));
    assert_eq!(every.max_time_ns, Some(2_000_000_000));
    assert_eq!(every.warmup_ns, Some(300_000_000));
    assert_eq!(every.ignore, Ignore::No);

    let micro = test("micro_sign_and_zero_warmup").options;
    assert_eq!(micro.budget_ns, Some(2000.0));
    assert_eq!(micro.max_time_ns, Some(1_500_000));
    assert_eq!(micro.warmup_ns, Some(0));

    assert_eq!(test("sorting::sort_1k").options.budget_ns, Some(40_000.0));
    assert_eq!(test("sorting::nested::deep").options.budget_ns, Some(3e9));
}

#[test]
fn regression_is_a_fraction_only_where_given() {
    assert_eq!(test("every_option").options.regression, Some(0.025));
    assert_eq!(test("zero_tolerance").options.regression, Some(0.0));
    for t in all_tests() {
        if !matches!(t.fn_name, "every_option" | "zero_tolerance") {
            assert_eq!(t.options.regression, None, "{}", t.name());
        }
    }
}

#[test]
fn ignore_with_and_without_reason() {
    assert_eq!(test("ignored_flag").options.ignore, Ignore::Yes);
    let with_reason = test("ignored_with_reason").options;
    assert_eq!(with_reason.ignore, Ignore::Because("too slow for CI"));
    assert_eq!(with_reason.budget_ns, Some(1e9));
}

#[test]
fn args_are_named_as_written_with_number_values() {
    let cases: [(&str, Option<&str>, Option<f64>); 14] = [
        ("fib::10", Some("10"), Some(10.0)),
        ("fib::1000", Some("1000"), Some(1000.0)),
        ("signed::-5", Some("-5"), Some(-5.0)),
        ("signed::0", Some("0"), Some(0.0)),
        ("signed::7i32", Some("7i32"), Some(7.0)),
        ("floats::0.5", Some("0.5"), Some(0.5)),
        ("floats::-2.25", Some("-2.25"), Some(-2.25)),
        ("strs::abc", Some("abc"), None),
        ("strs::hello world", Some("hello world"), None),
        ("owned_string::owned", Some("owned"), None),
        ("with_bencher_and_arg::SMALL", Some("SMALL"), None),
        ("with_bencher_and_arg::SMALL*4", Some("SMALL*4"), None),
        ("boolean::true", Some("true"), None),
        ("unit_body", None, None),
    ];
    for (name, arg, arg_value) in cases {
        let t = test(name);
        assert_eq!(t.arg, arg, "{name}");
        assert_eq!(t.arg_value, arg_value, "{name}");
    }
    assert_eq!(test("fib::10").fn_name, "fib");
    assert_eq!(
        test("with_bencher_and_arg::SMALL").options.budget_ns,
        Some(10_000.0)
    );
}

#[test]
fn each_arg_has_its_own_body() {
    let bodies =
        ["fib::10", "fib::1000", "unit_body", "with_bencher"].map(|n| test(n).body as usize);
    for (i, a) in bodies.iter().enumerate() {
        for b in &bodies[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn complexity_is_the_declared_class_on_every_argument_only() {
    use perfmark::__private::Complexity;
    for arg in ["SMALL", "100", "1000", "10_000"] {
        let t = test(&format!("grows::{arg}"));
        assert_eq!(t.options.complexity, Some(Complexity::LinLog), "{arg}");
        assert_eq!(t.function_name(), "grows");
    }
    for t in all_tests() {
        if !["grows", "async_with_arg", "shared_args::u16::t4"].contains(&t.fn_name) {
            assert_eq!(t.options.complexity, None, "{}", t.name());
        }
    }
}

#[test]
fn cfg_on_the_function_applies_to_its_registration() {
    assert!(all_tests().iter().all(|t| t.fn_name != "compiled_out"));
}

#[test]
fn each_instance_is_registered_under_its_segments() {
    let t = test("filled::String::SMALL::None");
    assert_eq!(t.fn_name, "filled::String::SMALL");
    assert_eq!(t.arg, Some("None"));
    assert_eq!(t.function_name(), "filled::String::SMALL");
    assert_eq!(t.line, attribute_line("filled"));
    assert_eq!(test("made::Vec<u8>").fn_name, "made::Vec<u8>");
    assert_eq!(test("made::Vec<u8>").arg, None);
    let bodies = ["made::u8", "made::u64", "made::Vec<u8>"].map(|n| test(n).body as usize);
    assert!(bodies[0] != bodies[1] && bodies[1] != bodies[2]);
}

#[test]
fn each_thread_count_is_its_instances_option_and_the_others_are_shared() {
    for (name, threads) in [
        ("shared::t1", Some(1)),
        ("shared::t2", Some(2)),
        ("shared::tmax", Some(0)),
        ("shared_args::u16::t4::10", Some(4)),
        ("made::u8", None),
        ("unit_body", None),
    ] {
        assert_eq!(test(name).options.threads, threads, "{name}");
    }
    assert_eq!(test("shared::t2").options.max_time_ns, Some(1_000_000_000));
}

#[test]
fn complexity_groups_the_arguments_of_one_instance() {
    use perfmark::__private::Complexity;
    for arg in ["10", "100", "1000", "10000"] {
        let t = test(&format!("shared_args::u16::t4::{arg}"));
        assert_eq!(t.options.complexity, Some(Complexity::Linear));
        assert_eq!(t.function_name(), "shared_args::u16::t4");
    }
}
