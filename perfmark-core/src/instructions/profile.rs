//! Reading Callgrind's profiles: the parts a counting process dumped, each
//! with the label it was dumped under, its event totals, each function's
//! own instructions and the calls between functions; and what a counting
//! process's rounds make of them per iteration ([`per_iteration`]). Pure:
//! text in, figures out.
//!
//! The format is Valgrind's "Callgrind Format Specification" (Josef
//! Weidendorfer, the Valgrind manual): a `part:` per dump, `fl=` naming a
//! function's source file and `fn=` the function, `fi=`/`fe=` the file of
//! the code the following cost lines belong to (code inlined from another
//! file), `cfn=` and `calls=` a call, whose one following cost line is the
//! call's inclusive cost. Names may be compressed (`fn=(12) name` once,
//! `fn=(12)` after), and are read either way.

use std::collections::BTreeMap;

use super::label;

/// One dumped part of a profile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Part {
    /// The label of the client request that dumped it (`Trigger: Client
    /// Request: LABEL`), or the trigger's words for another dump.
    pub label: String,
    /// Each event's total in the part (`Ir`, and with the cache simulated
    /// `Dr`, `Dw`, `I1mr`, …).
    pub totals: BTreeMap<String, u64>,
    /// Each frame's self cost in instructions (`Ir`): what its own code
    /// executed, the functions it called not included. Empty when the
    /// part counts no `Ir`.
    pub functions: BTreeMap<Frame, u64>,
    /// The calls between functions, summed per caller and callee (a
    /// recursive function's deeper calls, `f'2`, are its own).
    pub calls: BTreeMap<CallEdge, Calls>,
}

/// Where instructions were executed: a function's own code, or code
/// inlined into it from another source file.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Frame {
    /// The function, as Valgrind demangled it, without a Rust legacy
    /// symbol's hash (`::h` and 16 hex digits) or Callgrind's recursion
    /// mark (`'2`).
    pub function: String,
    /// For code inlined into `function` from another source file (a
    /// generic of the standard library, a `#[inline]` function of another
    /// crate): that file, as the profile names it. `None` for the code of
    /// the function's own file.
    pub inlined_from: Option<String>,
}

impl Frame {
    /// The own code of `function`.
    pub fn function(function: &str) -> Frame {
        Frame {
            function: function.to_owned(),
            inlined_from: None,
        }
    }
}

/// A caller and a function it called.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallEdge {
    /// The calling function (named as [`Frame::function`]).
    pub caller: String,
    /// The called function.
    pub callee: String,
}

/// The calls of one [`CallEdge`] in a part.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Calls {
    /// How many calls were made.
    pub count: u64,
    /// Instructions (`Ir`) executed inside those calls, the callee's
    /// callees included.
    pub inclusive_ir: u64,
}

/// The parts of a profile written with `--combine-dumps=yes` (one file,
/// a `part:` section per dump), in the order they were dumped.
///
/// # Errors
/// When a part has no event names or no totals, or a total or a cost is
/// not a whole number: the words say which.
pub fn parts(text: &str) -> Result<Vec<Part>, String> {
    let mut reader = Reader::default();
    for line in text.lines() {
        reader.line(line)?;
    }
    reader.finish()
}

/// The state of reading a profile, line by line.
#[derive(Debug, Default)]
struct Reader {
    /// The parts read so far.
    parts: Vec<Part>,
    /// Whether a part has begun and is not yet in `parts`.
    in_part: bool,
    label: Option<String>,
    events: Vec<String>,
    totals: Option<Vec<u64>>,
    /// How many position columns start a cost line (`positions:`).
    positions: usize,
    /// The column of `Ir` among the events.
    ir: Option<usize>,
    /// The compressed names: `(12)` of files, and of functions.
    files: BTreeMap<String, String>,
    names: BTreeMap<String, String>,
    /// The current function's own file (`fl=`), and the file of the code
    /// the next cost lines belong to (`fi=`, `fe=`).
    file: String,
    code_file: String,
    function: Option<String>,
    callee: Option<String>,
    /// After `calls=`: the call whose inclusive cost the next line is.
    call: Option<(CallEdge, u64)>,
    functions: BTreeMap<Frame, u64>,
    calls: BTreeMap<CallEdge, Calls>,
}

