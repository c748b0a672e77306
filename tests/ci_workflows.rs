//! Every workflow `docs/ci.md` gives (each `yaml` block) does what the page
//! says. Each is read as GitHub Actions reads its jobs (a small reader of
//! the block YAML workflows are written in), then:
//!
//! - its perfmark commands run: every `cargo perfmark …` through cargo
//!   perfmark's own parser, and every `cargo test …` and what `cargo
//!   perfmark` passes its test binaries in the fixture crate with `--list`
//!   added (every flag parsed, nothing measured);
//! - its structure holds: no `continue-on-error` on a verdict, an exit
//!   status kept for later is failed on later, valgrind is installed before
//!   `--instructions`, reports are kept `if: always()`;
//! - its job, run step by step under bash with stand-ins for the programs
//!   it calls (a `cargo` whose perf tests pass or fail on demand), fails
//!   exactly when the perf tests fail, on every event that triggers it.
//!
//! GitHub's `${{ … }}` and the shell's `$( … )` stand for plausible values.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod support;
use support::{explain, stdout};

// ---------------------------------------------------------------------------
// The workflows

/// One `yaml` block of `docs/ci.md`.
struct Workflow {
    /// Its first line, the file it is meant for (`# .github/workflows/…`).
    file: String,
    root: Node,
}

impl Workflow {
    /// The events that trigger it (`on:`).
    fn events(&self) -> Vec<String> {
        match self.root.get("on") {
            Some(Node::Scalar(event)) => vec![event.clone()],
            Some(Node::Seq(events)) => events
                .iter()
                .filter_map(Node::scalar)
                .map(str::to_owned)
                .collect(),
            Some(Node::Map(events)) => events.iter().map(|(event, _)| event.clone()).collect(),
            None => panic!("{}: no `on:`", self.file),
        }
    }

    /// Each job's steps.
    fn jobs(&self) -> Vec<(&str, &[Node])> {
        let Some(Node::Map(jobs)) = self.root.get("jobs") else {
            panic!("{}: no `jobs:`", self.file)
        };
        jobs.iter()
            .map(|(name, job)| match job.get("steps") {
                Some(Node::Seq(steps)) => (name.as_str(), steps.as_slice()),
                _ => panic!("{}: job `{name}` has no `steps:`", self.file),
            })
            .collect()
    }

