//! Differential flame graphs of where a counted comparison's instructions
//! went: for each counted test, the base build's and the head build's
//! Callgrind profiles, as the runtime writes them into the `profiles/`
//! folder of its report directory (`STEM.base.callgrind`,
//! `STEM.head.callgrind`, `STEM` from perfmark-core's
//! `profile::profile_file_stem`), are drawn as one SVG beside them,
//! `STEM.diff.svg`.
//!
//! A profile is made of blocks of `k` and `2k` iterations, a pair per
//! round; the graph shows the instructions of one iteration, as the count
//! does: the difference of the two blocks' stacks, so that what a block
//! costs once (entering the loop, the toggles) cancels ([`folded`]). The
//! stacks are built from Callgrind's call graph ([`part_stacks`]), the
//! drawing is the `inferno` crate's (Brendan Gregg's flame graphs and his
//! differential flame graphs, ported by Jon Gjengset and others).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use perfmark_core::profile::{self, Part};

/// The folder of a report directory that holds the profiles.
pub const PROFILES_DIR: &str = "profiles";
/// The end of a base build's profile's file name.
pub const BASE_SUFFIX: &str = ".base.callgrind";
/// The end of a head build's profile's file name.
pub const HEAD_SUFFIX: &str = ".head.callgrind";
/// The end of a drawn graph's file name.
pub const DIFF_SUFFIX: &str = ".diff.svg";

/// Folded stacks: each stack (its frames from the entry down, joined by
/// `;`) with its count in instructions per thousand iterations
/// ([`SCALE`]).
pub type Folded = BTreeMap<String, u64>;

/// The counts of [`Folded`] stacks are instructions per iteration times
/// this, instructions per thousand iterations: whole numbers, as folded
/// stacks need, without rounding a function of a fraction of an
/// instruction per iteration away. The graph says them so: inferno's
/// `factor`, which would divide it out, leaves the differences'
/// percentages undivided.
pub const SCALE: f64 = 1000.0;

/// Frames deeper than this are not expanded: what their calls executed
/// is shown as one `[deeper calls]` frame.
pub const MAX_DEPTH: usize = 64;

/// A fragment of a stack (a frame reached along one path, with all below
/// it) carrying less than this fraction of the routine's instructions in
/// a round is left out: it would be narrower than a pixel, and call graphs
/// shared by many paths would otherwise give millions of them.
pub const NEGLIGIBLE: f64 = 1e-4;

/// The most frames expanded for one part, whatever [`NEGLIGIBLE`] lets
/// through.
const MAX_EXPANSIONS: usize = 200_000;

/// The label of code inlined into a function from another file.
const INLINED: &str = "[inlined]";

/// The folded stacks of one iteration of a counting profile's routine,
/// from its `parts` with blocks of `k` and `2k` iterations over `rounds`
/// rounds: over the rounds, each stack's instructions in the longer block
/// less those in the shorter one ([`part_stacks`]), summed, over `k ×
/// rounds` iterations, times [`SCALE`], rounded: instructions per
/// thousand iterations. Stacks that come to less than one (a fixed cost
/// of the blocks, which cancels, or one that fell in the shorter block)
/// are left out.
///
/// # Errors
/// A round's part is missing (perfmark-core's `profile::block_pairs`).
pub fn folded(parts: &[Part], k: u64, rounds: u32) -> Result<Folded, String> {
    let mut sums: BTreeMap<String, f64> = BTreeMap::new();
    for (short, long) in profile::block_pairs(parts, rounds)? {
        let (short_ir, long_ir) = (self_total(short), self_total(long));
        // The routine's instructions in this round: the k iterations the
        // longer block has more. Both blocks drop the same fragments.
        let routine = if long_ir > short_ir {
            long_ir - short_ir
        } else {
            long_ir
        };
        let negligible = NEGLIGIBLE * routine;
        for (stack, ir) in part_stacks(long, negligible) {
            *sums.entry(stack).or_default() += ir;
        }
        for (stack, ir) in part_stacks(short, negligible) {
            *sums.entry(stack).or_default() -= ir;
        }
    }
    let scale = SCALE / (k.max(1) * u64::from(rounds.max(1))) as f64;
    Ok(sums
        .into_iter()
        .filter_map(|(stack, ir)| {
            let count = (ir * scale).round();
            (count >= 1.0).then_some((stack, count as u64))
        })
        .collect())
}

