//! Stub until reference_values.py runs.
pub(super) const LN_GAMMA: &[(f64, f64)] = &[];
pub(super) const DIGAMMA: &[(f64, f64)] = &[];
pub(super) const NORMAL_QUANTILE: &[(f64, f64)] = &[];
pub(super) const T_QUANTILE: &[(f64, f64, f64)] = &[];
pub(super) const T_UPPER_TAIL: &[(f64, f64, f64)] = &[];
pub(super) const CHI_SQUARED_QUANTILE: &[(f64, f64, f64)] = &[];
pub(super) const CHI_SQUARED_UPPER_TAIL: &[(f64, f64, f64)] = &[];
pub(super) const BINOMIAL_QUANTILE: &[(f64, u64, f64, u64)] = &[];