    /// The workflow's own `env:`.
    fn env(&self) -> Vec<(String, String)> {
        match self.root.get("env") {
            Some(Node::Map(vars)) => vars
                .iter()
                .map(|(k, v)| (k.clone(), v.scalar().unwrap_or_default().to_owned()))
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn ci_page() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `yaml` block of the CI page, read.
fn workflows() -> Vec<Workflow> {
    let page = ci_page();
    let mut found = Vec::new();
    let mut block: Option<Vec<&str>> = None;
    for line in page.lines() {
        match (&mut block, line.trim()) {
            (None, "```yaml") => block = Some(Vec::new()),
            (Some(lines), "```") => {
                let file = lines.first().map_or("", |l| l.trim()).to_owned();
                let root = Reader::read(&lines.join("\n"));
                found.push(Workflow { file, root });
                block = None;
            }
            (Some(lines), _) => lines.push(line),
            (None, _) => {}
        }
    }
    assert!(block.is_none(), "docs/ci.md: a yaml block is never closed");
    assert!(
        found.len() >= 3,
        "docs/ci.md has only {} workflows",
        found.len()
    );
    found
}

/// A step's value for `key`, when it is a plain value.
fn field<'a>(step: &'a Node, key: &str) -> Option<&'a str> {
    step.get(key).and_then(Node::scalar)
}

/// How a step is named in a failure message.
fn step_name(step: &Node) -> String {
    ["name", "id", "run", "uses"]
        .iter()
        .find_map(|key| field(step, key))
        .map_or_else(
            || "a step".to_owned(),
            |name| format!("`{}`", name.lines().next().unwrap_or(name)),
        )
}

/// The commands of a step's `run:`, with plausible values for GitHub's
/// expressions.
fn step_commands(step: &Node) -> Vec<Vec<String>> {
    field(step, "run").map_or_else(Vec::new, |script| {
        shell_commands(&expand(script, &Context::plausible()), &mut Vec::new())
    })
}

/// Whether `words` runs perf tests whose failure should fail the job:
/// `cargo test` and `cargo perfmark compare`.
fn is_verdict(words: &[String]) -> bool {
    matches!(
        words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["cargo", "test", ..] | ["cargo", "perfmark", "compare", ..]
    )
}

// ---------------------------------------------------------------------------
// The tests

#[test]
fn every_perfmark_command_of_every_workflow_is_accepted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ran = 0;
    for workflow in workflows() {
        let env = workflow.env();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        for (_, steps) in workflow.jobs() {
            for step in steps {
                for words in step_commands(step) {
                    let context = format!(
                        "{}, step {}: `{}`",
                        workflow.file,
                        step_name(step),
                        words.join(" ")
                    );
                    let args: Vec<&str> = words.iter().map(String::as_str).collect();
                    match args.as_slice() {
                        ["cargo", "perfmark", ..] => {
                            let test_args = support::perfmark_test_args(words[1..].to_vec())
                                .unwrap_or_else(|e| {
                                    panic!("{context}: refused by cargo perfmark: {e}")
                                });
                            if !test_args.is_empty() {
                                let test_args: Vec<&str> =
                                    test_args.iter().map(String::as_str).collect();
                                let cargo = [
                                    &["test", "--release", "--test", "perf", "--"],
                                    &test_args[..],
                                ]
                                .concat();
                                listed_in_the_fixture(&context, &cargo, &env);
                            }
                        }
                        ["cargo", "test", rest @ ..] => {
                            needs_the_features_it_uses(&context, rest);
                            listed_in_the_fixture(&context, &args[1..], &env);
                        }
                        // The published tool, as a user's workflow installs it
                        // (`--locked`: the versions it was released with).
                        ["cargo", "install", "cargo-perfmark"]
                        | ["cargo", "install", "--locked", "cargo-perfmark"] => {
                            assert!(
                                root.join("cargo-perfmark/Cargo.toml").is_file(),
                                "{context}"
                            );
                        }
                        ["cargo", "install", "--path", path] => {
                            let package = Path::new(path).file_name().and_then(|n| n.to_str());
                            assert_eq!(
                                package,
                                Some("cargo-perfmark"),
                                "{context}: installs what?"
                            );
                            assert!(
                                root.join("cargo-perfmark/Cargo.toml").is_file(),
                                "{context}"
                            );
                        }
                        ["cargo", ..] => {
                            panic!("{context}: a cargo command this test does not check")
                        }
                        _ => continue,
                    }
                    ran += 1;
                }
            }
        }
    }
    assert!(ran >= 6, "only {ran} perfmark commands in the workflows");
}

/// Runs `cargo ARGS … --list` (`--list` after the `--`) in the fixture
/// crate with the workflow's `env`: the test binary takes every flag.
fn listed_in_the_fixture(context: &str, args: &[&str], env: &[(&str, &str)]) {
    let mut args = args.to_vec();
    if !args.contains(&"--") {
        args.push("--");
    }
    args.push("--list");
    let out = {
        let _alone = support::alone();
        support::cargo_in_fixture(&args, env)
    };
    assert_eq!(
        out.status.code(),
        Some(0),
        "{context}: refused:\n{}",
        explain(&out)
    );
    assert!(
        stdout(&out).contains(": test"),
        "{context}: listed no test:\n{}",
        explain(&out)
    );
}

