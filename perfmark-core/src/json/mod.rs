//! perfmark's JSON: the values, the text, and the conversions of its types.
//!
//! Every file perfmark writes or reads is JSON: baselines, `report.json`,
//! the paired workers' protocol lines, the machine lock. This module reads
//! and writes them with no dependency: [`parse`] turns text into a
//! [`Value`], [`to_string`] / [`to_string_pretty`] write one back, and a
//! type goes to and from a `Value` through [`ToJson`] and [`FromJson`],
//! written by hand next to the type with [`Object`] and [`Fields`].
//!
//! Why not serde and serde_json: they were two thirds of a user's clean
//! build before perfmark's own code could start (README, "Dependencies, and
//! why", `cargo xtask weight`), and perfmark needs a small part of them. The
//! formats are unchanged: `src/json/agreement.rs` holds this module to
//! serde_json (a dev-dependency) on generated values and texts, and the
//! layout of a pretty file is serde_json's byte for byte (numbers
//! included, but for the last digit of one with two shortest forms).
//!
//! The conventions of the files, which serde's derive gave before:
//! - a struct is an object with its fields in declaration order;
//! - a field the reader does not know is ignored (later versions add
//!   fields), a missing `Option` field reads as `None`, and any other
//!   missing field is an error naming it, unless the type gives a default;
//! - a non-finite `f64` is written as `null`, and `null` reads back as NaN
//!   where an `f64` is expected (CI bounds read it as ∓∞, see
//!   [`crate::stats::Interval`]);
//! - an enum of unit variants is its variant's `snake_case` name; an enum
//!   with fields is an object tagged by its variant's name under a key the
//!   type chooses (`"kind"`, `"op"`, …).
//!
//! Errors name where they are: the line and column of a syntax error, the
//! path of a value of the wrong kind (`tests[2].estimate.ci_low: expected a
//! number, found a string`).

use std::collections::BTreeMap;
use std::fmt;

mod parse;
mod write;

#[cfg(test)]
mod agreement;
#[cfg(test)]
pub(crate) mod testing;

pub use parse::{parse, MAX_DEPTH};
pub use write::{to_string as write_compact, to_string_pretty as write_pretty};

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, of the kind it was read or made as.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, its keys in the order they were inserted or read.
    Object(Object),
}

/// A JSON number: an exact integer when it is one and fits, else an `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// A non-negative integer.
    U64(u64),
    /// A negative integer.
    I64(i64),
    /// Every other number; always finite.
    F64(f64),
}

impl Number {
    /// The number as an `f64` (the nearest one, for a large integer).
    pub fn as_f64(self) -> f64 {
        match self {
            Number::U64(u) => u as f64,
            Number::I64(i) => i as f64,
            Number::F64(f) => f,
        }
    }
}

/// A JSON object: keys in order, each once.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object(Vec<(String, Value)>);

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object(Vec::new())
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value under `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sets `key` to `value`, in place when the key is there, else last.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<Value>) {
        let key = key.into();
        let value = value.into();
        match self.get_mut(&key) {
            Some(slot) => *slot = value,
            None => self.0.push((key, value)),
        }
    }

    /// Removes `key` and returns its value.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    /// Whether `key` is there.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The entries in order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sorts the keys, at this level and every level below.
    pub fn sort_keys_deep(&mut self) {
        self.0.sort_by(|a, b| a.0.cmp(&b.0));
        for (_, v) in &mut self.0 {
            v.sort_keys_deep();
        }
    }

    /// Adds `key` with `value` written as JSON (builder form, for
    /// [`ToJson`] impls).
    // `#[inline(always)]` and the push in `with_value`: one copy of the
    // push for all the types written, not one per type.
    #[inline(always)]
    pub fn with(self, key: &str, value: &(impl ToJson + ?Sized)) -> Object {
        self.with_value(key, value.to_json())
    }

    /// [`Object::with`] a [`Value`] already made.
    pub fn with_value(mut self, key: &str, value: Value) -> Object {
        self.0.push((key.to_owned(), value));
        self
    }

    /// Adds `key` only when `value` is `Some` (a field readers may lack).
    pub fn with_some<T: ToJson>(self, key: &str, value: &Option<T>) -> Object {
        match value {
            Some(v) => self.with(key, v),
            None => self,
        }
    }

    /// Adds `key` only when `keep`.
    pub fn with_if(self, keep: bool, key: &str, value: &(impl ToJson + ?Sized)) -> Object {
        if keep {
            self.with(key, value)
        } else {
            self
        }
    }

    /// The fields of this object, to read a type from ([`Fields`]).
    pub fn fields(&self) -> Fields<'_> {
        Fields(self)
    }
}

