//! Building two revisions of a workspace and pairing their perf test
//! binaries: the library behind `cargo xtask compare`, so that a user's own
//! xtask is a few lines:
//!
//! ```no_run
//! use perfmark_core::pair::builds;
//! let root = std::path::Path::new(".");
//! let code = builds::compare_rev(root, "origin/main", &[], &[]).unwrap_or_else(|e| {
//!     eprintln!("error: {e}");
//!     101
//! });
//! std::process::exit(code);
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

use super::process::probe;
use crate::measure::paired::Side;

/// One perf test binary that cargo built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestBinary {
    /// The package's name.
    pub package: String,
    /// The test target's name.
    pub target: String,
    /// The executable.
    pub path: PathBuf,
    /// The package's directory (where cargo runs its tests).
    pub package_dir: PathBuf,
}

/// The part of cargo's `compiler-artifact` message we read.
#[derive(Debug, Deserialize)]
struct Artifact {
    reason: String,
    #[serde(default)]
    package_id: String,
    #[serde(default)]
    manifest_path: PathBuf,
    target: Option<ArtifactTarget>,
    profile: Option<ArtifactProfile>,
    executable: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
struct ArtifactTarget {
    name: String,
    kind: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ArtifactProfile {
    test: bool,
}

/// The test binaries in cargo's JSON messages (`--message-format=json`):
/// executables built with the test profile for `test` and `bench` targets.
pub fn test_binaries_in(messages: &str) -> Vec<TestBinary> {
    let mut found = Vec::new();
    for line in messages.lines() {
        let Ok(artifact) = serde_json::from_str::<Artifact>(line) else {
            continue;
        };
        if artifact.reason != "compiler-artifact" {
            continue;
        }
        let (Some(target), Some(profile), Some(path)) =
            (artifact.target, artifact.profile, artifact.executable)
        else {
            continue;
        };
        let integration = target.kind.iter().any(|k| k == "test" || k == "bench");
        if !profile.test || !integration {
            continue;
        }
        found.push(TestBinary {
            package: package_name(&artifact.package_id),
            target: target.name,
            path,
            package_dir: artifact
                .manifest_path
                .parent()
                .map(Path::to_owned)
                .unwrap_or_default(),
        });
    }
    found
}

/// The name in a package id: `path+file:///x/y#name@0.1.0`, `name 0.1.0 (…)`,
/// or `registry+…#name@1.0`.
fn package_name(id: &str) -> String {
    if let Some((_, rest)) = id.rsplit_once('#') {
        let name = rest.split('@').next().unwrap_or(rest);
        // `…/dir#0.1.0`: the name is the directory's.
        if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            let dir = id[..id.len() - rest.len() - 1]
                .rsplit('/')
                .next()
                .unwrap_or("");
            return dir.to_owned();
        }
        return name.to_owned();
    }
    id.split(' ').next().unwrap_or(id).to_owned()
}

/// Builds the workspace at `dir` with `cargo test --release --no-run
/// --workspace` (plus `cargo_args`) and returns its perfmark test binaries:
/// those that greet in worker mode. Other test binaries are left out.
pub fn build_perf_binaries(
    dir: &Path,
    target_dir: Option<&Path>,
    cargo_args: &[String],
) -> Result<Vec<TestBinary>, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(dir)
        .args([
            "test",
            "--release",
            "--no-run",
            "--workspace",
            "--message-format=json-render-diagnostics",
        ])
        .args(cargo_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(target_dir) = target_dir {
        cmd.env("CARGO_TARGET_DIR", target_dir);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("could not run cargo in {}: {e}", dir.display()))?;
    if !out.status.success() {
        return Err(format!(
            "`cargo test --release --no-run` failed in {} ({})",
            dir.display(),
            out.status
        ));
    }
    let binaries = test_binaries_in(&String::from_utf8_lossy(&out.stdout));
    let mut perf = Vec::new();
    for b in binaries {
        match probe(&b.path, Side::Head) {
            Ok(tests) => {
                eprintln!(
                    "perfmark compare: {}/{}: {} perf tests",
                    b.package,
                    b.target,
                    tests.len()
                );
                perf.push(b);
            }
            Err(_) => eprintln!(
                "perfmark compare: {}/{}: not a perfmark binary",
                b.package, b.target
            ),
        }
    }
    Ok(perf)
}

/// Checks out `rev` of the git repository at `repo` in a detached worktree
/// at `dir` (replacing one left there by an earlier run) and returns the
/// commit it resolved to.
pub fn worktree(repo: &Path, rev: &str, dir: &Path) -> Result<String, String> {
    let git = |args: &[&str]| -> Result<String, String> {
        let out = Command::new("git")
            .current_dir(repo)
            .args(args)
            .output()
            .map_err(|e| format!("could not run git: {e}"))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
        } else {
            Err(format!(
                "`git {}` failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    };
    let commit = git(&["rev-parse", "--verify", &format!("{rev}^{{commit}}")])
        .map_err(|e| format!("{rev:?} is not a revision of {}: {e}", repo.display()))?;
    let path = dir.to_string_lossy().into_owned();
    if dir.exists() {
        // Ours from an earlier run: moved to the new commit in place, so its
        // build is reused.
        let out = Command::new("git")
            .current_dir(dir)
            .args(["checkout", "--quiet", "--detach", "--force", &commit])
            .output()
            .map_err(|e| format!("could not run git: {e}"))?;
        if out.status.success() {
            return Ok(commit);
        }
        let _ = git(&["worktree", "remove", "--force", &path]);
        let _ = std::fs::remove_dir_all(dir);
    }
    let _ = git(&["worktree", "prune"]);
    git(&[
        "worktree", "add", "--quiet", "--detach", "--force", &path, &commit,
    ])?;
    Ok(commit)
}

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

/// Matches head binaries with their base twins.
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

/// `cargo xtask compare REV`: builds the workspace at `root` as it is (the
/// head) and `rev` in a worktree under `target/perfmark-compare/` (the
/// base), then runs each head perf test binary with `--compare-with` its
/// base twin, `test_args` passed on. Returns 101 when any binary failed
/// (a regression, a budget, a crashed worker), else 0.
pub fn compare_rev(
    root: &Path,
    rev: &str,
    cargo_args: &[String],
    test_args: &[String],
) -> Result<i32, String> {
    let scratch = root.join("target").join("perfmark-compare");
    let base_dir = scratch.join("base");
    std::fs::create_dir_all(&scratch)
        .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let commit = worktree(root, rev, &base_dir)?;
    eprintln!(
        "perfmark compare: base {rev} ({commit}) in {}",
        base_dir.display()
    );
    // The base gets a target directory of its own: cargo names a path
    // package's artifacts without its path, so in one directory the base's
    // test binaries would replace the head's.
    eprintln!("perfmark compare: building the head");
    let head = build_perf_binaries(root, None, cargo_args)?;
    eprintln!("perfmark compare: building the base");
    let base = build_perf_binaries(&base_dir, Some(&scratch.join("target")), cargo_args)?;
    if let Some((h, _)) = head.iter().zip(&base).find(|(h, b)| h.path == b.path) {
        return Err(format!(
            "the head and the base built the same file {}: nothing to compare",
            h.path.display()
        ));
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
        return Err("no perf test binary is in both builds: nothing to compare".to_owned());
    }
    let mut code = 0;
    for (head, base) in &pairing.pairs {
        eprintln!("perfmark compare: {}/{}", head.package, head.target);
        let status = Command::new(&head.path)
            .current_dir(&head.package_dir)
            .arg("--compare-with")
            .arg(&base.path)
            .args(test_args)
            .status()
            .map_err(|e| format!("could not run {}: {e}", head.path.display()))?;
        if !status.success() {
            code = 101;
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_messages_give_the_integration_test_binaries() {
        let messages = r#"{"reason":"compiler-artifact","package_id":"path+file:///w/kernels#perfmark-kernels@0.1.0","manifest_path":"/w/kernels/Cargo.toml","target":{"kind":["test"],"crate_types":["bin"],"name":"perf","src_path":"/w/kernels/tests/perf.rs"},"profile":{"test":true},"executable":"/w/target/release/deps/perf-abc"}
{"reason":"compiler-artifact","package_id":"path+file:///w/kernels#perfmark-kernels@0.1.0","manifest_path":"/w/kernels/Cargo.toml","target":{"kind":["lib"],"name":"perfmark_kernels"},"profile":{"test":true},"executable":"/w/target/release/deps/perfmark_kernels-def"}
{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#serde@1.0.0","manifest_path":"/r/serde/Cargo.toml","target":{"kind":["lib"],"name":"serde"},"profile":{"test":false},"executable":null}
{"reason":"build-finished","success":true}
not json"#;
        let found = test_binaries_in(messages);
        assert_eq!(
            found,
            vec![TestBinary {
                package: "perfmark-kernels".into(),
                target: "perf".into(),
                path: "/w/target/release/deps/perf-abc".into(),
                package_dir: "/w/kernels".into(),
            }]
        );
    }

    #[test]
    fn package_names_from_every_id_form() {
        assert_eq!(package_name("path+file:///w/a#foo@0.1.0"), "foo");
        assert_eq!(package_name("path+file:///w/foo#0.1.0"), "foo");
        assert_eq!(package_name("foo 0.1.0 (path+file:///w/foo)"), "foo");
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