/// The folded stacks of the counting profile `text` ([`folded`]), with
/// the `k` and rounds its command line names.
///
/// # Errors
/// The text is not a profile, or not one of a counting process.
pub fn folded_profile(text: &str) -> Result<Folded, String> {
    let parts = profile::parts(text)?;
    let (_, k, rounds) = profile::counting_args(text).ok_or(
        "not the profile of a counting process (its `cmd:` line names no __perfmark_count)",
    )?;
    folded(&parts, k, rounds)
}

/// The instructions of a part: the sum of its frames' self costs.
fn self_total(part: &Part) -> f64 {
    part.functions.values().sum::<u64>() as f64
}

/// The stacks of one part, each with its instructions (fractional: a
/// callee's share of a caller's is fractional). From each function no
/// other calls (the routine's entry), each function's own code is a
/// stack, the code inlined into it a child frame `[inlined] FILE`, and
/// each callee a child whose whole subtree is split among its callers in
/// proportion to the instructions each one's calls to it executed
/// (Callgrind records each caller's calls with their total, not whole
/// stacks: what a callee's subtree is made of is taken to be alike
/// whoever calls it). Calls back into a function
/// already on the stack (recursion, direct or through others) are cut,
/// so its cost stays with its outside callers. Fragments under
/// `negligible` instructions are left out, frames deeper than
/// [`MAX_DEPTH`] summed into one.
pub fn part_stacks(part: &Part, negligible: f64) -> BTreeMap<String, f64> {
    let graph = CallGraph::new(part);
    let mut out = Stacks {
        graph: &graph,
        negligible,
        left: MAX_EXPANSIONS,
        stack: Vec::new(),
        out: BTreeMap::new(),
    };
    for root in &graph.roots {
        out.expand(root, 1.0);
    }
    out.out
}

/// A part's functions and calls, the calls that close a cycle removed.
#[derive(Debug, Default)]
struct CallGraph<'p> {
    /// Each function's own instructions.
    own: BTreeMap<&'p str, f64>,
    /// The instructions of the code inlined into each function, by file.
    inlined: BTreeMap<&'p str, Vec<(&'p str, f64)>>,
    /// Each function's callees, with the share of the callee's subtree
    /// that is this caller's.
    callees: BTreeMap<&'p str, Vec<(&'p str, f64)>>,
    /// Each function's own and inlined instructions and its calls'.
    mass: BTreeMap<&'p str, f64>,
    /// The functions no kept call reaches.
    roots: Vec<&'p str>,
}

impl<'p> CallGraph<'p> {
    /// The graph of `part`.
    fn new(part: &'p Part) -> CallGraph<'p> {
        let mut graph = CallGraph::default();
        for (frame, &ir) in &part.functions {
            let f = frame.function.as_str();
            match &frame.inlined_from {
                None => *graph.own.entry(f).or_default() += ir as f64,
                Some(file) => graph
                    .inlined
                    .entry(f)
                    .or_default()
                    .push((file.as_str(), ir as f64)),
            }
            *graph.mass.entry(f).or_default() += ir as f64;
        }
        let mut calls: BTreeMap<&str, Vec<(&str, f64)>> = BTreeMap::new();
        for (edge, c) in &part.calls {
            let (caller, callee) = (edge.caller.as_str(), edge.callee.as_str());
            graph.mass.entry(callee).or_default();
            if caller != callee {
                calls
                    .entry(caller)
                    .or_default()
                    .push((callee, c.inclusive_ir as f64));
                *graph.mass.entry(caller).or_default() += c.inclusive_ir as f64;
            }
        }
        let kept = cut_cycles(&graph.mass, &calls);
        graph.share_out(&kept);
        graph
    }

    /// Sets each callee's share of each caller among the `kept` calls,
    /// by the instructions of the calls (equal shares where they are all
    /// 0), and takes as roots the functions none of them calls.
    fn share_out(&mut self, kept: &BTreeMap<&'p str, Vec<(&'p str, f64)>>) {
        let mut into: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
        for &(callee, ir) in kept.values().flatten() {
            let (sum, n) = into.entry(callee).or_default();
            *sum += ir;
            *n += 1;
        }
        for (&caller, callees) in kept {
            let shares = callees
                .iter()
                .map(|&(callee, ir)| {
                    let (sum, n) = into[callee];
                    (callee, if sum > 0.0 { ir / sum } else { 1.0 / n as f64 })
                })
                .collect();
            self.callees.insert(caller, shares);
        }
        self.roots = self
            .mass
            .keys()
            .copied()
            .filter(|f| !into.contains_key(f))
            .collect();
    }
}

