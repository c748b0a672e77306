//! The table of `#[perf_test(...)]`'s options: one [`Spec`] per [`Key`],
//! naming the option, the kind and range of its value, its default, its
//! environment variable and the words that say what it accepts.
//!
//! The macro reads it to parse and check the attribute and to name the
//! [`TestOptions`](crate::TestOptions) field each value goes to; the
//! runtime reads it to parse the environment variables and for the
//! defaults. Adding an option is a row here, a field there, and the code
//! that uses the value.

use crate::{Measure, Value};

/// Every key `#[perf_test]` knows, the ones a later release implements
/// included, in the order the documentation lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// `budget = "50ns"`.
    Budget,
    /// `confidence = 0.95`.
    Confidence,
    /// `regression = "5%"`.
    Regression,
    /// `precision = "1%"`.
    Precision,
    /// `max_time = "3s"`.
    MaxTime,
    /// `warmup = "200ms"`.
    Warmup,
    /// `args = [..]`.
    Args,
    /// `types = [..]`.
    Types,
    /// `consts = [..]`.
    Consts,
    /// `threads = [..]` or `threads = 4`.
    Threads,
    /// `ignore` or `ignore = "why"`.
    Ignore,
    /// `allocs = 0`.
    Allocs,
    /// `instructions = 2000` or `"1.5M"`.
    Instructions,
    /// `count_regression = "1%"`.
    CountRegression,
    /// `complexity = "n log n"`.
    Complexity,
    /// `measure = "cpu"`.
    Measure,
}

/// One row of the table.
#[derive(Debug)]
pub struct Spec {
    /// The row's key.
    pub key: Key,
    /// The key as written in the attribute.
    pub name: &'static str,
    /// What the value is and how it is written.
    pub kind: Kind,
    /// The field of [`TestOptions`](crate::TestOptions) that holds a value
    /// of this option, for the kinds that parse into a [`Value`]; `None`
    /// for `args`, `types` and `consts` (one registration per element),
    /// `ignore` (its own `ignore` field) and the options not supported yet.
    /// `threads` names its field, which holds one element of the list: each
    /// registration its own.
    pub field: Option<&'static str>,
    /// The value the runtime applies when neither the attribute nor the
    /// environment gives one; `None` when absence means "no such check".
    pub default: Option<Value>,
    /// The environment variable that sets the default of every test.
    pub env: Option<Env>,
    /// What the option accepts in the attribute, completing "expected …" in
    /// error messages.
    pub accepts: &'static str,
}

/// An option's environment variable.
#[derive(Debug)]
pub struct Env {
    /// Its name, e.g. `PERFMARK_MAX_TIME`.
    pub var: &'static str,
    /// What it accepts, completing "expected …" (said of text, where the
    /// attribute's words may speak of a literal).
    pub accepts: &'static str,
}

/// The kind of an option's value.
#[derive(Debug)]
pub enum Kind {
    /// A duration string ([`grammar::duration_ns`](crate::grammar::duration_ns)),
    /// held as nanoseconds in an `f64`.
    Duration(Range),
    /// A duration string held as whole nanoseconds in a `u64`: a positive
    /// value that rounds to 0 ns, and one past `u64::MAX`, are refused.
    WholeDuration(Range),
    /// A percentage string ([`grammar::percent`](crate::grammar::percent)),
    /// held as a fraction (`"5%"` is `0.05`); the range is of the fraction.
    Percent(Range),
    /// A number: a float literal in the attribute, a
    /// [`grammar::number`](crate::grammar::number) as text. Out of range, it
    /// is said to be "out of range" whatever the side.
    Level(Range),
    /// `args = [..]`: the macro's business.
    List,
    /// `types = [..]`: a list of types, one test per type, for a function
    /// with one type parameter; the macro's business.
    Types,
    /// `consts = [..]`: a list of constant values, one test per value, for
    /// a function with one const parameter; the macro's business.
    Consts,
    /// `threads = [..]` (or one count alone): thread counts, one test per
    /// count, each a whole-number literal in the range, held in a `u64`.
    Threads(Range),
    /// `key` alone or `key = "text"`.
    FlagOrText,
    /// A growth class string ([`grammar::complexity`](crate::grammar::complexity)),
    /// held as a [`Complexity`](crate::Complexity).
    Growth,
    /// A count: a whole-number literal in the attribute, digits as text
    /// ([`grammar::count`](crate::grammar::count)), held in a `u64`.
    Count(Range),
    /// An instruction count: a whole-number literal, or text with an
    /// optional `k`, `M` or `G` multiplier ([`grammar::scaled_count`](crate::grammar::scaled_count)),
    /// held in a `u64`.
    ScaledCount(Range),
    /// The clock a test is timed with: `"wall"` or `"cpu"`
    /// ([`Measure`](crate::Measure)).
    Clock,
}