impl Reader {
    /// Reads one line of the profile.
    fn line(&mut self, line: &str) -> Result<(), String> {
        if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            return self.cost(line);
        }
        let Some((key, value)) = split_key(line) else {
            return Ok(());
        };
        match key {
            "part" => self.start_part()?,
            "desc" => {
                if let Some(rest) = value.strip_prefix("Trigger:") {
                    let rest = rest.trim();
                    let text = rest.strip_prefix("Client Request:").unwrap_or(rest).trim();
                    self.label = Some(text.to_owned());
                }
            }
            "events" => {
                self.events = value.split_whitespace().map(str::to_owned).collect();
                self.ir = self.events.iter().position(|e| e == "Ir");
            }
            "positions" => self.positions = value.split_whitespace().count(),
            // `summary:` comes first; `totals:`, where written, repeats it.
            "summary" | "totals" => {
                self.totals = Some(read_totals(value)?);
                self.in_part = true;
            }
            _ => self.name(key, value)?,
        }
        Ok(())
    }

    /// Reads a `key=name` line: a file, a function, a callee or a call.
    fn name(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "fl" => {
                self.file = expand(&mut self.files, value);
                self.code_file = self.file.clone();
            }
            "fi" | "fe" => self.code_file = expand(&mut self.files, value),
            // Read for their compressed names only.
            "cfi" | "cfl" => drop(expand(&mut self.files, value)),
            "fn" => {
                self.function = Some(clean_name(&expand(&mut self.names, value)));
                self.code_file = self.file.clone();
            }
            "cfn" => self.callee = Some(clean_name(&expand(&mut self.names, value))),
            "calls" => {
                let count = value.split_whitespace().next().unwrap_or("");
                let count = count.parse().map_err(|_| {
                    format!("a call count of the profile is not a count: {count:?}")
                })?;
                let edge = CallEdge {
                    caller: self.function.clone().unwrap_or_default(),
                    callee: self.callee.clone().unwrap_or_default(),
                };
                self.call = Some((edge, count));
            }
            _ => {}
        }
        Ok(())
    }

    /// Reads a cost line: the self cost of the current frame, or, right
    /// after `calls=`, the inclusive cost of that call.
    fn cost(&mut self, line: &str) -> Result<(), String> {
        let ir = match self.ir {
            // A cost line names its positions first; a missing count is 0.
            Some(column) => match line.split_whitespace().nth(self.positions.max(1) + column) {
                Some(v) => v
                    .parse::<u64>()
                    .map_err(|_| format!("a cost of the profile is not a count: {v:?}"))?,
                None => 0,
            },
            None => 0,
        };
        if let Some((edge, count)) = self.call.take() {
            let calls = self.calls.entry(edge).or_default();
            calls.count += count;
            calls.inclusive_ir += ir;
        } else if let Some(function) = &self.function {
            let inlined_from = (self.code_file != self.file).then(|| short_file(&self.code_file));
            let frame = Frame {
                function: function.clone(),
                inlined_from,
            };
            *self.functions.entry(frame).or_default() += ir;
        }
        Ok(())
    }

    /// Ends the part being read, if one is, and begins the next.
    fn start_part(&mut self) -> Result<(), String> {
        self.end_part()?;
        self.in_part = true;
        Ok(())
    }

    /// Ends the part being read, if one is: its costs go into a [`Part`].
    fn end_part(&mut self) -> Result<(), String> {
        if self.in_part {
            let mut part = finish_part(self.label.take(), &self.events, self.totals.take())?;
            part.functions = std::mem::take(&mut self.functions);
            part.calls = std::mem::take(&mut self.calls);
            self.parts.push(part);
        }
        self.in_part = false;
        self.function = None;
        self.callee = None;
        self.call = None;
        Ok(())
    }

    /// The parts read, the last one ended.
    fn finish(mut self) -> Result<Vec<Part>, String> {
        self.end_part()?;
        Ok(self.parts)
    }
}

