//! `cargo perfmark compare [REV]`: the working tree (the head) against a
//! revision (the base) checked out in a git worktree, each perf test binary
//! run with `--compare-with` its base twin; then the pages of the reports
//! the runs wrote are drawn.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

use perfmark_core::Side;

use crate::cargo::{
    build_perf_binaries, draw_layouts, perfmark_features, Selection, TestBinary, Workspace,
};
use crate::layout::{self, seed_for, Pinning};
use crate::Error;

/// Head and base binaries matched by package and target; the rest are
/// listed as only in one build.
#[derive(Debug, Default)]
pub struct Pairing {
    /// (head, base) twins.
    pub pairs: Vec<(TestBinary, TestBinary)>,
    /// Perf test binaries only the head has.
    pub head_only: Vec<TestBinary>,
    /// Perf test binaries only the base has.
    pub base_only: Vec<TestBinary>,
}

/// Matches head binaries with their base twins by package and target.
pub fn pair_binaries(head: Vec<TestBinary>, base: Vec<TestBinary>) -> Pairing {
    let key = |b: &TestBinary| (b.package.clone(), b.target.clone());
    let mut base: BTreeMap<_, _> = base.into_iter().map(|b| (key(&b), b)).collect();
    let mut pairing = Pairing::default();
    for h in head {
        match base.remove(&key(&h)) {
            Some(b) => pairing.pairs.push((h, b)),
            None => pairing.head_only.push(h),
        }
    }
    pairing.base_only = base.into_values().collect();
    pairing
}