/// The values an option accepts, in the unit it is held in, and why a
/// value outside is refused.
#[derive(Debug)]
pub struct Range {
    /// The lowest value accepted (or the bound, when `low_included` is false).
    pub low: f64,
    /// Whether `low` itself is accepted.
    pub low_included: bool,
    /// The highest value accepted (or the bound, when `high_included` is false).
    pub high: f64,
    /// Whether `high` itself is accepted.
    pub high_included: bool,
    /// Why a value with a minus sign is refused.
    pub negative: &'static str,
    /// Why a value at or under `low` (but not negative) is refused.
    pub below: &'static str,
    /// Why a value at or over `high` is refused.
    pub above: &'static str,
}

impl Range {
    /// Whether `value` lies in the range.
    pub fn contains(&self, value: f64) -> bool {
        let above_low = value > self.low || (self.low_included && value == self.low);
        let below_high = value < self.high || (self.high_included && value == self.high);
        above_low && below_high
    }
}

/// Default confidence level of every confidence interval.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;
/// Default tolerance beyond the stored baseline, as a fraction: a slowdown
/// must be both significant and larger than this to fail
/// (docs/design/regression-rule.md). The one definition: the runtime, the
/// regression rule's callers and its simulations read it from here.
pub const DEFAULT_REGRESSION: f64 = 0.05;
/// Default tolerance of an instruction count beyond the stored or the base
/// build's count, as a fraction. A count is exact where the clock is not,
/// so its tolerance is its own and much tighter than the clock's: 1% lets
/// a +2% change fail and a +0.5% change pass at the defaults.
pub const DEFAULT_COUNT_REGRESSION: f64 = 0.01;
/// Default target relative half-width of the CI, as a fraction: the `e` of
/// the sample-size rule n = (z·s / (e·x̄))² ("Performance measurement", a
/// university lecture on performance evaluation: "how many samples").
pub const DEFAULT_PRECISION: f64 = 0.01;
/// Default cap on the sampling phase, in nanoseconds (3 s).
pub const DEFAULT_MAX_TIME_NS: u64 = 3_000_000_000;
/// Default cap on the warm-up phase, in nanoseconds (200 ms).
pub const DEFAULT_WARMUP_NS: u64 = 200_000_000;

const POSITIVE_DURATION: &str = "a positive duration string such as \"50ns\", \"1.5 us\", \"2ms\" \
     or \"1s\" (units: ns, us, µs, ms, s)";
const DURATION: &str =
    "a duration string such as \"0s\", \"300ms\" or \"1.5 s\" (units: ns, us, µs, ms, s)";
const REGRESSION: &str =
    "a percentage string at least 0% and below 100%, such as \"5%\", \"2.5%\" or \"0%\"";
const COUNT_REGRESSION: &str =
    "a percentage string at least 0% and below 100%, such as \"1%\", \"0.5%\" or \"0%\"";
const PRECISION: &str = "a percentage string above 0% and below 100%, such as \"1%\" or \"0.5%\"";
/// Most thread counts `threads` takes; each is a test of its own.
pub const MAX_THREAD_COUNTS: usize = 64;
/// Largest thread count `threads` takes.
pub const MAX_THREADS: u64 = 1024;

const COMPLEXITY: &str = "a growth class string: \"1\", \"log n\", \"n\", \"n log n\", \"n^2\" \
     or \"n^3\", also written as \"O(n log n)\"";

/// Tolerances: from 0% (any significant change fails) to below 100%;
/// `above` says why 100% and more are refused.
const fn tolerances(above: &'static str) -> Range {
    Range {
        low: 0.0,
        low_included: true,
        high: 1.0,
        high_included: false,
        negative: "a tolerance cannot be negative",
        below: "",
        above,
    }
}

/// Durations: any non-negative finite value unless `low_included` is false.
const fn durations(low_included: bool, below: &'static str) -> Range {
    Range {
        low: 0.0,
        low_included,
        high: f64::INFINITY,
        high_included: false,
        negative: "a duration cannot be negative",
        below,
        above: "that is too long",
    }
}