/// `key: value` or `key=value` (a header line or a name line), trimmed;
/// `None` for a comment or a blank line.
fn split_key(line: &str) -> Option<(&str, &str)> {
    if line.starts_with('#') {
        return None;
    }
    let at = line.find([':', '='])?;
    let key = &line[..at];
    if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some((key, line[at + 1..].trim()))
}

/// The name a `(12) name` or `(12)` stands for, recording a new one in
/// `table`; a name without `(id)` is itself.
fn expand(table: &mut BTreeMap<String, String>, value: &str) -> String {
    let Some(rest) = value.strip_prefix('(') else {
        return value.to_owned();
    };
    let Some((id, name)) = rest.split_once(')') else {
        return value.to_owned();
    };
    let name = name.trim();
    if name.is_empty() {
        table.get(id).cloned().unwrap_or_else(|| value.to_owned())
    } else {
        table.insert(id.to_owned(), name.to_owned());
        name.to_owned()
    }
}

/// A function's name without Callgrind's recursion mark (`f'2` is `f`
/// called from within itself) or a Rust legacy symbol's hash
/// (`::h0123456789abcdef`), which Valgrind's demangler keeps.
pub fn clean_name(name: &str) -> String {
    let mut name = name.trim();
    if let Some((head, depth)) = name.rsplit_once('\'') {
        if !depth.is_empty() && depth.bytes().all(|b| b.is_ascii_digit()) {
            name = head;
        }
    }
    if let Some((head, hash)) = name.rsplit_once("::h") {
        if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            name = head;
        }
    }
    name.to_owned()
}