/// Runs git in `dir`; its trimmed stdout, or its stderr as the error.
fn git(dir: &Path, args: &[&str]) -> Result<String, Error> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .map_err(|e| Error::git(format!("cannot run git: {e}; is git installed?")))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(Error::git(format!(
            "`git {}` failed in {}: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

/// Checks out `rev` of the git repository at `repo` in a detached worktree
/// at `dir` (reusing, moved to the new commit, one left there by an earlier
/// run, so its build is incremental) and returns the commit it resolved to.
///
/// # Errors
/// A git error when `repo` is not in a git repository, `rev` is not
/// one of its revisions, or the worktree cannot be made.
pub fn worktree(repo: &Path, rev: &str, dir: &Path) -> Result<String, Error> {
    let commit = git(
        repo,
        &["rev-parse", "--verify", &format!("{rev}^{{commit}}")],
    )
    .map_err(|e| {
        Error::git(format!(
            "{rev:?} is not a revision of the repository at {}: {e}",
            repo.display()
        ))
    })?;
    let path = dir.to_string_lossy().into_owned();
    if dir.join(".git").is_file() {
        if git(
            dir,
            &["checkout", "--quiet", "--detach", "--force", &commit],
        )
        .is_ok()
        {
            return Ok(commit);
        }
        let _ = git(repo, &["worktree", "remove", "--force", &path]);
    }
    let _ = std::fs::remove_dir_all(dir);
    let _ = git(repo, &["worktree", "prune"]);
    git(
        repo,
        &[
            "worktree", "add", "--quiet", "--detach", "--force", &path, &commit,
        ],
    )?;
    Ok(commit)
}

/// Where the base of a comparison is checked out and built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseDirs {
    /// The git worktree: `target/perfmark-compare/base` in the workspace
    /// root, so that cargo finds no other workspace above the base's.
    pub worktree: PathBuf,
    /// The base's workspace inside it (a subdirectory when the workspace
    /// is not at the repository's top).
    pub workspace: PathBuf,
    /// The base's own target directory, `perfmark-compare/target` in the
    /// workspace's: cargo names a path package's artifacts without its
    /// path, so in one directory the base's test binaries would replace
    /// the head's.
    pub target_dir: PathBuf,
    /// The head's target directory, `perfmark-compare/head-target` in the
    /// workspace's: the head is built with the layout pinned
    /// ([`crate::layout`]), and in cargo's own directory those flags would
    /// rebuild everything for the user's next `cargo test`, and that build
    /// everything again for the next comparison.
    pub head_target_dir: PathBuf,
    /// Where the links of each side are kept:
    /// `perfmark-compare/layouts/{head,base}` in the target directory.
    pub layouts_dir: PathBuf,
}

impl BaseDirs {
    /// The directories for a comparison in `ws`.
    ///
    /// # Errors
    /// A git error when the workspace is not in a git repository.
    pub fn of(ws: &Workspace) -> Result<BaseDirs, Error> {
        let top = PathBuf::from(git(&ws.root, &["rev-parse", "--show-toplevel"])?);
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_owned());
        let (top, root) = (canonical(&top), canonical(&ws.root));
        let inside = root.strip_prefix(&top).unwrap_or(Path::new("")).to_owned();
        let worktree = ws.root.join("target").join("perfmark-compare").join("base");
        Ok(BaseDirs {
            workspace: worktree.join(inside),
            worktree,
            target_dir: ws.target_dir.join("perfmark-compare").join("target"),
            head_target_dir: ws.target_dir.join("perfmark-compare").join("head-target"),
            layouts_dir: ws.target_dir.join("perfmark-compare").join("layouts"),
        })
    }
}

/// `cargo perfmark compare REV`: builds the workspace `ws` as it is (the
/// head) and `rev` in a worktree ([`BaseDirs`]), the test targets
/// `selection` names, both with their layout pinned; links each perf test
/// target of each side `layouts` times with its functions in other orders
/// ([`draw_layouts`]; none when `layouts` is 1, or when the linker cannot);
/// then runs each head perf test binary with `--compare-with` each link of
/// its base twin, `--head-layout` each of its own, and `test_args`, its
/// output going to ours; then draws the pages of the reports they wrote
/// since it began ([`crate::report::draw_pages_in`]), and the flame
/// graphs of the profiles a counted run left in them
/// ([`crate::flame::draw_and_say`]); a page or a graph that cannot be
/// drawn is a warning.
/// Returns the exit status: 101 when any binary failed (a regression, a
/// budget, a crashed worker), else 0.
///
/// # Errors
/// When git or a build fails, when no perf test binary is in both builds,
/// or when a binary cannot be run.
pub fn compare_rev(
    ws: &Workspace,
    rev: &str,
    selection: &Selection,
    layouts: usize,
    test_args: &[String],
) -> Result<u8, Error> {
    let since = SystemTime::now();
    let dirs = BaseDirs::of(ws)?;
    check_out_base(ws, rev, &dirs)?;
    // Both sides with every function aligned alike, so that code a change
    // did not touch keeps its alignment (crate::layout).
    let pinning = Pinning::from_env();
    let (head, base) = build_both(ws, &dirs, &pinning, selection, test_args)?;
    let pairing = pair_built(head, base)?;
    let code = run_pairs(ws, &dirs, &pinning, &pairing.pairs, layouts, test_args)?;
    let heads: Vec<&TestBinary> = pairing.pairs.iter().map(|(h, _)| h).collect();
    let written =
        crate::report::written_since(head_report_dirs(ws, &dirs, &heads, test_args), since);
    crate::report::draw_pages_in(&written);
    crate::flame::draw_and_say(&written);
    Ok(code)
}

/// Checks out `rev` of the workspace's repository in the base's worktree
/// ([`worktree`]), making its parent directory first, and says which
/// commit it is.
fn check_out_base(ws: &Workspace, rev: &str, dirs: &BaseDirs) -> Result<(), Error> {
    if let Some(parent) = dirs.worktree.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| Error::git(format!("cannot create {}: {e}", parent.display())))?;
    }
    let commit = worktree(&ws.root, rev, &dirs.worktree)?;
    eprintln!(
        "perfmark compare: base {rev} ({commit}) in {}",
        dirs.worktree.display()
    );
    Ok(())
}

