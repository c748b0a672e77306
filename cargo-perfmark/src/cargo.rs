//! What cargo tells: where the workspace and its target directory are
//! (`cargo metadata`), and which test binaries a build made (its JSON
//! messages).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use perfmark_core::probe;
use perfmark_core::Side;
use serde::Deserialize;

use crate::layout::{shuffle_flag, Pinning};
use crate::Error;

/// The cargo that runs us: `cargo perfmark` and build scripts get its path
/// in `CARGO`; otherwise the one on `PATH`.
pub(crate) fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// A workspace (or a lone package) as cargo sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// The directory of the workspace's root `Cargo.toml`.
    pub root: PathBuf,
    /// Its target directory: `target/` in the root unless
    /// `CARGO_TARGET_DIR` or cargo's configuration say otherwise.
    pub target_dir: PathBuf,
}

#[derive(Debug, Deserialize)]
struct Metadata {
    workspace_root: PathBuf,
    target_directory: PathBuf,
}

impl Workspace {
    /// The workspace that `dir` is in, as `cargo metadata --no-deps`
    /// describes it.
    ///
    /// # Errors
    /// [`Error::is_build`] when cargo cannot be run or finds no package
    /// there (its message is on stderr).
    pub fn locate(dir: &Path) -> Result<Workspace, Error> {
        let out = cargo()
            .current_dir(dir)
            .args(["metadata", "--format-version", "1", "--no-deps"])
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| Error::build(format!("cannot run cargo: {e}")))?;
        if !out.status.success() {
            return Err(Error::build(format!(
                "`cargo metadata` failed in {}: run cargo perfmark inside a package or workspace",
                dir.display()
            )));
        }
        Self::from_metadata(&String::from_utf8_lossy(&out.stdout))
    }

    /// The workspace in the output of `cargo metadata --format-version 1`.
    fn from_metadata(json: &str) -> Result<Workspace, Error> {
        let m: Metadata = serde_json::from_str(json)
            .map_err(|e| Error::build(format!("cannot read cargo metadata's output: {e}")))?;
        Ok(Workspace {
            root: m.workspace_root,
            target_dir: m.target_directory,
        })
    }
}

/// Which packages and test targets to build: cargo's `-p` and `--test`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// `-p PKG`, each; none means the whole workspace.
    pub packages: Vec<String>,
    /// `--test NAME`, each; none means every test target.
    pub tests: Vec<String>,
}

impl Selection {
    /// The selection as `cargo test` arguments.
    pub fn cargo_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if self.packages.is_empty() {
            args.push("--workspace".to_owned());
        }
        for p in &self.packages {
            args.extend(["--package".to_owned(), p.clone()]);
        }
        for t in &self.tests {
            args.extend(["--test".to_owned(), t.clone()]);
        }
        args
    }
}

/// One test binary that cargo built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestBinary {
    /// The package's name.
    pub package: String,
    /// The test target's name (also its baseline file's name).
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

/// The features of the `perfmark` dependency a build needs for a run of
/// its test binaries with `test_args`: `compare` for a paired comparison
/// (`compare`), `instructions` when the run counts (`--instructions` among
/// `test_args`, or `PERFMARK_INSTRUCTIONS` set to `1`, `true`, `yes` or
/// `on`, as the test binary reads it). A plain `cargo test` compiles
/// neither.
pub fn perfmark_features(test_args: &[String], compare: bool) -> Vec<&'static str> {
    // The spellings of "on" the test binary's switches accept.
    let on = |v: std::ffi::OsString| {
        matches!(v.to_str().map(str::trim), Some("1" | "true" | "yes" | "on"))
    };
    let counts = test_args.iter().any(|a| a == "--instructions")
        || std::env::var_os("PERFMARK_INSTRUCTIONS").is_some_and(on);
    let mut features = Vec::new();
    if compare {
        features.push("compare");
    }
    if counts {
        features.push("instructions");
    }
    features
}

/// Builds the test targets `selection` names in the workspace at `dir`
/// with `cargo test --release --no-run` (into `target_dir` when given,
/// else cargo's own; with the layout pinned when `pinning` is given; with
/// the variables `envs` set for cargo and the compiler, for values a test
/// reads with `option_env!`; with the `perfmark` dependency's `features`,
/// [`perfmark_features`]) and returns its perfmark test binaries: those that
/// greet in perfmark's worker mode, which a `harness = false` target whose
/// `main` is `perfmark::main!()` does. Other test binaries are left out.
///
/// # Errors
/// [`Error::is_build`] when cargo fails; its own message (the compiler's
/// errors) is on stderr.
pub fn build_perf_binaries(
    dir: &Path,
    target_dir: Option<&Path>,
    pinning: Option<&Pinning>,
    envs: &[(&str, &str)],
    selection: &Selection,
    features: &[&str],
) -> Result<Vec<TestBinary>, Error> {
    let mut cmd = cargo();
    if let Some(pinning) = pinning {
        pinning.apply(&mut cmd);
    }
    cmd.current_dir(dir)
        .envs(envs.iter().copied())
        .args([
            "test",
            "--release",
            "--no-run",
            "--message-format=json-render-diagnostics",
        ])
        .args(selection.cargo_args())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if let Some(target_dir) = target_dir {
        cmd.env("CARGO_TARGET_DIR", target_dir);
    }
    if !features.is_empty() {
        let list: Vec<String> = features.iter().map(|f| format!("perfmark/{f}")).collect();
        cmd.args(["--features", &list.join(",")]);
    }
    let out = cmd
        .output()
        .map_err(|e| Error::build(format!("cannot run cargo in {}: {e}", dir.display())))?;
    if !out.status.success() {
        return Err(Error::build(format!(
            "`cargo test --release --no-run` failed in {} ({}): see cargo's message above",
            dir.display(),
            out.status
        )));
    }
    let mut perf = Vec::new();
    for b in test_binaries_in(&String::from_utf8_lossy(&out.stdout)) {
        match probe(&b.path, Side::Head) {
            Ok(tests) => {
                eprintln!(
                    "perfmark: {}/{}: {} perf tests",
                    b.package,
                    b.target,
                    tests.len()
                );
                perf.push(b);
            }
            Err(_) => eprintln!(
                "perfmark: {}/{}: not a perfmark binary",
                b.package, b.target
            ),
        }
    }
    Ok(perf)
}

