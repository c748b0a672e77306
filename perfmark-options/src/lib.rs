//! The options of perfmark's `#[perf_test(...)]` attribute, defined once
//! for the macro that checks them at compile time and the runtime that
//! reads their defaults and environment overrides.
//!
//! - [`grammar`]: the one grammar of values written as text (durations
//!   `"1.5 us"`, percentages `"5%"`, plain numbers `"0.95"`).
//! - The table ([`Key`], [`Spec`]): each option's name, kind, range,
//!   default, environment variable and the words that say what it accepts.
//! - [`Key::parse`], [`Key::parse_env`], [`Key::check_number`] and the typed
//!   [`text`] parsers: grammar, then range, then a [`Value`] in the field's
//!   unit, or an [`OptionError`] whose message says what is accepted.
//! - [`TestOptions`]: the struct the macro writes into each registration.
//! - [`Complexity`]: the growth classes `complexity = "…"` declares.
//!
//! It has no dependencies: it is compiled into the proc-macro and into the
//! runtime. Users depend on the `perfmark` facade, not on this.

pub mod grammar;
pub mod text;

mod check;
mod complexity;
mod table;
mod test_options;

pub use check::{OptionError, Value};
pub use complexity::Complexity;
pub use table::{
    unknown_option_message, Env, Key, Kind, Range, Spec, DEFAULT_CONFIDENCE,
    DEFAULT_COUNT_REGRESSION, DEFAULT_MAX_TIME_NS, DEFAULT_PRECISION, DEFAULT_REGRESSION,
    DEFAULT_WARMUP_NS, MAX_THREADS, MAX_THREAD_COUNTS,
};
pub use test_options::{Ignore, Measure, TestOptions};