/// The `calls` (caller → callees with their instructions) without those
/// that close a cycle: a depth-first walk from the functions nothing
/// calls, then from the heaviest of those left (by `mass`), drops each
/// call into a function still on its path. What is left has no cycle.
fn cut_cycles<'p>(
    mass: &BTreeMap<&'p str, f64>,
    calls: &BTreeMap<&'p str, Vec<(&'p str, f64)>>,
) -> BTreeMap<&'p str, Vec<(&'p str, f64)>> {
    let called: BTreeSet<&str> = calls.values().flatten().map(|&(c, _)| c).collect();
    let mut starts: Vec<&str> = mass
        .keys()
        .copied()
        .filter(|f| !called.contains(f))
        .collect();
    let mut rest: Vec<&str> = mass
        .keys()
        .copied()
        .filter(|f| called.contains(f))
        .collect();
    rest.sort_by(|a, b| mass[b].total_cmp(&mass[a]).then_with(|| a.cmp(b)));
    starts.extend(rest);
    // 1: on the walk's path; 2: done.
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut kept: BTreeMap<&str, Vec<(&str, f64)>> = BTreeMap::new();
    let none = Vec::new();
    for start in starts {
        if state.contains_key(start) {
            continue;
        }
        state.insert(start, 1);
        let mut path = vec![(start, 0_usize)];
        while let Some((f, next)) = path.last_mut() {
            let out = calls.get(*f).unwrap_or(&none);
            let Some(&(callee, ir)) = out.get(*next) else {
                state.insert(*f, 2);
                path.pop();
                continue;
            };
            let caller = *f;
            *next += 1;
            match state.get(callee) {
                Some(1) => {}
                Some(_) => kept.entry(caller).or_default().push((callee, ir)),
                None => {
                    kept.entry(caller).or_default().push((callee, ir));
                    state.insert(callee, 1);
                    path.push((callee, 0));
                }
            }
        }
    }
    kept
}

/// The walk that writes a part's stacks.
struct Stacks<'g, 'p> {
    graph: &'g CallGraph<'p>,
    negligible: f64,
    /// Expansions left ([`MAX_EXPANSIONS`]).
    left: usize,
    /// The frames' labels from the root down.
    stack: Vec<String>,
    out: BTreeMap<String, f64>,
}

impl Stacks<'_, '_> {
    /// Writes the stacks of `function`'s subtree, of which `weight` is on
    /// this path.
    fn expand(&mut self, function: &str, weight: f64) {
        let mass = self.graph.mass.get(function).copied().unwrap_or(0.0);
        if weight * mass < self.negligible || mass <= 0.0 || self.left == 0 {
            return;
        }
        self.left -= 1;
        self.stack.push(frame_label(function));
        let own = self.graph.own.get(function).copied().unwrap_or(0.0);
        self.emit(None, weight * own);
        for &(file, ir) in self.graph.inlined.get(function).into_iter().flatten() {
            self.emit(
                Some(format!("{INLINED} {}", frame_label(file))),
                weight * ir,
            );
        }
        let callees = self.graph.callees.get(function).map(Vec::as_slice);
        if self.stack.len() < MAX_DEPTH {
            for &(callee, share) in callees.unwrap_or(&[]) {
                self.expand(callee, weight * share);
            }
        } else {
            let below: f64 = callees
                .unwrap_or(&[])
                .iter()
                .map(|&(c, share)| share * self.graph.mass.get(c).copied().unwrap_or(0.0))
                .sum();
            self.emit(Some("[deeper calls]".to_owned()), weight * below);
        }
        self.stack.pop();
    }

    /// Adds `ir` to the stack, or to its child frame `child`.
    fn emit(&mut self, child: Option<String>, ir: f64) {
        if ir <= 0.0 {
            return;
        }
        let mut stack = self.stack.join(";");
        if let Some(child) = child {
            stack.push(';');
            stack.push_str(&child);
        }
        *self.out.entry(stack).or_default() += ir;
    }
}