impl IntoIterator for Object {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl From<Object> for Value {
    fn from(o: Object) -> Value {
        Value::Object(o)
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        if f.is_finite() {
            Value::Number(Number::F64(f))
        } else {
            Value::Null
        }
    }
}

impl From<u64> for Value {
    fn from(u: u64) -> Value {
        Value::Number(Number::U64(u))
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        if i >= 0 {
            Value::Number(Number::U64(i as u64))
        } else {
            Value::Number(Number::I64(i))
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl Value {
    /// The value under `key`, when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    /// The object, when this is one.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The object, to change, when this is one.
    pub fn as_object_mut(&mut self) -> Option<&mut Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The items, when this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The items, to change, when this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The text, when this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number as an `f64`, when this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    /// The number, when this is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(Number::U64(u)) => Some(*u),
            _ => None,
        }
    }

    /// The number, when this is an integer that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(Number::U64(u)) => i64::try_from(*u).ok(),
            Value::Number(Number::I64(i)) => Some(*i),
            _ => None,
        }
    }

    /// The truth value, when this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The kind of value, as an error names it ("a string", "null", …).
    pub fn kind(&self) -> String {
        match self {
            Value::Null => "null".to_owned(),
            Value::Bool(b) => format!("boolean `{b}`"),
            Value::Number(Number::F64(f)) => format!("floating point `{f:?}`"),
            Value::Number(n) => format!("integer `{}`", write_compact(&Value::Number(*n))),
            Value::String(s) => format!("string {s:?}"),
            Value::Array(_) => "an array".to_owned(),
            Value::Object(_) => "an object".to_owned(),
        }
    }

    /// The fields of this value, when it is an object ([`Fields`]).
    ///
    /// # Errors
    /// When it is not an object.
    pub fn fields(&self) -> Result<Fields<'_>, Error> {
        match self {
            Value::Object(o) => Ok(Fields(o)),
            other => Err(Error::expected("an object", other)),
        }
    }

    /// Sorts the keys of every object in this value.
    pub fn sort_keys_deep(&mut self) {
        match self {
            Value::Object(o) => o.sort_keys_deep(),
            Value::Array(items) => items.iter_mut().for_each(Value::sort_keys_deep),
            _ => {}
        }
    }
}

impl fmt::Display for Value {
    /// The value as compact JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_compact(self))
    }
}

/// What went wrong reading JSON: a syntax error with its line and column,
/// or a value that does not fit the type read, with its path.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    message: String,
    /// Path segments from the innermost out (`.name` or `[i]`).
    path: Vec<String>,
    /// 1-based line and column of a syntax error; 0 when there is none.
    line: usize,
    column: usize,
    eof: bool,
}

