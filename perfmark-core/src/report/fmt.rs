//! Numbers and words as every report prints them: times, rates, CI bounds,
//! percentages and verdicts.

use crate::bencher::Work;

/// A time in ns with a unit that keeps 3–4 significant digits:
/// `0.42 ns`, `812.4 ns`, `1.234 µs`, `4.56 ms`, `1.234 s`.
pub fn fmt_ns(ns: f64) -> String {
    let (value, unit) = match ns.abs() {
        x if x < 1e3 => (ns, "ns"),
        x if x < 1e6 => (ns / 1e3, "µs"),
        x if x < 1e9 => (ns / 1e6, "ms"),
        _ => (ns / 1e9, "s"),
    };
    format!("{} {unit}", four_digits(value))
}

/// A CI bound in ns: a time as [`fmt_ns`] prints it, or `−∞` / `+∞` when
/// the bound is infinite.
pub fn fmt_bound(ns: f64) -> String {
    if ns.is_finite() {
        fmt_ns(ns)
    } else if ns > 0.0 {
        "+∞".to_owned()
    } else {
        "−∞".to_owned()
    }
}

/// `value` with 4 significant digits for values from 1 to 9999 (3 decimals
/// below 10), e.g. `0.421`, `4.560`, `45.60`, `812.4`, `2079`.
fn four_digits(value: f64) -> String {
    let decimals = match value.abs() {
        x if x < 10.0 => 3,
        x if x < 100.0 => 2,
        x if x < 1000.0 => 1,
        _ => 0,
    };
    format!("{value:.decimals$}")
}

/// The rate the declared work runs at, with an SI prefix:
/// `207.9 Mitem/s`, `12.31 GB/s`, `456.7 MFLOP/s`.
pub fn fmt_rate(work: Work, per_s: f64) -> String {
    let unit = match work {
        Work::Items(_) => "item/s",
        Work::Bytes(_) => "B/s",
        Work::Flops(_) => "FLOP/s",
    };
    let (value, prefix) = match per_s.abs() {
        x if x >= 1e12 => (per_s / 1e12, "T"),
        x if x >= 1e9 => (per_s / 1e9, "G"),
        x if x >= 1e6 => (per_s / 1e6, "M"),
        x if x >= 1e3 => (per_s / 1e3, "k"),
        _ => (per_s, ""),
    };
    format!("{} {prefix}{unit}", four_digits(value))
}

/// Work per second at `ns_per_iter`; `None` unless `ns_per_iter` is
/// positive.
pub fn rate_per_s(work: Work, ns_per_iter: f64) -> Option<f64> {
    let per_iter = match work {
        Work::Items(n) | Work::Bytes(n) | Work::Flops(n) => n as f64,
    };
    (ns_per_iter > 0.0).then(|| per_iter * 1e9 / ns_per_iter)
}

/// A fraction as a percentage with `decimals` decimals: `0.0123` with 1
/// decimal is `1.2%`.
pub fn fmt_percent(fraction: f64, decimals: usize) -> String {
    format!("{:.decimals$}%", fraction * 100.0)
}

/// `1.124` → `+12.4%`; infinite → `+inf%`.
pub fn signed_percent(ratio: f64) -> String {
    signed_percent_with(ratio, 1)
}

/// A ratio's change as a signed percentage with `decimals` decimals:
/// `1.0123` with 2 → `+1.23%`; infinite → `+inf%`.
pub fn signed_percent_with(ratio: f64, decimals: usize) -> String {
    let pct = (ratio - 1.0) * 100.0;
    if pct.is_finite() {
        format!("{pct:+.decimals$}%")
    } else {
        format!("{pct:+}%")
    }
}

/// `0.05` → `5%`, `0.025` → `2.5%`, `-0.2` → `-20%`: two decimals at
/// most, no trailing zeros, and `0%` for what rounds to zero from below.
pub fn plain_percent(fraction: f64) -> String {
    trimmed_percent(fraction, 2)
}

/// A fraction as a percentage with at most `decimals` decimals, no
/// trailing zeros, and `0%` for what rounds to zero from below: `0.95` →
/// `95%`, `0.96875` with 3 → `96.875%`.
pub fn trimmed_percent(fraction: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", fraction * 100.0);
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    let text = if text == "-0" { "0" } else { text };
    format!("{text}%")
}

/// A share as a reader says it: whole percent from `whole_from` (a
/// fraction) up, one decimal below: `0.14` → `14%`, `0.062` → `6.2%` with
/// `whole_from` 0.0995.
pub fn rounded_percent(fraction: f64, whole_from: f64) -> String {
    if fraction >= whole_from {
        fmt_percent(fraction, 0)
    } else {
        fmt_percent(fraction, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_keep_three_to_four_significant_digits() {
        assert_eq!(fmt_ns(0.4213), "0.421 ns");
        assert_eq!(fmt_ns(4.56), "4.560 ns");
        assert_eq!(fmt_ns(812.44), "812.4 ns");
        assert_eq!(fmt_ns(1234.0), "1.234 µs");
        assert_eq!(fmt_ns(45_600_000.0), "45.60 ms");
        assert_eq!(fmt_ns(2.5e9), "2.500 s");
    }

    #[test]
    fn infinite_bounds_are_signed_infinities() {
        assert_eq!(fmt_bound(812.44), "812.4 ns");
        assert_eq!(fmt_bound(f64::INFINITY), "+∞");
        assert_eq!(fmt_bound(f64::NEG_INFINITY), "−∞");
    }

    #[test]
    fn rates_use_si_prefixes() {
        let rate = rate_per_s(Work::Bytes(1000), 100.0).unwrap();
        assert_eq!(rate, 1e10);
        assert_eq!(fmt_rate(Work::Bytes(1000), rate), "10.00 GB/s");
        assert_eq!(fmt_rate(Work::Items(1), 2.079e8), "207.9 Mitem/s");
        assert_eq!(rate_per_s(Work::Items(1), 0.0), None);
    }

    #[test]
    fn every_percentage_style() {
        assert_eq!(signed_percent_with(1.0123, 2), "+1.23%");
        assert_eq!(signed_percent(f64::INFINITY), "+inf%");
        assert_eq!(trimmed_percent(0.95, 3), "95%");
        assert_eq!(trimmed_percent(0.96875, 3), "96.875%");
        assert_eq!(trimmed_percent(0.1, 0), "10%");
        assert_eq!(rounded_percent(0.14, 0.0995), "14%");
        assert_eq!(rounded_percent(0.062, 0.0995), "6.2%");
        assert_eq!(rounded_percent(0.04, 0.02), "4%");
        assert_eq!(rounded_percent(0.015, 0.02), "1.5%");
    }

    #[test]
    fn percentages() {
        assert_eq!(fmt_percent(0.0123, 1), "1.2%");
        assert_eq!(fmt_percent(0.95, 0), "95%");
        assert_eq!(plain_percent(0.05), "5%");
        assert_eq!(plain_percent(0.025), "2.5%");
        assert_eq!(plain_percent(-0.2), "-20%");
        assert_eq!(plain_percent(-0.0), "0%");
        assert_eq!(plain_percent(-0.000_01), "0%");
    }
}
