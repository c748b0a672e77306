//! Reading a baseline file's JSON with every object's keys unique.
//!
//! JSON allows a name twice in one object and leaves the meaning to the
//! reader; serde_json keeps the last. In a baseline file a duplicate is
//! most often a merge resolved by keeping both sides, and keeping one of
//! them silently would fail or pass tests on a baseline nobody chose, then
//! drop the other at the next save. So a duplicate key, at any depth, is
//! refused like any other damage, with its name and place.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON value read with no key twice in one object.
pub(super) struct UniqueKeys(pub(super) Value);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor).map(UniqueKeys)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        // serde_json only hands out finite numbers.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(UniqueKeys(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format_args!(
                    "the key {key:?} appears twice in one object; keep one (a merge that kept \
                     both sides?)"
                )));
            }
            let UniqueKeys(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Value, String> {
        serde_json::from_str::<UniqueKeys>(text)
            .map(|u| u.0)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn reads_what_serde_json_reads() {
        let text = r#"{"a": [1, -2, 0.1, 1e300, "x", null, true], "b": {"c": {}}}"#;
        assert_eq!(read(text), Ok(serde_json::from_str::<Value>(text).unwrap()));
    }

    #[test]
    fn refuses_a_key_twice_at_any_depth_with_its_place() {
        let e = read("{\"tests\": {\"a\": 1,\n \"a\": 2}}").unwrap_err();
        assert!(
            e.starts_with("the key \"a\" appears twice in one object; keep one"),
            "{e}"
        );
        assert!(e.contains("line 2 column"), "{e}");
        assert!(read(r#"[{"x": 1, "y": {"x": 2}}]"#).is_ok());
        assert!(read(r#"[{"x": 1}, {"y": {"z": 2, "z": 3}}]"#).is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        assert!(read(&deep).unwrap_err().contains("recursion limit"));
    }
}
