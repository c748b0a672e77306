//! placeholder: owned by the statistics work