impl Error {
    /// A value that does not fit, in words.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
            path: Vec::new(),
            line: 0,
            column: 0,
            eof: false,
        }
    }

    pub(crate) fn syntax(message: &str, line: usize, column: usize, eof: bool) -> Error {
        Error {
            line,
            column,
            eof,
            ..Error::new(message)
        }
    }

    /// "expected WHAT, found …".
    pub fn expected(what: &str, found: &Value) -> Error {
        Error::new(format!("expected {what}, found {}", found.kind()))
    }

    /// An enum's name that is none of `known`.
    pub fn unknown_variant(found: &str, known: &[&str]) -> Error {
        let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        Error::new(format!(
            "unknown variant `{found}`, expected one of {}",
            known.join(", ")
        ))
    }

    /// This error, found under the object key `key`.
    pub fn in_field(mut self, key: &str) -> Error {
        self.path.push(format!(".{key}"));
        self
    }

    /// This error, found at index `i` of an array.
    pub fn in_item(mut self, i: usize) -> Error {
        self.path.push(format!("[{i}]"));
        self
    }

    /// Whether the text ended before the value did (a truncated file).
    pub fn is_eof(&self) -> bool {
        self.eof
    }

    /// The 1-based line of a syntax error (0 for a value that does not fit).
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column of a syntax error (0 for a value that does not fit).
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            let path: String = self.path.iter().rev().map(String::as_str).collect();
            write!(f, "{}: ", path.trim_start_matches('.'))?;
        }
        f.write_str(&self.message)?;
        if self.line > 0 {
            write!(f, " at line {} column {}", self.line, self.column)?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// A type written as JSON.
pub trait ToJson {
    /// The value that stands for `self`.
    fn to_json(&self) -> Value;
}

/// A type read from JSON.
pub trait FromJson: Sized {
    /// Reads `self` from `value`.
    ///
    /// # Errors
    /// When `value` does not stand for a `Self`; the error says why.
    fn from_json(value: &Value) -> Result<Self, Error>;

    /// What a missing object field reads as: `None` makes it an error
    /// (`Option` reads a missing field as `None`).
    fn absent() -> Option<Self> {
        None
    }
}

/// The fields of an object, read into a type's fields by name.
#[derive(Debug, Clone, Copy)]
pub struct Fields<'a>(&'a Object);

impl<'a> Fields<'a> {
    /// The raw value under `key`.
    pub fn value(&self, key: &str) -> Option<&'a Value> {
        self.0.get(key)
    }

    /// The field `key`, read as a `T`; missing, it is [`FromJson::absent`].
    ///
    /// # Errors
    /// When it is missing and `T` has no absent value, or does not read.
    pub fn get<T: FromJson>(&self, key: &str) -> Result<T, Error> {
        match self.0.get(key) {
            Some(v) => in_field(T::from_json(v), key),
            None => T::absent().ok_or_else(|| missing(key)),
        }
    }

    /// The field `key`, or `T::default()` when it is missing.
    ///
    /// # Errors
    /// When it is there and does not read.
    pub fn get_or_default<T: FromJson + Default>(&self, key: &str) -> Result<T, Error> {
        self.get_or_else(key, T::default)
    }

    /// The field `key`, or `default()` when it is missing.
    ///
    /// # Errors
    /// When it is there and does not read.
    pub fn get_or_else<T: FromJson>(
        &self,
        key: &str,
        default: impl FnOnce() -> T,
    ) -> Result<T, Error> {
        match self.0.get(key) {
            Some(v) => in_field(T::from_json(v), key),
            None => Ok(default()),
        }
    }

    /// The field `key`, read by `read` (a field with its own reading).
    ///
    /// # Errors
    /// When it is missing or `read` refuses it.
    pub fn get_with<T>(&self, key: &str, read: fn(&Value) -> Result<T, Error>) -> Result<T, Error> {
        match self.0.get(key) {
            Some(v) => read(v).map_err(|e| e.in_field(key)),
            None => Err(missing(key)),
        }
    }

    /// The `f64` field `key`, with `null` read as `null_is` (a CI bound
    /// written as `null` was infinite: −∞ for a low end, +∞ for a high one).
    ///
    /// # Errors
    /// When it is missing or not a number or `null`.
    pub fn get_f64_null_as(&self, key: &str, null_is: f64) -> Result<f64, Error> {
        match self.0.get(key) {
            Some(Value::Null) => Ok(null_is),
            Some(v) => f64::from_json(v).map_err(|e| e.in_field(key)),
            None => Err(missing(key)),
        }
    }

    /// The tag of an enum with fields: the string under `key`.
    ///
    /// # Errors
    /// When it is missing or not a string.
    pub fn tag(&self, key: &str) -> Result<&'a str, Error> {
        match self.0.get(key) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(Error::expected("a string", other).in_field(key)),
            None => Err(missing(key)),
        }
    }
}

/// An internally tagged enum variant: `{tag_key: name, ...fields}`, the
/// tag first, then the fields of `fields` (an object, or `null` for a unit
/// variant).
pub fn tagged(tag_key: &str, name: &str, fields: Value) -> Value {
    let mut object = Object::new().with(tag_key, name);
    if let Value::Object(inner) = fields {
        object.0.extend(inner);
    }
    Value::Object(object)
}