/// Whole nanoseconds: as [`durations`], below `u64::MAX` (which as an
/// `f64` rounds up to 2^64, so an excluded bound keeps the cast exact).
const fn whole_durations(low_included: bool, below: &'static str) -> Range {
    Range {
        high: u64::MAX as f64,
        ..durations(low_included, below)
    }
}

/// The table, indexed by `Key as usize`.
const OPTIONS: [Spec; 16] = [
    Spec {
        key: Key::Budget,
        name: "budget",
        kind: Kind::Duration(durations(false, "it must be greater than zero")),
        field: Some("budget_ns"),
        default: None,
        env: None,
        accepts: POSITIVE_DURATION,
    },
    Spec {
        key: Key::Confidence,
        name: "confidence",
        kind: Kind::Level(Range {
            low: 0.5,
            low_included: false,
            high: 1.0,
            high_included: false,
            negative: "",
            below: "",
            above: "",
        }),
        field: Some("confidence"),
        default: Some(Value::F64(DEFAULT_CONFIDENCE)),
        env: Some(Env {
            var: "PERFMARK_CONFIDENCE",
            accepts: "a number strictly between 0.5 and 1, such as 0.95 or 0.99",
        }),
        accepts: "a float literal strictly between 0.5 and 1, such as 0.95 or 0.99",
    },
    Spec {
        key: Key::Regression,
        name: "regression",
        // 0% is allowed: any significant slowdown then fails. 100% and more
        // are refused: the check compares the point ratio new/baseline with
        // `1 + tolerance` (docs/design/regression-rule.md), so such a tolerance
        // would pass a test that became twice as slow, which no one means.
        kind: Kind::Percent(tolerances(
            "a tolerance of 100% or more would pass a test that became twice as slow",
        )),
        field: Some("regression"),
        default: Some(Value::F64(DEFAULT_REGRESSION)),
        env: Some(Env {
            var: "PERFMARK_REGRESSION",
            accepts: REGRESSION,
        }),
        accepts: REGRESSION,
    },
    Spec {
        key: Key::Precision,
        name: "precision",
        kind: Kind::Percent(Range {
            low: 0.0,
            low_included: false,
            high: 1.0,
            high_included: false,
            negative: "a precision cannot be negative",
            below: "a precision of 0% can never be reached",
            above: "a precision of 100% or more says nothing",
        }),
        field: Some("precision"),
        default: Some(Value::F64(DEFAULT_PRECISION)),
        env: Some(Env {
            var: "PERFMARK_PRECISION",
            accepts: PRECISION,
        }),
        accepts: PRECISION,
    },
    Spec {
        key: Key::MaxTime,
        name: "max_time",
        kind: Kind::WholeDuration(whole_durations(false, "it must be greater than zero")),
        field: Some("max_time_ns"),
        default: Some(Value::U64(DEFAULT_MAX_TIME_NS)),
        env: Some(Env {
            var: "PERFMARK_MAX_TIME",
            accepts: POSITIVE_DURATION,
        }),
        accepts: POSITIVE_DURATION,
    },
    Spec {
        key: Key::Warmup,
        name: "warmup",
        kind: Kind::WholeDuration(whole_durations(true, "")),
        field: Some("warmup_ns"),
        default: Some(Value::U64(DEFAULT_WARMUP_NS)),
        env: Some(Env {
            var: "PERFMARK_WARMUP",
            accepts: DURATION,
        }),
        accepts: DURATION,
    },
    Spec {
        key: Key::Args,
        name: "args",
        kind: Kind::List,
        field: None,
        default: None,
        env: None,
        accepts: "a list of arguments such as `args = [10, 100, 1000]`",
    },
    Spec {
        key: Key::Types,
        name: "types",
        kind: Kind::Types,
        field: None,
        default: None,
        env: None,
        accepts: "a list of types such as `types = [u32, String, Vec<u8>]`, one test per type of \
                  the function's type parameter",
    },
    Spec {
        key: Key::Consts,
        name: "consts",
        kind: Kind::Consts,
        field: None,
        default: None,
        env: None,
        accepts: "a list of constant values such as `consts = [16, 64, SMALL]` (integer, `bool` \
                  or `char` literals, or paths of constants), one test per value of the \
                  function's const parameter",
    },
    Spec {
        key: Key::Threads,
        name: "threads",
        kind: Kind::Threads(Range {
            low: 0.0,
            low_included: true,
            high: MAX_THREADS as f64,
            high_included: true,
            negative: "a thread count cannot be negative",
            below: "",
            above: "perfmark runs at most 1024 threads at once",
        }),
        field: Some("threads"),
        default: None,
        env: None,
        accepts: "a list of thread counts such as `threads = [1, 2, 4]` or one count alone, each \
                  a whole number literal up to 1024, 0 for the available parallelism",
    },
    Spec {
        key: Key::Ignore,
        name: "ignore",
        kind: Kind::FlagOrText,
        field: None,
        default: None,
        env: None,
        accepts: "`ignore` alone or `ignore = \"reason\"`",
    },
    Spec {
        key: Key::Allocs,
        name: "allocs",
        // No upper bound worth stating: any count a `u64` holds is a limit.
        kind: Kind::Count(Range {
            low: 0.0,
            low_included: true,
            high: u64::MAX as f64,
            high_included: false,
            negative: "an allocation count cannot be negative",
            below: "",
            above: "that is more allocations than a u64 counts",
        }),
        field: Some("allocs"),
        default: None,
        env: None,
        accepts: "a whole number literal of heap allocations per iteration, such as `0` or `2`",
    },
    Spec {
        key: Key::Instructions,
        name: "instructions",
        kind: Kind::ScaledCount(Range {
            low: 0.0,
            low_included: false,
            high: u64::MAX as f64,
            high_included: false,
            negative: "an instruction count cannot be negative",
            below: "a limit of 0 instructions fails every test; give at least 1",
            above: "that is more instructions than a u64 counts",
        }),
        field: Some("instructions"),
        default: None,
        env: None,
        accepts: "a whole number of instructions per iteration, as a literal such as `2000` or a \
                  string with an optional k, M or G multiplier such as `\"2k\"` or `\"1.5M\"`",
    },
    Spec {
        key: Key::CountRegression,
        name: "count_regression",
        // As `regression`'s range, for the same reason.
        kind: Kind::Percent(tolerances(
            "a tolerance of 100% or more would pass a count that doubled",
        )),
        field: Some("count_regression"),
        default: Some(Value::F64(DEFAULT_COUNT_REGRESSION)),
        env: Some(Env {
            var: "PERFMARK_COUNT_REGRESSION",
            accepts: COUNT_REGRESSION,
        }),
        accepts: COUNT_REGRESSION,
    },
    Spec {
        key: Key::Complexity,
        name: "complexity",
        kind: Kind::Growth,
        field: Some("complexity"),
        default: None,
        env: None,
        accepts: COMPLEXITY,
    },
    Spec {
        key: Key::Measure,
        name: "measure",
        kind: Kind::Clock,
        field: Some("measure"),
        default: Some(Value::Measure(Measure::Wall)),
        env: None,
        accepts: "\"wall\" (wall-clock time, the default) or \"cpu\" (the measuring thread's CPU \
                  time)",
    },
];