/// Builds the perf test binaries `selection` names of the head, then of
/// the base, each in its own target directory with `pinning`, saying how
/// long each took; returns (head, base).
fn build_both(
    ws: &Workspace,
    dirs: &BaseDirs,
    pinning: &Pinning,
    selection: &Selection,
    test_args: &[String],
) -> Result<(Vec<TestBinary>, Vec<TestBinary>), Error> {
    // The head coordinates (and counts), so it is built with what that
    // takes; a base only serves as workers and counted processes, which
    // every perfmark test binary can, so it is built as its revision
    // stands (an older perfmark may not have these features).
    let features = perfmark_features(test_args, true);
    let started = Instant::now();
    eprintln!(
        "perfmark compare: building the head (functions aligned to {} bytes)",
        layout::FUNCTION_ALIGNMENT
    );
    let head = build_perf_binaries(
        &ws.root,
        Some(&dirs.head_target_dir),
        Some(pinning),
        &[],
        selection,
        &features,
    )?;
    eprintln!(
        "perfmark compare: built {} perf test binaries of the head in {:.1} s; building the \
         base (the same)",
        head.len(),
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let base = build_perf_binaries(
        &dirs.workspace,
        Some(&dirs.target_dir),
        Some(pinning),
        &[],
        selection,
        &[],
    )?;
    eprintln!(
        "perfmark compare: built {} perf test binaries of the base in {:.1} s",
        base.len(),
        started.elapsed().as_secs_f64()
    );
    Ok((head, base))
}

/// Pairs the built binaries ([`pair_binaries`]), saying which are new and
/// which were removed.
///
/// # Errors
/// When both builds made the same file, or no binary is in both.
fn pair_built(head: Vec<TestBinary>, base: Vec<TestBinary>) -> Result<Pairing, Error> {
    if let Some((h, _)) = head.iter().zip(&base).find(|(h, b)| h.path == b.path) {
        return Err(Error::build(format!(
            "the head and the base built the same file {}: nothing to compare",
            h.path.display()
        )));
    }
    let pairing = pair_binaries(head, base);
    for b in &pairing.head_only {
        eprintln!(
            "perfmark compare: {}/{} is new: not compared",
            b.package, b.target
        );
    }
    for b in &pairing.base_only {
        eprintln!(
            "perfmark compare: {}/{} was removed: not compared",
            b.package, b.target
        );
    }
    if pairing.pairs.is_empty() {
        return Err(Error::build(
            "no perf test binary is in both builds: nothing to compare (a perf test target \
             is a `[[test]]` with `harness = false` whose main is `perfmark::main!()`)",
        ));
    }
    Ok(pairing)
}

/// The links a head binary runs with.
struct Links {
    /// Its own links (`--head-layout`); none: the binary as built.
    head: Vec<PathBuf>,
    /// Its base twin's links (`--compare-with`).
    base: Vec<PathBuf>,
}

/// Runs each head binary of `pairs` against its base twin, with `layouts`
/// links of each side while the linker can draw them, else one of each;
/// returns 101 when any binary failed, else 0.
fn run_pairs(
    ws: &Workspace,
    dirs: &BaseDirs,
    pinning: &Pinning,
    pairs: &[(TestBinary, TestBinary)],
    layouts: usize,
    test_args: &[String],
) -> Result<u8, Error> {
    let mut code = 0;
    let mut drawing = layouts > 1;
    let total = pairs.len();
    for (i, (head, base)) in pairs.iter().enumerate() {
        eprintln!(
            "perfmark compare: [{} of {total}] {}/{}{}",
            i + 1,
            head.package,
            head.target,
            if drawing {
                format!(": linking {layouts} layouts of each build, then measuring")
            } else {
                ": measuring".to_owned()
            }
        );
        let mut links = Links {
            head: Vec::new(),
            base: vec![base.path.clone()],
        };
        if drawing {
            match draw_pair(ws, dirs, pinning, head, base, layouts) {
                Some(drawn) => links = drawn,
                None => drawing = false,
            }
        }
        if !run_head(head, &links, test_args)? {
            code = 101;
        }
    }
    Ok(code)
}

/// The `layouts` links of `head` and of `base`, saying how long they
/// took; `None` when the linker cannot draw them, said as a warning.
fn draw_pair(
    ws: &Workspace,
    dirs: &BaseDirs,
    pinning: &Pinning,
    head: &TestBinary,
    base: &TestBinary,
    layouts: usize,
) -> Option<Links> {
    let started = Instant::now();
    let drawn = draw_side(ws, dirs, pinning, head, Side::Head, layouts).and_then(|h| {
        Ok(Links {
            head: h,
            base: draw_side(ws, dirs, pinning, base, Side::Base, layouts)?,
        })
    });
    match drawn {
        Ok(drawn) => {
            eprintln!(
                "perfmark compare: linked {layouts} layouts of each build in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            Some(drawn)
        }
        Err(e) => {
            eprintln!(
                "perfmark compare: {e}; comparing one link of each build, so layout \
                 is not drawn at random"
            );
            None
        }
    }
}

/// Runs `head` in its package's directory with `--compare-with` each base
/// link and `--head-layout` each head link of `links`, then `test_args`,
/// its output going to ours; whether it succeeded.
///
/// # Errors
/// When the binary cannot be run.
fn run_head(head: &TestBinary, links: &Links, test_args: &[String]) -> Result<bool, Error> {
    let mut cmd = Command::new(&head.path);
    cmd.current_dir(&head.package_dir);
    for link in &links.base {
        cmd.arg("--compare-with").arg(link);
    }
    for link in &links.head {
        cmd.arg("--head-layout").arg(link);
    }
    let status = cmd
        .args(test_args)
        .status()
        .map_err(|e| Error::run(format!("cannot run {}: {e}", head.path.display())))?;
    Ok(status.success())
}

/// The report directories the `heads` may have written into, run as
/// [`compare_rev`] runs them (in their package's directory, with our
/// environment and `test_args`): each `--report-dir` of `test_args` and
/// `PERFMARK_REPORT_DIR`, relative to the package; and every report
/// directory under the `perfmark/` of `CARGO_TARGET_DIR` (relative to the
/// package), of the head's own target directory and of the workspace's,
/// where a test binary's report goes unless told otherwise. More than
/// were written: [`crate::report::draw_pages_written_since`] keeps those
/// written since the command began.
fn head_report_dirs(
    ws: &Workspace,
    dirs: &BaseDirs,
    heads: &[&TestBinary],
    test_args: &[String],
) -> Vec<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let mut given = report_dir_args(test_args);
    given.extend(var("PERFMARK_REPORT_DIR").map(PathBuf::from));
    let mut trees = vec![
        ws.target_dir.join("perfmark"),
        dirs.head_target_dir.join("perfmark"),
    ];
    let target_dir = var("CARGO_TARGET_DIR").map(PathBuf::from);
    let mut found = Vec::new();
    for head in heads {
        found.extend(given.iter().map(|d| head.package_dir.join(d)));
        trees.extend(
            target_dir
                .iter()
                .map(|t| head.package_dir.join(t).join("perfmark")),
        );
    }
    for tree in trees {
        found.extend(crate::report::report_dirs(&tree).unwrap_or_default());
    }
    found
}

/// The directories `--report-dir DIR` and `--report-dir=DIR` in a test
/// binary's arguments give.
fn report_dir_args(args: &[String]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--report-dir" {
            found.extend(args.next().map(PathBuf::from));
        } else if let Some(dir) = arg.strip_prefix("--report-dir=") {
            found.push(PathBuf::from(dir));
        }
    }
    found
}