/// Links the perf test target `binary` (of the workspace at `dir`, built
/// into `target_dir` with `pinning`, and with the variables `envs` set, as
/// it was built) again once per seed, each time with its functions in the
/// order the seed draws, and copies each link to
/// `out_dir/<package>-<target>-<k>`: the `k`-th returned path. Only the
/// test target itself is compiled again (`cargo rustc`); its dependencies
/// are reused.
///
/// # Errors
/// [`Error::is_build`] when a link fails (the linker is not lld, which
/// alone has `--shuffle-sections`, or the build broke), with the end of
/// cargo's message.
pub fn draw_layouts(
    dir: &Path,
    target_dir: &Path,
    pinning: &Pinning,
    binary: &TestBinary,
    envs: &[(&str, &str)],
    seeds: &[u64],
    out_dir: &Path,
) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(out_dir)
        .map_err(|e| Error::build(format!("cannot create {}: {e}", out_dir.display())))?;
    let mut links = Vec::with_capacity(seeds.len());
    for (k, &seed) in seeds.iter().enumerate() {
        let link = link_shuffled(dir, target_dir, pinning, binary, envs, seed)?;
        let copy = out_dir.join(format!("{}-{}-{k}", binary.package, binary.target));
        std::fs::copy(&link, &copy).map_err(|e| {
            Error::build(format!(
                "cannot copy {} to {}: {e}",
                link.display(),
                copy.display()
            ))
        })?;
        links.push(copy);
        eprintln!(
            "perfmark: linked {}/{} {} of {} ({})",
            binary.package,
            binary.target,
            k + 1,
            seeds.len(),
            out_dir.display()
        );
    }
    Ok(links)
}

/// Links the perf test target `binary` again as [`draw_layouts`] does,
/// its functions in the order `seed` draws, and returns where cargo put
/// the link.
///
/// # Errors
/// [`Error::is_build`] when cargo cannot run or the link fails, with the
/// end of cargo's message.
fn link_shuffled(
    dir: &Path,
    target_dir: &Path,
    pinning: &Pinning,
    binary: &TestBinary,
    envs: &[(&str, &str)],
    seed: u64,
) -> Result<PathBuf, Error> {
    let mut cmd = cargo();
    pinning.apply(&mut cmd);
    cmd.current_dir(dir)
        .envs(envs.iter().copied())
        .env("CARGO_TARGET_DIR", target_dir)
        .args([
            "rustc",
            "--release",
            "--message-format=json-render-diagnostics",
        ])
        .args(["--package", &binary.package, "--test", &binary.target])
        .args(["--", "-C", &shuffle_flag(seed)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = cmd
        .output()
        .map_err(|e| Error::build(format!("cannot run cargo in {}: {e}", dir.display())))?;
    let built = test_binaries_in(&String::from_utf8_lossy(&out.stdout));
    let Some(link) = built.into_iter().find(|b| b.target == binary.target) else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(Error::build(format!(
            "linking {}/{} with its functions shuffled (seed {seed}) failed ({}); \
             drawing layouts needs the lld linker (rust-lld, the default on x86_64 Linux \
             since Rust 1.90): {}",
            binary.package,
            binary.target,
            out.status,
            tail.join(" | ")
        )));
    };
    Ok(link.path)
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
    fn the_workspace_and_target_dir_come_from_cargo_metadata() {
        let json = r#"{"packages":[],"workspace_members":[],"target_directory":"/t/x","version":1,"workspace_root":"/w","metadata":null}"#;
        let ws = Workspace::from_metadata(json).unwrap();
        assert_eq!(ws.root, PathBuf::from("/w"));
        assert_eq!(ws.target_dir, PathBuf::from("/t/x"));
        assert!(Workspace::from_metadata("{}").unwrap_err().is_build());
    }

    #[test]
    fn a_selection_is_cargo_arguments() {
        assert_eq!(Selection::default().cargo_args(), ["--workspace"]);
        let s = Selection {
            packages: vec!["a".into()],
            tests: vec!["perf".into()],
        };
        assert_eq!(s.cargo_args(), ["--package", "a", "--test", "perf"]);
    }
}
