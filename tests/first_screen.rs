//! The README's first screen, run as a newcomer runs it: its `Cargo.toml`
//! lines and its `tests/perf.rs`, exactly as written (the dependency line
//! pointed at this checkout), in a fresh crate outside the workspace;
//! `cargo test --release` passes with the line the README shows, and the
//! same test with the README's too-tight budget fails, with status 101.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;
use support::{alone, explain, fixture_target_dir, stdout};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The body of the first fenced block of `lang` after the heading
/// `heading` in `text`.
fn block_after<'t>(text: &'t str, heading: &str, lang: &str) -> &'t str {
    let from = text.find(heading).expect("the heading");
    let fence = format!("```{lang}\n");
    let start = from + text[from..].find(&fence).expect("the block") + fence.len();
    let len = text[start..].find("```").expect("the block's end");
    &text[start..start + len]
}

/// A fresh crate holding the README's setup, its dependency line pointed
/// at this checkout, with `budget` in place of the README's budget.
fn fresh_crate(readme: &str, budget: &str) -> PathBuf {
    let heading = "## Setup in your crate";
    let toml = block_after(readme, heading, "toml");
    let perf = block_after(readme, heading, "rust,no_run");
    assert!(
        toml.contains("perfmark = \"0.1\"") && perf.contains("budget = \"1us\""),
        "the README's first screen changed: update this test\n{toml}\n{perf}"
    );
    let dir = std::env::temp_dir().join(format!("perfmark-first-screen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    let dependency = format!("perfmark = {{ path = {:?} }}", root().display().to_string());
    let manifest = format!(
        "[package]\nname = \"my-crate\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [workspace]\n\n{}",
        toml.replace("perfmark = \"0.1\"", &dependency)
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    std::fs::write(
        dir.join("tests/perf.rs"),
        perf.replace("budget = \"1us\"", &format!("budget = \"{budget}\"")),
    )
    .unwrap();
    // The versions this checkout is built and tested with, and no network.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    dir
}

fn cargo_test(dir: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(dir)
        .args(["test", "--release", "--offline"])
        .env(
            "CARGO_TARGET_DIR",
            fixture_target_dir().join("first-screen"),
        )
        .env("PERFMARK_NO_LOCK", "1");
    for (k, _) in std::env::vars() {
        if k.starts_with("PERFMARK_") && k != "PERFMARK_NO_LOCK" {
            cmd.env_remove(k);
        }
    }
    cmd.output().expect("cargo runs")
}

#[test]
fn the_readmes_first_test_passes_and_its_tight_budget_fails_as_shown() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let _alone = alone();

    let dir = fresh_crate(&readme, "1us");
    let out = cargo_test(&dir);
    assert!(out.status.success(), "{}", explain(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .skip_while(|l| *l != "test count_words ... ok")
        .nth(1)
        .unwrap_or_default();
    assert!(
        line.starts_with("    median ") && line.contains("95% CI · within budget 1.000 µs ("),
        "the line the README shows: {}",
        explain(&out)
    );

    let dir = fresh_crate(&readme, "10ns");
    let out = cargo_test(&dir);
    assert_eq!(out.status.code(), Some(101), "{}", explain(&out));
    let text = stdout(&out);
    assert!(
        text.contains("test count_words ... FAILED") && text.contains("over budget 10.00 ns"),
        "{}",
        explain(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
