//! TRANSITIONAL (deleted when serde goes): `ToJson`/`FromJson` through a
//! type's serde derives, for types another branch is converting.

use super::{parse, write_compact, Value};

/// The serde-written JSON of `x`, as our value.
pub fn to_value<T: serde::Serialize>(x: &T) -> Value {
    parse(&serde_json::to_string(x).expect("serializes")).expect("serde_json writes JSON")
}

/// Reads `value` through the type's serde derive.
pub fn from_value<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, super::Error> {
    serde_json::from_str(&write_compact(value)).map_err(|e| super::Error::new(e.to_string()))
}

/// `serde_bridge!(A, B, ...)`: ToJson and FromJson through serde.
macro_rules! serde_bridge {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::json::ToJson for $ty {
            fn to_json(&self) -> $crate::json::Value {
                $crate::json::bridge::to_value(self)
            }
        }
        impl $crate::json::FromJson for $ty {
            fn from_json(value: &$crate::json::Value) -> Result<Self, $crate::json::Error> {
                $crate::json::bridge::from_value(value)
            }
        }
    )*};
}
#[allow(unused_imports)]
pub(crate) use serde_bridge;
