//! What the OS saw of other work, in words: a disturbed test's warning,
//! its figures, and a paired comparison's one-sided interference.

use crate::observe::Interference;
use crate::report::fmt::rounded_percent;

impl Interference {
    /// The warning of a disturbed span, with its figures; `None` when it is
    /// not disturbed.
    pub fn warning(&self) -> Option<String> {
        if !self.disturbed {
            return None;
        }
        let whose = if self.paired.is_some() {
            "this test's timed slices'"
        } else {
            "this test's"
        };
        Some(format!(
            "{} of {whose} time was taken by other work ({}); its figures may be off",
            self.lost_percent(),
            self.details()
        ))
    }

    /// The lost share in words: `14%`, `6.2%`.
    pub fn lost_percent(&self) -> String {
        percent(self.lost_share.unwrap_or(0.0))
    }

    /// The figures behind the lost share, in words: `waited 0.28 s for a
    /// CPU, steal 2%, 310 involuntary switches`.
    pub fn details(&self) -> String {
        let mut parts = Vec::new();
        if let Some(w) = self.waited_s {
            parts.push(format!("waited {} for a CPU", seconds(w)));
        }
        if let (Some(stolen), true) = (self.stolen_s, self.wall_s > 0.0) {
            parts.push(format!("steal {}", percent(stolen / self.wall_s)));
        }
        if let Some(n) = self.involuntary_switches {
            parts.push(format!("{n} involuntary switches"));
        }
        parts.join(", ")
    }
}

#[cfg(feature = "compare")]
/// The warning when other work took `head` of the head's slice time and
/// `base` of the base's, hitting one side of a paired comparison more
/// than the other ([`crate::observe::PairedInterference::asymmetry`]).
pub fn asymmetry(head: f64, base: f64) -> String {
    format!(
        "other work took {} of the head's slice time but {} of the base's: it hit one side \
         more than the other, so the ratio may be off",
        percent(head),
        percent(base)
    )
}

/// `14%`; one decimal below 10%.
pub(crate) fn percent(share: f64) -> String {
    rounded_percent(share, 0.0995)
}

/// `0.28 s`, `12 ms`.
fn seconds(s: f64) -> String {
    if s >= 0.1 {
        format!("{s:.2} s")
    } else {
        format!("{:.0} ms", s * 1e3)
    }
}