/// A test binary built without perfmark's `instructions` (or `compare`)
/// feature refuses `--instructions` (`--compare-with`) before any test, as
/// `tests/e2e.rs` shows, but only once it would measure: `--list` does not
/// get that far, so the feature is checked here, on the command.
fn needs_the_features_it_uses(context: &str, cargo_args: &[&str]) {
    let (ours, tests) = match cargo_args.iter().position(|&a| a == "--") {
        Some(i) => (&cargo_args[..i], &cargo_args[i + 1..]),
        None => (cargo_args, &[][..]),
    };
    let features: Vec<&str> = ours
        .windows(2)
        .filter(|w| w[0] == "--features" || w[0] == "-F")
        .map(|w| w[1])
        .chain(ours.iter().filter_map(|a| a.strip_prefix("--features=")))
        .flat_map(|list| list.split([',', ' ']))
        .collect();
    for (flag, feature) in [
        ("--instructions", "perfmark/instructions"),
        ("--compare-with", "perfmark/compare"),
    ] {
        if tests.contains(&flag) {
            assert!(
                features.contains(&feature),
                "{context}: {flag} needs `--features {feature}`, or the test binary refuses it"
            );
        }
    }
}

#[test]
fn every_workflow_has_the_structure_its_status_rests_on() {
    let mut problems = Vec::new();
    for workflow in workflows() {
        problems.extend(structure_problems(&workflow));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The pull-request gate counts instructions.
    let counted_gate = workflows().iter().any(|w| {
        w.jobs().iter().any(|(_, steps)| {
            steps.iter().flat_map(step_commands).any(|words| {
                is_verdict(&words)
                    && words[1] == "perfmark"
                    && words.iter().any(|w| w == "--instructions")
            })
        })
    });
    assert!(
        counted_gate,
        "no workflow runs `cargo perfmark compare --instructions`"
    );
}

/// What in `workflow` would let its job's status differ from its perf
/// tests' verdicts, or lose what explains them.
fn structure_problems(workflow: &Workflow) -> Vec<String> {
    let mut problems = Vec::new();
    for (job, steps) in workflow.jobs() {
        let mut valgrind = false;
        for (i, step) in steps.iter().enumerate() {
            let at = format!("{} job `{job}`, step {}", workflow.file, step_name(step));
            for words in step_commands(step) {
                let has = |w: &str| words.iter().any(|x| x == w);
                valgrind |= has("install") && has("valgrind");
                if has("--instructions") && !valgrind {
                    problems.push(format!("{at}: counts with no valgrind installed before"));
                }
                if is_verdict(&words)
                    && field(step, "continue-on-error").is_some_and(|v| v != "false")
                {
                    problems.push(format!(
                        "{at}: continue-on-error on a verdict: the job passes whatever it says"
                    ));
                }
            }
            if let Some(output) = field(step, "run").and_then(kept_status) {
                let Some(id) = field(step, "id") else {
                    problems.push(format!("{at}: keeps `{output}` with no `id` to read it by"));
                    continue;
                };
                let read = format!("steps.{id}.outputs.{output}");
                let failed_on = steps[i + 1..].iter().any(|later| {
                    field(later, "if").is_some_and(|c| c.contains(&read))
                        && later.get("run").is_some()
                });
                if !failed_on {
                    problems.push(format!(
                        "{at}: keeps the exit status, and no later step runs on `{read}`"
                    ));
                }
            }
            let upload =
                field(step, "uses").is_some_and(|u| u.starts_with("actions/upload-artifact"));
            if upload && !field(step, "if").is_some_and(|c| c.contains("always()")) {
                problems.push(format!(
                    "{at}: uploads only when every step before succeeded"
                ));
            }
        }
    }
    problems
}

/// The output a script keeps its last exit status in (`echo "NAME=$?" >>
/// "$GITHUB_OUTPUT"`).
fn kept_status(script: &str) -> Option<String> {
    script
        .lines()
        .filter(|line| line.contains("GITHUB_OUTPUT"))
        .find_map(|line| {
            let at = line.find("=$?")?;
            let name = line[..at]
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .next()?;
            Some(name.to_owned())
        })
}

#[test]
fn every_workflow_fails_exactly_when_its_perf_tests_fail() {
    let sandbox = sandbox("jobs");
    for workflow in workflows() {
        for event in workflow.events() {
            for (job, steps) in workflow.jobs() {
                let at = format!("{} on {event}, job `{job}`", workflow.file);
                let failed = run_job(steps, &event, 101, &sandbox);
                assert!(
                    failed.is_some(),
                    "{at}: passes when the perf tests fail (exit 101)"
                );
                let passed = run_job(steps, &event, 0, &sandbox);
                assert!(
                    passed.is_none(),
                    "{at}: fails at step {} when the perf tests pass",
                    passed.unwrap_or_default()
                );
            }
        }
    }
}

/// The checks find what the page's workflows once got wrong.
#[test]
fn a_broken_workflow_is_caught() {
    let sandbox = sandbox("broken");
    let workflow = |steps: &str| Workflow {
        file: "broken.yml".to_owned(),
        root: Reader::read(&format!(
            "on: pull_request\njobs:\n  perf:\n    steps:\n{steps}"
        )),
    };
    // The history kept whatever the verdicts, and the verdicts lost.
    let lost = workflow(
        "      - run: sudo apt-get install -y valgrind\n      \
         - run: cargo test --release --test perf -- --instructions\n        \
         continue-on-error: true   # the history is kept\n      \
         - run: bencher run --file target/perf/bencher.json\n",
    );
    let problems = structure_problems(&lost);
    assert!(
        problems.iter().any(|p| p.contains("continue-on-error")),
        "{problems:?}"
    );
    assert_eq!(
        run_job(lost.jobs()[0].1, "pull_request", 101, &sandbox),
        None
    );
    // The status kept, and never failed on.
    let kept = workflow(
        "      - id: perf\n        run: |\n          set +e\n          \
         cargo test --release --test perf\n          echo \"status=$?\" >> \"$GITHUB_OUTPUT\"\n",
    );
    let problems = structure_problems(&kept);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("no later step runs on `steps.perf.outputs.status`")),
        "{problems:?}"
    );
    assert_eq!(
        run_job(kept.jobs()[0].1, "pull_request", 101, &sandbox),
        None
    );
    // Counted with no valgrind, and reports kept only on success.
    let uncounted = workflow(
        "      - run: cargo perfmark compare --instructions origin/main\n      \
         - uses: actions/upload-artifact@v4\n",
    );
    let problems = structure_problems(&uncounted);
    assert!(
        problems.iter().any(|p| p.contains("no valgrind")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("uploads only when")),
        "{problems:?}"
    );
}