impl Key {
    /// Every key, in the table's order.
    pub const ALL: [Key; 16] = [
        Key::Budget,
        Key::Confidence,
        Key::Regression,
        Key::Precision,
        Key::MaxTime,
        Key::Warmup,
        Key::Args,
        Key::Types,
        Key::Consts,
        Key::Threads,
        Key::Ignore,
        Key::Allocs,
        Key::Instructions,
        Key::CountRegression,
        Key::Complexity,
        Key::Measure,
    ];

    /// The key's row of the table.
    pub fn spec(self) -> &'static Spec {
        &OPTIONS[self as usize]
    }

    /// The key as written in the attribute.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// What the option accepts in the attribute, completing "expected …".
    pub fn accepts(self) -> &'static str {
        self.spec().accepts
    }

    /// The key written `name`, supported or not; `None` for an unknown name.
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|key| key.name() == name)
    }

    /// Every key, in the table's order.
    pub fn supported() -> impl Iterator<Item = Key> {
        Key::ALL.into_iter()
    }
}

/// The message for an option written `written` that the attribute does
/// not know: the accepted options (the table's, then the macro's own
/// `crate`), and the nearest one when it looks like a typo.
pub fn unknown_option_message(written: &str) -> String {
    let mut accepted: Vec<&str> = Key::supported().map(Key::name).collect();
    accepted.push("crate");
    let (last, rest) = accepted.split_last().expect("some options are supported");
    let mut message = format!(
        "unknown option `{written}`: accepted options are {} and {last}",
        rest.join(", ")
    );
    // A near miss is most likely a typo of an accepted key.
    let closest = accepted
        .iter()
        .map(|name| (edit_distance(written, name), *name))
        .min();
    if let Some((distance, name)) = closest {
        if distance <= 2 && distance < written.chars().count() {
            message.push_str(&format!("; did you mean `{name}`?"));
        }
    }
    message
}

