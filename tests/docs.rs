//! The documentation holds together: the README stays a user's page (at
//! most 300 lines; guides go in `docs/`), and every relative link in the
//! README, CONTRIBUTING.md and `docs/` names a file of the repository and,
//! with `#anchor`, a heading of that file (anchors as GitHub makes them).
//! The Rust snippets are compiled by the facade's doc tests (`src/lib.rs`),
//! and the documented commands are run by `tests/e2e.rs`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most lines the README may have.
const README_MAX_LINES: usize = 300;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files whose links are checked: the README, CONTRIBUTING.md,
/// every `docs/*.md` (the user's guide) and every `docs/design/*.md` (the
/// design notes).
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md"), root().join("CONTRIBUTING.md")];
    for dir in ["docs", "docs/design"] {
        let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("the docs are readable")
            .map(|entry| entry.expect("a docs entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
            .collect();
        pages.sort();
        docs.extend(pages);
    }
    docs
}

#[test]
fn the_users_guide_is_at_most_2000_lines() {
    let lines: usize = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| read(&path).lines().count())
        .sum();
    assert!(
        lines <= 2000,
        "the user's guide (docs/*.md) is {lines} lines"
    );
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of `text` outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            lines.push(line);
        }
    }
    lines
}

/// The anchor GitHub gives a heading: lowercased, every character but
/// letters, digits, spaces, `-` and `_` dropped, spaces made `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of `text`'s headings, with GitHub's `-1`, `-2`, … for a
/// heading seen before.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    for line in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut anchor = base.clone();
        let mut n = 0;
        while anchors.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        anchors.insert(anchor);
    }
    anchors
}

/// The targets of the inline links `[text](target)` in `text`'s prose,
/// code spans left out.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, part)| part)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(after[..end].trim().to_owned());
            rest = &after[end..];
        }
    }
    targets
}

#[test]
fn the_readme_is_at_most_300_lines() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move a section into a guide in docs/ and link it"
    );
}

#[test]
fn every_relative_link_names_a_file_and_a_heading_that_exist() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = read(&doc);
        let dir = doc.parent().expect("a document is in a directory");
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                doc.clone()
            } else {
                dir.join(file)
            };
            let name = doc.strip_prefix(root()).unwrap_or(&doc).display();
            if !path.exists() {
                broken.push(format!("{name}: ({target}): no file {}", path.display()));
                continue;
            }
            if let Some(anchor) = anchor {
                if path.extension().is_some_and(|ext| ext == "md")
                    && !anchors(&read(&path)).contains(anchor)
                {
                    broken.push(format!("{name}: ({target}): no heading #{anchor}"));
                }
            }
        }
    }
    assert!(checked >= 20, "found only {checked} relative links");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(slug("Setup in your crate"), "setup-in-your-crate");
    assert_eq!(slug("`cargo perfmark`"), "cargo-perfmark");
    assert_eq!(
        slug("Parallel test runners (cargo-nextest)"),
        "parallel-test-runners-cargo-nextest"
    );
    assert_eq!(slug("Dependencies: history"), "dependencies-history");
    let text = "# A\n```sh\n# not a heading\n```\n## B b\n## B b\n";
    let found: Vec<String> = anchors(text).into_iter().collect();
    assert_eq!(found, ["a", "b-b", "b-b-1"]);
    assert_eq!(
        link_targets("see [x](docs/a.md#b) and `[y](no)` and [z](c.md)"),
        ["docs/a.md#b", "c.md"]
    );
}