/// A source file as a reader knows it: the standard library's from its
/// crate (`/rustc/HASH/library/core/src/hint.rs` → `core/src/hint.rs`), a
/// dependency's from its crate folder (`…/registry/src/INDEX/serde-1.0.0/
/// src/de.rs` → `serde-1.0.0/src/de.rs`, `/rust/deps/x-1.0/src/a.rs` →
/// `x-1.0/src/a.rs`), a file under the current directory relative to it;
/// any other path as it is.
pub fn short_file(path: &str) -> String {
    if let Some((_, rest)) = path.split_once("/library/") {
        return rest.to_owned();
    }
    if let Some((_, rest)) = path.split_once("/registry/src/") {
        if let Some((_index, krate)) = rest.split_once('/') {
            return krate.to_owned();
        }
    }
    if let Some(rest) = path.strip_prefix("/rust/deps/") {
        return rest.to_owned();
    }
    let here = std::env::current_dir().ok();
    here.and_then(|dir| {
        std::path::Path::new(path)
            .strip_prefix(dir)
            .ok()
            .map(|p| p.display().to_string())
    })
    .unwrap_or_else(|| path.to_owned())
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
    Ok(Part {
        label,
        totals,
        ..Part::default()
    })
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

/// The test, `k` and the rounds of the counting process that wrote the
/// profile, from its `cmd:` line (`cmd: EXE __perfmark_count TEST K
/// ROUNDS`); `None` for a profile of another command.
pub fn counting_args(text: &str) -> Option<(String, u64, u32)> {
    let cmd = text
        .lines()
        .find_map(|line| line.strip_prefix("cmd:"))?
        .trim_end();
    let flag = format!(" {} ", super::COUNT_FLAG);
    let (_, args) = cmd.split_at(cmd.find(&flag)? + flag.len());
    // From the end: the executable's path may hold spaces.
    let mut from_end = args.rsplitn(3, ' ');
    let rounds = from_end.next()?.parse().ok()?;
    let k = from_end.next()?.parse().ok()?;
    let test = from_end.next()?.trim();
    (!test.is_empty()).then(|| (test.to_owned(), k, rounds))
}

/// The (shorter, longer) block parts of each of `rounds` rounds, found by
/// their labels (`perfmark R k`, `perfmark R 2k`).
///
/// # Errors
/// A part is missing: the words name its label.
pub fn block_pairs(parts: &[Part], rounds: u32) -> Result<Vec<(&Part, &Part)>, String> {
    let find = |label: String| {
        parts
            .iter()
            .find(|p| p.label == label)
            .ok_or_else(|| format!("the profile has no part {label:?}"))
    };
    (0..rounds)
        .map(|r| Ok((find(label(r, "k"))?, find(label(r, "2k"))?)))
        .collect()
}

/// Each frame's self instructions per iteration: over the rounds, the
/// longer block's self cost less the shorter one's (`k` iterations more,
/// the blocks' fixed cost cancelling), summed and divided by `k ×
/// rounds`. Largest first (equal ones by frame); frames whose figure is 0
/// are left out. A figure below 0 (a fixed cost that fell in the longer
/// block) is kept, last.
///
/// # Errors
/// A round's part is missing ([`block_pairs`]).
pub fn per_iteration(parts: &[Part], k: u64, rounds: u32) -> Result<Vec<(Frame, f64)>, String> {
    let mut sums: BTreeMap<&Frame, i128> = BTreeMap::new();
    for (short, long) in block_pairs(parts, rounds)? {
        for (frame, &ir) in &long.functions {
            *sums.entry(frame).or_default() += i128::from(ir);
        }
        for (frame, &ir) in &short.functions {
            *sums.entry(frame).or_default() -= i128::from(ir);
        }
    }
    let iterations = (k.max(1) * u64::from(rounds.max(1))) as f64;
    let mut table: Vec<(Frame, f64)> = sums
        .into_iter()
        .filter(|&(_, sum)| sum != 0)
        .map(|(frame, sum)| (frame.clone(), sum as f64 / iterations))
        .collect();
    table.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(table)
}

/// A file-name stem for test `test`, of `[A-Za-z0-9._-]` only: letters,
/// digits, `_` and `-` as they are, `::` as `..`, and any other character
/// as `.` and its UTF-8 bytes in two lowercase hex digits each (`/` is
/// `.2f`, `.` is `.2e`), so that distinct names have distinct stems
/// (`sort::u32` is `sort..u32`). A stem longer than 200 bytes is cut there
/// and ends in `-` and a hash of the whole name.
pub fn profile_file_stem(test: &str) -> String {
    let mut stem = String::with_capacity(test.len());
    let mut rest = test;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("::") {
            stem.push_str("..");
            rest = after;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            stem.push(c);
        } else {
            let mut bytes = [0; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                stem.push_str(&format!(".{b:02x}"));
            }
        }
        rest = &rest[c.len_utf8()..];
    }
    if stem.is_empty() {
        stem.push('_');
    }
    const MOST: usize = 200;
    if stem.len() > MOST {
        // FNV-1a: a stable hash, the same in every build.
        let hash = test.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        stem.truncate(MOST - 17);
        stem.push_str(&format!("-{hash:016x}"));
    }
    stem
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
        let bad_cost = "part: 1\nevents: Ir\nsummary: 3\nfn=f\n1 three\n";
        assert!(parts(bad_cost).unwrap_err().contains("not a count"));
        let bad_calls = "part: 1\nevents: Ir\nsummary: 3\nfn=f\ncfn=g\ncalls=x 1\n1 3\n";
        assert!(parts(bad_calls).unwrap_err().contains("call count"));
    }

    /// One part: `main` calls `work` (a legacy symbol, hash and all) once,
    /// and `work` twice; `work` runs code of its own file and code inlined
    /// from `iter.rs`, and calls the recursive `fib`, whose deeper calls
    /// Callgrind names `fib'2`.
    const CALLS: &str = "# callgrind format
version: 1
creator: callgrind-3.22.0
cmd: /t/perf __perfmark_count sort::u32 25 3

part: 1
desc: Trigger: Client Request: perfmark 0 k

positions: line
events: Ir Dr
summary: 1000 40

fl=/src/main.rs
fn=app::main
3 10 1
cfi=/src/main.rs
cfn=app::work::h0123456789abcdef
calls=1 8
4 700 30
5 5
cfn=app::work::h0123456789abcdef
calls=2 8
4 100 2

fn=app::work::h0123456789abcdef
8 50
fi=/rustc/abc/library/core/src/iter.rs
90 120
fe=/src/main.rs
9 30
fi=/rustc/abc/library/core/src/iter.rs
91 0
cfn=app::fib
calls=1 20
91 400
fe=/src/main.rs
10 20

fn=app::fib
20 15
cfn=app::fib'2
calls=4 20
21 385

