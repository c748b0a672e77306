//! Where a test was measured, in words: the CPU or CPUs it was held on,
//! why it was not pinned, the kind of core drawn from, and the header's
//! line on placement.

use std::fmt;

use crate::cpus::{CoreKind, CpuRecord, Cpus, NotPinned};

impl fmt::Display for CoreKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the fastest kind of core ({}); {} slower CPU{} left unused",
            self.name,
            self.left_out,
            if self.left_out == 1 { "" } else { "s" }
        )
    }
}

impl fmt::Display for NotPinned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotPinned::TurnedOff => f.write_str("pinning turned off (--no-pin)"),
            NotPinned::OneCpu => f.write_str("one CPU allowed"),
            NotPinned::Unsupported => f.write_str("pinning is not supported on this OS"),
            NotPinned::Refused(e) => write!(f, "the kernel refused to pin: {e}"),
        }
    }
}

impl CpuRecord {
    /// What `--verbose` says of it: `pinned to CPU 3 (of 16 allowed)`, or
    /// for pairs `each process pair pinned to one CPU: 3, 7, 1 (of 16)`.
    pub fn words(&self) -> String {
        let list = self
            .cpus
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let of = if self.candidates < self.allowed {
            format!("{} of {} allowed", self.candidates, self.allowed)
        } else {
            format!("{} allowed", self.allowed)
        };
        let mut text = match (&self.not_pinned, self.cpus.len()) {
            (None, 1) => format!("pinned to CPU {list} (of {of})"),
            (None, _) => format!("each process pair pinned to one CPU: {list} (of {of})"),
            (Some(why), 0) => format!("not pinned: {why}"),
            (Some(why), _) => format!("not pinned ({why}); ran on CPU {list} (of {of})"),
        };
        if let Some(kind) = &self.kind {
            text.push_str(&format!("; {kind}"));
        }
        text
    }
}

impl Cpus {
    /// The run's header line on placement: how each measurement is held
    /// (`paired`: process pairs, else test threads), or why nothing is.
    pub fn header(&self, not_pinned: Option<&NotPinned>, paired: bool) -> String {
        let of = if self.candidates.len() < self.allowed.len() {
            format!(
                "{} of {} allowed",
                self.candidates.len(),
                self.allowed.len()
            )
        } else {
            format!("{} allowed", self.allowed.len())
        };
        let mut line = match (not_pinned, paired) {
            (Some(why), _) => format!("placement: not pinned, {why} ({of})"),
            (None, false) => format!(
                "placement: each test held on one CPU from its setup to its last sample, \
                 where the kernel first put it ({of} CPUs)"
            ),
            (None, true) => format!(
                "placement: both workers of each process pair held on one CPU, drawn per \
                 pair ({of} CPUs)"
            ),
        };
        if let Some(kind) = &self.kind {
            line.push_str(&format!("; {kind}"));
        }
        line
    }
}