#[test]
fn the_readers_read_what_workflows_are_written_in() {
    let root = Reader::read(
        "# a.yml\non:\n  push:\n    branches: [main, 'next']\n  pull_request:\njobs:\n  j:\n    steps:\n      \
         - uses: x@v1\n        with:\n          path: a/   # a comment\n      \
         - name: \"two # lines\"\n        run: |   # a comment\n          one \\\n            two\n\n          three\n      \
         - run: four\n",
    );
    let workflow = Workflow {
        file: "a.yml".to_owned(),
        root,
    };
    assert_eq!(workflow.events(), ["push", "pull_request"]);
    let on = workflow.root.get("on").unwrap();
    let branches = on.get("push").and_then(|p| p.get("branches"));
    assert!(
        matches!(branches, Some(Node::Seq(b)) if b.len() == 2 && b[1].scalar() == Some("next"))
    );
    let steps = workflow.jobs()[0].1;
    assert_eq!(steps.len(), 3);
    assert_eq!(
        steps[0]
            .get("with")
            .and_then(|w| w.get("path"))
            .and_then(Node::scalar),
        Some("a/")
    );
    assert_eq!(field(&steps[1], "name"), Some("two # lines"));
    assert_eq!(field(&steps[1], "run"), Some("one \\\n  two\n\nthree"));
    assert_eq!(field(&steps[2], "run"), Some("four"));

    let mut inner = Vec::new();
    let commands = shell_commands(
        "set +e # off\ncargo a \"$(git merge-base HEAD x)\" 'b c'\\\n  d && echo \"s=$?\" >> \"$OUT\"; x|y",
        &mut inner,
    );
    let words: Vec<Vec<&str>> = commands
        .iter()
        .map(|c| c.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        words,
        [
            vec!["set", "+e"],
            vec!["cargo", "a", PLAUSIBLE_COMMIT, "b c", "d"],
            vec!["echo", "s=$?"],
            vec!["x"],
            vec!["y"],
        ]
    );
    assert_eq!(inner, [["git", "merge-base", "HEAD", "x"]]);
    let context = Context::plausible();
    assert_eq!(
        expand("origin/${{ github.base_ref }}", &context),
        "origin/main"
    );
    assert!(runs(Some("steps.a.outputs.s != '0'"), false, &context));
    assert!(!runs(Some("github.event_name == 'push'"), false, &context));
    assert!(runs(Some("always()"), true, &context));
    assert!(!runs(None, true, &context));
    assert_eq!(
        kept_status("set +e\nx\necho \"status=$?\" >> \"$GITHUB_OUTPUT\""),
        Some("status".to_owned())
    );
}