/// A function's name as a frame of a folded stack: a `;` (in a Rust
/// array type, `[u8; 4]`) would split the frame, so it is written as the
/// full-width `；`.
fn frame_label(function: &str) -> String {
    function.replace(';', "；")
}

/// Folded stacks as text, a `STACK COUNT` line each.
pub fn folded_text(folded: &Folded) -> String {
    folded
        .iter()
        .map(|(stack, count)| format!("{stack} {count}\n"))
        .collect()
}

/// The differential flame graph (an SVG) of the `base` and `head` stacks
/// of one iteration ([`Folded`]), titled `title`: each frame as wide as
/// the head's
/// instructions in it, red where the head executes more there than the
/// base, blue where fewer, the deeper the colour the larger the change
/// (inferno's differential colours; the counts are compared as they are,
/// not normalized, since both are per iteration). Code only the base runs
/// has no width here.
///
/// # Errors
/// inferno could not draw it: when the head executes nothing the stacks
/// show, the words say so.
pub fn differential_svg(base: &Folded, head: &Folded, title: &str) -> Result<String, String> {
    let mut merged = Vec::new();
    inferno::differential::from_readers(
        inferno::differential::Options::default(),
        folded_text(base).as_bytes(),
        folded_text(head).as_bytes(),
        &mut merged,
    )
    .map_err(|e| format!("cannot merge the stacks: {e}"))?;
    let mut options = inferno::flamegraph::Options::default();
    options.title = title.to_owned();
    options.subtitle =
        Some("width: the head's instructions; red: more than the base's, blue: fewer".to_owned());
    options.count_name = "instructions per 1000 iterations".to_owned();
    let mut svg = Vec::new();
    inferno::flamegraph::from_reader(&mut options, merged.as_slice(), &mut svg)
        .map_err(|e| format!("inferno cannot draw the stacks: {e}"))?;
    String::from_utf8(svg).map_err(|e| format!("inferno wrote no UTF-8: {e}"))
}

/// A counted test's two profiles in a `profiles/` folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfilePair {
    /// The test's file-name stem.
    pub stem: String,
    /// `STEM.base.callgrind`: the base build's profile.
    pub base: PathBuf,
    /// `STEM.head.callgrind`: the head build's profile.
    pub head: PathBuf,
}

impl ProfilePair {
    /// Where its graph goes: `STEM.diff.svg` beside the profiles.
    pub fn graph(&self) -> PathBuf {
        self.head
            .with_file_name(format!("{}{DIFF_SUFFIX}", self.stem))
    }
}

/// The pairs of profiles in the folder `dir`: each `STEM.base.callgrind`
/// with its `STEM.head.callgrind`, by stem. A profile without its twin
/// is passed over.
///
/// # Errors
/// `dir` cannot be read.
pub fn profile_pairs(dir: &Path) -> std::io::Result<Vec<ProfilePair>> {
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(BASE_SUFFIX)) else {
            continue;
        };
        let head = dir.join(format!("{stem}{HEAD_SUFFIX}"));
        if head.is_file() {
            pairs.push(ProfilePair {
                stem: stem.to_owned(),
                base: dir.join(&name),
                head,
            });
        }
    }
    pairs.sort_by(|a, b| a.stem.cmp(&b.stem));
    Ok(pairs)
}

