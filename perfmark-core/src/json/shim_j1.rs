//! TRANSITIONAL (branch j1; deleted at the merge): `ToJson`/`FromJson`
//! through serde for the types of other branches' files that j1's types
//! contain.

crate::json::bridge::serde_bridge!(crate::observe::ThreadObservation);
