//! TRANSITIONAL: the lead's branch's bridge for types j1/j2 convert.
crate::json::bridge::serde_bridge!(crate::clock::Clock);