/// `result`, its error placed under the field `key` (one small generic
/// step; the error's work is not repeated per type).
#[inline(always)]
fn in_field<T>(result: Result<T, Error>, key: &str) -> Result<T, Error> {
    match result {
        Ok(v) => Ok(v),
        Err(e) => Err(e.in_field(key)),
    }
}

/// The error of a missing field.
fn missing(key: &str) -> Error {
    Error::new(format!("missing field `{key}`"))
}

/// `value` as compact JSON text.
pub fn to_string<T: ToJson + ?Sized>(value: &T) -> String {
    write_compact(&value.to_json())
}

/// `value` as pretty JSON text (serde_json's layout, no trailing newline).
pub fn to_string_pretty<T: ToJson + ?Sized>(value: &T) -> String {
    write_pretty(&value.to_json())
}

/// Reads a `T` from JSON text.
///
/// # Errors
/// When the text is not JSON (with its line and column) or does not stand
/// for a `T` (with the path of the value that does not fit).
pub fn from_str<T: FromJson>(text: &str) -> Result<T, Error> {
    T::from_json(&parse(text)?)
}

impl ToJson for Value {
    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl FromJson for Value {
    #[inline]
    fn from_json(value: &Value) -> Result<Value, Error> {
        Ok(value.clone())
    }
}

impl ToJson for Object {
    fn to_json(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl ToJson for bool {
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

impl FromJson for bool {
    #[inline]
    fn from_json(value: &Value) -> Result<bool, Error> {
        value
            .as_bool()
            .ok_or_else(|| Error::expected("a boolean", value))
    }
}

impl ToJson for f64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

impl FromJson for f64 {
    /// A number, or `null` as NaN (a non-finite value was written).
    #[inline]
    fn from_json(value: &Value) -> Result<f64, Error> {
        match value {
            Value::Number(n) => Ok(n.as_f64()),
            Value::Null => Ok(f64::NAN),
            other => Err(Error::expected("a number", other)),
        }
    }
}

macro_rules! integer_json {
    ($($ty:ty as $wide:ty),*) => {$(
        impl ToJson for $ty {
            fn to_json(&self) -> Value {
                // Widened without loss: unsigned to u64, signed to i64.
                Value::from(*self as $wide)
            }
        }

        impl FromJson for $ty {
            #[inline]
            fn from_json(value: &Value) -> Result<$ty, Error> {
                let fits = match value {
                    Value::Number(Number::U64(u)) => <$ty>::try_from(*u).ok(),
                    Value::Number(Number::I64(i)) => <$ty>::try_from(*i).ok(),
                    _ => None,
                };
                fits.ok_or_else(|| Error::expected(concat!("an integer that fits ", stringify!($ty)), value))
            }
        }
    )*};
}

integer_json!(u8 as u64, u16 as u64, u32 as u64, usize as u64, i32 as i64);

impl ToJson for i64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

impl FromJson for i64 {
    #[inline]
    fn from_json(value: &Value) -> Result<i64, Error> {
        value
            .as_i64()
            .ok_or_else(|| Error::expected("an integer that fits i64", value))
    }
}

impl ToJson for u64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

impl FromJson for u64 {
    #[inline]
    fn from_json(value: &Value) -> Result<u64, Error> {
        value
            .as_u64()
            .ok_or_else(|| Error::expected("an integer that fits u64", value))
    }
}

impl ToJson for str {
    fn to_json(&self) -> Value {
        Value::String(self.to_owned())
    }
}

impl ToJson for String {
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl FromJson for String {
    #[inline]
    fn from_json(value: &Value) -> Result<String, Error> {
        value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| Error::expected("a string", value))
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_json)
    }
}

impl<T: FromJson> FromJson for Option<T> {
    #[inline]
    fn from_json(value: &Value) -> Result<Option<T>, Error> {
        match value {
            Value::Null => Ok(None),
            v => T::from_json(v).map(Some),
        }
    }

    fn absent() -> Option<Option<T>> {
        Some(None)
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        self.as_slice().to_json()
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    #[inline]
    fn from_json(value: &Value) -> Result<Vec<T>, Error> {
        let items = value
            .as_array()
            .ok_or_else(|| Error::expected("an array", value))?;
        items
            .iter()
            .enumerate()
            .map(|(i, v)| T::from_json(v).map_err(|e| e.in_item(i)))
            .collect()
    }
}

impl<T: ToJson> ToJson for BTreeMap<String, T> {
    fn to_json(&self) -> Value {
        Value::Object(Object(
            self.iter().map(|(k, v)| (k.clone(), v.to_json())).collect(),
        ))
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    #[inline]
    fn from_json(value: &Value) -> Result<BTreeMap<String, T>, Error> {
        let object = value
            .as_object()
            .ok_or_else(|| Error::expected("an object", value))?;
        object
            .iter()
            .map(|(k, v)| Ok((k.clone(), T::from_json(v).map_err(|e| e.in_field(k))?)))
            .collect()
    }
}

impl<A: ToJson, B: ToJson> ToJson for (A, B) {
    fn to_json(&self) -> Value {
        Value::Array(vec![self.0.to_json(), self.1.to_json()])
    }
}

impl<A: FromJson, B: FromJson> FromJson for (A, B) {
    #[inline]
    fn from_json(value: &Value) -> Result<(A, B), Error> {
        match value.as_array().map(Vec::as_slice) {
            Some([a, b]) => Ok((
                A::from_json(a).map_err(|e| e.in_item(0))?,
                B::from_json(b).map_err(|e| e.in_item(1))?,
            )),
            _ => Err(Error::expected("an array of two", value)),
        }
    }
}

/// [`ToJson`] and [`FromJson`] for an enum of unit variants, each written
/// as its name: `unit_enum_json!(Verdict { Pass = "pass", Fail = "fail" });`
macro_rules! unit_enum_json {
    ($ty:ty { $($variant:ident = $name:literal),* $(,)? }) => {
        impl $crate::json::ToJson for $ty {
            fn to_json(&self) -> $crate::json::Value {
                let name = match self {
                    $(Self::$variant => $name,)*
                };
                $crate::json::Value::String(name.to_owned())
            }
        }

        impl $crate::json::FromJson for $ty {
            #[inline]
            fn from_json(value: &$crate::json::Value) -> Result<Self, $crate::json::Error> {
                match value.as_str() {
                    $(Some($name) => Ok(Self::$variant),)*
                    Some(other) => Err($crate::json::Error::unknown_variant(other, &[$($name),*])),
                    None => Err($crate::json::Error::expected("a string", value)),
                }
            }
        }
    };
}
pub(crate) use unit_enum_json;

#[cfg(test)]
mod tests {
    use super::testing::round_trips;
    use super::*;

    #[test]
    fn integers_keep_every_value_of_their_type() {
        round_trips(&usize::MAX);
        round_trips(&u64::MAX);
        round_trips(&u32::MAX);
        round_trips(&i64::MIN);
        round_trips(&i64::MAX);
        round_trips(&i32::MIN);
        round_trips(&0u8);
        assert_eq!(to_string(&usize::MAX), usize::MAX.to_string());
        assert!(from_str::<u32>("4294967296").is_err());
        assert!(from_str::<u64>("-1").is_err());
        assert!(from_str::<u64>("1.0").is_err());
        assert_eq!(from_str::<i64>("-5"), Ok(-5));
    }

    #[test]
    fn a_missing_field_is_none_for_an_option_and_an_error_else() {
        let v = parse(r#"{"a": 1}"#).unwrap();
        let f = v.fields().unwrap();
        assert_eq!(f.get::<Option<u64>>("b"), Ok(None));
        assert_eq!(f.get::<Option<u64>>("a"), Ok(Some(1)));
        assert_eq!(
            f.get::<u64>("b").unwrap_err().to_string(),
            "missing field `b`"
        );
        assert_eq!(f.get_or_default::<u64>("b"), Ok(0));
        let e = f.get::<String>("a").unwrap_err().to_string();
        assert_eq!(e, "a: expected a string, found integer `1`");
    }

    #[test]
    fn errors_name_the_path_of_the_value() {
        let e = from_str::<BTreeMap<String, Vec<f64>>>(r#"{"xs": [1, 2, "3"]}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "xs[2]: expected a number, found string \"3\""
        );
        assert_eq!((e.line(), e.column(), e.is_eof()), (0, 0, false));
    }
}
