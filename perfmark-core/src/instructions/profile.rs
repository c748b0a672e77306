//! Reading Callgrind's profiles: the parts a counting process dumped, each
//! with the label it was dumped under and its event totals. Pure: text in,
//! figures out.

use std::collections::BTreeMap;

/// One dumped part of a profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The label of the client request that dumped it (`Trigger: Client
    /// Request: LABEL`), or the trigger's words for another dump.
    pub label: String,
    /// Each event's total in the part (`Ir`, and with the cache simulated
    /// `Dr`, `Dw`, `I1mr`, …).
    pub totals: BTreeMap<String, u64>,
}

/// The parts of a profile written with `--combine-dumps=yes` (one file,
/// a `part:` section per dump), in the order they were dumped.
///
/// # Errors
/// When a part has no event names or no totals, or a total is not a whole
/// number: the words say which.
pub fn parts(text: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut label: Option<String> = None;
    let mut events: Vec<String> = Vec::new();
    let mut totals: Option<Vec<u64>> = None;
    let mut in_part = false;
    for line in text.lines() {
        if line.starts_with("part:") {
            if in_part {
                parts.push(finish_part(label.take(), &events, totals.take())?);
            }
            in_part = true;
        } else if let Some(rest) = line.strip_prefix("desc: Trigger:") {
            let rest = rest.trim();
            let text = rest.strip_prefix("Client Request:").unwrap_or(rest).trim();
            label = Some(text.to_owned());
        } else if let Some(rest) = line.strip_prefix("events:") {
            events = rest.split_whitespace().map(str::to_owned).collect();
        } else if let Some(rest) = line
            .strip_prefix("totals:")
            .or_else(|| line.strip_prefix("summary:"))
        {
            // `summary:` comes first; `totals:`, where written, repeats it.
            totals = Some(read_totals(rest)?);
            in_part = true;
        }
    }
    if in_part {
        parts.push(finish_part(label.take(), &events, totals.take())?);
    }
    Ok(parts)
}

/// The part labelled `label` (empty when none was given) with the
/// `totals` of its `events`, in their order.
fn finish_part(
    label: Option<String>,
    events: &[String],
    totals: Option<Vec<u64>>,
) -> Result<Part, String> {
    let label = label.unwrap_or_default();
    let values =
        totals.ok_or_else(|| format!("a part of the profile ({label:?}) has no totals"))?;
    if events.is_empty() {
        return Err(format!("a part of the profile ({label:?}) names no events"));
    }
    // Trailing zero costs are left out of a line: missing ones are 0.
    let totals = events
        .iter()
        .cloned()
        .zip(values.into_iter().chain(std::iter::repeat(0)))
        .collect();
    Ok(Part { label, totals })
}

/// The counts of a `totals:` or `summary:` line, after its key.
fn read_totals(rest: &str) -> Result<Vec<u64>, String> {
    rest.split_whitespace()
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| format!("a total of the profile is not a count: {v:?}"))
        })
        .collect()
}

/// A frame of a profile: a function, or code inlined into it from
/// another file. (Provisional: self counts are not read yet.)
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Frame {
    /// The function.
    pub function: String,
    /// The file its code was inlined from.
    pub inlined_from: Option<String>,
}

/// Per-frame self counts per iteration. (Provisional: none yet.)
///
/// # Errors
/// Never yet.
pub fn per_iteration(_parts: &[Part], _k: u64, _rounds: u32) -> Result<Vec<(Frame, f64)>, String> {
    Ok(Vec::new())
}

/// A file-name stem for a test's name.
pub fn profile_file_stem(test: &str) -> String {
    test.replace("::", "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_PARTS: &str = "# callgrind format
version: 1
creator: callgrind-3.22.0
pid: 4242
cmd:  ./perf __perfmark_count t 10 3

part: 1
desc: I1 cache: 
desc: Timerange: Basic block 0 - 2911
desc: Trigger: Client Request: perfmark 0 k

positions: line
events: Ir
summary: 5230
fn=(1) main
3 5230

totals: 5230

part: 2
desc: Trigger: Client Request: perfmark 0 2k

positions: line
events: Ir Dr Dw
summary: 10440 300
fn=(1)
3 10440 300
totals: 10440 300

part: 3
desc: Trigger: Program termination

events: Ir
summary: 0
";

    #[test]
    fn each_part_with_its_label_and_totals() {
        let parts = parts(TWO_PARTS).unwrap();
        assert_eq!(parts.len(), 3);
        assert_eq!(parts[0].label, "perfmark 0 k");
        assert_eq!(parts[0].totals["Ir"], 5230);
        assert_eq!(parts[1].label, "perfmark 0 2k");
        assert_eq!(parts[1].totals["Ir"], 10440);
        assert_eq!(parts[1].totals["Dr"], 300);
        // A trailing zero cost is left out of the line: it reads as 0.
        assert_eq!(parts[1].totals["Dw"], 0);
        assert_eq!(parts[2].label, "Program termination");
        assert_eq!(parts[2].totals["Ir"], 0);
    }

    #[test]
    fn a_broken_profile_is_said_not_guessed() {
        assert!(parts("part: 1\nevents: Ir\nsummary: many\n")
            .unwrap_err()
            .contains("not a count"));
        assert!(parts("part: 1\nevents: Ir\n")
            .unwrap_err()
            .contains("no totals"));
        assert_eq!(parts("").unwrap(), Vec::new());
    }
}
