//! Protocol lines.