fn=app::fib'2
20 300
cfn=app::fib'2
calls=20 20
21 1000
22 85
";

    #[test]
    fn self_costs_leave_out_the_calls_inclusive_costs() {
        let parts = parts(CALLS).unwrap();
        let [part] = &parts[..] else {
            panic!("{parts:?}")
        };
        // Only the lines not after a `calls=`: 10 + 5.
        assert_eq!(part.functions[&Frame::function("app::main")], 15);
        // Recursion is one function: 15 + 300 + 85.
        assert_eq!(part.functions[&Frame::function("app::fib")], 400);
        let total: u64 = part.functions.values().sum();
        assert_eq!(total, 15 + 50 + 30 + 20 + 120 + 400);
        assert_eq!(part.totals["Ir"], 1000);
        assert_eq!(part.totals["Dr"], 40);
    }

    #[test]
    fn code_after_fi_is_inlined_from_that_file_until_fe() {
        let parts = parts(CALLS).unwrap();
        let functions = &parts[0].functions;
        let inlined = Frame {
            function: "app::work".to_owned(),
            inlined_from: Some("core/src/iter.rs".to_owned()),
        };
        assert_eq!(functions[&inlined], 120);
        assert_eq!(
            short_file("/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde-1.0.0/src/de.rs"),
            "serde-1.0.0/src/de.rs"
        );
        assert_eq!(
            short_file("/rust/deps/hashbrown-0.16.1/src/map.rs"),
            "hashbrown-0.16.1/src/map.rs"
        );
        assert_eq!(short_file("/elsewhere/a.rs"), "/elsewhere/a.rs");
        // Before `fi=` and after `fe=` back to the function's own file.
        assert_eq!(functions[&Frame::function("app::work")], 50 + 30 + 20);
        // A new function starts in its own file, whatever came before.
        let text = "part: 1\nevents: Ir\nsummary: 3\nfl=a.rs\nfn=f\nfi=b.rs\n1 1\n\
                    fn=g\n1 2\nfl=b.rs\nfn=h\nfi=b.rs\n1 3\n";
        let parts = super::parts(text).unwrap();
        let frames: Vec<(&Frame, &u64)> = parts[0].functions.iter().collect();
        let own = |f: &str| Frame::function(f);
        let f_from_b = Frame {
            function: "f".to_owned(),
            inlined_from: Some("b.rs".to_owned()),
        };
        assert_eq!(frames, [(&f_from_b, &1), (&own("g"), &2), (&own("h"), &3)]);
    }

    #[test]
    fn hashes_and_recursion_marks_are_stripped_and_calls_summed() {
        let parts = parts(CALLS).unwrap();
        let edge = |caller: &str, callee: &str| CallEdge {
            caller: caller.to_owned(),
            callee: callee.to_owned(),
        };
        let calls = &parts[0].calls;
        assert_eq!(
            calls[&edge("app::main", "app::work")],
            Calls {
                count: 3,
                inclusive_ir: 800
            }
        );
        assert_eq!(calls[&edge("app::work", "app::fib")].inclusive_ir, 400);
        // `fib` calling `fib'2` and `fib'2` calling itself: one edge.
        assert_eq!(
            calls[&edge("app::fib", "app::fib")],
            Calls {
                count: 24,
                inclusive_ir: 1385
            }
        );
        assert_eq!(calls.len(), 3);
        assert_eq!(clean_name("a::b::h0123456789abcdef'3"), "a::b");
        // Neither a short hash nor a lifetime is a mark.
        assert_eq!(clean_name("a::h0123"), "a::h0123");
        assert_eq!(clean_name("<&'a str as x::Y>::f"), "<&'a str as x::Y>::f");
    }

    #[test]
    fn compressed_names_and_two_positions_are_read() {
        let text = "part: 1\npositions: instr line\nevents: Ir\nsummary: 9\n\
                    fl=(1) a.rs\nfn=(1) f\n0x10 1 4\ncfi=(2) b.rs\ncfn=(2) g\ncalls=1 0x20 1\n\
                    0x11 2 5\nfi=(2)\n+1 3 2\nfn=(2)\nfi=(2)\n0x20 1 3\n\
                    part: 2\npositions: instr line\nevents: Ir\nsummary: 7\nfl=(1)\nfn=(1)\n\
                    0x10 1 7\n";
        let parts = parts(text).unwrap();
        let f = Frame::function("f");
        let f_from_b = Frame {
            function: "f".to_owned(),
            inlined_from: Some("b.rs".to_owned()),
        };
        assert_eq!(parts[0].functions[&f], 4);
        assert_eq!(parts[0].functions[&f_from_b], 2);
        // `g`'s own file is still `a.rs` (no `fl=` since): `b.rs` is inlined.
        assert_eq!(parts[0].functions.len(), 3);
        assert_eq!(parts[1].functions[&f], 7);
        assert_eq!(parts[1].label, "");
    }

    #[test]
    fn the_counting_command_is_read_back() {
        assert_eq!(counting_args(CALLS), Some(("sort::u32".to_owned(), 25, 3)));
        let spaced = "cmd: /my dir/perf __perfmark_count sort 7 3\n";
        assert_eq!(counting_args(spaced), Some(("sort".to_owned(), 7, 3)));
        assert_eq!(counting_args("cmd: ./flametoy\n"), None);
        assert_eq!(counting_args("cmd: ./p __perfmark_count t k 3\n"), None);
    }

    /// A part labelled `label` whose frames have the `self_ir` given.
    fn part(label: &str, self_ir: &[(&str, u64)]) -> Part {
        Part {
            label: label.to_owned(),
            functions: self_ir
                .iter()
                .map(|&(f, ir)| (Frame::function(f), ir))
                .collect(),
            ..Part::default()
        }
    }

    #[test]
    fn per_iteration_is_the_blocks_difference_over_k_and_rounds() {
        // k = 10, two rounds: `body` costs 7 an iteration, `setup` is a
        // fixed cost of each block, `grow` ran 9 more times in a longer
        // block than in its shorter one over the two rounds.
        let parts = [
            part("perfmark 0 k", &[("body", 70), ("setup", 500), ("grow", 1)]),
            part(
                "perfmark 0 2k",
                &[("body", 140), ("setup", 500), ("grow", 5)],
            ),
            part("perfmark 1 k", &[("body", 70), ("setup", 500)]),
            part(
                "perfmark 1 2k",
                &[("body", 140), ("setup", 500), ("grow", 5)],
            ),
            part("Program termination", &[("exit", 1000)]),
        ];
        let table = per_iteration(&parts, 10, 2).unwrap();
        assert_eq!(
            table,
            [
                (Frame::function("body"), 7.0),
                (Frame::function("grow"), 0.45)
            ]
        );
    }

    #[test]
    fn a_missing_round_is_an_error_naming_its_label() {
        let parts = [part("perfmark 0 k", &[]), part("perfmark 0 2k", &[])];
        assert!(per_iteration(&parts, 10, 1).unwrap().is_empty());
        let error = per_iteration(&parts, 10, 2).unwrap_err();
        assert!(error.contains("no part \"perfmark 1 k\""), "{error}");
    }

    #[test]
    fn file_stems_are_safe_readable_and_distinct() {
        assert_eq!(profile_file_stem("sort::u32"), "sort..u32");
        assert_eq!(profile_file_stem("sort_1k"), "sort_1k");
        assert_eq!(profile_file_stem("parse/1.5"), "parse.2f1.2e5");
        assert_eq!(profile_file_stem("a:b"), "a.3ab");
        let names = [
            "a::b", "a..b", "a__b", "a:b", "a.b", "a/b", "a b", "aé", "a", "",
        ];
        let stems: std::collections::BTreeSet<String> =
            names.iter().map(|n| profile_file_stem(n)).collect();
        assert_eq!(stems.len(), names.len(), "{stems:?}");
        for stem in &stems {
            assert!(
                stem.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)),
                "{stem}"
            );
        }
        let long = "x".repeat(300);
        let (a, b) = (
            profile_file_stem(&long),
            profile_file_stem(&(long.clone() + "y")),
        );
        assert!(a.len() <= 200 && a != b, "{a} {b}");
    }
}