// ---------------------------------------------------------------------------
// Running a job

/// What a job's expressions see.
struct Context {
    event: String,
    /// `steps.ID.outputs.NAME` → the value a step wrote.
    outputs: BTreeMap<String, String>,
}

impl Context {
    fn plausible() -> Context {
        Context {
            event: "pull_request".to_owned(),
            outputs: BTreeMap::new(),
        }
    }
}

const PLAUSIBLE_COMMIT: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// The value of a GitHub expression, as plausible as the test needs.
fn value_of(expression: &str, context: &Context) -> String {
    let expression = expression.trim();
    match expression {
        "github.event_name" => context.event.clone(),
        "github.base_ref" => "main".to_owned(),
        "github.sha" => PLAUSIBLE_COMMIT.to_owned(),
        _ if expression.starts_with("secrets.") => "a-token".to_owned(),
        _ if expression.contains("github.head_ref") => "a-branch".to_owned(),
        // GitHub reads an output no step wrote as empty.
        _ if expression.starts_with("steps.") => {
            context.outputs.get(expression).cloned().unwrap_or_default()
        }
        _ => "value".to_owned(),
    }
}

/// `text` with each `${{ … }}` replaced by its value, as Actions does
/// before the shell sees a script.
fn expand(text: &str, context: &Context) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${{") {
        let end = rest[start..]
            .find("}}")
            .map(|e| start + e)
            .expect("an expression closes");
        out.push_str(&rest[..start]);
        out.push_str(&value_of(&rest[start + 3..end], context));
        rest = &rest[end + 2..];
    }
    out + rest
}

/// Whether a step with condition `condition` (none: `success()`) runs after
/// steps that `failed` or not: the status functions and the `==` and `!=`
/// the workflows use, joined by `&&`. As GitHub does, a condition with no
/// status function runs only after success.
fn runs(condition: Option<&str>, failed: bool, context: &Context) -> bool {
    let condition = condition.unwrap_or("success()").trim();
    let condition = condition
        .strip_prefix("${{")
        .and_then(|c| c.strip_suffix("}}"))
        .unwrap_or(condition);
    let mut status_function = false;
    let mut holds = true;
    for term in condition.split("&&").map(str::trim) {
        holds &= match term {
            "always()" | "!cancelled()" => {
                status_function = true;
                true
            }
            "success()" => {
                status_function = true;
                !failed
            }
            "failure()" => {
                status_function = true;
                failed
            }
            _ => {
                let (left, equal, right) = if let Some((l, r)) = term.split_once("==") {
                    (l, true, r)
                } else if let Some((l, r)) = term.split_once("!=") {
                    (l, false, r)
                } else {
                    panic!("this test cannot read the condition `{condition}`")
                };
                (value_of(left, context) == right.trim().trim_matches('\'')) == equal
            }
        };
    }
    holds && (status_function || !failed)
}

