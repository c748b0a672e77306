//! Baseline files.
