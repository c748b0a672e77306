//! Test helpers for the types' [`ToJson`] / [`FromJson`] impls.

use std::fmt::Debug;

use super::{FromJson, ToJson};

/// `x` written and read back is `x` again, through the value and through
/// the text.
#[track_caller]
pub(crate) fn round_trips<T>(x: &T)
where
    T: ToJson + FromJson + PartialEq + Debug,
{
    let value = x.to_json();
    let back = T::from_json(&value).unwrap_or_else(|e| panic!("{e}: {value}"));
    assert_eq!(&back, x, "read back from {value}");
    let text = super::to_string_pretty(x);
    let back: T = super::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(&back, x, "read back from {text}");
}

/// What `x` is written as, compact.
pub(crate) fn text<T: ToJson + ?Sized>(x: &T) -> String {
    super::to_string(x)
}

/// Reads a `T` from `text`, or panics with the error.
#[track_caller]
pub(crate) fn read<T: FromJson>(text: &str) -> T {
    super::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The error reading a `T` from `text`.
#[track_caller]
pub(crate) fn error<T: FromJson + Debug>(text: &str) -> String {
    super::from_str::<T>(text).unwrap_err().to_string()
}