/// A fresh directory for this test binary's runs of workflow steps.
fn sandbox(name: &str) -> PathBuf {
    let dir = support::fixture_target_dir()
        .join("ci-workflows")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bin")).expect("the sandbox");
    dir
}

/// Runs `steps` as Actions runs a job on `event`, each `run:` under bash
/// in `sandbox` with stand-ins for the programs it calls, the perf tests
/// (`cargo test`, `cargo perfmark compare`) exiting with `verdict`, and a
/// `uses:` step taken to succeed; the name of the step that failed the
/// job, if one did.
fn run_job(steps: &[Node], event: &str, verdict: i32, sandbox: &Path) -> Option<String> {
    let mut context = Context {
        event: event.to_owned(),
        outputs: BTreeMap::new(),
    };
    let mut failed = None;
    for step in steps {
        if !runs(field(step, "if"), failed.is_some(), &context) {
            continue;
        }
        let Some(script) = field(step, "run") else {
            continue;
        };
        let (status, outputs) = bash(&expand(script, &context), verdict, sandbox);
        if let Some(id) = field(step, "id") {
            for (name, value) in outputs {
                context
                    .outputs
                    .insert(format!("steps.{id}.outputs.{name}"), value);
            }
        }
        if status != 0 && field(step, "continue-on-error") != Some("true") && failed.is_none() {
            failed = Some(step_name(step));
        }
    }
    failed
}

/// What is not stood in for: bash's builtins, and the shells.
const NOT_STOOD_IN: [&str; 11] = [
    "echo", "set", "exit", "export", "cd", "true", "false", "test", "printf", "bash", "sh",
];

/// Runs `script` as Actions runs a step's (`bash --noprofile --norc -eo
/// pipefail`), every program it names replaced by a stand-in that
/// succeeds, but for the perf tests, which exit with `verdict`; its exit
/// status and the outputs it wrote to `$GITHUB_OUTPUT`.
fn bash(script: &str, verdict: i32, sandbox: &Path) -> (i32, BTreeMap<String, String>) {
    use std::os::unix::fs::PermissionsExt;
    let bin = sandbox.join("bin");
    let mut inner = Vec::new();
    let mut programs: Vec<Vec<String>> = shell_commands(script, &mut inner);
    programs.extend(inner);
    for words in programs {
        let program = &words[0];
        if NOT_STOOD_IN.contains(&program.as_str()) || program.contains('/') {
            continue;
        }
        let body = if program == "cargo" {
            "if [ \"$1\" = test ] || [ \"$1 $2\" = \"perfmark compare\" ]; then exit \"$VERDICT\"; fi\n"
        } else {
            ""
        };
        let path = bin.join(program);
        std::fs::write(&path, format!("#!/bin/sh\n{body}exit 0\n")).expect("a stand-in");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .expect("a stand-in");
    }
    let output = sandbox.join("github_output");
    let file = sandbox.join("step.sh");
    std::fs::write(&output, "").expect("GITHUB_OUTPUT");
    std::fs::write(&file, script).expect("the step's script");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(&file)
        .current_dir(sandbox)
        .env("PATH", path)
        .env("VERDICT", verdict.to_string())
        .env("GITHUB_OUTPUT", &output)
        .env("GITHUB_STEP_SUMMARY", sandbox.join("summary.md"))
        .output()
        .expect("bash runs");
    let written = std::fs::read_to_string(&output).unwrap_or_default();
    let outputs = written
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    (out.status.code().unwrap_or(-1), outputs)
}

// ---------------------------------------------------------------------------
// Reading a shell script

/// The words of the commands being read.
#[derive(Default)]
struct Words {
    commands: Vec<Vec<String>>,
    words: Vec<String>,
    word: Option<String>,
    /// The next word is a redirection's file, not an argument.
    redirect: bool,
}

impl Words {
    fn push(&mut self, text: &str) {
        self.word.get_or_insert_with(String::new).push_str(text);
    }