/// The links of one side's `binary`, drawn into
/// `layouts_dir/{head,base}`.
fn draw_side(
    ws: &Workspace,
    dirs: &BaseDirs,
    pinning: &Pinning,
    binary: &TestBinary,
    side: Side,
    layouts: usize,
) -> Result<Vec<PathBuf>, Error> {
    let (dir, target_dir, name) = match side {
        Side::Head => (&ws.root, &dirs.head_target_dir, "head"),
        Side::Base => (&dirs.workspace, &dirs.target_dir, "base"),
    };
    let seeds: Vec<u64> = (0..layouts).map(|k| seed_for(side, k)).collect();
    draw_layouts(
        dir,
        target_dir,
        pinning,
        binary,
        &[],
        &seeds,
        &dirs.layouts_dir.join(name),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_dirs_given_to_the_test_binaries_are_read_in_both_forms() {
        let args = |line: &str| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            report_dir_args(&args("sort --report-dir r1 --exact --report-dir=/abs/r2")),
            [PathBuf::from("r1"), PathBuf::from("/abs/r2")]
        );
        assert!(report_dir_args(&args("sort --exact --report-dir")).is_empty());
        assert!(report_dir_args(&args("--report-directory x")).is_empty());
    }

    #[test]
    fn binaries_pair_by_package_and_target() {
        let b = |package: &str, target: &str, path: &str| TestBinary {
            package: package.into(),
            target: target.into(),
            path: path.into(),
            package_dir: PathBuf::new(),
        };
        let pairing = pair_binaries(
            vec![b("k", "perf", "/h/perf"), b("k", "new", "/h/new")],
            vec![b("k", "old", "/b/old"), b("k", "perf", "/b/perf")],
        );
        assert_eq!(pairing.pairs.len(), 1);
        assert_eq!(pairing.pairs[0].0.path, PathBuf::from("/h/perf"));
        assert_eq!(pairing.pairs[0].1.path, PathBuf::from("/b/perf"));
        assert_eq!(pairing.head_only[0].target, "new");
        assert_eq!(pairing.base_only[0].target, "old");
    }
}