/// Levenshtein distance between two short strings, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::DURATION_UNITS_NS;

    #[test]
    fn the_table_is_indexed_by_key() {
        for key in Key::ALL {
            assert_eq!(key.spec().key, key);
            assert_eq!(Key::from_name(key.name()), Some(key));
        }
        assert_eq!(Key::from_name("budgte"), None);
    }

    #[test]
    fn supported_keys_in_documentation_order() {
        let names: Vec<&str> = Key::supported().map(Key::name).collect();
        assert_eq!(
            names,
            [
                "budget",
                "confidence",
                "regression",
                "precision",
                "max_time",
                "warmup",
                "args",
                "types",
                "consts",
                "threads",
                "ignore",
                "allocs",
                "instructions",
                "count_regression",
                "complexity",
                "measure"
            ]
        );
    }

    #[test]
    fn defaults_lie_in_their_ranges_and_have_the_field_kind() {
        for key in Key::ALL {
            let spec = key.spec();
            let Some(default) = spec.default else {
                continue;
            };
            assert!(spec.field.is_some(), "{key:?}");
            let (range, value) = match (&spec.kind, default) {
                (
                    Kind::Duration(range) | Kind::Percent(range) | Kind::Level(range),
                    Value::F64(v),
                ) => (range, v),
                (Kind::WholeDuration(range), Value::U64(ns)) => (range, ns as f64),
                (Kind::Clock, Value::Measure(_)) => continue,
                (kind, value) => panic!("{key:?}: {value:?} for {kind:?}"),
            };
            assert!(range.contains(value), "{key:?}: {value}");
        }
    }

    #[test]
    fn texts_name_every_duration_unit_and_have_an_env_twin() {
        for key in Key::ALL {
            let spec = key.spec();
            if let Kind::Duration(_) | Kind::WholeDuration(_) = spec.kind {
                for (unit, _) in DURATION_UNITS_NS {
                    // Both spellings of µs show as `µs`.
                    let unit = unit.replace('\u{3bc}', "\u{b5}");
                    assert!(spec.accepts.contains(&unit), "{key:?} {unit}");
                }
            }
            if let Some(env) = &spec.env {
                assert!(env.var.starts_with("PERFMARK_"), "{key:?}");
                assert!(spec.field.is_some(), "{key:?}");
            }
        }
    }

    #[test]
    fn ranges() {
        let Kind::Percent(regression) = &Key::Regression.spec().kind else {
            panic!("regression is a percentage");
        };
        assert!(regression.contains(0.0) && regression.contains(0.999));
        assert!(!regression.contains(1.0) && !regression.contains(-0.01));
        let Kind::Level(confidence) = &Key::Confidence.spec().kind else {
            panic!("confidence is a level");
        };
        assert!(!confidence.contains(0.5) && confidence.contains(0.51));
        assert!(!confidence.contains(1.0) && !confidence.contains(f64::NAN));
    }

    #[test]
    fn unknown_keys_list_the_accepted_ones_and_near_misses() {
        assert_eq!(
            unknown_option_message("regresion"),
            "unknown option `regresion`: accepted options are budget, confidence, regression, \
             precision, max_time, warmup, args, types, consts, threads, ignore, allocs, \
             instructions, count_regression, complexity, measure and crate; did you mean \
             `regression`?"
        );
        assert_eq!(
            unknown_option_message("frobnicate"),
            "unknown option `frobnicate`: accepted options are budget, confidence, regression, \
             precision, max_time, warmup, args, types, consts, threads, ignore, allocs, \
             instructions, count_regression, complexity, measure and crate"
        );
        // Two edits from `args`, but as long as the name itself: no guess.
        assert!(!unknown_option_message("ar").contains("did you mean"));
        assert!(unknown_option_message("complexty").ends_with("did you mean `complexity`?"));
        assert!(unknown_option_message("alocs").ends_with("did you mean `allocs`?"));
        assert!(unknown_option_message("crat").ends_with("did you mean `crate`?"));
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("budget", "budget"), 0);
        assert_eq!(edit_distance("budgte", "budget"), 2);
        assert_eq!(edit_distance("warm_up", "warmup"), 1);
        assert_eq!(edit_distance("", "args"), 4);
    }
}