    fn end_word(&mut self) {
        if let Some(word) = self.word.take() {
            if !std::mem::take(&mut self.redirect) {
                self.words.push(word);
            }
        }
    }

    fn end_command(&mut self) {
        self.end_word();
        if !self.words.is_empty() {
            self.commands.push(std::mem::take(&mut self.words));
        }
    }
}

/// The commands of a shell script, each as the words it is run with:
/// lines joined where they end in `\`, quotes removed, comments and
/// redirections dropped, split at `;`, `&&`, `||` and `|`. A `$( … )` is
/// one plausible word (a commit for `git`); its own commands go to `inner`.
fn shell_commands(script: &str, inner: &mut Vec<Vec<String>>) -> Vec<Vec<String>> {
    let chars: Vec<char> = script.replace("\\\n", " ").chars().collect();
    let mut words = Words::default();
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None | Some('"'), '$') if chars.get(i + 1) == Some(&'(') => {
                let end = closing_paren(&chars, i + 2);
                let body: String = chars[i + 2..end].iter().collect();
                let commands = shell_commands(&body, inner);
                let git = commands.first().is_some_and(|c| c[0] == "git");
                words.push(if git { PLAUSIBLE_COMMIT } else { "value" });
                inner.extend(commands);
                i = end;
            }
            (Some(_), c) => words.push(&c.to_string()),
            (None, '\'' | '"') => {
                quote = Some(c);
                words.push("");
            }
            (None, '\\') => {
                i += 1;
                if let Some(next) = chars.get(i) {
                    words.push(&next.to_string());
                }
            }
            (None, '#') if words.word.is_none() => {
                while i + 1 < chars.len() && chars[i + 1] != '\n' {
                    i += 1;
                }
            }
            (None, '\n' | ';' | '&' | '|') => words.end_command(),
            (None, '>' | '<') => {
                words.end_word();
                words.redirect = true;
            }
            (None, c) if c.is_whitespace() => words.end_word(),
            (None, c) => words.push(&c.to_string()),
        }
        i += 1;
    }
    words.end_command();
    words.commands
}

/// The index of the `)` that closes a `$(` whose body starts at `from`.
fn closing_paren(chars: &[char], from: usize) -> usize {
    let mut depth = 1;
    let mut quote = None;
    for (i, &c) in chars.iter().enumerate().skip(from) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    panic!("a `$(` that never closes")
}

// ---------------------------------------------------------------------------
// Reading YAML

/// A YAML value, in the block style workflows are written in.
#[derive(Debug)]
enum Node {
    Scalar(String),
    Seq(Vec<Node>),
    Map(Vec<(String, Node)>),
}

impl Node {
    fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn scalar(&self) -> Option<&str> {
        match self {
            Node::Scalar(s) => Some(s),
            _ => None,
        }
    }
}

/// Reads block YAML by indentation: mappings (`key: value`), sequences
/// (`- item`), block scalars (`|`, `>`), flow sequences of plain values
/// (`[main]`), quoted and plain scalars, and `#` comments. Anchors, tags,
/// flow mappings and multi-document files are not read.
struct Reader {
    lines: Vec<String>,
    at: usize,
}

impl Reader {
    fn read(text: &str) -> Node {
        let mut reader = Reader {
            lines: text.lines().map(str::to_owned).collect(),
            at: 0,
        };
        let node = reader.node(0);
        assert!(
            reader.peek().is_none(),
            "yaml line {}: not read",
            reader.at + 1
        );
        node
    }

    /// The next line that holds something, as its indentation and text.
    fn peek(&mut self) -> Option<(usize, String)> {
        while let Some(line) = self.lines.get(self.at) {
            let text = line.trim_start();
            if !text.is_empty() && !text.starts_with('#') {
                return Some((line.len() - text.len(), text.to_owned()));
            }
            self.at += 1;
        }
        None
    }