/// Draws the differential flame graph of `pair` ([`differential_svg`],
/// titled with the test the head's profile names) and replaces its
/// [`ProfilePair::graph`] atomically; returns where.
///
/// # Errors
/// A profile cannot be read or is not a counting process's, or the graph
/// cannot be drawn or written: the words name the file.
pub fn draw(pair: &ProfilePair) -> Result<PathBuf, String> {
    let read = |path: &Path| {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let folded = folded_profile(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok::<_, String>((text, folded))
    };
    let (_, base) = read(&pair.base)?;
    let (head_text, head) = read(&pair.head)?;
    let test = profile::counting_args(&head_text).map_or(pair.stem.clone(), |(test, ..)| test);
    let title = format!("{test}: where the instructions of an iteration went, base → head");
    let svg = differential_svg(&base, &head, &title)?;
    let path = pair.graph();
    let dir = path.parent().unwrap_or(Path::new("."));
    perfmark_core::fs::replace_file(dir, &path, svg.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The flame graphs of one report directory's `profiles/` folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlameGraphs {
    /// The `profiles/` folder.
    pub dir: PathBuf,
    /// The graphs drawn.
    pub drawn: Vec<PathBuf>,
    /// The graphs (or the folder) that could not be drawn, and why.
    pub failed: Vec<(PathBuf, String)>,
}

impl fmt::Display for FlameGraphs {
    /// `drew 3 flame graphs in target/perfmark/perf/profiles (*.diff.svg)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (drawn, tried) = (self.drawn.len(), self.drawn.len() + self.failed.len());
        let dir = self.dir.display();
        match (drawn, tried) {
            (_, 0) => write!(
                f,
                "drew no flame graph in {dir}: it holds no STEM{BASE_SUFFIX} with its \
                 STEM{HEAD_SUFFIX}"
            ),
            (1, 1) => write!(f, "drew 1 flame graph in {dir} (*{DIFF_SUFFIX})"),
            (d, t) if d == t => write!(f, "drew {d} flame graphs in {dir} (*{DIFF_SUFFIX})"),
            (d, t) => write!(f, "drew {d} of {t} flame graphs in {dir} (*{DIFF_SUFFIX})"),
        }
    }
}

/// Draws the flame graph of every [`ProfilePair`] in the `profiles/`
/// folder of `report_dir`, each that can be; `None` when it has no such
/// folder (a run that counted nothing in pairs).
pub fn draw_in(report_dir: &Path) -> Option<FlameGraphs> {
    let dir = report_dir.join(PROFILES_DIR);
    if !dir.is_dir() {
        return None;
    }
    let mut graphs = FlameGraphs {
        dir: dir.clone(),
        ..FlameGraphs::default()
    };
    match profile_pairs(&dir) {
        Ok(pairs) => {
            for pair in pairs {
                match draw(&pair) {
                    Ok(path) => graphs.drawn.push(path),
                    Err(e) => graphs.failed.push((pair.graph(), e)),
                }
            }
        }
        Err(e) => graphs
            .failed
            .push((dir.clone(), format!("cannot read {}: {e}", dir.display()))),
    }
    Some(graphs)
}

/// Draws the flame graphs of each of `report_dirs` that has a `profiles/`
/// folder ([`draw_in`]) and prints a [`FlameGraphs`] line for each, and
/// a `warning: …` line for each graph not drawn: a graph is never an
/// error, so the runs' verdicts and exit status stand. Returns what was
/// drawn.
pub fn draw_and_say(report_dirs: &[PathBuf]) -> Vec<FlameGraphs> {
    let mut all = Vec::new();
    for dir in report_dirs {
        let Some(graphs) = draw_in(dir) else {
            continue;
        };
        println!("{graphs}");
        for (path, why) in &graphs.failed {
            eprintln!(
                "warning: the flame graph {} was not drawn: {why}",
                path.display()
            );
        }
        all.push(graphs);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A counting profile of one round, blocks of `k` and `2k`: `loop` (1
    /// instruction an iteration, and 10 a block) calls `body` each
    /// iteration and `shared` once a block (60); `body` (4 of its own, 2
    /// inlined from the standard library's `iter.rs`) calls `leaf`
    /// (`leaf` instructions) and `shared` (6) each iteration.
    fn counting_profile(k: u64, leaf: u64) -> String {
        let mut text =
            format!("# callgrind format\nversion: 1\ncmd: /t/perf __perfmark_count app::t {k} 1\n");
        for (which, n) in [("k", k), ("2k", 2 * k)] {
            let (body, inlined, leaf, shared) = (4 * n, 2 * n, leaf * n, 6 * n);
            let body_calls = body + inlined + leaf + shared;
            let lp = 10 + n;
            text += &format!(
                "part: 1\ndesc: Trigger: Client Request: perfmark 0 {which}\n\
                 positions: line\nevents: Ir\nsummary: {total}\n\
                 fl=/w/src/lib.rs\nfn=app::loop\n1 {lp}\n\
                 cfn=app::body::h0123456789abcdef\ncalls={n} 5\n2 {body_calls}\n\
                 cfn=app::shared\ncalls=1 9\n3 60\n\
                 fn=app::body::h0123456789abcdef\n5 {body}\n\
                 fi=/rustc/abc/library/core/src/iter.rs\n7 {inlined}\nfe=/w/src/lib.rs\n\
                 cfn=app::leaf\ncalls={n} 8\n6 {leaf}\n\
                 cfn=app::shared\ncalls={n} 9\n6 {shared}\n\
                 fn=app::leaf\n8 {leaf}\nfn=app::shared\n9 {shared_all}\n",
                total = lp + body_calls + 60,
                shared_all = shared + 60,
            );
        }
        text
    }

    #[test]
    fn folded_stacks_are_one_iteration_of_the_call_graph() {
        let folded = folded_profile(&counting_profile(10, 20)).unwrap();
        let expected: Folded = [
            ("app::loop", 1000),
            ("app::loop;app::body", 4000),
            ("app::loop;app::body;[inlined] core/src/iter.rs", 2000),
            ("app::loop;app::body;app::leaf", 20_000),
            // `shared`'s calls from `loop` are a block's fixed cost: they
            // cancel, and `body`'s share of it is what grew.
            ("app::loop;app::body;app::shared", 6000),
        ]
        .into_iter()
        .map(|(s, c)| (s.to_owned(), c))
        .collect();
        assert_eq!(folded, expected);
        assert_eq!(folded_text(&folded).lines().next(), Some("app::loop 1000"));
        let broken = counting_profile(10, 20).replace("perfmark 0 2k", "other");
        assert!(folded_profile(&broken)
            .unwrap_err()
            .contains("perfmark 0 2k"));
        let not_counting = counting_profile(10, 20).replace("__perfmark_count", "run");
        assert!(folded_profile(&not_counting)
            .unwrap_err()
            .contains("not the profile of a counting process"));
    }

    #[test]
    fn recursion_is_cut_and_its_cost_stays_with_the_outside_caller() {
        // `r` calls `f`, `f` calls `g`, and `g` calls `f` again (`f'2`).
        let text = "part: 1\nevents: Ir\nsummary: 100\nfn=r\ncfn=f\ncalls=1 1\n1 100\n\
                    fn=f\n1 30\ncfn=g\ncalls=1 1\n1 70\n\
                    fn=g\n1 50\ncfn=f'2\ncalls=1 1\n1 20\nfn=f'2\n1 20\n";
        let parts = profile::parts(text).unwrap();
        let stacks = part_stacks(&parts[0], 0.0);
        let stacks: Vec<(&str, f64)> = stacks.iter().map(|(s, &ir)| (s.as_str(), ir)).collect();
        assert_eq!(stacks, [("r;f", 50.0), ("r;f;g", 50.0)]);
        // Mutual recursion with no caller outside it still has a root.
        let text = "part: 1\nevents: Ir\nsummary: 9\nfn=a\n1 4\ncfn=b\ncalls=1 1\n1 5\n\
                    fn=b\n1 5\ncfn=a\ncalls=1 1\n1 1\n";
        let parts = profile::parts(text).unwrap();
        let stacks = part_stacks(&parts[0], 0.0);
        assert_eq!(stacks.values().sum::<f64>(), 9.0, "{stacks:?}");
    }

    /// A fresh folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "cargo-perfmark-flame-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The `fill` of the frame whose tooltip begins `title`.
    fn fill_of<'s>(svg: &'s str, title: &str) -> &'s str {
        let at = svg
            .find(&format!("<title>{title}"))
            .unwrap_or_else(|| panic!("no frame {title:?} in {svg}"));
        let rest = &svg[at..];
        let fill = &rest[rest.find("fill=\"").unwrap() + 6..];
        &fill[..fill.find('"').unwrap()]
    }

    #[test]
    fn a_function_that_grew_five_percent_is_red_and_the_rest_is_not() {
        let report = scratch("grew");
        let dir = report.join(PROFILES_DIR);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("app..t.base.callgrind"), counting_profile(10, 20)).unwrap();
        // The head's blocks are of another k: it is the iteration that counts.
        std::fs::write(dir.join("app..t.head.callgrind"), counting_profile(40, 21)).unwrap();
        let graphs = draw_in(&report).unwrap();
        let svg_path = dir.join("app..t.diff.svg");
        assert_eq!(graphs.drawn, std::slice::from_ref(&svg_path));
        assert!(graphs.failed.is_empty(), "{graphs:?}");
        assert_eq!(
            graphs.to_string(),
            format!("drew 1 flame graph in {} (*.diff.svg)", dir.display())
        );
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        assert!(svg.contains("app::t: where the instructions"), "{svg}");
        // 1,000 of the head's 34,000 more per 1000 iterations: +2.94%.
        let grew = "app::leaf (21,000 instructions per 1000 iterations, 61.76%; +2.94%)";
        assert!(svg.contains(grew), "{svg}");
        // inferno's differential red: full red, the other channels less.
        let fill = fill_of(&svg, grew);
        let rgb: Vec<u8> = fill
            .trim_start_matches("rgb(")
            .trim_end_matches(')')
            .split(',')
            .map(|c| c.trim().parse().unwrap())
            .collect();
        assert!(rgb[0] == 255 && rgb[1] < 250 && rgb[1] == rgb[2], "{fill}");
        // Unchanged code is drawn white-grey, neither red nor blue.
        assert_eq!(fill_of(&svg, "app::shared ("), "rgb(250,250,250)");
        let _ = std::fs::remove_dir_all(&report);
    }

    #[test]
    fn profiles_are_paired_by_stem_and_a_broken_pair_is_a_warning() {
        let report = scratch("pairs");
        let dir = report.join(PROFILES_DIR);
        std::fs::create_dir_all(&dir).unwrap();
        let good = counting_profile(10, 20);
        for name in [
            "b.head.callgrind",
            "a.base.callgrind",
            "a.head.callgrind",
            "lonely.base.callgrind",
            "orphan.head.callgrind",
            "sort..u32.base.callgrind",
            "sort..u32.head.callgrind",
            "a.diff.svg",
            "notes.txt",
        ] {
            std::fs::write(dir.join(name), &good).unwrap();
        }
        std::fs::write(dir.join("b.base.callgrind"), "not a profile").unwrap();
        let pairs = profile_pairs(&dir).unwrap();
        let stems: Vec<&str> = pairs.iter().map(|p| p.stem.as_str()).collect();
        assert_eq!(stems, ["a", "b", "sort..u32"]);
        assert_eq!(pairs[2].base, dir.join("sort..u32.base.callgrind"));
        assert_eq!(pairs[2].head, dir.join("sort..u32.head.callgrind"));
        assert_eq!(pairs[2].graph(), dir.join("sort..u32.diff.svg"));
        let graphs = draw_in(&report).unwrap();
        assert_eq!(graphs.drawn.len(), 2);
        let [(path, why)] = &graphs.failed[..] else {
            panic!("{graphs:?}")
        };
        assert_eq!(path, &dir.join("b.diff.svg"));
        assert!(why.contains("b.base.callgrind"), "{why}");
        assert!(graphs
            .to_string()
            .starts_with("drew 2 of 3 flame graphs in"));
        // A report directory without profiles has no line; one whose
        // folder holds no pair says so.
        assert_eq!(draw_in(&report.join(PROFILES_DIR)), None);
        let empty = scratch("pairs-empty");
        std::fs::create_dir_all(empty.join(PROFILES_DIR)).unwrap();
        let none = draw_in(&empty).unwrap();
        assert!(
            none.to_string().starts_with("drew no flame graph in"),
            "{none}"
        );
        let _ = std::fs::remove_dir_all(&report);
        let _ = std::fs::remove_dir_all(&empty);
    }

    #[test]
    fn cargo_perfmark_report_redraws_the_graphs_beside_the_page() {
        use perfmark_core::report::{fixtures, json};
        let report = scratch("report");
        let dir = report.join(PROFILES_DIR);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("app..t.base.callgrind"), counting_profile(10, 20)).unwrap();
        std::fs::write(dir.join("app..t.head.callgrind"), counting_profile(10, 21)).unwrap();
        let test = fixtures::measured("app::t", vec![10.0, 11.0, 12.0, 11.0], Some(20.0));
        std::fs::write(
            report.join(crate::report::REPORT_FILE),
            json::to_string(&fixtures::report(vec![test])),
        )
        .unwrap();
        let status = crate::report::draw_pages(std::slice::from_ref(&report), || unreachable!());
        assert_eq!(status.unwrap(), 0);
        assert!(dir.join("app..t.diff.svg").is_file());
        let _ = std::fs::remove_dir_all(&report);
    }
}