    /// The value at `indent` or deeper, empty when there is none.
    fn node(&mut self, indent: usize) -> Node {
        match self.peek() {
            Some((i, text)) if i >= indent && (text == "-" || text.starts_with("- ")) => {
                self.seq(i)
            }
            Some((i, _)) if i >= indent => self.map(i),
            _ => Node::Scalar(String::new()),
        }
    }

    fn map(&mut self, indent: usize) -> Node {
        let mut entries = Vec::new();
        while let Some((i, text)) = self.peek() {
            if i < indent || text.starts_with("- ") {
                break;
            }
            assert_eq!(
                i,
                indent,
                "yaml line {}: indented under nothing",
                self.at + 1
            );
            let (key, rest) = text
                .split_once(':')
                .unwrap_or_else(|| panic!("yaml line {}: not `key: value`", self.at + 1));
            self.at += 1;
            let value = self.value(rest, indent);
            entries.push((key.trim().to_owned(), value));
        }
        Node::Map(entries)
    }

    /// The value of a key at `indent`, `rest` following its colon.
    fn value(&mut self, rest: &str, indent: usize) -> Node {
        let rest = without_comment(rest).trim();
        if rest.starts_with('|') || rest.starts_with('>') {
            return self.block(indent, rest.starts_with('>'));
        }
        if let Some(items) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            return Node::Seq(
                items
                    .split(',')
                    .map(|i| Node::Scalar(unquote(i.trim())))
                    .collect(),
            );
        }
        if !rest.is_empty() {
            return Node::Scalar(unquote(rest));
        }
        match self.peek() {
            // A sequence may sit at its key's own indentation.
            Some((i, text)) if i == indent && text.starts_with("- ") => self.seq(i),
            _ => self.node(indent + 1),
        }
    }

    /// A block scalar's lines, deeper than `indent`, its own indentation
    /// removed; `folded` (`>`) joins them with spaces.
    fn block(&mut self, indent: usize, folded: bool) -> Node {
        let mut lines = Vec::new();
        while let Some(line) = self.lines.get(self.at) {
            let text = line.trim_start();
            if !text.is_empty() && line.len() - text.len() <= indent {
                break;
            }
            lines.push(line.clone());
            self.at += 1;
        }
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        let cut = lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.len() - l.trim_start().len())
            .min()
            .unwrap_or(0);
        let lines: Vec<&str> = lines.iter().map(|l| l.get(cut..).unwrap_or("")).collect();
        Node::Scalar(lines.join(if folded { " " } else { "\n" }))
    }

    fn seq(&mut self, indent: usize) -> Node {
        let mut items = Vec::new();
        while let Some((i, text)) = self.peek() {
            if i != indent || !(text == "-" || text.starts_with("- ")) {
                break;
            }
            let item = text[1..].trim_start();
            let column = indent + text.len() - item.len();
            let is_map = item.split_once(':').is_some_and(|(key, _)| {
                !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            });
            if is_map {
                // The item's first line, read as a line of a mapping at the
                // item's own column.
                self.lines[self.at] = format!("{}{item}", " ".repeat(column));
                items.push(self.map(column));
            } else {
                self.at += 1;
                items.push(Node::Scalar(unquote(without_comment(item).trim())));
            }
        }
        Node::Seq(items)
    }
}

/// `text` up to the comment it may end with: a `#` at the start or after
/// a space, past a quoted scalar's closing quote (in a plain scalar,
/// quotes are characters like any other).
fn without_comment(text: &str) -> &str {
    let trimmed = text.trim_start();
    let start = text.len() - trimmed.len();
    let from = match trimmed.chars().next() {
        Some(q @ ('\'' | '"')) => trimmed[1..].find(q).map_or(start, |end| start + end + 2),
        _ => start,
    };
    let bytes = text.as_bytes();
    (from..text.len())
        .find(|&i| bytes[i] == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()))
        .map_or(text, |i| &text[..i])
}

/// A scalar without the quotes around it.
fn unquote(text: &str) -> String {
    for q in ['\'', '"'] {
        if let Some(inner) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner.to_owned();
        }
    }
    text.to_owned()
}
